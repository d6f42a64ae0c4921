/*
 * test_concurrency.c — moves racing each other. Two posts with the same expected_seq, released together by a
 * barrier: exactly one applies (200), the other is stale (409), and the log stays gapless. Then many games
 * played at once by eight client threads: every 200 is in its game (seq = the 200s it got) and the replay
 * agrees for every game.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* ---- two posts, one seq ----------------------------------------------------------------------------------- */
typedef struct {
    e2e_client *c;
    pthread_barrier_t *barrier;
    const char *path, *token, *body;
    e2e_resp r;
} racer;

static void *race(void *arg)
{
    racer *x = arg;
    pthread_barrier_wait(x->barrier);
    e2e_req(x->c, "POST", x->path, x->token, x->body, NULL, &x->r);
    return NULL;
}

#define ROUNDS 30

START_TEST(same_expected_seq)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 3, NULL, &g);
    e2e_rng rng = {42};
    char path[160], lpath[160], mpath[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);
    racer rc[2];
    for (int k = 0; k < 2; k++)
        rc[k].c = e2e_client_new(d);
    /* warm both connections, so the race is between requests rather than TCP handshakes */
    for (int k = 0; k < 2; k++) {
        json_decref(e2e_get_ok(rc[k].c, path, NULL, 200));
    }
    int wins[2] = {0, 0};
    json_t *winner_events = json_array();
    for (int round = 0; round < ROUNDS; round++) {
        json_t *v = e2e_get_ok(c, path, NULL, 200);
        ck_assert_int_eq(e2e_jint(v, "seq"), round);
        int seat = (int)e2e_jint(v, "pending.seat");
        json_decref(v);
        json_t *lm = e2e_get_ok(c, lpath, g.token[seat], 200);
        json_t *moves = json_object_get(lm, "moves");
        ck_assert(json_array_size(moves) > 0);
        char *bodies[2];
        for (int k = 0; k < 2; k++) {
            /* odd rounds: two different legal moves; even rounds: the very same move twice */
            size_t pick = e2e_rng_below(&rng, (uint32_t)json_array_size(moves));
            json_t *b = json_pack("{s:i, s:O}", "expected_seq", round, "move", json_array_get(moves, pick));
            bodies[k] = json_dumps(b, JSON_COMPACT);
            json_decref(b);
            if (round % 2 == 0 && k == 0) {
                bodies[1] = strdup(bodies[0]);
                break;
            }
        }
        json_decref(lm);
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, 2);
        pthread_t th[2];
        for (int k = 0; k < 2; k++) {
            rc[k].barrier = &barrier;
            rc[k].path = mpath;
            rc[k].token = g.token[seat];
            rc[k].body = bodies[k];
            pthread_create(&th[k], NULL, race, &rc[k]);
        }
        for (int k = 0; k < 2; k++)
            pthread_join(th[k], NULL);
        pthread_barrier_destroy(&barrier);
        long s0 = rc[0].r.status, s1 = rc[1].r.status;
        ck_assert_msg((s0 == 200 && s1 == 409) || (s0 == 409 && s1 == 200),
                      "round %d: statuses %ld and %ld, want one 200 and one 409\n%s\n%s", round, s0, s1, rc[0].r.body,
                      rc[1].r.body);
        int winner = s0 == 200 ? 0 : 1;
        wins[winner]++;
        e2e_assert_problem(&rc[1 - winner].r, 409, "expected_seq", "the losing post");
        ck_assert_int_eq(e2e_jint(rc[winner].r.json, "seq"), round + 1);
        json_array_append(winner_events, json_object_get(rc[winner].r.json, "events"));
        for (int k = 0; k < 2; k++) {
            e2e_resp_free(&rc[k].r);
            free(bodies[k]);
        }
    }
    /* the log: seq counts the winners, replay finds no gap, and the events endpoint (if any) no duplicate */
    json_t *av = e2e_admin_view(c, d, g.id);
    ck_assert_int_eq(e2e_jint(av, "seq"), ROUNDS);
    json_decref(av);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), ROUNDS);
    long st;
    json_t *log = e2e_events_log(c, g.id, d->admin, &st);
    ck_assert_msg(log != NULL, "GET /events as admin: %ld", st);
    e2e_assert_log_complete(log, ROUNDS, "the admin log");
    for (int round = 0; round < ROUNDS; round++)
        ck_assert_msg(json_equal(json_object_get(json_array_get(log, (size_t)round + 1), "events"),
                                 json_array_get(winner_events, (size_t)round)),
                      "seq %d: the log's events are not the winning answer's", round + 1);
    json_decref(log);
    json_decref(winner_events);
    fprintf(stderr, "e2e same_expected_seq: %d rounds, first thread won %d, second %d\n", ROUNDS, wins[0], wins[1]);
    for (int k = 0; k < 2; k++)
        e2e_client_free(rc[k].c);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- many games, many clients ----------------------------------------------------------------------------- */
