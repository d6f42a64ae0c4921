/*
 * test_me_events.c — GET /v1/me/events end to end: a player (a key) with a seat in two games, A (seat 0) and
 * B (seat 1). Checked: the stream starts with game_started for both and A's first turn; a long-poll waiting
 * on it wakes with B's turn when B's other seat hands over; A played to its end adds A's turns and a
 * game_over (finished); the admin's cancel of B adds a game_over (cancelled); numbers run 1, 2, ... with no
 * gap; the lobby's hooks: a rematch offered is an invitation, a waiting game that a join fills starts with
 * game_started and the first turn (nothing while it waits); the SSE stream carries the same entries as
 * `id:`/`event:`/`data:` frames and resumes after Last-Event-ID; another player's stream holds none of it; a seat token, the admin token or no token are
 * refused. Entries name game, seq and seat only (the schema is strict), so nothing hidden can be in them. Events
 * older than CARCD_DELIVERY_TTL are forgotten, and the numbers go on.
 */
#include <pthread.h>
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

/* Index of the first entry of `kind` for game `id` (status NULL: any), or -1. */
static int find(const json_t *es, const char *kind, const char *id, const char *status)
{
    size_t i;
    json_t *e;
    json_array_foreach(es, i, e) {
        if (strcmp(e2e_jstr(e, "kind"), kind) == 0 && strcmp(e2e_jstr(e, "game"), id) == 0 &&
            (!status || strcmp(e2e_jstr(e, "status"), status) == 0))
            return (int)i;
    }
    return -1;
}

typedef struct {
    const e2e_daemon *d;
    const char *key;
    char path[120];
    e2e_resp r;
    double t_answered;
} poll_arg;

static void *poll_thread(void *arg)
{
    poll_arg *a = arg;
    e2e_client *c = e2e_client_new(a->d);
    e2e_client_timeout(c, 30000);
    e2e_req(c, "GET", a->path, a->key, NULL, NULL, &a->r);
    a->t_answered = e2e_now();
    e2e_client_free(c);
    return NULL;
}

