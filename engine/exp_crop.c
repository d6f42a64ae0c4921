/*
 * exp_crop.c — Crop Circles (RULES.md §3): after scoring, the active player chooses add or remove, then
 * every player from the active player's left, the active player last, acts in turn.
 *
 * Not implemented yet (issue 5): the hooks behave as if the expansion were not in play.
 */
#include "expansions.h"

bool carc_crop_begin(carc_state *st, carc_events *ev)
{
    (void)st, (void)ev;
    return false;
}

void carc_crop_moves(const carc_state *st, carc_moves *out) { (void)st, (void)out; }

bool carc_crop_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    (void)mv, (void)ev;
    st->tn.phase = CARC_PH_NEXT;
    return false;
}
