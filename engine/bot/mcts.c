/*
 * mcts.c — the tree-search bot: determinised UCT (one tree per determinisation, the root's statistics
 * summed), on the engine itself.
 *
 *   - Determinisations: K = ceil(playouts / CARC_MCTS_PER_TREE), at most CARC_MCTS_TREES, each a
 *     carc_bot_determinise of the seat's view; iteration i walks tree i mod K. In one determinisation the
 *     game is deterministic (its stack, bag and generator are fixed), so each tree is a plain game tree.
 *   - Root: the legal moves are the same in every determinisation (they depend on the seat's view only);
 *     the search looks at the CARC_MCTS_ROOT best of them by the greedy value (eval.c) on the first
 *     determinisation, a prior that spends the budget where a good move can be.
 *   - Below the root every decision of every expansion is a node whose children are its legal moves
 *     (carc_legal_moves drives it: tiles, figures, triangles, fruit, flocks, crop circles, the draft).
 *     Selection is UCB1 (c = CARC_MCTS_C) on the reward of the seat that chose the move; an unvisited child
 *     is tried first, in list order. At the root a progressive bias adds CARC_MCTS_BIAS * prior / (visits
 *     + 1), the prior being the greedy value squashed like a reward: the search starts from greedy's
 *     opinion and overrules it as playouts come in.
 *   - Playout: from the new node, the rest of the turn and CARC_MCTS_HORIZON turn per seat of greedy's moves
 *     (eval.c) on the tree's determinisation, then the heuristic: each seat's reward is 1 / (1 +
 *     exp(-margin / CARC_MCTS_SCALE)), margin being its worth minus the best other seat's (eval.c); a
 *     finished game is judged by its final scores the same way. So a move is judged by what the next
 *     seats' best replies to it leave, with the tiles they might draw sampled by the determinisations.
 *     Measured with bench/bot-arena against greedy (2-seat base games, seed 7, 60 games unless said):
 *     random playout moves (two turns per seat, a figure at even odds against passing) won 40 at 3 000
 *     playouts (0.052 CPU s a move); none at all (the heuristic at the new node: CARC_MCTS_HORIZON 0) 39 at
 *     3 000 (0.025 s) and 37 at 9 000 (0.082 s), the extra visits buying nothing; at horizon 0 and 3 000,
 *     with c = 0.3 35, with 4 trees 38.5, with the farm term of eval.c 37.5; greedy's moves 27 of 40 at 150
 *     playouts (0.12 s), with the best margin (10.7 points a game against 1.8-8.7). Policy 0 and horizon 0
 *     stay here to compare against (a build with -DCARC_MCTS_POLICY=0 -DCARC_MCTS_HORIZON=0).
 *   - The move: the root child with the most visits over all trees (then the best mean, then list order;
 *     CARC_MCTS_PICK 1: the best mean first).
 * Cost per playout: the path's moves (legal lists and carc_apply on a state copy), a greedy decision for each
 * playout decision (greedy's cost: every legal move and its follow-ups judged by the heuristic) and one
 * heuristic at the end: about 0.16 ms in a base game and 0.3 ms with all four expansions, measured on
 * 2026-12-01 (bot.h has the measured rate).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot_priv.h"

/* the search's constants; bench/bot-arena measures what they give (a build may override them to compare) */
#ifndef CARC_MCTS_PER_TREE
#define CARC_MCTS_PER_TREE 128
#endif
#ifndef CARC_MCTS_TREES
#define CARC_MCTS_TREES 32
#endif
#ifndef CARC_MCTS_ROOT
#define CARC_MCTS_ROOT 10
#endif
#ifndef CARC_MCTS_C
#define CARC_MCTS_C 0.7
#endif
#ifndef CARC_MCTS_HORIZON
#define CARC_MCTS_HORIZON 1
#endif
#ifndef CARC_MCTS_SCALE
#define CARC_MCTS_SCALE 8.0
#endif
#ifndef CARC_MCTS_BIAS
#define CARC_MCTS_BIAS 1.0
#endif
#ifndef CARC_MCTS_POLICY
#define CARC_MCTS_POLICY 1   /* playout moves: 0 random, 1 greedy's */
#endif
#ifndef CARC_MCTS_PICK
#define CARC_MCTS_PICK 0     /* the move: 0 most visits, 1 best mean */
#endif
#define CARC_MCTS_NODES (1u << 15)   /* per tree; past it the tree stops growing and only plays out */

typedef struct {
    uint32_t first;      /* index of the first child, 0 = not expanded (the root is node 0) */
    uint16_t nchild;
    uint16_t move;       /* index in the parent's legal list */
    uint8_t mover;       /* seat that chose this node's move */
    uint32_t visits;
    double w;            /* rewards of `mover` summed */
    double prior;        /* root children: the greedy value as a reward (progressive bias); 0 elsewhere */
} node;

typedef struct {
    carc_state det;
    node *nodes;
    uint32_t n, cap;
} tree;

static uint32_t tree_alloc(tree *t, uint32_t k)
{
    if (t->n + k > CARC_MCTS_NODES)
        return 0;
    if (t->n + k > t->cap) {
        uint32_t cap = t->cap ? t->cap : 256;
        while (cap < t->n + k)
            cap *= 2;
        t->nodes = realloc(t->nodes, cap * sizeof *t->nodes);
        if (!t->nodes)
            abort();
        t->cap = cap;
    }
    uint32_t at = t->n;
    memset(&t->nodes[at], 0, k * sizeof *t->nodes);
    t->n += k;
    return at;
}

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

