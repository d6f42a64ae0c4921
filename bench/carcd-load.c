/*
 * carcd-load — plays many games at once against a running carcd through its HTTP API and prints one
 * `name: value` line per figure: moves per second and the latency percentiles of the move POSTs and of
 * the legal-moves GETs.
 *
 *   carcd-load --url http://127.0.0.1:PORT --admin-token T --clients C --games G --moves M [--seed S]
 *              [--seconds T] [--warmup-moves W] [--rate R] [--expansions a,b,...] [--no-idempotency-key]
 *              [--unix-socket PATH] [--always-get] [--quiet]
 *
 * One thread and epoll; C clients, each with one keep-alive HTTP/1.1 connection of its own (http1_client.h;
 * until 2026-12-07 libcurl's multi interface, which cost this program twice what pgbench's client spends a
 * move, on the cores it shares with what it measures). First the G games (2 players each) are created, C at a
 * time; client i owns the games i, i+C, i+2C, ... Then the clock starts and every
 * client repeatedly picks one of its games at random, GETs legal-moves with the pending seat's token, and
 * POSTs one of them, chosen uniformly, with the game's seq as expected_seq and a fresh Idempotency-Key;
 * until M moves were posted in total (or T seconds passed). When a move's answer carries the mover's next
 * legal moves (`legal_moves`: the mover decides again, a figure after its tile), they are kept with the game
 * and its next move is chosen from them without a GET, as a client of the API would; --always-get ignores
 * them (every move GETs first, as before the answers carried them).
 *
 * --warmup-moves W first plays about W moves the same way, unmeasured, giving each game a random number of
 * them (uniform in 0..2W/G), so that the timed phase finds the games spread over all stages of play, as on
 * a server that has been up for a while, rather than all fresh (or all of an age).
 * --unix-socket PATH talks to a carcd serving on unix:PATH (the URL then names only the Host header).
 * --rate R paces the timed phase: client i starts its moves at i/R, i/R + C/R, ... (or at once when it is
 * late), so that the latencies are those of a server at R moves/s rather than of a saturated one; without
 * it every client starts its next move as soon as the last one is answered (closed loop).
 * A finished game is replaced by a new one in the same slot (that POST /v1/games is timed with the run but
 * in neither percentile). With the admin token the games get seeds derived from --seed, so a run's choices
 * are reproducible per client.
 *
 * Latencies run from a request's first byte written (or its connection's opening) to its answer's last byte
 * read. `load_cpu_ms_per_move` is this program's own CPU (user + system) per move in the timed phase: on a
 * small machine it is taken from carcd and PostgreSQL.
 *
 * `errors` counts answers other than 200/201 and failed transfers; a correct daemon gives 0.
 * `seat_misses` counts legal-moves answers with no move because the seat guessed from the last answer's
 * events was not the pending one (expected 0).
 */
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "bench_clock.h"
#include "http1_client.h"

#define NSEATS 2
#define MAX_ERRORS_SHOWN 5
#define MAX_CONSECUTIVE_FAILURES 200
#define REQUEST_TIMEOUT_S 30.0

typedef struct {
    char id[40];
    char token[NSEATS][96];
    int seat;        /* the seat we believe is pending */
    int misses;      /* consecutive legal-moves answers without a move */
    bool ready;      /* created and not finished */
    long quota;      /* warm-up moves left for this slot */
    char *next;      /* the last answer's legal_moves text ({"seq":..,"moves":[..]}, owned), or NULL */
} game;

typedef enum { ST_IDLE, ST_CREATE, ST_GET, ST_POST, ST_WAIT, ST_DONE } client_state;

typedef struct {
    int idx;
    h1_conn conn;
    bool writing;          /* its epoll interest is EPOLLOUT (connecting, or the request did not fit) */
    double t_req;          /* when the request in flight started */
    client_state st;
    int slot;              /* the game slot being worked on */
    int next_create;       /* setup phase: next own slot to create */
    int seq;               /* seq from the last legal-moves answer */
    uint64_t rng;
    uint64_t nkeys;
    double next_start;     /* --rate: when the next move is scheduled */
    double wake;           /* ST_WAIT: when to start it */
} client;

typedef struct {
    double *v;
    size_t n, cap;
} samples;

