/*
 * lobby_remove.h — the creator of a waiting game removes a seat that a join took (POST
 * /v1/games/{id}/seats/{seat}/remove, handlers/seat_remove.c): a stranger from the lobby who should not play, a
 * friend who took the wrong game. The seat goes as a leave's does (lobby_leave.h: the later seats move down one,
 * the others are told, "removed by its creator"), and besides:
 *
 *   - the removed person hears of it: seat_removed in their player's stream, and a last mail to the seat's
 *     address (mail/waiting.h's cd_mail_enqueue_gone); their token stops working with the seat's row;
 *   - the place cannot simply be taken back: a place the removed person took with its invite code (or by a
 *     reply to its mailed invitation) opens to a new code, which only the creator is given, without the address
 *     it was mailed to; and the removed player's key is refused a seat of the game from the lobby (sql/030).
 *     A join from the lobby never saw its place's code (sql/030's by_code), so that place keeps its code, and
 *     a mailed one (sql/022) gets its invitee's address back, as after a leave.
 */
#ifndef CD_GAME_LOBBY_REMOVE_H
#define CD_GAME_LOBBY_REMOVE_H

#include <stdbool.h>

#include "db/db.h"
#include "db/lobby.h"

/* What became of the removed seat's place. */
typedef struct {
    bool renewed;       /* the place opens to new_code_hash's code */
    int place;
    char name[sizeof ((cd_waiting_seat *)0)->name];   /* the removed seat's name */
} cd_removal;

/* In a transaction holding the game row's lock (cd_waiting_lock, status waiting): the seat that took the place
 * `in` (cd_invites_get's row; not a rematch's) is removed. new_code_hash: a new invite code's hash, which the
 * place gets when its old code went with the removed person (out->renewed). */
cd_tx_result cd_lobby_remove(cd_db *db, const char *id, const cd_waiting_lock_row *w, const cd_invite *in,
                             const char *new_code_hash, cd_removal *out);

#endif
