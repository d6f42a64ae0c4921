/*
 * deliver.c — the webhook delivery worker (deliver.h): claim, send, record, on one thread with libcurl multi.
 *
 * The loop: claim due rows while there are free slots (when woken by a NOTIFY, when the next row falls due,
 * or at least every second), add one easy handle per row to the multi handle, wait in curl_multi_poll on
 * curl's sockets and the LISTEN connection, record every finished transfer. Database work (claims and
 * records) is a few short statements on this thread's own connection (cd_db_thread); while the database is
 * down the worker sends what it holds and retries the rest a second later.
 */
#include "deliver.h"

#include <curl/curl.h>
#include <errno.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "db/db.h"
#include "base/log.h"
#include "base/metrics.h"
#include "base/timesrc.h"
#include "netguard.h"
#include "db/listener.h"
#include "db/webhook_worker.h"
#include "webhooks.h"

#define LEASE_MARGIN_S 10        /* a lease lasts the attempt's timeout and this */
#define IDLE_POLL_S 1.0          /* look for due rows at least this often */
#define RETRY_AFTER_MAX_S (7 * 86400.0)
#define SNIPPET 120              /* bytes of a refusing answer's body kept in the attempt's error */

typedef struct xfer {
    CURL *h;
    struct curl_slist *hdrs;
    long long id;
    char lease[40];
    int attempt, tries;
    char endpoint[40];
    char msg_id[64];
    char *body;
    size_t body_len;
    char refused[256];       /* set by the address check: why the connection was not made */
    bool final;              /* a failure that no retry can mend (the endpoint is disabled) */
    double t0;
    double age;              /* seconds from the message's writing to its claim (metrics: delivery latency) */
    double retry_after;      /* seconds asked for by Retry-After; < 0: none */
    char snippet[SNIPPET + 1];
    size_t nsnip;
    char errbuf[CURL_ERROR_SIZE];
    CURLcode rc;             /* how the transfer ended (run_transfers) */
    struct xfer *next;
} xfer;

static struct {
    pthread_t thread;
    bool started;
    atomic_bool stop;
    CURLM *multi;
    const cd_config *cfg;
    /* this process's worker id, in every attempt row: random, so that the deliveries an endpoint's owner reads
     * do not name the machine and PID that sent them; the log line at start maps it to host:pid */
    char worker[40];
} W;

static uint64_t rng_state;

/* Uniform in [0, 1): jitter only, nothing secret. */
static double jitter01(void)
{
    if (rng_state == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        rng_state = ((uint64_t)ts.tv_nsec << 21) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 7) ^ 1;
    }
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

/* ---- curl callbacks ---------------------------------------------------------------------------------------- */

/* Every address curl is about to connect to, after resolution: refused unless netguard allows it. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    xfer *x = arg;
    if (purpose != CURLSOCKTYPE_IPCXN) {
        snprintf(x->refused, sizeof x->refused, "not an outgoing connection");
        return CURL_SOCKET_BAD;
    }
    char why[160];
    if (!cd_netguard_allows(&cd_webhooks_settings()->guard, &a->addr, why, sizeof why)) {
        snprintf(x->refused, sizeof x->refused, "%s; not delivered there (CARCD_WEBHOOK_ALLOW)", why);
        return CURL_SOCKET_BAD;
    }
    return socket(a->family, a->socktype, a->protocol);
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
    xfer *x = arg;
    size_t len = size * n;
    if (len > 12 && strncasecmp(data, "Retry-After:", 12) == 0) {
        char v[80];
        size_t k = len - 12 < sizeof v - 1 ? len - 12 : sizeof v - 1;
        memcpy(v, data + 12, k);
        v[k] = 0;
        char *s = v;
        while (*s == ' ' || *s == '\t')
            s++;
        char *end;
        errno = 0;
        long secs = strtol(s, &end, 10);
        if (end != s && !errno && secs >= 0 && (*end == '\r' || *end == '\n' || *end == 0)) {
            x->retry_after = (double)secs;
        } else {
            time_t when = curl_getdate(s, NULL);   /* an HTTP-date */
            if (when > 0)
                x->retry_after = difftime(when, time(NULL)) > 0 ? difftime(when, time(NULL)) : 0;
        }
        if (x->retry_after > RETRY_AFTER_MAX_S)
            x->retry_after = RETRY_AFTER_MAX_S;
    }
    return len;
}

