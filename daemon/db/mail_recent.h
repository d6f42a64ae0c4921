/*
 * mail_recent.h — the moves a turn mail summarises: the game's last moves (ST_MOVES_AFTER), as
 * (seq, seat, notation) rows, for "since your last turn".
 */
#ifndef CD_DB_MAIL_RECENT_H
#define CD_DB_MAIL_RECENT_H

#include <jansson.h>

#include "db.h"
#include "mail_seats.h"

typedef struct {
    int seq, seat;          /* seat -1: no seat's (the game's opening, the admin's cancel) */
    char notation[80];      /* the logged move's notation; "" when it has none (a clock's move, say) */
    char origin[8];         /* seat, clock, bot or admin */
} cd_mail_recent_move;

/* The moves after after_seq, in order, at most max (inside a transaction it sees the moves this transaction
 * wrote). */
cd_mq cd_mail_recent_moves(cd_db *db, const char *game_id, int after_seq, cd_mail_recent_move *out, int max, int *n);

/* ST_SEATS_OF_GAME: the seats' names in seat order, a new JSON array (empty when the statement failed: a mail
 * then says "seat N"). */
json_t *cd_mail_seat_names(cd_db *db, const char *game_id);

#endif
