/*
 * clocks.h — the turn-clock columns of the games table (clock, clock_deadline, clock_due): writing a clock
 * back, and the clock worker's claim of a game whose clock is due.
 */
#ifndef CD_CLOCKS_H
#define CD_CLOCKS_H

#include <stdbool.h>

#include "db.h"

/* ST_CLOCK_UPDATE: the clock's JSON with its deadline and due time (epoch seconds; < 0: none). */
cd_q cd_clock_update(cd_db *db, const char *game_id, const char *clock, double deadline, double due);
/* ST_CLOCK_CLAIM, in a transaction: one game whose clock is due at `now`, locked (SKIP LOCKED); *found false
 * when none is. */
cd_q cd_clock_claim(cd_db *db, double now, bool *found, char game_id[37]);
/* ST_CLOCK_DUE_PEEK: the game cd_clock_claim would take, unlocked (names it in the log when the claim itself
 * failed, as on a read-only database). */
cd_q cd_clock_due_peek(cd_db *db, double now, bool *found, char game_id[37]);
/* ST_CLOCK_DEFER: an active game's clock due again at `due` (epoch seconds), nothing else changed: a game whose
 * due clock could not be worked off goes behind the others (clock/clock_worker.c). */
cd_q cd_clock_defer(cd_db *db, const char *game_id, double due);

#endif
