/*
 * test_webhooks.c — webhooks end to end: the real carcd against a real receiver on 127.0.0.1 (libmicrohttpd,
 * in the test process) that records every request and answers by its path:
 *   /ok...     200                          /flaky...  500 twice per webhook-id, then 200
 *   /gone...   410                          /slow...   sleeps 5 s, then 200
 *   /retry...  503 with Retry-After: 2 the first time per webhook-id, then 200
 *   /hang...   the first time per webhook-id sleeps 3 s before its 200 (carcd is killed meanwhile)
 *   /moved...  302 to /ok-redirected (which must never be asked: redirects are not followed)
 *
 * Checked: signatures verify with the secret; a message answered 500 twice arrives three times with one
 * webhook-id; Retry-After is honoured; 410 disables the endpoint; a move whose messages were not sent yet
 * when carcd was killed gets them sent after the restart, and so does one killed in the middle of sending
 * (when its lease runs out); two carcd processes on one database send every message exactly once; a slow
 * receiver delays no move and no other endpoint; loopback and private URLs are refused at creation without
 * the allowlist, and not delivered when the allowlist is gone later; payloads match the document's
 * `webhooks` schemas and hold no hidden stack, hand, bag or seed; turn.started skips a decision with one legal
 * move (the engine makes it) and goes to the next seat with a choice. Delivery is at least once: a message
 * sent again after a kill carries the same webhook-id, and the window in which a kill causes a repeat (the
 * receiver's answer to the outbox row marked delivered) stays short with many messages in flight. Also measures the latency from a move's
 * answer to its move.made at the receiver over 100 moves (printed: p50, p99).
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <libpq-fe.h>

#include "e2e.h"
#include "hooks.h"
#include "openapi.h"

/* ---- the receiver ------------------------------------------------------------------------------------------ */
typedef struct {
    char path[128], id[80], ts[32], sig[200];
    char *body;
    double t;          /* e2e_now() when the request had arrived in full */
    double wall;       /* the same moment, seconds since the epoch (to compare with the database's times) */
    int answered;      /* the status we gave */
} hit;

typedef struct {
    struct MHD_Daemon *mhd;
    int port;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    hit *hits;
    int n, cap;
} receiver;

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Earlier requests with this path and webhook-id (mu held). */
static int seen_before(receiver *R, const char *path, const char *id)
{
    int k = 0;
    for (int i = 0; i < R->n; i++)
        k += strcmp(R->hits[i].path, path) == 0 && strcmp(R->hits[i].id, id) == 0;
    return k;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *data, size_t *size, void **ctx)
{
    (void)version;
    receiver *R = cls;
    e2e_upload *u = e2e_upload_take(ctx, data, size);
    if (!u)
        return MHD_YES;
    hit h = {0};
    h.t = e2e_now();
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    h.wall = (double)wall.tv_sec + (double)wall.tv_nsec / 1e9;
    snprintf(h.path, sizeof h.path, "%s", url);
    const char *v;
    if ((v = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "webhook-id")))
        snprintf(h.id, sizeof h.id, "%s", v);
    if ((v = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "webhook-timestamp")))
        snprintf(h.ts, sizeof h.ts, "%s", v);
    if ((v = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "webhook-signature")))
        snprintf(h.sig, sizeof h.sig, "%s", v);
    h.body = u->p ? strdup(u->p) : strdup("");
    int status = 200;
    double sleep_s = 0;
    const char *retry_after = NULL;
    pthread_mutex_lock(&R->mu);
    int before = seen_before(R, h.path, h.id);
    if (strcmp(method, "POST") != 0)
        status = 405;
    else if (strncmp(url, "/flaky", 6) == 0)
        status = before < 2 ? 500 : 200;
    else if (strncmp(url, "/gone", 5) == 0)
        status = 410;
    else if (strncmp(url, "/slow", 5) == 0)
        sleep_s = 5;
    else if (strncmp(url, "/retry", 6) == 0 && before == 0) {
        status = 503;
        retry_after = "2";
    } else if (strncmp(url, "/hang", 5) == 0 && before == 0)
        sleep_s = 3;
    else if (strncmp(url, "/moved", 6) == 0)
        status = 302;
    h.answered = status;
    if (R->n == R->cap) {
        R->cap = R->cap ? 2 * R->cap : 256;
        R->hits = realloc(R->hits, (size_t)R->cap * sizeof *R->hits);
    }
    R->hits[R->n++] = h;
    pthread_cond_broadcast(&R->cv);
    pthread_mutex_unlock(&R->mu);
    if (sleep_s > 0)
        nap(sleep_s);
    struct MHD_Response *resp = MHD_create_response_from_buffer(2, (void *)"ok", MHD_RESPMEM_PERSISTENT);
    if (retry_after)
        MHD_add_response_header(resp, "Retry-After", retry_after);
    if (status == 302)
        MHD_add_response_header(resp, "Location", "/ok-redirected");
    enum MHD_Result r = MHD_queue_response(con, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return r;
}

static receiver *receiver_start(void)
{
    receiver *R = calloc(1, sizeof *R);
    pthread_mutex_init(&R->mu, NULL);
    pthread_cond_init(&R->cv, NULL);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    R->mhd = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0,
                              NULL, NULL, on_request, R, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a,
                              MHD_OPTION_NOTIFY_COMPLETED, e2e_upload_done, R, MHD_OPTION_CONNECTION_TIMEOUT,
                              (unsigned)30, MHD_OPTION_END);
    ck_assert_msg(R->mhd != NULL, "the receiver did not start");
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(R->mhd, MHD_DAEMON_INFO_BIND_PORT);
    R->port = info->port;
    return R;
}

static void receiver_stop(receiver *R)
{
    MHD_stop_daemon(R->mhd);
    for (int i = 0; i < R->n; i++)
        free(R->hits[i].body);
    free(R->hits);
    free(R);
}

/* Requests to paths starting with `prefix` so far. */
static int count_prefix(receiver *R, const char *prefix)
{
    pthread_mutex_lock(&R->mu);
    int k = 0;
    for (int i = 0; i < R->n; i++)
        k += strncmp(R->hits[i].path, prefix, strlen(prefix)) == 0;
    pthread_mutex_unlock(&R->mu);
    return k;
}

/* Waits until at least `want` requests to `prefix` arrived, or `seconds` passed; the count. */
static int wait_prefix(receiver *R, const char *prefix, int want, double seconds)
{
    double end = e2e_now() + seconds;
    int k;
    while ((k = count_prefix(R, prefix)) < want && e2e_now() < end)
        nap(0.02);
    return k;
}

/* ---- signatures ---------------------------------------------------------------------------------------------- */
/* Whether h's webhook-signature is v1,<base64 HMAC-SHA256(secret, id.ts.body)> (the verifier's own code). */
static bool signature_ok(const hit *h, const char *secret)
{
    if (strncmp(secret, "whsec_", 6) != 0)
        return false;
    unsigned char key[128];
    size_t blen = strlen(secret + 6);
    int klen = EVP_DecodeBlock(key, (const unsigned char *)secret + 6, (int)blen);
    if (klen < 0)
        return false;
    klen -= (secret[5 + blen] == '=') + (secret[4 + blen] == '=');
    size_t n = strlen(h->id) + strlen(h->ts) + strlen(h->body) + 3;
    char *content = malloc(n);
    snprintf(content, n, "%s.%s.%s", h->id, h->ts, h->body);
    unsigned char mac[32];
    unsigned int maclen = 0;
    HMAC(EVP_sha256(), key, klen, (unsigned char *)content, strlen(content), mac, &maclen);
    free(content);
    char want[64] = "v1,";
    EVP_EncodeBlock((unsigned char *)want + 3, mac, 32);
    return CRYPTO_memcmp(want, h->sig, strlen(want) + 1) == 0;
}

/* ---- carcd side helpers ------------------------------------------------------------------------------------------ */
typedef struct {
    char id[40];
    char secret[80];
} hook;

/* POST /v1/games/{id}/webhooks with `token` for url path `path` on the receiver; asserts 201. */
static hook hook_create(e2e_client *c, const e2e_game *g, const char *token, receiver *R, const char *path,
                        const char *format, const char *events)
{
    char body[400], p[120];
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d%s\",\"format\":\"%s\"%s%s}", R->port, path, format,
             events ? ",\"events\":" : "", events ? events : "");
    snprintf(p, sizeof p, "/v1/games/%s/webhooks", g->id);
    e2e_resp r;
    long st = e2e_req(c, "POST", p, token, body, NULL, &r);
    ck_assert_msg(st == 201, "POST %s %s: %ld %.300s", p, body, st, r.body);
    hook h;
    snprintf(h.id, sizeof h.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(h.secret, sizeof h.secret, "%s", e2e_jstr(r.json, "secret"));
    ck_assert_msg(strncmp(h.secret, "whsec_", 6) == 0, "secret %s", h.secret);
    e2e_resp_free(&r);
    /* shown once: never again */
    snprintf(p, sizeof p, "/v1/games/%s/webhooks/%s", g->id, h.id);
    json_t *again = e2e_get_ok(c, p, token, 200);
    ck_assert_msg(json_object_get(again, "secret") == NULL, "the secret was answered again");
    json_decref(again);
    return h;
}

/* Waits until no message is pending (or `seconds`, times E2E_SLACK, passed); the number still pending. */
static long settle(const e2e_daemon *d, double seconds)
{
    return e2e_db_long_until(d, "SELECT count(*) FROM webhook_outbox WHERE state = 'pending'", 0, seconds);
}

/* Plays one random move; asserts 200. */
static void move_ok(e2e_client *c, const e2e_game *g, e2e_rng *rng, double *answered_at, int *seq)
{
    e2e_play p;
    long st = e2e_play_random(c, g, rng, NULL, &p);
    ck_assert_msg(st == 200, "move: %ld %.300s", st, p.post.body ? p.post.body : "");
    if (answered_at)
        *answered_at = e2e_now();
    if (seq)
        *seq = p.expected_seq + 1;
    e2e_play_free(&p);
}

static json_t *deliveries(e2e_client *c, const e2e_daemon *d, const e2e_game *g, const hook *h)
{
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks/%s/deliveries?limit=200", g->id, h->id);
    return e2e_get_ok(c, p, d->admin, 200);
}

