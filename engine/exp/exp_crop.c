/*
 * exp_crop.c — Crop Circles (docs/RULES.md §3): after scoring, the active player chooses add (A) or remove (B),
 * then every player from the active player's left, the active player last, acts in turn.
 *
 * The kind of follower is set by the circle's symbol: club = thieves (meeples on roads), rake = farmers
 * (meeples on fields), shield = knights (meeples on cities). Abbots and shepherds are never affected (an
 * abbot never stands on a road, city or field, and only meeples are considered).
 *
 * State (st->crop): `kind` is CARC_CC_NONE when no action is in progress, and then every field is zero.
 * While the choice is pending: kind and piece are set, mode and step are 0. While actions are pending:
 * mode is chosen, `step` counts the players already asked or skipped from the active player's left, and
 * the player at position `step` (seat (active + 1 + step) % nplayers) is the one st->pending names.
 *
 * Rulings (engine/RULINGS.md):
 *   - a player is asked when it has a choice: two or more legal moves. One legal move (a remove with one
 *     follower, a mandatory add with one target) is made by the engine (game.c, a forced_move event), unless
 *     the option ask_forced asks for it all the same; a player with nothing to change is skipped with a
 *     crop_circle_skipped event (there is no move to make);
 *   - seats that left the game are passed over silently;
 *   - a meeple added stands on the chosen segment like any follower (it counts for majorities and the hill
 *     tie-break) but it is not the turn's figure: it triggers no fruit action and no shepherd draw.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "expansions.h"

/* The part kind a crop circle symbol affects, or -1. */
static int cc_part_kind(int cc)
{
    switch (cc) {
    case CARC_CC_CLUB: return CARC_PART_ROAD;
    case CARC_CC_RAKE: return CARC_PART_FIELD;
    case CARC_CC_SHIELD: return CARC_PART_CITY;
    default: return -1;
    }
}

/* Whether figure g is a follower the current circle affects. */
static bool affected(const carc_state *st, const carc_figure *g, int part_kind)
{
    return g->kind == CARC_FIG_MEEPLE && carc_type_of(st, g->piece)->parts[g->part].kind == part_kind;
}

static bool anyone_has(const carc_state *st, int part_kind)
{
    for (int i = 0; i < st->nfigures; i++)
        if (affected(st, &st->figures[i], part_kind))
            return true;
    return false;
}

static int cmp_target(const void *a, const void *b)
{
    const uint16_t *p = a, *q = b;
    return (int)*p - (int)*q;
}

/* The (piece, part) nodes `seat` may act on now, sorted and each once: for add, where a meeple may go;
 * for remove, where the seat's followers stand. Returns the count. */
static int targets(const carc_state *st, int seat, uint16_t *out)
{
    int part_kind = cc_part_kind(st->crop.kind), n = 0;
    bool add = st->crop.mode == 0;
    if (part_kind < 0 || (add && carc_supply(st, seat, CARC_FIG_MEEPLE) <= 0))
        return 0;
    bool whole_feature = add && st->opt[CARC_OPT_CC_ADD_WHERE] == 1;
    int roots[CARC_MAX_FIGURES], nroots = 0;
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->seat != seat || !affected(st, g, part_kind))
            continue;
        int node = carc_node(g->piece, g->part);
        if (!whole_feature) {
            out[n++] = (uint16_t)node;
            continue;
        }
        int root = carc_find(&st->board, node), k = root;
        bool seen = false;   /* features are disjoint: each expanded once, n stays below CARC_NODES */
        for (int r = 0; r < nroots && !seen; r++)
            seen = roots[r] == root;
        if (seen)
            continue;
        roots[nroots++] = root;
        do {
            out[n++] = (uint16_t)k;
            k = st->board.next[k];
        } while (k != root);
    }
    qsort(out, (size_t)n, sizeof *out, cmp_target);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* Appends seat's action moves (pending CC_ACTION): skip first when adding is optional, then the targets. */
static void action_moves(const carc_state *st, int seat, carc_moves *out)
{
    uint16_t *t = malloc(sizeof *t * CARC_NODES);
    if (!t)
        abort();   /* the engine's policy: out of memory aborts */
    int n = targets(st, seat, t);
    if (n > 0 && st->crop.mode == 0 && st->opt[CARC_OPT_CC_ADD] == 0) {
        carc_move skip = {.kind = CARC_MV_CC_SKIP};
        carc_moves_push(out, &skip);
    }
    for (int i = 0; i < n; i++) {
        carc_move m = {.kind = CARC_MV_CC_FIGURE, .piece = (uint8_t)(t[i] / CARC_MAX_PARTS),
                       .part = (uint8_t)(t[i] % CARC_MAX_PARTS)};
        carc_moves_push(out, &m);
    }
    free(t);
}

static void reset(carc_state *st) { memset(&st->crop, 0, sizeof st->crop); }

