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

#include "build.h"
#include "carc.h"
#include "db/db.h"
#include "db/mail_seats.h"

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
/* A seat got an address (to: its mail row): its invitation (token: its private link; NULL: none) and, when the
 * game waits for it, its turn mail. names may be NULL. */
cd_tx_result cd_mail_enqueue_invitation(cd_db *db, const char *game_id, const carc_state *st, int seq,
                                        const json_t *names, const cd_mail_seat *to, const char *token,
                                        const char *deadline);
/* At most this many answers to replies (a refusal, a status, an open place's answer) go to one address for one
 * seat of a game (or its open places) an hour: a responder that ignores Auto-Submitted (reply.h) and answers
 * every answer meets silence after the tenth instead of a loop; a person who sends more bad replies than that
 * in an hour is answered again once the hour has passed. Their replies are still read and played, and a join
 * by mail is always answered (its answer carries the seat's link). */
#define CD_MAIL_ANSWERS_PER_HOUR 10
/* A waiting game's mails of who joined or left, to one address in an hour: past them, none (the start's mail
 * still comes, and the game's page shows the seats). A join and a leave by the same invitation code, again and
 * again, would otherwise fill the other seats' mailboxes with a name its sender chose. */
#define CD_MAIL_LOBBY_NOTICES_PER_HOUR 6
#define CD_MAIL_STR_(x) #x
#define CD_MAIL_STR(x) CD_MAIL_STR_(x)
/* what the log says of a reply left unanswered for it */
#define CD_MAIL_ANSWERS_LIMIT_WORDS \
    CD_MAIL_STR(CD_MAIL_ANSWERS_PER_HOUR) " answers went to this address in the last hour"
/* Whether one more answer to rcpt for seat of game_id (-1: an open place's) keeps within that. */
cd_mq cd_mail_may_answer(cd_db *db, const char *game_id, int seat, const char *rcpt, bool *may);
/* Why a reply from seat (its mail row) goes unanswered now: its mail is stopped, or the answers above went to it
 * in the last hour; *why NULL: answer it. */
cd_mq cd_mail_answer_blocked(cd_db *db, const char *game_id, const cd_mail_seat *seat, const char **why);

/* A mail given by its parts (build.h; p->to is the envelope recipient, p->msg_id its id), built and written
 * into the outbox as `kind` for seat (-1: a person with no seat) at seq. false when GMime or the write
 * failed. For the mails that are not a seat's view of the game (mail/place_answer.c, mail/waiting.c). */
bool cd_mail_outbox_add_parts(cd_db *db, const char *game_id, int seat, const char *kind, int seq,
                              const cd_mail_parts *p);

/* A reply from seat `to` that asked for the game's status (mailin/mail_in.c): the moves since the seat's last turn,
 * whom the game waits for, scores and board, and the legal moves when it waits for this seat; cancelled: the
 * admin cancelled the game (st is as it was then), which the mail says instead. in_reply_to: the reply's
 * Message-ID, which the answer is threaded under ("" or NULL: under the game's thread). */
cd_tx_result cd_mail_enqueue_status(cd_db *db, const char *game_id, const carc_state *st, bool cancelled, int seq,
                                    const cd_mail_seat *to, const char *deadline, const char *in_reply_to);
/* A reply that was not played: the reason and the legal moves again (cancelled and in_reply_to as for a
 * status). */
cd_tx_result cd_mail_enqueue_refused(cd_db *db, const char *game_id, const carc_state *st, bool cancelled, int seq,
                                     const cd_mail_seat *to, const char *reason, const char *in_reply_to);

#endif