static const char *base_url;
static const char *admin_token;
static char expansions_json[512] = "[]";
static bool send_idem = true, quiet, always_get;
static const char *unix_socket;        /* --unix-socket: NULL for TCP */
static int nclients, ngames;
static long target_moves;
static double max_seconds;
static long warmup_moves;
static bool warming;
static double rate;                    /* --rate: moves per second for all clients together; 0: as fast as possible */                   /* the warm-up phase: clients play their slots' quotas */
static unsigned long long run_seed;
static game *games;
static client *clients;
static h1_server server;
static int epfd;
static bool running_phase;          /* false during setup */
static long phase_target;             /* POSTs to issue in the current phase */
static double phase_seconds;           /* its time limit (0: none) */
static long posts_issued, moves_done, gets_done, gets_saved, errors, seat_misses, games_created, games_finished;
static long consecutive_failures;
static double t_start;
static samples post_lat, get_lat;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fputs("carcd-load: out of memory\n", stderr);
        exit(1);
    }
    return q;
}

static void usage(void)
{
    fputs("usage: carcd-load --url http://HOST:PORT --admin-token T --clients C --games G --moves M [--seed S]\n"
          "                  [--seconds T] [--warmup-moves W] [--rate R] [--expansions a,b,...]\n"
          "                  [--no-idempotency-key] [--unix-socket PATH] [--always-get] [--quiet]\n",
          stderr);
    exit(2);
}

/* splitmix64: a small fixed-seed generator, one stream per client */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t rand_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((next_rand(s) >> 32) * (uint64_t)n) >> 32);
}

static void samples_add(samples *s, double v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted samples, in the samples' unit. */
static double percentile(const samples *s, double p)
{
    if (s->n == 0)
        return 0;
    size_t rank = (size_t)(p / 100.0 * (double)s->n + 0.999999);
    if (rank < 1)
        rank = 1;
    if (rank > s->n)
        rank = s->n;
    return s->v[rank - 1];
}

static void report_error(client *c, const char *what, long status, const char *why);
static void on_done(client *c, const char *why);

/* Sets c's epoll interest (op: EPOLL_CTL_ADD for a new connection, else EPOLL_CTL_MOD): EPOLLOUT while its
 * request is being written (or its connection opened), else EPOLLIN. */
static void watch(client *c, int op, bool w)
{
    struct epoll_event ev = {.events = w ? EPOLLOUT : EPOLLIN, .data.ptr = c};
    if (epoll_ctl(epfd, op, c->conn.fd, &ev) != 0) {
        perror("carcd-load: epoll_ctl");
        exit(1);
    }
    c->writing = w;
}

/* A request that fits the socket at once, as nearly all do, changes nothing here. */
static void want_write(client *c, bool w)
{
    if (c->writing != w)
        watch(c, EPOLL_CTL_MOD, w);
}

/* Writes what is left of c's request; once all of it went, waits for the answer. */
static void send_some(client *c)
{
    switch (h1_send(&c->conn)) {
    case H1_DONE:
        want_write(c, false);
        break;
    case H1_AGAIN:
        want_write(c, true);
        break;
    case H1_ERROR:
        on_done(c, strerror(errno));
        break;
    }
}

/* Sends c's request (on its connection, opened first when there is none). body NULL: GET; body is owned. */
static void start_request(client *c, const char *path, const char *token, char *body, const char *idem)
{
    c->t_req = bench_now_s();
    h1_request(&c->conn, &server, path, token, body, idem);
    free(body);
    if (c->conn.fd < 0) {
        if (!h1_connect(&c->conn, &server)) {
            on_done(c, strerror(errno));
            return;
        }
        watch(c, EPOLL_CTL_ADD, true);   /* sent once the connect is done */
        return;
    }
    send_some(c);
}

static void start_create(client *c, int slot)
{
    c->st = ST_CREATE;
    c->slot = slot;
    games[slot].ready = false;
    char seed[80] = "";
    if (admin_token) {
        uint64_t s = run_seed ^ (0x5eedull << 48) ^ (uint64_t)games_created * 0x100000001b3ull ^ (uint64_t)c->idx;
        snprintf(seed, sizeof seed, ",\"seed\":\"%016llx%016llx%016llx%016llx\"",
                 (unsigned long long)next_rand(&s), (unsigned long long)next_rand(&s),
                 (unsigned long long)next_rand(&s), (unsigned long long)next_rand(&s));
    }
    char *body = xrealloc(NULL, 768);
    snprintf(body, 768, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"expansions\":%s%s}", expansions_json,
             seed);
    start_request(c, "/v1/games", admin_token, body, NULL);
}

/* The slots client c owns: c->idx, c->idx + nclients, ... */
static int own_slots(const client *c)
{
    return (ngames - c->idx + nclients - 1) / nclients;
}

static void start_get(client *c)
{
    game *g = &games[c->slot];
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g->id);
    c->st = ST_GET;
    start_request(c, path, g->token[g->seat], NULL, NULL);
}

