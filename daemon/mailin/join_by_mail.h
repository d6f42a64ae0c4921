/*
 * join_by_mail.h — a reply to an open place's invitation mail (mail/open_seat.h): "join", or "join Bob",
 * on its first line takes the place's seat for the address the invitation was mailed to, as joining with the
 * invitation's link does (game/lobby_join.h), so that a person who only uses mail can play from the first mail.
 * The seat's mail goes to that address; its private link (the seat's token, shown nowhere else) is in the next
 * mail carcd sends it: "you have joined" while the game waits for other seats, or the seat's first mail when
 * this join starts the game.
 *
 * A reply from any other address is ignored (and told nothing: carcd mails nobody it did not invite). A reply
 * from the invitee that takes no seat (another first line, a name that is not one, a seat taken, a game
 * started or cancelled) gets an answer saying why; the answer to another first line or a name that is none
 * may be answered again (its Reply-To is the place's).
 */
#ifndef CD_MAILIN_JOIN_BY_MAIL_H
#define CD_MAILIN_JOIN_BY_MAIL_H

#include <stddef.h>

#include "db/db.h"
#include "mail/reply.h"

/* In mail_in.c's transaction, for a reply whose tag is the place's of game_id (checked): joins or answers why
 * not. CD_TX_COMMIT with outcome ("joined", "refused", "ignored") and detail for the log and mail_in; CD_TX_ERROR
 * when a statement failed. */
cd_tx_result cd_mail_join(cd_db *db, const cd_reply *r, const char *game_id, int place, char *outcome,
                          size_t outlen, char *detail, size_t detlen);

#endif
