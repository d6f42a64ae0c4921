/*
 * test_cancel.c — POST /v1/admin/games/{id}/cancel end to end: the game, with a turn clock and a seat's webhook
 * (a libmicrohttpd receiver on 127.0.0.1), is cancelled by the admin while a long-poll waits on its events.
 * Checked: only the admin token may (401, 403); the long-poll wakes with the cancel's entry (seat null, by
 * admin, cancelled, the reason); the view says cancelled (no winner, nothing pending, no clock) and the clock
 * worker has nothing left (clock_due NULL in the database); the audit log has the row; the receiver gets
 * game.finished with reason cancelled, no winner and no seed; moves, resignations and a second cancel are
 * 409; legal-moves lists nothing; verify and export still replay the log, from a restarted process too, whose
 * events of the game are derived by replay (the cancel's entry among them), and the game is not compacted; a
 * finished game cannot be cancelled.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"
#include "openapi.h"
#include "hooks.h"

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

typedef struct {
    const char *type, *reason;
} hook_want;

static bool is_hook(const json_t *j, const void *arg)
{
    const hook_want *w = arg;
    return strcmp(e2e_jstr(j, "type"), w->type) == 0 && (!w->reason || strcmp(e2e_jstr(j, "data.reason"), w->reason) == 0);
}

/* The first body whose type is `type` and whose data.reason is `reason` (NULL: any), waiting up to 10 s. */
static json_t *wait_body(e2e_hooks *R, const char *type, const char *reason)
{
    hook_want w = {type, reason};
    return e2e_hooks_wait(R, NULL, is_hook, &w, 10);
}

/* ---- a long-poll on the game's events, in a thread -------------------------------------------------------- */
typedef struct {
    const e2e_daemon *d;
    char path[200];
    e2e_resp r;
    double t_answered;
} poll_arg;

static void *poll_thread(void *arg)
{
    poll_arg *a = arg;
    e2e_client *c = e2e_client_new(a->d);
    e2e_client_timeout(c, 30000);
    e2e_req(c, "GET", a->path, NULL, NULL, NULL, &a->r);
    a->t_answered = e2e_now();
    e2e_client_free(c);
    return NULL;
}