/* ---- tests ------------------------------------------------------------------------------------------------------ */
static const char *env_fast[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,1,1", NULL};
/* the same, with the public address the chat texts link to */
static const char *env_public[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,1,1",
                                   "CARCD_PUBLIC_URL=https://carc.example", NULL};

/* The signature verifies; 500, 500, 200 is three attempts with one webhook-id; Retry-After is honoured. */
START_TEST(signed_and_retried)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    char extra[400];
    snprintf(extra, sizeof extra,
             "{\"players\":[{\"name\":\"Ann\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/flaky\"}},"
             "{\"name\":\"Bob\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/retry\",\"events\":[\"move.made\"]}}]}",
             R->port, R->port);
    /* e2e_game_create_raw adds P0, P1 as players: replace them with ours through `extra` */
    e2e_resp r;
    long st = e2e_req(c, "POST", "/v1/games", NULL, extra, NULL, &r);
    ck_assert_msg(st == 201, "create: %ld %.300s", st, r.body);
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    g.nplayers = 2;
    char secret[2][80];
    hook seat_hook[2];
    for (int s = 0; s < 2; s++) {
        json_t *p = json_array_get(json_object_get(r.json, "players"), (size_t)s);
        snprintf(g.token[s], sizeof g.token[s], "%s", e2e_jstr(p, "token"));
        snprintf(secret[s], sizeof secret[s], "%s", e2e_jstr(p, "webhook.secret"));
        snprintf(seat_hook[s].id, sizeof seat_hook[s].id, "%s", e2e_jstr(p, "webhook.id"));
        ck_assert_msg(strncmp(secret[s], "whsec_", 6) == 0, "players[%d].webhook: %s", s, r.body);
    }
    e2e_resp_free(&r);

    /* the opening turn.started goes to seat 0 (/flaky): 500, 500, then 200, about a second apart */
    ck_assert_int_eq(wait_prefix(R, "/flaky", 3, 15), 3);
    pthread_mutex_lock(&R->mu);
    hit *f[3];
    int nf = 0;
    for (int i = 0; i < R->n && nf < 3; i++)
        if (strcmp(R->hits[i].path, "/flaky") == 0)
            f[nf++] = &R->hits[i];
    ck_assert_int_eq(f[0]->answered, 500);
    ck_assert_int_eq(f[1]->answered, 500);
    ck_assert_int_eq(f[2]->answered, 200);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(f[i]->id, f[0]->id);
        ck_assert_msg(signature_ok(f[i], secret[0]), "attempt %d: the signature does not verify", i + 1);
        ck_assert_msg(!signature_ok(f[i], secret[1]), "verifies with another endpoint's secret");
        ck_assert_str_eq(f[i]->body, f[0]->body);
    }
    ck_assert_msg(f[1]->t - f[0]->t > 0.8 && f[2]->t - f[1]->t > 0.8, "retries too soon: %.2f s, %.2f s",
                  f[1]->t - f[0]->t, f[2]->t - f[1]->t);
    json_t *body = json_loads(f[0]->body, 0, NULL);
    ck_assert_str_eq(e2e_jstr(body, "type"), "turn.started");
    ck_assert_int_eq(e2e_jint(body, "data.seat"), 0);
    ck_assert_str_eq(e2e_jstr(body, "data.player"), "Ann");
    ck_assert(json_is_null(e2e_jget(body, "data.deadline")));
    json_decref(body);
    pthread_mutex_unlock(&R->mu);

    /* every attempt is recorded */
    ck_assert_int_eq(settle(d, 10), 0);
    json_t *dl = deliveries(c, d, &g, &seat_hook[0]);
    ck_assert_str_eq(e2e_jstr(dl, "deliveries.0.state"), "delivered");
    ck_assert_int_eq(json_array_size(e2e_jget(dl, "deliveries.0.attempts")), 3);
    ck_assert_int_eq(e2e_jint(dl, "deliveries.0.attempts.0.status"), 500);
    ck_assert_int_eq(e2e_jint(dl, "deliveries.0.attempts.2.status"), 200);
    ck_assert_str_eq(e2e_jstr(dl, "deliveries.0.webhook_id"), f[0]->id);
    json_decref(dl);

    /* seat 1 wants move.made only: 503 with Retry-After: 2 (the schedule says 1 s) */
    e2e_rng rng = {5};
    move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(wait_prefix(R, "/retry", 2, 15), 2);
    pthread_mutex_lock(&R->mu);
    hit *rt[2];
    int nr = 0;
    for (int i = 0; i < R->n && nr < 2; i++)
        if (strcmp(R->hits[i].path, "/retry") == 0)
            rt[nr++] = &R->hits[i];
    ck_assert_int_eq(rt[0]->answered, 503);
    ck_assert_str_eq(rt[0]->id, rt[1]->id);
    ck_assert_msg(rt[1]->t - rt[0]->t > 1.9, "Retry-After: 2 was not honoured: %.2f s", rt[1]->t - rt[0]->t);
    ck_assert(signature_ok(rt[1], secret[1]));
    pthread_mutex_unlock(&R->mu);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* 410 disables the endpoint: nothing more is sent to it, and it cannot be redelivered to. */
START_TEST(gone_disables)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    hook gone = hook_create(c, &g, d->admin, R, "/gone", "json", NULL);
    hook ok = hook_create(c, &g, d->admin, R, "/ok", "json", "[\"move.made\"]");
    e2e_rng rng = {11};
    move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(wait_prefix(R, "/gone", 1, 10), 1);
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks/%s", g.id, gone.id);
    double t0 = e2e_now();
    json_t *w = NULL;
    do {
        json_decref(w);
        nap(0.05);
        w = e2e_get_ok(c, p, d->admin, 200);
    } while (json_is_true(json_object_get(w, "enabled")) && e2e_now() - t0 < 10);
    ck_assert_msg(json_is_false(json_object_get(w, "enabled")), "still enabled after a 410");
    ck_assert(json_is_string(json_object_get(w, "disabled_at")));
    json_decref(w);
    for (int i = 0; i < 4; i++)
        move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(wait_prefix(R, "/ok", 5, 10), 5);
    ck_assert_int_eq(settle(d, 10), 0);
    ck_assert_int_eq(count_prefix(R, "/gone"), 1);
    json_t *dl = deliveries(c, d, &g, &gone);
    long long did = e2e_jint(dl, "deliveries.0.id");
    json_decref(dl);
    snprintf(p, sizeof p, "/v1/games/%s/webhooks/%s/deliveries/%lld/redeliver", g.id, gone.id, did);
    e2e_resp r;
    e2e_req(c, "POST", p, d->admin, NULL, NULL, &r);
    e2e_assert_problem(&r, 409, NULL, "redeliver to a disabled endpoint");
    ck_assert(e2e_problem_is(&r, "webhook-disabled"));
    e2e_resp_free(&r);
    /* while the healthy endpoint can be redelivered to: the same webhook-id again */
    dl = deliveries(c, d, &g, &ok);
    did = e2e_jint(dl, "deliveries.0.id");
    char msg_id[80];
    snprintf(msg_id, sizeof msg_id, "%s", e2e_jstr(dl, "deliveries.0.webhook_id"));
    json_decref(dl);
    snprintf(p, sizeof p, "/v1/games/%s/webhooks/%s/deliveries/%lld/redeliver", g.id, ok.id, did);
    ck_assert_int_eq(e2e_req(c, "POST", p, d->admin, NULL, NULL, &r), 202);
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/ok", 6, 10), 6);
    pthread_mutex_lock(&R->mu);
    ck_assert_str_eq(R->hits[R->n - 1].id, msg_id);
    pthread_mutex_unlock(&R->mu);
    /* and /metrics counts them: 6 delivered, the 410, the one endpoint disabled */
    ck_assert_int_eq(settle(d, 10), 0);
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &r), 200);
    ck_assert_msg(strstr(r.body, "carcd_webhook_attempts_total{outcome=\"delivered\"} 6\n") &&
                      strstr(r.body, "carcd_webhook_attempts_total{outcome=\"failed\"} 1\n") &&
                      strstr(r.body, "carcd_webhook_endpoints_disabled_total 1\n") &&
                      strstr(r.body, "carcd_webhook_attempts_in_flight 0\n"),
                  "/metrics: %s", strstr(r.body, "carcd_webhook") ? strstr(r.body, "carcd_webhook") : r.body);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* Killed after the move and before the delivery: delivered after the restart. Killed in the middle of a
 * delivery: sent again (same webhook-id) once the lease has run out. */
