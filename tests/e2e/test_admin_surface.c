/*
 * test_admin_surface.c — what an admin or a scraper sees and leaves behind, through the real carcd:
 *   - every admin read or change of a game's webhooks (create, list, get, deliveries, redeliver, delete) is
 *     in the audit log with the endpoint's id, and a seat's own reads of its endpoints are not;
 *   - a delivery's attempts name an opaque worker id, never the host name or PID of the carcd that sent it;
 *   - legal-moves' ?seat= must be a seat number: empty, "+1", " 1" are 400 naming `seat`, not seat 0;
 *   - a seat token's ?seat= naming another seat is a 403, for reads and moves, not ignored;
 *   - the admin's read of a game's invitations (their addresses) is audited;
 *   - /metrics with CARCD_METRICS_TOKEN set asks for that bearer token (401 problem without it, with a wrong
 *     one or with the admin token) and is open without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static json_t *audit_of(e2e_client *c, const e2e_daemon *d, const char *game)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/audit?game=%s&limit=200", game);
    json_t *j = e2e_get_ok(c, path, d->admin, 200);
    json_t *e = json_incref(json_object_get(j, "entries"));
    json_decref(j);
    return e;
}

/* Rows of `action`, and of those the ones whose detail names webhook `wid` (when wid is not NULL). */
static int rows_of(const json_t *entries, const char *action, const char *wid)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) if (strcmp(e2e_jstr(e, "action"), action) == 0 &&
                                          (!wid || strcmp(e2e_jstr(e, "detail.webhook"), wid) == 0)) n++;
    return n;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits (up to 15 s) for the endpoint's newest delivery to have a finished attempt: that delivery. */
static json_t *finished_delivery(e2e_client *c, const char *gid, const char *wid, const char *token)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries", gid, wid);
    for (int i = 0; i < 150; i++) {
        json_t *j = e2e_get_ok(c, path, token, 200);
        json_t *d = json_array_get(json_object_get(j, "deliveries"), 0);
        if (d && json_array_size(json_object_get(d, "attempts")) > 0 &&
            json_is_string(e2e_jget(d, "attempts.0.finished_at"))) {
            json_incref(d);
            json_decref(j);
            return d;
        }
        json_decref(j);
        nap_ms(100);
    }
    ck_abort_msg("no finished delivery attempt to %s", wid);
    return NULL;
}

/* Nothing listens on port 9 of loopback: every attempt fails fast and is recorded. */
#define DEAD_URL "http://127.0.0.1:9/hook"

