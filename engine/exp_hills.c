/*
 * exp_hills.c — Hills & Sheep (RULES.md §2): the hidden tile under a hill, the hill tie-break, vineyards,
 * the shepherd and its flock.
 *
 * Not implemented yet (issue 4): every hook below behaves as if the expansion were not in play.
 */
#include "expansions.h"

int carc_hills_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen)
{
    (void)st, (void)s, (void)err, (void)errlen;
    return 0;
}

void carc_hills_on_placed(carc_state *st, int piece, carc_events *ev) { (void)st, (void)piece, (void)ev; }

void carc_hills_figure_moves(const carc_state *st, int seat, carc_moves *out) { (void)st, (void)seat, (void)out; }

void carc_hills_after_figure(carc_state *st, const carc_move *mv, carc_events *ev) { (void)st, (void)mv, (void)ev; }

bool carc_hills_flock_begin(carc_state *st, carc_events *ev)
{
    (void)st, (void)ev;
    return false;
}

void carc_hills_flock_moves(const carc_state *st, carc_moves *out) { (void)st, (void)out; }

void carc_hills_flock_apply(carc_state *st, const carc_move *mv, carc_events *ev)
{
    (void)mv, (void)ev;
    st->tn.phase = CARC_PH_SCORE;
}

unsigned carc_hills_tiebreak(const carc_state *st, const carc_feature *f, unsigned seats)
{
    (void)st, (void)f;
    return seats;
}

int carc_hills_vineyard_bonus(const carc_state *st, int cloister_piece)
{
    (void)st, (void)cloister_piece;
    return 0;
}

void carc_hills_score_closed_fields(carc_state *st, carc_events *ev) { (void)st, (void)ev; }