START_TEST(killed_between_move_and_delivery)
{
    receiver *R = receiver_start();
    /* the first attempt waits 2 s: time to kill carcd with the message only in its outbox */
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=2,1,1", "CARCD_WEBHOOK_TIMEOUT=3",
                         NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    hook h = hook_create(c, &g, d->admin, R, "/ok", "json", "[\"move.made\"]");
    e2e_rng rng = {21};
    int seq;
    move_ok(c, &g, &rng, NULL, &seq);
    e2e_daemon_kill9(d);
    nap(3);
    ck_assert_int_eq(count_prefix(R, "/ok"), 0);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    ck_assert_int_eq(wait_prefix(R, "/ok", 1, 15), 1);
    pthread_mutex_lock(&R->mu);
    json_t *b = json_loads(R->hits[0].body, 0, NULL);
    ck_assert_int_eq(e2e_jint(b, "data.seq"), seq);
    ck_assert(signature_ok(&R->hits[0], h.secret));
    json_decref(b);
    pthread_mutex_unlock(&R->mu);

    /* now in the middle of sending: /hang holds the first attempt 3 s, carcd dies meanwhile */
    hook hang = hook_create(c, &g, d->admin, R, "/hang", "json", "[\"move.made\"]");
    move_ok(c, &g, &rng, NULL, &seq);
    ck_assert_int_eq(wait_prefix(R, "/hang", 1, 15), 1);
    e2e_daemon_kill9(d);
    double killed = e2e_now();
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    /* the lease is the timeout (3 s) and a 10 s margin, counted from the claim */
    ck_assert_int_eq(wait_prefix(R, "/hang", 2, 30), 2);
    pthread_mutex_lock(&R->mu);
    hit *a = NULL, *z = NULL;
    for (int i = 0; i < R->n; i++)
        if (strcmp(R->hits[i].path, "/hang") == 0)
            *(a ? &z : &a) = &R->hits[i];
    ck_assert_str_eq(a->id, z->id);
    ck_assert(signature_ok(z, hang.secret));
    fprintf(stderr, "e2e webhooks: the message whose sender was killed was sent again %.1f s after the kill\n",
            z->t - killed);
    pthread_mutex_unlock(&R->mu);
    ck_assert_int_eq(settle(d, 20), 0);
    /* the first attempt shows as unfinished (its sender died), the second as delivered */
    json_t *dl = deliveries(c, d, &g, &hang);
    ck_assert_str_eq(e2e_jstr(dl, "deliveries.0.state"), "delivered");
    ck_assert_int_eq(json_array_size(e2e_jget(dl, "deliveries.0.attempts")), 2);
    ck_assert(json_is_null(e2e_jget(dl, "deliveries.0.attempts.0.finished_at")));
    ck_assert_int_eq(e2e_jint(dl, "deliveries.0.attempts.1.status"), 200);
    json_decref(dl);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* Two carcd processes on one database: every message sent exactly once, by one or the other. */
START_TEST(two_processes_exactly_once)
{
    receiver *R = receiver_start();
    e2e_daemon *d1 = e2e_daemon_up(env_fast);
    e2e_daemon *d2 = calloc(1, sizeof *d2);
    *d2 = *d1;
    d2->pid = 0;
    d2->port = 0;
    e2e_daemon_start(d2);
    e2e_client *c1 = e2e_client_new(d1), *c2 = e2e_client_new(d2);
    enum { NG = 4, NMOVES = 25 };
    e2e_game g[NG];
    for (int i = 0; i < NG; i++) {
        e2e_game_create(i % 2 ? c2 : c1, 2 + i % 3, NULL, &g[i]);
        hook_create(c1, &g[i], d1->admin, R, "/ok", i % 2 ? "discord" : "json", NULL);
    }
    e2e_rng rng = {31};
    for (int m = 0; m < NMOVES; m++)
        for (int i = 0; i < NG; i++)
            move_ok((m + i) % 2 ? c2 : c1, &g[i], &rng, NULL, NULL);
    ck_assert_int_eq(settle(d1, 30), 0);
    long rows = e2e_db_long(d1, "SELECT count(*) FROM webhook_outbox");
    long delivered = e2e_db_long(d1, "SELECT count(*) FROM webhook_outbox WHERE state = 'delivered'");
    long by1 = e2e_db_long(d1, "SELECT count(DISTINCT worker) FROM webhook_attempts");
    ck_assert_int_eq(delivered, rows);
    ck_assert_int_eq(wait_prefix(R, "/ok", (int)rows, 10), (int)rows);
    nap(0.5);   /* anything sent twice would have arrived by now */
    pthread_mutex_lock(&R->mu);
    ck_assert_int_eq(R->n, rows);
    for (int i = 0; i < R->n; i++)
        for (int k = 0; k < i; k++)
            ck_assert_msg(strcmp(R->hits[i].id, R->hits[k].id) != 0, "%s arrived twice", R->hits[i].id);
    pthread_mutex_unlock(&R->mu);
    fprintf(stderr, "e2e webhooks: %ld messages, each once, sent by %ld carcd processes\n", rows, by1);
    ck_assert_msg(by1 == 2, "only %ld of the 2 processes sent anything", by1);
    e2e_client_free(c1);
    e2e_client_free(c2);
    e2e_daemon_stop(d2);
    free(d2);
    e2e_daemon_down(d1);
    receiver_stop(R);
}
END_TEST

static int cmp_window(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* At least once: a carcd killed after the receiver answered and before the outbox row says delivered sends the
 * message again. That window is from the answer to the row marked delivered: measured here for every message
 * of 6 endpoints x 12 moves, with up to 32 in flight and claims going on; each message arrives once. */
START_TEST(marked_delivered_at_once)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 3, NULL, &g);
    enum { NHOOKS = 6, NMOVES = 12 };
    for (int i = 0; i < NHOOKS; i++)
        hook_create(c, &g, d->admin, R, "/ok", i % 2 ? "slack" : "json", NULL);
    e2e_rng rng = {47};
    for (int m = 0; m < NMOVES; m++)
        move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(settle(d, 30), 0);
    PGconn *db = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(db) == CONNECTION_OK, "%s", PQerrorMessage(db));
    PGresult *res = PQexec(db, "SELECT msg_id, EXTRACT(EPOCH FROM delivered_at)::float8 FROM webhook_outbox "
                               "WHERE state = 'delivered'");
    ck_assert_int_eq(PQresultStatus(res), PGRES_TUPLES_OK);
    int rows = PQntuples(res);
    ck_assert_int_eq(rows, (int)e2e_db_long(d, "SELECT count(*) FROM webhook_outbox"));
    ck_assert_int_eq(wait_prefix(R, "/ok", rows, 10), rows);
    double *window = calloc((size_t)rows, sizeof *window);
    pthread_mutex_lock(&R->mu);
    ck_assert_int_eq(R->n, rows);   /* each once */
    for (int k = 0; k < rows; k++) {
        const hit *h = NULL;
        for (int i = 0; i < R->n && !h; i++)
            if (strcmp(R->hits[i].id, PQgetvalue(res, k, 0)) == 0)
                h = &R->hits[i];
        ck_assert_msg(h != NULL, "%s was marked delivered but never arrived", PQgetvalue(res, k, 0));
        window[k] = atof(PQgetvalue(res, k, 1)) - h->wall;
    }
    pthread_mutex_unlock(&R->mu);
    PQclear(res);
    PQfinish(db);
    qsort(window, (size_t)rows, sizeof *window, cmp_window);
    fprintf(stderr, "e2e webhooks: %d messages, receiver's arrival to marked delivered: p50 %.1f ms, max %.1f ms\n",
            rows, window[rows / 2] * 1000, window[rows - 1] * 1000);
    /* the two clocks are one machine's; the answer itself takes part of it */
    ck_assert_msg(window[rows - 1] < 1.0 * E2E_SLACK, "a message stayed unmarked %.3f s after it arrived",
                  window[rows - 1]);
    free(window);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* A receiver that takes 5 s per request delays no move's answer and no other endpoint. */
START_TEST(slow_receiver_delays_nothing)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    hook_create(c, &g, d->admin, R, "/slow", "json", NULL);
    hook_create(c, &g, d->admin, R, "/ok", "slack", "[\"move.made\"]");
    e2e_rng rng = {41};
    double worst = 0, last = 0;
    for (int m = 0; m < 12; m++) {
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, NULL, &p);
        ck_assert_int_eq(st, 200);
        if (p.post.seconds > worst)
            worst = p.post.seconds;
        e2e_play_free(&p);
        last = e2e_now();
    }
    ck_assert_int_eq(wait_prefix(R, "/ok", 12, 10), 12);
    double ok_done = e2e_now() - last;
    fprintf(stderr, "e2e webhooks: with a 5 s receiver, the slowest move answer took %.0f ms; the other endpoint had "
                    "all 12 messages %.0f ms after the last move; the slow one %d\n",
            worst * 1000, ok_done * 1000, count_prefix(R, "/slow"));
    /* both well under the slow receiver's 5 s, which a move or the other endpoint waiting on it would take */
    ck_assert_msg(worst < 1.0 * E2E_SLACK, "a move took %.2f s with a slow receiver", worst);
    ck_assert_msg(ok_done < 3.0 * E2E_SLACK, "the other endpoint waited %.2f s", ok_done);
    ck_assert_int_le(count_prefix(R, "/slow"), 3);   /* one at a time, in order, 5 s each */
    e2e_client_free(c);
    double t0 = e2e_now();
    int st = e2e_daemon_stop(d);   /* stops at once: the attempts in flight are handed back, not waited for */
    double took = e2e_now() - t0;
    ck_assert_msg(took < 4, "carcd took %.1f s to stop (the slow receiver answers in 5 s)", took);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "carcd's stop: wait status %d", st);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* Loopback and private URLs are refused at creation without the allowlist; an endpoint created while the
 * allowlist opened loopback is not delivered to once it is gone (the check is made again, after resolution,
 * on every delivery). Redirects are not followed. */
START_TEST(addresses_guarded)
{
    receiver *R = receiver_start();
    const char *env_none[] = {"CARCD_WEBHOOK_BACKOFF=0,1,1", NULL};
    e2e_daemon *d = e2e_daemon_up(env_none);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char p[200], body[300];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks", g.id);
    const char *urls[] = {"http://127.0.0.1:%d/ok", "http://localhost:%d/ok", "http://[::1]:%d/ok",
                          "http://0x7f000001:%d/ok", "http://10.0.0.1:%d/ok", "http://169.254.169.254:%d/ok",
                          "http://[::ffff:127.0.0.1]:%d/ok", "ftp://127.0.0.1:%d/ok", NULL};
    for (int i = 0; urls[i]; i++) {
        char url[120];
        snprintf(url, sizeof url, urls[i], R->port);
        snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
        e2e_resp r;
        e2e_req(c, "POST", p, d->admin, body, NULL, &r);
        e2e_assert_problem(&r, 400, "url", url);
        e2e_resp_free(&r);
    }
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"A\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/ok\"}},{\"name\":\"B\"}]}",
             R->port);
    e2e_resp r;
    e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r);
    e2e_assert_problem(&r, 400, "players[0].webhook.url", "a loopback players[].webhook");
    e2e_resp_free(&r);
    e2e_daemon_stop(d);

    /* with loopback open, an endpoint by name (localhost) and one that redirects */
    const char *env_open[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32,::1/128", "CARCD_WEBHOOK_BACKOFF=0,1,1", NULL};
    for (int i = 0; env_open[i]; i++)
        d->extra_env[i] = env_open[i];
    d->extra_env[2] = NULL;
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    snprintf(body, sizeof body, "{\"url\":\"http://localhost:%d/later\"}", R->port);
    ck_assert_int_eq(e2e_req(c, "POST", p, d->admin, body, NULL, &r), 201);
    hook later = {0};
    snprintf(later.id, sizeof later.id, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    hook moved = hook_create(c, &g, d->admin, R, "/moved", "json", "[\"move.made\"]");
    e2e_rng rng = {51};
    move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(wait_prefix(R, "/later", 2, 10), 2);   /* move.made, turn.started: delivered while open */
    ck_assert_int_eq(settle(d, 15), 0);
    ck_assert_int_eq(count_prefix(R, "/moved"), 3);          /* a 302 is a failure, tried three times */
    ck_assert_int_eq(count_prefix(R, "/ok-redirected"), 0);  /* and never followed */
    json_t *ml = deliveries(c, d, &g, &moved);
    ck_assert_str_eq(e2e_jstr(ml, "deliveries.0.state"), "failed");
    ck_assert_int_eq(e2e_jint(ml, "deliveries.0.last_status"), 302);
    json_decref(ml);
    e2e_daemon_stop(d);

    /* the allowlist gone: the name still resolves to loopback, and nothing is delivered there */
    d->extra_env[0] = "CARCD_WEBHOOK_BACKOFF=0,1,1";
    d->extra_env[1] = NULL;
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(settle(d, 15), 0);   /* three attempts each, then failed */
    ck_assert_int_eq(count_prefix(R, "/later"), 2);
    json_t *dl = deliveries(c, d, &g, &later);
    ck_assert_str_eq(e2e_jstr(dl, "deliveries.0.state"), "failed");
    ck_assert_int_eq(json_array_size(e2e_jget(dl, "deliveries.0.attempts")), 3);
    const char *err = e2e_jstr(dl, "deliveries.0.last_error");
    ck_assert_msg(strstr(err, "loopback") && strstr(err, "gave up after 3 attempts"), "last_error: %s", err);
    json_decref(dl);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* A seat has at most four endpoints in a game: a fifth is a 409 too-many-webhooks, and the other seat and the
 * admin still add theirs (one seat had filled the game's sixteen and left none to the others; the admin keeps
 * sixteen of its own). None of them is ever sent anything: no move is made. */
START_TEST(endpoints_limited_per_seat)
{
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char p[200], body[200];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks", g.id);
    const char *who[] = {g.token[0], g.token[1], d->admin};
    const int most[] = {4, 4, 16};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i <= most[w]; i++) {
            snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:9/hook-%d-%d\"}", w, i);
            e2e_resp r;
            long st = e2e_req(c, "POST", p, who[w], body, NULL, &r);
            if (i < most[w]) {
                ck_assert_msg(st == 201, "endpoint %d of %d: %ld %s", i, w, st, r.body);
            } else {
                e2e_assert_problem(&r, 409, NULL, "an endpoint over the limit");
                ck_assert_msg(strstr(e2e_jstr(r.json, "type"), "too-many-webhooks"), "%s", r.body);
            }
            e2e_resp_free(&r);
        }
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* 172.16.0.0/12 is private as a whole, not only 172.16/16: endpoints to 172.17-172.31 are refused at creation
 * (webhooks.create and players[].webhook), and none is stored. Literal addresses, nothing resolved; this
 * carcd delivers nothing at all (concurrency 0), so even a broken guard sends no traffic anywhere. */
START_TEST(private_172_refused)
{
    const char *env[] = {"CARCD_WEBHOOK_CONCURRENCY=0", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char p[200], body[300];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks", g.id);
    const char *urls[] = {"http://172.20.0.5/hook", "http://172.31.255.1/hook", "https://172.17.0.1:8443/hook",
                          "http://172.16.255.255/hook", "http://[::ffff:172.24.1.2]/hook", NULL};
    for (int i = 0; urls[i]; i++) {
        const char *token = i % 2 ? g.token[0] : d->admin;
        snprintf(body, sizeof body, "{\"url\":\"%s\"}", urls[i]);
        e2e_resp r;
        e2e_req(c, "POST", p, token, body, NULL, &r);
        if (r.status == 201) {   /* never keep it, even in a failing run */
            char wp[260];
            snprintf(wp, sizeof wp, "%s/%s", p, e2e_jstr(r.json, "id"));
            e2e_resp del;
            e2e_req(c, "DELETE", wp, d->admin, NULL, NULL, &del);
            e2e_resp_free(&del);
        }
        e2e_assert_problem(&r, 400, "url", urls[i]);
        ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), "private"), "%s: detail %s", urls[i],
                      e2e_jstr(r.json, "detail"));
        e2e_resp_free(&r);
    }
    json_t *list = e2e_get_ok(c, p, d->admin, 200);
    ck_assert_uint_eq(json_array_size(json_object_get(list, "webhooks")), 0);
    json_decref(list);
    e2e_resp r;
    e2e_req(c, "POST", "/v1/games", NULL,
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\",\"webhook\":{\"url\":\"http://172.20.0.5/hook\"}}]}",
            NULL, &r);
    e2e_assert_problem(&r, 400, "players[1].webhook.url", "a players[].webhook to 172.20.0.5");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM webhook_endpoints"), 0);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM games"), 1);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- no hidden information, and the document's schemas -------------------------------------------------------- */
