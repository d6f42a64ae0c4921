/*
 * metrics.c — the counters of metrics.h as static arrays of C11 atomics.
 *
 * Requests are counted per (route, status) in a dense array: routes are indexed by their position in
 * cd_routes (one more slot for "no route"), statuses 100..599 directly, so counting is one relaxed
 * fetch_add with no lookup and no lock. That is (CD_METRICS_ROUTES + 1) x 515 counters, about 390 KiB:
 * memory traded for a lock-free hot path. Rendering walks it all (~16 000 loads), which is fine for a scrape.
 * The counters are pushed by the layers that count; this file includes none of theirs.
 */
#include "metrics.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>


#define NONE CD_METRICS_ROUTES        /* the slot of requests no route matched */
#define CODE_MIN 100
#define CODE_MAX 599

/* Histogram bucket upper bounds in seconds (Prometheus' "le"), the +Inf bucket implied. */
static const double bucket_le[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
#define NBUCKETS (sizeof bucket_le / sizeof bucket_le[0])

typedef struct {
    atomic_uint_fast64_t codes[CODE_MAX - CODE_MIN + 1];
    atomic_uint_fast64_t unanswered;
    atomic_uint_fast64_t buckets[NBUCKETS + 1];   /* not cumulative; the last is (10 s, +Inf) */
    atomic_uint_fast64_t sum_us;
} route_counters;

/* A histogram of its own bounds: buckets[i] counts values in (le[i-1], le[i]], the last those above all. */
typedef struct {
    const double *le;
    size_t n;
    atomic_uint_fast64_t buckets[16];
    atomic_uint_fast64_t sum_us;
} histogram;

static const double db_le[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};
static const double lag_le[] = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};
static const double latency_le[] = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600};
#define NB(a) (sizeof a / sizeof a[0])
_Static_assert(NB(db_le) < 16 && NBUCKETS < 16 && NB(lag_le) < 16 && NB(latency_le) < 16,
               "a histogram has at most 15 bounds");
static histogram webhook_latency = {latency_le, NB(latency_le), {0}, 0};
static histogram db_roundtrip = {db_le, NB(db_le), {0}, 0};
static histogram webhook_attempt = {bucket_le, NBUCKETS, {0}, 0};
static histogram clock_lag = {lag_le, NB(lag_le), {0}, 0};

static atomic_long sse_streams;
static atomic_uint_fast64_t db_retries_40001, db_retries_40p01, webhook_exhausted, clock_reminders, clock_timeouts;

static void observe(histogram *h, double seconds)
{
    size_t b = 0;
    while (b < h->n && seconds > h->le[b])
        b++;
    atomic_fetch_add_explicit(&h->buckets[b], 1, memory_order_relaxed);
    uint64_t us = seconds > 0 ? (uint64_t)(seconds * 1e6 + 0.5) : 0;
    atomic_fetch_add_explicit(&h->sum_us, us, memory_order_relaxed);
}

static void add1(atomic_uint_fast64_t *a)
{
    atomic_fetch_add_explicit(a, 1, memory_order_relaxed);
}

void cd_metrics_sse_streams(int delta)
{
    atomic_fetch_add_explicit(&sse_streams, delta, memory_order_relaxed);
}

void cd_metrics_db_roundtrip(double seconds)
{
    observe(&db_roundtrip, seconds);
}

void cd_metrics_db_retry(const char *sqlstate)
{
    add1(sqlstate && sqlstate[2] == 'P' ? &db_retries_40p01 : &db_retries_40001);
}

void cd_metrics_webhook_attempt_seconds(double seconds)
{
    observe(&webhook_attempt, seconds);
}

void cd_metrics_webhook_delivery_latency(double seconds)
{
    observe(&webhook_latency, seconds);
}

void cd_metrics_webhook_exhausted(void)
{
    add1(&webhook_exhausted);
}

void cd_metrics_clock_action(bool timeout, double lag_s)
{
    add1(timeout ? &clock_timeouts : &clock_reminders);
    observe(&clock_lag, lag_s);
}

