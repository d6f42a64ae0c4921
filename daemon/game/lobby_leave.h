/*
 * lobby_leave.h — a seat taken by a join given up before the game starts (POST /v1/games/{id}/leave,
 * handlers/game_leave.c). A game under way is left by resigning (handlers/resign.c); a seat named at the game's
 * creation was chosen by its creator, who cancels the game rather than leave a named player out.
 *
 * Seats are numbered in the order they are taken and the engine plays seats 0..n-1, so the seats taken after
 * the leaving one move down by one, with all that is kept by their numbers (carcd_seat_leave, sql/029): their
 * tokens stay theirs, their mail keeps its reply tags (mail/tag.h). The place the leaving seat took opens again,
 * to its invite code, its mailed invitation's reply or the lobby, as before it was taken.
 */
#ifndef CD_GAME_LOBBY_LEAVE_H
#define CD_GAME_LOBBY_LEAVE_H

#include "db/db.h"
#include "db/lobby.h"

/* In a transaction holding the game row's lock (cd_waiting_lock, status waiting), for a seat that took a place
 * (cd_invite's seat): the seat leaves, and the seats that stay hear of it as of a join: player_left in their
 * players' streams, player.left to the game's endpoints, a mail to each seat with an address; removed: the
 * game's creator removed it (game/lobby_remove.h), which the webhook and the mail say. who (NULL: not wanted)
 * gets the seat as it was read before its rows went: its name, its player. The game's expiry is not counted
 * anew: a leave is not a sign that someone still wants to play. */
cd_tx_result cd_lobby_leave(cd_db *db, const char *id, const cd_waiting_lock_row *w, int seat, bool removed,
                            cd_waiting_seat *who);

#endif
