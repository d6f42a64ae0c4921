/*
 * steps.c — the steps of a turn that game.c's state machine and Halb so wild II's triangles share: draw the
 * next tile that fits (discarding the others, or ending the game), lay a piece on the board, end the game.
 * Apart from game.c so that an expansion game.c calls can take these steps without calling back into it.
 */
#include <assert.h>
#include <string.h>

#include "expansions.h"

void carc_finish_game(carc_state *st, carc_events *ev)
{
    carc_score_final(st, ev);
    st->status = CARC_FINISHED;
    memset(&st->crop, 0, sizeof st->crop);   /* no crop circle action outlives the game */
    st->pending = (carc_pending){.kind = CARC_PENDING_NONE, .seat = 0, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    carc_ev_push(ev, CARC_EV_GAME_OVER);
}

void carc_draw_tile(carc_state *st, carc_events *ev)
{
    while (st->stack_pos < st->stack_len) {
        int t = st->stack[st->stack_pos++];
        carc_event *x = carc_ev_push(ev, CARC_EV_TILE_DRAWN);
        if (x) {
            x->seat = st->active;
            x->tile = (uint8_t)t;
        }
        if (carc_fits_anywhere(st, t)) {
            st->pending = (carc_pending){.kind = CARC_PENDING_PLACE, .seat = st->active, .tile = (uint8_t)t,
                                         .piece = CARC_NO_PIECE};
            st->tn.phase = CARC_PH_PLACE;
            return;
        }
        assert(st->ndiscarded < CARC_MAX_TILES);
        st->discarded[st->ndiscarded++] = (uint8_t)t;
        x = carc_ev_push(ev, CARC_EV_TILE_DISCARDED);
        if (x)
            x->tile = (uint8_t)t;
    }
    carc_finish_game(st, ev);
}

void carc_place_piece(carc_state *st, const carc_move *mv, carc_events *ev)
{
    assert(st->npieces < CARC_MAX_PIECES);
    int p = st->npieces++;
    st->pieces[p] = (carc_piece){.x = mv->x, .y = mv->y, .type = mv->tile, .rot = mv->rot,
                                 .under = CARC_NO_TYPE};
    int added = carc_board_add(st, p);   /* cannot fail: the caller checked CARC_MAX_PIECES and the fit */
    assert(added == 0);
    (void)added;
    carc_event *x = carc_ev_push(ev, CARC_EV_PIECE_PLACED);
    if (x) {
        x->seat = st->active;
        x->tile = mv->tile;
        x->x = mv->x;
        x->y = mv->y;
        x->rot = mv->rot;
    }
    st->tn.piece = (uint8_t)p;
    st->tn.phase = CARC_PH_FIGURE;
    carc_hills_on_placed(st, p, ev);
    carc_fruit_on_placed(st, p, ev);
}