static void begin_move(client *c);
static long count_legal_moves(const char *text, int *seq, const char **moves);
static void on_legal_moves(client *c, int seq, const char *moves, size_t n);

/* The next thing client c does: a new move on one of its games (now, or when --rate says), or nothing more. */
static void next_move(client *c)
{
    double now = bench_now_s();
    if (posts_issued >= phase_target || (phase_seconds > 0 && now - t_start >= phase_seconds)) {
        c->st = ST_DONE;
        return;
    }
    if (rate > 0 && !warming) {
        double start = c->next_start;
        c->next_start += (double)nclients / rate;
        if (now < start) {
            c->wake = start;
            c->st = ST_WAIT;
            return;
        }
    }
    begin_move(c);
}

static void begin_move(client *c)
{
    int n = own_slots(c), k = (int)rand_below(&c->rng, (uint32_t)n);
    if (warming) {   /* the next own slot, from a random one on, with warm-up moves left */
        int i = 0;
        while (i < n && games[c->idx + (k + i) % n * nclients].quota <= 0)
            i++;
        if (i == n) {
            c->st = ST_DONE;
            return;
        }
        k = (k + i) % n;
    }
    c->slot = c->idx + k * nclients;
    game *g = &games[c->slot];
    if (!g->ready) {
        start_create(c, c->slot);
        return;
    }
    if (g->next) {   /* the last answer said what this seat may do now: no GET */
        char *text = g->next;
        g->next = NULL;
        int seq = 0;
        const char *moves;
        long nmoves = count_legal_moves(text, &seq, &moves);
        if (nmoves > 0) {
            gets_saved++;
            on_legal_moves(c, seq, moves, (size_t)nmoves);   /* copies the chosen move before text goes */
            free(text);
            return;
        }
        free(text);
    }
    start_get(c);
}

/* why: what failed on the connection; NULL when the answer came and was not the one expected. */
static void report_error(client *c, const char *what, long status, const char *why)
{
    errors++;
    if (errors > MAX_ERRORS_SHOWN)
        return;
    if (why)
        fprintf(stderr, "carcd-load: client %d: %s: %s\n", c->idx, what, why);
    else
        fprintf(stderr, "carcd-load: client %d: %s: HTTP %ld: %.400s\n", c->idx, what, status,
                c->conn.body_off ? c->conn.in + c->conn.body_off : "");
}

static void on_created(client *c, json_t *doc)
{
    game *g = &games[c->slot];
    json_t *players = json_object_get(doc, "players");
    const char *id = json_string_value(json_object_get(doc, "id"));
    if (!id || json_array_size(players) != NSEATS) {
        report_error(c, "create: unexpected answer", 201, NULL);
        return;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    for (int s = 0; s < NSEATS; s++) {
        json_t *p = json_array_get(players, (size_t)s);
        const char *tok = json_string_value(json_object_get(p, "token"));
        int seat = (int)json_integer_value(json_object_get(p, "seat"));
        if (!tok || seat < 0 || seat >= NSEATS) {
            report_error(c, "create: a player without token or seat", 201, NULL);
            return;
        }
        snprintf(g->token[seat], sizeof g->token[seat], "%s", tok);
    }
    g->seat = 0;
    g->misses = 0;
    free(g->next);
    g->next = NULL;
    g->ready = true;
    games_created++;
}

/* ---- the legal-moves answer, read without building it: {"seq":N,"seat":N,"moves":[m0,m1,...]} ----------- */
/* Only seq and the k-th move's text are needed; a jansson tree of every move (and json_dumps of the chosen
 * one) cost this program more CPU than the rest of a request, on the cores carcd and PostgreSQL use. The
 * chosen move is posted as the server's own text of it (compact JSON, as json_dumps gave). */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* The end of the JSON string starting at p (at its opening quote), or NULL. */
static const char *skip_string(const char *p)
{
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p)
                return NULL;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

/* The end of the JSON value starting at p, or NULL when the text ends first. */
static const char *skip_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '"')
        return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (*p) {
            if (*p == '"') {
                if (!(p = skip_string(p)))
                    return NULL;
                continue;
            }
            if (*p == '{' || *p == '[')
                depth++;
            else if ((*p == '}' || *p == ']') && --depth == 0)
                return p + 1;
            p++;
        }
        return NULL;
    }
    const char *q = p;   /* a number, true, false or null */
    while (*q && *q != ',' && *q != '}' && *q != ']' && *q != ' ' && *q != '\n')
        q++;
    return q > p ? q : NULL;
}

