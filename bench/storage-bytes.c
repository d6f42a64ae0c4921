/*
 * storage-bytes — what a game costs PostgreSQL: plays games against a running carcd through its HTTP API and
 * prints the bytes per game of its tables (table, indexes and TOAST: pg_total_relation_size, after VACUUM
 * FULL, so that only what is kept counts, not the space deleted rows leave until it is reused), for games in
 * play and finished, base and every expansion, 2 and 6 seats. bench/storage-bytes.sh runs it (against carcd
 * as it is and as it was).
 *
 *   storage-bytes --url http://127.0.0.1:PORT --admin-token T --database-url URL [--games G] [--active-seq S]
 *                 [--compact-wait S]
 *
 * For each of the 8 cases: every table of games is emptied (TRUNCATE games CASCADE), VACUUM FULL, sizes
 * read (live_B: what the live rows take in the tables, their TOAST and their indexes, by pgstattuple; disk_B:
 * pg_total_relation_size, whole pages, which with a few games mostly counts the indexes' first pages); G games created (admin, seeds derived from the case and the game's number, so every run plays the
 * same games) and played by uniformly random legal moves, each POST with an Idempotency-Key (as a client that
 * retries safely sends), to the end ("finished") or to seq S ("active", default 70: the middle of a base
 * game); for finished games, when the database has games.log (sql/010_compact_log.sql), until the clock
 * worker has compacted them all (at most --compact-wait seconds, default 60); VACUUM FULL, sizes again. The
 * difference over G is a game's bytes, live by table (games_B: games, game_secrets and seats; moves_B) and
 * in all, and on disk, with the moves per game. It also times the events of a finished game's last move
 * (GET /events?after=seq-1), which on a compacted game is a replay of the whole log.
 *
 * Figures, not a test: nothing asserts; a failed request ends the program with status 1.
 */
#include <curl/curl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"

typedef struct {
    char *p;
    size_t len;
} buf;

static CURL *H;
static const char *URL, *ADMIN;
static PGconn *DB;

static size_t on_data(char *d, size_t s, size_t n, void *arg)
{
    buf *b = arg;
    char *q = realloc(b->p, b->len + s * n + 1);
    if (!q)
        abort();
    memcpy(q + b->len, d, s * n);
    b->p = q;
    b->len += s * n;
    b->p[b->len] = 0;
    return s * n;
}