START_TEST(admin_cancel)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_hooks *R = e2e_hooks_start();

    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL,
                                         "{\"clock\":{\"per_move_s\":3600,\"reserve_s\":0,\"timeout\":\"skip\"}}",
                                         false, &g), 201);
    char path[200], body[300];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", g.id);
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/seat1\",\"format\":\"json\"}", e2e_hooks_port(R));
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[1], body, NULL, &r), 201);
    e2e_resp_free(&r);
    e2e_rng rng = {0xca};
    int seq = 0;
    for (int i = 0; i < 4; i++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
        seq = p.expected_seq + 1;
        e2e_play_free(&p);
    }
    char q[160];
    snprintf(q, sizeof q, "SELECT count(*) FROM games WHERE id = '%s' AND clock_due IS NOT NULL", g.id);
    ck_assert_int_eq(e2e_db_long(d, q), 1);

    /* who may */
    char cancel[200];
    snprintf(cancel, sizeof cancel, "/v1/admin/games/%s/cancel", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", cancel, NULL, NULL, NULL, &r), 401);
    e2e_assert_problem(&r, 401, "Authorization", "cancel without a token");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", cancel, g.token[0], NULL, NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", cancel, d->admin, "{\"reason\":\"\"}", NULL, &r), 400);
    e2e_resp_free(&r);

    /* a long-poll waits on the game's events */
    poll_arg pa = {.d = d};
    snprintf(pa.path, sizeof pa.path, "/v1/games/%s/events?after=%d&wait=20", g.id, seq);
    pthread_t th;
    pthread_create(&th, NULL, poll_thread, &pa);
    nap(0.3);
    double t_cancel = e2e_now();
    ck_assert_int_eq(e2e_req(c, "POST", cancel, d->admin, "{\"reason\":\"reported abuse\"}", NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "cancelled");
    ck_assert_int_eq(e2e_jint(r.json, "seq"), seq + 1);
    e2e_resp_free(&r);
    pthread_join(th, NULL);
    ck_assert_int_eq(pa.r.status, 200);
    json_t *e = json_array_get(json_object_get(pa.r.json, "entries"), 0);
    ck_assert_msg(e && e2e_jint(e, "seq") == seq + 1, "the long-poll's answer: %s", pa.r.body);
    ck_assert(json_is_null(json_object_get(e, "seat")));
    ck_assert_str_eq(e2e_jstr(e, "by"), "admin");
    ck_assert(json_is_true(json_object_get(e, "cancelled")));
    ck_assert_str_eq(e2e_jstr(e, "reason"), "reported abuse");
    ck_assert_msg(pa.t_answered - t_cancel < 5 * E2E_SLACK, "the long-poll woke %.2f s after the cancel",
                  pa.t_answered - t_cancel);
    fprintf(stderr, "e2e cancel: the waiting long-poll answered %.3f s after the cancel was sent\n",
            pa.t_answered - t_cancel);
    e2e_resp_free(&pa.r);

    /* the game as everyone sees it; the clock worker has nothing left to do */
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_str_eq(e2e_jstr(v, "pending.kind"), "none");
    ck_assert_int_eq(json_array_size(json_object_get(v, "winners")), 0);
    ck_assert(json_is_null(json_object_get(v, "clock")));
    ck_assert(json_object_get(v, "seed") == NULL || strcmp(e2e_jstr(v, "seed"), "") == 0);
    char seed_sha[80];
    snprintf(seed_sha, sizeof seed_sha, "%s", e2e_jstr(v, "seed_sha256"));
    ck_assert_uint_eq(strlen(seed_sha), 64);
    json_decref(v);
    ck_assert_int_eq(e2e_db_long(d, q), 0);

    /* the audit log */
    snprintf(path, sizeof path, "/v1/admin/audit?action=admin.games.cancel&game=%s", g.id);
    json_t *a = e2e_get_ok(c, path, d->admin, 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "entries")), 1);
    json_t *row = json_array_get(json_object_get(a, "entries"), 0);
    ck_assert_str_eq(e2e_jstr(row, "detail.reason"), "reported abuse");
    ck_assert_int_eq(e2e_jint(row, "detail.seq"), seq + 1);
    json_decref(a);

    /* the webhook: game.finished, reason cancelled, no winner, the seed kept */
    json_t *w = wait_body(R, "game.finished", "cancelled");
    ck_assert_msg(w != NULL, "no game.finished with reason cancelled reached the receiver");
    ck_assert_int_eq(e2e_jint(w, "data.seq"), seq + 1);
    ck_assert_int_eq(json_array_size(e2e_jget(w, "data.winners")), 0);
    ck_assert_str_eq(e2e_jstr(w, "data.seed"), "");
    ck_assert_str_eq(e2e_jstr(w, "data.seed_sha256"), seed_sha);   /* published at creation: said again */
    ck_assert_str_eq(e2e_jstr(w, "data.cancelled_by"), "admin");
    e2e_openapi_load();
    char why[600];
    ck_assert_msg(e2e_schema_validate(e2e_jget(e2e_openapi_doc(), "components.schemas.GameFinishedPayload"), w, "$",
                                      why, sizeof why),
                  "game.finished does not match its schema: %s", why);
    json_decref(w);

    /* afterwards */
    e2e_play p;
    snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
    snprintf(body, sizeof body, "{\"notation\":\"pass\",\"expected_seq\":%d}", seq + 1);
    for (int s = 0; s < 2; s++) {
        ck_assert_int_eq(e2e_req(c, "POST", path, g.token[s], body, NULL, &r), 409);
        e2e_assert_problem(&r, 409, NULL, "a move on a cancelled game");
        ck_assert(e2e_problem_is(&r, "game-cancelled"));
        e2e_resp_free(&r);
    }
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], NULL, NULL, &r), 409);
    ck_assert(e2e_problem_is(&r, "game-cancelled"));   /* in a move's words */
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", cancel, d->admin, NULL, NULL, &r), 409);
    ck_assert(e2e_problem_is(&r, "game-cancelled"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g.id);
    json_t *lm = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_int_eq(json_array_size(json_object_get(lm, "moves")), 0);
    json_decref(lm);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq + 1);
    (void)p;

    /* export and verify replay the log through the cancel (daemon/game/move_log.c): the export lists the seats'
     * moves, the cancel ends it; and again from a restarted process, whose event cache is empty, so the events
     * of every entry, the cancel's too, are derived by replay. A cancelled game is not compacted (only finished
     * ones are): its log stays in rows. */
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            e2e_daemon_stop(d);
            e2e_daemon_start(d);
            e2e_client_retarget(c, d);
        }
        snprintf(path, sizeof path, "/v1/admin/games/%s/export", g.id);
        json_t *x = e2e_get_ok(c, path, d->admin, 200);
        ck_assert_str_eq(e2e_jstr(x, "status"), "cancelled");
        ck_assert_int_eq(e2e_jint(x, "seq"), seq + 1);
        json_t *xm = json_object_get(x, "moves");
        ck_assert_int_eq(json_array_size(xm), seq);
        ck_assert_int_eq(e2e_jint(json_array_get(xm, json_array_size(xm) - 1), "seq"), seq);
        json_decref(x);
        ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq + 1);
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", g.id, seq - 2);
        json_t *ev = e2e_get_ok(c, path, g.token[0], 200);
        json_t *ents = json_object_get(ev, "entries");
        ck_assert_int_eq(json_array_size(ents), 3);
        ck_assert_msg(json_array_size(json_object_get(json_array_get(ents, 0), "events")) +
                          json_array_size(json_object_get(json_array_get(ents, 1), "events")) > 0,
                      "the seats' last moves have no events");
        json_t *last = json_array_get(ents, 2);
        ck_assert_int_eq(e2e_jint(last, "seq"), seq + 1);
        ck_assert(json_is_null(json_object_get(last, "seat")));
        ck_assert_str_eq(e2e_jstr(last, "by"), "admin");
        ck_assert(json_is_true(json_object_get(last, "cancelled")));
        ck_assert_str_eq(e2e_jstr(last, "reason"), "reported abuse");
        ck_assert_int_eq(json_array_size(json_object_get(last, "events")), 0);
        json_decref(ev);
    }
    snprintf(q, sizeof q, "SELECT count(*) FROM games WHERE id = '%s' AND log IS NULL", g.id);
    ck_assert_int_eq(e2e_db_long(d, q), 1);

    /* a finished game: nothing to cancel */
    e2e_game f;
    e2e_game_create(c, 2, NULL, &f);
    long st = 200;
    for (int i = 0; i < 400 && st == 200; i++) {
        st = e2e_play_random(c, &f, &rng, NULL, &p);
        e2e_play_free(&p);
    }
    ck_assert_int_eq(st, E2E_FINISHED);
    snprintf(cancel, sizeof cancel, "/v1/admin/games/%s/cancel", f.id);
    ck_assert_int_eq(e2e_req(c, "POST", cancel, d->admin, NULL, NULL, &r), 409);
    ck_assert(e2e_problem_is(&r, "game-over"));
    e2e_resp_free(&r);

    e2e_hooks_stop(R);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_cancel");
    TCase *tc = e2e_tcase("cancel", 120);
    tcase_add_test(tc, admin_cancel);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
