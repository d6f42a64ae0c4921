/*
 * test_one_round_trip.c — a seat's move sent in one round trip from the state cache (handlers/moves_post.c,
 * db/game_reads.h: cd_move_guard_deferred, sql/016_move_guard.sql), and every way its guard is refused.
 *
 *   - A game played through one carcd: every move, the first too (its creation left the state and what it
 *     stored of the game in the cache), is committed in one round trip
 *     (carcd_moves_one_round_trip_total), a POST costs exactly one database round trip
 *     (carcd_db_roundtrip_seconds_count), and the replay agrees with the log.
 *   - Two carcd on one database: the second moves the game, so the first's cached state is stale. A POST to the
 *     first at the old seq is refused by the guard and answered the long way: 409 stale-seq, the game unchanged.
 *     The same request with the Idempotency-Key the second committed it under gets the second's answer, byte
 *     for byte.
 *   - A webhook endpoint added after the cache learnt the game had none: the guard refuses, the move is made
 *     the long way, and its outbox rows are written. A game created with a seat's webhook: its first move goes
 *     the long way at once, outbox rows and all.
 *   - The other seat's token, and a token of no seat, at the right seq: the engine never sees their move (the
 *     cache knows the pending seat's token), so no guard is refused for them, and the long way answers 403
 *     not-your-turn and 401; nothing moves. Were the move tried, /metrics and the answer's time would tell
 *     anyone whether it is legal for the pending seat: with Halb so wild II's hands, what the hand holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* How many of the game's moves after seq `after` wrote webhook outbox rows (nothing listens at the hooks: the
 * rows are what counts, not their delivery). */
static long long moves_with_outbox_rows(e2e_daemon *d, const char *game_id, int after)
{
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(DISTINCT seq) FROM webhook_outbox WHERE game_id = '%s' AND seq > %d",
             game_id, after);
    return e2e_db_long(d, sql);
}

/* The value of the /metrics line that starts with `series` (name and labels, as printed); -1 when absent. */
static long long metric(e2e_client *c, const char *series)
{
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &r), 200);
    long long v = -1;
    size_t n = strlen(series);
    for (const char *p = r.body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, series, n) == 0 && p[n] == ' ') {
            v = atoll(p + n + 1);
            break;
        }
    }
    e2e_resp_free(&r);
    return v;
}

#define ONE_TRIP "carcd_moves_one_round_trip_total{outcome=\"committed\"}"
#define LONG_WAY "carcd_moves_one_round_trip_total{outcome=\"long_way\"}"
#define ROUND_TRIPS "carcd_db_roundtrip_seconds_count"

static int game_seq(e2e_client *c, const e2e_daemon *d, const char *id)
{
    json_t *av = e2e_admin_view(c, d, id);
    int seq = (int)e2e_jint(av, "seq");
    json_decref(av);
    return seq;
}

/* n random moves, each answered 200 */
static void play(e2e_client *c, const e2e_game *g, e2e_rng *rng, int n)
{
    for (int i = 0; i < n; i++) {
        e2e_play p;
        long st = e2e_play_random(c, g, rng, NULL, &p);
        ck_assert_msg(st == 200, "move %d: %ld %.300s", i, st, p.post.body ? p.post.body : "");
        e2e_play_free(&p);
    }
}

/* The pending seat, and the body of its first legal move at the game's seq (malloc'd). */
static char *first_move(e2e_client *c, const e2e_game *g, int *seat, int *seq)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    *seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g->id);
    json_t *lm = e2e_get_ok(c, path, g->token[*seat], 200);
    *seq = (int)e2e_jint(lm, "seq");
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", *seq, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *text = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    json_decref(lm);
    return text;
}

static long post(e2e_client *c, const e2e_game *g, const char *token, const char *body, const char *key, e2e_resp *r)
{
    char path[160], h[200];
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    snprintf(h, sizeof h, "Idempotency-Key: %s", key ? key : "");
    const char *hdrs[] = {h, NULL};
    return e2e_req(c, "POST", path, token, body, key ? hdrs : NULL, r);
}

