/*
 * test_events.c — GET /v1/games/{id}/events through real sockets against real PostgreSQL: the opening
 * events, paging, long polls woken by a move or by their deadline, many long polls on a two-thread server
 * (no worker is held), Server-Sent Events (a move as an event, Last-Event-ID, keepalives, the end of the
 * stream), bad parameters, tokens, clients that hang up while waiting, the listener losing its connection,
 * shutdown with requests waiting, and the notify latency (move committed -> long poll answered).
 *
 * Each test runs in its own process (Check's fork mode) with its own database (a random name, created
 * through the `postgres` database of CARCD_TEST_DATABASE_URL, migrated, dropped afterwards), its own carcd
 * server on 127.0.0.1 (a port the kernel picks, two worker threads) and its own notify thread.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>
#include <curl/curl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/config.h"
#include "db/db.h"
#include "http/http.h"
#include "db/notify.h"
#include "pgtest.h"

#define ADMIN_TOKEN "events-test-admin-token-0123456789"
#define NPOLLS 50

static char test_db[64];
static cd_config cfg;
static cd_server *srv;
static int port;

/* ---- PostgreSQL helpers ------------------------------------------------------------------------------- */

static PGconn *connect_to(const char *dbname)
{
    return pgt_connect(dbname, NULL);
}

static void sql_do(PGconn *c, const char *sql)
{
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK, "%s: %s",
                  sql, PQresultErrorMessage(res));
    PQclear(res);
}

static double now_s(void)
{
    return cd_now();
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static cd_notify_stats notify_stats(void)
{
    cd_notify_stats s;
    cd_notify_get_stats(&s);
    return s;
}

/* Waits up to 4 s for the notify thread to be listening (or not): it LISTENs while a waiter waits. */
static bool await_listening(bool want)
{
    for (int i = 0; i < 400 && notify_stats().listening != want; i++)
        sleep_ms(10);
    return notify_stats().listening == want;
}

/* Waits up to `ms` for `n` waiters to be registered. */
static void await_waiting(long n, long ms)
{
    for (long t = 0; t < ms && notify_stats().waiting != n; t += 5)
        sleep_ms(5);
    ck_assert_int_eq(notify_stats().waiting, n);
}

/* ---- fixture ------------------------------------------------------------------------------------------ */

static void setup(void)
{
    pgt_db_create("carcd_ev_", test_db, sizeof test_db);

    char err[1024] = "";
    char *argv[] = {"carcd", NULL};
    ck_assert_msg(cd_config_load(&cfg, 1, argv, err, sizeof err) == 0, "config: %s", err);
    pgt_url_for(test_db, cfg.database_url, sizeof cfg.database_url);
    snprintf(cfg.listen_host, sizeof cfg.listen_host, "127.0.0.1");
    cfg.listen_port = 0;
    snprintf(cfg.admin_token, sizeof cfg.admin_token, "%s", ADMIN_TOKEN);
    cfg.threads = 2;
    cfg.max_wait_s = 60;
    cfg.listen_linger_s = 1;   /* listens_only_while_waited_on waits for it */
    ck_assert_msg(cd_migrate(&cfg, err, sizeof err) == 0, "migrate: %s", err);
    srv = cd_server_start(&cfg, err, sizeof err);
    ck_assert_msg(srv != NULL, "server: %s", err);
    port = cd_server_port(srv);
    ck_assert_int_eq(cd_notify_start(&cfg), 0);
    for (int i = 0; i < 500 && !notify_stats().connected; i++)
        sleep_ms(10);
    ck_assert(notify_stats().connected);
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void stop_all(void)
{
    cd_notify_stop();   /* first: it answers the waiting requests, and MHD must not stop with one suspended */
    cd_server_stop(srv);
    srv = NULL;
}

static void teardown(void)
{
    if (srv)
        stop_all();
    cd_db_thread_close();
    pgt_db_drop(test_db);
}

/* ---- an HTTP client (libcurl) --------------------------------------------------------------------------- */

typedef struct {
    long status;
    char *body;
    size_t len;
    json_t *json;
    char content_type[128];
    CURLcode rc;
    double seconds;            /* request to end of answer */
    /* streams: when `mark` first appeared in the body */
    const char *mark;
    double mark_at;
    pthread_mutex_t *mu;       /* guards body/len while a test thread peeks */
} answer;

typedef struct {
    const char *method;
    const char *path;
    const char *token;
    const char *body;
    const char *const *headers;   /* "Name: value", NULL-terminated */
    long timeout_ms;
    const char *mark;
    pthread_mutex_t *mu;
} request;

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    if (a->mu)
        pthread_mutex_lock(a->mu);
    char *b = realloc(a->body, a->len + len + 1);
    ck_assert_ptr_nonnull(b);
    a->body = b;
    memcpy(a->body + a->len, data, len);
    a->len += len;
    a->body[a->len] = '\0';
    if (a->mark && a->mark_at == 0 && strstr(a->body, a->mark))
        a->mark_at = now_s();
    if (a->mu)
        pthread_mutex_unlock(a->mu);
    return len;
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    if (len > 13 && strncasecmp(data, "Content-Type:", 13) == 0) {
        const char *v = data + 13;
        size_t vl = len - 13;
        while (vl && *v == ' ')
            v++, vl--;
        while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n'))
            vl--;
        snprintf(a->content_type, sizeof a->content_type, "%.*s", (int)vl, v);
    }
    return len;
}

/* Makes the request; the answer is written into *out as it arrives (under q.mu when given, so that another
 * thread can watch a stream). */
static void http_into(request q, answer *out)
{
    if (q.mu)
        pthread_mutex_lock(q.mu);
    *out = (answer){.mark = q.mark, .mu = q.mu};
    if (q.mu)
        pthread_mutex_unlock(q.mu);
    answer *ap = out;
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(c);
    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, q.path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, q.method ? q.method : "GET");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, ap);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, ap);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, q.timeout_ms ? q.timeout_ms : 20000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    struct curl_slist *hl = NULL;
    char auth[256];
    if (q.token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", q.token);
        hl = curl_slist_append(hl, auth);
    }
    for (const char *const *h = q.headers; h && *h; h++)
        hl = curl_slist_append(hl, *h);
    if (q.body) {
        hl = curl_slist_append(hl, "Content-Type: application/json");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, q.body);
    }
    hl = curl_slist_append(hl, "Expect:");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    double t0 = now_s();
    CURLcode rc = curl_easy_perform(c);
    double seconds = now_s() - t0;
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    if (q.mu)
        pthread_mutex_lock(q.mu);
    ap->rc = rc;
    ap->seconds = seconds;
    ap->status = status;
    if (ap->body)
        ap->json = json_loadb(ap->body, ap->len, 0, NULL);
    if (q.mu)
        pthread_mutex_unlock(q.mu);
}

