/*
 * exp_halflings.c — Halb so wild II (docs/RULES.md §5): hands of triangles (dealt privately or drafted), the
 * choice between drawing a tile and placing a triangle, and which marks count.
 *
 * The board already knows triangles (board.c: a triangle's rot is the corner of its right angle, and
 * carc_fits_space checks empty spaces and the free half of a half-filled space); this file only decides
 * who holds which triangle and when one may be played. Placing one goes through carc_place_piece, so the
 * figure step, scoring and the other expansions' hooks follow exactly as for a drawn tile.
 *
 * Rulings (docs/RULES.md is silent):
 *  - A random deal gives 2 triangles to each seat; with fewer than 6 players the rest stay out of the game,
 *    unseen (the seed: "shuffling all triangle tiles face down and giving each player 2 of them").
 *  - The draft takes 2 rounds in reverse seat order (seats that left are skipped); the triangles nobody
 *    picked stay face up in the pool, out of play. A pick with only one kind of triangle left (the 12th
 *    with 6 players) is forced: made by the engine, shown as triangle_drafted, nobody is asked.
 *  - A scripted deal (setup->hands) replaces the deal and the draft alike; each seat may get any number
 *    of triangles, each triangle at most once. Hands are then private unless the option is `draft`.
 *  - A player whose triangles fit nowhere is not asked: the draw is forced (docs/RULES.md §6.8), and only the
 *    tile_drawn event shows it.
 *  - A turn begins only while a tile can be drawn (game.c): with the stack empty the game ends even for a
 *    player who would place a triangle rather than draw (the seed: "as soon as a player can no longer draw
 *    a landscape tile, the game ends immediately").
 *  - While the river is open (option river, spring to lake) the turn is a draw: no triangle is played.
 *  - Legal moves at the choice: "draw" first, then each distinct triangle of the hand (hand order) at each
 *    space (board order) and corner 0..3 where carc_fits_space holds.
 */
#include <assert.h>
#include <stdio.h>

#include "expansions.h"

static int fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return CARC_E_INVALID;
}

/* Whether the draft is still running (set-up put the machine in CARC_PH_DRAFT). */
static bool drafting(const carc_state *st) { return st->tn.phase == CARC_PH_DRAFT; }

/* The seat that makes pick number `step` of the draft: reverse seat order, twice round. */
static int draft_seat(const carc_state *st, int step) { return st->nplayers - 1 - step % st->nplayers; }

static void dealt(carc_events *ev, int kind, int seat, int type)
{
    carc_event *x = carc_ev_push(ev, kind);
    if (x) {
        x->seat = (uint8_t)seat;
        x->tile = (uint8_t)type;
    }
}

static void hand_add(carc_state *st, int seat, int type)
{
    st->half.hand[seat][st->half.hand_n[seat]++] = (uint8_t)type;
}

int carc_halflings_setup(carc_state *st, const carc_setup *s, carc_events *ev, char *err, size_t errlen)
{
    carc_halflings *h = &st->half;
    if (!carc_has(st, CARC_SET_HALFLINGS)) {
        if (s->hands_scripted)
            return fail(err, errlen, "script.hands: the halflings expansion is not in play");
        return 0;
    }
    /* the triangles of this game, in catalog order, one entry per copy */
    uint8_t all[CARC_MAX_HAND];
    int left[CARC_MAX_TYPES] = {0};
    int n = 0;
    for (int t = 0; t < st->cat->ntypes; t++) {
        const carc_tile_type *tt = &st->cat->types[t];
        if (tt->shape != CARC_TRIANGLE || !carc_has(st, (carc_set)tt->set) ||
            (tt->when >= 0 && st->opt[tt->when] == 0))
            continue;
        for (int k = 0; k < tt->count && n < CARC_MAX_HAND; k++) {
            all[n++] = (uint8_t)t;
            left[t]++;
        }
    }
    if (s->hands_scripted) {
        for (int seat = 0; seat < CARC_MAX_PLAYERS; seat++) {
            if (s->hand_n[seat] > CARC_MAX_HAND || (seat >= st->nplayers && s->hand_n[seat] > 0)) {
                if (err && errlen)
                    snprintf(err, errlen, "script.hands[%d]: %s", seat,
                             seat >= st->nplayers ? "no such seat" : "too many triangles");
                return CARC_E_INVALID;
            }
            for (int i = 0; i < s->hand_n[seat]; i++) {
                int t = s->hand[seat][i];
                if (t >= st->cat->ntypes || left[t] <= 0) {
                    if (err && errlen)
                        snprintf(err, errlen, "script.hands[%d][%d]: %s is not a triangle left in this game",
                                 seat, i, t < st->cat->ntypes ? st->cat->types[t].id : "?");
                    return CARC_E_INVALID;
                }
                left[t]--;
                hand_add(st, seat, t);
                dealt(ev, CARC_EV_TRIANGLE_DEALT, seat, t);
            }
        }
        return 0;
    }
    if (st->opt[CARC_OPT_HALFLINGS_DEAL] == 1) {   /* draft: all face up, picks before the first turn */
        for (int i = 0; i < n; i++)
            h->pool[i] = all[i];
        h->pool_n = (uint8_t)n;
        h->draft_step = 0;
        st->tn.phase = CARC_PH_DRAFT;
        return 0;
    }
    carc_rng_shuffle(&st->rng, all, (size_t)n);
    for (int seat = 0, k = 0; seat < st->nplayers; seat++)
        for (int j = 0; j < 2 && k < n; j++, k++) {
            hand_add(st, seat, all[k]);
            dealt(ev, CARC_EV_TRIANGLE_DEALT, seat, all[k]);
        }
    return 0;
}