/* The answer's body is not needed; its beginning is kept for the record of a refusal. */
static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    xfer *x = arg;
    size_t len = size * n;
    for (size_t i = 0; i < len && x->nsnip < SNIPPET; i++) {
        unsigned char c = (unsigned char)data[i];
        x->snippet[x->nsnip++] = c >= 0x20 && c < 0x7f ? (char)c : ' ';
    }
    x->snippet[x->nsnip] = 0;
    return len;
}

/* ---- recording outcomes ------------------------------------------------------------------------------------ */
typedef struct {
    const xfer *x;
    const char *state;      /* pending, delivered, failed */
    double delay;           /* pending: seconds until the next attempt */
    long status;            /* 0: no HTTP answer */
    const char *error;      /* NULL when delivered */
    int duration_ms;
    bool gone;              /* 410: disable the endpoint */
    bool refund;            /* the attempt does not count (carcd stopped) */
} outcome;

static cd_tx_result record_tx(cd_db *db, void *arg)
{
    const outcome *o = arg;
    if (cd_outbox_attempt_done(db, o->x->id, o->x->attempt, o->duration_ms, o->status, o->error) != CD_Q_OK)
        return CD_TX_ERROR;
    bool still_ours = false;
    if (cd_outbox_done(db, o->x->id, o->x->lease, o->state, o->delay, o->status, o->error, o->refund, &still_ours) !=
        CD_Q_OK)
        return CD_TX_ERROR;
    if (o->gone && still_ours &&
        cd_outbox_endpoint_gone(db, o->x->endpoint, "the receiver answered 410 Gone") != CD_Q_OK)
        return CD_TX_ERROR;
    return CD_TX_COMMIT;
}

static void record(const outcome *o)
{
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    bool down = false;
    if (!db || cd_db_tx(db, record_tx, (void *)o, &down) != CD_TX_COMMIT)
        /* the lease will run out and the message be sent again: at least once */
        cd_log("warn", "webhooks: the outcome of delivery %lld attempt %d could not be recorded%s", o->x->id,
               o->x->attempt, down || !db ? " (the database cannot be reached)" : "");
}

/* A 2xx: one autocommitted statement (cd_outbox_delivered), sent before anything else the worker has to do, since
 * until it commits a carcd killed now would leave the message to be sent again when its lease ends. A failure
 * is tried once more, on a fresh connection when the old one broke (the next cd_db_thread reconnects). */
static void mark_delivered(const outcome *o)
{
    for (int tries = 0; tries < 2; tries++) {
        char err[256];
        cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
        if (!db)
            continue;
        if (cd_outbox_delivered(db, o->x->id, o->x->lease, o->x->attempt, o->status, o->duration_ms) == CD_Q_OK)
            return;
    }
    /* the lease will run out and the message be sent again, with the same webhook-id: at least once */
    cd_log("warn", "webhooks: delivery %lld (%s) attempt %d was answered %ld but could not be marked delivered; it "
           "will be sent again when its lease ends", o->x->id, o->x->msg_id, o->x->attempt, o->status);
}

/* ---- one transfer --------------------------------------------------------------------------------------------- */
static void xfer_free(xfer *x)
{
    if (!x)
        return;
    if (x->h)
        curl_easy_cleanup(x->h);
    curl_slist_free_all(x->hdrs);
    free(x->body);
    free(x);
}

