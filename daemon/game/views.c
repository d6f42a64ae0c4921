/*
 * views.c — see views.h.
 */
#include "views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/int_text.h"
#include "base/timesrc.h"

json_t *cd_legal_moves_json(const carc_state *st, int seq, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    json_t *answer = json_pack("{s:i, s:i, s:o}", "seq", seq, "seat", seat, "moves", carc_moves_to_json(st, &m));
    carc_moves_free(&m);
    return answer;
}

char *cd_legal_moves_json_text(const carc_state *st, int seq, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    char *moves = carc_moves_to_json_text(st, &m);
    carc_moves_free(&m);
    if (!moves)
        abort();   /* out of memory (docs/STYLE.md) */
    char num[CD_INT_TEXT];
    cd_buf b = {0};   /* {"seq":N,"seat":S,"moves":<moves>} */
    cd_buf_str(&b, "{\"seq\":");
    cd_buf_add(&b, num, cd_int_text(seq, num));
    cd_buf_str(&b, ",\"seat\":");
    cd_buf_add(&b, num, cd_int_text(seat, num));
    cd_buf_str(&b, ",\"moves\":");
    cd_buf_str(&b, moves);
    cd_buf_str(&b, "}");
    free(moves);
    return b.p;
}

json_t *cd_game_view(const cd_game *g, int viewer)
{
    json_t *v = carc_view_to_json(g->st, viewer);
    json_object_set_new(v, "id", json_string(g->id));
    json_object_set_new(v, "seq", json_integer(g->seq));
    json_object_set_new(v, "seed_sha256", json_string(g->seed_sha256));
    /* the board is the list of placed pieces */
    json_t *pieces = json_object_get(v, "pieces");
    if (pieces) {
        json_object_set(v, "board", pieces);
        json_object_del(v, "pieces");
    }
    json_t *players = json_object_get(v, "players");
    for (size_t i = 0; i < json_array_size(players) && i < json_array_size(g->names); i++)
        json_object_set(json_array_get(players, i), "name", json_array_get(g->names, i));
    /* who plays a seat: a bot made for it, or one its player left it to (bot_after_leave) */
    for (size_t i = 0; i < json_array_size(players) && i < json_array_size(g->bots); i++)
        if (json_is_object(json_array_get(g->bots, i)))
            json_object_set(json_array_get(players, i), "bot", json_array_get(g->bots, i));
    json_object_set_new(v, "clock", g->clocked ? cd_clock_view(&g->clock, cd_wall_now()) : json_null());
    json_object_set_new(v, "created_at", json_string(g->created_at));
    json_object_set_new(v, "updated_at", json_string(g->updated_at));
    if (g->cancelled) {
        /* the admin ended it (handlers/admin_cancel.c): no winner, nothing waited for, the clock stopped; the
         * seed stays secret, as the tiles not drawn are still a game's that was never finished */
        json_object_set_new(v, "status", json_string("cancelled"));
        json_object_set_new(v, "pending", json_pack("{s:s}", "kind", "none"));
        json_object_set_new(v, "clock", json_null());
        json_object_set_new(v, "finished_at", json_string(g->finished_at));
        json_object_set_new(v, "winners", json_array());
    } else if (g->finished) {
        json_object_set_new(v, "finished_at", json_string(g->finished_at));
        json_object_set_new(v, "seed", json_string(g->seed));
        unsigned won = carc_winners(g->st);
        json_t *winners = json_array();
        for (int s = 0; s < g->st->nplayers; s++)
            if (won >> s & 1)
                json_array_append_new(winners, json_integer(s));
        json_object_set_new(v, "winners", winners);
    }
    return v;
}

json_t *cd_game_view_bot_seat(const cd_game *g, int seat)
{
    json_t *v = cd_game_view(g, CARC_VIEW_PUBLIC);
    json_object_set_new(v, "you", json_pack("{s:i}", "seat", seat));
    return v;
}
