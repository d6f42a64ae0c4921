/*
 * legal.c — carc_legal_moves: every complete move the seat may make for the pending decision, in a fixed
 * order (frontier order, then rotation; pass first among figure moves), so that "the first legal move" is
 * the same every time.
 */
#include <stddef.h>
#include <string.h>

#include "alloc.h"
#include "expansions.h"

/* scan_places writes a placement as its first 8 bytes and then x, y in one 4-byte store */
_Static_assert(sizeof(carc_move) == 12 && offsetof(carc_move, x) == 8 && offsetof(carc_move, y) == 10,
               "carc_move: 8 bytes, then x and y");
_Static_assert(offsetof(carc_space, y) == offsetof(carc_space, x) + 2, "carc_space: x and y side by side");

bool carc_move_equal(const carc_move *a, const carc_move *b)
{
    /* every field: moves are built with unused fields zero (legal lists, the JSON decoder) */
    return a->kind == b->kind && a->tile == b->tile && a->rot == b->rot && a->fig == b->fig &&
           a->part == b->part && a->piece == b->piece && a->set == b->set && a->x == b->x && a->y == b->y;
}

/* Appends the placements at space s with rotations `rots` (bit per rotation) to `out`, or with out NULL
 * counts them in *n (*first gets the first one). False once the count reaches 2: the caller stops. */
static bool emit_places(const carc_space *s, int t, unsigned rots, carc_moves *out, carc_move *first, size_t *n)
{
    for (int rot = 0; rot < 4; rot++)
        if (rots >> rot & 1) {
            carc_move m = {.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .rot = (uint8_t)rot, .x = s->x, .y = s->y};
            if (out)
                out->v[out->n++] = m;
            else if (*n == 0)
                *first = m;
            else
                return false;
            ++*n;
        }
    return true;
}

/* The placements of the drawn tile, in legal-moves order (space index, then rotation), appended to `out`;
 * with out NULL only counted, and the count stops at 2 (*first gets the first one): whether the tile fits
 * exactly one way is asked after every draw, and that must not cost a list. */
static size_t scan_places(const carc_state *st, carc_moves *out, carc_move *first)
{
    const carc_board *b = &st->board;
    int t = st->pending.tile;
    const carc_tile_type *tt = &st->cat->types[t];
    size_t n = 0;
    if (out)
        carc_grow((void **)&out->v, &out->cap, out->n + 4u * b->nspaces, sizeof *out->v);
    if (tt->river) {   /* a river tile goes only on the river's open end (board.c: river_fits) */
        unsigned rots = carc_river_fit_rots(st, t);
        if (rots && !emit_places(&b->spaces[b->river_end - 1], t, rots, out, first, &n))
            return 2;
        return n;
    }
    if (tt->shape == CARC_SQUARE) {
        /* a square only goes on an empty space: walk the frontier bits, which are in space order */
        if (out) {
            /* Whether a rotation fits is a coin toss to the branch predictor, so the list is written without
             * a branch on it: all four rotations are stored and the count only moves past the ones that fit
             * (room for 4 per space was made above). A move is two stores: its first 8 bytes (kind, tile,
             * rot, the rest zero) from one of four templates, then the space's x and y, which lie side by
             * side in both structs. */
            uint64_t head[4];
            for (int rot = 0; rot < 4; rot++) {
                carc_move m = {.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .rot = (uint8_t)rot};
                memcpy(&head[rot], &m, sizeof head[rot]);
            }
            unsigned char *v = (unsigned char *)(out->v + out->n);
            size_t k = 0;
            for (int w = 0; w * 64 < b->nspaces; w++) {
                /* first the fitting rotations of each frontier space of this word, and which spaces take the
                 * tile at all; then the moves, for those spaces only */
                uint8_t rots[64];
                uint64_t fits = 0;
                for (uint64_t bits = b->empty[w] & ~carc_river_bit(b, w); bits; bits &= bits - 1) {
                    int i = __builtin_ctzll(bits);
                    rots[i] = (uint8_t)carc_square_fit_rots(tt, b, w * 64 + i);
                    fits |= (uint64_t)(rots[i] != 0) << i;
                }
                for (; fits; fits &= fits - 1) {
                    int i = __builtin_ctzll(fits);
                    uint32_t xy;
                    memcpy(&xy, &b->spaces[w * 64 + i].x, sizeof xy);
                    for (int rot = 0; rot < 4; rot++) {
                        memcpy(v + k * sizeof(carc_move), &head[rot], sizeof head[rot]);
                        memcpy(v + k * sizeof(carc_move) + offsetof(carc_move, x), &xy, sizeof xy);
                        k += (unsigned)rots[i] >> rot & 1;
                    }
                }
            }
            out->n += k;
            return k;
        }
        for (int w = 0; w * 64 < b->nspaces; w++)
            for (uint64_t bits = b->empty[w] & ~carc_river_bit(b, w); bits; bits &= bits - 1) {
                int si = w * 64 + __builtin_ctzll(bits);
                unsigned rots = carc_square_fit_rots(tt, b, si);
                if (rots && !emit_places(&b->spaces[si], t, rots, out, first, &n))
                    return 2;
            }
        return n;
    }
    for (int i = 0; i < b->nspaces; i++) {   /* a triangle may also go beside another one */
        unsigned rots = 0;
        for (int rot = 0; rot < 4; rot++)
            rots |= (unsigned)carc_fits_space(st, t, i, rot) << rot;
        if (rots && !emit_places(&b->spaces[i], t, rots, out, first, &n))
            return 2;
    }
    return n;
}

