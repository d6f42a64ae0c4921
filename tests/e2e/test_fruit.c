/*
 * test_fruit.c — Fruit Trees through carcd. Two scripted games (admin, script.fruit) with the same seed whose
 * fruit stacks have the same top tokens and differ below them are played with the same moves: as long as
 * no token below a top has come up, every seat's and the public view, and every move answer, are the same
 * in both games — the values still on the trees reach nobody but admins. Game A is then played to the end:
 * no view, answer or event log of a seat or the public names a "stacks" member, each tree's "left" count
 * follows the admin's stacks, every harvested value is the scripted one, and verify replays the game.
 * A bad script.fruit is a 400 naming its entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const char *const fruits[6] = {"quince", "apple", "apricot", "cherry", "plum", "elderberry"};
static const int script_a[6][4] = {{5, 2, 3, 4}, {2, 3, 4, 5}, {4, 5, 2, 3}, {3, 2, 5, 4}, {5, 4, 3, 2}, {2, 5, 3, 4}};
static const int script_b[6][4] = {{5, 4, 3, 2}, {2, 5, 4, 3}, {4, 3, 2, 5}, {3, 4, 5, 2}, {5, 2, 4, 3}, {2, 3, 4, 5}};
#define SEED "f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f10"

static char *script_json(const int s[6][4])
{
    static char buf[2][512];
    static int k;
    char *b = buf[k++ % 2];
    int n = snprintf(b, 512, "{\"seed\":\"%s\",\"script\":{\"fruit\":{", SEED);
    for (int t = 0; t < 6; t++)
        n += snprintf(b + n, (size_t)(512 - n), "%s\"%s\":[%d,%d,%d,%d]", t ? "," : "", fruits[t], s[t][0], s[t][1],
                      s[t][2], s[t][3]);
    snprintf(b + n, (size_t)(512 - n), "}}}");
    return b;
}

static void no_stacks(const json_t *j, const char *what)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            ck_assert_msg(strcmp(k, "stacks") && strcmp(k, "stack") && strcmp(k, "script"), "%s: hidden key \"%s\"",
                          what, k);
            no_stacks(v, what);
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) no_stacks(v, what);
    }
}

static int fruit_index(const char *name)
{
    for (int t = 0; t < 6; t++)
        if (!strcmp(name, fruits[t]))
            return t;
    ck_abort_msg("unknown fruit %s", name);
    return -1;
}

/* The view without the members that name the game itself (its id, its times), so two games compare. */
static char *view_text(e2e_client *c, const e2e_game *g, int seat)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, seat < 0 ? NULL : g->token[seat], 200);
    no_stacks(v, seat < 0 ? "public view" : "seat view");
    json_object_del(v, "id");
    json_object_del(v, "game");
    json_object_del(v, "created_at");
    json_object_del(v, "updated_at");
    json_object_del(v, "finished_at");
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v);
    return s;
}

/* Checks the harvested events of a move answer or log entry against script_a; counts harvests per fruit. */
static void check_harvests(const json_t *events, int harvested[6])
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        if (strcmp(e2e_jstr(e, "type"), "harvested") != 0)
            continue;
        int t = fruit_index(e2e_jstr(e, "fruit"));
        ck_assert_int_lt(harvested[t], 4);
        ck_assert_int_eq(e2e_jint(e, "value"), script_a[t][harvested[t]]);
        harvested[t]++;
    }
}

/* Like e2e_play_random, but a fruit-hungry player: a figure rather than a pass, a harvest when there is one,
 * a sale half the time, so that a game sees many fruit actions. Returns the POST's status or E2E_FINISHED. */
static long play_fruity(e2e_client *c, const e2e_game *g, e2e_rng *rng, e2e_play *p)
{
    memset(p, 0, sizeof *p);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *view = e2e_get_ok(c, path, NULL, 200);
    bool over = strcmp(e2e_jstr(view, "status"), "finished") == 0;
    int seat = (int)e2e_jint(view, "pending.seat");
    json_decref(view);
    if (over)
        return p->status = E2E_FINISHED;
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g->id);
    json_t *lm = e2e_get_ok(c, path, g->token[seat], 200);
    json_t *moves = json_object_get(lm, "moves");
    size_t n = json_array_size(moves), pick = e2e_rng_below(rng, (uint32_t)n), i;
    json_t *m;
    bool sell = e2e_rng_below(rng, 2) == 0;
    long harvest = -1, sale = -1, figure = -1;
    json_array_foreach(moves, i, m) {
        const char *t = e2e_jstr(m, "type");
        if (!strcmp(t, "harvest") && harvest < 0)
            harvest = (long)i;
        if (!strcmp(t, "sell"))
            sale = (long)i;   /* the last: the largest set */
        if (!strcmp(t, "figure") && figure < 0)
            figure = (long)i;
    }
    if (sale >= 0 && (sell || harvest < 0))
        pick = (size_t)sale;
    else if (harvest >= 0)
        pick = (size_t)harvest;
    else if (figure >= 0 && !strcmp(e2e_jstr(json_array_get(moves, pick), "type"), "pass"))
        pick = (size_t)figure;
    p->seat = seat;
    p->expected_seq = (int)e2e_jint(lm, "seq");
    p->nlegal = (int)n;
    p->move = json_deep_copy(json_array_get(moves, pick));
    json_decref(lm);
    json_t *body = json_pack("{s:i, s:O}", "expected_seq", p->expected_seq, "move", p->move);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    long st = e2e_req(c, "POST", path, g->token[seat], text, NULL, &p->post);
    free(text);
    return p->status = st;
}