/* Sets up the request and adds it to the multi handle. -1 (with x->refused set) when it cannot be sent. */
static int xfer_start(xfer *x, const char *url, const char *secret)
{
    const cd_wh_settings *s = cd_webhooks_settings();
    long long ts = (long long)time(NULL);
    char sig[CD_WH_SIG_LEN + 1];
    if (cd_wh_sign(secret, x->msg_id, ts, x->body, x->body_len, sig) != 0) {
        snprintf(x->refused, sizeof x->refused, "the endpoint's secret is malformed");
        return -1;
    }
    char line[200];
    x->hdrs = curl_slist_append(x->hdrs, "Content-Type: application/json");
    x->hdrs = curl_slist_append(x->hdrs, "User-Agent: carcd-webhooks/1");
    x->hdrs = curl_slist_append(x->hdrs, "Expect:");
    snprintf(line, sizeof line, "webhook-id: %s", x->msg_id);
    x->hdrs = curl_slist_append(x->hdrs, line);
    snprintf(line, sizeof line, "webhook-timestamp: %lld", ts);
    x->hdrs = curl_slist_append(x->hdrs, line);
    snprintf(line, sizeof line, "webhook-signature: %s", sig);
    x->hdrs = curl_slist_append(x->hdrs, line);
    x->h = curl_easy_init();
    if (!x->h || !x->hdrs)
        abort();   /* out of memory */
    CURL *h = x->h;
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROXY, "");   /* never through a proxy from the environment */
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, x->body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)x->body_len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->hdrs);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)s->connect_s * 1000L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)s->timeout_s * 1000L);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, x);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(h, CURLOPT_PRIVATE, x);
    x->t0 = cd_now();
    if (curl_multi_add_handle(W.multi, h) != CURLM_OK) {
        snprintf(x->refused, sizeof x->refused, "cannot start the request");
        return -1;
    }
    return 0;
}

/* The delay before the next attempt after `tries` failed ones in this round, or -1 to give up. */
static double next_delay(int tries, double retry_after)
{
    const cd_wh_settings *s = cd_webhooks_settings();
    if (tries >= s->nbackoff)
        return -1;
    double d = s->backoff[tries] * (0.9 + 0.2 * jitter01());
    return retry_after > d ? retry_after : d;
}

/* A transfer ended (or could not start: rc is then CURLE_FAILED_INIT and x->refused says why). */
static void xfer_done(xfer *x, CURLcode rc)
{
    long status = 0;
    if (x->h && rc != CURLE_FAILED_INIT)
        curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
    outcome o = {.x = x, .status = status};
    double ms = x->t0 > 0 ? (cd_now() - x->t0) * 1000.0 : 0;
    o.duration_ms = ms > 2e9 ? 2000000000 : (int)ms;
    if (x->t0 > 0)
        cd_metrics_webhook_attempt_seconds(ms / 1000.0);
    char err[600] = "";
    if (rc == CURLE_OK && status >= 200 && status < 300) {
        o.state = "delivered";
        cd_metrics_webhook_delivered();
        cd_metrics_webhook_delivery_latency(x->age + ms / 1000.0);
        mark_delivered(&o);
        return;
    }
    cd_metrics_webhook_failed();
    if (x->refused[0] && rc != CURLE_FAILED_INIT)   /* curl may have tried another address after it */
        snprintf(err, sizeof err, "%s; %s", x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc), x->refused);
    else if (x->refused[0])
        snprintf(err, sizeof err, "%s", x->refused);
    else if (rc != CURLE_OK)
        snprintf(err, sizeof err, "%s", x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc));
    else
        snprintf(err, sizeof err, "HTTP %ld%s%s", status, x->nsnip ? ": " : "", x->snippet);
    if (rc == CURLE_OK && status == 410) {
        o.state = "failed";
        o.gone = true;
        cd_metrics_webhook_gone();
        cd_log("info", "webhooks: endpoint %s answered 410 Gone: disabled", x->endpoint);
    } else {
        o.delay = x->final ? -1 : next_delay(x->tries, x->retry_after);
        if (o.delay < 0) {
            o.state = "failed";
            cd_metrics_webhook_exhausted();
            size_t n = strlen(err);
            if (!x->final)
                snprintf(err + n, sizeof err - n, " (gave up after %d attempts)", x->tries);
            cd_log("info", "webhooks: delivery %lld (%s) to endpoint %s failed: %s", x->id, x->msg_id, x->endpoint,
                   err);
        } else {
            o.state = "pending";
        }
    }
    o.error = err;
    record(&o);
}