#define MAX_SEQ 1500

typedef struct {
    char *frag;              /* the next tiles in draw order after this seq, as a JSON fragment ("" if few) */
    char *hands;             /* every triangle in a hand after this seq, space-separated (" HW01 HW08 ") */
} after_seq;

static void no_hidden_keys(const json_t *j, const char *what, bool over)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            static const char *const hidden[] = {"stack", "stack_remaining", "stack_pos", "rng", "under", "bag",
                                                 "script", "script_pos", "hands", "hand", NULL};
            for (int i = 0; hidden[i]; i++)
                ck_assert_msg(strcmp(k, hidden[i]) != 0, "%s: hidden key \"%s\"", what, k);
            ck_assert_msg(over || strcmp(k, "seed") != 0, "%s: a seed before the end", what);
            no_hidden_keys(v, what, over);
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) no_hidden_keys(v, what, over);
    }
}

static void record_after(e2e_client *c, const e2e_daemon *d, const e2e_game *g, after_seq *a, int *seq)
{
    json_t *av = e2e_admin_view(c, d, g->id);
    *seq = (int)e2e_jint(av, "seq");
    ck_assert_int_lt(*seq, MAX_SEQ);
    json_t *stack = json_object_get(av, "stack_remaining");
    char frag[200] = "";
    size_t n = json_array_size(stack), len = 0;
    for (size_t i = 0; i < n && i < 5 && n >= 2; i++)
        len += (size_t)snprintf(frag + len, sizeof frag - len, "%s\"%s\"", i ? "," : "",
                                json_string_value(json_array_get(stack, i)));
    char hands[600] = " ";
    len = 1;
    size_t s, k;
    json_t *hand, *t;
    json_array_foreach(e2e_jget(av, "halflings.hands"), s, hand) json_array_foreach(hand, k, t) if (len < 560)
        len += (size_t)snprintf(hands + len, sizeof hands - len, "%s ", json_string_value(t));
    a[*seq].frag = strdup(frag);
    a[*seq].hands = strdup(hands);
    json_decref(av);
}

START_TEST(payloads_public_and_documented)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    e2e_openapi_load();
    const json_t *schemas = e2e_jget(e2e_openapi_doc(), "components.schemas");
    ck_assert_msg(json_is_object(json_object_get(json_object_get(e2e_openapi_doc(), "webhooks"), "turn.started")),
                  "the document has no webhooks section");
    char body[800];
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/seat0\","
             "\"events\":[\"turn.started\",\"move.made\",\"game.finished\"]}},"
             "{\"name\":\"Bob\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/seat1\",\"format\":\"discord\"}},"
             "{\"name\":\"Cy\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/seat2\",\"format\":\"slack\"}}],"
             "\"expansions\":[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]}",
             R->port, R->port, R->port);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    e2e_game g = {0};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    g.nplayers = 3;
    char secrets[4][80];
    for (int s = 0; s < 3; s++) {
        json_t *p = json_array_get(json_object_get(r.json, "players"), (size_t)s);
        snprintf(g.token[s], sizeof g.token[s], "%s", e2e_jstr(p, "token"));
        snprintf(secrets[s], sizeof secrets[s], "%s", e2e_jstr(p, "webhook.secret"));
    }
    e2e_resp_free(&r);
    hook game_hook = hook_create(c, &g, d->admin, R, "/game", "json", NULL);
    snprintf(secrets[3], sizeof secrets[3], "%s", game_hook.secret);

    after_seq *after = calloc(MAX_SEQ, sizeof *after);
    int seq;
    record_after(c, d, &g, after, &seq);
    e2e_rng rng = {61};
    int moves = 0;
    for (; moves < 1200; moves++) {
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            break;
        ck_assert_int_eq(st, 200);
        record_after(c, d, &g, after, &seq);
    }
    int last = seq;
    ck_assert_int_eq(settle(d, 30), 0);
    pthread_mutex_lock(&R->mu);
    int counts[4] = {0}, finished = 0;
    for (int i = 0; i < R->n; i++) {
        hit *h = &R->hits[i];
        int who = strcmp(h->path, "/seat0") == 0 ? 0 : strcmp(h->path, "/seat1") == 0 ? 1 : strcmp(h->path, "/seat2") == 0 ? 2 : 3;
        counts[who]++;
        ck_assert_msg(signature_ok(h, secrets[who]), "%s: the signature does not verify", h->path);
        json_t *j = json_loads(h->body, 0, NULL);
        ck_assert_msg(j != NULL, "%s: not JSON: %.200s", h->path, h->body);
        const char *type = e2e_jstr(j, "type");
        bool over = strcmp(type, "game.finished") == 0;
        finished += over;
        /* the schema of its event (json) or its format (discord, slack) */
        char why[600], what[300];
        snprintf(what, sizeof what, "%.100s %.40s", h->path, type[0] ? type : "(chat)");
        const char *schema = who == 1 ? "DiscordPayload" : who == 2 ? "SlackPayload"
                             : strcmp(type, "turn.started") == 0 ? "TurnStartedPayload"
                             : strcmp(type, "move.made") == 0 ? "MoveMadePayload" : "GameFinishedPayload";
        ck_assert_msg(e2e_schema_validate(json_object_get(schemas, schema), j, "$", why, sizeof why),
                      "%s does not match %s: %s\n%.400s", what, schema, why, h->body);
        no_hidden_keys(j, what, over);
        /* no run of the stack, no triangle of a hand, as they stood after its seq */
        int s = who == 1 || who == 2 ? last : (int)e2e_jint(j, "data.seq");
        ck_assert_msg(s >= 0 && s <= last, "%s: seq %d", what, s);
        /* chat texts carry no seq: check them against every state of the game */
        for (int q = who == 1 || who == 2 ? 0 : s; q <= s; q++) {
            if (after[q].frag && after[q].frag[0])
                ck_assert_msg(!strstr(h->body, after[q].frag), "%s reveals the stack order %s", what, after[q].frag);
            if (who == 1 || who == 2 || !after[q].hands)
                continue;
            char *hs = strdup(after[q].hands);
            for (char *tok = strtok(hs, " "); tok; tok = strtok(NULL, " ")) {
                char quoted[40];
                snprintf(quoted, sizeof quoted, "\"%s\"", tok);
                ck_assert_msg(!strstr(h->body, quoted), "%s (seq %d) names %s, in a hand", what, s, tok);
            }
            free(hs);
        }
        json_decref(j);
    }
    pthread_mutex_unlock(&R->mu);
    /* no seed anywhere before the end: the seed, from the finished game's admin view */
    json_t *av = e2e_admin_view(c, d, g.id);
    const char *seed = e2e_jstr(av, "seed");
    bool game_over = strcmp(e2e_jstr(av, "status"), "finished") == 0;
    pthread_mutex_lock(&R->mu);
    for (int i = 0; i < R->n; i++) {
        json_t *j = json_loads(R->hits[i].body, 0, NULL);
        bool over = strcmp(e2e_jstr(j, "type"), "game.finished") == 0 || strstr(R->hits[i].body, "is over");
        ck_assert_msg(over || !strstr(R->hits[i].body, seed), "%s: the seed before the end", R->hits[i].path);
        json_decref(j);
    }
    pthread_mutex_unlock(&R->mu);
    json_decref(av);
    fprintf(stderr, "e2e webhooks: %d moves (%s), %d + %d + %d + %d messages checked (seat 0 json, seat 1 discord, "
                    "seat 2 slack, the game's json)\n",
            moves, game_over ? "to the end" : "not finished", counts[0], counts[1], counts[2], counts[3]);
    /* the game's endpoint (made after the opening): two per move, move.made and turn.started or game.finished */
    ck_assert_int_eq(counts[3], 2 * last);
    if (game_over)
        ck_assert_int_eq(finished, 2);   /* the json endpoints: seat 0's and the game's */
    for (int q = 0; q < MAX_SEQ; q++) {
        free(after[q].frag);
        free(after[q].hands);
    }
    free(after);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* ---- forced steps ------------------------------------------------------------------------------------------------- */
/* Posts `move` (JSON text) for `seat` at *seq; asserts 200 and counts the seq on. */
static void post_move(e2e_client *c, const e2e_game *g, int seat, const char *move, int *seq)
{
    char p[120], body[400];
    snprintf(p, sizeof p, "/v1/games/%s/moves", g->id);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", *seq, move);
    e2e_resp r;
    long st = e2e_req(c, "POST", p, g->token[seat], body, NULL, &r);
    ck_assert_msg(st == 200, "seat %d %s at seq %d: %ld %.300s", seat, move, *seq, st, r.body);
    e2e_resp_free(&r);
    (*seq)++;
}

/* turn.started goes to the next seat that really has a choice: a crop circle that leaves every seat one
 * thief to return (tests/scenarios/crop_circles/club_remove_chain_forced.scn) notifies nobody for those
 * returns, only seat 1 for its next tile; with ask_forced true each seat is notified for its return. */
