/*
 * waiting_reply.h — a reply from a seat of a game that still waits for its seats. The waiting game's mails
 * (mail/waiting.h) carry the seat's reply address, so that a person who joined by mail can give the seat back by
 * mail too: a reply "leave" does what POST /v1/games/{id}/leave does (game/lobby_leave.h), and its address gets
 * a last mail that says so. Anything else (a move, "status", a seat named at the creation saying "leave") is
 * answered with why it was not played and what a reply can do before the start, within the answers' hourly
 * limit (mail/outbox.h).
 */
#ifndef CD_MAILIN_WAITING_REPLY_H
#define CD_MAILIN_WAITING_REPLY_H

#include <stddef.h>

#include "db/db.h"
#include "db/mail_seats.h"
#include "mail/reply.h"

/* In mail_in.c's transaction, which holds the game row's lock (its status waiting), for reply r from seat (its
 * mail row, whose address sent it): CD_TX_COMMIT with outcome ("left", or "refused" with detail the reason and
 * whether it was answered); CD_TX_ERROR when a statement failed. */
cd_tx_result cd_mail_in_waiting(cd_db *db, const cd_reply *r, const char *game_id, const cd_mail_seat *seat,
                                char *outcome, size_t on, char *detail, size_t dn);

#endif