START_TEST(hidden_fruit_values)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game a, b;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, "[\"fruit_trees\"]", script_json(script_a), true, &a), 201);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, "[\"fruit_trees\"]", script_json(script_b), true, &b), 201);
    e2e_rng rng = {4};   /* this game: 5 harvests, 2 sales, the twins stay equal for 18 views */
    int harvested[6] = {0}, moves = 0, same_steps = 0, same_harvests = 0, sales = 0;
    bool twins = true;   /* b still shadows a */
    for (;;) {
        json_t *adm = e2e_admin_view(c, d, a.id);
        ck_assert_msg(json_is_array(e2e_jget(adm, "fruit_trees.stacks")), "the admin view shows the stacks");
        bool over = strcmp(e2e_jstr(adm, "status"), "finished") == 0;
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s", a.id);
        for (int v = -1; v < a.nplayers; v++) {
            json_t *view = e2e_get_ok(c, path, v < 0 ? NULL : a.token[v], 200);
            no_stacks(view, "view");
            json_t *trees = e2e_jget(view, "fruit_trees.trees");
            size_t i;
            json_t *tree;
            json_array_foreach(trees, i, tree) {
                json_t *stack = json_array_get(e2e_jget(adm, "fruit_trees.stacks"), i);
                ck_assert_int_eq(e2e_jint(tree, "left"), (long long)json_array_size(stack));
            }
            ck_assert_int_eq(json_array_size(e2e_jget(view, "fruit_trees.held")), a.nplayers);
            json_decref(view);
        }
        json_decref(adm);
        if (twins) {
            for (int v = -1; v < a.nplayers; v++) {
                char *x = view_text(c, &a, v), *y = view_text(c, &b, v);
                size_t at = 0;
                while (x[at] && x[at] == y[at])
                    at++;
                ck_assert_msg(!x[at] && !y[at], "viewer %d sees a difference below the tops at: %.200s | %.200s", v,
                              x + (at > 60 ? at - 60 : 0), y + (at > 60 ? at - 60 : 0));
                free(x);
                free(y);
            }
            same_steps++;
        }
        if (over)
            break;
        e2e_play p;
        long rc = play_fruity(c, &a, &rng, &p);
        ck_assert_msg(rc == 200, "move %d: %ld %s", moves, rc, p.post.body);
        no_stacks(p.post.json, "move answer");
        check_harvests(json_object_get(p.post.json, "events"), harvested);
        const char *type = e2e_jstr(p.move, "type");
        sales += strcmp(type, "sell") == 0;
        for (int t = 0; t < 6; t++)
            twins &= harvested[t] <= 1;   /* a second harvest of a fruit reads below its top: the games part */
        if (twins) {
            char mpath[160];
            snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", b.id);
            json_t *body = json_pack("{s:i, s:O}", "expected_seq", p.expected_seq, "move", p.move);
            char *text = json_dumps(body, JSON_COMPACT);
            e2e_resp r;
            e2e_req(c, "POST", mpath, b.token[p.seat], text, NULL, &r);
            ck_assert_msg(r.status == 200, "twin move %d: %ld %s", moves, r.status, r.body);
            char *x = json_dumps(json_object_get(p.post.json, "events"), JSON_COMPACT | JSON_SORT_KEYS);
            char *y = json_dumps(json_object_get(r.json, "events"), JSON_COMPACT | JSON_SORT_KEYS);
            ck_assert_msg(strcmp(x, y) == 0, "the move answers differ below the tops: %.300s | %.300s", x, y);
            same_harvests += strcmp(type, "harvest") == 0;
            free(x);
            free(y);
            free(text);
            json_decref(body);
            e2e_resp_free(&r);
        }
        e2e_play_free(&p);
        ck_assert_int_lt(++moves, 1000);
    }
    int total = 0;
    for (int t = 0; t < 6; t++)
        total += harvested[t];
    ck_assert_msg(total >= 3, "only %d harvests in this game", total);
    ck_assert_int_gt(same_steps, 10);
    ck_assert_int_gt(same_harvests, 0);
    long ls;
    for (int v = -2; v < a.nplayers; v++) {   /* -2: the admin's log, -1: the public's */
        json_t *log = e2e_events_log(c, a.id, v == -2 ? d->admin : v < 0 ? NULL : a.token[v], &ls);
        ck_assert_msg(log != NULL, "events: %ld", ls);
        int again[6] = {0};
        size_t i;
        json_t *entry;
        json_array_foreach(log, i, entry) check_harvests(json_object_get(entry, "events"), again);
        ck_assert_int_eq(memcmp(again, harvested, sizeof again), 0);
        if (v > -2)
            no_stacks(log, "events");
        json_decref(log);
    }
    ck_assert_int_gt(sales, 0);
    e2e_verify_ok(c, d, a.id);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(bad_fruit_script)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    e2e_req(c, "POST", "/v1/games", d->admin,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"expansions\":[\"fruit_trees\"],"
            "\"script\":{\"fruit\":{\"apple\":[5,2,5,3]}}}",
            NULL, &r);
    e2e_assert_problem(&r, 400, "script.fruit.apple[2]", "listed twice");
    e2e_resp_free(&r);
    e2e_req(c, "POST", "/v1/games", d->admin,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"expansions\":[\"fruit_trees\"],"
            "\"script\":{\"fruit\":{\"pear\":[5,2,4,3]}}}",
            NULL, &r);
    e2e_assert_problem(&r, 400, "script.fruit.pear", "unknown fruit");
    e2e_resp_free(&r);
    e2e_req(c, "POST", "/v1/games", d->admin,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"script\":{\"fruit\":{\"apple\":[5,2,4,3]}}}", NULL,
            &r);
    ck_assert_int_eq(r.status, 400);   /* fruit_trees is not in play */
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_fruit");
    TCase *tc = e2e_tcase("fruit", 300);
    tcase_add_test(tc, hidden_fruit_values);
    tcase_add_test(tc, bad_fruit_script);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