static route_counters routes[CD_METRICS_ROUTES + 1];
static atomic_long in_flight;
static atomic_long suspended;
static atomic_uint_fast64_t moves_applied;
static atomic_uint_fast64_t moves_one_trip, moves_one_trip_long_way;
static atomic_uint_fast64_t db_errors;
static atomic_long webhook_claimed, webhook_delivered, webhook_failed, webhook_gone;
static atomic_ullong cache_hits, cache_misses;

static int route_slot(int route)
{
    return route >= 0 && route < CD_METRICS_ROUTES ? route : NONE;
}

void cd_metrics_request_begin(void)
{
    atomic_fetch_add_explicit(&in_flight, 1, memory_order_relaxed);
}

void cd_metrics_request_end(int route, int status, double seconds)
{
    route_counters *rc = &routes[route_slot(route)];
    if (status >= CODE_MIN && status <= CODE_MAX)
        atomic_fetch_add_explicit(&rc->codes[status - CODE_MIN], 1, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&rc->unanswered, 1, memory_order_relaxed);
    size_t b = 0;
    while (b < NBUCKETS && seconds > bucket_le[b])
        b++;
    atomic_fetch_add_explicit(&rc->buckets[b], 1, memory_order_relaxed);
    uint64_t us = seconds > 0 ? (uint64_t)(seconds * 1e6 + 0.5) : 0;
    atomic_fetch_add_explicit(&rc->sum_us, us, memory_order_relaxed);
    atomic_fetch_sub_explicit(&in_flight, 1, memory_order_relaxed);
}

void cd_metrics_suspended(int delta)
{
    atomic_fetch_add_explicit(&suspended, delta, memory_order_relaxed);
}

void cd_metrics_move_applied(void)
{
    atomic_fetch_add_explicit(&moves_applied, 1, memory_order_relaxed);
}

void cd_metrics_move_one_round_trip(bool committed)
{
    atomic_fetch_add_explicit(committed ? &moves_one_trip : &moves_one_trip_long_way, 1, memory_order_relaxed);
}

void cd_metrics_db_error(void)
{
    atomic_fetch_add_explicit(&db_errors, 1, memory_order_relaxed);
}

void cd_metrics_webhook_attempt(void)
{
    atomic_fetch_add(&webhook_claimed, 1);
}

void cd_metrics_webhook_delivered(void)
{
    atomic_fetch_add(&webhook_delivered, 1);
}

void cd_metrics_webhook_failed(void)
{
    atomic_fetch_add(&webhook_failed, 1);
}

void cd_metrics_webhook_gone(void)
{
    atomic_fetch_add(&webhook_gone, 1);
}

void cd_metrics_state_cache_read(bool hit)
{
    atomic_fetch_add_explicit(hit ? &cache_hits : &cache_misses, 1, memory_order_relaxed);
}

static uint64_t load(atomic_uint_fast64_t *a)
{
    return atomic_load_explicit(a, memory_order_relaxed);
}

static const char *route_name(const char *const *route_names, int slot)
{
    return slot == NONE ? "none" : route_names[slot];
}

static void render_histogram(FILE *f, const char *name, const char *help, histogram *h)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cum = 0;
    for (size_t b = 0; b < h->n; b++) {
        cum += atomic_load_explicit(&h->buckets[b], memory_order_relaxed);
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", name, h->le[b], (unsigned long long)cum);
    }
    cum += atomic_load_explicit(&h->buckets[h->n], memory_order_relaxed);
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name, (unsigned long long)cum, name,
            (double)atomic_load_explicit(&h->sum_us, memory_order_relaxed) / 1e6, name, (unsigned long long)cum);
}

