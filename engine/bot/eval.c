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
 * f' = min(1, tiles left / (3 * players)). The first term is the engine's own final scoring, read without
 * playing it (carc_final_features and carc_final_points, the points carc_score_final awards), so roads,
 * unfinished cities, cloisters, gardens, farms, vineyards, the hill tie-break and fruit held are all valued
 * exactly as the rules value them, with no rule written twice. The
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
 * against the best opponent's. Ties go to the generator. Cost: about (tile places x figure moves) copies of
 * the state's live part (carc_state_copy, some 10 KB mid-game) and reads of final scoring (the features
 * held, each walked once, a farm's cities with its walk): measured on 2026-12-01 with bench/bot-arena, greedy
 * against greedy, 0.08 ms of CPU a decision in 2-seat base games and 0.15 ms with all four expansions (0.28
 * and 0.42 ms before the copies were cut to the live part and final scoring was read without a copy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot_priv.h"

static int tiles_left(const carc_state *st) { return st->stack_len - st->stack_pos; }

#ifndef CARC_EVAL_FARM
#define CARC_EVAL_FARM 1
#endif

/* 0.7^k, the guessed chance of completing a feature with k open edges: pow(0.7, k) as glibc's pow gives it
 * (printed with %a), so that a lookup values every state exactly as the call did; pow past the table. */
static const double chance_tab[32] = {
    0x1p+0,                0x1.6666666666666p-1,  0x1.f5c28f5c28f5bp-2,  0x1.5f3b645a1cabfp-2,
    0x1.ebb98c7e2823fp-3,  0x1.5835158b827f8p-3,  0x1.e1e3eaf6837f5p-4,  0x1.5152be12f5a5ep-4,
    0x1.d840a3b424b5p-5,   0x1.4a93a5cae67ebp-5,  0x1.ceceb4e8dc4afp-6,  0x1.43f7183c9a347p-6,
    0x1.c58d21ee717c9p-7,  0x1.3d7c648d4f70cp-7,  0x1.bc7af32c3c044p-8,  0x1.3722dd6bc39c9p-8,
    0x1.b39735fd450e5p-9,  0x1.30e9d8fe16bd3p-9,  0x1.aae0fc96eca27p-10, 0x1.2ad0b0d00c0b5p-10,
    0x1.a2575df010dc9p-11, 0x1.24d6c1c1a5673p-11, 0x1.99f975a8b45d4p-12, 0x1.1efb6bf617daep-12,
    0x1.91c663f221659p-13, 0x1.193e12c31760bp-13, 0x1.89bd4d778720fp-14, 0x1.139e1ca07830ap-14,
    0x1.81dd5b470eaa7p-15, 0x1.0e1af31823ddbp-15, 0x1.7a25babb65699p-16, 0x1.08b402b66096bp-16,
};

static double chance(int open) { return open < 32 ? chance_tab[open] : pow(0.7, open); }

/* A farm's open cities: 3 points each when completed, by the same guessed chance as a city's bonus, summed
 * per held field as final scoring's walk of the field meets them (carc_final_features). At most 64 a
 * field. */
typedef struct {
    const carc_board *b;
    double v[CARC_MAX_FIGURES];
    uint8_t nopen[CARC_MAX_FIGURES];
} farm_cities;

static void farm_city(void *ctx, int feature, int city)
{
    farm_cities *a = ctx;
    int open = a->b->open[city];
    if (open == 0 || a->nopen[feature] == 64)   /* completed ones are in the final scoring already */
        return;
    a->nopen[feature]++;
    a->v[feature] += 3.0 * chance(open);
}

void carc_bot_worth(const carc_state *st, double worth[CARC_MAX_PLAYERS])
{
    int n = st->nplayers;
    if (st->status == CARC_FINISHED) {
        for (int s = 0; s < n; s++)
            worth[s] = st->players[s].score;
        return;
    }
    /* the score each seat would have if the game ended now: final scoring's own features and points,
     * read without playing the end on a copy of the state */
    carc_final_feature held[CARC_MAX_FIGURES];
    farm_cities farm = {.b = &st->board};
    int nheld = carc_final_features(st, held, CARC_EVAL_FARM ? farm_city : NULL, &farm);
    int32_t fin[CARC_MAX_PLAYERS];
    carc_final_points(st, held, nheld, fin);
    for (int s = 0; s < n; s++)
        worth[s] = st->players[s].score + fin[s];

    int left = tiles_left(st);
    double f = left >= 10 ? 1.0 : left / 10.0;
    double fs = left >= 3 * n ? 1.0 : left / (3.0 * n);
    /* held[] lists the features in the order of their first figure, so the bonuses add up in the same
     * order as ever (a different order could round a sum differently and flip a tie) */
    for (int h = 0; h < nheld; h++) {
        const carc_feature *ft = &held[h].f;
        int root = ft->root;
        double bonus = 0;
        if (ft->kind == CARC_PART_CITY && st->board.open[root] > 0)
            bonus = (ft->nspaces + ft->pennants) * chance(st->board.open[root]) * f;
        else if (ft->kind == CARC_PART_CLOISTER || ft->kind == CARC_PART_GARDEN) {
            const carc_piece *pc = &st->pieces[root / CARC_MAX_PARTS];
            bonus = (8 - carc_occupied_neighbours(&st->board, pc->x, pc->y)) * 0.5 * f;
        } else if (ft->kind == CARC_PART_FIELD && CARC_EVAL_FARM)
            bonus = farm.v[h] * f;
        int best = 0;
        for (int s = 0; s < n; s++)
            if (ft->followers[s] > best)
                best = ft->followers[s];
        for (int s = 0; s < n && best > 0; s++)
            if (ft->followers[s] == best)
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

/* The best margin seat reaches from st by its own decisions of this turn, up to `depth` more; scratch holds
 * `depth` states to try them on (one per level, reused by every move of the level: no allocation). st is
 * the caller's scratch state too, which this may spoil: the last move is tried on st itself, one copy fewer
 * of the one to four a tile placement makes. */
static double best_after(carc_state *st, int seat, int turn, int depth, carc_state *scratch)
{
    if (depth == 0 || st->status != CARC_ACTIVE || st->pending.seat != seat || st->turn != turn)
        return carc_bot_margin(st, seat);
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    double best = -1e18;
    for (size_t i = 0; i < m.n; i++) {
        carc_state *next = st;
        if (i + 1 < m.n) {
            next = &scratch[0];
            carc_state_copy(next, st);   /* the board's live part only (board.h) */
        }
        if (carc_apply(next, seat, &m.v[i], NULL, NULL, 0) != 0)
            continue;
        double v = best_after(next, seat, turn, depth - 1, scratch + 1);
        if (v > best)
            best = v;
    }
    carc_moves_free(&m);
    return best;
}

/* greedy's follow-ups: a figure after the tile, a fruit or flock action after that */
#define FOLLOW_DEPTH 2

/* carc_bot_greedy_value on FOLLOW_DEPTH + 1 scratch states. */
static double value_on(const carc_state *st, int seat, const carc_move *mv, carc_state *scratch)
{
    carc_state *next = &scratch[0];
    carc_state_copy(next, st);   /* the board's live part only (board.h) */
    if (carc_apply(next, seat, mv, NULL, NULL, 0) != 0)
        return -1e18;
    return best_after(next, seat, st->turn, FOLLOW_DEPTH, scratch + 1);
}

static carc_state *scratch_new(void)
{
    carc_state *s = malloc((FOLLOW_DEPTH + 1) * sizeof *s);
    if (!s)
        abort();   /* the engine's policy: out of memory aborts */
    return s;
}

double carc_bot_greedy_value(const carc_state *st, int seat, const carc_move *mv)
{
    carc_state *scratch = scratch_new();
    double v = value_on(st, seat, mv, scratch);
    free(scratch);
    return v;
}

int carc_bot_greedy(const carc_state *det, int seat, const carc_moves *m, carc_rng *r)
{
    carc_state *scratch = scratch_new();   /* one set for the whole decision */
    double best = -1e18;
    int pick = 0, ties = 0;
    for (size_t i = 0; i < m->n; i++) {
        double v = value_on(det, seat, &m->v[i], scratch);
        if (v > best + 1e-9) {
            best = v;
            pick = (int)i;
            ties = 1;
        } else if (fabs(v - best) <= 1e-9 && carc_rng_below(r, (uint32_t)++ties) == 0) {
            pick = (int)i;   /* reservoir choice among equals */
        }
    }
    free(scratch);
    return pick;
}
