/*
 * seats.c — players who stop playing: the default move a turn clock makes for a seat that ran out of time,
 * and a seat leaving the game (resignation or forfeit). Both go through carc_apply, so every rule of the
 * decision at hand applies to them as to any move.
 */
#include <stdio.h>

#include "expansions.h"

/* Moves that decline: each is the least change a decision allows. */
static bool declines(const carc_move *m)
{
    return m->kind == CARC_MV_PASS || m->kind == CARC_MV_CC_SKIP || m->kind == CARC_MV_DRAW;
}

int carc_default_move(const carc_state *st, carc_move *out)
{
    if (st->status != CARC_ACTIVE)
        return -1;
    carc_moves m = {0};
    carc_legal_moves(st, st->pending.seat, &m);
    if (m.n == 0) {
        carc_moves_free(&m);
        return -1;
    }
    size_t pick = 0;
    for (size_t i = 0; i < m.n; i++)
        if (declines(&m.v[i])) {
            pick = i;
            break;
        }
    *out = m.v[pick];
    carc_moves_free(&m);
    return 0;
}

static int seats_in_play(const carc_state *st)
{
    int n = 0;
    for (int s = 0; s < st->nplayers; s++)
        n += !(st->left >> s & 1);
    return n;
}

/* Whether `seat` can leave now: 0, or the error (with err) for a finished game or a seat not in it. */
static int check_can_leave(const carc_state *st, int seat, char *err, size_t errlen)
{
    if (st->status != CARC_ACTIVE) {
        snprintf(err, errlen, "the game is over");
        return CARC_E_FINISHED;
    }
    if (seat < 0 || seat >= st->nplayers || (st->left >> seat & 1)) {
        snprintf(err, errlen, "seat %d is not in the game", seat);
        return CARC_E_ILLEGAL;
    }
    return 0;
}

int carc_leave(carc_state *st, int seat, carc_events *ev, char *err, size_t errlen)
{
    int rc = check_can_leave(st, seat, err, errlen);
    if (rc != 0)
        return rc;
    /* finish what the seat owes now, so the game never waits for someone who left */
    for (int guard = 0; st->status == CARC_ACTIVE && st->pending.seat == seat && guard < 64; guard++) {
        carc_move mv;
        if (carc_default_move(st, &mv) != 0 || carc_apply(st, seat, &mv, ev, err, errlen) != 0)
            break;
    }
    st->left |= (uint8_t)(1u << seat);
    carc_event *x = carc_ev_push(ev, CARC_EV_SEAT_LEFT);
    if (x)
        x->seat = (uint8_t)seat;
    if (st->status == CARC_ACTIVE && seats_in_play(st) <= 1)
        carc_finish_game(st, ev);
    carc_check_state(st);
    return 0;
}

int carc_leave_to_bot(carc_state *st, int seat, carc_events *ev, char *err, size_t errlen)
{
    int rc = check_can_leave(st, seat, err, errlen);
    if (rc != 0)
        return rc;
    carc_event *x = carc_ev_push(ev, CARC_EV_SEAT_TO_BOT);
    if (x)
        x->seat = (uint8_t)seat;
    return 0;
}
