/*
 * forced_moves.h — moves a seat does not choose: leaving the game (a resignation, or the turn clock's forfeit
 * timeout) and the default moves of the skip timeout. They go into the move log like any move (origin "seat" for a
 * resignation, "clock" for a timeout), so verify and replay see them; a leave is logged as
 * {"kind": "leave"} and replayed with carc_leave, a leave to a bot as {"kind": "leave_to_bot"}
 * (carc_logged_move_apply).
 */
#ifndef CD_FORCED_MOVES_H
#define CD_FORCED_MOVES_H

#include <jansson.h>

#include "games.h"

/* LEAVE: the seat leaves (carc_leave); TO_BOT: its player leaves and a bot plays it on (carc_leave_to_bot,
 * logged {"kind": "leave_to_bot"}: the state is unchanged, the entry tells the log's readers, the webhooks,
 * the players' streams and the mail, as a leave does); SKIP: the turn's default moves. */
typedef enum { CD_FORCED_LEAVE, CD_FORCED_SKIP, CD_FORCED_TO_BOT } cd_forced_move;

/* Inside the transaction that locked g (cd_game_lock): applies `what` for seat to g->st and stores each
 * move with cd_move_commit (origin "seat" or "clock"), the game's clock (if it has one) advanced at `now`. g->seq becomes the last seq written. *answer (may be NULL): {"seq",
 * "events"} of the first move as `seat` sees it. CD_TX_ROLLBACK with err when the engine refuses (the seat
 * already left, the game is over). Like cd_move_commit, the writes are stored only when the transaction
 * commits. */
cd_tx_result cd_forced_moves_commit(cd_db *db, cd_game *g, int seat, cd_forced_move what, const char *origin,
                                    double now, json_t **answer, char *err, size_t errlen);

#endif