START_TEST(turn_started_skips_forced_steps)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    static const int chain_seat[3] = {1, 2, 0};
    static const char *const chain_move[3] = {
        "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\"}",
        "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":2,\"part\":\"r1\"}",
        "{\"type\":\"crop_circle_figure\",\"x\":1,\"y\":0,\"part\":\"r1\"}",
    };
    for (int ask = 0; ask < 2; ask++) {
        char body[1200];
        snprintf(body, sizeof body,
                 "{\"players\":[{\"name\":\"Ann\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/forced%d-0\","
                 "\"events\":[\"turn.started\"]}},{\"name\":\"Bob\",\"webhook\":{\"url\":"
                 "\"http://127.0.0.1:%d/forced%d-1\",\"events\":[\"turn.started\"]}},{\"name\":\"Cy\","
                 "\"webhook\":{\"url\":\"http://127.0.0.1:%d/forced%d-2\",\"events\":[\"turn.started\"]}}],"
                 "\"expansions\":[\"crop_circles\"],\"options\":{\"ask_forced\":%s},"
                 "\"script\":{\"stack\":[\"U\",\"U\",\"U\",\"CC01\",\"E\",\"B\"]}}",
                 R->port, ask, R->port, ask, R->port, ask, ask ? "true" : "false");
        e2e_resp r;
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", d->admin, body, NULL, &r), 201);
        e2e_game g = {0};
        snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
        g.nplayers = 3;
        for (int s = 0; s < 3; s++)
            snprintf(g.token[s], sizeof g.token[s], "%s",
                     e2e_jstr(json_array_get(json_object_get(r.json, "players"), (size_t)s), "token"));
        e2e_resp_free(&r);
        int seq = 0;
        for (int s = 0; s < 3; s++) {
            char place[128];
            snprintf(place, sizeof place, "{\"type\":\"place\",\"tile\":\"U\",\"x\":%d,\"y\":%d,\"rot\":1}",
                     s == 0, s == 0 ? 0 : s);
            post_move(c, &g, s, place, &seq);
            post_move(c, &g, s, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"r1\"}", &seq);
        }
        post_move(c, &g, 0, "{\"type\":\"place\",\"tile\":\"CC01\",\"x\":1,\"y\":1,\"rot\":0}", &seq);
        post_move(c, &g, 0, "{\"type\":\"pass\"}", &seq);
        int chosen = seq + 1;   /* the seq of the crop circle choice */
        post_move(c, &g, 0, "{\"type\":\"crop_circle_remove\"}", &seq);
        for (int k = 0; ask && k < 3; k++)
            post_move(c, &g, chain_seat[k], chain_move[k], &seq);
        ck_assert_int_eq(seq, ask ? chosen + 3 : chosen);   /* forced steps are no moves of the log */
        ck_assert_int_eq(settle(d, 30), 0);

        /* every turn.started of this game from the choice on: whom, at which seq, for what */
        char prefix[32];
        snprintf(prefix, sizeof prefix, "/forced%d-", ask);
        int got_seat[8], got_seq[8], n = 0;
        char got_kind[8][32];
        pthread_mutex_lock(&R->mu);
        for (int i = 0; i < R->n; i++) {
            hit *h = &R->hits[i];
            if (strncmp(h->path, prefix, strlen(prefix)) != 0)
                continue;
            json_t *j = json_loads(h->body, 0, NULL);
            ck_assert_str_eq(e2e_jstr(j, "type"), "turn.started");
            int to = atoi(h->path + strlen(prefix));
            ck_assert_int_eq(e2e_jint(j, "data.seat"), to);   /* only the seat asked is notified */
            ck_assert_msg(ask || strcmp(e2e_jstr(j, "data.decision.kind"), "crop_circle_action") != 0,
                          "seat %d notified of a forced crop circle action: %.300s", to, h->body);
            if (e2e_jint(j, "data.seq") >= chosen && n < 8) {
                got_seat[n] = to;
                got_seq[n] = (int)e2e_jint(j, "data.seq");
                snprintf(got_kind[n], sizeof got_kind[n], "%s", e2e_jstr(j, "data.decision.kind"));
                n++;
            }
            json_decref(j);
        }
        pthread_mutex_unlock(&R->mu);
        if (!ask) {   /* one notification: seat 1, for its tile, at the choice's seq */
            ck_assert_int_eq(n, 1);
            ck_assert_int_eq(got_seat[0], 1);
            ck_assert_int_eq(got_seq[0], chosen);
            ck_assert_str_eq(got_kind[0], "place");
        } else {   /* seat 1, 2, 0 for their returns, then seat 1 for its tile */
            static const int want_seat[4] = {1, 2, 0, 1};
            ck_assert_int_eq(n, 4);
            for (int k = 0; k < 4; k++) {
                bool found = false;
                for (int i = 0; i < n; i++)
                    found |= got_seq[i] == chosen + k && got_seat[i] == want_seat[k] &&
                             strcmp(got_kind[i], k < 3 ? "crop_circle_action" : "place") == 0;
                ck_assert_msg(found, "no turn.started to seat %d at seq %d", want_seat[k], chosen + k);
            }
        }
    }
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* ---- latency --------------------------------------------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(latency_report)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_fast);
    e2e_client *c = e2e_client_new(d);
    enum { N = 100, NG = 3 };
    e2e_game g[NG];
    double answered[NG][200] = {{0}}, sent[NG][200] = {{0}};
    e2e_rng rng = {71};
    int n = 0, gi = 0;
    e2e_game_create(c, 2, NULL, &g[0]);
    hook_create(c, &g[0], d->admin, R, "/ok", "json", "[\"move.made\"]");
    while (n < N) {
        e2e_play p;
        long st = e2e_play_random(c, &g[gi], &rng, NULL, &p);
        if (st == E2E_FINISHED) {   /* a game has fewer moves than we want: another one */
            e2e_play_free(&p);
            ck_assert_int_lt(++gi, NG);
            e2e_game_create(c, 2, NULL, &g[gi]);
            hook_create(c, &g[gi], d->admin, R, "/ok", "json", "[\"move.made\"]");
            continue;
        }
        ck_assert_int_eq(st, 200);
        int seq = p.expected_seq + 1;
        double post_took = p.post.seconds;
        e2e_play_free(&p);
        ck_assert_int_lt(seq, 200);
        answered[gi][seq] = e2e_now();
        sent[gi][seq] = answered[gi][seq] - post_took;   /* the POST's start: before the commit */
        n++;
        nap(0.02);   /* moves as people make them: one at a time, not back to back */
    }
    ck_assert_int_eq(wait_prefix(R, "/ok", n, 20), n);
    double lat[N], upper[N];
    int k = 0;
    pthread_mutex_lock(&R->mu);
    for (int i = 0; i < R->n && k < N; i++) {
        json_t *j = json_loads(R->hits[i].body, 0, NULL);
        int seq = (int)e2e_jint(j, "data.seq"), which = -1;
        for (int q = 0; q <= gi; q++)
            if (strcmp(e2e_jstr(j, "data.game"), g[q].id) == 0)
                which = q;
        json_decref(j);
        if (which < 0 || seq < 1 || seq >= 200 || answered[which][seq] == 0)
            continue;
        lat[k] = R->hits[i].t - answered[which][seq];
        upper[k] = R->hits[i].t - sent[which][seq];
        k++;
    }
    pthread_mutex_unlock(&R->mu);
    ck_assert_int_eq(k, n);
    qsort(lat, (size_t)k, sizeof lat[0], cmp_double);
    qsort(upper, (size_t)k, sizeof upper[0], cmp_double);
    int p99 = (int)(0.99 * (k - 1) + 0.5);
    fprintf(stderr, "e2e webhooks latency over %d moves, move.made at the receiver minus the move's answer: "
                    "p50 %.2f ms, p99 %.2f ms, max %.2f ms (minus the POST's start, an upper bound of commit → "
                    "receiver: p50 %.2f ms, p99 %.2f ms)\n",
            k, lat[k / 2] * 1000, lat[p99] * 1000, lat[k - 1] * 1000, upper[k / 2] * 1000, upper[p99] * 1000);
    ck_assert_msg(upper[p99] < 2.0 * E2E_SLACK, "p99 latency %.2f s", upper[p99]);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* ---- chat limits ----------------------------------------------------------------------------------------------- */
static size_t u16len(const char *s)
{
    size_t k = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        k += (c & 0xC0) == 0x80 ? 0 : c >= 0xF0 ? 2 : 1;
    }
    return k;
}

/* Six seats with 64-character names, the whole game played: every Discord message fits Discord's 2 000
 * characters and every Slack one 4 000, none prints the seed or links a JSON route, and seat 0's own endpoint
 * gets a turn.started exactly when another seat's move made it seat 0's turn (never for its follower decision
 * after its own tile). */