#define NGAMES 16
#define NTHREADS 8
#define MOVES_PER_GAME 40

typedef struct {
    e2e_game games[NGAMES];
    atomic_int ok[NGAMES];          /* 200s per game */
    atomic_bool done[NGAMES];       /* budget reached or game over */
    atomic_int stale, other;
    pthread_mutex_t mu;
    char first_other[1024];   /* room for status, curl error (256) and 400 bytes of body */
    e2e_daemon *d;
} load_t;

typedef struct {
    load_t *L;
    int id;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    load_t *L = w->L;
    e2e_client *c = e2e_client_new(L->d);
    e2e_rng rng = {1000u + (uint64_t)w->id};
    for (;;) {
        int open[NGAMES], n = 0;
        for (int k = 0; k < NGAMES; k++)
            if (!atomic_load(&L->done[k]))
                open[n++] = k;
        if (n == 0)
            break;
        int gi = open[e2e_rng_below(&rng, (uint32_t)n)];
        e2e_play p;
        long st = e2e_play_random(c, &L->games[gi], &rng, NULL, &p);
        if (st == 200) {
            if (atomic_fetch_add(&L->ok[gi], 1) + 1 >= MOVES_PER_GAME)
                atomic_store(&L->done[gi], true);
        } else if (st == 409 && e2e_problem_is(&p.post, "stale-seq")) {
            atomic_fetch_add(&L->stale, 1);
        } else if (st == E2E_FINISHED) {
            atomic_store(&L->done[gi], true);
        } else {
            atomic_fetch_add(&L->other, 1);
            pthread_mutex_lock(&L->mu);
            if (!L->first_other[0])
                snprintf(L->first_other, sizeof L->first_other, "game %d: status %ld %s %.400s", gi, st,
                         p.post.curl_error, p.post.body ? p.post.body : "");
            pthread_mutex_unlock(&L->mu);
            atomic_store(&L->done[gi], true);
        }
        e2e_play_free(&p);
    }
    e2e_client_free(c);
    return NULL;
}

START_TEST(many_games_many_clients)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    load_t *L = calloc(1, sizeof *L);
    L->d = d;
    pthread_mutex_init(&L->mu, NULL);
    for (int i = 0; i < NGAMES; i++)
        e2e_game_create(c, 2 + i % 5, NULL, &L->games[i]);
    pthread_t th[NTHREADS];
    worker_arg wa[NTHREADS];
    double t0 = e2e_now();
    for (int t = 0; t < NTHREADS; t++) {
        wa[t] = (worker_arg){L, t};
        pthread_create(&th[t], NULL, worker, &wa[t]);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    double secs = e2e_now() - t0;
    ck_assert_msg(atomic_load(&L->other) == 0, "%d answers were neither 200 nor a stale 409; the first: %s",
                  atomic_load(&L->other), L->first_other);
    int total = 0;
    for (int i = 0; i < NGAMES; i++) {
        json_t *av = e2e_admin_view(c, d, L->games[i].id);
        int ok = atomic_load(&L->ok[i]);
        ck_assert_msg(e2e_jint(av, "seq") == ok, "game %d: seq %lld but %d moves were answered 200", i,
                      e2e_jint(av, "seq"), ok);
        ck_assert_msg(ok >= MOVES_PER_GAME || strcmp(e2e_jstr(av, "status"), "finished") == 0,
                      "game %d: only %d moves and not finished", i, ok);
        json_decref(av);
        ck_assert_int_eq(e2e_verify_ok(c, d, L->games[i].id), ok);
        total += ok;
    }
    fprintf(stderr, "e2e many_games: %d games, %d threads: %d moves in %.2f s = %.0f moves/s "
                    "(each move = 2 reads + 1 post), %d stale 409s\n",
            NGAMES, NTHREADS, total, secs, total / secs, atomic_load(&L->stale));
    pthread_mutex_destroy(&L->mu);
    free(L);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_concurrency");
    TCase *tc = e2e_tcase("concurrency", 120);
    tcase_add_test(tc, same_expected_seq);
    tcase_add_test(tc, many_games_many_clients);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