static void push_skipped(carc_state *st, int seat, int whole, carc_events *ev)
{
    carc_event *x = carc_ev_push(ev, CARC_EV_CC_SKIPPED);
    if (x) {
        x->seat = (uint8_t)seat;
        x->aux = st->crop.kind;
        x->value = (int16_t)whole;
    }
}

/* Asks the next player who can act, from position st->crop.step on; skips the others with an event.
 * True when it set a pending action; false (phase NEXT, crop reset) when everyone is done. */
static bool next_action(carc_state *st, carc_events *ev)
{
    carc_moves m = {0};
    for (; st->crop.step < st->nplayers; st->crop.step++) {
        int seat = (st->active + 1 + st->crop.step) % st->nplayers;
        if (st->left >> seat & 1)
            continue;
        m.n = 0;
        action_moves(st, seat, &m);
        if (m.n == 0) {
            push_skipped(st, seat, 0, ev);
            continue;
        }
        carc_moves_free(&m);
        st->pending = (carc_pending){.kind = CARC_PENDING_CC_ACTION, .seat = (uint8_t)seat,
                                     .tile = CARC_NO_TYPE, .piece = CARC_NO_PIECE};
        return true;
    }
    carc_moves_free(&m);
    reset(st);
    st->tn.phase = CARC_PH_NEXT;
    return false;
}

bool carc_crop_begin(carc_state *st, carc_events *ev)
{
    int piece = st->tn.piece;
    if (piece == CARC_NO_PIECE || !carc_mark_active(st, st->pieces[piece].type, CARC_MARK_CC))
        return false;
    int cc = carc_type_of(st, piece)->cc;
    if (cc_part_kind(cc) < 0)
        return false;
    reset(st);
    st->crop.kind = (uint8_t)cc;
    st->crop.piece = (uint8_t)piece;
    if (!anyone_has(st, cc_part_kind(cc))) {   /* A and B would both change nothing */
        push_skipped(st, st->active, 1, ev);
        reset(st);
        return false;
    }
    st->pending = (carc_pending){.kind = CARC_PENDING_CC_CHOICE, .seat = st->active, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    return true;
}

void carc_crop_moves(const carc_state *st, carc_moves *out)
{
    if (st->crop.kind == CARC_CC_NONE)
        return;
    if (st->pending.kind == CARC_PENDING_CC_CHOICE) {
        carc_move a = {.kind = CARC_MV_CC_ADD}, b = {.kind = CARC_MV_CC_REMOVE};
        carc_moves_push(out, &a);
        carc_moves_push(out, &b);
    } else if (st->pending.kind == CARC_PENDING_CC_ACTION) {
        action_moves(st, st->pending.seat, out);
    }
}

/* The index of seat's meeple standing on (piece, part), the last one when several do, or -1. */
static int figure_at(const carc_state *st, int seat, int piece, int part)
{
    for (int i = st->nfigures - 1; i >= 0; i--) {
        const carc_figure *g = &st->figures[i];
        if (g->seat == seat && g->kind == CARC_FIG_MEEPLE && g->piece == piece && g->part == part)
            return i;
    }
    return -1;
}

bool carc_crop_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->pending.kind == CARC_PENDING_CC_CHOICE ? mv->kind == CARC_MV_CC_ADD || mv->kind == CARC_MV_CC_REMOVE
                                                      : st->pending.kind == CARC_PENDING_CC_ACTION &&
                                                            (mv->kind == CARC_MV_CC_FIGURE || mv->kind == CARC_MV_CC_SKIP));
    int seat = st->pending.seat;
    carc_event *x;
    if (st->pending.kind == CARC_PENDING_CC_CHOICE) {
        st->crop.mode = mv->kind == CARC_MV_CC_REMOVE;
        st->crop.step = 0;
        x = carc_ev_push(ev, CARC_EV_CC_CHOSEN);
        if (x) {
            x->seat = (uint8_t)seat;
            x->value = st->crop.mode;
            x->aux = st->crop.kind;
        }
        return next_action(st, ev);
    }
    /* CARC_PENDING_CC_ACTION */
    if (mv->kind == CARC_MV_CC_SKIP) {
        x = carc_ev_push(ev, CARC_EV_PASSED);
        if (x)
            x->seat = (uint8_t)seat;
    } else if (st->crop.mode == 0) {
        st->figures[st->nfigures++] = (carc_figure){.seat = (uint8_t)seat, .kind = CARC_FIG_MEEPLE,
                                                    .piece = mv->piece, .part = mv->part};
        x = carc_ev_push(ev, CARC_EV_FIGURE_PLACED);
        if (x) {
            const carc_piece *pc = &st->pieces[mv->piece];
            x->seat = (uint8_t)seat;
            x->fig = CARC_FIG_MEEPLE;
            x->part = mv->part;
            x->tile = pc->type;
            x->x = pc->x;
            x->y = pc->y;
            x->rot = pc->rot;
        }
    } else {
        int fi = figure_at(st, seat, mv->piece, mv->part);
        if (fi >= 0)   /* always: the move was in the legal list */
            carc_figure_remove(st, fi, ev);
    }
    st->crop.step++;
    return next_action(st, ev);
}
