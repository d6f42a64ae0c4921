/*
 * clock_tx.h — writing a game's turn clock back (cd_game_lock reads it with the game): the clock worker and
 * the clock endpoints (handlers/clock_change.c) share it.
 */
#ifndef CD_CLOCK_TX_H
#define CD_CLOCK_TX_H

#include "game/clock.h"
#include "game/games.h"

/* Writes the clock back with its derived deadline and due time. */
bool cd_clock_save(cd_db *db, const char *id, const cd_clock *c);

#endif