/* Finds "seq" and the "moves" array of the answer: *seq, *moves at its '['. false: not such an answer. */
static bool scan_legal_moves(const char *p, int *seq, const char **moves)
{
    bool have_seq = false;
    *moves = NULL;
    p = skip_ws(p);
    if (*p++ != '{')
        return false;
    for (p = skip_ws(p); *p != '}'; p = skip_ws(p)) {
        if (*p != '"')
            return false;
        const char *k = p + 1, *e = skip_string(p);
        if (!e)
            return false;
        size_t klen = (size_t)(e - 1 - k);
        p = skip_ws(e);
        if (*p++ != ':')
            return false;
        p = skip_ws(p);
        if (klen == 3 && !memcmp(k, "seq", 3)) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p)
                return false;
            *seq = (int)v;
            have_seq = true;
        } else if (klen == 5 && !memcmp(k, "moves", 5)) {
            if (*p != '[')
                return false;
            *moves = p;
        }
        if (!(p = skip_value(p)))
            return false;
        p = skip_ws(p);
        if (*p == ',')
            p++;
        else if (*p != '}')
            return false;
    }
    return have_seq && *moves;
}

/* Calls with arr at an array's '[': the number of its elements, and (when k < that) the k-th one's text in
 * *start and *len. -1: malformed. */
static long array_elements(const char *arr, long k, const char **start, size_t *len)
{
    const char *p = skip_ws(arr + 1);
    long n = 0;
    if (*p == ']')
        return 0;
    for (;;) {
        const char *e = skip_value(p);
        if (!e)
            return -1;
        if (n == k) {
            *start = p;
            *len = (size_t)(e - p);
        }
        n++;
        p = skip_ws(e);
        if (*p == ']')
            return n;
        if (*p++ != ',')
            return -1;
        p = skip_ws(p);
    }
}

/* A legal-moves answer's seq, its "moves" array (at its '[') and their number; -1: not such an answer. */
static long count_legal_moves(const char *text, int *seq, const char **moves)
{
    const char *mv;
    size_t mvlen;
    return scan_legal_moves(text, seq, moves) ? array_elements(*moves, -1, &mv, &mvlen) : -1;
}

/* Chooses one of the n legal moves (the array at moves, in the answer) and posts it; switches seats when
 * there are none. */
static void on_legal_moves(client *c, int seq, const char *moves, size_t n)
{
    game *g = &games[c->slot];
    const char *mv = NULL;
    size_t mvlen = 0;
    if (n == 0) {
        seat_misses++;
        g->seat = (g->seat + 1) % NSEATS;
        if (++g->misses > NSEATS) {   /* no seat may move: the game is over (we missed game_over) */
            g->ready = false;
            games_finished++;
        }
        next_move(c);
        return;
    }
    g->misses = 0;
    if (posts_issued >= phase_target) {   /* others posted the last moves while this GET was in flight */
        c->st = ST_DONE;
        return;
    }
    c->seq = seq;
    array_elements(moves, (long)rand_below(&c->rng, (uint32_t)n), &mv, &mvlen);
    size_t cap = mvlen + 64;
    char *body = xrealloc(NULL, cap);
    snprintf(body, cap, "{\"expected_seq\":%d,\"move\":%.*s}", c->seq, (int)mvlen, mv);
    char key[48];
    snprintf(key, sizeof key, "ld-%d-%llu-%016llx", c->idx, (unsigned long long)++c->nkeys,
             (unsigned long long)next_rand(&c->rng));
    c->st = ST_POST;
    posts_issued++;
    if (warming)
        g->quota--;
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    start_request(c, path, g->token[g->seat], body, send_idem ? key : NULL);
}