static answer http(request q)
{
    answer a;
    http_into(q, &a);
    return a;
}

static void answer_free(answer *a)
{
    free(a->body);
    json_decref(a->json);
    memset(a, 0, sizeof *a);
}

static answer get(const char *token, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static answer get(const char *token, const char *fmt, ...)
{
    char path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return http((request){.path = path, .token = token});
}

/* ---- games and moves ---------------------------------------------------------------------------------- */

typedef struct {
    char id[37];
    char token[2][64];
    int seq;
} game;

static game new_game(void)
{
    game g = {0};
    answer a = http((request){.method = "POST", .path = "/v1/games",
                              .body = "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"});
    ck_assert_msg(a.status == 201, "create: %ld %s", a.status, a.body ? a.body : "");
    snprintf(g.id, sizeof g.id, "%s", json_string_value(json_object_get(a.json, "id")));
    json_t *players = json_object_get(a.json, "players");
    for (int i = 0; i < 2; i++)
        snprintf(g.token[i], sizeof g.token[i], "%s",
                 json_string_value(json_object_get(json_array_get(players, (size_t)i), "token")));
    answer_free(&a);
    return g;
}

/* The next move of g (the first legal move of the seat to play), as a POST body; *seat gets the seat. */
static char *next_move(game *g, int *seat)
{
    answer v = get(NULL, "/v1/games/%s", g->id);
    ck_assert_int_eq(v.status, 200);
    *seat = (int)json_integer_value(json_object_get(json_object_get(v.json, "pending"), "seat"));
    g->seq = (int)json_integer_value(json_object_get(v.json, "seq"));
    answer_free(&v);
    ck_assert(*seat == 0 || *seat == 1);
    answer l = get(g->token[*seat], "/v1/games/%s/legal-moves", g->id);
    ck_assert_int_eq(l.status, 200);
    json_t *m = json_array_get(json_object_get(l.json, "moves"), 0);
    ck_assert_ptr_nonnull(m);
    json_t *body = json_pack("{s:i, s:O}", "expected_seq", g->seq, "move", m);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    answer_free(&l);
    return text;
}

static void post_move(game *g, int seat, const char *body)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    answer a = http((request){.method = "POST", .path = path, .token = g->token[seat], .body = body});
    ck_assert_msg(a.status == 200, "move: %ld %s", a.status, a.body ? a.body : "");
    g->seq = (int)json_integer_value(json_object_get(a.json, "seq"));
    answer_free(&a);
}

static void play_one(game *g)
{
    int seat;
    char *body = next_move(g, &seat);
    post_move(g, seat, body);
    free(body);
}

/* Checks an events answer's shape; returns its entries. */
static json_t *entries_of(const answer *a, const game *g, int seq)
{
    ck_assert_msg(a->status == 200, "events: %ld %s", a->status, a->body ? a->body : "");
    ck_assert_str_eq(a->content_type, "application/json");
    ck_assert_str_eq(json_string_value(json_object_get(a->json, "game")), g->id);
    ck_assert_int_eq(json_integer_value(json_object_get(a->json, "seq")), seq);
    json_t *e = json_object_get(a->json, "entries");
    ck_assert(json_is_array(e));
    return e;
}

static bool has_event(const json_t *entry, const char *type)
{
    size_t i;
    json_t *ev;
    json_array_foreach(json_object_get(entry, "events"), i, ev) {
        if (strcmp(json_string_value(json_object_get(ev, "type")), type) == 0)
            return true;
    }
    return false;
}

/* ---- reading ------------------------------------------------------------------------------------------ */

