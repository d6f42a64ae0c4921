/*
 * exp_fruit.c — Fruit Trees (docs/RULES.md §4): stocked trees, the harvest-or-sell action, fruit at the end.
 *
 * Tree i (the i-th tree tile placed) carries fruit type i (quince, apple, apricot, cherry, plum,
 * elderberry) and that type's stack of four tokens valued 2..5, shuffled at set-up with the game's
 * generator (or fixed by the admin's script). The values still on a tree are hidden; the count left is
 * public; a harvested token's value is public.
 *
 * Rulings where docs/RULES.md and the seed leave a choice (pinned by tests/scenarios/fruit_trees/):
 *  - Reach: the trees on the 3x3 block of spaces round the new piece, its own space included (a
 *    triangle next to a tree reaches it like a square would).
 *  - Eligibility needs a follower (meeple or abbot) placed on the new piece in the figure step
 *    (st->tn.figure). A shepherd, an abbot taken back, a follower added by a crop circle: no action.
 *    The player is asked only when something can be done: a tree in reach with a token left, or a held
 *    token to sell. Otherwise the turn goes on without a question and without an event.
 *  - Selling: the player names a set of distinct fruit types; of each type the held token of the lowest
 *    value is sold (values no longer matter once harvested: a sale pays by the set's size and each held
 *    token scores 1 at the end, whatever its value).
 *  - fruit_actions "per_tree": one action per tree in reach, each tree harvested at most once a turn.
 *    A sale uses up the action of one tree in reach not used yet — the first (in fruit order) with no
 *    token left, else the first one still untouched; so a player who wants a harvest and a sale from two
 *    full trees harvests first. "pass" ends the player's fruit actions for the turn.
 *  - A "pass" in the fruit step makes no event (the move is in the log; the turn goes on).
 *  - Score events: harvests, sales and the final count carry reason harvest / sell / fruit_final and the
 *    feature "fruit" (CARC_FEATURE_FRUIT: what scores is the fruit, no feature of the board); a harvest
 *    lists the tree's space, the others no space.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "expansions.h"

const char *const carc_fruit_names[CARC_FRUIT_TYPES] = {"quince", "apple", "apricot", "cherry", "plum",
                                                         "elderberry"};

static const int sale_points[CARC_FRUIT_TYPES + 1] = {0, 3, 6, 10, 15, 21, 28};

static int max_set(const carc_state *st)
{
    return carc_opt_table[CARC_OPT_FRUIT_MAX_SET].ints[st->opt[CARC_OPT_FRUIT_MAX_SET]];
}

int carc_fruit_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen)
{
    if (!carc_has(st, CARC_SET_FRUIT_TREES)) {
        if (s->fruit_scripted) {
            if (err && errlen)
                snprintf(err, errlen, "script.fruit: fruit_trees is not in play");
            return CARC_E_INVALID;
        }
        return 0;
    }
    carc_fruit *f = &st->fruit;
    memset(f, 0, sizeof *f);
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        bool scripted = false;
        for (int k = 0; k < CARC_FRUIT_STACK && s->fruit_scripted; k++)
            scripted |= s->fruit[t][k] != 0;
        if (scripted) {
            unsigned seen = 0;
            for (int k = 0; k < CARC_FRUIT_STACK; k++) {
                int v = s->fruit[t][k];
                if (v < 2 || v > 5 || (seen >> v & 1)) {
                    if (err && errlen)
                        snprintf(err, errlen, "script.fruit: each fruit's stack must be the values 2, 3, 4, 5 in "
                                              "some order");
                    return CARC_E_INVALID;
                }
                seen |= 1u << v;
                f->stack[t][CARC_FRUIT_STACK - 1 - k] = (uint8_t)v;   /* the script is top first */
            }
        } else {
            for (int k = 0; k < CARC_FRUIT_STACK; k++)
                f->stack[t][k] = (uint8_t)(2 + k);
            carc_rng_shuffle(&st->rng, f->stack[t], CARC_FRUIT_STACK);
        }
    }
    return 0;
}

