/*
 * test_pg_restart.c — PostgreSQL stopped under load and started again, carcd left running: while the
 * database is down every request is answered 503 problem+json within a few seconds (no hang, no crash);
 * after it is back, requests succeed again without restarting carcd, and no answered move is lost.
 *
 * And PostgreSQL restarted with `-m immediate` (a crash: the server says nothing to its clients) while carcd is
 * idle: every worker's connection is dead, and the next requests on every worker must all be 2xx (no 500 for
 * a lost connection, no 503 once the server is back).
 *
 * E2E_RUN_SERIAL: this test stops the shared throwaway cluster, so CMake runs it alone (RUN_SERIAL).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "e2e.h"

#define NTHREADS 4
#define GAMES_PER_THREAD 2
#define NGAMES (NTHREADS * GAMES_PER_THREAD)
#define MAX_ANSWER_S 5.0      /* "not hang past a few seconds" */
#define MAX_RECORDS 200000

typedef struct {
    double t0, t1;
    long status;
    bool problem_ok;          /* a 503 with a well-formed problem+json body */
    bool is_post;
    int thread;
} record;

typedef struct {
    e2e_daemon *d;
    e2e_game games[NGAMES];
    atomic_bool stop;
    pthread_mutex_t mu;
    record *rec;
    int nrec;
    int ok_moves[NGAMES];
    int unsure_moves[NGAMES];   /* posts answered 503: the commit may or may not have happened */
    atomic_int total_ok;
    atomic_int streak[NTHREADS];   /* consecutive 2xx answers per thread */
} load_t;

typedef struct {
    load_t *L;
    int id;
} worker_arg;

static bool problem_503_ok(const e2e_resp *r)
{
    return r->status == 503 && strncasecmp(r->content_type, "application/problem+json", 24) == 0 &&
           json_is_object(r->json) && e2e_jint(r->json, "status") == 503 &&
           json_is_string(json_object_get(r->json, "type")) && json_is_string(json_object_get(r->json, "title"));
}

static void observe(void *arg, const char *method, const char *path, double t0, double t1, const e2e_resp *r)
{
    (void)path;
    worker_arg *w = arg;
    load_t *L = w->L;
    pthread_mutex_lock(&L->mu);
    if (L->nrec < MAX_RECORDS)
        L->rec[L->nrec++] = (record){t0, t1, r->status, problem_503_ok(r), strcmp(method, "POST") == 0, w->id};
    pthread_mutex_unlock(&L->mu);
    if (r->status >= 200 && r->status < 300)
        atomic_fetch_add(&L->streak[w->id], 1);
    else
        atomic_store(&L->streak[w->id], 0);
}