START_TEST(moves_take_one_round_trip)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {7};
    play(c, &g, &rng, 12);
    /* every move went in one round trip, the first one too: the creation left its state in the cache */
    ck_assert_int_eq(metric(c, ONE_TRIP), 12);
    ck_assert_int_eq(metric(c, LONG_WAY), 0);

    /* a POST is one round trip: /metrics's own reads are measured first and taken off */
    int seat, seq;
    char *body = first_move(c, &g, &seat, &seq);
    long long m0 = metric(c, ROUND_TRIPS), m1 = metric(c, ROUND_TRIPS);
    e2e_resp r;
    ck_assert_int_eq(post(c, &g, g.token[seat], body, "one-trip", &r), 200);
    ck_assert_int_eq(e2e_jint(r.json, "seq"), seq + 1);
    long long m2 = metric(c, ROUND_TRIPS);
    ck_assert_msg(m2 - m1 - (m1 - m0) == 1, "a move took %lld round trips", m2 - m1 - (m1 - m0));
    ck_assert_int_eq(metric(c, ONE_TRIP), 13);
    /* the same key again: its answer, derived the long way (the cache is a seq ahead of the request) */
    e2e_resp again;
    ck_assert_int_eq(post(c, &g, g.token[seat], body, "one-trip", &again), 200);
    ck_assert_str_eq(again.body, r.body);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq + 1);
    e2e_resp_free(&r);
    e2e_resp_free(&again);
    free(body);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(another_process_moved_the_game)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_daemon d2 = *d;   /* a second carcd on the same database, on a port of its own */
    d2.pid = 0;
    d2.port = 0;
    e2e_daemon_start(&d2);
    e2e_client *c = e2e_client_new(d), *c2 = e2e_client_new(&d2);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {11};
    play(c, &g, &rng, 3);   /* the first carcd holds the state at seq 3, and what it read besides */
    int seat, seq;
    char *body = first_move(c, &g, &seat, &seq);
    ck_assert_int_eq(seq, 3);
    e2e_resp by2;
    ck_assert_int_eq(post(c2, &g, g.token[seat], body, "k-3", &by2), 200);   /* the second moves it to 4 */
    long long long0 = metric(c, LONG_WAY);

    /* the first carcd's cache says seq 3: its guard is refused, and the long way says stale */
    e2e_resp r;
    ck_assert_int_eq(post(c, &g, g.token[seat], body, "k-other", &r), 409);
    ck_assert(e2e_problem_is(&r, "stale-seq"));
    ck_assert_int_eq(metric(c, LONG_WAY), long0 + 1);
    ck_assert_int_eq(game_seq(c, d, g.id), 4);
    e2e_resp_free(&r);
    /* the second's key, retried through the first: the second's answer, byte for byte, and nothing moves */
    ck_assert_int_eq(post(c, &g, g.token[seat], body, "k-3", &r), 200);
    ck_assert_str_eq(r.body, by2.body);
    ck_assert_int_eq(game_seq(c, d, g.id), 4);
    e2e_resp_free(&r);

    /* both go on; the log replays */
    play(c, &g, &rng, 2);
    play(c2, &g, &rng, 2);
    play(c, &g, &rng, 2);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), 10);
    e2e_resp_free(&by2);
    free(body);
    e2e_client_free(c2);
    e2e_daemon_stop(&d2);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(webhook_added_later)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {13};
    play(c, &g, &rng, 3);   /* cached: the game has no webhook endpoint */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", g.id);
    e2e_resp r;
    /* nothing listens there: the outbox rows are what counts, not their delivery */
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], "{\"url\":\"http://127.0.0.1:9/hook\",\"format\":\"json\",\"events\":[\"move.made\"]}",
                             NULL, &r),
                     201);
    e2e_resp_free(&r);
    long long long0 = metric(c, LONG_WAY), one0 = metric(c, ONE_TRIP);
    play(c, &g, &rng, 1);
    ck_assert_int_eq(metric(c, LONG_WAY), long0 + 1);   /* the guard saw the endpoint */
    ck_assert_int_eq(metric(c, ONE_TRIP), one0);
    ck_assert_int_eq(moves_with_outbox_rows(d, g.id, 3), 1);   /* seq 4's */
    /* now the cache knows the game has endpoints: the long way at once, outbox rows each time */
    play(c, &g, &rng, 2);
    ck_assert_int_eq(metric(c, LONG_WAY), long0 + 1);
    ck_assert_int_eq(metric(c, ONE_TRIP), one0);
    ck_assert_int_eq(moves_with_outbox_rows(d, g.id, 3), 3);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), 6);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A game created with a seat's webhook: the creation told the cache so, and its first move goes the long way
 * at once (no guard refused), with its outbox rows. */
START_TEST(created_with_a_webhook)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    /* `players` in place of the helper's: nothing listens at the hook, the outbox rows are what counts */
    static const char players[] = "{\"players\":[{\"name\":\"Ann\",\"webhook\":{\"url\":\"http://127.0.0.1:9/hook\","
                                  "\"events\":[\"move.made\"]}},{\"name\":\"Bob\"}]}";
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, players, false, &g), 201);
    long long long0 = metric(c, LONG_WAY), one0 = metric(c, ONE_TRIP);
    e2e_rng rng = {17};
    play(c, &g, &rng, 2);
    ck_assert_int_eq(metric(c, ONE_TRIP), one0);
    ck_assert_int_eq(metric(c, LONG_WAY), long0);   /* not refused by the guard: never tried */
    ck_assert_int_eq(moves_with_outbox_rows(d, g.id, 0), 2);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), 2);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(wrong_tokens_are_refused_the_long_way)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {17};
    play(c, &g, &rng, 2);
    int seat, seq;
    char *body = first_move(c, &g, &seat, &seq);
    long long long0 = metric(c, LONG_WAY);
    e2e_resp r;
    ck_assert_int_eq(post(c, &g, g.token[1 - seat], body, NULL, &r), 403);
    ck_assert(e2e_problem_is(&r, "not-your-turn"));
    e2e_resp_free(&r);
    ck_assert_int_eq(post(c, &g, "no-such-token-at-all", body, NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(metric(c, LONG_WAY), long0);   /* no attempt in one round trip was made for them */
    ck_assert_int_eq(game_seq(c, d, g.id), seq);
    /* the right seat: one round trip again */
    long long one0 = metric(c, ONE_TRIP);
    ck_assert_int_eq(post(c, &g, g.token[seat], body, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(metric(c, ONE_TRIP), one0 + 1);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq + 1);
    free(body);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("one_round_trip");
    TCase *tc = e2e_tcase("guard", 120);
    tcase_add_test(tc, moves_take_one_round_trip);
    tcase_add_test(tc, another_process_moved_the_game);
    tcase_add_test(tc, webhook_added_later);
    tcase_add_test(tc, created_with_a_webhook);
    tcase_add_test(tc, wrong_tokens_are_refused_the_long_way);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