/* Follows the answer's events: a turn event names the next seat; game_over ends the game. Keeps the answer's
 * legal_moves (its text, the answer's last member as carcd writes it) for the game's next move. */
static void on_moved(client *c, json_t *doc, const char *text)
{
    game *g = &games[c->slot];
    moves_done++;
    const char *lm = always_get || !json_object_get(doc, "legal_moves") ? NULL : strstr(text, "\"legal_moves\":");
    free(g->next);
    g->next = lm ? strdup(lm + strlen("\"legal_moves\":")) : NULL;
    size_t i;
    json_t *ev;
    json_array_foreach(json_object_get(doc, "events"), i, ev) {
        const char *type = json_string_value(json_object_get(ev, "type"));
        if (!type)
            continue;
        if (strcmp(type, "turn") == 0)
            g->seat = (int)json_integer_value(json_object_get(ev, "seat")) % NSEATS;
        else if (strcmp(type, "game_over") == 0) {
            g->ready = false;
            games_finished++;
        }
    }
}

static void setup_next(client *c)
{
    if (c->next_create < own_slots(c)) {
        start_create(c, c->idx + c->next_create++ * nclients);
    } else {
        c->st = ST_IDLE;
    }
}

/* c's request ended: its answer is in c->conn, or why says what failed first. */
static void on_done(client *c, const char *why)
{
    long status = why ? 0 : c->conn.status;
    double ms = (bench_now_s() - c->t_req) * 1000.0;
    if (why || c->conn.close_after)   /* the next request opens a new connection */
        h1_close(&c->conn);
    int expect = c->st == ST_CREATE ? 201 : 200;
    static const char *const what[] = {"idle", "create game", "legal-moves", "move"};
    json_t *doc = NULL;
    const char *text = why ? "" : c->conn.in + c->conn.body_off, *moves = NULL;
    int seq = 0;
    long nmoves = -1;
    bool ok = !why && status == expect;
    if (ok && c->st == ST_GET) {   /* scanned, not parsed (above) */
        nmoves = count_legal_moves(text, &seq, &moves);
        ok = nmoves >= 0;
    } else if (ok) {
        ok = (doc = json_loads(text, 0, NULL)) != NULL;
    }
    if (!ok) {
        report_error(c, what[c->st], status, why);
        if (++consecutive_failures > MAX_CONSECUTIVE_FAILURES) {
            fprintf(stderr, "carcd-load: %d requests in a row failed; giving up\n", MAX_CONSECUTIVE_FAILURES);
            exit(1);
        }
        if (c->st == ST_CREATE && !running_phase)
            start_create(c, c->slot);   /* setup must create them all */
        else if (running_phase)
            next_move(c);   /* re-reads legal-moves (and seq) before moving again */
        else
            setup_next(c);
        return;
    }
    consecutive_failures = 0;
    switch (c->st) {
    case ST_CREATE:
        on_created(c, doc);
        if (running_phase)
            next_move(c);
        else
            setup_next(c);
        break;
    case ST_GET:
        gets_done++;
        samples_add(&get_lat, ms);
        on_legal_moves(c, seq, moves, (size_t)nmoves);
        break;
    case ST_POST:
        samples_add(&post_lat, ms);
        on_moved(c, doc, text);
        next_move(c);
        break;
    default:
        break;
    }
    json_decref(doc);
}

/* A client whose request is in flight: its state says which. */
static bool in_flight(const client *c)
{
    return c->st == ST_CREATE || c->st == ST_GET || c->st == ST_POST;
}

/* An epoll event on c's connection: the request written further, or the answer read further. */
static void on_ready(client *c, uint32_t events)
{
    if (c->conn.fd < 0)
        return;
    if (!in_flight(c)) {   /* the server closed an idle connection: the next request opens another */
        h1_close(&c->conn);
        return;
    }
    if (c->writing) {
        if (events & (EPOLLERR | EPOLLHUP)) {
            int err = 0;
            socklen_t len = sizeof err;
            getsockopt(c->conn.fd, SOL_SOCKET, SO_ERROR, &err, &len);
            on_done(c, err ? strerror(err) : "the connection failed");
            return;
        }
        send_some(c);
        return;
    }
    const char *why = NULL;
    switch (h1_recv(&c->conn, &why)) {
    case H1_DONE:
        on_done(c, NULL);
        break;
    case H1_ERROR:
        on_done(c, why);
        break;
    case H1_AGAIN:
        break;
    }
}