START_TEST(webhook_admin_actions_are_audited)
{
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,60", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char path[300];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", g.id);
    e2e_resp r;
    /* a seat's own endpoint and reads: no audit rows */
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], "{\"url\":\"" DEAD_URL "\"}", NULL, &r), 201);
    char seat_wid[40];
    snprintf(seat_wid, sizeof seat_wid, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    json_decref(e2e_get_ok(c, path, g.token[0], 200));
    json_t *before = audit_of(c, d, g.id);
    size_t n0 = json_array_size(before);
    ck_assert_int_eq(rows_of(before, "webhooks.create", NULL) + rows_of(before, "webhooks.list", NULL), 0);
    json_decref(before);

    /* the admin: create, list, get, deliveries, redeliver, delete */
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"url\":\"" DEAD_URL "\"}", NULL, &r), 201);
    char wid[40];
    snprintf(wid, sizeof wid, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    e2e_rng rng = {0xa0d17};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);   /* a move.made for the admin's endpoint */
    e2e_play_free(&p);
    json_t *list = e2e_get_ok(c, path, d->admin, 200);
    ck_assert_int_eq(json_array_size(json_object_get(list, "webhooks")), 2);
    json_decref(list);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s", g.id, wid);
    json_decref(e2e_get_ok(c, path, d->admin, 200));
    json_t *del = finished_delivery(c, g.id, wid, d->admin);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries/%lld/redeliver", g.id, wid,
             e2e_jint(del, "id"));
    json_decref(del);
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, NULL, NULL, &r), 202);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s", g.id, wid);
    ck_assert_int_eq(e2e_req(c, "DELETE", path, d->admin, NULL, NULL, &r), 204);
    e2e_resp_free(&r);

    json_t *after = audit_of(c, d, g.id);
    ck_assert_int_eq(rows_of(after, "webhooks.create", wid), 1);
    ck_assert_int_eq(rows_of(after, "webhooks.list", NULL), 1);
    ck_assert_int_eq(rows_of(after, "webhooks.get", wid), 1);
    ck_assert_int_ge(rows_of(after, "webhooks.deliveries", wid), 1);   /* polled until an attempt finished */
    ck_assert_int_eq(rows_of(after, "webhooks.redeliver", wid), 1);
    ck_assert_int_eq(rows_of(after, "webhooks.delete", wid), 1);
    ck_assert_int_ge(json_array_size(after), n0 + 6);
    json_decref(after);

    /* the seat's delivery names a worker id, not this machine and the PID of carcd */
    json_t *sd = finished_delivery(c, g.id, seat_wid, g.token[0]);
    const char *worker = e2e_jstr(sd, "attempts.0.worker");
    char host[256] = "", pid[32];
    gethostname(host, sizeof host);
    snprintf(pid, sizeof pid, ":%d", (int)d->pid);
    ck_assert_msg(strlen(worker) == 18 && strncmp(worker, "w-", 2) == 0 &&
                      strspn(worker + 2, "0123456789abcdef") == 16,
                  "worker \"%s\" is not an opaque id", worker);
    ck_assert_msg(!host[0] || !strstr(worker, host), "worker \"%s\" names the host", worker);
    ck_assert_msg(!strstr(worker, pid), "worker \"%s\" names the PID", worker);
    /* ... and the log maps that id to the host and PID, for the operator */
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, worker) != NULL, "the log does not name the worker id %s", worker);
    free(log);
    json_decref(sd);

    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The admin's read of a waiting game's invitations (their mail addresses) is in the audit log; the creator's is
 * not. */