/* ---- claiming ------------------------------------------------------------------------------------------------------ */
/* Claims up to `limit` due rows and starts them; the number claimed, or -1 when the database failed. */
static int claim(int limit, xfer **inflight, int *ninflight)
{
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    if (!db)
        return -1;
    cd_claim_rows rows;
    char msg[200];
    if (cd_outbox_claim(db, limit, cd_webhooks_settings()->timeout_s + LEASE_MARGIN_S, W.worker, &rows, msg,
                        sizeof msg) != CD_Q_OK) {
        cd_log("warn", "webhooks: claiming due deliveries failed: %s", msg);
        return -1;
    }
    int n = rows.n;
    for (int i = 0; i < n; i++) {
        const cd_claim_row *c = &rows.v[i];
        xfer *x = calloc(1, sizeof *x);
        if (!x)
            abort();
        x->id = c->id;
        snprintf(x->lease, sizeof x->lease, "%s", c->lease);
        snprintf(x->msg_id, sizeof x->msg_id, "%s", c->msg_id);
        x->body_len = c->body_len;
        x->body = malloc(x->body_len + 1);
        if (!x->body)
            abort();
        memcpy(x->body, c->body, x->body_len + 1);
        x->attempt = c->attempt;
        x->tries = c->tries;
        snprintf(x->endpoint, sizeof x->endpoint, "%s", c->endpoint_id);
        x->retry_after = -1;
        x->age = c->age_s;
        cd_metrics_webhook_attempt();
        bool disabled = c->disabled;
        if (disabled)
            snprintf(x->refused, sizeof x->refused, "not sent: the endpoint is disabled");
        if (disabled || xfer_start(x, c->url, c->secret) != 0) {
            x->final = disabled;
            xfer_done(x, CURLE_FAILED_INIT);
            if (x->h)
                curl_multi_remove_handle(W.multi, x->h);
            xfer_free(x);
            continue;
        }
        x->next = *inflight;
        *inflight = x;
        (*ninflight)++;
    }
    cd_claim_rows_free(&rows);
    return n;
}

/* Seconds until the next pending row is due (IDLE_POLL_S when none or unknown), at most IDLE_POLL_S. */
static double next_due(void)
{
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    if (!db)
        return IDLE_POLL_S;
    double d = IDLE_POLL_S, due = 0;
    bool known = false;
    cd_outbox_next_due(db, &due, &known);
    if (known)
        d = due;
    if (d < 0)
        d = 0;
    return d < IDLE_POLL_S ? d : IDLE_POLL_S;
}

static double at_least(double v, double floor)
{
    return v > floor ? v : floor;
}

/* ---- the thread ----------------------------------------------------------------------------------------------- */
static xfer *unlink_xfer(xfer **list, CURL *h)
{
    for (xfer **pp = list; *pp; pp = &(*pp)->next)
        if ((*pp)->h == h) {
            xfer *x = *pp;
            *pp = x->next;
            return x;
        }
    return NULL;
}

static bool answered_2xx(const xfer *x, CURLcode rc)
{
    long status = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
    return rc == CURLE_OK && status >= 200 && status < 300;
}

/* Lets curl move every transfer on, and records each that ended: the 2xx first (mark_delivered, one statement
 * each), then the failures (record_tx, a transaction each). true when any ended. */
static bool run_transfers(xfer **inflight, int *ninflight)
{
    int running = 0;
    curl_multi_perform(W.multi, &running);
    xfer *ok = NULL, *failed = NULL, **ok_tail = &ok, **failed_tail = &failed;
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(W.multi, &left)) != NULL) {
        if (m->msg != CURLMSG_DONE)
            continue;
        xfer *x = unlink_xfer(inflight, m->easy_handle);
        if (!x) {
            curl_multi_remove_handle(W.multi, m->easy_handle);
            continue;
        }
        (*ninflight)--;
        x->rc = m->data.result;   /* m is valid only until the handle is removed */
        curl_multi_remove_handle(W.multi, x->h);
        x->next = NULL;
        xfer ***tail = answered_2xx(x, x->rc) ? &ok_tail : &failed_tail;
        **tail = x;
        *tail = &x->next;
    }
    *ok_tail = failed;   /* the 2xx, then the failures */
    bool any = ok != NULL;
    while (ok) {
        xfer *x = ok;
        ok = x->next;
        xfer_done(x, x->rc);
        xfer_free(x);
    }
    return any;
}

