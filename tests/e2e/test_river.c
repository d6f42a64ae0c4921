/*
 * test_river.c — the option river through carcd's API: POST /v1/games with {"options": {"river": true}}
 * (alone and with every expansion) starts with the spring at (0,0); the river's 12 tiles are the first
 * pieces laid, the lake last of them; random games played over HTTP to the end (every answer checked
 * against api-docs/openapi.json) and verified by replay; GET /v1/tiles serves the river tiles with their
 * river sides; a malformed river option is a 400.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define MAX_MOVES 1500

static void play_river_game(e2e_client *c, e2e_daemon *d, int nplayers, const char *expansions, uint64_t seed)
{
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, nplayers, expansions, "{\"options\":{\"river\":true}}", false, &g),
                     201);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert(json_is_true(e2e_jget(v, "options.river")));
    json_t *first = json_array_get(e2e_jget(v, "board"), 0);
    ck_assert_str_eq(e2e_jstr(first, "tile"), "RV01");
    ck_assert_int_eq(e2e_jint(first, "x"), 0);
    ck_assert_int_eq(e2e_jint(first, "y"), 0);
    json_decref(v);
    e2e_rng rng = {seed};
    int moves = 0;
    for (; moves < MAX_MOVES; moves++) {
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            break;
        ck_assert_msg(st == 200, "move %d: status %ld", moves, st);
    }
    ck_assert_int_lt(moves, MAX_MOVES);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    json_t *board = e2e_jget(v, "board");
    for (size_t i = 0; i < 12; i++) {   /* the river first, the lake last of it */
        const char *id = e2e_jstr(json_array_get(board, i), "tile");
        ck_assert_msg(strncmp(id, "RV", 2) == 0, "piece %zu is %s", i, id);
        ck_assert_int_eq(strcmp(id, "RV10") == 0, i == 11);
    }
    for (size_t i = 12; i < json_array_size(board); i++)
        ck_assert_msg(strncmp(e2e_jstr(json_array_get(board, i), "tile"), "RV", 2) != 0, "a river tile at %zu", i);
    json_decref(v);
    e2e_verify_ok(c, d, g.id);   /* the stored game replays */
}

START_TEST(river_games_over_http)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/tiles", NULL, NULL, NULL, &r), 200);   /* schema-checked */
    size_t i;
    json_t *t;
    int river_tiles = 0;
    json_array_foreach(json_object_get(r.json, "tiles"), i, t) {
        if (strcmp(e2e_jstr(t, "set"), "river") != 0)
            continue;
        river_tiles += (int)e2e_jint(t, "count");
        ck_assert_str_eq(e2e_jstr(t, "when"), "river");
        if (strcmp(e2e_jstr(t, "id"), "RV01") == 0) {
            ck_assert_str_eq(e2e_jstr(t, "sides.E"), "river");
            ck_assert(json_is_true(json_object_get(t, "start")));
        }
    }
    ck_assert_int_eq(river_tiles, 12);
    e2e_resp_free(&r);

    play_river_game(c, d, 2, NULL, 11);
    play_river_game(c, d, 3, "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]", 12);

    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"options\":{\"river\":\"yes\"}}", false, &g), 400);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, "[\"river\"]", NULL, false, &g), 400);   /* an option, no set */
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_river");
    TCase *tc = e2e_tcase("river", 600);
    tcase_add_test(tc, river_games_over_http);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