START_TEST(admin_invitations_read_is_audited)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true}]}",
                             NULL, &r), 201);
    char id[40], creator[80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/invites", id);
    json_decref(e2e_get_ok(c, path, creator, 200));
    json_t *a = audit_of(c, d, id);
    ck_assert_int_eq(rows_of(a, "games.invites", NULL), 0);
    json_decref(a);
    json_decref(e2e_get_ok(c, path, d->admin, 200));
    a = audit_of(c, d, id);
    ck_assert_int_eq(rows_of(a, "games.invites", NULL), 1);
    json_decref(a);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(admin_seat_argument_is_a_number)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    static const char *const bad[] = {"?seat=", "?seat=+1", "?seat=%201", "?seat=1x", "?seat=-0", "?seat=2",
                                      "?seat=00000000001", "?seat", "", NULL};
    char path[200];
    for (int i = 0; bad[i]; i++) {
        snprintf(path, sizeof path, "/v1/games/%s/legal-moves%s", g.id, bad[i]);
        e2e_resp r;
        e2e_req(c, "GET", path, d->admin, NULL, NULL, &r);
        e2e_assert_problem(&r, 400, "seat", path);
        e2e_resp_free(&r);
    }
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves?seat=0", g.id);
    json_t *j = e2e_get_ok(c, path, d->admin, 200);
    ck_assert_int_gt(json_array_size(json_object_get(j, "moves")), 0);
    json_decref(j);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves?seat=1", g.id);
    j = e2e_get_ok(c, path, d->admin, 200);
    ck_assert_int_eq(json_array_size(json_object_get(j, "moves")), 0);   /* seat 1 waits */
    json_decref(j);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A seat token stands for its own seat: a ?seat= naming another is refused (403 naming `seat`), not ignored,
 * for reads and for moves, and the game is unchanged; its own number is accepted. */
START_TEST(seat_token_names_only_its_own_seat)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char path[200], own[200];
    snprintf(own, sizeof own, "/v1/games/%s/legal-moves?seat=0", g.id);
    json_t *lm = e2e_get_ok(c, own, g.token[0], 200);
    ck_assert_int_gt(json_array_size(json_object_get(lm, "moves")), 0);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves?seat=1", g.id);
    e2e_resp r;
    e2e_req(c, "GET", path, g.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 403, "seat", path);
    ck_assert_msg(strstr(r.body, "seat 0's") != NULL, "%s", r.body);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves?seat=1x", g.id);
    e2e_req(c, "GET", path, g.token[1], NULL, NULL, &r);
    e2e_assert_problem(&r, 400, "seat", path);
    e2e_resp_free(&r);

    json_t *body = json_pack("{s:i,s:O}", "expected_seq", 0, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *text = json_dumps(body, JSON_COMPACT);
    snprintf(path, sizeof path, "/v1/games/%s/moves?seat=1", g.id);
    e2e_req(c, "POST", path, g.token[0], text, NULL, &r);
    e2e_assert_problem(&r, 403, "seat", path);
    e2e_resp_free(&r);
    json_t *v = e2e_admin_view(c, d, g.id);
    ck_assert_int_eq(json_integer_value(json_object_get(v, "seq")), 0);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/moves?seat=0", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], text, NULL, &r), 200);
    e2e_resp_free(&r);
    free(text);
    json_decref(body);
    json_decref(lm);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(metrics_token)
{
    /* without a token /metrics is open */
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);

    const char *env[] = {"CARCD_METRICS_TOKEN=scrape-me-7f3a", NULL};
    d = e2e_daemon_up(env);
    c = e2e_client_new(d);
    const char *denied[] = {NULL, "scrape-me-7f3b", "scrape-me-7f3", d->admin};
    for (int i = 0; i < 4; i++) {
        e2e_req(c, "GET", "/metrics", denied[i], NULL, NULL, &r);
        e2e_assert_problem(&r, 401, "Authorization", "/metrics without the metrics token");
        ck_assert_msg(!strstr(r.body, "carcd_http_requests_total"), "metrics leaked in a 401");
        e2e_resp_free(&r);
    }
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", "scrape-me-7f3a", NULL, NULL, &r), 200);
    ck_assert_msg(strstr(r.body, "carcd_http_requests_total") != NULL, "%.200s", r.body);
    e2e_resp_free(&r);
    /* the readiness probe stays open */
    ck_assert_int_eq(e2e_req(c, "GET", "/readyz", NULL, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The value of the first sample of `series` (a metric name with its labels, as printed), or -1. */
static double sample(const char *text, const char *series)
{
    size_t n = strlen(series);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, series, n) == 0 && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

static char *scrape(e2e_client *c)
{
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &r), 200);
    char *t = strdup(r.body);
    e2e_resp_free(&r);
    return t;
}

/* Every series an operator looks for is there, with values that follow what happened: the process, the
 * build, database round trips, games by status, the webhook backlog and its exhausted messages, attempt
 * durations, open event streams, the clock worker's counters. */
START_TEST(metrics_an_operator_reads)
{
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    char *m = scrape(c);
    ck_assert_msg(sample(m, "process_resident_memory_bytes") > 1e6, "RSS");
    ck_assert_msg(sample(m, "process_cpu_seconds_total") >= 0, "CPU");
    ck_assert_msg(sample(m, "process_open_fds") >= 5 && sample(m, "process_max_fds") > 0, "fds");
    double start = sample(m, "process_start_time_seconds");
    ck_assert_msg(start > 1.6e9 && start <= (double)time(NULL) + 1, "start time %f", start);
    const char *bi = strstr(m, "carcd_build_info{version=\"");
    ck_assert_msg(bi && strstr(bi, "\",commit=\"") && strstr(bi, "\"} 1\n"), "no carcd_build_info");
    ck_assert_msg(sample(m, "carcd_db_roundtrip_seconds_count") > 0, "no database round trip counted");
    ck_assert_msg(sample(m, "carcd_db_retries_total{sqlstate=\"40001\"}") == 0 &&
                      sample(m, "carcd_db_retries_total{sqlstate=\"40P01\"}") == 0, "retries");
    ck_assert_int_eq(sample(m, "carcd_db_gauges_up"), 1);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"active\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"waiting\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"cancelled\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_sse_streams_open"), 0);
    ck_assert_int_eq(sample(m, "carcd_clock_actions_total{action=\"reminder\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_clock_actions_total{action=\"timeout\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_clock_lag_seconds_count"), 0);
    ck_assert_int_eq(sample(m, "carcd_clocks_overdue"), 0);
    double rt0 = sample(m, "carcd_db_roundtrip_seconds_count");
    free(m);

    /* two games, one endpoint nobody answers, with one attempt in its schedule */
    e2e_game g, g2;
    e2e_game_create(c, 2, NULL, &g);
    e2e_game_create(c, 3, NULL, &g2);
    char path[300];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"url\":\"" DEAD_URL "\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    e2e_rng rng = {0x3e7};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    double exhausted = 0;
    for (int i = 0; i < 100 && exhausted < 2; i++) {   /* move.made and turn.started: one attempt each */
        nap_ms(100);
        m = scrape(c);
        exhausted = sample(m, "carcd_webhook_deliveries_exhausted_total");
        free(m);
    }
    ck_assert_int_eq(exhausted, 2);

    /* an event stream held open while we look */
    e2e_client *sc = e2e_client_new(d);
    e2e_client_timeout(sc, 4000);
    snprintf(path, sizeof path, "/v1/games/%s/events?wait=3", g2.id);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {   /* the stream's client: its own process, so this one can scrape meanwhile */
        const char *accept[] = {"Accept: text/event-stream", NULL};
        e2e_resp sr;
        e2e_req(sc, "GET", path, NULL, NULL, accept, &sr);
        _exit(0);
    }
    double open = 0;
    for (int i = 0; i < 40 && open < 1; i++) {
        nap_ms(50);
        m = scrape(c);
        open = sample(m, "carcd_sse_streams_open");
        free(m);
    }
    ck_assert_int_eq(open, 1);
    int status;
    waitpid(child, &status, 0);
    for (int i = 0; i < 40 && open > 0; i++) {   /* it ends with its wait */
        nap_ms(50);
        m = scrape(c);
        open = sample(m, "carcd_sse_streams_open");
        free(m);
    }
    ck_assert_int_eq(open, 0);
    e2e_client_free(sc);
    /* a waiting game, and a route late in the table: each its own series, not route="none" */
    e2e_resp lr;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"},{\"invite\":true}]}",
                             NULL, &lr), 201);
    e2e_resp_free(&lr);
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/lobby", NULL, NULL, NULL, &lr), 200);
    e2e_resp_free(&lr);

    m = scrape(c);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"active\"}"), 2);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"finished\"}"), 0);
    ck_assert_int_eq(sample(m, "carcd_games{status=\"waiting\"}"), 1);
    ck_assert_int_eq(sample(m, "carcd_http_requests_total{route=\"lobby.list\",code=\"200\"}"), 1);
    ck_assert_int_eq(sample(m, "carcd_webhook_outbox_pending"), 0);   /* both given up on: none waits */
    ck_assert_int_eq(sample(m, "carcd_webhook_outbox_oldest_age_seconds"), 0);
    ck_assert_msg(sample(m, "carcd_webhook_attempt_duration_seconds_count") >= 2, "attempts not timed");
    ck_assert_msg(sample(m, "carcd_db_roundtrip_seconds_count") > rt0 + 5, "round trips not counted");
    ck_assert_msg(sample(m, "carcd_db_roundtrip_seconds_bucket{le=\"+Inf\"}") ==
                      sample(m, "carcd_db_roundtrip_seconds_count"), "histogram count");
    free(m);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_admin_surface");
    TCase *tc = e2e_tcase("admin_surface", 90);
    tcase_add_test(tc, webhook_admin_actions_are_audited);
    tcase_add_test(tc, admin_seat_argument_is_a_number);
    tcase_add_test(tc, admin_invitations_read_is_audited);
    tcase_add_test(tc, seat_token_names_only_its_own_seat);
    tcase_add_test(tc, metrics_token);
    tcase_add_test(tc, metrics_an_operator_reads);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