START_TEST(chat_fits_six_long_names)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_public);
    e2e_client *c = e2e_client_new(d);
    char body[4000];
    int k = snprintf(body, sizeof body, "{\"expansions\":[\"hills_sheep\",\"crop_circles\",\"fruit_trees\"],\"players\":[");
    for (int s = 0; s < 6; s++) {
        char name[80];
        snprintf(name, sizeof name, "%d_*~<@everyone>%049d", s, s);   /* 64 characters */
        const char *spec = s == 0 ? "\"events\":[\"turn.started\",\"move.made\"]" : "\"format\":\"discord\"";
        k += snprintf(body + k, sizeof body - (size_t)k, "%s{\"name\":\"%s\",\"webhook\":{\"url\":\"http://127.0.0.1:%d/s%d\",%s}}",
                      s ? "," : "", name, R->port, s, spec);
    }
    snprintf(body + k, sizeof body - (size_t)k, "]}");
    e2e_resp r;
    ck_assert_msg(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r) == 201, "%s", r.body);
    e2e_game g = {0};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    g.nplayers = 6;
    for (int s = 0; s < 6; s++)
        snprintf(g.token[s], sizeof g.token[s], "%s", e2e_jstr(json_array_get(json_object_get(r.json, "players"), (size_t)s), "token"));
    e2e_resp_free(&r);
    hook_create(c, &g, d->admin, R, "/gd", "discord", NULL);
    hook_create(c, &g, d->admin, R, "/gs", "slack", NULL);
    e2e_rng rng = {0x6464};
    int moves = 0;
    for (; moves < 3000; moves++) {
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            break;
        ck_assert_int_eq(st, 200);
    }
    ck_assert_msg(moves < 3000, "the game did not end");
    double t0 = e2e_now();
    long left = settle(d, 120);
    fprintf(stderr, "e2e webhooks: %d moves; the outbox drained %.1f s after the last\n", moves, e2e_now() - t0);
    ck_assert_int_eq(left, 0);
    json_t *av = e2e_admin_view(c, d, g.id);
    char seed[80];
    snprintf(seed, sizeof seed, "%s", e2e_jstr(av, "seed"));
    json_decref(av);
    ck_assert_int_eq(strlen(seed), 64);

    int *mover = calloc(4096, sizeof *mover), *next = calloc(4096, sizeof *next), *started = calloc(4096, sizeof *started);
    for (int i = 0; i < 4096; i++)
        mover[i] = next[i] = -1;
    size_t longest[2] = {0, 0};
    int chats = 0, finished_chats = 0;
    pthread_mutex_lock(&R->mu);
    for (int i = 0; i < R->n; i++) {
        hit *h = &R->hits[i];
        json_t *j = json_loads(h->body, 0, NULL);
        ck_assert_msg(j != NULL, "%s: not JSON", h->path);
        if (strcmp(h->path, "/s0") == 0) {   /* json: the seat's log of moves and of its turns */
            int q = (int)e2e_jint(j, "data.seq");
            ck_assert(q >= 0 && q < 4096);
            if (strcmp(e2e_jstr(j, "type"), "move.made") == 0) {
                mover[q] = (int)e2e_jint(j, "data.seat");
                next[q] = json_is_object(e2e_jget(j, "data.next")) ? (int)e2e_jint(j, "data.next.seat") : -1;
            } else {
                ck_assert_str_eq(e2e_jstr(j, "type"), "turn.started");
                ck_assert_int_eq(e2e_jint(j, "data.seat"), 0);
                started[q]++;
            }
        } else {
            bool slack = strcmp(h->path, "/gs") == 0;
            const char *t = e2e_jstr(j, slack ? "text" : "content");
            size_t n = u16len(t);
            ck_assert_msg(n <= (slack ? 4000u : 2000u), "%s: %zu characters", h->path, n);
            if (n > longest[slack])
                longest[slack] = n;
            ck_assert_msg(!strstr(t, seed), "%s: the seed in chat text", h->path);
            ck_assert_msg(!strstr(t, "/legal-moves") && !strstr(t, "/events"), "%s: a JSON link: %s", h->path, t);
            ck_assert_msg(strstr(t, "https://carc.example/games/"), "%s: no game page link: %s", h->path, t);
            ck_assert_msg(!strstr(t, "@everyone>") && !strstr(t, "<@"), "%s: a live mention: %s", h->path, t);
            chats++;
            finished_chats += strstr(t, " is over.") != NULL;
        }
        json_decref(j);
    }
    pthread_mutex_unlock(&R->mu);
    /* seat 0's turn.started: at creation, then after exactly the moves of another seat that passed it the turn */
    ck_assert_int_eq(started[0], 1);
    int turns = 1;
    for (int q = 1; q < 4096; q++) {
        if (mover[q] < 0) {
            ck_assert_msg(started[q] == 0, "a turn.started at seq %d with no move", q);
            continue;
        }
        bool want = next[q] == 0 && mover[q] != 0;
        ck_assert_msg(started[q] == (want ? 1 : 0), "seq %d (seat %d moved, seat %d next): %d turn.started", q,
                      mover[q], next[q], started[q]);
        turns += want;
    }
    ck_assert_int_eq(finished_chats, 2 + 5);   /* both game endpoints and the five discord seats */
    /* every message was delivered at its first attempt: the latency histogram counted each once */
    e2e_resp mr;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &mr), 200);
    const char *lc = strstr(mr.body, "\ncarcd_webhook_delivery_latency_seconds_count ");
    ck_assert_msg(lc != NULL, "no delivery latency histogram");
    pthread_mutex_lock(&R->mu);
    int received = R->n;
    pthread_mutex_unlock(&R->mu);
    ck_assert_int_eq(atol(lc + strlen("\ncarcd_webhook_delivery_latency_seconds_count ")), received);
    e2e_resp_free(&mr);
    fprintf(stderr, "e2e webhooks: 6 seats with 64-character names, %d moves, %d chat messages: longest Discord %zu, "
                    "Slack %zu characters; seat 0 told of %d turns\n",
            moves, chats, longest[0], longest[1], turns);
    free(mover);
    free(next);
    free(started);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* ---- a join into a waiting game ---------------------------------------------------------------------------------- */
/* The hit at `path` whose body names `type` (NULL: any), as JSON (the caller frees it); NULL when none. */
static json_t *hit_json(receiver *R, const char *path, const char *type, char *sig_ok_secret)
{
    json_t *out = NULL;
    pthread_mutex_lock(&R->mu);
    for (int i = 0; i < R->n && !out; i++)
        if (strcmp(R->hits[i].path, path) == 0 && (!type || strstr(R->hits[i].body, type))) {
            out = json_loads(R->hits[i].body, 0, NULL);
            if (sig_ok_secret)
                ck_assert_msg(signature_ok(&R->hits[i], sig_ok_secret), "%s: the signature does not verify", path);
        }
    pthread_mutex_unlock(&R->mu);
    return out;
}

/* hit_json for a json endpoint's message of `type`, asserted to be there and to match the OpenAPI's `schema`
 * (a name in components.schemas). */
static json_t *hit_documented(receiver *R, const char *path, const char *type, char *sig_ok_secret, const char *schema)
{
    json_t *j = hit_json(R, path, type, sig_ok_secret);
    ck_assert_msg(j != NULL, "no %s at %s", type, path);
    char why[600], at[120];
    snprintf(at, sizeof at, "components.schemas.%s", schema);
    ck_assert_msg(e2e_schema_validate(e2e_jget(e2e_openapi_doc(), at), j, "$", why, sizeof why),
                  "%s does not match %s: %s", type, schema, why);
    return j;
}

/* A player.left payload j (freed here) names `seat`, given up by `player`, removed by the creator or not. */
static void assert_left(json_t *j, int seat, const char *player, bool removed)
{
    ck_assert_str_eq(e2e_jstr(j, "type"), "player.left");
    ck_assert_int_eq(e2e_jint(j, "data.seat"), seat);
    ck_assert_str_eq(e2e_jstr(j, "data.player"), player);
    const json_t *r = e2e_jget(j, "data.removed");
    ck_assert(json_is_boolean(r) && json_boolean_value(r) == removed);
    json_decref(j);
}

/* How many endpoints of game id the admin's list shows. */
static size_t endpoints_listed(e2e_client *c, const e2e_daemon *d, const char *id)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
    json_t *j = e2e_get_ok(c, path, d->admin, 200);
    size_t n = json_array_size(json_object_get(j, "webhooks"));
    json_decref(j);
    return n;
}

/* The last request to `path`, as hit_documented checks the first: signed with secret, matching schema. */
static json_t *last_hit_documented(receiver *R, const char *path, const char *secret, const char *schema)
{
    json_t *j = NULL;
    pthread_mutex_lock(&R->mu);
    for (int i = R->n - 1; i >= 0 && !j; i--)
        if (strcmp(R->hits[i].path, path) == 0) {
            j = json_loads(R->hits[i].body, 0, NULL);
            ck_assert_msg(signature_ok(&R->hits[i], secret), "%s: the signature does not verify", path);
        }
    pthread_mutex_unlock(&R->mu);
    ck_assert_msg(j != NULL, "nothing at %s", path);
    char why[600], at[120];
    snprintf(at, sizeof at, "components.schemas.%s", schema);
    ck_assert_msg(e2e_schema_validate(e2e_jget(e2e_openapi_doc(), at), j, "$", why, sizeof why), "%s: %s", path, why);
    return j;
}

/* A join into a game that still waits for others: the seats' endpoints that take player.joined hear who took
 * which seat and how many are still open (json, as documented; Discord in a line), the players linked to the
 * other seats get player_joined in GET /v1/me/events, the joiner neither; the join that fills the game sends
 * none (its start's turn.started says it). */
START_TEST(player_joined_told)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_public);
    e2e_client *c = e2e_client_new(d);
    e2e_openapi_load();
    char ann_key[80], bob_key[80], body[600], codes[2][80], path[200];
    e2e_player_key(c, "Ann", ann_key, sizeof ann_key);
    e2e_player_key(c, "Bob", bob_key, sizeof bob_key);
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},{\"invite\":true}]}", ann_key);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    e2e_game g = {.nplayers = 3};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    char creator[80];
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(codes[0], sizeof codes[0], "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(codes[1], sizeof codes[1], "%s", e2e_jstr(r.json, "invites.1.invite"));
    e2e_resp_free(&r);
    /* Ann's endpoints while the game waits: every event (json, Discord), and turn.started alone */
    hook all = hook_create(c, &g, g.token[0], R, "/ann", "json", NULL);
    hook_create(c, &g, g.token[0], R, "/ann-discord", "discord", NULL);
    hook_create(c, &g, g.token[0], R, "/ann-turns", "json", "[\"turn.started\"]");

    /* Bob joins with his key: two of three seats taken */
    snprintf(path, sizeof path, "/v1/games/%s/join", g.id);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\",\"player_key\":\"%s\"}", codes[0], bob_key);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/ann", 2, 10), 2);
    ck_assert_int_eq(settle(d, 10), 0);
    json_t *j = hit_documented(R, "/ann", "player.joined", all.secret, "PlayerJoinedPayload");
    ck_assert_str_eq(e2e_jstr(j, "data.game"), g.id);
    ck_assert_str_eq(e2e_jstr(j, "data.player"), "Bob");
    ck_assert_int_eq(e2e_jint(j, "data.seat"), 1);
    ck_assert_int_eq(e2e_jint(j, "data.seats"), 3);
    ck_assert_int_eq(e2e_jint(j, "data.taken"), 2);
    ck_assert_int_eq(e2e_jint(j, "data.open"), 1);
    json_decref(j);
    j = hit_json(R, "/ann-discord", NULL, NULL);
    ck_assert_msg(j != NULL, "no Discord message");
    char want[300];
    snprintf(want, sizeof want, "**Bob** joined game `%.8s`: 2 of 3 seats taken, 1 open.\nGame: "
                                "https://carc.example/games/%s", g.id, g.id);
    ck_assert_str_eq(e2e_jstr(j, "content"), want);
    json_decref(j);
    ck_assert_int_eq(count_prefix(R, "/ann-turns"), 0);
    /* the player streams: Ann hears of Bob, with her own seat; Bob of nobody */
    json_t *es = e2e_me_events_all(c, ann_key);
    ck_assert_int_eq(json_array_size(es), 1);
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "kind"), "player_joined");
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "game"), g.id);
    ck_assert_int_eq(e2e_jint(json_array_get(es, 0), "seat"), 0);
    json_decref(es);
    es = e2e_me_events_all(c, bob_key);
    ck_assert_int_eq(json_array_size(es), 0);
    json_decref(es);

    /* Cy takes the last seat: the game starts, and says so with turn.started, not player.joined */
    snprintf(body, sizeof body, "{\"name\":\"Cy\",\"invite\":\"%s\"}", codes[1]);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/ann-turns", 1, 10), 1);
    ck_assert_int_eq(settle(d, 10), 0);
    int joined = 0;
    pthread_mutex_lock(&R->mu);
    for (int i = 0; i < R->n; i++)
        joined += strstr(R->hits[i].body, "player.joined") != NULL || strstr(R->hits[i].body, " joined game ") != NULL;
    pthread_mutex_unlock(&R->mu);
    ck_assert_int_eq(joined, 2);   /* Bob's, in json and on Discord */
    es = e2e_me_events_all(c, ann_key);
    ck_assert_int_eq(json_array_size(es), 3);   /* player_joined, game_started, turn */
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 1), "kind"), "game_started");
    json_decref(es);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* A waiting game cancelled by its creator: the endpoints its seats added while it waited get game.finished,
 * "reason": "cancelled", seq 0, no scores and no winner (json, as documented; Discord in a line). Cancelled by
 * its expiry, they first get game.expiring (half the TTL before, with these 4 s), and its seats' players
 * game_expiring, then game_over. The clock looks every 50 ms: at its default 1 s, a tick a little over 1 s after
 * the last could step over the warning's window (TTL/2 to TTL) and cancel the game unwarned. */
