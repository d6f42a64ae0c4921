/*
 * replay.c — a game's state rebuilt from seed, set-up and move log (see replay.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock/clock_moves.h"
#include "replay.h"
#include "db/store.h"

bool cd_setup_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen)
{
    carc_setup_defaults(s);
    json_t *n = json_object_get(j, "nplayers");
    if (!json_is_integer(n)) {
        snprintf(err, errlen, "setup.nplayers missing");
        return false;
    }
    s->nplayers = (int)json_integer_value(n);
    if (carc_expansions_from_json(&s->expansions, json_object_get(j, "expansions"), err, errlen) != 0 ||
        carc_options_from_json(s->opt, json_object_get(j, "options"), false, err, errlen) != 0)
        return false;
    json_t *stack = json_object_get(json_object_get(j, "script"), "stack");
    size_t i;
    json_t *id;
    json_array_foreach(stack, i, id) {
        int t = carc_catalog_find(cd_catalog(), json_string_value(id) ? json_string_value(id) : "");
        if (t < 0 || i >= CARC_MAX_TILES) {
            snprintf(err, errlen, "setup.script.stack[%zu] unknown", i);
            return false;
        }
        s->stack[s->nstack++] = (uint8_t)t;
    }
    json_t *sheep = json_object_get(json_object_get(j, "script"), "sheep");   /* hills & sheep: the bag draws */
    if (sheep && carc_script_sheep_from_json(sheep, s, err, errlen) != 0)
        return false;
    json_t *fruit = json_object_get(json_object_get(j, "script"), "fruit");   /* fruit trees: the stacks */
    if (fruit && carc_script_fruit_from_json(fruit, s, err, errlen) != 0)
        return false;
    json_t *hands = json_object_get(json_object_get(j, "script"), "hands");   /* halflings: each seat's triangles */
    if (hands && carc_script_hands_from_json(cd_catalog(), hands, s, err, errlen) != 0)
        return false;
    return true;
}

bool cd_replay_start(const cd_game *g, carc_state *st, char *why, size_t whylen)
{
    carc_setup s;
    why[0] = 0;
    if (!cd_setup_from_json(g->setup, &s, why, whylen) || !cd_unhex(g->seed, s.seed, sizeof s.seed)) {
        if (!why[0])
            snprintf(why, whylen, "stored seed is not 64 hex digits");
        return false;
    }
    return carc_game_new(st, cd_catalog(), &s, NULL, why, whylen) == 0;
}

int cd_replay(cd_db *db, const cd_game *g, int upto, carc_state *st, int *nmoves, json_t **moves, char *why,
              size_t whylen, bool *db_error)
{
    *nmoves = 0;
    if (moves)
        *moves = NULL;
    if (!cd_replay_start(g, st, why, whylen))
        return 0;
    const char *p[] = {g->id};
    PGresult *res = cd_db_exec(db, ST_MOVES_ALL, 1, p);
    if (!cd_db_ok(res)) {
        *db_error = true;
        PQclear(res);
        return 0;
    }
    if (moves)
        *moves = json_array();
    int bad = -1;
    for (int i = 0; i < PQntuples(res) && bad < 0; i++) {
        int seq = atoi(PQgetvalue(res, i, 0)), seat = atoi(PQgetvalue(res, i, 1));
        if (upto >= 0 && seq > upto)
            break;
        json_t *mv = json_loads(PQgetvalue(res, i, 2), 0, NULL);
        carc_move m;
        if (seq != i + 1) {
            snprintf(why, whylen, "the log has a gap before seq %d", seq);
            bad = seq;
        } else if (cd_move_is_leave(mv)) {   /* a resignation or a forfeit (clock_moves.h) */
            if (carc_leave(st, seat, NULL, why, whylen) != 0)
                bad = seq;
            else
                (*nmoves)++;
            if (bad < 0 && moves)
                json_array_append_new(*moves, json_pack("{s:i, s:i, s:O}", "seq", seq, "seat", seat, "move", mv));
        } else if (!mv || carc_move_from_json(st, mv, &m, why, whylen) != 0 ||
                   carc_apply(st, seat, &m, NULL, why, whylen) != 0) {
            bad = seq;
        } else {
            (*nmoves)++;
            if (moves)
                json_array_append_new(*moves, json_pack("{s:i, s:i, s:O}", "seq", seq, "seat", seat, "move", mv));
        }
        json_decref(mv);
    }
    PQclear(res);
    return bad;
}