/* Runs transfers until no client has one in flight or waiting. */
static void run_loop(void)
{
    for (;;) {
        /* paced clients whose time has come start their move; the others say when to look again */
        double now = bench_now_s(), next_due = -1;
        bool active = false;
        for (int i = 0; i < nclients; i++) {
            client *c = &clients[i];
            if (in_flight(c) && now - c->t_req > REQUEST_TIMEOUT_S) {
                on_done(c, "no answer in 30 s");
            } else if (c->st == ST_WAIT) {
                if (c->wake <= now)
                    begin_move(c);
                else if (next_due < 0 || c->wake < next_due)
                    next_due = c->wake;
            }
            active |= c->st != ST_IDLE && c->st != ST_DONE;
        }
        if (!active)
            return;
        /* wait for a socket or the next paced start (and look at the timeouts at least every 100 ms) */
        int wait_ms = 100;
        if (next_due >= 0 && (next_due - now) * 1000 < wait_ms)
            wait_ms = (int)((next_due - now) * 1000);
        struct epoll_event evs[64];
        int n = wait_ms == 0 ? 0 : epoll_wait(epfd, evs, 64, wait_ms);
        for (int i = 0; i < n; i++)
            on_ready(evs[i].data.ptr, evs[i].events);
    }
}

/* One phase of play: every client moves until `target` POSTs were issued or `seconds` passed. Its duration. */
static double play(long target, double seconds)
{
    phase_target = target;
    phase_seconds = seconds;
    posts_issued = 0;
    t_start = bench_now_s();
    for (int i = 0; i < nclients; i++)   /* --rate: staggered starts */
        clients[i].next_start = t_start + (rate > 0 ? (double)i / rate : 0);
    for (int i = 0; i < nclients; i++)
        next_move(&clients[i]);
    run_loop();
    return bench_now_s() - t_start;
}

