/*
 * test_crash.c — carcd killed with SIGKILL in the middle of a load and started again: every move answered
 * 200 is in its game (seq >= the 200s, and re-posting each with its Idempotency-Key gives back the answer
 * stored with the move), the games go on, and the replay agrees for all of them. And SIGHUP stops it cleanly.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "e2e.h"

#define NGAMES 8
#define NTHREADS 6
#define KILL_AFTER 150       /* moves answered 200 before the kill */

typedef struct {
    int game, seat, seq;
    char key[48];
    char *body;
    json_t *answer;
} done_move;

typedef struct {
    e2e_daemon *d;
    e2e_game games[NGAMES];
    atomic_bool stop;
    atomic_int total_ok;
    pthread_mutex_t mu;
    done_move *ok;
    int nok, cap;
    int unexpected;
    char first_unexpected[1024];   /* room for status, curl error (256) and 400 bytes of body */
    int transport_errors;
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
    e2e_client_timeout(c, 10000);
    e2e_rng rng = {7000u + (uint64_t)w->id};
    for (int n = 0; !atomic_load(&L->stop); n++) {
        int gi = (int)e2e_rng_below(&rng, NGAMES);
        char key[48];
        snprintf(key, sizeof key, "crash-w%d-%d", w->id, n);
        e2e_play p;
        long st = e2e_play_random(c, &L->games[gi], &rng, key, &p);
        pthread_mutex_lock(&L->mu);
        if (st == 200) {
            if (L->nok == L->cap) {
                L->cap = L->cap ? 2 * L->cap : 256;
                L->ok = realloc(L->ok, (size_t)L->cap * sizeof *L->ok);
            }
            done_move *m = &L->ok[L->nok++];
            m->game = gi;
            m->seat = p.seat;
            m->seq = p.expected_seq + 1;
            snprintf(m->key, sizeof m->key, "%s", key);
            json_t *b = json_pack("{s:i, s:O}", "expected_seq", p.expected_seq, "move", p.move);
            m->body = json_dumps(b, JSON_COMPACT);
            json_decref(b);
            m->answer = json_incref(p.post.json);
            atomic_fetch_add(&L->total_ok, 1);
        } else if (st == 0 || st == -1) {
            L->transport_errors++;   /* the daemon is gone (after the kill) */
        } else if (!(st == 409 && e2e_problem_is(&p.post, "stale-seq")) && st != E2E_FINISHED) {
            if (!atomic_load(&L->stop) && L->unexpected++ == 0)
                snprintf(L->first_unexpected, sizeof L->first_unexpected, "status %ld %s %.400s", st,
                         p.post.curl_error, p.post.body ? p.post.body : "");
        }
        pthread_mutex_unlock(&L->mu);
        e2e_play_free(&p);
    }
    e2e_client_free(c);
    return NULL;
}