static void render_pushed(FILE *f)
{
    fprintf(f,
            "# HELP carcd_sse_streams_open Event streams (text/event-stream) open now.\n"
            "# TYPE carcd_sse_streams_open gauge\n"
            "carcd_sse_streams_open %ld\n",
            atomic_load_explicit(&sse_streams, memory_order_relaxed));
    render_histogram(f, "carcd_db_roundtrip_seconds",
                     "Database round trips (a statement, or a pipeline of a transaction's statements).", &db_roundtrip);
    fprintf(f,
            "# HELP carcd_db_retries_total Statements and transactions run again after a serialization failure "
            "or a deadlock.\n"
            "# TYPE carcd_db_retries_total counter\n"
            "carcd_db_retries_total{sqlstate=\"40001\"} %llu\n"
            "carcd_db_retries_total{sqlstate=\"40P01\"} %llu\n",
            (unsigned long long)load(&db_retries_40001), (unsigned long long)load(&db_retries_40p01));
    render_histogram(f, "carcd_webhook_attempt_duration_seconds", "Webhook attempts, sent to answered.",
                     &webhook_attempt);
    render_histogram(f, "carcd_webhook_delivery_latency_seconds",
                     "Webhook messages delivered: from their writing (with the move) to the answer that delivered "
                     "them.", &webhook_latency);
    fprintf(f,
            "# HELP carcd_webhook_deliveries_exhausted_total Webhook messages given up on after every attempt "
            "of the schedule failed.\n"
            "# TYPE carcd_webhook_deliveries_exhausted_total counter\n"
            "carcd_webhook_deliveries_exhausted_total %llu\n"
            "# HELP carcd_clock_actions_total Reminders sent and timeouts applied by the clock worker.\n"
            "# TYPE carcd_clock_actions_total counter\n"
            "carcd_clock_actions_total{action=\"reminder\"} %llu\n"
            "carcd_clock_actions_total{action=\"timeout\"} %llu\n",
            (unsigned long long)load(&webhook_exhausted), (unsigned long long)load(&clock_reminders),
            (unsigned long long)load(&clock_timeouts));
    render_histogram(f, "carcd_clock_lag_seconds",
                     "How late after its due time the clock worker acted on a reminder or a timeout.", &clock_lag);
}