START_TEST(opening_events_and_paging)
{
    game g = new_game();
    answer a = get(NULL, "/v1/games/%s/events?after=-1", g.id);
    json_t *e = entries_of(&a, &g, 0);
    ck_assert_uint_eq(json_array_size(e), 1);
    json_t *first = json_array_get(e, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(first, "seq")), 0);
    ck_assert(json_is_null(json_object_get(first, "seat")));
    ck_assert(has_event(first, "game_started"));
    ck_assert(has_event(first, "tile_drawn"));
    answer d = get(NULL, "/v1/games/%s/events", g.id);   /* after defaults to -1 */
    ck_assert(json_equal(d.json, a.json));
    answer_free(&d);
    answer_free(&a);

    a = get(NULL, "/v1/games/%s/events?after=0", g.id);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, 0)), 0);
    answer_free(&a);

    play_one(&g);
    a = get(NULL, "/v1/games/%s/events?after=0&wait=0", g.id);
    e = entries_of(&a, &g, 1);
    ck_assert_uint_eq(json_array_size(e), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(e, 0), "seq")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(e, 0), "seat")), 0);
    ck_assert(has_event(json_array_get(e, 0), "piece_placed"));
    /* a seat and the admin see the same in the base game; an upper-case id is the same game */
    answer s = get(g.token[1], "/v1/games/%s/events?after=0", g.id);
    ck_assert(json_equal(s.json, a.json));
    answer_free(&s);
    s = get(ADMIN_TOKEN, "/v1/games/%s/events?after=0", g.id);
    ck_assert(json_equal(s.json, a.json));
    answer_free(&s);
    char upper[37];
    for (int i = 0; i < 37; i++)
        upper[i] = (char)(g.id[i] >= 'a' && g.id[i] <= 'f' ? g.id[i] - 32 : g.id[i]);
    s = get(NULL, "/v1/games/%s/events?after=0", upper);
    ck_assert(json_equal(s.json, a.json));
    answer_free(&s);
    answer_free(&a);

    /* ahead of the game: nothing, and seq is `after` */
    a = get(NULL, "/v1/games/%s/events?after=100", g.id);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, 100)), 0);
    answer_free(&a);

    /* paging: 100 entries per answer */
    while (g.seq < 104)
        play_one(&g);
    a = get(NULL, "/v1/games/%s/events?after=-1", g.id);
    e = entries_of(&a, &g, 99);
    ck_assert_uint_eq(json_array_size(e), 100);
    for (size_t i = 0; i < 100; i++)
        ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(e, i), "seq")), (json_int_t)i);
    answer_free(&a);
    a = get(NULL, "/v1/games/%s/events?after=99", g.id);
    e = entries_of(&a, &g, 104);
    ck_assert_uint_eq(json_array_size(e), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(e, 0), "seq")), 100);
    answer_free(&a);
}
END_TEST

START_TEST(bad_parameters)
{
    game g = new_game();
    static const struct {
        const char *query;
        const char *field;
    } bad[] = {
        {"after=abc", "after"},  {"after=-2", "after"},      {"after=1.5", "after"},
        {"after=", "after"},     {"after=+1", "after"},      {"after=%201", "after"},
        {"after=99999999999", "after"}, {"after=1x", "after"}, {"wait=61", "wait"},
        {"wait=-1", "wait"},     {"wait=x", "wait"},         {"wait=", "wait"},
        {"after=0&wait=1e1", "wait"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        answer a = get(NULL, "/v1/games/%s/events?%s", g.id, bad[i].query);
        ck_assert_msg(a.status == 400, "%s: %ld", bad[i].query, a.status);
        ck_assert_str_eq(a.content_type, "application/problem+json");
        ck_assert_str_eq(json_string_value(json_object_get(a.json, "field")), bad[i].field);
        answer_free(&a);
    }
    /* the bound is the configuration's: wait=60 is fine */
    answer a = get(NULL, "/v1/games/%s/events?after=-1&wait=60", g.id);
    ck_assert_int_eq(a.status, 200);
    answer_free(&a);
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s/events", g.id);
    const char *const hdr[] = {"Accept: text/event-stream", "Last-Event-ID: seven", NULL};
    a = http((request){.path = path, .headers = hdr});
    ck_assert_int_eq(a.status, 400);
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "field")), "Last-Event-ID");
    answer_free(&a);
}
END_TEST

START_TEST(tokens_and_unknown_games)
{
    game g = new_game(), other = new_game();
    answer a = get(other.token[0], "/v1/games/%s/events", g.id);
    ck_assert_int_eq(a.status, 403);
    answer_free(&a);
    a = get("cs_nobody_has_this_token_00000000000000000000", "/v1/games/%s/events", g.id);
    ck_assert_int_eq(a.status, 401);
    answer_free(&a);
    a = get(NULL, "/v1/games/%s/events", "6f1c9a52-0000-4000-8000-000000000000");
    ck_assert_int_eq(a.status, 404);
    ck_assert_str_eq(a.content_type, "application/problem+json");
    answer_free(&a);
    a = get(ADMIN_TOKEN, "/v1/games/%s/events?after=3&wait=2", "6f1c9a52-0000-4000-8000-000000000000");
    ck_assert_int_eq(a.status, 404);
    ck_assert_double_lt(a.seconds, 1.0);   /* no waiting on a game that does not exist */
    answer_free(&a);
    a = get(NULL, "/v1/games/%s/events", "not-a-uuid");
    ck_assert_int_eq(a.status, 404);
    answer_free(&a);
    a = get(g.token[0], "/v1/games/%s/events", g.id);
    ck_assert_int_eq(a.status, 200);
    answer_free(&a);
}
END_TEST

/* ---- long polls --------------------------------------------------------------------------------------- */

typedef struct {
    game *g;
    long delay_ms;
    double posted_at;    /* when the move's answer came back */
} mover;

static void *move_later(void *arg)
{
    mover *m = arg;
    sleep_ms(m->delay_ms);
    play_one(m->g);
    m->posted_at = now_s();
    return NULL;
}

START_TEST(long_poll_woken_by_a_move)
{
    game g = new_game();
    game g2 = g;   /* the mover's copy */
    mover m = {&g2, 300, 0};
    pthread_t t;
    pthread_create(&t, NULL, move_later, &m);
    answer a = get(NULL, "/v1/games/%s/events?after=0&wait=5", g.id);
    double answered = now_s();
    pthread_join(t, NULL);
    json_t *e = entries_of(&a, &g, 1);
    ck_assert_uint_eq(json_array_size(e), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(e, 0), "seq")), 1);
    ck_assert_double_ge(a.seconds, 0.25);
    ck_assert_double_lt(a.seconds, 2.0);   /* well before the 5 s deadline */
    printf("long poll woken by a move: answered %.1f ms after the move's own answer, %.0f ms after it began\n",
           (answered - m.posted_at) * 1e3, a.seconds * 1e3);
    answer_free(&a);
    ck_assert_int_eq(notify_stats().waiting, 0);
}
END_TEST