/* One request; the parsed answer (NULL when not JSON); exits on a transport error. */
static json_t *req(const char *method, const char *path, const char *token, const char *body, const char *idem,
                   long *status)
{
    char url[512], auth[300], key[120];
    snprintf(url, sizeof url, "%s%s", URL, path);
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    if (token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        h = curl_slist_append(h, auth);
    }
    if (idem) {
        snprintf(key, sizeof key, "Idempotency-Key: %s", idem);
        h = curl_slist_append(h, key);
    }
    buf b = {0};
    curl_easy_reset(H);
    curl_easy_setopt(H, CURLOPT_URL, url);
    curl_easy_setopt(H, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(H, CURLOPT_HTTPHEADER, h);
    if (body)
        curl_easy_setopt(H, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(H, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(H, CURLOPT_WRITEDATA, &b);
    CURLcode rc = curl_easy_perform(H);
    curl_slist_free_all(h);
    if (rc != CURLE_OK) {
        fprintf(stderr, "storage-bytes: %s %s: %s\n", method, path, curl_easy_strerror(rc));
        exit(1);
    }
    curl_easy_getinfo(H, CURLINFO_RESPONSE_CODE, status);
    json_t *j = b.p ? json_loads(b.p, 0, NULL) : NULL;
    if (*status >= 300)
        fprintf(stderr, "storage-bytes: %s %s: %ld %.300s\n", method, path, *status, b.p ? b.p : "");
    free(b.p);
    return j;
}

static json_t *req_ok(const char *method, const char *path, const char *token, const char *body, const char *idem)
{
    long st;
    json_t *j = req(method, path, token, body, idem, &st);
    if (st != 200 && st != 201)
        exit(1);
    return j;
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static long long sql_ll(const char *sql)
{
    PGresult *r = PQexec(DB, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "storage-bytes: %s: %s", sql, PQerrorMessage(DB));
        exit(1);
    }
    long long v = PQntuples(r) > 0 ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return v;
}

/* The files of the tables: whole pages, each index at least its meta page and a root */
#define DISK_OF(rels) \
    "SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE c.relname IN (" rels ")"
/* What their live rows take (pgstattuple's tuple_len, plus a 4-byte line pointer each): of the tables, their
 * TOAST tables and every index of either, without the pages' headers and free space */
#define LIVE_OF(rels)                                                                                         \
    "SELECT COALESCE(sum((s).tuple_len + 4 * (s).tuple_count), 0) FROM (SELECT pgstattuple(o) AS s FROM ("     \
    "SELECT r.oid AS o FROM pg_class r WHERE r.relname IN (" rels ") "                                         \
    "UNION SELECT r.reltoastrelid FROM pg_class r WHERE r.relname IN (" rels ") AND r.reltoastrelid <> 0 "     \
    "UNION SELECT i.indexrelid FROM pg_index i JOIN pg_class r ON i.indrelid IN (r.oid, r.reltoastrelid) "     \
    "WHERE r.relname IN (" rels ")) rels) x"
#define GAME_RELS "'games', 'game_secrets', 'seats'"
#define MOVE_RELS "'moves'"

typedef struct {
    long long games, moves, disk;
} sizes_t;

static sizes_t sizes(void)
{
    sql_ll("VACUUM FULL");
    return (sizes_t){sql_ll(LIVE_OF(GAME_RELS)), sql_ll(LIVE_OF(MOVE_RELS)), sql_ll(DISK_OF(GAME_RELS ", " MOVE_RELS))};
}

/* Plays game `id` (tokens by seat) by random legal moves until it ends or reaches seq `upto` (-1: the end);
 * returns the seq reached. */
static int play(const char *id, json_t *tokens, int upto, int *moves_posted)
{
    char path[200];
    static long keyno;
    for (;;) {
        snprintf(path, sizeof path, "/v1/games/%s", id);
        json_t *v = req_ok("GET", path, NULL, NULL, NULL);
        int seq = (int)json_integer_value(json_object_get(v, "seq"));
        json_t *pending = json_object_get(v, "pending");
        int seat = pending ? (int)json_integer_value(json_object_get(pending, "seat")) : -1;
        bool over = strcmp(json_string_value(json_object_get(v, "status")) ?: "", "finished") == 0;
        json_decref(v);
        if (over || seat < 0 || (upto >= 0 && seq >= upto))
            return seq;
        const char *tok = json_string_value(json_object_get(json_array_get(tokens, (size_t)seat), "token"));
        snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
        json_t *lm = req_ok("GET", path, tok, NULL, NULL);
        json_t *ms = json_object_get(lm, "moves");
        size_t n = json_array_size(ms);
        if (n == 0) {
            fprintf(stderr, "storage-bytes: game %s: no legal move for seat %d\n", id, seat);
            exit(1);
        }
        json_t *body = json_pack("{s:O, s:i}", "move", json_array_get(ms, rnd((uint32_t)n)), "expected_seq", seq);
        char *text = json_dumps(body, JSON_COMPACT), key[64];
        snprintf(key, sizeof key, "sb-%ld", keyno++);
        snprintf(path, sizeof path, "/v1/games/%s/moves", id);
        json_decref(req_ok("POST", path, tok, text, key));
        (*moves_posted)++;
        free(text);
        json_decref(body);
        json_decref(lm);
    }
}

int main(int argc, char **argv)
{
    const char *dburl = NULL;
    int games = 10, active_seq = 70, compact_wait = 60;
    URL = ADMIN = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--url"))
            URL = argv[i + 1];
        else if (!strcmp(argv[i], "--admin-token"))
            ADMIN = argv[i + 1];
        else if (!strcmp(argv[i], "--database-url"))
            dburl = argv[i + 1];
        else if (!strcmp(argv[i], "--games"))
            games = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--active-seq"))
            active_seq = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--compact-wait"))
            compact_wait = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "storage-bytes: unknown flag %s\n", argv[i]);
            return 2;
        }
    }
    if (!URL || !ADMIN || !dburl || games < 1) {
        fprintf(stderr, "usage: storage-bytes --url URL --admin-token T --database-url URL [--games G] "
                        "[--active-seq S] [--compact-wait S]\n");
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    H = curl_easy_init();
    DB = PQconnectdb(dburl);
    if (PQstatus(DB) != CONNECTION_OK) {
        fprintf(stderr, "storage-bytes: %s", PQerrorMessage(DB));
        return 1;
    }
    bool compacts = sql_ll("SELECT count(*) FROM information_schema.columns WHERE table_name = 'games' "
                           "AND column_name = 'log'") > 0;
    sql_ll("SET client_min_messages = warning");
    sql_ll("CREATE EXTENSION IF NOT EXISTS pgstattuple");
    printf("%-8s %-6s %5s %6s %10s %10s %10s %10s %10s\n", "game", "state", "seats", "moves", "games_B", "moves_B",
           "live_B", "disk_B", "events_ms");
    static const char *const exps[] = {"[]", "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]"};
    for (int e = 0; e < 2; e++)
        for (int s = 0; s < 2; s++)
            for (int fin = 0; fin < 2; fin++) {
                int seats = s ? 6 : 2;
                sql_ll("TRUNCATE games CASCADE");
                sizes_t a = sizes();
                long moves = 0;
                double ev_s = 0;
                for (int k = 0; k < games; k++) {
                    rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(e * 4 + s * 2 + fin) << 32) ^ (uint64_t)k;
                    json_t *players = json_array();
                    for (int p = 0; p < seats; p++) {
                        char name[8];
                        snprintf(name, sizeof name, "P%d", p);
                        json_array_append_new(players, json_pack("{s:s}", "name", name));
                    }
                    char seed[65];
                    for (int i = 0; i < 64; i++)
                        seed[i] = "0123456789abcdef"[(rnd(16) + (unsigned)k) % 16];
                    seed[64] = 0;
                    json_t *body = json_pack("{s:o, s:o, s:s}", "players", players, "expansions",
                                             json_loads(exps[e], 0, NULL), "seed", seed);
                    char *text = json_dumps(body, JSON_COMPACT);
                    json_t *g = req_ok("POST", "/v1/games", ADMIN, text, NULL);
                    free(text);
                    json_decref(body);
                    const char *id = json_string_value(json_object_get(g, "id"));
                    int posted = 0;
                    play(id, json_object_get(g, "players"), fin ? -1 : active_seq, &posted);
                    moves += posted;
                    json_decref(g);
                }
                if (fin && compacts) {
                    double until = bench_now_s() + compact_wait;
                    while (sql_ll("SELECT count(*) FROM games WHERE status = 'finished' AND log IS NULL") > 0 &&
                           bench_now_s() < until) {
                        struct timespec ts = {0, 100000000};
                        nanosleep(&ts, NULL);
                    }
                }
                if (fin) {   /* the events of the last move of each game: a replay of the whole log when compacted */
                    PGresult *r = PQexec(DB, "SELECT id, seq FROM games");
                    for (int i = 0; i < PQntuples(r); i++) {
                        char path[200];
                        long st;
                        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", PQgetvalue(r, i, 0),
                                 atoi(PQgetvalue(r, i, 1)) - 1);
                        double best = 1e9;   /* the least of 5: the machine is shared, a read is short */
                        for (int k = 0; k < 5; k++) {
                            double t = bench_now_s();
                            json_decref(req("GET", path, NULL, NULL, NULL, &st));
                            if (bench_now_s() - t < best)
                                best = bench_now_s() - t;
                        }
                        ev_s += best;
                    }
                    PQclear(r);
                }
                sizes_t b = sizes();
                char evs[16] = "-";
                if (fin)
                    snprintf(evs, sizeof evs, "%.2f", ev_s * 1000 / games);
                double n = games;
                printf("%-8s %-6s %5d %6.1f %10.0f %10.0f %10.0f %10.0f %10s\n", e ? "all-exp" : "base",
                       fin ? "done" : "active", seats, (double)moves / n, (double)(b.games - a.games) / n,
                       (double)(b.moves - a.moves) / n, (double)(b.games - a.games + b.moves - a.moves) / n,
                       (double)(b.disk - a.disk) / n, evs);
                fflush(stdout);
            }
    PQfinish(DB);
    curl_easy_cleanup(H);
    curl_global_cleanup();
    return 0;
}