char *cd_metrics_render(const char *const *route_names, int nroutes, size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        abort();
    int n = nroutes < CD_METRICS_ROUTES ? nroutes : CD_METRICS_ROUTES;
    int slots[CD_METRICS_ROUTES + 1];
    int nslots = 0;
    for (int i = 0; i < n; i++)
        slots[nslots++] = i;
    slots[nslots++] = NONE;

    fputs("# HELP carcd_http_requests_total HTTP requests answered, by route and status code.\n"
          "# TYPE carcd_http_requests_total counter\n",
          f);
    for (int s = 0; s < nslots; s++)
        for (int c = CODE_MIN; c <= CODE_MAX; c++) {
            uint64_t v = load(&routes[slots[s]].codes[c - CODE_MIN]);
            if (v)
                fprintf(f, "carcd_http_requests_total{route=\"%s\",code=\"%d\"} %llu\n", route_name(route_names, slots[s]), c,
                        (unsigned long long)v);
        }

    fputs("# HELP carcd_http_requests_unanswered_total Requests that ended without an answer from carcd "
          "(client gone, timeout, shutdown).\n"
          "# TYPE carcd_http_requests_unanswered_total counter\n",
          f);
    for (int s = 0; s < nslots; s++)
        fprintf(f, "carcd_http_requests_unanswered_total{route=\"%s\"} %llu\n", route_name(route_names, slots[s]),
                (unsigned long long)load(&routes[slots[s]].unanswered));

    fputs("# HELP carcd_http_request_duration_seconds Time from request start to completion, by route.\n"
          "# TYPE carcd_http_request_duration_seconds histogram\n",
          f);
    for (int s = 0; s < nslots; s++) {
        route_counters *rc = &routes[slots[s]];
        const char *name = route_name(route_names, slots[s]);
        /* read the buckets once; count is their sum, so the series stay consistent with each other */
        uint64_t cum = 0;
        for (size_t b = 0; b < NBUCKETS; b++) {
            cum += load(&rc->buckets[b]);
            fprintf(f, "carcd_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n", name,
                    bucket_le[b], (unsigned long long)cum);
        }
        cum += load(&rc->buckets[NBUCKETS]);
        fprintf(f, "carcd_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n", name,
                (unsigned long long)cum);
        fprintf(f, "carcd_http_request_duration_seconds_sum{route=\"%s\"} %.6f\n", name,
                (double)load(&rc->sum_us) / 1e6);
        fprintf(f, "carcd_http_request_duration_seconds_count{route=\"%s\"} %llu\n", name,
                (unsigned long long)cum);
    }

    fprintf(f,
            "# HELP carcd_http_requests_in_flight Requests begun and not yet completed.\n"
            "# TYPE carcd_http_requests_in_flight gauge\n"
            "carcd_http_requests_in_flight %ld\n"
            "# HELP carcd_http_requests_suspended Long-poll requests waiting for events.\n"
            "# TYPE carcd_http_requests_suspended gauge\n"
            "carcd_http_requests_suspended %ld\n"
            "# HELP carcd_moves_applied_total Moves applied and committed.\n"
            "# TYPE carcd_moves_applied_total counter\n"
            "carcd_moves_applied_total %llu\n"
            "# HELP carcd_moves_one_round_trip_total Seats' moves sent in one round trip from the state cache: "
            "committed so, or run again the long way.\n"
            "# TYPE carcd_moves_one_round_trip_total counter\n"
            "carcd_moves_one_round_trip_total{outcome=\"committed\"} %llu\n"
            "carcd_moves_one_round_trip_total{outcome=\"long_way\"} %llu\n"
            "# HELP carcd_db_errors_total Failed database statements, connects and commits.\n"
            "# TYPE carcd_db_errors_total counter\n"
            "carcd_db_errors_total %llu\n",
            atomic_load_explicit(&in_flight, memory_order_relaxed),
            atomic_load_explicit(&suspended, memory_order_relaxed), (unsigned long long)load(&moves_applied),
            (unsigned long long)load(&moves_one_trip), (unsigned long long)load(&moves_one_trip_long_way),
            (unsigned long long)load(&db_errors));
    /* webhooks: this process's delivery worker */
    long claimed = atomic_load(&webhook_claimed), delivered = atomic_load(&webhook_delivered),
         failed = atomic_load(&webhook_failed), gone = atomic_load(&webhook_gone);
    fprintf(f,
            "# HELP carcd_webhook_attempts_total Webhook delivery attempts made by this process, by outcome.\n"
            "# TYPE carcd_webhook_attempts_total counter\n"
            "carcd_webhook_attempts_total{outcome=\"delivered\"} %ld\n"
            "carcd_webhook_attempts_total{outcome=\"failed\"} %ld\n"
            "# HELP carcd_webhook_attempts_in_flight Webhook attempts under way in this process.\n"
            "# TYPE carcd_webhook_attempts_in_flight gauge\n"
            "carcd_webhook_attempts_in_flight %ld\n"
            "# HELP carcd_webhook_endpoints_disabled_total Endpoints this process disabled after a 410 Gone.\n"
            "# TYPE carcd_webhook_endpoints_disabled_total counter\n"
            "carcd_webhook_endpoints_disabled_total %ld\n",
            delivered, failed, claimed - delivered - failed, gone);
    unsigned long long hits = atomic_load_explicit(&cache_hits, memory_order_relaxed),
                       misses = atomic_load_explicit(&cache_misses, memory_order_relaxed);
    fprintf(f,
            "# HELP carcd_state_cache_reads_total Reads of a decoded game state from this process's cache.\n"
            "# TYPE carcd_state_cache_reads_total counter\n"
            "carcd_state_cache_reads_total{result=\"hit\"} %llu\n"
            "carcd_state_cache_reads_total{result=\"miss\"} %llu\n",
            hits, misses);
    render_pushed(f);
    if (fclose(f) != 0)
        abort();
    *len = size;
    return buf;
}
