/*
 * mcts.c — the search bot: determinised Monte Carlo search over the seat's candidate moves, each judged by
 * playing the game on with greedy's moves, on the engine itself.
 *
 *   - Candidates: the legal moves are the same in every determinisation (they depend on the seat's view
 *     only). The search looks at the CARC_MCTS_ROOT best of them by the greedy value (eval.c) on a first
 *     determinisation, a prior that spends the budget where a good move can be.
 *   - Rounds: sequential halving (Karnin, Koren and Somekh, 2013), the root policy of hybrid MCTS (Pepels,
 *     Cazenave, Winands and Lanctot, 2014): ceil(log2 candidates) rounds share the playouts evenly; each
 *     round draws fresh determinisations (carc_bot_determinise: the seat's view, the hidden parts sampled
 *     from what it has not seen) and plays every surviving candidate out on each of them, then keeps the
 *     better half by mean reward (ties: the better prior, then list order). The candidates of one
 *     determinisation meet the same tiles, so the difference between them is the moves', not the draws'
 *     (common random numbers); the candidate left at the end is the move.
 *   - Playout: the candidate, then the rest of the turn and CARC_MCTS_HORIZON turns per seat of greedy's
 *     moves on the determinisation, then the heuristic: each seat's reward is 1 / (1 + exp(-margin /
 *     CARC_MCTS_SCALE)), margin being its worth minus the best other seat's (eval.c); a finished game is
 *     judged by its final scores the same way. So a move is judged by what the other seats' best replies to
 *     it leave, with the tiles they might draw sampled by the determinisations. The scale is 20 points
 *     because games with expansions score high: with all four, a 2-seat game ends near 150 to 200 points
 *     a seat, and at a scale of 8 a lead or gap of 30 saturated every candidate's reward alike, so the
 *     search chose nearly at random once a game was lopsided. Against greedy at think_ms 1000 on the same
 *     seeds (4101, the first 11 games): scale 8 won 6 with all four expansions, scale 20 won 10; in base
 *     games (seed 4102) scale 8 won 33.5 of 35, scale 20 21 of 24.
 *   - Why not a deeper tree: the search before this one (up to d8653fa) grew a UCT tree per
 *     determinisation below the candidates. Its nodes tried every reply in list order before greedy's, so
 *     most playouts judged a move against replies nobody would make. Measured with bench/bot-arena against
 *     greedy, 2-seat base games, seed 77, 300 playouts a decision: the trees won 13 of 22,
 *     this search with one turn a seat 30.5 of 40 (margin 7.6 against 18.6 points a game); with two
 *     turns a seat (the horizon here) 37 of 40 at 150 playouts (32.3 points a game, about the same CPU as
 *     one turn at 300), with three 13 of 16 at 150. Before the trees, random playout moves or none
 *     levelled off at 63-65 % (40 and 39 of 60 at 3 000 playouts), more playouts buying nothing.
 * Cost per playout: a state copy, the candidate and a greedy decision for each decision that follows
 * (greedy's cost: every legal move and its follow-ups judged by the heuristic), then one heuristic; bot.h
 * has the measured rate. Memory: two states and the candidate list (greedy has three scratch states).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot_priv.h"

/* the search's constants; bench/bot-arena measures what they give (a build may override them to compare) */
#ifndef CARC_MCTS_ROOT
#define CARC_MCTS_ROOT 10
#endif
#ifndef CARC_MCTS_HORIZON
#define CARC_MCTS_HORIZON 2
#endif
#ifndef CARC_MCTS_SCALE
#define CARC_MCTS_SCALE 20.0
#endif
#ifndef CARC_MCTS_POLICY
#define CARC_MCTS_POLICY 1   /* playout moves: 0 random, 1 greedy's */
#endif

static void rewards(const carc_state *st, double r[CARC_MAX_PLAYERS])
{
    double w[CARC_MAX_PLAYERS];
    carc_bot_worth(st, w);
    for (int s = 0; s < st->nplayers; s++) {
        double best = -1e9;
        for (int o = 0; o < st->nplayers; o++)
            if (o != s && !(st->left >> o & 1) && w[o] > best)
                best = w[o];
        double margin = best < -1e8 ? 0 : w[s] - best;
        r[s] = 1.0 / (1.0 + exp(-margin / CARC_MCTS_SCALE));
    }
}