/* "hills_sheep,crop_circles" -> ["hills_sheep","crop_circles"] */
static void set_expansions(const char *list)
{
    size_t k = 0;
    k += (size_t)snprintf(expansions_json + k, sizeof expansions_json - k, "[");
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%s", list);
    bool first = true;
    for (char *tok = strtok(tmp, ","); tok && k < sizeof expansions_json; tok = strtok(NULL, ",")) {
        k += (size_t)snprintf(expansions_json + k, sizeof expansions_json - k, "%s\"%s\"", first ? "" : ",", tok);
        first = false;
    }
    if (k < sizeof expansions_json)
        snprintf(expansions_json + k, sizeof expansions_json - k, "]");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--url") && v)
            base_url = v, i++;
        else if (!strcmp(a, "--admin-token") && v)
            admin_token = v, i++;
        else if (!strcmp(a, "--clients") && v)
            nclients = atoi(v), i++;
        else if (!strcmp(a, "--games") && v)
            ngames = atoi(v), i++;
        else if (!strcmp(a, "--moves") && v)
            target_moves = atol(v), i++;
        else if (!strcmp(a, "--seed") && v)
            run_seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--seconds") && v)
            max_seconds = atof(v), i++;
        else if (!strcmp(a, "--rate") && v)
            rate = atof(v), i++;
        else if (!strcmp(a, "--warmup-moves") && v)
            warmup_moves = atol(v), i++;
        else if (!strcmp(a, "--expansions") && v)
            set_expansions(v), i++;
        else if (!strcmp(a, "--no-idempotency-key"))
            send_idem = false;
        else if (!strcmp(a, "--unix-socket") && v)
            unix_socket = v, i++;
        else if (!strcmp(a, "--always-get"))
            always_get = true;
        else if (!strcmp(a, "--quiet"))
            quiet = true;
        else
            usage();
    }
    if (!base_url || nclients < 1 || ngames < nclients || target_moves < 1)
        usage();
    if (admin_token && !admin_token[0])
        admin_token = NULL;
    size_t ul = strlen(base_url);
    if (ul > 0 && base_url[ul - 1] == '/') {
        char *u = xrealloc(NULL, ul);
        memcpy(u, base_url, ul - 1);
        u[ul - 1] = 0;
        base_url = u;
    }

    if (!h1_server_init(&server, base_url, unix_socket))
        return 2;
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) {
        perror("carcd-load: epoll_create1");
        return 1;
    }
    games = calloc((size_t)ngames, sizeof *games);
    clients = calloc((size_t)nclients, sizeof *clients);
    if (!games || !clients) {
        fputs("carcd-load: out of memory\n", stderr);
        return 1;
    }
    for (int i = 0; i < nclients; i++) {
        client *c = &clients[i];
        c->idx = i;
        c->rng = run_seed * 0x9e3779b97f4a7c15ull + (uint64_t)i + 1;
        c->conn.fd = -1;
    }

    /* setup: create every game, C at a time */
    double t_setup = bench_now_s();
    for (int i = 0; i < nclients; i++)
        setup_next(&clients[i]);
    run_loop();
    long created_at_setup = games_created;
    if (created_at_setup != ngames) {
        fprintf(stderr, "carcd-load: only %ld of %d games could be created\n", created_at_setup, ngames);
        return 1;
    }
    if (!quiet)
        fprintf(stderr, "carcd-load: %d games created in %.2f s; playing\n", ngames, bench_now_s() - t_setup);

    running_phase = true;
    if (warmup_moves > 0) {
        double t_warm = bench_now_s();
        for (int i = 0; i < nclients; i++)
            for (int j = i; j < ngames; j += nclients)
                games[j].quota = (long)rand_below(&clients[i].rng, (uint32_t)(2 * warmup_moves / ngames + 1));
        warming = true;
        play(LONG_MAX, 0);
        warming = false;
        if (!quiet)
            fprintf(stderr, "carcd-load: warm-up: %ld moves in %.2f s, %ld games finished\n", moves_done,
                    bench_now_s() - t_warm, games_finished);
        posts_issued = moves_done = gets_done = gets_saved = seat_misses = games_finished = 0;
        post_lat.n = get_lat.n = 0;
    }
    long created_before = games_created;
    if (!quiet)
        fprintf(stderr, "carcd-load: timed phase: %d clients\n", nclients);
    /* the timed phase */
    double cpu0 = bench_cpu_s();
    double dt = play(target_moves, max_seconds);
    double cpu = bench_cpu_s() - cpu0;

    qsort(post_lat.v, post_lat.n, sizeof *post_lat.v, cmp_double);
    qsort(get_lat.v, get_lat.n, sizeof *get_lat.v, cmp_double);
    printf("clients: %d\n", nclients);
    if (rate > 0)
        printf("rate_target: %.0f\n", rate);
    printf("moves: %ld\n", moves_done);
    printf("seconds: %.2f\n", dt);
    printf("moves_per_s: %.0f\n", (double)moves_done / dt);
    printf("post_p50_ms: %.2f\n", percentile(&post_lat, 50));
    printf("post_p90_ms: %.2f\n", percentile(&post_lat, 90));
    printf("post_p99_ms: %.2f\n", percentile(&post_lat, 99));
    printf("post_max_ms: %.2f\n", post_lat.n ? post_lat.v[post_lat.n - 1] : 0.0);
    printf("get_p50_ms: %.2f\n", percentile(&get_lat, 50));
    printf("get_p99_ms: %.2f\n", percentile(&get_lat, 99));
    printf("errors: %ld\n", errors);
    printf("gets: %ld\n", gets_done);
    printf("gets_saved: %ld\n", gets_saved);
    printf("gets_per_move: %.3f\n", moves_done ? (double)gets_done / (double)moves_done : 0.0);
    printf("seat_misses: %ld\n", seat_misses);
    printf("games: %d\n", ngames);
    printf("games_finished: %ld\n", games_finished);
    printf("games_created_during_run: %ld\n", games_created - created_before);
    printf("load_cpu_ms_per_move: %.3f\n", moves_done ? 1000.0 * cpu / (double)moves_done : 0.0);

    for (int i = 0; i < nclients; i++) {
        h1_close(&clients[i].conn);
        free(clients[i].conn.out);
        free(clients[i].conn.in);
    }
    close(epfd);
    for (int i = 0; i < ngames; i++)
        free(games[i].next);
    free(games);
    free(clients);
    free(post_lat.v);
    free(get_lat.v);
    return errors == 0 ? 0 : 1;
}