/* The figure step's moves for the piece just placed, pass first, appended to `out`; with out NULL only
 * counted, stopping at 2 (figure_begin and carc_only_move only ask whether there is a choice). One pass over
 * the figures gives the seat's supply, its abbot on the board and the features already occupied (the same
 * answers as carc_supply, carc_figure_find and carc_feature_occupied, which would each walk them again for
 * every part of the piece). */
static size_t figure_moves(const carc_state *st, int seat, carc_moves *out)
{
    carc_move pass = {.kind = CARC_MV_PASS};
    size_t n = 1;
    if (out)
        carc_moves_push(out, &pass);
    int piece = st->tn.piece;
    const carc_tile_type *t = carc_type_of(st, piece);
    int meeples = CARC_MEEPLES, abbots = st->opt[CARC_OPT_ABBOT] ? 1 : 0;
    bool abbot_out = false;
    uint16_t occupied[CARC_MAX_FIGURES];   /* roots of the features a meeple or an abbot stands in */
    int nocc = 0;
    /* written without branches on the figures (whose they are, of what kind): those are unpredictable */
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        bool mine = g->seat == seat;
        meeples -= mine & (g->kind == CARC_FIG_MEEPLE);
        abbots -= mine & (g->kind == CARC_FIG_ABBOT);
        abbot_out |= mine & (g->kind == CARC_FIG_ABBOT);
        occupied[nocc] = (uint16_t)carc_find(&st->board, carc_node(g->piece, g->part));
        nocc += g->kind != CARC_FIG_SHEPHERD;
    }
    bool meeple = meeples > 0, abbot = abbots > 0;
    for (int i = 0; i < t->nparts; i++) {
        int kind = t->parts[i].kind;
        bool monastic = kind == CARC_PART_CLOISTER || kind == CARC_PART_GARDEN;
        /* nobody stands on the river (nor a meeple in a garden) */
        bool put_meeple = meeple && kind != CARC_PART_GARDEN && kind != CARC_PART_RIVER;
        bool put_abbot = abbot && monastic;
        if (!put_meeple && !put_abbot)
            continue;
        int root = carc_find(&st->board, carc_node(piece, i));
        bool taken = false;
        for (int k = 0; k < nocc; k++)
            taken |= occupied[k] == root;
        if (taken)
            continue;
        if (!out)
            return 2;
        if (put_meeple) {
            carc_move m = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = (uint8_t)i};
            carc_moves_push(out, &m);
        }
        if (put_abbot) {
            carc_move m = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_ABBOT, .part = (uint8_t)i};
            carc_moves_push(out, &m);
        }
    }
    if (abbot_out) {
        if (!out)
            return 2;
        carc_move m = {.kind = CARC_MV_ABBOT_RETURN};
        carc_moves_push(out, &m);
    }
    if (out) {
        carc_hills_figure_moves(st, seat, out);
        return out->n;
    }
    if (carc_has(st, CARC_SET_HILLS_SHEEP)) {   /* a shepherd may be the only choice besides passing */
        carc_moves shepherd = {0};
        carc_hills_figure_moves(st, seat, &shepherd);
        n += shepherd.n;
        carc_moves_free(&shepherd);
    }
    return n < 2 ? n : 2;
}

void carc_legal_figure_moves(const carc_state *st, int seat, carc_moves *out)
{
    figure_moves(st, seat, out);
}

bool carc_figure_choice(const carc_state *st, int seat)
{
    return figure_moves(st, seat, NULL) > 1;
}

void carc_legal_moves(const carc_state *st, int seat, carc_moves *out)
{
    out->n = 0;
    if (st->status != CARC_ACTIVE || seat != st->pending.seat)
        return;
    switch (st->pending.kind) {
    case CARC_PENDING_PLACE: scan_places(st, out, NULL); break;
    case CARC_PENDING_FIGURE: carc_legal_figure_moves(st, seat, out); break;
    case CARC_PENDING_DRAW_OR_TRIANGLE: carc_halflings_start_moves(st, out); break;
    case CARC_PENDING_FRUIT: carc_fruit_moves(st, out); break;
    case CARC_PENDING_FLOCK: carc_hills_flock_moves(st, out); break;
    case CARC_PENDING_CC_CHOICE:
    case CARC_PENDING_CC_ACTION: carc_crop_moves(st, out); break;
    case CARC_PENDING_DRAFT: carc_halflings_draft_moves(st, out); break;
    default: break;
    }
}

bool carc_only_move(const carc_state *st, carc_move *out)
{
    if (st->status != CARC_ACTIVE)
        return false;
    if (st->pending.kind == CARC_PENDING_PLACE)
        return scan_places(st, NULL, out) == 1;
    if (st->pending.kind == CARC_PENDING_FIGURE) {   /* pass is first: the only move when there is no choice */
        if (carc_figure_choice(st, st->pending.seat))
            return false;
        *out = (carc_move){.kind = CARC_MV_PASS};
        return true;
    }
    carc_moves m = {0};
    carc_legal_moves(st, st->pending.seat, &m);
    bool one = m.n == 1;
    if (one)
        *out = m.v[0];
    carc_moves_free(&m);
    return one;
}