/* CARC_MCTS_HORIZON turns per seat (or to the end) of greedy's moves, or of random ones with policy 0. */
static void playout(carc_state *st, carc_rng *r)
{
    int stop = st->turn + CARC_MCTS_HORIZON * st->nplayers;
    carc_moves m = {0};
    while (st->status == CARC_ACTIVE && st->turn < stop) {
        int seat = st->pending.seat;
        m.n = 0;
        carc_legal_moves(st, seat, &m);
        if (m.n == 0)
            break;   /* cannot happen: check.c asserts every pending decision has a move */
        size_t i;
        if (CARC_MCTS_POLICY == 1) {
            i = (size_t)carc_bot_greedy(st, seat, &m, r);
            carc_apply(st, seat, &m.v[i], NULL, NULL, 0);
            continue;
        }
        i = carc_rng_below(r, (uint32_t)m.n);
        if (st->pending.kind == CARC_PENDING_FIGURE && m.v[0].kind == CARC_MV_PASS && carc_rng_below(r, 2) == 0)
            i = 0;   /* legal.c lists pass first */
        carc_apply(st, seat, &m.v[i], NULL, NULL, 0);
    }
    carc_moves_free(&m);
}

/* One playout of candidate mv on determinisation det: the reward of seat. */
static double judge(const carc_state *det, int seat, const carc_move *mv, carc_state *work, carc_rng *r)
{
    carc_state_copy(work, det);   /* the board's live part only (board.h) */
    if (carc_apply(work, seat, mv, NULL, NULL, 0) != 0)
        return 0;   /* cannot happen: mv is legal in the seat's view, so in every determinisation */
    playout(work, r);
    double rw[CARC_MAX_PLAYERS];
    rewards(work, rw);
    return rw[seat];
}

typedef struct {
    int idx;        /* in the legal list */
    double prior;   /* greedy value on the first determinisation */
    double sum;     /* rewards of the playouts so far */
    uint32_t n;
} cand;

/* Better mean first, then better prior, then list order: a total order, so qsort's result is the same on
 * every libc. */
static int by_mean(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    double mx = x->n ? x->sum / x->n : 0, my = y->n ? y->sum / y->n : 0;
    if (mx != my)
        return mx > my ? -1 : 1;
    if (x->prior != y->prior)
        return x->prior > y->prior ? -1 : 1;
    return x->idx - y->idx;
}

static int by_prior(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->prior != y->prior)
        return x->prior > y->prior ? -1 : 1;
    return x->idx - y->idx;
}

int carc_bot_mcts(const carc_state *st, int seat, const carc_moves *m, uint32_t playouts, carc_rng *r)
{
    if (m->n == 1)
        return 0;
    carc_state *det = malloc(sizeof *det), *work = malloc(sizeof *work);
    cand *cs = malloc(m->n * sizeof *cs);
    if (!det || !work || !cs)
        abort();
    carc_bot_determinise(st, seat, r, det);
    for (size_t i = 0; i < m->n; i++)
        cs[i] = (cand){(int)i, carc_bot_greedy_value(det, seat, &m->v[i]), 0, 0};
    qsort(cs, m->n, sizeof *cs, by_prior);
    uint32_t live = m->n < CARC_MCTS_ROOT ? (uint32_t)m->n : CARC_MCTS_ROOT;
    uint32_t rounds = 0;
    for (uint32_t k = live; k > 1; k = (k + 1) / 2)
        rounds++;
    uint32_t left = playouts;
    for (uint32_t round = 0; live > 1; round++) {
        /* this round's share of what is left, one determinisation per `live` playouts, at least one */
        uint32_t per = left / ((rounds - round) * live);
        if (per == 0)
            per = 1;
        for (uint32_t d = 0; d < per; d++) {
            carc_bot_determinise(st, seat, r, det);
            for (uint32_t i = 0; i < live; i++) {
                cs[i].sum += judge(det, seat, &m->v[cs[i].idx], work, r);
                cs[i].n++;
            }
        }
        left = left > per * live ? left - per * live : 0;
        qsort(cs, live, sizeof *cs, by_mean);
        live = (live + 1) / 2;
    }
    int pick = cs[0].idx;
    free(cs);
    free(work);
    free(det);
    return pick;
}
