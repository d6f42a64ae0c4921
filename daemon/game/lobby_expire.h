/*
 * lobby_expire.h — a game that waits for its seats does not wait for ever: once nobody has joined it for
 * CARCD_WAITING_TTL seconds (counted from its creation or its latest join, carcd's clock: sql/024), the clock
 * worker cancels it (clock/clock_worker.c), told as a creator's cancel is (lobby_cancel.h) but said to be
 * carcd's: its seats' players (game_over, "cancelled"), the endpoints its seats added (game.finished,
 * "cancelled") and the seats with an address (mail: "cancelled by carcd ... nobody joined it for N days").
 * So the lobby lists no table that nobody came to, and an invitation nobody took stops waiting. A day before
 * (half the TTL when that is shorter: cd_lobby_warn_before) its seats are told that it comes, once until the
 * next join: those with an address by mail (mail/waiting.h, kind "expiring"), its seats' players (game_expiring)
 * and the endpoints its seats added (game.expiring), so that someone can still join or its creator start it or
 * keep it open. Its creator can also keep it open (POST /v1/games/{id}/keep-open, handlers/lobby.c): the
 * expiry counts anew, as after a join, and seats already told a date are told it is taken back (game_kept_open,
 * game.kept_open and mail kind "kept_open").
 *
 * No game is cancelled before its seats were told: a warning that comes late, with less than half its notice
 * left or none (carcd was stopped through its time, or it kept failing), counts the game anew so that it expires
 * the whole notice after the warning, and the expiry passes over a game not told.
 *
 * One transaction a game, which locks its row and looks again: a join that came meanwhile counts the game
 * anew, and a start or cancel ends its count; two carcd sharing a database cancel it once. A game whose
 * transaction fails is logged with its SQLSTATE and passed over for the others.
 */
#ifndef CD_GAME_LOBBY_EXPIRE_H
#define CD_GAME_LOBBY_EXPIRE_H

#include <stdbool.h>

#include "db/db.h"
#include "db/lobby.h"

/* Cancels up to `max` waiting games not joined for ttl_s seconds before `now` (epoch s, carcd's clock) whose
 * seats were told, oldest first; *done gets how many. False when the database is away (try again later). */
bool cd_lobby_expire(cd_db *db, double now, int ttl_s, int max, int *done);

/* Tells the seats of up to `max` waiting games that their expiry comes in cd_lobby_warn_before(ttl_s) seconds
 * (not joined for ttl_s less that; later than that by over half of it, the game counts anew from then), each
 * game once until its next join; *done: how many games. False when the database is away. */
bool cd_lobby_warn(cd_db *db, double now, int ttl_s, int max, int *done);
/* In a transaction holding the game row's lock (cd_waiting_lock, status waiting): its creator (by_admin: the
 * server's admin) keeps it open at
 * now (epoch s, carcd's clock), so that it expires ttl_s later unless someone joins; when its seats were told
 * the expiry comes, they are told the new date as they were told the old one: their players (game_kept_open),
 * the endpoints (game.kept_open) and mail kind "kept_open". */
cd_tx_result cd_lobby_keep_open(cd_db *db, const char *id, const cd_waiting_lock_row *w, double now, int ttl_s,
                                bool by_admin);

/* How long before its expiry a waiting game's seats are told: a day, or half ttl_s when that is shorter. */
int cd_lobby_warn_before(int ttl_s);

/* How the mail and the log say ttl_s: "14 days", "3 hours", "90 seconds" (the largest unit it is a whole
 * number of, else seconds). */
void cd_lobby_ttl_words(int ttl_s, char *out, size_t n);

#endif
