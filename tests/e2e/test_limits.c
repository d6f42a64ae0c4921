/*
 * test_limits.c — the limits for a public server, through a real socket: who may create games
 * (CARCD_CREATE=anyone, players, admin: 401/403 problems otherwise), the rate limits on creation and moves
 * and joins (small rates configured, so a bucket runs dry in a few requests: 429 /problems/rate-limited with
 * Retry-After, then the same request succeeds once that many seconds have passed; one client address or
 * key running dry leaves the others alone; the admin token is never limited), and X-Forwarded-For believed
 * only from CARCD_TRUSTED_PROXIES: clients at 127.0.0.1 (a trusted proxy here) and 127.0.0.2 (not), seen
 * in the rate buckets and in the audit log's address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* POST /v1/games for two players with `token` (NULL: none) and extra headers; the status. */
static long create(e2e_client *c, const char *token, const char *const *headers, e2e_resp *r)
{
    return e2e_req(c, "POST", "/v1/games", token, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}", headers, r);
}

static void expect_create(e2e_client *c, const char *token, long want, const char *what)
{
    e2e_resp r;
    long st = create(c, token, NULL, &r);
    if (want >= 400)
        e2e_assert_problem(&r, want, want == 429 ? NULL : "Authorization", what);
    else
        ck_assert_msg(st == want, "%s: %ld, want %ld: %s", what, st, want, r.body);
    e2e_resp_free(&r);
}

/* A new player's key (POST /v1/players). */
static void player_key(e2e_client *c, char key[80])
{
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"Ann\"}", NULL, &r), 201);
    snprintf(key, 80, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
}

static void restart_with(e2e_daemon *d, const char *create_mode)
{
    static char env[64];
    e2e_daemon_stop(d);
    snprintf(env, sizeof env, "CARCD_CREATE=%s", create_mode);
    d->extra_env[0] = env;
    d->extra_env[1] = NULL;
    e2e_daemon_start(d);
}

START_TEST(create_modes)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char pk[80];
    player_key(c, pk);
    expect_create(c, NULL, 201, "anyone (the default): no token");
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);   /* a seat token to try below */

    restart_with(d, "players");
    e2e_client_retarget(c, d);
    expect_create(c, NULL, 401, "players: no token");
    expect_create(c, g.token[0], 401, "players: a seat token is no player key");
    expect_create(c, "pk_nobody", 401, "players: an unknown key");
    expect_create(c, pk, 201, "players: a player key");
    expect_create(c, d->admin, 201, "players: the admin token");

    restart_with(d, "admin");
    e2e_client_retarget(c, d);
    expect_create(c, NULL, 401, "admin: no token");
    expect_create(c, pk, 403, "admin: a player key");
    expect_create(c, g.token[0], 403, "admin: a seat token");
    expect_create(c, d->admin, 201, "admin: the admin token");
    /* the rest of the API is as before: the old game is still played with its seat token */
    e2e_rng rng = {0x11};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The Retry-After header of r as a number (0: none). */
static long retry_after(const e2e_resp *r)
{
    char v[32];
    return e2e_header(r, "Retry-After", v, sizeof v) ? strtol(v, NULL, 10) : 0;
}

START_TEST(rate_limits_hit_and_recovered)
{
    /* creation: 3 at once, then one every 5 s, per address and per key; moves: per address generous, per token 2
     * at once; joins 2 at once. Slow refills, so that a slow run (ASan, a busy machine) cannot refill a bucket
     * between the requests that are to find it empty. */
    static const char *const env[] = {"CARCD_RATE_CREATE=3/12", "CARCD_RATE_MOVES=1000/60000,2/12",
                                      "CARCD_RATE_JOINS=2/12", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d), *other = e2e_client_new(d);
    e2e_client_source(other, "127.0.0.2");
    e2e_resp r;
    for (int i = 0; i < 3; i++)
        expect_create(c, NULL, 201, "within the burst");
    double t_refused = e2e_now();
    ck_assert_int_eq(create(c, NULL, NULL, &r), 429);
    e2e_assert_problem(&r, 429, NULL, "the fourth creation");
    ck_assert(e2e_problem_is(&r, "rate-limited"));
    long after = retry_after(&r);
    ck_assert_msg(after >= 1 && after <= 5, "Retry-After %ld (one token every 5 s, rounded up)", after);
    e2e_resp_free(&r);
    expect_create(other, NULL, 201, "another client address has its own bucket");
    for (int i = 0; i < 4; i++)
        expect_create(c, d->admin, 201, "the admin token is not limited");
    nap((double)after + 0.05 - (e2e_now() - t_refused));
    expect_create(c, NULL, 201, "after Retry-After");
    ck_assert_int_eq(create(c, NULL, NULL, &r), 429);   /* and the bucket is empty again */
    e2e_resp_free(&r);

    /* moves: a token's bucket counts every move it posts, refused or not; another token is not affected */
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, NULL, true, &g), 201);
    const char *body = "{\"notation\":\"pass\",\"expected_seq\":0}";
    for (int i = 0; i < 2; i++) {   /* seat 1 has no turn: 403, but each takes a token */
        char path[96];
        snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
        ck_assert_int_eq(e2e_req(c, "POST", path, g.token[1], body, NULL, &r), 403);
        e2e_resp_free(&r);
    }
    char path[96];
    snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
    t_refused = e2e_now();
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[1], body, NULL, &r), 429);
    e2e_assert_problem(&r, 429, NULL, "the third move of a token");
    after = retry_after(&r);
    ck_assert_int_ge(after, 1);
    e2e_resp_free(&r);
    e2e_rng rng = {0x42};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);   /* seat 0's token: its own bucket */
    ck_assert_int_eq(p.seat, 0);
    e2e_play_free(&p);
    nap((double)after + 0.05 - (e2e_now() - t_refused));
    long st = e2e_req(c, "POST", path, g.token[1], body, NULL, &r);   /* heard again: stale seq or not its turn */
    ck_assert_msg(st == 409 || st == 403, "after Retry-After: %ld %s", st, r.body);
    e2e_resp_free(&r);
    /* joins: the address's bucket counts every join, a wrong invite code too */
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", d->admin, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true}]}",
                             NULL, &r), 201);
    snprintf(path, sizeof path, "/v1/games/%s/join", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(e2e_req(c, "POST", path, NULL, "{\"name\":\"Eve\",\"invite\":\"iv_wrong\"}", NULL, &r), 403);
        e2e_resp_free(&r);
    }
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, "{\"name\":\"Eve\",\"invite\":\"iv_wrong\"}", NULL, &r), 429);
    e2e_assert_problem(&r, 429, NULL, "the third join");
    ck_assert_int_ge(retry_after(&r), 1);
    e2e_resp_free(&r);
    fprintf(stderr, "e2e limits: creation, moves and joins refused 429 past their buckets; creation and moves "
                    "served again after Retry-After (%ld s)\n", after);
    e2e_client_free(other);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The client address of the newest audit row of an admin game view. */
