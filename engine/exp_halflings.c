/*
 * exp_halflings.c — Halb so wild II (RULES.md §5): hands of triangles (dealt privately or drafted), the
 * choice between drawing a tile and placing a triangle, and which marks count.
 *
 * Not implemented yet (issue 7): the hooks behave as if the expansion were not in play, except
 * carc_mark_active, which every expansion uses.
 */
#include "expansions.h"

int carc_halflings_setup(carc_state *st, const carc_setup *s, carc_events *ev, char *err, size_t errlen)
{
    (void)st, (void)s, (void)ev, (void)err, (void)errlen;
    return 0;
}

bool carc_halflings_begin(carc_state *st, carc_events *ev)
{
    (void)st, (void)ev;
    return false;
}

void carc_halflings_start_moves(const carc_state *st, carc_moves *out) { (void)st, (void)out; }

void carc_halflings_apply_start(carc_state *st, const carc_move *mv, carc_events *ev)
{
    (void)mv;
    carc_draw_tile(st, ev);
}

bool carc_halflings_draft_begin(carc_state *st, carc_events *ev)
{
    (void)st, (void)ev;
    return false;
}

void carc_halflings_draft_moves(const carc_state *st, carc_moves *out) { (void)st, (void)out; }

void carc_halflings_apply_draft(carc_state *st, const carc_move *mv, carc_events *ev)
{
    (void)mv, (void)ev;
    st->tn.phase = CARC_PH_START;
}

/* A mark counts only when its expansion is in play (a triangle's hill without Hills & Sheep is scenery). */
bool carc_mark_active(const carc_state *st, int type, int mark)
{
    const carc_tile_type *t = &st->cat->types[type];
    if (!(t->marks & mark))
        return false;
    switch (mark) {
    case CARC_MARK_HILL:
    case CARC_MARK_VINEYARD: return carc_has(st, CARC_SET_HILLS_SHEEP);
    case CARC_MARK_CC: return carc_has(st, CARC_SET_CROP_CIRCLES);
    case CARC_MARK_TREE: return carc_has(st, CARC_SET_FRUIT_TREES);
    default: return false;
    }
}
