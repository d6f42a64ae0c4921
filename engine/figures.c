/*
 * figures.c — the figures on the board as the rules engine's other files use them: find a seat's figure of a
 * kind, take one back to its seat's supply (with its figure_returned event), and count what a seat has left.
 * Kept apart from game.c so that the expansions, scoring and the legal-move lists, which game.c calls, can use
 * them without calling back into the turn state machine.
 */
#include <assert.h>
#include <string.h>

#include "rules.h"

int carc_figure_find(const carc_state *st, int seat, int kind)
{
    for (int i = 0; i < st->nfigures; i++)
        if (st->figures[i].seat == seat && st->figures[i].kind == kind)
            return i;
    return -1;
}

void carc_figure_remove(carc_state *st, int fi, carc_events *ev)
{
    assert(fi >= 0 && fi < st->nfigures);
    const carc_figure g = st->figures[fi];
    carc_event *x = carc_ev_push(ev, CARC_EV_FIGURE_RETURNED);
    if (x) {
        x->seat = g.seat;
        x->fig = g.kind;
        x->part = g.part;
        x->tile = st->pieces[g.piece].type;
        x->x = st->pieces[g.piece].x;
        x->y = st->pieces[g.piece].y;
        x->rot = st->pieces[g.piece].rot;   /* names the triangle when two share the space */
    }
    memmove(&st->figures[fi], &st->figures[fi + 1], (size_t)(st->nfigures - fi - 1) * sizeof g);
    st->nfigures--;
}

int carc_supply(const carc_state *st, int seat, carc_fig_kind kind)
{
    int total = 0;
    switch (kind) {
    case CARC_FIG_MEEPLE: total = CARC_MEEPLES; break;
    case CARC_FIG_ABBOT: total = st->opt[CARC_OPT_ABBOT] ? 1 : 0; break;
    case CARC_FIG_SHEPHERD: total = (st->expansions >> CARC_SET_HILLS_SHEEP) & 1; break;
    default: return 0;
    }
    for (int i = 0; i < st->nfigures; i++)
        total -= st->figures[i].seat == seat && st->figures[i].kind == kind;
    return total;
}