static void *worker_main(void *arg)
{
    (void)arg;
    const int max = cd_webhooks_settings()->concurrency;
    xfer *inflight = NULL;
    int ninflight = 0;
    cd_listener *lc = NULL;
    double lc_retry = 0, next_claim = 0;
    while (!atomic_load(&W.stop)) {
        double now = cd_now();
        if (!lc && now >= lc_retry) {
            lc = cd_listener_open(W.cfg->database_url, "carcd_webhooks");
            if (!lc)
                lc_retry = now + 1.0;
            else
                next_claim = now;   /* notifications may have been missed meanwhile */
        }
        /* answers first: a receiver's 2xx is marked before the claim's round trip, not after it */
        if (run_transfers(&inflight, &ninflight))
            next_claim = cd_now();   /* a slot is free, and the endpoint's next message may go now */
        now = cd_now();
        if (now >= next_claim && ninflight < max) {
            int want = max - ninflight;
            int got = claim(want, &inflight, &ninflight);
            /* a full batch: there may be more due at once */
            if (got < 0)
                next_claim = now + 1.0;
            else if (got == want)
                next_claim = now;
            else   /* no sooner than 10 ms: rows another worker is claiming right now look due */
                next_claim = now + at_least(next_due(), 0.01);
            if (got > 0 && run_transfers(&inflight, &ninflight))   /* starts what was claimed */
                next_claim = cd_now();
        }
        now = cd_now();
        double wait = next_claim - now;
        if (ninflight >= max)
            wait = IDLE_POLL_S;   /* no room: wait for transfers to end */
        int wait_ms = wait <= 0 ? 0 : wait > IDLE_POLL_S ? (int)(IDLE_POLL_S * 1000) : (int)(wait * 1000) + 1;
        struct curl_waitfd extra = {0};
        int nextra = 0;
        if (lc) {
            extra.fd = cd_listener_fd(lc);
            extra.events = CURL_WAIT_POLLIN;
            nextra = extra.fd >= 0 ? 1 : 0;
        }
        curl_multi_poll(W.multi, nextra ? &extra : NULL, (unsigned)nextra, wait_ms, NULL);
        if (lc && cd_listener_drain(&lc))
            next_claim = cd_now();
    }
    /* stopping: what is in flight goes back, due at once and not counted, for this or another carcd */
    while (inflight) {
        xfer *x = inflight;
        inflight = x->next;
        curl_multi_remove_handle(W.multi, x->h);
        outcome o = {.x = x, .state = "pending", .delay = 0, .error = "not finished: carcd was stopping",
                     .refund = true};
        record(&o);
        xfer_free(x);
    }
    cd_listener_close(lc);
    cd_db_thread_close();
    return NULL;
}

int cd_deliver_start(const cd_config *cfg, char *err, size_t errlen)
{
    if (cfg->webhook_concurrency <= 0 || W.started)
        return 0;
    W.cfg = cfg;
    atomic_store(&W.stop, false);
    char host[100] = "";
    if (gethostname(host, sizeof host) != 0 || !host[0])
        snprintf(host, sizeof host, "carcd");
    host[sizeof host - 1] = 0;
    unsigned char id[8];
    if (RAND_bytes(id, sizeof id) != 1) {
        snprintf(err, errlen, "webhooks: no random bytes for the worker id");
        return -1;
    }
    int k = snprintf(W.worker, sizeof W.worker, "w-");
    for (size_t i = 0; i < sizeof id; i++)
        k += snprintf(W.worker + k, sizeof W.worker - (size_t)k, "%02x", id[i]);
    cd_log("info", "webhooks: delivery worker %s is %s:%d", W.worker, host, (int)getpid());
    W.multi = curl_multi_init();
    if (!W.multi) {
        snprintf(err, errlen, "webhooks: cannot create a libcurl multi handle");
        return -1;
    }
    if (pthread_create(&W.thread, NULL, worker_main, NULL) != 0) {
        curl_multi_cleanup(W.multi);
        W.multi = NULL;
        snprintf(err, errlen, "webhooks: cannot start the delivery thread");
        return -1;
    }
    W.started = true;
    return 0;
}

void cd_deliver_stop(void)
{
    if (!W.started)
        return;
    atomic_store(&W.stop, true);
    curl_multi_wakeup(W.multi);
    pthread_join(W.thread, NULL);
    curl_multi_cleanup(W.multi);
    W.multi = NULL;
    W.started = false;
}