START_TEST(long_poll_deadline)
{
    game g = new_game();
    answer a = get(NULL, "/v1/games/%s/events?after=0&wait=1", g.id);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, 0)), 0);
    ck_assert_double_ge(a.seconds, 0.95);
    ck_assert_double_lt(a.seconds, 2.5);
    answer_free(&a);
    /* a seat's long poll the same */
    a = get(g.token[0], "/v1/games/%s/events?after=0&wait=1", g.id);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, 0)), 0);
    ck_assert_double_ge(a.seconds, 0.95);
    answer_free(&a);
    ck_assert_int_eq(notify_stats().waiting, 0);
}
END_TEST

typedef struct {
    const char *id;
    answer a;
    double done;
} poller;

static void *poll_thread(void *arg)
{
    poller *p = arg;
    char path[256];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=0&wait=20", p->id);
    p->a = http((request){.path = path, .timeout_ms = 30000});
    p->done = now_s();
    return NULL;
}

/* 50 long polls on a server with two worker threads: if a waiting poll held a worker, the move could not
 * get through until they gave up. */
START_TEST(many_long_polls_hold_no_worker)
{
    game g = new_game();
    static poller p[NPOLLS];
    pthread_t t[NPOLLS];
    for (int i = 0; i < NPOLLS; i++) {
        p[i].id = g.id;
        pthread_create(&t[i], NULL, poll_thread, &p[i]);
    }
    await_waiting(NPOLLS, 10000);
    /* other requests are served while they wait */
    answer v = get(NULL, "/v1/games/%s", g.id);
    ck_assert_int_eq(v.status, 200);
    ck_assert_double_lt(v.seconds, 1.0);
    answer_free(&v);
    int seat;
    char *body = next_move(&g, &seat);
    double t0 = now_s();
    post_move(&g, seat, body);
    double moved = now_s() - t0;
    free(body);
    ck_assert_double_lt(moved, 1.0);
    double last = 0;
    for (int i = 0; i < NPOLLS; i++) {
        pthread_join(t[i], NULL);
        json_t *e = entries_of(&p[i].a, &g, 1);
        ck_assert_uint_eq(json_array_size(e), 1);
        ck_assert_double_lt(p[i].a.seconds, 12.0);
        if (p[i].done > last)
            last = p[i].done;
        answer_free(&p[i].a);
    }
    printf("%d long polls on 2 workers: the move's POST took %.1f ms; the last poll was answered %.1f ms after "
           "it was sent\n", NPOLLS, moved * 1e3, (last - t0) * 1e3);
    ck_assert_double_lt(last - t0, 2.0);
    ck_assert_int_eq(notify_stats().waiting, 0);
}
END_TEST

/* A client that hangs up while its long poll waits: nothing leaks or breaks (ASan builds check). */
START_TEST(client_gone_while_waiting)
{
    game g = new_game();
    char path[256];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=0&wait=20", g.id);
    answer a = http((request){.path = path, .timeout_ms = 300});
    ck_assert_int_eq(a.rc, CURLE_OPERATION_TIMEDOUT);
    answer_free(&a);
    const char *const sse[] = {"Accept: text/event-stream", NULL};
    a = http((request){.path = path, .headers = sse, .timeout_ms = 300});
    ck_assert_int_eq(a.rc, CURLE_OPERATION_TIMEDOUT);
    answer_free(&a);
    /* the server notices at once, without a move: a held connection's hang-up is watched (http/park.c), and
     * its waiter cancelled */
    for (int i = 0; i < 200 && notify_stats().waiting > 0; i++)
        sleep_ms(10);
    ck_assert_int_eq(notify_stats().waiting, 0);
    play_one(&g);
    /* and serves on */
    a = get(NULL, "/v1/games/%s/events?after=0&wait=5", g.id);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, 1)), 1);
    answer_free(&a);
}
END_TEST

/* Clients that give up at random moments while moves land: waiters fire, time out and are cancelled in every
 * order (ASan and the end state check that none is freed under another or leaked). */
typedef struct {
    game *g;
    int id;
    volatile bool *stop;
    int answered;
} churner;

static void *churn_thread(void *arg)
{
    churner *c = arg;
    unsigned seed = (unsigned)c->id * 2654435761u;
    char path[256];
    const char *const sse[] = {"Accept: text/event-stream", NULL};
    while (!*c->stop) {
        seed = seed * 1103515245u + 12345u;
        int after = (int)(seed >> 8) % 4 == 0 ? -1 : c->g->seq;
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=1", c->g->id, after);
        answer a = http((request){.path = path, .headers = (seed >> 4) % 3 == 0 ? sse : NULL,
                                  .timeout_ms = 20 + (long)((seed >> 12) % 500)});
        if (a.status == 200)
            c->answered++;
        answer_free(&a);
    }
    return NULL;
}

