/*
 * bot.h — the engine's players: a seat that chooses its own move from what that seat may know.
 *
 * Pure like the rest of libcarc: no clock, no globals, and no randomness but the generator the caller gives
 * (carc_bot_rng derives it from the game's seed, on a nonce of its own, so it is a stream apart from the
 * game's draws: replay never needs it, because the bot's move is logged like any other).
 *
 * Fairness. A bot never reads hidden state. carc_bot_determinise builds the state the bot thinks on from the
 * seat's view only: the stack's order and the tiles under hills are a fresh shuffle of the tiles this seat
 * has not seen (this game's tile set minus every tile shown), the fruit on trees and the other seats' hands
 * of triangles are sampled likewise, the sheep bag is the full bag minus the tokens in flocks, scripted
 * draws are dropped, and the game's generator is replaced by one drawn from the bot's. Everything the
 * bots below do starts from such a state, so a state whose hidden parts differ gives the same move
 * (tests/unit/test_bot.c hands them a scrambled one).
 *
 * Reproducibility. The engine has no clock, so a think time is a playout count: CARC_BOT_PLAYOUTS_PER_S
 * playouts per second asked for. A playout is the move searched, then greedy's moves for the rest of the
 * turn and two turns of every seat (mcts.c). bench/bot-arena measured 2 770 such playouts per CPU second
 * in a base game and 1 060 with all four expansions on the 2-core development machine on 2026-12-01 (mcts
 * against greedy at think_ms 100, one game of seed 91 each, the machine shared), so think_ms = 1000 (1 000
 * playouts) is about 1 s of one core there with all four expansions and 0.4 s in a base game: the rate is
 * set by the slower. (eval.c's reads of final scoring without a state copy made playouts 3.2 times
 * cheaper: 844 and 335 before, same runs, same moves.) The same state, seat, kind, budget and generator
 * give the same move on any machine, however fast.
 */
#ifndef CARC_BOT_H
#define CARC_BOT_H

#include "carc.h"

typedef enum { CARC_BOT_RANDOM, CARC_BOT_GREEDY, CARC_BOT_MCTS, CARC_NBOT_KINDS } carc_bot_kind;
extern const char *const carc_bot_names[CARC_NBOT_KINDS];   /* "random", "greedy", "mcts" */
int carc_bot_find(const char *name);                        /* kind, or -1 */

#define CARC_BOT_PLAYOUTS_PER_S 1000   /* think_ms -> playouts (documented above) */
#define CARC_BOT_THINK_DEFAULT_MS 1000  /* mcts without think_ms */
#define CARC_BOT_THINK_MAX_MS 60000
/* The playouts a think time buys: think_ms * CARC_BOT_PLAYOUTS_PER_S / 1000, at least 1. */
uint32_t carc_bot_playouts(uint32_t think_ms);

/* The bot's generator for the decision the game waits for at `seq`: ChaCha20 keyed by the game's seed on a
 * nonce the game's own stream never uses, so the bot's draws tell nothing of the game's and vice versa. */
void carc_bot_rng(carc_rng *r, const uint8_t seed[32], uint64_t seq);

/* Fills *out with a state consistent with everything `seat` may know of *st, its hidden parts sampled from
 * what the seat has not seen, with r. */
void carc_bot_determinise(const carc_state *st, int seat, carc_rng *r, carc_state *out);

/* The heuristic worth of a state for each seat (eval.c documents it): points so far, plus what the board
 * would pay if the game ended now, plus the open cities' expected completion bonus, plus followers kept in
 * supply. Writes st->nplayers values. */
void carc_bot_worth(const carc_state *st, double worth[CARC_MAX_PLAYERS]);

/* The move `seat` makes now, chosen by `kind` (playouts: mcts's budget, ignored by the others), from the
 * seat's view of *st only. -1 when the game does not wait for `seat`. */
int carc_bot_move(const carc_state *st, int seat, carc_bot_kind kind, uint32_t playouts, carc_rng *r,
                  carc_move *out);

#endif