static void newest_audit_addr(e2e_client *c, const e2e_daemon *d, char out[64])
{
    json_t *a = e2e_get_ok(c, "/v1/admin/audit?action=admin.games.get&limit=1", d->admin, 200);
    json_t *e = json_array_get(json_object_get(a, "entries"), 0);
    snprintf(out, 64, "%s", e2e_jstr(e, "actor.address"));
    json_decref(a);
}

START_TEST(forwarded_for_only_from_trusted_proxies)
{
    static const char *const env[] = {"CARCD_TRUSTED_PROXIES=127.0.0.1/32, ::1", "CARCD_RATE_CREATE=1/1", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *proxy = e2e_client_new(d), *stranger = e2e_client_new(d);
    e2e_client_source(proxy, "127.0.0.1");
    e2e_client_source(stranger, "127.0.0.2");
    e2e_resp r;
    const char *xff5[] = {"X-Forwarded-For: 203.0.113.5", NULL}, *xff6[] = {"X-Forwarded-For: 203.0.113.6", NULL};
    /* from a peer that is no trusted proxy the header is ignored: both requests are 127.0.0.2's */
    ck_assert_int_eq(create(stranger, NULL, xff5, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(create(stranger, NULL, xff6, &r), 429);
    e2e_resp_free(&r);
    /* from the trusted proxy each forwarded address is a client of its own */
    ck_assert_int_eq(create(proxy, NULL, xff5, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(create(proxy, NULL, xff6, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(create(proxy, NULL, xff5, &r), 429);
    e2e_resp_free(&r);
    /* a client's own entry left of what the proxy appended is not believed (the right-most untrusted) */
    const char *forged[] = {"X-Forwarded-For: 198.51.100.1, 203.0.113.6", NULL};
    ck_assert_int_eq(create(proxy, NULL, forged, &r), 429);
    e2e_resp_free(&r);
    /* an IPv6 client is its /64: another address of the same /64 shares its bucket, another /64 has its own */
    const char *v6a[] = {"X-Forwarded-For: 2001:db8:1:2::5", NULL};
    const char *v6b[] = {"X-Forwarded-For: 2001:db8:1:2::66", NULL};
    const char *v6c[] = {"X-Forwarded-For: 2001:db8:1:3::5", NULL};
    ck_assert_int_eq(create(proxy, NULL, v6a, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(create(proxy, NULL, v6b, &r), 429);
    e2e_resp_free(&r);
    ck_assert_int_eq(create(proxy, NULL, v6c, &r), 201);
    e2e_resp_free(&r);

    /* the audit log records the resolved address */
    e2e_game g;
    e2e_game_create_raw(proxy, d, 2, NULL, NULL, true, &g);
    char path[96], addr[64];
    snprintf(path, sizeof path, "/v1/admin/games/%s", g.id);
    const char *xff7[] = {"X-Forwarded-For: 198.51.100.7", NULL};
    ck_assert_int_eq(e2e_req(proxy, "GET", path, d->admin, NULL, xff7, &r), 200);
    e2e_resp_free(&r);
    newest_audit_addr(proxy, d, addr);
    ck_assert_str_eq(addr, "198.51.100.7");
    ck_assert_int_eq(e2e_req(stranger, "GET", path, d->admin, NULL, xff7, &r), 200);
    e2e_resp_free(&r);
    newest_audit_addr(proxy, d, addr);
    ck_assert_str_eq(addr, "127.0.0.2");
    e2e_client_free(proxy);
    e2e_client_free(stranger);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_limits");
    TCase *tc = e2e_tcase("limits", 120);
    tcase_add_test(tc, create_modes);
    tcase_add_test(tc, rate_limits_hit_and_recovered);
    tcase_add_test(tc, forwarded_for_only_from_trusted_proxies);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
