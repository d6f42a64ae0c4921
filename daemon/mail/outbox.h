/*
 * outbox.h — the mails an event causes, written into mail_outbox inside the event's own transaction (as the
 * webhook outbox does, webhooks/outbox.h): a mail exists exactly when its move committed; mail/send.c sends
 * it. Each call is a no-op (no query) when mail is off in this process (mail.h), and one indexed query when
 * the game has no seat with mail. CD_TX_COMMIT when everything (or nothing) was written, CD_TX_ERROR when a
 * statement failed (the caller rolls back).
 */
#ifndef CD_MAIL_OUTBOX_H
#define CD_MAIL_OUTBOX_H

#include <jansson.h>

#include "carc.h"
#include "db/db.h"

/* After a move (st the state after it, seq its seq, deadline the clock's ISO deadline or ""): the turn mail
 * for the seat the game now waits for, or the game-over mail for every seat with mail. The game service
 * passes its fields (this layer is below it, as webhooks/ is). */
cd_tx_result cd_mail_enqueue_move(cd_db *db, const char *game_id, int seq, const carc_state *st, const char *deadline);
/* The admin cancelled the game (handlers/admin_cancel.c; seq: the cancel's entry, st: the state it stopped
 * at, reason: NULL for none): the game-over mail to every seat with mail, saying it was cancelled. */
cd_tx_result cd_mail_enqueue_cancel(cd_db *db, const char *game_id, int seq, const carc_state *st, const char *reason);
/* The clock's reminder to the waited-for seat. */
cd_tx_result cd_mail_enqueue_reminder(cd_db *db, const char *game_id, int seq, const carc_state *st,
                                      const char *deadline);
/* A seat got an address: its invitation (token: its private link; NULL: none) and, when the game waits for
 * it, its turn mail. names may be NULL. */
cd_tx_result cd_mail_enqueue_invitation(cd_db *db, const char *game_id, const carc_state *st, int seq,
                                        const json_t *names, int seat, const char *email, const char *tag,
                                        const char *token, const char *deadline);
/* A reply that asked for the game's status (mailin/mail_in.c): the moves since the seat's last turn, whom the
 * game waits for, scores and board, and the legal moves when it waits for this seat. */
cd_tx_result cd_mail_enqueue_status(cd_db *db, const char *game_id, const carc_state *st, int seq, int seat,
                                    const char *email, const char *tag, const char *deadline);
/* A reply that was not played: the reason and the legal moves again. */
cd_tx_result cd_mail_enqueue_refused(cd_db *db, const char *game_id, const carc_state *st, int seq,
                                     const json_t *names, int seat, const char *email, const char *tag,
                                     const char *reason);

#endif
