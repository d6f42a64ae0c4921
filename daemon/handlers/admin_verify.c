/*
 * admin_verify.c — POST /v1/admin/games/{id}/verify: replays the move log from the seed and the stored
 * set-up through the engine and compares the result with the stored snapshot. A mismatch means the log,
 * the snapshot or the engine changed under the game; the answer says at which seq replay failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games.h"
#include "../handlers.h"
#include "../store.h"

/* The stored set-up back into a carc_setup (the same shape games_create.c writes). */
static bool setup_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen)
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

/* Replays; returns the seq at which it went wrong, or -1 when the replay matches the snapshot. */
static int replay(cd_db *db, const cd_game *g, char *why, size_t whylen, bool *db_error)
{
    carc_setup s;
    if (!setup_from_json(g->setup, &s, why, whylen) || !cd_unhex(g->seed, s.seed, sizeof s.seed)) {
        if (!why[0])
            snprintf(why, whylen, "stored seed is not 64 hex digits");
        return 0;
    }
    carc_state *st = malloc(sizeof *st);
    int bad = -1;
    if (!st || carc_game_new(st, cd_catalog(), &s, NULL, why, whylen) != 0) {
        free(st);
        return 0;
    }
    const char *p[] = {g->id};
    PGresult *res = cd_db_exec(db, ST_MOVES_ALL, 1, p);
    if (!cd_db_ok(res)) {
        *db_error = true;
        PQclear(res);
        free(st);
        return 0;
    }
    for (int i = 0; i < PQntuples(res) && bad < 0; i++) {
        int seq = atoi(PQgetvalue(res, i, 0)), seat = atoi(PQgetvalue(res, i, 1));
        json_t *mv = json_loads(PQgetvalue(res, i, 2), 0, NULL);
        carc_move m;
        if (seq != i + 1) {
            snprintf(why, whylen, "the log has a gap before seq %d", seq);
            bad = seq;
        } else if (!mv || carc_move_from_json(st, mv, &m, why, whylen) != 0 ||
                   carc_apply(st, seat, &m, NULL, why, whylen) != 0) {
            bad = seq;
        }
        json_decref(mv);
    }
    int nmoves = PQntuples(res);
    PQclear(res);
    if (bad < 0) {
        json_t *snap = cd_snapshot_for_store(st);
        if (nmoves != g->seq) {
            snprintf(why, whylen, "the log has %d moves, the game says seq %d", nmoves, g->seq);
            bad = nmoves;
        } else if (!json_equal(snap, g->snapshot)) {
            snprintf(why, whylen, "the replayed state differs from the stored snapshot");
            bad = g->seq;
        }
        json_decref(snap);
    }
    free(st);
    return bad;
}

enum MHD_Result h_admin_verify(cd_req *r)
{
    if (!r->is_admin)
        return cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs the admin token");
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    cd_game g;
    cd_load_result lr = cd_game_load(db, id, true, &g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        return cd_reply_load_error(r, lr);
    }
    char why[256] = "";
    bool db_error = false;
    int bad = replay(db, &g, why, sizeof why, &db_error);
    int seq = g.seq;
    cd_game_free(&g);
    if (db_error)
        return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the move log could not be read");
    json_t *answer = json_pack("{s:s, s:i, s:b}", "id", id, "seq", seq, "ok", bad < 0);
    if (bad >= 0) {
        json_object_set_new(answer, "failed_at_seq", json_integer(bad));
        json_object_set_new(answer, "reason", json_string(why));
    }
    return cd_reply_json(r, 200, answer, NULL);
}