START_TEST(churn)
{
    enum { NCHURN = 16 };
    game g = new_game();
    volatile bool stop = false;
    churner c[NCHURN];
    pthread_t t[NCHURN];
    for (int i = 0; i < NCHURN; i++) {
        c[i] = (churner){.g = &g, .id = i, .stop = &stop};
        pthread_create(&t[i], NULL, churn_thread, &c[i]);
    }
    double until = now_s() + 3.0;
    int moves = 0;
    while (now_s() < until) {
        play_one(&g);
        moves++;
        sleep_ms(20);
    }
    stop = true;
    int answered = 0;
    for (int i = 0; i < NCHURN; i++) {
        pthread_join(t[i], NULL);
        answered += c[i].answered;
    }
    /* every wait is at most 1 s (a stream's, at most a keepalive once its client left) */
    for (int i = 0; i < 300 && notify_stats().waiting > 0; i++)
        sleep_ms(10);
    ck_assert_int_eq(notify_stats().waiting, 0);
    answer a = get(NULL, "/v1/games/%s/events?after=%d", g.id, g.seq - 1);
    ck_assert_uint_eq(json_array_size(entries_of(&a, &g, g.seq)), 1);
    answer_free(&a);
    printf("churn: %d moves, %d answers to %d clients giving up at random\n", moves, answered, NCHURN);
}
END_TEST

/* The listening connection is killed: the listener reconnects, wakes the waiters (which find nothing and
 * wait on), and the next move is delivered as before. */
START_TEST(listener_reconnects)
{
    game g = new_game();
    game g2 = g;
    mover m = {&g2, 1500, 0};
    pthread_t t;
    pthread_create(&t, NULL, move_later, &m);
    poller p = {.id = g.id};
    pthread_t pt;
    pthread_create(&pt, NULL, poll_thread, &p);
    await_waiting(1, 5000);
    PGconn *c = connect_to("postgres");
    sql_do(c, "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'carcd-notify'");
    PQfinish(c);
    for (int i = 0; i < 300 && notify_stats().reconnects < 1; i++)
        sleep_ms(10);
    ck_assert_int_ge(notify_stats().reconnects, 1);
    ck_assert(await_listening(true));   /* the poller still waits: listening again */
    pthread_join(pt, NULL);
    pthread_join(t, NULL);
    json_t *e = entries_of(&p.a, &g, 1);
    ck_assert_uint_eq(json_array_size(e), 1);
    ck_assert_double_lt(p.a.seconds, 5.0);
    answer_free(&p.a);
}
END_TEST

typedef struct {
    pthread_mutex_t mu;
    int fired;
    cd_notify_why why;
} fire_record;

static void record_fire(void *arg, cd_notify_why why)
{
    fire_record *f = arg;
    pthread_mutex_lock(&f->mu);
    f->fired++;
    f->why = why;
    pthread_mutex_unlock(&f->mu);
}

static int fires_of(fire_record *f, cd_notify_why *why)
{
    pthread_mutex_lock(&f->mu);
    int n = f->fired;
    *why = f->why;
    pthread_mutex_unlock(&f->mu);
    return n;
}

/* carcd LISTENs only while a waiter waits (and CARCD_LISTEN_LINGER after the last, 1 s here): a move nobody
 * waits for reaches no listener. The first waiter after a quiet spell is fired as after a reconnect once its
 * LISTEN is in effect, so a move made before (in a window no notification covers) is not missed: here the
 * waiter asks for moves after seq 0 of a game already at seq 1, which no notification will announce again. */
START_TEST(listens_only_while_waited_on)
{
    game g = new_game();
    ck_assert(await_listening(false));
    long before = notify_stats().notifications;
    play_one(&g);   /* seq 1, nobody listening */
    sleep_ms(200);
    ck_assert_int_eq(notify_stats().notifications, before);
    fire_record f = {.mu = PTHREAD_MUTEX_INITIALIZER};
    cd_notify_waiter w = {0};
    cd_notify_why why = CD_NOTIFY_SHUTDOWN;
    ck_assert_int_eq(cd_notify_wait(&w, g.id, 0, now_s() + 30, record_fire, &f), 0);
    for (int i = 0; i < 400 && fires_of(&f, &why) == 0; i++)
        sleep_ms(10);
    ck_assert_int_eq(fires_of(&f, &why), 1);
    ck_assert_int_eq(why, CD_NOTIFY_RECONNECT);   /* well before its deadline: look at the database */
    ck_assert(notify_stats().listening);
    /* listening: the next move wakes a waiter as a move */
    ck_assert_int_eq(cd_notify_wait(&w, g.id, 1, now_s() + 30, record_fire, &f), 0);
    play_one(&g);
    for (int i = 0; i < 400 && fires_of(&f, &why) == 1; i++)
        sleep_ms(10);
    ck_assert_int_eq(fires_of(&f, &why), 2);
    ck_assert_int_eq(why, CD_NOTIFY_MOVE);
    ck_assert_int_gt(notify_stats().notifications, before);
    /* nobody waits any more: it stops listening after the linger, and moves reach it no more */
    ck_assert_int_eq(notify_stats().waiting, 0);
    ck_assert(await_listening(false));
    before = notify_stats().notifications;
    play_one(&g);
    sleep_ms(200);
    ck_assert_int_eq(notify_stats().notifications, before);
}
END_TEST

/* A raw socket's request, and what comes back until the server closes (at most `secs`). */
static char *raw_until_close(int to_port, const char *req, double secs, bool *closed)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)to_port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
    char *wire = calloc(1, 1);
    size_t len = 0;
    *closed = false;
    for (double until = now_s() + secs; !*closed && now_s() < until;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        char buf[4096];
        ssize_t k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0) {
            *closed = true;
            break;
        }
        wire = realloc(wire, len + (size_t)k + 1);
        memcpy(wire + len, buf, (size_t)k);
        len += (size_t)k;
        wire[len] = '\0';
    }
    close(fd);
    return wire;
}

typedef struct {
    int port;
    const char *req;
    char *wire;
    bool closed;
} raw_poller;

static void *raw_poll_thread(void *arg)
{
    raw_poller *r = arg;
    r->wire = raw_until_close(r->port, r->req, 20, &r->closed);
    return NULL;
}

