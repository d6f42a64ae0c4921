/*
 * seat_mail.h — giving a seat an address (players[].email at creation, PUT /v1/games/{id}/email): the
 * address checked, its reply tag made, the mail_seats row written and the invitation (and the turn mail,
 * when the game waits for the seat) enqueued, all in the caller's transaction.
 */
#ifndef CD_MAIL_SEAT_MAIL_H
#define CD_MAIL_SEAT_MAIL_H

#include <jansson.h>
#include <stdbool.h>

#include "address.h"   /* cd_mail_address_ok, which the handlers check a seat's address with */
#include "carc.h"
#include "db/db.h"

/* In a transaction: seat's address becomes email (its row and reply tag), no mail sent: a game that waits for its
 * seats keeps it so for its start (mail/waiting.h). NULL: the row goes. */
cd_tx_result cd_mail_seat_hold(cd_db *db, const char *game_id, int seat, const char *email);

/* In a transaction: seat's address becomes email (NULL: the seat gets no more mail), as cd_mail_seat_hold, and
 * its invitation is mailed. token: the seat's token for the invitation's private link (NULL: none). names may
 * be NULL. */
cd_tx_result cd_mail_seat_set(cd_db *db, const char *game_id, const carc_state *st, int seq, const json_t *names,
                              int seat, const char *email, const char *token, const char *deadline);

#endif