static uint32_t ucb_pick(const tree *t, const node *nd)
{
    uint32_t best = nd->first;
    double bestv = -1;
    double lg = log((double)nd->visits + 1);
    for (uint32_t c = nd->first; c < nd->first + nd->nchild; c++) {
        const node *ch = &t->nodes[c];
        if (ch->visits == 0)
            return c;
        double v = ch->w / ch->visits + CARC_MCTS_C * sqrt(lg / ch->visits) +
                   CARC_MCTS_BIAS * ch->prior / (ch->visits + 1);
        if (v > bestv) {
            bestv = v;
            best = c;
        }
    }
    return best;
}

static void iterate(tree *t, carc_state *st, carc_moves *m, carc_rng *r)
{
    uint32_t path[512];
    int depth = 0;
    uint32_t cur = 0;
    *st = t->det;
    path[depth++] = 0;
    for (;;) {
        if (st->status != CARC_ACTIVE)
            break;
        node *nd = &t->nodes[cur];
        int seat = st->pending.seat;
        m->n = 0;
        carc_legal_moves(st, seat, m);
        if (nd->first == 0 && cur != 0) {   /* a leaf: grow it by its moves, then play out from one */
            if (nd->visits == 0 || m->n == 0)
                break;   /* first visit of a leaf: play out from here */
            uint32_t at = tree_alloc(t, (uint32_t)m->n);
            nd = &t->nodes[cur];
            if (at == 0)
                break;
            nd->first = at;
            nd->nchild = (uint16_t)m->n;
            for (uint32_t k = 0; k < m->n; k++) {
                t->nodes[at + k].move = (uint16_t)k;
                t->nodes[at + k].mover = (uint8_t)seat;
            }
        }
        uint32_t c = ucb_pick(t, nd);
        bool fresh = t->nodes[c].visits == 0;
        carc_apply(st, seat, &m->v[t->nodes[c].move], NULL, NULL, 0);
        cur = c;
        if (depth < (int)(sizeof path / sizeof path[0]))
            path[depth++] = cur;
        if (fresh)
            break;
    }
    playout(st, r);
    double rw[CARC_MAX_PLAYERS];
    rewards(st, rw);
    for (int i = 0; i < depth; i++) {
        node *nd = &t->nodes[path[i]];
        nd->visits++;
        nd->w += rw[nd->mover];
    }
}

typedef struct { int idx; double v; } cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return x->idx - y->idx;
}

int carc_bot_mcts(const carc_state *st, int seat, const carc_moves *m, uint32_t playouts, carc_rng *r)
{
    if (m->n == 1)
        return 0;
    uint32_t k = (playouts + CARC_MCTS_PER_TREE - 1) / CARC_MCTS_PER_TREE;
    if (k > CARC_MCTS_TREES)
        k = CARC_MCTS_TREES;
    if (k == 0)
        k = 1;
    tree *trees = calloc(k, sizeof *trees);
    if (!trees)
        abort();
    for (uint32_t i = 0; i < k; i++)
        carc_bot_determinise(st, seat, r, &trees[i].det);

    /* the root's children: the greedy best CARC_MCTS_ROOT, judged on the first determinisation */
    cand *cs = malloc(m->n * sizeof *cs);
    if (!cs)
        abort();
    for (size_t i = 0; i < m->n; i++)
        cs[i] = (cand){(int)i, carc_bot_greedy_value(&trees[0].det, seat, &m->v[i])};
    qsort(cs, m->n, sizeof *cs, cand_cmp);
    uint32_t nroot = m->n < CARC_MCTS_ROOT ? (uint32_t)m->n : CARC_MCTS_ROOT;
    for (uint32_t i = 0; i < k; i++) {
        tree *t = &trees[i];
        tree_alloc(t, 1 + nroot);
        t->nodes[0].first = 1;
        t->nodes[0].nchild = (uint16_t)nroot;
        t->nodes[0].mover = (uint8_t)seat;
        for (uint32_t c = 0; c < nroot; c++) {
            t->nodes[1 + c].move = (uint16_t)cs[c].idx;
            t->nodes[1 + c].mover = (uint8_t)seat;
            t->nodes[1 + c].prior = 1.0 / (1.0 + exp(-cs[c].v / CARC_MCTS_SCALE));
        }
    }

    carc_state *work = malloc(sizeof *work);
    if (!work)
        abort();
    carc_moves lm = {0};
    for (uint32_t it = 0; it < playouts; it++)
        iterate(&trees[it % k], work, &lm, r);
    carc_moves_free(&lm);
    free(work);

    int pick = cs[0].idx;
    double best_visits = -1, best_mean = -1;
    for (uint32_t c = 0; c < nroot; c++) {
        double v = 0, w = 0;
        for (uint32_t i = 0; i < k; i++) {
            v += trees[i].nodes[1 + c].visits;
            w += trees[i].nodes[1 + c].w;
        }
        double mean = v > 0 ? w / v : 0;
        bool better = CARC_MCTS_PICK == 1 ? (mean > best_mean || (mean == best_mean && v > best_visits))
                                          : (v > best_visits || (v == best_visits && mean > best_mean));
        if (better) {
            best_visits = v;
            best_mean = mean;
            pick = cs[c].idx;
        }
    }
    for (uint32_t i = 0; i < k; i++)
        free(trees[i].nodes);
    free(trees);
    free(cs);
    return pick;
}