START_TEST(one_stream_for_two_games)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char pk[80], other[80], extra[400];
    e2e_player_key(c, "Ann", pk, sizeof pk);
    e2e_player_key(c, "Zed", other, sizeof other);
    e2e_game A, B;
    snprintf(extra, sizeof extra, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}]}", pk);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, false, &A), 201);
    snprintf(extra, sizeof extra, "{\"players\":[{\"name\":\"Cid\"},{\"name\":\"Ann\",\"player_key\":\"%s\"}]}", pk);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, false, &B), 201);

    /* the start: both games, and A's first turn (A waits for seat 0, Ann's; B for Cid) */
    json_t *es = e2e_me_events_all(c, pk);
    ck_assert_int_eq(json_array_size(es), 3);
    ck_assert_int_eq(find(es, "game_started", A.id, NULL), 0);
    ck_assert_int_eq(find(es, "turn", A.id, NULL), 1);
    ck_assert_int_eq(find(es, "game_started", B.id, NULL), 2);
    ck_assert_int_eq(e2e_jint(json_array_get(es, 2), "seat"), 1);
    ck_assert_int_eq(find(es, "turn", B.id, NULL), -1);
    json_decref(es);

    /* a long-poll waits; Cid's turn in B ends: Ann's turn there */
    poll_arg pa = {.d = d, .key = pk};
    snprintf(pa.path, sizeof pa.path, "/v1/me/events?after=3&wait=20");
    pthread_t th;
    pthread_create(&th, NULL, poll_thread, &pa);
    nap(0.3);
    e2e_rng rng = {0x77};
    double t_handover = 0;
    for (int i = 0; i < 10 && !t_handover; i++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &B, &rng, NULL, &p), 200);
        ck_assert_int_eq(p.seat, 0);
        json_t *next = e2e_jget(p.post.json, "legal_moves");   /* present while the mover decides again */
        if (!next)
            t_handover = e2e_now();
        e2e_play_free(&p);
    }
    pthread_join(th, NULL);
    ck_assert_int_eq(pa.r.status, 200);
    json_t *e = json_array_get(json_object_get(pa.r.json, "entries"), 0);
    ck_assert_msg(e && strcmp(e2e_jstr(e, "kind"), "turn") == 0 && strcmp(e2e_jstr(e, "game"), B.id) == 0 &&
                      e2e_jint(e, "seat") == 1 && e2e_jint(e, "n") == 4,
                  "the long-poll's answer: %s", pa.r.body);
    fprintf(stderr, "e2e me/events: the waiting long-poll answered %.3f s after the move that handed over\n",
            pa.t_answered - t_handover);
    e2e_resp_free(&pa.r);

    /* A to its end; B cancelled */
    long st = 200;
    for (int i = 0; i < 400 && st == 200; i++) {
        e2e_play p;
        st = e2e_play_random(c, &A, &rng, NULL, &p);
        e2e_play_free(&p);
    }
    ck_assert_int_eq(st, E2E_FINISHED);
    char path[160];
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", B.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, NULL, NULL, &r), 200);
    e2e_resp_free(&r);

    es = e2e_me_events_all(c, pk);
    size_t n = json_array_size(es);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(e2e_jint(json_array_get(es, i), "n"), (long long)i + 1);
    int turns_a = 0;
    size_t i;
    json_array_foreach(es, i, e) {
        turns_a += strcmp(e2e_jstr(e, "kind"), "turn") == 0 && strcmp(e2e_jstr(e, "game"), A.id) == 0;
    }
    ck_assert_int_ge(turns_a, 10);   /* a whole game: Ann's seat had every other turn */
    int over_a = find(es, "game_over", A.id, "finished"), over_b = find(es, "game_over", B.id, "cancelled");
    ck_assert_int_ge(over_a, 0);
    ck_assert_int_eq(over_b, (int)n - 1);
    ck_assert_int_eq(e2e_jint(json_array_get(es, (size_t)over_a), "seat"), 0);
    ck_assert_int_eq(e2e_jint(json_array_get(es, (size_t)over_b), "seat"), 1);
    fprintf(stderr, "e2e me/events: %zu entries (%d turns in A) for a player in two games\n", n, turns_a);

    /* the lobby's: Bob offers A's rematch (an invitation for Ann), and a waiting game with Ann named and one
     * open seat starts when a guest joins (game_started and Ann's first turn) */
    snprintf(path, sizeof path, "/v1/games/%s/rematch", A.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, A.token[1], NULL, NULL, &r), 201);
    e2e_resp_free(&r);
    snprintf(extra, sizeof extra, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true}]}", pk);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, extra, NULL, &r), 201);
    char wid[40], code[80], join[160];
    snprintf(wid, sizeof wid, "%s", e2e_jstr(r.json, "id"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    json_decref(es);
    es = e2e_me_events_all(c, pk);
    ck_assert_int_eq(find(es, "game_started", wid, NULL), -1);   /* waiting: nothing started yet */
    json_decref(es);
    snprintf(path, sizeof path, "/v1/games/%s/join", wid);
    snprintf(join, sizeof join, "{\"name\":\"Guest\",\"invite\":\"%s\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, join, NULL, &r), 201);
    e2e_resp_free(&r);
    es = e2e_me_events_all(c, pk);
    int inv = -1;
    json_array_foreach(es, i, e) if (strcmp(e2e_jstr(e, "kind"), "invitation") == 0) inv = (int)i;
    ck_assert_int_gt(inv, over_b);
    ck_assert(json_is_null(json_object_get(json_array_get(es, (size_t)inv), "seat")));
    int st_w = find(es, "game_started", wid, NULL), turn_w = find(es, "turn", wid, NULL);
    ck_assert_int_gt(st_w, inv);
    ck_assert_int_eq(turn_w, st_w + 1);
    ck_assert_int_eq(e2e_jint(json_array_get(es, (size_t)turn_w), "seat"), 0);
    n = json_array_size(es);

    /* the same as Server-Sent Events, and resumed after Last-Event-ID */
    const char *sse[] = {"Accept: text/event-stream", NULL};
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events?wait=1", pk, NULL, sse, &r), 200);
    ck_assert_msg(strstr(r.body, "id: 1\nevent: game_started\ndata: {") != NULL, "%.300s", r.body);
    char frame[64];
    snprintf(frame, sizeof frame, "id: %zu\nevent: turn\ndata: {", n);
    ck_assert_msg(strstr(r.body, frame) != NULL, "no frame %s", frame);
    e2e_resp_free(&r);
    char last[64];
    snprintf(last, sizeof last, "Last-Event-ID: %zu", n - 1);
    const char *resume[] = {"Accept: text/event-stream", last, NULL};
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events?wait=1", pk, NULL, resume, &r), 200);
    ck_assert_msg(strstr(r.body, frame) != NULL && !strstr(r.body, "event: game_started"), "%.300s", r.body);
    e2e_resp_free(&r);
    json_decref(es);

    /* someone else's stream; who may not ask */
    json_t *z = e2e_get_ok(c, "/v1/me/events", other, 200);
    ck_assert_int_eq(json_array_size(json_object_get(z, "entries")), 0);
    json_decref(z);
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events", NULL, NULL, NULL, &r), 401);
    e2e_assert_problem(&r, 401, "Authorization", "no key");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events", A.token[1], NULL, NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events", d->admin, NULL, NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/me/events?after=-1", pk, NULL, NULL, &r), 400);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A player's events are forgotten CARCD_DELIVERY_TTL after they were written (a second here, the clock worker
 * every 50 ms); the numbers go on from where they were, so a stream's ids never repeat. */
START_TEST(old_events_forgotten)
{
    static const char *const env[] = {"CARCD_DELIVERY_TTL=1", "CARCD_CLOCK_INTERVAL_MS=50", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    char pk[80], extra[400];
    e2e_player_key(c, "Ann", pk, sizeof pk);
    e2e_game A, B;
    snprintf(extra, sizeof extra, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}]}", pk);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, false, &A), 201);
    json_t *es = e2e_me_events_all(c, pk);
    ck_assert_int_eq(json_array_size(es), 2);   /* A started, Ann's turn */
    json_decref(es);
    for (int i = 0; i < 100; i++) {
        es = e2e_me_events_all(c, pk);
        size_t n = json_array_size(es);
        json_decref(es);
        if (n == 0)
            break;
        nap(0.05);
    }
    es = e2e_me_events_all(c, pk);
    ck_assert_int_eq(json_array_size(es), 0);
    json_decref(es);
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, false, &B), 201);
    es = e2e_me_events_all(c, pk);
    ck_assert_int_eq(json_array_size(es), 2);
    ck_assert_int_eq(e2e_jint(json_array_get(es, 0), "n"), 3);   /* after 1 and 2, forgotten */
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "game"), B.id);
    json_decref(es);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_me_events");
    TCase *tc = e2e_tcase("me_events", 120);
    tcase_add_test(tc, one_stream_for_two_games);
    tcase_add_test(tc, old_events_forgotten);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