START_TEST(waiting_cancel_told)
{
    /* round 0: its creator cancels it; 1: nobody joins it for CARCD_WAITING_TTL, and carcd cancels it */
    for (int round = 0; round < 2; round++) {
        static const char *env_expiry[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,1,1",
                                           "CARCD_PUBLIC_URL=https://carc.example", "CARCD_WAITING_TTL=4",
                                           "CARCD_CLOCK_INTERVAL_MS=50", NULL};
        receiver *R = receiver_start();
        e2e_daemon *d = e2e_daemon_up(round ? env_expiry : env_public);
        e2e_client *c = e2e_client_new(d);
        e2e_openapi_load();
        e2e_resp r;
        char ann_key[80], body[300];
        e2e_player_key(c, "Ann", ann_key, sizeof ann_key);
        snprintf(body, sizeof body,
                 "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},{\"invite\":true}]}",
                 ann_key);
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
        e2e_game g = {.nplayers = 3};
        char creator[80], path[200];
        snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
        snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
        snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
        e2e_resp_free(&r);
        hook all = hook_create(c, &g, g.token[0], R, "/ann", "json", NULL);
        hook_create(c, &g, g.token[0], R, "/ann-discord", "discord", NULL);
        char expires[40] = "";
        if (round == 0) {
            snprintf(path, sizeof path, "/v1/games/%s/cancel", g.id);
            ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
            ck_assert_str_eq(e2e_jstr(r.json, "status"), "cancelled");
            e2e_resp_free(&r);
        } else {
            snprintf(path, sizeof path, "/v1/games/%s", g.id);
            json_t *v = e2e_get_ok(c, path, NULL, 200);
            snprintf(expires, sizeof expires, "%s", e2e_jstr(v, "expires_at"));
            json_decref(v);
        }
        int want_n = round ? 4 : 2;   /* game.expiring first in round 1, then game.finished, in both formats */
        ck_assert_int_eq(wait_prefix(R, "/ann", want_n, 10), want_n);
        ck_assert_int_eq(settle(d, 10), 0);
        json_t *j = hit_documented(R, "/ann", "game.finished", all.secret, "GameFinishedPayload");
        ck_assert_str_eq(e2e_jstr(j, "data.game"), g.id);
        ck_assert_str_eq(e2e_jstr(j, "data.reason"), "cancelled");
        ck_assert_int_eq(e2e_jint(j, "data.seq"), 0);
        ck_assert_int_eq(json_array_size(e2e_jget(j, "data.scores")), 0);
        ck_assert_int_eq(json_array_size(e2e_jget(j, "data.winners")), 0);
        ck_assert_str_eq(e2e_jstr(j, "data.seed"), "");
        ck_assert_str_eq(e2e_jstr(j, "data.cancelled_by"), round ? "expiry" : "creator");
        json_decref(j);
        j = hit_json(R, "/ann-discord", "was cancelled", NULL);
        ck_assert_msg(j != NULL, "no Discord message");
        char want[400];
        snprintf(want, sizeof want, "Game `%.8s` was cancelled %s.\nGame: https://carc.example/games/%s", g.id,
                 round ? "before it started: nobody joined it for too long" : "by its creator before it started", g.id);
        ck_assert_str_eq(e2e_jstr(j, "content"), want);
        json_decref(j);
        if (round == 1) {   /* the warning: when, and who is at the table */
            j = hit_documented(R, "/ann", "game.expiring", all.secret, "GameExpiringPayload");
            ck_assert_str_eq(e2e_jstr(j, "data.game"), g.id);
            ck_assert_str_eq(e2e_jstr(j, "data.expires_at"), expires);
            ck_assert_int_eq(e2e_jint(j, "data.seq"), 0);
            ck_assert_int_eq(e2e_jint(j, "data.seats"), 3);
            ck_assert_int_eq(e2e_jint(j, "data.taken"), 1);
            ck_assert_int_eq(e2e_jint(j, "data.open"), 2);
            ck_assert_str_eq(e2e_jstr(j, "data.players.0"), "Ann");
            json_decref(j);
            j = hit_json(R, "/ann-discord", "is cancelled on", NULL);
            ck_assert_msg(j != NULL, "no Discord warning");
            snprintf(want, sizeof want, "Game `%.8s` is cancelled on %s unless someone joins: nobody joined it for "
                     "2 seconds; 1 of 3 seats taken (Ann), 2 open.\nGame: https://carc.example/games/%s",
                     g.id, expires, g.id);
            ck_assert_str_eq(e2e_jstr(j, "content"), want);
            json_decref(j);
        }
        ck_assert_int_eq(count_prefix(R, "/ann"), want_n);   /* one each, and nothing else */
        json_t *es = e2e_me_events_all(c, ann_key);   /* Ann's stream: the warning, then the end */
        ck_assert_int_eq(json_array_size(es), round ? 2 : 1);
        if (round == 1) {
            ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "kind"), "game_expiring");
            ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "game"), g.id);
            ck_assert_int_eq(e2e_jint(json_array_get(es, 0), "seat"), 0);
        }
        ck_assert_str_eq(e2e_jstr(json_array_get(es, round), "kind"), "game_over");
        json_decref(es);
        e2e_client_free(c);
        e2e_daemon_down(d);
        receiver_stop(R);
    }
}
END_TEST

/* A waiting game whose warning keeps failing is said in carcd's log, with its SQLSTATE, and is never cancelled
 * unwarned; it holds up no other game's warning or expiry, though it comes first: with game_expiring refused by
 * the table, Ann's game (her player key: the warning writes her stream) fails every tick, and the game created
 * after it (no player key: nothing refused) is warned and cancelled all the same. */
START_TEST(upkeep_failure_said)
{
    static const char *env[] = {"CARCD_WAITING_TTL=2", "CARCD_CLOCK_INTERVAL_MS=50", NULL};   /* see above */
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    char key[80], body[300], path[200], ann[40];
    e2e_player_key(c, "Ann", key, sizeof key);
    ck_assert_int_eq(e2e_db_long(d, "ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check; "
                                    "ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check "
                                    "CHECK (kind <> 'game_expiring'); SELECT 1"),
                     1);
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true}]}", key);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    snprintf(ann, sizeof ann, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Bo\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    json_t *v = e2e_wait_status(c, path, "cancelled", 10);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");   /* the later game */
    ck_assert_str_eq(e2e_jstr(v, "cancelled_by"), "expiry");
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s", ann);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");   /* older, its expiry past: not told, so not cancelled */
    json_decref(v);
    char *log = e2e_daemon_log(d), line[200];
    snprintf(line, sizeof line, "lobby: game %s could not be told it will be cancelled (SQLSTATE 23514: ", ann);
    ck_assert_msg(strstr(log, line), "no line \"%s\" in the log", line);
    free(log);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* After game.expiring, its creator keeps the game open: the endpoints that were told the date get game.kept_open
 * with the new one (json, as documented; Discord in a line) and its seats' players game_kept_open; a keep-open
 * with no warning before it tells nobody. */
START_TEST(waiting_kept_open_told)
{
    static const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,1,1",
                                "CARCD_PUBLIC_URL=https://carc.example", "CARCD_WAITING_TTL=8",
                                "CARCD_CLOCK_INTERVAL_MS=50", NULL};   /* the keep-open well before the expiry */
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_openapi_load();
    char ann_key[80], body[300], creator[80], path[200], kept[40];
    e2e_player_key(c, "Ann", ann_key, sizeof ann_key);
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true}]}", ann_key);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    e2e_game g = {.nplayers = 2};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_resp_free(&r);
    hook all = hook_create(c, &g, g.token[0], R, "/ann", "json", NULL);
    hook_create(c, &g, g.token[0], R, "/ann-discord", "discord", NULL);
    ck_assert_int_eq(wait_prefix(R, "/ann", 2, 10), 2);   /* game.expiring, 4 s in */
    snprintf(path, sizeof path, "/v1/games/%s/keep-open", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    snprintf(kept, sizeof kept, "%s", e2e_jstr(r.json, "expires_at"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);   /* told already: nothing more */
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/ann", 4, 10), 4);
    ck_assert_int_eq(settle(d, 10), 0);
    json_t *j = hit_documented(R, "/ann", "game.kept_open", all.secret, "GameKeptOpenPayload");
    ck_assert_str_eq(e2e_jstr(j, "data.game"), g.id);
    ck_assert_str_eq(e2e_jstr(j, "data.expires_at"), kept);
    ck_assert_int_eq(e2e_jint(j, "data.taken"), 1);
    ck_assert_int_eq(e2e_jint(j, "data.open"), 1);
    ck_assert_str_eq(e2e_jstr(j, "data.kept_by"), "creator");
    json_decref(j);
    j = hit_json(R, "/ann-discord", "kept open", NULL);
    ck_assert_msg(j != NULL, "no Discord message");
    char want[400];
    snprintf(want, sizeof want, "Game `%.8s` is kept open by its creator until %s: 1 of 2 seats taken (Ann), 1 open."
             "\nGame: https://carc.example/games/%s", g.id, kept, g.id);
    ck_assert_str_eq(e2e_jstr(j, "content"), want);
    json_decref(j);
    json_t *es = e2e_me_events_all(c, ann_key);
    ck_assert_int_eq(json_array_size(es), 2);
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "kind"), "game_expiring");
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 1), "kind"), "game_kept_open");
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 1), "game"), g.id);
    json_decref(es);
    ck_assert_int_eq(count_prefix(R, "/ann"), 4);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* A seat that joined leaves before the start: the endpoints of the seats that stay hear who left and who is at
 * the table now (json, as documented; Discord in a line); those of the seat that left hear that last event, as
 * a bot that follows its seat by webhook alone must, and then nothing (sql/033: no list shows them); the
 * players of the seats that stay get player_left in GET /v1/me/events, with their seat as it is now. Then the
 * creator removes Cy: her endpoint hears it, with "removed": true. */
