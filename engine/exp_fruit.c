/*
 * exp_fruit.c — Fruit Trees (RULES.md §4): stocked trees, the harvest-or-sell action, fruit at the end.
 *
 * Not implemented yet (issue 6): the hooks behave as if the expansion were not in play.
 */
#include "expansions.h"

int carc_fruit_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen)
{
    (void)st, (void)s, (void)err, (void)errlen;
    return 0;
}

void carc_fruit_on_placed(carc_state *st, int piece, carc_events *ev) { (void)st, (void)piece, (void)ev; }

bool carc_fruit_begin(carc_state *st, carc_events *ev)
{
    (void)st, (void)ev;
    return false;
}

void carc_fruit_moves(const carc_state *st, carc_moves *out) { (void)st, (void)out; }

void carc_fruit_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    (void)mv, (void)ev;
    st->tn.phase = CARC_PH_FLOCK;
}

void carc_fruit_score_final(carc_state *st, carc_events *ev) { (void)st, (void)ev; }