void carc_fruit_on_placed(carc_state *st, int piece, carc_events *ev)
{
    carc_fruit *f = &st->fruit;
    if (!carc_mark_active(st, st->pieces[piece].type, CARC_MARK_TREE) || f->ntrees >= CARC_FRUIT_TYPES)
        return;
    int t = f->ntrees++;
    f->tree_piece[t] = (uint8_t)piece;
    f->tree_n[t] = CARC_FRUIT_STACK;
    carc_event *x = carc_ev_push(ev, CARC_EV_TREE_STOCKED);
    if (x) {
        x->seat = st->active;
        x->x = st->pieces[piece].x;
        x->y = st->pieces[piece].y;
        x->value = (int16_t)t;
        x->aux = (uint8_t)t;
    }
}

/* Trees (bit per fruit type) on the 3x3 block round the piece placed this turn. */
static unsigned trees_in_reach(const carc_state *st)
{
    const carc_fruit *f = &st->fruit;
    if (st->tn.piece == CARC_NO_PIECE || st->tn.piece >= st->npieces)
        return 0;
    const carc_piece *pc = &st->pieces[st->tn.piece];
    unsigned reach = 0;
    for (int t = 0; t < f->ntrees; t++) {
        const carc_piece *tp = &st->pieces[f->tree_piece[t]];
        int dx = tp->x - pc->x, dy = tp->y - pc->y;
        if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
            reach |= 1u << t;
    }
    return reach;
}

/* Trees whose action is still open this turn (bit per fruit type); 0 when no fruit action is possible. */
static unsigned open_trees(const carc_state *st)
{
    if (!carc_has(st, CARC_SET_FRUIT_TREES))
        return 0;
    if (st->tn.figure != CARC_FIG_MEEPLE && st->tn.figure != CARC_FIG_ABBOT)
        return 0;
    unsigned open = trees_in_reach(st) & ~(unsigned)st->tn.fruit_done;
    if (st->opt[CARC_OPT_FRUIT_ACTIONS] == 0 && st->tn.fruit_done)
        return 0;   /* "one": the turn's action is taken */
    return open;
}

/* Fruit types the seat holds (bit per type). */
static unsigned held_types(const carc_state *st, int seat)
{
    unsigned m = 0;
    for (int i = 0; i < st->fruit.held_n[seat]; i++)
        m |= 1u << (st->fruit.held[seat][i] >> 4);
    return m;
}

