/*
 * replay.h — a game's state rebuilt from its seed, its stored set-up and its move log: what verify compares
 * with the stored snapshot, what a picture of the board "after move N" is drawn from, and what an export
 * hands to another server.
 *
 * The seed is secret while a game runs: these functions need a game loaded with it (cd_game_load with
 * admin) and never put it in what they return; callers render the replayed state with their viewer's view.
 */
#ifndef CD_REPLAY_H
#define CD_REPLAY_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "db/db.h"
#include "games.h"

/* The state at the start of the game, before any move (seq 0): the stored set-up (games.setup, as
 * games_create.c writes it) decoded by carc_setup_from_json, with the game's seed. False with `why` when the set-up or seed do
 * not give a game. */
bool cd_replay_start(const cd_game *g, carc_state *st, char *why, size_t whylen);

/* Replays g's log into *st up to and including seq `upto` (-1: the whole log). Returns -1 when every move
 * applied, else the seq at which replay failed (why says how; 0 for the set-up). *nmoves gets the moves
 * applied. *db_error is set (and 0 returned) when the log could not be read. `moves` (may be NULL) gets
 * a new array of {"seq","seat","move"} of the moves read. */
int cd_replay(cd_db *db, const cd_game *g, int upto, carc_state *st, int *nmoves, json_t **moves, char *why,
              size_t whylen, bool *db_error);

#endif
