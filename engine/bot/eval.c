/*
 * eval.c — what a state is worth to each seat (carc_bot_worth), the heuristic both bots judge by, and the
 * greedy bot that maximises it one turn ahead.
 *
 * The heuristic, in points:
 *   worth(s) = the score seat s would have if the game ended now
 *            + for each open city s holds (a majority, ties shared): (spaces + pennants) * 0.7^open * f
 *            + for each cloister or garden s holds: (8 - occupied neighbours) * 0.5 * f
 *            + for each field s holds: 3 * 0.7^open of each open city it touches * f
 *            + 2 per meeple or abbot still in s's supply, times f'
 * where open = the city's side segments that face nothing, f = min(1, tiles left / 10) and
 * f' = min(1, tiles left / (3 * players)). The first term is the engine's own final scoring run on a copy
 * (carc_finish_game), so roads, unfinished cities, cloisters, gardens, farms, vineyards, the hill
 * tie-break and fruit held are all valued exactly as the rules value them, with no rule written twice. The
 * second is the doubling a city gets when completed, by a guessed chance of completing it that falls with
 * every open edge; the third the cloister's missing neighbours, at one half each; the fourth a farm's open
 * cities, paid 3 each at the end only if completed, by the same chance (without it a farmer beside a city
 * still being built is worth nothing to the bot until the city closes); the last keeps a bot from
 * spending its followers on features worth less than a follower kept for later, and fades as the stack runs
 * out.
 *
 * greedy: for each legal move, the seat's own decisions that follow in the same turn (a figure after the
 * tile, a fruit or flock action after that) are taken at their best, up to 3 deep, and the move is judged by
 * worth(seat) - max over the other seats of worth: immediate points plus the open features' expected worth,
 * against the best opponent's. Ties go to the generator. Cost: about (tile places x figure moves) state
 * copies and final scorings, a few milliseconds a decision.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot_priv.h"

static int tiles_left(const carc_state *st) { return st->stack_len - st->stack_pos; }

#ifndef CARC_EVAL_FARM
#define CARC_EVAL_FARM 1
#endif

/* A farm's open cities: 3 points each when completed, by the same guessed chance as a city's bonus. The
 * field's nodes form a ring through b->next (score.c's farm_points walks it the same way). */
static double farm_open_cities(const carc_state *st, int root)
{
    const carc_board *b = &st->board;
    int cities[64], ncities = 0;
    double v = 0;
    int n = root;
    do {
        int p = n / CARC_MAX_PARTS;
        unsigned touches = carc_type_of(st, p)->parts[n % CARC_MAX_PARTS].touches;
        for (int c = 0; touches; c++, touches >>= 1) {
            if (!(touches & 1))
                continue;
            int cr = carc_find(b, carc_node(p, c));
            bool seen = b->open[cr] == 0;   /* completed ones are in the final scoring already */
            for (int k = 0; k < ncities && !seen; k++)
                seen = cities[k] == cr;
            if (seen || ncities == 64)
                continue;
            cities[ncities++] = cr;
            v += 3.0 * pow(0.7, b->open[cr]);
        }
        n = b->next[n];
    } while (n != root);
    return v;
}

void carc_bot_worth(const carc_state *st, double worth[CARC_MAX_PLAYERS])
{
    int n = st->nplayers;
    if (st->status == CARC_FINISHED) {
        for (int s = 0; s < n; s++)
            worth[s] = st->players[s].score;
        return;
    }
    carc_state *end = malloc(sizeof *end);
    if (!end)
        abort();
    *end = *st;
    carc_finish_game(end, NULL);
    for (int s = 0; s < n; s++)
        worth[s] = end->players[s].score;
    free(end);

    int left = tiles_left(st);
    double f = left >= 10 ? 1.0 : left / 10.0;
    double fs = left >= 3 * n ? 1.0 : left / (3.0 * n);
    int roots[CARC_MAX_FIGURES], nroots = 0;
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->kind == CARC_FIG_SHEPHERD)
            continue;
        int root = carc_find(&st->board, carc_node(g->piece, g->part));
        bool dup = false;
        for (int k = 0; k < nroots && !dup; k++)
            dup = roots[k] == root;
        if (dup)
            continue;
        roots[nroots++] = root;
        carc_feature ft;
        carc_feature_collect(st, root, &ft);
        double bonus = 0;
        if (ft.kind == CARC_PART_CITY && st->board.open[root] > 0)
            bonus = (ft.nspaces + ft.pennants) * pow(0.7, st->board.open[root]) * f;
        else if (ft.kind == CARC_PART_CLOISTER || ft.kind == CARC_PART_GARDEN) {
            const carc_piece *pc = &st->pieces[root / CARC_MAX_PARTS];
            bonus = (8 - carc_occupied_neighbours(&st->board, pc->x, pc->y)) * 0.5 * f;
        } else if (ft.kind == CARC_PART_FIELD && CARC_EVAL_FARM)
            bonus = farm_open_cities(st, root) * f;
        int best = 0;
        for (int s = 0; s < n; s++)
            if (ft.followers[s] > best)
                best = ft.followers[s];
        for (int s = 0; s < n && best > 0; s++)
            if (ft.followers[s] == best)
                worth[s] += bonus;
    }
    for (int s = 0; s < n; s++)
        worth[s] += 2.0 * fs * (carc_supply(st, s, CARC_FIG_MEEPLE) + carc_supply(st, s, CARC_FIG_ABBOT));
}

double carc_bot_margin(const carc_state *st, int seat)
{
    double w[CARC_MAX_PLAYERS];
    carc_bot_worth(st, w);
    double best = -1e9;
    for (int s = 0; s < st->nplayers; s++)
        if (s != seat && !(st->left >> s & 1) && w[s] > best)
            best = w[s];
    return best < -1e8 ? w[seat] : w[seat] - best;
}

/* The best margin seat reaches from st by its own decisions of this turn, up to `depth` more. */
static double best_after(const carc_state *st, int seat, int turn, int depth)
{
    if (depth == 0 || st->status != CARC_ACTIVE || st->pending.seat != seat || st->turn != turn)
        return carc_bot_margin(st, seat);
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    double best = -1e18;
    carc_state *next = malloc(sizeof *next);
    if (!next)
        abort();
    for (size_t i = 0; i < m.n; i++) {
        *next = *st;
        if (carc_apply(next, seat, &m.v[i], NULL, NULL, 0) != 0)
            continue;
        double v = best_after(next, seat, turn, depth - 1);
        if (v > best)
            best = v;
    }
    free(next);
    carc_moves_free(&m);
    return best;
}

double carc_bot_greedy_value(const carc_state *st, int seat, const carc_move *mv)
{
    carc_state *next = malloc(sizeof *next);
    if (!next)
        abort();
    *next = *st;
    double v = -1e18;
    if (carc_apply(next, seat, mv, NULL, NULL, 0) == 0)
        v = best_after(next, seat, st->turn, 2);
    free(next);
    return v;
}

int carc_bot_greedy(const carc_state *det, int seat, const carc_moves *m, carc_rng *r)
{
    double best = -1e18;
    int pick = 0, ties = 0;
    for (size_t i = 0; i < m->n; i++) {
        double v = carc_bot_greedy_value(det, seat, &m->v[i]);
        if (v > best + 1e-9) {
            best = v;
            pick = (int)i;
            ties = 1;
        } else if (fabs(v - best) <= 1e-9 && carc_rng_below(r, (uint32_t)++ties) == 0) {
            pick = (int)i;   /* reservoir choice among equals */
        }
    }
    return pick;
}