/* ---- the turn's start: draw, or a triangle from the hand ---- */

/* Appends a PLACE for every distinct triangle in the active seat's hand at every space and corner where it
 * fits; stops at the first when `any` (then the return value says whether there is one). */
static bool triangle_places(const carc_state *st, carc_moves *out, bool any)
{
    const carc_halflings *h = &st->half;
    int seat = st->active;
    if (st->npieces >= CARC_MAX_PIECES)
        return false;
    for (int i = 0; i < h->hand_n[seat]; i++) {
        int t = h->hand[seat][i];
        bool dup = false;
        for (int j = 0; j < i && !dup; j++)
            dup = h->hand[seat][j] == t;
        if (dup)
            continue;
        for (int si = 0; si < st->board.nspaces; si++)
            for (int rot = 0; rot < 4; rot++) {
                if (!carc_fits_space(st, t, si, rot))
                    continue;
                if (any)
                    return true;
                carc_move m = {.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .rot = (uint8_t)rot,
                               .x = st->board.spaces[si].x, .y = st->board.spaces[si].y};
                carc_moves_push(out, &m);
            }
    }
    return false;
}

bool carc_halflings_begin(carc_state *st, carc_events *ev)
{
    (void)ev;
    /* while the river is open (option river: from the spring to the lake) no triangle is played: the river
     * tiles are drawn one after the other (RULINGS.md "River") */
    if (!carc_has(st, CARC_SET_HALFLINGS) || st->half.hand_n[st->active] == 0 || st->board.river_end != 0 ||
        !triangle_places(st, NULL, true))
        return false;   /* nothing to choose: game.c draws */
    st->pending = (carc_pending){.kind = CARC_PENDING_DRAW_OR_TRIANGLE, .seat = st->active, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    return true;
}

void carc_halflings_start_moves(const carc_state *st, carc_moves *out)
{
    carc_move draw = {.kind = CARC_MV_DRAW};
    carc_moves_push(out, &draw);
    triangle_places(st, out, false);
}

void carc_halflings_apply_start(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE && (mv->kind == CARC_MV_DRAW || mv->kind == CARC_MV_PLACE));
    if (mv->kind != CARC_MV_PLACE) {
        carc_draw_tile(st, ev);   /* pending PLACE, or the game is over */
        return;
    }
    carc_halflings *h = &st->half;
    int seat = st->active;
    for (int i = 0; i < h->hand_n[seat]; i++)
        if (h->hand[seat][i] == mv->tile) {
            for (int j = i + 1; j < h->hand_n[seat]; j++)
                h->hand[seat][j - 1] = h->hand[seat][j];
            h->hand_n[seat]--;
            h->hand[seat][h->hand_n[seat]] = 0;   /* unused slots stay zero: one state, one encoding */
            break;
        }
    carc_place_piece(st, mv, ev);   /* the figure step and the rest of the turn follow as for a tile */
}

/* ---- the draft ---- */

/* Seat takes a face-up triangle of `type` from the pool. */
static void draft_take(carc_state *st, int seat, int type, carc_events *ev)
{
    carc_halflings *h = &st->half;
    for (int i = 0; i < h->pool_n; i++)
        if (h->pool[i] == type) {
            for (int j = i + 1; j < h->pool_n; j++)
                h->pool[j - 1] = h->pool[j];
            h->pool_n--;
            h->pool[h->pool_n] = 0;   /* unused slots stay zero */
            break;
        }
    hand_add(st, seat, type);
    dealt(ev, CARC_EV_TRIANGLE_DRAFTED, seat, type);
    h->draft_step++;
}

bool carc_halflings_draft_begin(carc_state *st, carc_events *ev)
{
    carc_halflings *h = &st->half;
    while (h->draft_step < 2 * st->nplayers && h->pool_n > 0) {
        int seat = draft_seat(st, h->draft_step);
        if (st->left >> seat & 1) {   /* a seat that left picks nothing */
            h->draft_step++;
            continue;
        }
        bool one_kind = true;   /* the triangles left are all alike: the pick is forced, nobody is asked */
        for (int i = 1; i < h->pool_n && one_kind; i++)
            one_kind = h->pool[i] == h->pool[0];
        if (one_kind) {
            draft_take(st, seat, h->pool[0], ev);
            continue;
        }
        st->pending = (carc_pending){.kind = CARC_PENDING_DRAFT, .seat = (uint8_t)seat, .tile = CARC_NO_TYPE,
                                     .piece = CARC_NO_PIECE};
        return true;
    }
    return false;   /* the draft is over: game.c starts the first turn */
}

void carc_halflings_draft_moves(const carc_state *st, carc_moves *out)
{
    const carc_halflings *h = &st->half;
    if (!drafting(st))
        return;
    for (int i = 0; i < h->pool_n; i++) {
        bool dup = false;
        for (int j = 0; j < i && !dup; j++)
            dup = h->pool[j] == h->pool[i];
        if (dup)
            continue;
        carc_move m = {.kind = CARC_MV_DRAFT, .tile = h->pool[i]};
        carc_moves_push(out, &m);
    }
}

void carc_halflings_apply_draft(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->pending.kind == CARC_PENDING_DRAFT && mv->kind == CARC_MV_DRAFT);
    draft_take(st, st->pending.seat, mv->tile, ev);
    st->tn.phase = CARC_PH_DRAFT;   /* carc_advance asks the next pick, or starts the first turn */
}