/* Waiting requests are held outside libmicrohttpd (http/park.c), so MHD's per-address count does not see
 * them: the park keeps the same limit. With CARCD_PER_IP_CONNECTIONS=2 a third waiting long-poll from one
 * address is a 503; the two held ones get their answer as one whole HTTP/1.1 message (status line, JSON
 * with its Content-Length, Connection: close) and the close, and a new one may wait again after. */
START_TEST(held_requests_limited_per_address)
{
    game g = new_game();
    cd_config c2 = cfg;
    c2.per_ip_connections = 2;
    c2.listen_port = 0;
    char err[256];
    cd_server *s2 = cd_server_start(&c2, err, sizeof err);
    ck_assert_msg(s2 != NULL, "%s", err);
    int p2 = cd_server_port(s2);
    char req[512];
    snprintf(req, sizeof req, "GET /v1/games/%s/events?after=0&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n", g.id);
    raw_poller rp[2] = {{p2, req, NULL, false}, {p2, req, NULL, false}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, raw_poll_thread, &rp[i]);
    await_waiting(2, 5000);
    bool closed;
    char *third = raw_until_close(p2, req, 5, &closed);
    ck_assert_msg(strncmp(third, "HTTP/1.1 503 ", 13) == 0 && strstr(third, "/problems/unavailable") &&
                  strstr(third, "\r\nRetry-After: "), "%.400s", third);
    free(third);
    ck_assert_int_eq(notify_stats().waiting, 2);
    play_one(&g);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        const char *w = rp[i].wire;
        ck_assert_msg(rp[i].closed, "the held answer did not end with the close: %.300s", w);
        ck_assert_msg(strncmp(w, "HTTP/1.1 200 OK\r\n", 17) == 0, "%.300s", w);
        ck_assert_msg(strstr(w, "\r\nContent-Type: application/json\r\n") && strstr(w, "\r\nConnection: close\r\n") &&
                      strstr(w, "\r\nCache-Control: no-store\r\n") && strstr(w, "\r\nDate: "), "%.400s", w);
        const char *body = strstr(w, "\r\n\r\n");
        ck_assert_ptr_nonnull(body);
        body += 4;
        const char *cl = strstr(w, "\r\nContent-Length: ");
        ck_assert_ptr_nonnull(cl);
        ck_assert_uint_eq(strtoul(cl + 18, NULL, 10), strlen(body));
        json_t *j = json_loads(body, 0, NULL);
        ck_assert_msg(j != NULL, "%.300s", body);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "seq")), 1);
        ck_assert_uint_eq(json_array_size(json_object_get(j, "entries")), 1);
        json_decref(j);
        free(rp[i].wire);
    }
    /* the held ones are gone: a new one waits (its deadline answers it, entries empty) */
    snprintf(req, sizeof req, "GET /v1/games/%s/events?after=1&wait=1 HTTP/1.1\r\nHost: x\r\n\r\n", g.id);
    char *again = raw_until_close(p2, req, 5, &closed);
    ck_assert_msg(strncmp(again, "HTTP/1.1 200 ", 13) == 0 && strstr(again, "\"entries\":[]") && closed, "%.300s",
                  again);
    free(again);
    cd_server_stop(s2);
}
END_TEST

/* ---- Server-Sent Events ------------------------------------------------------------------------------- */

typedef struct {
    const char *id;
    const char *query;
    const char *last_event_id;
    const char *mark;
    pthread_mutex_t mu;
    answer a;
} streamer;

static void *stream_thread(void *arg)
{
    streamer *s = arg;
    char path[256], lei[64];
    snprintf(path, sizeof path, "/v1/games/%s/events?%s", s->id, s->query);
    const char *hdr[3] = {"Accept: text/event-stream", NULL, NULL};
    if (s->last_event_id) {
        snprintf(lei, sizeof lei, "Last-Event-ID: %s", s->last_event_id);
        hdr[1] = lei;
    }
    http_into((request){.path = path, .headers = hdr, .timeout_ms = 40000, .mark = s->mark, .mu = &s->mu}, &s->a);
    return NULL;
}

static bool body_has(streamer *s, const char *what)
{
    pthread_mutex_lock(&s->mu);
    bool has = s->a.body && strstr(s->a.body, what);
    pthread_mutex_unlock(&s->mu);
    return has;
}

/* The JSON of the data line of the event with id `seq`. */
static json_t *event_data(const char *body, int seq)
{
    char head[64];
    snprintf(head, sizeof head, "id: %d\nevent: move\ndata: ", seq);
    const char *p = strstr(body, head);
    if (!p)
        return NULL;
    p += strlen(head);
    const char *end = strstr(p, "\n\n");
    ck_assert_ptr_nonnull(end);
    return json_loadb(p, (size_t)(end - p), 0, NULL);
}