START_TEST(player_left_told)
{
    receiver *R = receiver_start();
    e2e_daemon *d = e2e_daemon_up(env_public);
    e2e_client *c = e2e_client_new(d);
    e2e_openapi_load();
    char ann_key[80], bob_key[80], cy_key[80], body[600], codes[2][80], path[200];
    e2e_player_key(c, "Ann", ann_key, sizeof ann_key);
    e2e_player_key(c, "Bob", bob_key, sizeof bob_key);
    e2e_player_key(c, "Cy", cy_key, sizeof cy_key);
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},{\"invite\":true},"
             "{\"invite\":true}]}", ann_key);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    e2e_game g = {.nplayers = 4};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    char creator[80];
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(codes[0], sizeof codes[0], "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(codes[1], sizeof codes[1], "%s", e2e_jstr(r.json, "invites.1.invite"));
    e2e_resp_free(&r);
    /* Bob (seat 1) and Cy (seat 2) join with their keys; each seat adds an endpoint */
    snprintf(path, sizeof path, "/v1/games/%s/join", g.id);
    const char *keys[] = {bob_key, cy_key}, *names[] = {"Bob", "Cy"};
    for (int i = 0; i < 2; i++) {
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"invite\":\"%s\",\"player_key\":\"%s\"}", names[i], codes[i],
                 keys[i]);
        ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
        snprintf(g.token[i + 1], sizeof g.token[i + 1], "%s", e2e_jstr(r.json, "token"));
        e2e_resp_free(&r);
    }
    hook all = hook_create(c, &g, g.token[0], R, "/ann", "json", NULL);
    hook_create(c, &g, g.token[0], R, "/ann-discord", "discord", NULL);
    hook bob = hook_create(c, &g, g.token[1], R, "/bob", "json", NULL);
    hook cy = hook_create(c, &g, g.token[2], R, "/cy", "json", "[\"player.left\"]");

    /* Bob leaves, with his key */
    snprintf(path, sizeof path, "/v1/games/%s/leave", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, bob_key, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/ann", 2, 10), 2);   /* /ann and /ann-discord */
    ck_assert_int_eq(wait_prefix(R, "/cy", 1, 10), 1);
    ck_assert_int_eq(settle(d, 10), 0);
    json_t *j = hit_documented(R, "/ann", "player.left", all.secret, "PlayerLeftPayload");
    ck_assert_str_eq(e2e_jstr(j, "data.game"), g.id);
    ck_assert_str_eq(e2e_jstr(j, "data.player"), "Bob");
    ck_assert_int_eq(e2e_jint(j, "data.seat"), 1);
    ck_assert_int_eq(json_array_size(e2e_jget(j, "data.players")), 2);
    ck_assert_str_eq(e2e_jstr(j, "data.players.1"), "Cy");
    ck_assert_int_eq(e2e_jint(j, "data.seats"), 4);
    ck_assert_int_eq(e2e_jint(j, "data.taken"), 2);
    ck_assert_int_eq(e2e_jint(j, "data.open"), 2);
    json_decref(j);
    json_decref(hit_documented(R, "/cy", "player.left", cy.secret, "PlayerLeftPayload"));
    j = hit_json(R, "/ann-discord", NULL, NULL);
    ck_assert_msg(j != NULL, "no Discord message");
    char want[300];
    snprintf(want, sizeof want, "**Bob** left game `%.8s` before it started: 2 of 4 seats taken (Ann and Cy), 2 "
                                "open.\nGame: https://carc.example/games/%s", g.id, g.id);
    ck_assert_str_eq(e2e_jstr(j, "content"), want);
    json_decref(j);
    /* his seat's last word; his endpoint is nobody's now, and no list shows it */
    assert_left(hit_documented(R, "/bob", "player.left", bob.secret, "PlayerLeftPayload"), 1, "Bob", false);
    ck_assert_int_eq(count_prefix(R, "/bob"), 1);
    ck_assert_int_eq(endpoints_listed(c, d, g.id), 3);

    /* the streams: Ann (seat 0) and Cy (seat 1 now) hear it, Bob does not */
    json_t *es = e2e_me_events_all(c, ann_key);
    ck_assert_int_eq(json_array_size(es), 3);   /* Bob joined, Cy joined, Bob left */
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 2), "kind"), "player_left");
    ck_assert_int_eq(e2e_jint(json_array_get(es, 2), "seat"), 0);
    json_decref(es);
    es = e2e_me_events_all(c, cy_key);
    ck_assert_int_eq(json_array_size(es), 1);
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "kind"), "player_left");
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "game"), g.id);
    ck_assert_int_eq(e2e_jint(json_array_get(es, 0), "seat"), 1);
    json_decref(es);
    es = e2e_me_events_all(c, bob_key);
    ck_assert_int_eq(json_array_size(es), 1);   /* Cy's join, before he left */
    ck_assert_str_eq(e2e_jstr(json_array_get(es, 0), "kind"), "player_joined");
    json_decref(es);

    /* the creator removes Cy (seat 1 now): her endpoint hears it, as Ann's do; Bob's hears nothing more */
    snprintf(path, sizeof path, "/v1/games/%s/seats/1/remove", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/cy", 2, 10), 2);
    ck_assert_int_eq(wait_prefix(R, "/ann", 4, 10), 4);
    ck_assert_int_eq(settle(d, 10), 0);
    assert_left(last_hit_documented(R, "/cy", cy.secret, "PlayerLeftPayload"), 1, "Cy", true);
    ck_assert_int_eq(count_prefix(R, "/bob"), 1);
    ck_assert_int_eq(endpoints_listed(c, d, g.id), 2);   /* Ann's two */
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

/* CARCD_DELIVERY_TTL after its last attempt an ended message is forgotten, its attempts with it, and a gone
 * endpoint (a seat that left, sql/033) once its messages are; a message still pending is kept however old. */
START_TEST(deliveries_forgotten)
{
    receiver *R = receiver_start();
    const double ttl_s = 8;   /* /ok's messages are listed once /flaky has its three, before any goes */
    int ttl = (int)(ttl_s * E2E_SLACK);
    char ttl_env[64];
    snprintf(ttl_env, sizeof ttl_env, "CARCD_DELIVERY_TTL=%d", ttl);
    /* a failed attempt is tried again in 10 minutes: /flaky's messages stay pending through the test */
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_WEBHOOK_BACKOFF=0,600",
                         "CARCD_CLOCK_INTERVAL_MS=50", ttl_env, NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);

    /* a waiting game: Bob's endpoint hears that he left, and is gone */
    char ann_key[80], bob_key[80], body[400], path[200];
    e2e_player_key(c, "Ann", ann_key, sizeof ann_key);
    e2e_player_key(c, "Bob", bob_key, sizeof bob_key);
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},"
                                "{\"invite\":true}]}", ann_key);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    e2e_game w = {.nplayers = 3};
    snprintf(w.id, sizeof w.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\",\"player_key\":\"%s\"}",
             e2e_jstr(r.json, "invites.0.invite"), bob_key);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/join", w.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    snprintf(w.token[1], sizeof w.token[1], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    hook_create(c, &w, w.token[1], R, "/bob", "json", "[\"player.left\"]");
    snprintf(path, sizeof path, "/v1/games/%s/leave", w.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, bob_key, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(wait_prefix(R, "/bob", 1, 10), 1);

    /* a game under way: /ok takes every message at once, /flaky answers each first attempt 500 */
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    hook ok = hook_create(c, &g, d->admin, R, "/ok", "json", NULL);
    hook flaky = hook_create(c, &g, d->admin, R, "/flaky", "json", "[\"move.made\"]");
    e2e_rng rng = {21};
    for (int i = 0; i < 3; i++)
        move_ok(c, &g, &rng, NULL, NULL);
    ck_assert_int_eq(wait_prefix(R, "/flaky", 3, 10), 3);
    json_t *dl = deliveries(c, d, &g, &ok);
    size_t delivered = json_array_size(json_object_get(dl, "deliveries"));
    long long did = e2e_jint(dl, "deliveries.0.id");
    json_decref(dl);
    ck_assert_msg(delivered >= 3, "/ok has %zu deliveries listed", delivered);   /* within the TTL: all there */
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM webhook_endpoints WHERE gone_at IS NOT NULL"), 1);

    /* the TTL after each message's attempt: /ok's are gone from the list and the tables, with Bob's endpoint;
     * /flaky's, pending, stay */
    long left = e2e_db_long_until(d, "SELECT count(*) FROM webhook_outbox WHERE state <> 'pending'", 0, ttl_s + 20);
    ck_assert_msg(left == 0, "%ld ended messages kept past the TTL of %d s", left, ttl);
    ck_assert_int_eq(e2e_db_long_until(d, "SELECT count(*) FROM webhook_endpoints WHERE gone_at IS NOT NULL", 0, 5), 0);
    dl = deliveries(c, d, &g, &ok);
    ck_assert_int_eq(json_array_size(json_object_get(dl, "deliveries")), 0);
    json_decref(dl);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries/%lld/redeliver", g.id, ok.id, did);
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, NULL, NULL, &r), 404);   /* gone: nothing to send again */
    e2e_resp_free(&r);
    dl = deliveries(c, d, &g, &flaky);
    ck_assert_int_eq(json_array_size(json_object_get(dl, "deliveries")), 3);
    ck_assert_str_eq(e2e_jstr(dl, "deliveries.0.state"), "pending");
    ck_assert_int_eq(json_array_size(e2e_jget(dl, "deliveries.0.attempts")), 1);   /* its attempt with it */
    json_decref(dl);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM webhook_attempts"), 3);   /* /flaky's three, no more */

    /* a pending message is kept however long it waits: carcd again, delivering nothing (concurrency 0), with
     * two of /flaky's messages a day past their due time and the third ended as long ago */
    ck_assert_int_eq(e2e_daemon_stop(d), 0);
    int k = 0;
    while (d->extra_env[k])
        k++;
    d->extra_env[k] = "CARCD_WEBHOOK_CONCURRENCY=0";
    d->extra_env[k + 1] = NULL;
    ck_assert_int_eq(e2e_db_long(d, "WITH u AS (UPDATE webhook_outbox SET due_at = now() - interval '1 day', "
                                    "state = CASE WHEN id = (SELECT min(id) FROM webhook_outbox) THEN 'failed' "
                                    "ELSE state END RETURNING 1) SELECT count(*) FROM u"),
                     3);
    e2e_daemon_start(d);
    e2e_db_long_until(d, "SELECT count(*) FROM webhook_outbox", 2, 10);   /* the ended one goes */
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM webhook_outbox WHERE state <> 'pending'"), 0);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM webhook_outbox WHERE state = 'pending'"), 2);
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, " webhook messages, 1 gone endpoints, "),
                  "the log does not say the gone endpoint was forgotten");
    free(log);
    e2e_client_free(c);
    e2e_daemon_down(d);
    receiver_stop(R);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_webhooks");
    TCase *tc = e2e_tcase("webhooks", 120);
    tcase_add_test(tc, signed_and_retried);
    tcase_add_test(tc, gone_disables);
    tcase_add_test(tc, killed_between_move_and_delivery);
    tcase_add_test(tc, two_processes_exactly_once);
    tcase_add_test(tc, marked_delivered_at_once);
    tcase_add_test(tc, slow_receiver_delays_nothing);
    tcase_add_test(tc, addresses_guarded);
    tcase_add_test(tc, endpoints_limited_per_seat);
    tcase_add_test(tc, private_172_refused);
    tcase_add_test(tc, payloads_public_and_documented);
    tcase_add_test(tc, turn_started_skips_forced_steps);
    tcase_add_test(tc, latency_report);
    tcase_add_test(tc, player_joined_told);
    tcase_add_test(tc, waiting_cancel_told);
    tcase_add_test(tc, upkeep_failure_said);
    tcase_add_test(tc, waiting_kept_open_told);
    tcase_add_test(tc, player_left_told);
    tcase_add_test(tc, deliveries_forgotten);
    suite_add_tcase(s, tc);
    TCase *chat = e2e_tcase("chat", 240);
    tcase_add_test(chat, chat_fits_six_long_names);
    suite_add_tcase(s, chat);
    return e2e_run(s);
}