bool carc_fruit_begin(carc_state *st, carc_events *ev)
{
    (void)ev;
    unsigned open = open_trees(st);
    if (!open)
        return false;
    bool harvest = false;
    for (int t = 0; t < st->fruit.ntrees; t++)
        harvest |= (open >> t & 1) && st->fruit.tree_n[t] > 0;
    if (!harvest && st->fruit.held_n[st->active] == 0)
        return false;
    st->pending = (carc_pending){.kind = CARC_PENDING_FRUIT, .seat = st->active, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    return true;
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

void carc_fruit_moves(const carc_state *st, carc_moves *out)
{
    carc_move pass = {.kind = CARC_MV_PASS};
    carc_moves_push(out, &pass);
    unsigned open = open_trees(st);
    for (int t = 0; t < st->fruit.ntrees; t++)
        if ((open >> t & 1) && st->fruit.tree_n[t] > 0) {
            carc_move m = {.kind = CARC_MV_HARVEST, .piece = st->fruit.tree_piece[t]};
            carc_moves_push(out, &m);
        }
    unsigned held = held_types(st, st->active);
    int max = max_set(st);
    for (unsigned set = 1; set < 1u << CARC_FRUIT_TYPES; set++)
        if ((set & ~held) == 0 && popcount(set) <= max) {
            carc_move m = {.kind = CARC_MV_SELL, .set = (uint8_t)set};
            carc_moves_push(out, &m);
        }
}

static carc_event *score(carc_state *st, int seat, int points, int reason, carc_events *ev)
{
    st->players[seat].score += points;
    carc_event *x = carc_ev_push(ev, CARC_EV_SCORE);
    if (x) {
        x->seats = (uint8_t)(1u << seat);
        x->points = points;
        x->feature = CARC_FEATURE_FRUIT;
        x->reason = (uint8_t)reason;
    }
    return x;
}

static void harvest(carc_state *st, int t, carc_events *ev)
{
    carc_fruit *f = &st->fruit;
    int seat = st->active;
    int v = f->stack[t][--f->tree_n[t]];
    f->stack[t][f->tree_n[t]] = 0;   /* the token left the tree: nothing hidden stays behind */
    f->held[seat][f->held_n[seat]++] = (uint8_t)(t << 4 | v);
    const carc_piece *tp = &st->pieces[f->tree_piece[t]];
    carc_event *x = carc_ev_push(ev, CARC_EV_HARVESTED);
    if (x) {
        x->seat = (uint8_t)seat;
        x->aux = (uint8_t)t;
        x->value = (int16_t)v;
        x->x = tp->x;
        x->y = tp->y;
    }
    x = score(st, seat, v, CARC_REASON_HARVEST, ev);
    if (x)
        carc_ev_add_space(ev, x, tp->x, tp->y);
}

static void sell(carc_state *st, unsigned set, carc_events *ev)
{
    carc_fruit *f = &st->fruit;
    int seat = st->active;
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        if (!(set >> t & 1))
            continue;
        int best = -1;   /* the lowest value of this type */
        for (int i = 0; i < f->held_n[seat]; i++)
            if (f->held[seat][i] >> 4 == t && (best < 0 || (f->held[seat][i] & 15) < (f->held[seat][best] & 15)))
                best = i;
        memmove(&f->held[seat][best], &f->held[seat][best + 1], (size_t)(f->held_n[seat] - best - 1));
        f->held_n[seat]--;
    }
    int points = sale_points[popcount(set)];
    carc_event *x = carc_ev_push(ev, CARC_EV_SOLD);
    if (x) {
        x->seat = (uint8_t)seat;
        x->aux = (uint8_t)set;
        x->points = points;
        x->value = (int16_t)points;
    }
    score(st, seat, points, CARC_REASON_SELL, ev);
}

/* The tree whose action a sale uses: the first open one with no token left, else the first open one. */
static int sale_tree(const carc_state *st, unsigned open)
{
    int first = -1;
    for (int t = 0; t < st->fruit.ntrees; t++) {
        if (!(open >> t & 1))
            continue;
        if (st->fruit.tree_n[t] == 0)
            return t;
        if (first < 0)
            first = t;
    }
    return first;
}

void carc_fruit_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->pending.kind == CARC_PENDING_FRUIT &&
           (mv->kind == CARC_MV_HARVEST || mv->kind == CARC_MV_SELL || mv->kind == CARC_MV_PASS));
    unsigned open = open_trees(st);
    int used = -1;
    switch (mv->kind) {
    case CARC_MV_HARVEST:
        for (int t = 0; t < st->fruit.ntrees; t++)
            if (st->fruit.tree_piece[t] == mv->piece)
                used = t;
        harvest(st, used, ev);
        break;
    case CARC_MV_SELL:
        used = sale_tree(st, open);
        sell(st, mv->set, ev);
        break;
    default:   /* pass: no more fruit actions this turn */
        st->tn.phase = CARC_PH_FLOCK;
        return;
    }
    st->tn.fruit_done |= (uint8_t)(1u << used);
    /* "per_tree": carc_fruit_begin asks again while another action is possible; "one" is done */
    st->tn.phase = st->opt[CARC_OPT_FRUIT_ACTIONS] ? CARC_PH_FRUIT : CARC_PH_FLOCK;
}

int carc_fruit_final_points(const carc_state *st, int seat)
{
    return carc_has(st, CARC_SET_FRUIT_TREES) ? st->fruit.held_n[seat] : 0;   /* 1 per token held */
}

void carc_fruit_score_final(carc_state *st, carc_events *ev)
{
    for (int s = 0; s < st->nplayers; s++) {
        int points = carc_fruit_final_points(st, s);
        if (points > 0)
            score(st, s, points, CARC_REASON_FRUIT_FINAL, ev);
    }
}