START_TEST(sse_delivers_a_move)
{
    game g = new_game();
    streamer s = {.id = g.id, .query = "after=0&wait=3", .mark = "id: 1\n"};
    pthread_mutex_init(&s.mu, NULL);
    pthread_t t;
    pthread_create(&t, NULL, stream_thread, &s);
    for (int i = 0; i < 500 && !body_has(&s, "retry: "); i++)
        sleep_ms(10);
    ck_assert(body_has(&s, "retry: 1000\n\n"));
    await_waiting(1, 2000);
    int seat;
    char *body = next_move(&g, &seat);
    double t0 = now_s();
    post_move(&g, seat, body);
    free(body);
    pthread_join(t, NULL);   /* the stream ends by itself after wait=3 */
    ck_assert_int_eq(s.a.rc, CURLE_OK);
    ck_assert_int_eq(s.a.status, 200);
    ck_assert_str_eq(s.a.content_type, "text/event-stream");
    ck_assert_double_gt(s.a.mark_at, 0);
    printf("event stream: the move arrived %.1f ms after it was posted; the stream ended after %.2f s\n",
           (s.a.mark_at - t0) * 1e3, s.a.seconds);
    ck_assert_double_lt(s.a.mark_at - t0, 1.0);
    ck_assert_double_ge(s.a.seconds, 2.9);
    ck_assert_double_lt(s.a.seconds, 5.0);
    json_t *d = event_data(s.a.body, 1);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(json_integer_value(json_object_get(d, "seq")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(d, "seat")), 0);
    ck_assert(has_event(d, "piece_placed"));
    json_decref(d);
    ck_assert_ptr_null(event_data(s.a.body, 0));   /* after=0: not the opening */
    answer_free(&s.a);

    /* Last-Event-ID overrides ?after; wait=0 sends what there is and ends */
    streamer r = {.id = g.id, .query = "after=1&wait=0", .last_event_id = "-1"};
    pthread_mutex_init(&r.mu, NULL);
    stream_thread(&r);
    ck_assert_int_eq(r.a.status, 200);
    ck_assert_double_lt(r.a.seconds, 1.0);
    d = event_data(r.a.body, 0);
    ck_assert_ptr_nonnull(d);
    ck_assert(json_is_null(json_object_get(d, "seat")));
    ck_assert(has_event(d, "game_started"));
    json_decref(d);
    d = event_data(r.a.body, 1);
    ck_assert_ptr_nonnull(d);
    json_decref(d);
    ck_assert(strstr(r.a.body, "id: 0\n") < strstr(r.a.body, "id: 1\n"));
    answer_free(&r.a);
    ck_assert_int_eq(notify_stats().waiting, 0);
}
END_TEST

/* Several moves in a row arrive in order, each once. */
/* An HTTP/1.0 client gets the stream unchunked, ended by the close: MHD then reads it through the response's
 * own block (256 bytes, cd_reply_stream), so a backlog longer than the block comes in several reads, whole. */
START_TEST(sse_over_http10)
{
    game g = new_game();
    for (int i = 0; i < 4; i++)
        play_one(&g);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char req[512];
    int n = snprintf(req, sizeof req, "GET /v1/games/%s/events?after=-1&wait=1 HTTP/1.0\r\nAccept: text/event-stream"
                                      "\r\n\r\n", g.id);
    ck_assert_int_eq(send(fd, req, (size_t)n, 0), n);
    char *wire = calloc(1, 1);
    size_t len = 0;
    bool closed = false;
    for (double until = now_s() + 10; !closed && now_s() < until;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        char buf[4096];
        ssize_t k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0) {
            closed = true;
            break;
        }
        wire = realloc(wire, len + (size_t)k + 1);
        memcpy(wire + len, buf, (size_t)k);
        len += (size_t)k;
        wire[len] = '\0';
    }
    close(fd);
    ck_assert_msg(closed, "the stream did not end: %.300s", wire);
    ck_assert_msg(strstr(wire, " 200 ") && strstr(wire, "Content-Type: text/event-stream"), "%.300s", wire);
    ck_assert_msg(!strstr(wire, "Transfer-Encoding") && !strstr(wire, "chunked"), "%.300s", wire);
    const char *body = strstr(wire, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    body += 4;
    ck_assert_msg(strncmp(body, "retry: 1000\n\n", 13) == 0, "%.300s", body);
    ck_assert_msg(strlen(body) > 256, "the backlog fits one block: %zu bytes", strlen(body));
    for (int seq = 0; seq <= 4; seq++) {
        json_t *e = event_data(body, seq);
        ck_assert_msg(e != NULL, "no whole event %d: %.900s", seq, body);
        ck_assert_int_eq(json_integer_value(json_object_get(e, "seq")), seq);
        ck_assert(json_array_size(json_object_get(e, "events")) > 0);
        json_decref(e);
    }
    free(wire);
}
END_TEST

/* A client that reads late and little at a time (a small receive window): a held stream's backlog of 60
 * moves comes whole and in order, then the stream ends (test_park.c checks bytes the socket cannot take at
 * once). */
START_TEST(held_stream_to_a_slow_reader)
{
    game g = new_game();
    for (int i = 0; i < 60; i++)
        play_one(&g);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    int small = 2048;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);   /* before connect: the window stays small */
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char req[512];
    int n = snprintf(req, sizeof req, "GET /v1/games/%s/events?after=-1&wait=3 HTTP/1.1\r\nHost: x\r\n"
                                      "Accept: text/event-stream\r\n\r\n", g.id);
    ck_assert_int_eq(send(fd, req, (size_t)n, 0), n);
    sleep_ms(700);   /* not reading: the park holds what the socket did not take */
    char *wire = calloc(1, 1);
    size_t len = 0;
    bool closed = false;
    for (double until = now_s() + 15; !closed && now_s() < until;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        char buf[512];   /* slowly: a little at a time */
        ssize_t k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0) {
            closed = true;
            break;
        }
        wire = realloc(wire, len + (size_t)k + 1);
        memcpy(wire + len, buf, (size_t)k);
        len += (size_t)k;
        wire[len] = '\0';
    }
    close(fd);
    ck_assert_msg(closed, "the stream did not end (%zu bytes)", len);
    const char *body = strstr(wire, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    for (int seq = 0; seq <= 60; seq++) {
        json_t *e = event_data(body, seq);
        ck_assert_msg(e != NULL, "event %d is missing or cut", seq);
        ck_assert_int_eq(json_integer_value(json_object_get(e, "seq")), seq);
        json_decref(e);
    }
    free(wire);
}
END_TEST

