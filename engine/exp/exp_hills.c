/*
 * exp_hills.c — Hills & Sheep (docs/RULES.md §2): the hidden tile under a hill, the hill tie-break, vineyards,
 * the shepherd and its flock.
 *
 * The bag (carc_hills.bag) is kept sorted, so that one bag has one representation (snapshots, draws): a draw
 * picks a uniform index with carc_rng_below and removes that token; a token going back is inserted in order.
 * A wolf never leaves the bag: drawing it is picking its index and leaving it there.
 *
 * Rulings (pinned by scenarios in tests/scenarios/hills_sheep/ and by tests/unit/test_hills.c):
 * - The admin's script (setup->sheep) fixes the values of the bag draws in order. At creation only the
 *   values are checked (0..4, at most CARC_MAX_SCRIPT): counts cannot be, because stabled and scattered
 *   tokens go back into the bag. At a draw whose scripted value the bag no longer holds, that script entry is
 *   used up and this one draw is uniform; the following entries still apply to the following draws (the
 *   k-th draw of the game is always script[k] when it can be). Once the script is exhausted draws are
 *   uniform.
 * - Scripted draws use no randomness; uniform draws use one carc_rng_below.
 * - Flock moves are listed stable first, then grow (a clock's default move banks the flock).
 * - A hill placed when the stack is empty takes nothing and makes no hill_covered event.
 * - On a space holding two triangles, both are "on the hill" when either shows an active hill mark, and the
 *   space takes at most one tile under it (docs/RULES.md §5 "Hill triangle").
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "expansions.h"

static bool on(const carc_state *st) { return carc_has(st, CARC_SET_HILLS_SHEEP); }

/* The 18 tokens of a full bag, sorted: 2 wolves, 4x1, 5x2, 5x3, 2x4. */
static const uint8_t full_count[5] = {2, 4, 5, 5, 2};

static void bag_put(carc_hills *h, uint8_t v)
{
    int i = h->bag_n;
    while (i > 0 && h->bag[i - 1] > v) {
        h->bag[i] = h->bag[i - 1];
        i--;
    }
    h->bag[i] = v;
    h->bag_n++;
}

static void bag_take_at(carc_hills *h, int i)
{
    memmove(&h->bag[i], &h->bag[i + 1], (size_t)(h->bag_n - i - 1));
    h->bag_n--;
}

int carc_hills_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen)
{
    carc_hills *h = &st->hills;
    memset(h, 0, sizeof *h);
    if (s->nsheep < 0 || s->nsheep > CARC_MAX_SCRIPT) {
        if (err && errlen)
            snprintf(err, errlen, "script.sheep: at most %d draws", CARC_MAX_SCRIPT);
        return CARC_E_INVALID;
    }
    if (!on(st)) {
        if (s->nsheep > 0) {
            if (err && errlen)
                snprintf(err, errlen, "script.sheep: hills_sheep is not in play");
            return CARC_E_INVALID;
        }
        return 0;
    }
    for (uint8_t v = 0; v < 5; v++)
        for (int k = 0; k < full_count[v]; k++)
            h->bag[h->bag_n++] = v;
    for (int i = 0; i < s->nsheep; i++) {
        if (s->sheep[i] > 4) {
            if (err && errlen)
                snprintf(err, errlen, "script.sheep[%d]: a token is 1 to 4 sheep or \"wolf\"", i);
            return CARC_E_INVALID;
        }
        h->script[i] = s->sheep[i];
    }
    h->script_n = (uint8_t)s->nsheep;
    h->script_pos = 0;
    return 0;
}

/* One draw from the bag: the token's value (CARC_WOLF or 1..4). A sheep leaves the bag, a wolf stays. */
static uint8_t draw_token(carc_state *st)
{
    carc_hills *h = &st->hills;
    int idx = -1;
    if (h->script_pos < h->script_n) {
        uint8_t want = h->script[h->script_pos++];
        for (int i = 0; i < h->bag_n && idx < 0; i++)
            if (h->bag[i] == want)
                idx = i;
    }
    if (idx < 0)
        idx = (int)carc_rng_below(&st->rng, h->bag_n);   /* never empty: the 2 wolves are always in it */
    uint8_t v = h->bag[idx];
    if (v != CARC_WOLF)
        bag_take_at(h, idx);
    return v;
}

bool carc_hills_on_hill(const carc_state *st, int piece)
{
    if (!on(st))
        return false;
    const carc_space *s = &st->board.spaces[st->board.piece_space[piece]];
    for (int k = 0; k < s->npieces; k++)
        if (carc_mark_active(st, st->pieces[s->piece[k]].type, CARC_MARK_HILL))
            return true;
    return false;
}

