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
#include "game/games.h"

bool cd_move_is_leave(const json_t *move);

typedef enum { CD_CM_LEAVE, CD_CM_SKIP } cd_clock_move;

/* Inside the transaction that locked g (cd_game_lock): applies `what` for seat to g->st and stores each
 * move with cd_move_write (origin "seat" or "clock"), the game's clock (if it has one) advanced with
 * cd_clock_after_move at `now`. g->seq becomes the last seq written. *answer (may be NULL): {"seq",
 * "events"} of the first move as `seat` sees it. CD_TX_ROLLBACK with err when the engine refuses (the seat
 * already left, the game is over). Like cd_move_write, the writes are stored only when the transaction
 * commits. */
cd_tx_result cd_clock_moves_store(cd_db *db, cd_game *g, int seat, cd_clock_move what, const char *origin,
                                  double now, json_t **answer, char *err, size_t errlen);

#endif