static void *worker(void *arg)
{
    worker_arg *w = arg;
    load_t *L = w->L;
    e2e_client *c = e2e_client_new(L->d);
    e2e_client_timeout(c, 15000);
    e2e_client_observe(c, observe, w);
    e2e_rng rng = {31337u + (uint64_t)w->id};
    for (int n = 0; !atomic_load(&L->stop); n++) {
        int gi = w->id * GAMES_PER_THREAD + n % GAMES_PER_THREAD;
        e2e_play p;
        long st = e2e_play_random(c, &L->games[gi], &rng, NULL, &p);
        pthread_mutex_lock(&L->mu);
        if (st == 200) {
            L->ok_moves[gi]++;
            atomic_fetch_add(&L->total_ok, 1);
        } else if (st == 503) {
            L->unsure_moves[gi]++;
        }
        pthread_mutex_unlock(&L->mu);
        e2e_play_free(&p);
        if (st != 200) {   /* a failed request: do not spin */
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    e2e_client_free(c);
    return NULL;
}

static int count_after(load_t *L, double t)
{
    pthread_mutex_lock(&L->mu);
    int n = 0;
    for (int i = 0; i < L->nrec; i++)
        n += L->rec[i].t0 >= t;
    pthread_mutex_unlock(&L->mu);
    return n;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

START_TEST(postgres_restart_under_load)
{
    e2e_pg_discover();
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_client_timeout(c, 15000);
    load_t *L = calloc(1, sizeof *L);
    L->d = d;
    L->rec = calloc(MAX_RECORDS, sizeof *L->rec);
    pthread_mutex_init(&L->mu, NULL);
    for (int i = 0; i < NGAMES; i++)
        e2e_game_create(c, 2 + i % 5, NULL, &L->games[i]);
    pthread_t th[NTHREADS];
    worker_arg wa[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        wa[t] = (worker_arg){L, t};
        pthread_create(&th[t], NULL, worker, &wa[t]);
    }
    double t_begin = e2e_now();
    while (atomic_load(&L->total_ok) < 40 && e2e_now() - t_begin < 30)
        nap_ms(5);
    ck_assert_msg(atomic_load(&L->total_ok) >= 40, "the load did not get going");

    /* down */
    double t_stop0 = e2e_now();
    e2e_pg_stop();
    double t_stop1 = e2e_now();
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/healthz", NULL, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", "/readyz", NULL, NULL, NULL, &r), 503);
    ck_assert_msg(r.seconds < MAX_ANSWER_S, "/readyz took %.1f s with the database down", r.seconds);
    e2e_resp_free(&r);
    char vpath[160];
    snprintf(vpath, sizeof vpath, "/v1/games/%s", L->games[0].id);
    ck_assert_int_eq(e2e_req(c, "GET", vpath, NULL, NULL, NULL, &r), 503);
    e2e_assert_problem(&r, 503, NULL, "a view with the database down");
    e2e_resp_free(&r);
    while ((count_after(L, t_stop1) < 40 || e2e_now() - t_stop1 < 2.0) && e2e_now() - t_stop1 < 20)
        nap_ms(10);
    ck_assert_msg(e2e_daemon_alive(d, NULL), "carcd died with the database down");

    /* up again */
    double t_start0 = e2e_now();
    e2e_pg_start();
    double t_start1 = e2e_now();
    /* every thread gets 20 successes in a row, without carcd being restarted */
    bool back = false;
    while (!back && e2e_now() - t_start1 < 30) {
        back = true;
        for (int t = 0; t < NTHREADS; t++)
            back = back && atomic_load(&L->streak[t]) >= 20;
        if (!back)
            nap_ms(10);
    }
    double t_back = e2e_now();
    atomic_store(&L->stop, true);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    ck_assert_msg(e2e_daemon_alive(d, NULL), "carcd died");
    ck_assert_msg(back, "requests did not succeed again within 30 s of PostgreSQL being back");

    /* the answers, by phase */
    int down_503 = 0, down_bad = 0, transport = 0, slow = 0, after_fail = 0, other = 0, before_ok = 0;
    double first_ok_after = -1, slowest = 0;
    char first_bad[300] = "";
    for (int i = 0; i < L->nrec; i++) {
        record *x = &L->rec[i];
        double dt = x->t1 - x->t0;
        if (dt > slowest)
            slowest = dt;
        if (x->status == 0)
            transport++;
        if (dt > MAX_ANSWER_S)
            slow++;
        if (x->t0 >= t_stop1 && x->t1 <= t_start0) {
            if (x->status == 503 && x->problem_ok)
                down_503++;
            else if (down_bad++ == 0)
                snprintf(first_bad, sizeof first_bad, "status %ld (problem+json %s) %.3f s after the stop",
                         x->status, x->problem_ok ? "ok" : "malformed", x->t0 - t_stop1);
        } else if (x->t0 >= t_start1) {
            if (x->status == 503)
                after_fail++;
            else if (x->status == 200 && (first_ok_after < 0 || x->t1 - t_start1 < first_ok_after))
                first_ok_after = x->t1 - t_start1;
            else if (x->status != 200)
                other++;
        } else if (x->t1 < t_stop0) {
            before_ok += x->status == 200;
            other += x->status != 200;
        } else if (x->status != 200 && x->status != 503) {
            other++;   /* across a transition: 200 or 503, nothing else */
        }
    }
    fprintf(stderr, "e2e pg restart: pg_ctl stop %.2f s, start %.2f s; down %.1f s: %d answers, all 503: %s; "
                    "slowest answer %.3f s; after the start: first 200 after %.3f s, %d x 503 before 20 successes "
                    "in a row per thread (%.2f s)\n",
            t_stop1 - t_stop0, t_start1 - t_start0, t_start0 - t_stop1, down_503 + down_bad,
            down_bad ? "no" : "yes", slowest, first_ok_after, after_fail, t_back - t_start1);
    ck_assert_msg(transport == 0, "%d requests got no HTTP answer (hang or crash)", transport);
    ck_assert_msg(slow == 0, "%d answers took more than %.0f s (slowest %.1f s)", slow, MAX_ANSWER_S, slowest);
    ck_assert_msg(down_503 >= 20, "only %d answers while the database was down", down_503);
    ck_assert_msg(down_bad == 0, "%d answers while the database was down were not 503 problem+json; first: %s",
                  down_bad, first_bad);
    ck_assert_msg(other == 0, "%d answers were neither 200 nor 503", other);
    ck_assert_msg(before_ok > 0, "no success before the stop");

    /* nothing answered 200 is lost; the replay agrees */
    for (int g = 0; g < NGAMES; g++) {
        json_t *av = e2e_admin_view(c, d, L->games[g].id);
        int seq = (int)e2e_jint(av, "seq");
        json_decref(av);
        ck_assert_msg(seq >= L->ok_moves[g] && seq <= L->ok_moves[g] + L->unsure_moves[g],
                      "game %d: seq %d, %d moves answered 200, %d answered 503", g, seq, L->ok_moves[g],
                      L->unsure_moves[g]);
        ck_assert_int_eq(e2e_verify_ok(c, d, L->games[g].id), seq);
    }
    free(L->rec);
    pthread_mutex_destroy(&L->mu);
    free(L);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Clients that each keep one connection open, spread over carcd's worker threads (each connection is served
 * by one worker, and NCONN of them land on every one of the THREADS workers with near certainty). */
#define IDLE_THREADS 4
#define IDLE_CONNS 24

/* One round of a client: its game's view with its seat token (the token lookup that answered 500), that
 * seat's legal moves and one move when it is the seat's turn. The first status that is not 2xx is returned
 * (200 when none), the first such answer described in `bad`. */
static long idle_round(e2e_client *c, const e2e_game *g, e2e_rng *rng, char *bad, size_t nbad)
{
    long worst = 200;
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    for (int seat = 0; seat < g->nplayers; seat++) {
        e2e_resp r;
        long st = e2e_req(c, "GET", path, g->token[seat], NULL, NULL, &r);
        if (st < 200 || st > 299) {
            if (!bad[0])
                snprintf(bad, nbad, "GET %s: %ld %.200s", path, st, r.body ? r.body : "");
            if (worst == 200)
                worst = st;
        }
        e2e_resp_free(&r);
    }
    e2e_play p;
    long st = e2e_play_random(c, g, rng, NULL, &p);
    if (st != 200 && st != E2E_FINISHED) {
        if (!bad[0])
            snprintf(bad, nbad, "a move: %ld %.200s", st, p.post.body ? p.post.body : "");
        if (worst == 200)
            worst = st;
    }
    e2e_play_free(&p);
    return worst;
}

START_TEST(immediate_restart_while_idle)
{
    e2e_pg_discover();
    char threads[32];
    snprintf(threads, sizeof threads, "CARCD_THREADS=%d", IDLE_THREADS);
    const char *env[] = {threads, NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c[IDLE_CONNS];
    e2e_game g[IDLE_CONNS];
    e2e_rng rng = {4242};
    char bad[400] = "";
    for (int i = 0; i < IDLE_CONNS; i++) {
        c[i] = e2e_client_new(d);
        e2e_client_timeout(c[i], 15000);
        e2e_game_create(c[i], 2, NULL, &g[i]);
    }
    for (int i = 0; i < IDLE_CONNS; i++)   /* every worker has a connection to the database, all idle after */
        ck_assert_msg(idle_round(c[i], &g[i], &rng, bad, sizeof bad) == 200, "before the restart: %s", bad);

    double t0 = e2e_now();
    e2e_pg_stop_mode("immediate");
    e2e_pg_start();
    double t1 = e2e_now();
    nap_ms(1500);   /* carcd idle meanwhile: its notify thread may or may not have seen the restart yet */

    int non2xx = 0, n500 = 0, n503 = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < IDLE_CONNS; i++) {
            long st = idle_round(c[i], &g[i], &rng, bad, sizeof bad);
            non2xx += st != 200;
            n500 += st == 500;
            n503 += st == 503;
        }
    fprintf(stderr, "e2e pg restart: -m immediate while idle (restart %.2f s): %d rounds of %d connections after it, "
                    "%d not 2xx (%d x 500, %d x 503)\n",
            t1 - t0, 2, IDLE_CONNS, non2xx, n500, n503);
    ck_assert_msg(non2xx == 0, "%d rounds after the restart were not all 2xx; the first: %s", non2xx, bad);
    char *log = e2e_daemon_log(d);
    ck_assert_msg(!strstr(log, "\"status\":500"), "carcd answered a 500 after the restart");
    free(log);
    for (int i = 0; i < IDLE_CONNS; i++)
        e2e_client_free(c[i]);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_pg_restart");
    TCase *tc = e2e_tcase("pg_restart", 120);
    tcase_add_test(tc, postgres_restart_under_load);
    tcase_add_test(tc, immediate_restart_while_idle);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
