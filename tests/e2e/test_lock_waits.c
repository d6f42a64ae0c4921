/*
 * test_lock_waits.c — requests that wait for a game's row lock read what the transaction they waited for
 * wrote, not what was there when they began (found by an outside audit, with a psql session holding the lock;
 * here a libpq connection holds it, so the races happen every run):
 *   - six webhook registrations of one seat waiting together: four endpoints, the rest 409 too-many-webhooks
 *     (the count was read before the wait, so all six were made);
 *   - a seat's resignation sent twice in a "bot_after_leave" game: one leave to the bot, then 409 seat-left
 *     (the seat went to the bot twice, with two log entries);
 *   - a seat token renewed while a move of a clocked game with the old token waits: the renewal waits for the
 *     lock too, and the move after it is refused 401 (it was played with the token the renewal had replaced);
 *   - a join waiting while the game's expiry falls due: the expiry behind it reads the join's new count and
 *     leaves the game waiting (it cancelled the game, the new seat in it).
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A transaction of our own holding game id's row lock until lock_release. */
static PGconn *lock_hold(const e2e_daemon *d, const char *id)
{
    PGconn *c = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    PQclear(PQexec(c, "BEGIN"));
    const char *p[] = {id};
    PGresult *r = PQexecParams(c, "SELECT 1 FROM games WHERE id = $1::uuid FOR UPDATE", 1, NULL, p, NULL, NULL, 0);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1, "%s", PQerrorMessage(c));
    PQclear(r);
    return c;
}

static void lock_release(PGconn *c)
{
    PQclear(PQexec(c, "COMMIT"));
    PQfinish(c);
}

START_TEST(webhook_limit_counted_after_the_wait)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", g.id);
    PGconn *lock = lock_hold(d, g.id);
    e2e_async calls[6];
    for (int i = 0; i < 6; i++) {
        calls[i] = (e2e_async){.d = d, .method = "POST", .path = path, .token = g.token[0],
                               .body = "{\"url\":\"http://127.0.0.1:9/hook\"}"};
        e2e_async_start(&calls[i]);
    }
    nap_ms(500);   /* all six wait for the lock */
    lock_release(lock);
    int made = 0, refused = 0;
    for (int i = 0; i < 6; i++) {
        long st = e2e_async_join(&calls[i]);
        made += st == 201;
        refused += st == 409 && e2e_problem_is(&calls[i].r, "too-many-webhooks");
        e2e_resp_free(&calls[i].r);
    }
    ck_assert_int_eq(made, 4);
    ck_assert_int_eq(refused, 2);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM webhook_endpoints WHERE game_id = '%s' AND seat = 0", g.id);
    ck_assert_int_eq(e2e_db_long(d, sql), 4);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(resignation_to_a_bot_once)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, NULL, "{\"bot_after_leave\":true}", false, &g), 201);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    PGconn *lock = lock_hold(d, g.id);
    e2e_async calls[2];
    for (int i = 0; i < 2; i++) {
        calls[i] = (e2e_async){.d = d, .method = "POST", .path = path, .token = g.token[1]};
        e2e_async_start(&calls[i]);
    }
    nap_ms(500);
    lock_release(lock);
    int left = 0, refused = 0;
    for (int i = 0; i < 2; i++) {
        long st = e2e_async_join(&calls[i]);
        left += st == 200;
        refused += st == 409 && e2e_problem_is(&calls[i].r, "seat-left");
        e2e_resp_free(&calls[i].r);
    }
    ck_assert_int_eq(left, 1);
    ck_assert_int_eq(refused, 1);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM moves WHERE game_id = '%s' AND move::text LIKE '%%leave_to_bot%%'",
             g.id);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    ck_assert_int_ge(e2e_verify_ok(c, d, g.id), 1);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(renewed_token_moves_nothing)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char pk[80], extra[300];
    e2e_player_key(c, "Ann", pk, sizeof pk);
    /* a clock: a clocked game's move takes the lock first (no one-round-trip move, whose guard reads the token
     * behind the lock anyway) */
    snprintf(extra, sizeof extra, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}],"
             "\"clock\":{\"per_move_s\":3600}}", pk);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, false, &g), 201);
    char lpath[160], mpath[160], rpath[160];
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g.id);
    json_t *lm = e2e_get_ok(c, lpath, g.token[0], 200);
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", 0, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    json_decref(lm);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);
    snprintf(rpath, sizeof rpath, "/v1/games/%s/seats/0/token", g.id);
    PGconn *lock = lock_hold(d, g.id);
    e2e_async renew = {.d = d, .method = "POST", .path = rpath, .token = pk};
    e2e_async_start(&renew);
    nap_ms(300);   /* the renewal waits first, */
    e2e_async move = {.d = d, .method = "POST", .path = mpath, .token = g.token[0], .body = body};
    e2e_async_start(&move);
    nap_ms(300);   /* the move behind it */
    lock_release(lock);
    ck_assert_msg(e2e_async_join(&renew) == 200, "%s", renew.r.body);
    ck_assert_msg(e2e_async_join(&move) == 401, "the old token's move: %ld %s", move.r.status, move.r.body);
    e2e_resp_free(&renew.r);
    e2e_resp_free(&move.r);
    json_t *v = e2e_admin_view(c, d, g.id);
    ck_assert_int_eq(e2e_jint(v, "seq"), 0);
    json_decref(v);
    free(body);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A join waiting for the lock while the game's expiry falls due: the expiry waits behind it and must read the
 * join's count anew, not the date it read before its wait (it cancelled a game with the new seat in it). */
START_TEST(join_counts_for_the_expiry_behind_it)
{
    static const char *const env[] = {"CARCD_WAITING_TTL=8", "CARCD_CLOCK_INTERVAL_MS=50", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r), 201);
    char id[40], code[80], path[160], body[200], sql[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code);
    PGconn *lock = lock_hold(d, id);
    e2e_async join = {.d = d, .method = "POST", .path = path, .body = body};
    e2e_async_start(&join);
    nap_ms(300);   /* the join waits; now the game's expiry falls due, and the clock worker waits behind it */
    snprintf(sql, sizeof sql, "WITH u AS (UPDATE game_waiting SET last_join_at = now() - interval '60 seconds', "
                              "expiry_warned = true WHERE game_id = '%s' RETURNING 1) SELECT count(*) FROM u", id);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    nap_ms(500);
    lock_release(lock);
    ck_assert_msg(e2e_async_join(&join) == 201, "%s", join.r.body);
    e2e_resp_free(&join.r);
    nap_ms(1000);   /* twenty ticks of the clock worker */
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(v, "open"), 1);
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_lock_waits");
    TCase *tc = e2e_tcase("lock_waits", 90);
    tcase_add_test(tc, webhook_limit_counted_after_the_wait);
    tcase_add_test(tc, resignation_to_a_bot_once);
    tcase_add_test(tc, renewed_token_moves_nothing);
    tcase_add_test(tc, join_counts_for_the_expiry_behind_it);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
