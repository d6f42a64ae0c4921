/*
 * legal.c — carc_legal_moves: every complete move the seat may make for the pending decision, in a fixed
 * order (frontier order, then rotation; pass first among figure moves), so that "the first legal move" is
 * the same every time.
 */
#include "alloc.h"
#include "expansions.h"

bool carc_move_equal(const carc_move *a, const carc_move *b)
{
    /* every field: moves are built with unused fields zero (legal lists, the JSON decoder) */
    return a->kind == b->kind && a->tile == b->tile && a->rot == b->rot && a->fig == b->fig &&
           a->part == b->part && a->piece == b->piece && a->set == b->set && a->x == b->x && a->y == b->y;
}

/* The placements of the drawn tile, in legal-moves order, appended to `out`; with out NULL only counted, and
 * the count stops at 2 (*first gets the first one): whether the tile fits exactly one way is asked after
 * every draw, and that must not cost a list. */
static size_t scan_places(const carc_state *st, carc_moves *out, carc_move *first)
{
    const carc_board *b = &st->board;
    int t = st->pending.tile;
    const carc_tile_type *tt = &st->cat->types[t];
    uint8_t sig[4];
    size_t n = 0;
    if (tt->shape == CARC_SQUARE)
        carc_square_sigs(tt, sig);
    if (out)
        carc_grow((void **)&out->v, &out->cap, out->n + 4u * b->nspaces, sizeof *out->v);
    for (int i = 0; i < b->nspaces; i++) {
        const carc_space *s = &b->spaces[i];
        unsigned rots = 0;
        if (tt->shape == CARC_SQUARE)
            rots = carc_square_fit_rots(s, sig);
        else
            for (int rot = 0; rot < 4; rot++)
                rots |= (unsigned)carc_fits_space(st, t, i, rot) << rot;
        for (int rot = 0; rot < 4; rot++)
            if (rots >> rot & 1) {
                carc_move m = {.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .rot = (uint8_t)rot, .x = s->x, .y = s->y};
                if (out)
                    out->v[out->n++] = m;
                else if (n == 0)
                    *first = m;
                else
                    return 2;
                n++;
            }
    }
    return n;
}

void carc_legal_figure_moves(const carc_state *st, int seat, carc_moves *out)
{
    carc_move pass = {.kind = CARC_MV_PASS};
    carc_moves_push(out, &pass);
    int piece = st->tn.piece;
    const carc_tile_type *t = carc_type_of(st, piece);
    bool meeple = carc_supply(st, seat, CARC_FIG_MEEPLE) > 0;
    bool abbot = carc_supply(st, seat, CARC_FIG_ABBOT) > 0;
    for (int i = 0; i < t->nparts; i++) {
        int kind = t->parts[i].kind;
        bool monastic = kind == CARC_PART_CLOISTER || kind == CARC_PART_GARDEN;
        if (carc_feature_occupied(st, carc_find(&st->board, carc_node(piece, i))))
            continue;
        if (meeple && kind != CARC_PART_GARDEN) {
            carc_move m = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = (uint8_t)i};
            carc_moves_push(out, &m);
        }
        if (abbot && monastic) {
            carc_move m = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_ABBOT, .part = (uint8_t)i};
            carc_moves_push(out, &m);
        }
    }
    if (carc_figure_find(st, seat, CARC_FIG_ABBOT) >= 0) {
        carc_move m = {.kind = CARC_MV_ABBOT_RETURN};
        carc_moves_push(out, &m);
    }
    carc_hills_figure_moves(st, seat, out);
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
    carc_moves m = {0};
    carc_legal_moves(st, st->pending.seat, &m);
    bool one = m.n == 1;
    if (one)
        *out = m.v[0];
    carc_moves_free(&m);
    return one;
}
