/*
 * clock_moves.h — moves a seat does not choose: leaving the game (resign, or the forfeit timeout) and the
 * default moves of the skip timeout. They go into the move log like any move (origin "seat" for a
 * resignation, "clock" for a timeout), so verify and replay see them; a leave is logged as
 * {"kind": "leave"} and replayed with carc_leave.
 */
#ifndef CD_CLOCK_MOVES_H
#define CD_CLOCK_MOVES_H

#include <jansson.h>

#include "clock.h"
#include "games.h"

bool cd_move_is_leave(const json_t *move);

typedef enum { CD_CM_LEAVE, CD_CM_SKIP } cd_clock_move;

/* Inside the transaction that locked g (cd_clock_game_lock): applies `what` for seat to g->st, logs each
 * move (origin "seat" or "clock"), stores the new snapshot, seq and status with the clock c (NULL: the game
 * has none; else advanced with cd_clock_after_move at `now`), notifies listeners and enqueues webhooks.
 * g->seq becomes the last seq written. *answer (may be NULL): {"seq", "events"} of the first move as `seat`
 * sees it. CD_TX_ROLLBACK with err when the engine refuses (the seat already left, the game is over). */
cd_tx_result cd_clock_moves_store(cd_db *db, cd_game *g, int seat, cd_clock_move what, const char *origin,
                                  cd_clock *c, double now, json_t **answer, char *err, size_t errlen);

#endif