START_TEST(sse_many_moves)
{
    game g = new_game();
    streamer s = {.id = g.id, .query = "after=0&wait=4", .mark = "id: 12\n"};
    pthread_mutex_init(&s.mu, NULL);
    pthread_t t;
    pthread_create(&t, NULL, stream_thread, &s);
    await_waiting(1, 3000);
    for (int i = 0; i < 12; i++)
        play_one(&g);
    pthread_join(t, NULL);
    ck_assert_int_eq(s.a.status, 200);
    const char *prev = s.a.body;
    for (int seq = 1; seq <= 12; seq++) {
        char id[32];
        snprintf(id, sizeof id, "id: %d\n", seq);
        const char *p = strstr(s.a.body, id);
        ck_assert_msg(p && p > prev, "event %d missing or out of order", seq);
        ck_assert_ptr_null(strstr(p + 1, id));
        prev = p;
    }
    answer_free(&s.a);
}
END_TEST

/* With nothing happening, a keepalive comment comes every 15 s. */
START_TEST(sse_keepalive)
{
    game g = new_game();
    streamer s = {.id = g.id, .query = "after=0&wait=17", .mark = ": keepalive\n\n"};
    pthread_mutex_init(&s.mu, NULL);
    double t0 = now_s();
    stream_thread(&s);
    ck_assert_int_eq(s.a.status, 200);
    ck_assert_double_gt(s.a.mark_at, 0);
    ck_assert_double_ge(s.a.mark_at - t0, 14.5);
    ck_assert_double_lt(s.a.mark_at - t0, 16.5);
    ck_assert_double_ge(s.a.seconds, 16.9);
    ck_assert_ptr_null(strstr(s.a.body, "event: move"));
    answer_free(&s.a);
}
END_TEST

/* ---- shutdown and latency ----------------------------------------------------------------------------- */

START_TEST(shutdown_answers_waiters)
{
    game g = new_game();
    poller p = {.id = g.id};
    streamer s = {.id = g.id, .query = "after=0&wait=30"};
    pthread_mutex_init(&s.mu, NULL);
    pthread_t pt, st;
    pthread_create(&pt, NULL, poll_thread, &p);
    pthread_create(&st, NULL, stream_thread, &s);
    await_waiting(2, 5000);
    sleep_ms(100);   /* let the stream's reader suspend */
    double t0 = now_s();
    stop_all();
    ck_assert_double_lt(now_s() - t0, 3.0);
    pthread_join(pt, NULL);
    pthread_join(st, NULL);
    ck_assert_int_eq(p.a.status, 503);
    ck_assert_int_eq(s.a.status, 200);
    ck_assert_double_lt(s.a.seconds, 5.0);
    answer_free(&p.a);
    answer_free(&s.a);
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    const char *id;
    int after;
    answer a;
    double done;
} latency_poll;

static void *latency_thread(void *arg)
{
    latency_poll *l = arg;
    char path[256];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=10", l->id, l->after);
    l->a = http((request){.path = path});
    l->done = now_s();
    return NULL;
}

/* Move committed -> long poll answered, over 30 moves. */
START_TEST(notify_latency)
{
    enum { N = 30 };
    game g = new_game();
    double since_post[N], since_answer[N];
    for (int i = 0; i < N; i++) {
        int seat;
        char *body = next_move(&g, &seat);
        latency_poll l = {.id = g.id, .after = g.seq};
        pthread_t t;
        pthread_create(&t, NULL, latency_thread, &l);
        await_waiting(1, 3000);
        double t0 = now_s();
        post_move(&g, seat, body);
        double t1 = now_s();
        free(body);
        pthread_join(t, NULL);
        ck_assert_uint_eq(json_array_size(entries_of(&l.a, &g, g.seq)), 1);
        answer_free(&l.a);
        since_post[i] = (l.done - t0) * 1e3;
        since_answer[i] = (l.done - t1) * 1e3;
    }
    qsort(since_post, N, sizeof since_post[0], cmp_double);
    qsort(since_answer, N, sizeof since_answer[0], cmp_double);
    printf("notify latency over %d moves: POST sent -> poll answered median %.2f ms, p90 %.2f ms, max %.2f ms; "
           "move answered -> poll answered median %.2f ms, max %.2f ms\n",
           N, since_post[N / 2], since_post[N * 9 / 10], since_post[N - 1], since_answer[N / 2],
           since_answer[N - 1]);
    ck_assert_double_lt(since_post[N / 2], 250.0);
}
END_TEST

static Suite *events_suite(void)
{
    Suite *s = suite_create("events");
    TCase *tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, opening_events_and_paging);
    tcase_add_test(tc, bad_parameters);
    tcase_add_test(tc, tokens_and_unknown_games);
    suite_add_tcase(s, tc);
    tc = tcase_create("long_poll");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, long_poll_woken_by_a_move);
    tcase_add_test(tc, held_requests_limited_per_address);
    tcase_add_test(tc, long_poll_deadline);
    tcase_add_test(tc, many_long_polls_hold_no_worker);
    tcase_add_test(tc, client_gone_while_waiting);
    tcase_add_test(tc, listener_reconnects);
    tcase_add_test(tc, listens_only_while_waited_on);
    tcase_add_test(tc, churn);
    suite_add_tcase(s, tc);
    tc = tcase_create("sse");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sse_delivers_a_move);
    tcase_add_test(tc, sse_many_moves);
    tcase_add_test(tc, sse_over_http10);
    tcase_add_test(tc, held_stream_to_a_slow_reader);
    tcase_add_test(tc, sse_keepalive);
    suite_add_tcase(s, tc);
    tc = tcase_create("lifecycle");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, shutdown_answers_waiters);
    tcase_add_test(tc, notify_latency);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(events_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