void carc_hills_on_placed(carc_state *st, int piece, carc_events *ev)
{
    carc_piece *pc = &st->pieces[piece];
    if (!on(st) || !st->opt[CARC_OPT_HILL_TAKES_TILE] || !carc_mark_active(st, pc->type, CARC_MARK_HILL))
        return;
    const carc_space *s = &st->board.spaces[st->board.piece_space[piece]];
    for (int k = 0; k < s->npieces; k++)
        if (st->pieces[s->piece[k]].under != CARC_NO_TYPE)
            return;   /* the other half of this space already covers a tile: one hill */
    if (st->stack_pos >= st->stack_len)
        return;
    pc->under = st->stack[st->stack_pos++];
    carc_event *x = carc_ev_push(ev, CARC_EV_HILL_COVERED);
    if (x) {
        x->seat = st->active;
        x->tile = pc->under;
        x->x = pc->x;
        x->y = pc->y;
        x->rot = pc->rot;
    }
}

/* Whether the field with union-find root `root` holds a shepherd. */
static bool field_has_shepherd(const carc_state *st, int root)
{
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->kind == CARC_FIG_SHEPHERD && carc_find(&st->board, carc_node(g->piece, g->part)) == root)
            return true;
    }
    return false;
}

void carc_hills_figure_moves(const carc_state *st, int seat, carc_moves *out)
{
    if (!on(st) || carc_supply(st, seat, CARC_FIG_SHEPHERD) <= 0)
        return;
    int piece = st->tn.piece;
    const carc_tile_type *t = carc_type_of(st, piece);
    for (int i = 0; i < t->nparts; i++) {
        if (t->parts[i].kind != CARC_PART_FIELD ||
            field_has_shepherd(st, carc_find(&st->board, carc_node(piece, i))))
            continue;
        carc_move m = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_SHEPHERD, .part = (uint8_t)i};
        carc_moves_push(out, &m);
    }
}

static void token_event(carc_state *st, int seat, uint8_t v, int piece, carc_events *ev)
{
    carc_event *x = carc_ev_push(ev, CARC_EV_TOKEN_DRAWN);
    if (x) {
        x->seat = (uint8_t)seat;
        x->value = v;
        x->tile = st->pieces[piece].type;
        x->x = st->pieces[piece].x;
        x->y = st->pieces[piece].y;
        x->rot = st->pieces[piece].rot;
    }
}

/* Every shepherd in the field `root` goes home, highest figure index first; their tokens go back. */
static void clear_field(carc_state *st, int root, carc_events *ev)
{
    carc_hills *h = &st->hills;
    for (int i = st->nfigures - 1; i >= 0; i--) {
        const carc_figure *g = &st->figures[i];
        if (g->kind != CARC_FIG_SHEPHERD || carc_find(&st->board, carc_node(g->piece, g->part)) != root)
            continue;
        int seat = g->seat;
        for (int k = 0; k < h->flock_n[seat]; k++)
            bag_put(h, h->flock[seat][k]);
        h->flock_n[seat] = 0;
        carc_figure_remove(st, i, ev);
    }
}

/* Stable: every shepherd of the field scores the sheep on all its tokens; tokens back, shepherds home. */
static void stable_field(carc_state *st, int root, carc_events *ev)
{
    int total = 0;
    unsigned seats = 0;
    for (int i = 0; i < st->nfigures; i++) {   /* who scores, and how much, before anything moves */
        const carc_figure *g = &st->figures[i];
        if (g->kind != CARC_FIG_SHEPHERD || carc_find(&st->board, carc_node(g->piece, g->part)) != root)
            continue;
        seats |= 1u << g->seat;
        for (int k = 0; k < st->hills.flock_n[g->seat]; k++)
            total += st->hills.flock[g->seat][k];
    }
    if (seats && total > 0) {
        for (int s = 0; s < st->nplayers; s++)
            if (seats >> s & 1)
                st->players[s].score += total;
        carc_event *x = carc_ev_push(ev, CARC_EV_SCORE);
        if (x) {
            x->seats = (uint8_t)seats;
            x->points = total;
            x->feature = CARC_PART_FIELD;
            x->reason = CARC_REASON_FLOCK;
            /* the field's spaces, each once */
            uint16_t seen[CARC_NODES];
            int ns = 0, n = root;
            do {
                int p = n / CARC_MAX_PARTS;
                uint16_t si = st->board.piece_space[p];
                bool dup = false;
                for (int k = 0; k < ns && !dup; k++)
                    dup = seen[k] == si;
                if (!dup) {
                    seen[ns++] = si;
                    carc_ev_add_space(ev, x, st->pieces[p].x, st->pieces[p].y);
                }
                n = st->board.next[n];
            } while (n != root);
        }
    }
    clear_field(st, root, ev);
}

/* A wolf: every flock of the field scatters, its shepherds go home, nobody scores. */
static void scatter_field(carc_state *st, int root, int piece, carc_events *ev)
{
    carc_event *x = carc_ev_push(ev, CARC_EV_FLOCK_SCATTERED);
    if (x) {
        x->seat = st->active;
        x->tile = st->pieces[piece].type;
        x->x = st->pieces[piece].x;
        x->y = st->pieces[piece].y;
        x->rot = st->pieces[piece].rot;
    }
    clear_field(st, root, ev);
}

