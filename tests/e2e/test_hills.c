/*
 * test_hills.c — Hills & Sheep through carcd: a scripted game (admin, script.sheep) played to the end through
 * legal-moves and moves, with every seat's and the public view checked at every step for the hidden hills
 * data (the bag's contents, the script, the tiles under hills: keys "bag", "script", "script_pos", "under")
 * while the bag's count matches the admin's bag; every seat's and the public event log has hill_covered
 * events without their tile, which the admin's log shows; verify replays the scripted game; a bad
 * script.sheep is a 400 naming its entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static void no_hills_secrets(const json_t *j, const char *what)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            ck_assert_msg(strcmp(k, "bag") && strcmp(k, "script") && strcmp(k, "script_pos") && strcmp(k, "under"),
                          "%s: hidden key \"%s\"", what, k);
            no_hills_secrets(v, what);
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) no_hills_secrets(v, what);
    }
}

/* hill_covered events in a log: how many, and whether any shows its tile. */
static int covered_in_log(const json_t *log, bool *with_tile)
{
    int n = 0;
    size_t i, k;
    json_t *entry, *e;
    *with_tile = false;
    json_array_foreach(log, i, entry) {
        json_array_foreach(json_object_get(entry, "events"), k, e) {
            if (strcmp(e2e_jstr(e, "type"), "hill_covered") == 0) {
                n++;
                *with_tile |= json_object_get(e, "tile") != NULL;
            }
        }
    }
    return n;
}

START_TEST(scripted_game_hides_bag_and_hills)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 2, "[\"hills_sheep\"]",
                                  "{\"seed\":\"a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0\","
                                  "\"script\":{\"sheep\":[2,3,\"wolf\",1,4]}}",
                                  true, &g);
    ck_assert_int_eq(st, 201);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    e2e_rng rng = {0x4111};
    int moves = 0, tokens = 0;
    for (;;) {
        json_t *adm = e2e_admin_view(c, d, g.id);
        json_t *bag = e2e_jget(adm, "hills_sheep.bag");
        ck_assert_msg(json_is_array(bag), "the admin view shows the bag");
        ck_assert_msg(json_is_array(e2e_jget(adm, "hills_sheep.script")), "the admin view shows the script");
        size_t nbag = json_array_size(bag);
        bool over = strcmp(e2e_jstr(adm, "status"), "finished") == 0;
        json_decref(adm);
        for (int v = -1; v < g.nplayers; v++) {
            json_t *view = e2e_get_ok(c, path, v < 0 ? NULL : g.token[v], 200);
            no_hills_secrets(view, v < 0 ? "public view" : "seat view");
            ck_assert_int_eq(e2e_jint(view, "hills_sheep.bag_left"), (long long)nbag);
            ck_assert_int_eq(json_array_size(e2e_jget(view, "hills_sheep.flocks")), g.nplayers);
            json_decref(view);
        }
        if (over)
            break;
        e2e_play p;
        long rc = e2e_play_random(c, &g, &rng, NULL, &p);
        ck_assert_msg(rc == 200, "move %d: %ld %s", moves, rc, p.post.body);
        no_hills_secrets(p.post.json, "move answer");
        if (strcmp(e2e_jstr(p.move, "type"), "grow") == 0 ||
            (strcmp(e2e_jstr(p.move, "type"), "figure") == 0 && strcmp(e2e_jstr(p.move, "figure"), "shepherd") == 0))
            tokens++;
        e2e_play_free(&p);
        ck_assert_int_lt(++moves, 1000);
    }
    long ls;
    bool with_tile;
    json_t *log = e2e_events_log(c, g.id, d->admin, &ls);
    ck_assert_ptr_nonnull(log);
    int covered = covered_in_log(log, &with_tile);
    ck_assert_msg(covered > 0, "no hill took a tile in this game");
    ck_assert_msg(with_tile, "the admin log shows the tiles under hills");
    json_decref(log);
    for (int v = -1; v < g.nplayers; v++) {
        log = e2e_events_log(c, g.id, v < 0 ? NULL : g.token[v], &ls);
        ck_assert_msg(log != NULL, "events: %ld", ls);
        no_hills_secrets(log, "events");
        ck_assert_int_eq(covered_in_log(log, &with_tile), covered);
        ck_assert_msg(!with_tile, "a seat or the public sees a tile under a hill");
        json_decref(log);
    }
    ck_assert_int_gt(tokens, 0);
    e2e_verify_ok(c, d, g.id);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(bad_sheep_script)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    e2e_req(c, "POST", "/v1/games", d->admin,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"expansions\":[\"hills_sheep\"],"
            "\"script\":{\"sheep\":[2,5]}}",
            NULL, &r);
    e2e_assert_problem(&r, 400, "script.sheep[1]", "a token of 5 sheep");
    e2e_resp_free(&r);
    e2e_req(c, "POST", "/v1/games", d->admin,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"script\":{\"sheep\":[2]}}", NULL, &r);
    ck_assert_int_eq(r.status, 400);   /* hills_sheep is not in play */
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_hills");
    TCase *tc = e2e_tcase("hills", 300);
    tcase_add_test(tc, scripted_game_hides_bag_and_hills);
    tcase_add_test(tc, bad_sheep_script);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
