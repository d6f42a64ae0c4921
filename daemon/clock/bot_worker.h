/*
 * bot_worker.h — the threads that play the bots' moves: a bot seat's ({"bot": "greedy"} or {"bot": "mcts",
 * "think_ms": 1000} at creation, or a seat a bot took when its player left under "bot_after_leave"), and the
 * turn of a seat out of time under the clock's "bot" timeout (played by greedy; the seat stays its
 * player's, who takes it back by moving in time).
 *
 * Coordination. Every carcd process may run one; they share the work through the database, like the clock
 * worker. A step is three parts:
 *   1. a transaction leases one game whose pending seat a bot plays now (ST_BOT_CLAIM: FOR UPDATE SKIP
 *      LOCKED, games.bot_lease_until; another worker skips a leased game) and reads its state and seed;
 *   2. the bot thinks, outside any transaction (mcts may take its think time), from the seat's view only
 *      (engine/bot/bot.h), its generator carc_bot_rng(seed, seq): the same state always gives the same move;
 *   3. a transaction locks the game and, when it is still at the seq the bot thought at and still the bot's
 *      to play, applies the move through cd_move_commit (origin "bot": the log and the events say "by":
 *      "bot", and it notifies like any move), and ends the lease. A stale seq (the player took the seat
 *      back, someone resigned) only ends the lease: the next step thinks again.
 * A worker that dies while thinking holds its lease for CD_BOT_LEASE_S at most. A process runs
 * cfg->bot_workers such threads (CARCD_BOT_WORKERS, default one per core online), each thinking for one game
 * at a time on its own database connection: as many games' bots think at once, each move costing its think
 * time of one core; more games wait their turn (more carcd processes share them). The threads of one process
 * coordinate as processes do, through the lease: step 1 commits it before the thread thinks.
 *
 * Time comes from timesrc.h (tests replace it); the worker looks every bot_interval_ms.
 */
#ifndef CD_BOT_WORKER_H
#define CD_BOT_WORKER_H

#include <stddef.h>

#include "base/config.h"

#define CD_BOT_LEASE_S 90.0   /* the longest think (CARC_BOT_THINK_MAX_MS) and a margin */

/* Starts the cfg->bot_workers threads (none when cfg->bot_interval_ms is 0). 0, or -1 with err (none left
 * running). cfg outlives the stop. */
int cd_bot_worker_start(const cd_config *cfg, char *err, size_t errlen);
void cd_bot_worker_stop(void);

#endif