void carc_hills_after_figure(carc_state *st, const carc_move *mv, carc_events *ev)
{
    if (!on(st) || mv->fig != CARC_FIG_SHEPHERD)
        return;
    int fi = carc_figure_find(st, st->active, CARC_FIG_SHEPHERD);
    if (fi < 0)
        return;
    const carc_figure g = st->figures[fi];
    uint8_t v = draw_token(st);
    token_event(st, st->active, v, g.piece, ev);
    if (v == CARC_WOLF) {
        carc_figure_remove(st, fi, ev);
        return;
    }
    carc_hills *h = &st->hills;
    h->flock[st->active][h->flock_n[st->active]++] = v;
    int root = carc_find(&st->board, carc_node(g.piece, g.part));
    if (st->board.open[root] == 0)
        stable_field(st, root, ev);   /* placed into an already closed field */
}

/* Root of the field holding the active player's shepherd when this turn's piece extends it, or -1. */
static int flock_root(const carc_state *st)
{
    if (!on(st) || st->tn.figure == CARC_FIG_SHEPHERD || st->tn.piece == CARC_NO_PIECE)
        return -1;
    int fi = carc_figure_find(st, st->active, CARC_FIG_SHEPHERD);
    if (fi < 0)
        return -1;
    int root = carc_find(&st->board, carc_node(st->figures[fi].piece, st->figures[fi].part));
    const carc_tile_type *t = carc_type_of(st, st->tn.piece);
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == CARC_PART_FIELD && carc_find(&st->board, carc_node(st->tn.piece, i)) == root)
            return root;
    return -1;
}

bool carc_hills_flock_begin(carc_state *st, carc_events *ev)
{
    (void)ev;
    if (flock_root(st) < 0)
        return false;
    st->pending = (carc_pending){.kind = CARC_PENDING_FLOCK, .seat = st->active, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    return true;
}

void carc_hills_flock_moves(const carc_state *st, carc_moves *out)
{
    if (flock_root(st) < 0)
        return;
    carc_move stable = {.kind = CARC_MV_STABLE}, grow = {.kind = CARC_MV_GROW};
    carc_moves_push(out, &stable);
    carc_moves_push(out, &grow);
}

void carc_hills_flock_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->pending.kind == CARC_PENDING_FLOCK && (mv->kind == CARC_MV_GROW || mv->kind == CARC_MV_STABLE));
    int root = flock_root(st);
    st->tn.phase = CARC_PH_SCORE;
    if (root < 0)
        return;
    int fi = carc_figure_find(st, st->active, CARC_FIG_SHEPHERD);
    int piece = st->figures[fi].piece;
    if (mv->kind == CARC_MV_STABLE) {
        stable_field(st, root, ev);
        return;
    }
    uint8_t v = draw_token(st);
    token_event(st, st->active, v, piece, ev);
    if (v == CARC_WOLF) {
        scatter_field(st, root, piece, ev);
        return;
    }
    carc_hills *h = &st->hills;
    h->flock[st->active][h->flock_n[st->active]++] = v;
}

void carc_hills_score_closed_fields(carc_state *st, carc_events *ev)
{
    if (!on(st))
        return;
    for (int i = 0; i < st->nfigures;) {
        const carc_figure *g = &st->figures[i];
        int root = g->kind == CARC_FIG_SHEPHERD ? carc_find(&st->board, carc_node(g->piece, g->part)) : -1;
        if (root >= 0 && st->board.open[root] == 0) {
            stable_field(st, root, ev);
            i = 0;   /* figures moved: look again from the start */
        } else {
            i++;
        }
    }
}

unsigned carc_hills_tiebreak(const carc_state *st, const carc_feature *f, unsigned seats)
{
    if (!on(st) || (f->kind != CARC_PART_ROAD && f->kind != CARC_PART_CITY && f->kind != CARC_PART_FIELD))
        return seats;
    int hills[CARC_MAX_PLAYERS] = {0}, best = 0;
    for (int k = 0; k < f->nfigs; k++) {
        const carc_figure *g = &st->figures[f->figs[k]];
        if ((seats >> g->seat & 1) && carc_hills_on_hill(st, g->piece))
            hills[g->seat]++;
    }
    unsigned won = 0;
    for (int s = 0; s < st->nplayers; s++)
        if (seats >> s & 1 && hills[s] > best)
            best = hills[s];
    if (best == 0)
        return seats;   /* nobody tied is on a hill: the tie stands */
    for (int s = 0; s < st->nplayers; s++) {
        if (!(seats >> s & 1))
            continue;
        if (st->opt[CARC_OPT_HILL_TIEBREAK] == 0 ? hills[s] > 0 : hills[s] == best)
            won |= 1u << s;
    }
    return won;
}

int carc_hills_vineyard_bonus(const carc_state *st, int cloister_piece)
{
    if (!on(st))
        return 0;
    const carc_piece *pc = &st->pieces[cloister_piece];
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            int si = carc_space_find(&st->board, pc->x + dx, pc->y + dy);
            if (si < 0)
                continue;
            const carc_space *s = &st->board.spaces[si];
            for (int k = 0; k < s->npieces; k++)
                n += carc_mark_active(st, st->pieces[s->piece[k]].type, CARC_MARK_VINEYARD);
        }
    return 3 * n;
}
