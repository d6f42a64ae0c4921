/*
 * test_load.c — bench/carcd-load, the load client every figure of run-http-bench.sh and run-carcd-ab.sh rests
 * on, played against a real carcd: it speaks HTTP/1.1 itself (bench/http1_client.h), so the moves it counts
 * must be the moves carcd stored.
 *
 *   - Closed loop, 4 clients on 8 games: every move it counts is in the database (the games' seqs add up to
 *     its moves), no error and no seat guessed wrong, some moves chosen from a move's answer without a GET,
 *     and every game verifies (its replay agrees with what carcd stored).
 *   - --always-get: a GET before every move. --rate: no faster than asked. A warm-up: its moves come on top.
 *     Games played to their end: their slots get new games, and the moves still add up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "e2e.h"

static const char *const load_env[] = {
    /* one address makes every move, as in the benches */
    "CARCD_RATE_MOVES=1000000/60000000,1000000/60000000", "CARCD_RATE_CREATE=1000000/60000000,1000000/60000000",
    NULL};

typedef struct {
    char out[4096];   /* a newline, then its stdout: `name: value` lines */
    int status;       /* its exit status */
} load_run;

/* Runs carcd-load against d with the given extra arguments; its output and exit status in *r. */
static void run_load(const e2e_daemon *d, const char *args, load_run *r)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --url '%s' --admin-token '%s' --quiet %s 2>'%s/load.err'", CARCD_LOAD_BIN,
             d->base, d->admin, args, d->dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    r->out[0] = '\n';   /* so that every line, the first too, is found after a newline (figure) */
    size_t n = fread(r->out + 1, 1, sizeof r->out - 2, p);
    r->out[n + 1] = 0;
    int st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    ck_assert_msg(r->status == 0, "carcd-load %s: exit %d\n%s", args, r->status, r->out);
}

/* The value of its `name:` line; fails the test when there is none. */
static double figure(const load_run *r, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s: ", name);
    const char *p = strstr(r->out, key);
    ck_assert_msg(p, "no %s in:%s", name, r->out);
    return atof(p + strlen(key));
}

/* Every game of d verifies; their number. */
static int verify_all(e2e_client *c, const e2e_daemon *d)
{
    json_t *list = e2e_get_ok(c, "/v1/admin/games?limit=200", d->admin, 200);
    json_t *games = json_object_get(list, "games");
    ck_assert_msg(json_is_array(games), "admin games: %s", json_dumps(list, 0));
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g) e2e_verify_ok(c, d, json_string_value(json_object_get(g, "id")));
    int n = (int)json_array_size(games);
    json_decref(list);
    return n;
}

START_TEST(closed_loop_moves_are_stored)
{
    e2e_daemon *d = e2e_daemon_up(load_env);
    e2e_client *c = e2e_client_new(d);
    load_run r;
    run_load(d, "--clients 4 --games 8 --moves 300 --seed 7", &r);
    ck_assert_int_eq((int)figure(&r, "moves"), 300);
    ck_assert_int_eq((int)figure(&r, "errors"), 0);
    ck_assert_int_eq((int)figure(&r, "seat_misses"), 0);
    ck_assert_int_gt((int)figure(&r, "gets"), 0);
    ck_assert_int_gt((int)figure(&r, "gets_saved"), 0);   /* a tile's figure step, chosen from the answer */
    ck_assert_double_gt(figure(&r, "post_p50_ms"), 0);
    ck_assert_double_le(figure(&r, "post_p50_ms"), figure(&r, "post_p99_ms"));
    long created = (long)figure(&r, "games_created_during_run");   /* finished games' slots played again */
    /* every move counted is a move stored: the seqs of all games, finished and replaced ones too */
    ck_assert_int_eq(e2e_db_long(d, "SELECT sum(seq) FROM games"), 300);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM games"), 8 + created);
    ck_assert_int_eq(verify_all(c, d), 8 + (int)created);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(always_get_rate_and_warm_up)
{
    e2e_daemon *d = e2e_daemon_up(load_env);
    load_run r;
    run_load(d, "--clients 2 --games 4 --moves 60 --always-get --seed 3", &r);
    ck_assert_int_eq((int)figure(&r, "moves"), 60);
    ck_assert_int_eq((int)figure(&r, "gets_saved"), 0);
    ck_assert_int_ge((int)figure(&r, "gets"), 60);   /* every move GETs first (and a GET may find no move) */
    ck_assert_int_eq(e2e_db_long(d, "SELECT sum(seq) FROM games"), 60);

    /* 40 moves at 100 a second take at least 0.39 s (the first starts at once) */
    run_load(d, "--clients 4 --games 4 --moves 40 --rate 100 --seed 4", &r);
    ck_assert_int_eq((int)figure(&r, "moves"), 40);
    ck_assert_double_ge(figure(&r, "seconds"), 0.39);
    ck_assert_int_eq((int)figure(&r, "rate_target"), 100);

    /* a warm-up's moves are not counted in the timed phase's, and are stored all the same */
    long before = e2e_db_long(d, "SELECT sum(seq) FROM games");
    run_load(d, "--clients 2 --games 4 --moves 30 --warmup-moves 40 --seed 5", &r);
    ck_assert_int_eq((int)figure(&r, "moves"), 30);
    ck_assert_int_gt(e2e_db_long(d, "SELECT sum(seq) FROM games") - before, 30);
    ck_assert_int_eq((int)figure(&r, "errors"), 0);

    /* a game played to its end (a base game has at most 71 tiles and as many figure steps): its slot gets a new
     * game, and the moves still add up */
    before = e2e_db_long(d, "SELECT sum(seq) FROM games");
    long games_before = e2e_db_long(d, "SELECT count(*) FROM games");
    run_load(d, "--clients 2 --games 2 --moves 400 --seed 9", &r);
    ck_assert_int_eq((int)figure(&r, "moves"), 400);
    ck_assert_int_ge((int)figure(&r, "games_finished"), 1);
    ck_assert_int_ge((int)figure(&r, "games_created_during_run"), 1);
    ck_assert_int_eq(e2e_db_long(d, "SELECT sum(seq) FROM games") - before, 400);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM games") - games_before,
                     2 + (long)figure(&r, "games_created_during_run"));
    ck_assert_int_ge(e2e_db_long(d, "SELECT count(*) FROM games WHERE status = 'finished'"), 1);
    e2e_client *c = e2e_client_new(d);
    verify_all(c, d);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("load");
    TCase *tc = e2e_tcase("load", 120);
    tcase_add_test(tc, closed_loop_moves_are_stored);
    tcase_add_test(tc, always_get_rate_and_warm_up);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