START_TEST(sigkill_under_load)
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
    for (int t = 0; t < NTHREADS; t++) {
        wa[t] = (worker_arg){L, t};
        pthread_create(&th[t], NULL, worker, &wa[t]);
    }
    double t0 = e2e_now();
    while (atomic_load(&L->total_ok) < KILL_AFTER && e2e_now() - t0 < 60) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    ck_assert_msg(atomic_load(&L->total_ok) >= KILL_AFTER, "only %d moves in 60 s", atomic_load(&L->total_ok));
    e2e_daemon_kill9(d);
    int at_kill = atomic_load(&L->total_ok);
    atomic_store(&L->stop, true);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    ck_assert_msg(L->unexpected == 0, "%d unexpected answers under load; the first: %s", L->unexpected,
                  L->first_unexpected);
    fprintf(stderr, "e2e sigkill: killed after %d moves answered 200 (%d by the time the clients stopped), "
                    "%d requests failed at transport level after it\n",
            at_kill, L->nok, L->transport_errors);

    e2e_daemon_start(d);
    e2e_client_retarget(c, d);

    /* every 200 is in its game */
    int count[NGAMES] = {0};
    for (int i = 0; i < L->nok; i++)
        count[L->ok[i].game]++;
    int seq[NGAMES];
    for (int g = 0; g < NGAMES; g++) {
        json_t *av = e2e_admin_view(c, d, L->games[g].id);
        seq[g] = (int)e2e_jint(av, "seq");
        json_decref(av);
        ck_assert_msg(seq[g] >= count[g], "game %d: seq %d after the restart, but %d moves were answered 200", g,
                      seq[g], count[g]);
    }
    for (int i = 0; i < L->nok; i++) {
        done_move *m = &L->ok[i];
        ck_assert_msg(m->seq <= seq[m->game], "game %d: a 200 for seq %d, the game is at %d", m->game, m->seq,
                      seq[m->game]);
        for (int k = 0; k < i; k++)
            ck_assert_msg(!(L->ok[k].game == m->game && L->ok[k].seq == m->seq), "game %d: two 200s for seq %d",
                          m->game, m->seq);
        char path[160], h[120];
        snprintf(path, sizeof path, "/v1/games/%s/moves", L->games[m->game].id);
        snprintf(h, sizeof h, "Idempotency-Key: %s", m->key);
        const char *hdrs[] = {h, NULL};
        e2e_resp r;
        long st = e2e_req(c, "POST", path, L->games[m->game].token[m->seat], m->body, hdrs, &r);
        ck_assert_msg(st == 200 && json_equal(r.json, m->answer),
                      "game %d seq %d: the move answered 200 before the kill is not in the log: %ld %.300s", m->game,
                      m->seq, st, r.body);
        e2e_resp_free(&r);
    }
    /* and each seat's log holds the events its 200 answers carried */
    for (int g = 0; g < NGAMES; g++)
        for (int s = 0; s < L->games[g].nplayers; s++) {
            long st;
            json_t *log = e2e_events_log(c, L->games[g].id, L->games[g].token[s], &st);
            ck_assert_msg(log != NULL, "game %d seat %d: GET /events: %ld", g, s, st);
            e2e_assert_log_complete(log, seq[g], "a seat's log after the restart");
            for (int i = 0; i < L->nok; i++) {
                done_move *m = &L->ok[i];
                if (m->game != g || m->seat != s)
                    continue;
                ck_assert_msg(json_equal(json_object_get(json_array_get(log, (size_t)m->seq), "events"),
                                         json_object_get(m->answer, "events")),
                              "game %d seq %d: the log's events differ from the 200 answer's", g, m->seq);
            }
            json_decref(log);
        }
    /* the games go on, and replay agrees */
    e2e_rng rng = {99};
    for (int g = 0; g < NGAMES; g++) {
        e2e_play p;
        long st = e2e_play_random(c, &L->games[g], &rng, NULL, &p);
        ck_assert_msg(st == 200 || st == E2E_FINISHED, "game %d: the next move after the restart: %ld %.300s", g, st,
                      p.post.body ? p.post.body : "");
        if (st == 200) {
            ck_assert_int_eq(e2e_jint(p.post.json, "seq"), seq[g] + 1);
            seq[g]++;
        }
        e2e_play_free(&p);
        ck_assert_int_eq(e2e_verify_ok(c, d, L->games[g].id), seq[g]);
    }
    for (int i = 0; i < L->nok; i++) {
        free(L->ok[i].body);
        json_decref(L->ok[i].answer);
    }
    free(L->ok);
    pthread_mutex_destroy(&L->mu);
    free(L);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* SIGHUP (a closed terminal, a supervisor's reload) stops carcd as SIGTERM does, where it killed it on the
 * spot: a held long-poll is answered 503, the log says so, and carcd exits 0. */
START_TEST(sighup_stops_cleanly)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=0&wait=20", g.id);
    e2e_async h = {.d = d, .method = "GET", .path = path};
    e2e_async_start(&h);
    struct timespec nap = {0, 300 * 1000 * 1000};
    nanosleep(&nap, NULL);   /* the poll is held by then */
    kill(d->pid, SIGHUP);
    ck_assert_int_eq(e2e_async_join(&h), 503);
    int st = 0;
    for (int i = 0; i < 500 && waitpid(d->pid, &st, WNOHANG) == 0; i++)
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "carcd did not exit 0 on SIGHUP (wait status %d)", st);
    d->pid = 0;
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, "SIGHUP: stopping") != NULL, "no stop in the log: %s", log);
    free(log);
    e2e_resp_free(&h.r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_crash");
    TCase *tc = e2e_tcase("crash", 120);
    tcase_add_test(tc, sigkill_under_load);
    tcase_add_test(tc, sighup_stops_cleanly);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
