/*
 * games.c — what the game endpoints share: catalog, tokens, viewer resolution, loading a game's state and
 * rendering its view. The seed never enters a stored snapshot; it is joined back in only where the query
 * may read it (a move's transaction, an admin, a finished game).
 */
#include <errno.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "games.h"
#include "state_cache.h"
#include "base/log.h"
#include "base/timesrc.h"
#include "db/store.h"

static carc_catalog *catalog;   /* read-only once loaded */
static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;

static void catalog_load(void)
{
    char err[256];
    catalog = malloc(sizeof *catalog);
    if (!catalog || carc_catalog_load(catalog, err, sizeof err) != 0) {
        fprintf(stderr, "carcd: tile data: %s\n", catalog ? err : "out of memory");
        abort();
    }
}

const carc_catalog *cd_catalog(void)
{
    pthread_once(&catalog_once, catalog_load);
    return catalog;
}

static bool hexval_ok(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool cd_uuid_valid(const char *s)
{
    static const int dash[] = {8, 13, 18, 23};
    if (strlen(s) != 36)
        return false;
    for (int i = 0, d = 0; i < 36; i++) {
        if (d < 4 && i == dash[d]) {
            if (s[i] != '-')
                return false;
            d++;
        } else if (!hexval_ok(s[i])) {
            return false;
        }
    }
    return true;
}

bool cd_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > CD_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

void cd_random_bytes(uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(buf + got, n - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            abort();   /* no kernel randomness: no honest seeds or tokens either */
        got += (size_t)k;
    }
}

void cd_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool cd_unhex(const char *hex, uint8_t *out, size_t n)
{
    if (strlen(hex) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

void cd_token_new(char token[CD_TOKEN_LEN + 1])
{
    uint8_t raw[32];
    unsigned char b64[48];
    cd_random_bytes(raw, sizeof raw);
    int n = EVP_EncodeBlock(b64, raw, sizeof raw);   /* 44 chars with one '=' */
    memcpy(token, "cs_", 3);
    int k = 3;
    for (int i = 0; i < n && b64[i] != '='; i++)
        token[k++] = b64[i] == '+' ? '-' : b64[i] == '/' ? '_' : (char)b64[i];
    token[k] = 0;
}

static EVP_MD *sha256;   /* fetched once: EVP_sha256() in EVP_Digest looks the algorithm up every call */
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void sha256_fetch(void)
{
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!sha256)
        abort();
}

void cd_sha256_hex(const char *text, char out[CD_HEX256_LEN])
{
    uint8_t md[32];
    unsigned int len = 0;
    pthread_once(&sha256_once, sha256_fetch);
    EVP_Digest(text, strlen(text), md, &len, sha256, NULL);
    cd_hex(md, sizeof md, out);
}

void cd_game_free(cd_game *g)
{
    json_decref(g->setup);
    json_decref(g->snapshot);
    json_decref(g->names);
    free(g->st);
    memset(g, 0, sizeof *g);
}

static void copy_field(char *dst, size_t cap, const PGresult *res, int col)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col));
}

/* Decodes the stored snapshot with `seed_hex` joined back in (zeros when the reader may not know it). The
 * seed goes into g->snapshot only for the decode and is taken out again: g->snapshot stays as stored. */
static cd_load_result decode_state(cd_game *g, const char *seed_hex)
{
    json_t *rng = json_object_get(g->snapshot, "rng");
    if (!json_is_object(rng))
        return CD_LOAD_CORRUPT;
    static const char zeros[] = "0000000000000000000000000000000000000000000000000000000000000000";
    json_object_set_new(rng, "seed", json_string(seed_hex[0] ? seed_hex : zeros));
    g->st = malloc(sizeof *g->st);
    char err[256];
    int rc = g->st ? carc_state_from_json(g->st, cd_catalog(), g->snapshot, err, sizeof err) : -1;
    json_object_del(rng, "seed");
    if (rc != 0) {
        fprintf(stderr, "carcd: game %s: stored snapshot does not decode: %s\n", g->id, g->st ? err : "no memory");
        return CD_LOAD_CORRUPT;
    }
    return CD_LOAD_OK;
}

static cd_load_result result_error(cd_db *db, PGresult *res)
{
    cd_load_result lr = cd_db_unavailable(db, res) ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
    PQclear(res);
    return lr;
}

cd_held cd_held_take(const char *id)
{
    cd_held h = {.st = malloc(sizeof(carc_state)), .seq = -1};
    if (h.st)
        h.seq = cd_cache_copy(id, h.st);
    if (h.seq < 0) {
        free(h.st);
        h.st = NULL;
    }
    snprintf(h.seq_text, sizeof h.seq_text, "%d", h.seq);
    return h;
}

/* g->st becomes held's state when that is g's seq; else it is freed. Whether it was. */
static bool use_held(cd_game *g, cd_held *h)
{
    bool hit = h && h->st && h->seq == g->seq;
    if (hit)
        g->st = h->st;
    else if (h)
        free(h->st);
    if (h)
        h->st = NULL;
    cd_cache_count(hit);
    return hit;
}

/* Fills g from row 0 of a ST_GAME_GET-shaped result (ST_GAME_GET, _ADMIN, _SEAT, _PLAY: seq, status, setup,
 * snapshot, seed_sha256, created_at, updated_at, finished_at, seed, names, clock; NULL where a statement leaves a
 * column out) and decodes the state: for players' reads, held's copy when it is this seq. */
static cd_load_result decode_get_row(cd_game *g, const PGresult *res, bool admin, cd_held *held)
{
    g->seq = atoi(PQgetvalue(res, 0, 0));
    g->finished = strcmp(PQgetvalue(res, 0, 1), "finished") == 0;
    /* only admin readers (replays, export) use the set-up; players' reads skip parsing it, and take the
     * decoded state from the cache when this seq is there (admins read the stored snapshot itself) */
    g->setup = admin ? json_loads(PQgetvalue(res, 0, 2), 0, NULL) : json_object();
    bool cached = !admin && use_held(g, held);
    g->snapshot = cached ? json_object() : json_loads(PQgetvalue(res, 0, 3), 0, NULL);
    copy_field(g->seed_sha256, sizeof g->seed_sha256, res, 4);
    copy_field(g->created_at, sizeof g->created_at, res, 5);
    copy_field(g->updated_at, sizeof g->updated_at, res, 6);
    copy_field(g->finished_at, sizeof g->finished_at, res, 7);
    copy_field(g->seed, sizeof g->seed, res, 8);
    g->names = PQgetisnull(res, 0, 9) ? json_array() : json_loads(PQgetvalue(res, 0, 9), 0, NULL);
    if (!g->setup || !g->snapshot || !json_is_array(g->names))
        return CD_LOAD_CORRUPT;
    if (!PQgetisnull(res, 0, 10)) {
        json_t *cj = json_loads(PQgetvalue(res, 0, 10), 0, NULL);
        g->clocked = cj && cd_clock_from_json(cj, &g->clock);
        json_decref(cj);
        if (!g->clocked)
            return CD_LOAD_CORRUPT;
    }
    if (cached)
        return CD_LOAD_OK;
    return decode_state(g, g->seed);
}

cd_load_result cd_game_load(cd_db *db, const char *id, bool admin, cd_game *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    const char *p[] = {id};
    cd_held held = admin ? (cd_held){.seq = -1} : cd_held_take(id);
    PGresult *res = cd_db_exec(db, admin ? ST_GAME_GET_ADMIN : ST_GAME_GET, 1, p);
    if (!cd_db_ok(res) || PQntuples(res) == 0) {
        free(held.st);
        if (!cd_db_ok(res))
            return result_error(db, res);
        PQclear(res);
        return CD_LOAD_NOT_FOUND;
    }
    cd_load_result lr = decode_get_row(g, res, admin, &held);
    PQclear(res);
    return lr;
}

cd_load_result cd_game_lock_row(cd_game *g, const char *id, const PGresult *res, cd_held *held)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    if (PQntuples(res) == 0 || PQgetisnull(res, 0, 0)) {
        free(held->st);
        held->st = NULL;
        return CD_LOAD_NOT_FOUND;
    }
    g->seq = atoi(PQgetvalue(res, 0, 0));
    g->finished = strcmp(PQgetvalue(res, 0, 1), "finished") == 0;
    g->setup = json_object();   /* a move needs no set-up */
    copy_field(g->seed, sizeof g->seed, res, 3);
    if (!PQgetisnull(res, 0, 4)) {   /* the turn clock: a move advances it (clock.h) */
        json_t *cj = json_loads(PQgetvalue(res, 0, 4), 0, NULL);
        g->clocked = cj && cd_clock_from_json(cj, &g->clock);
        json_decref(cj);
        if (!g->clocked) {
            free(held->st);
            held->st = NULL;
            return CD_LOAD_CORRUPT;
        }
    }
    if (use_held(g, held)) {   /* the state this process stored after the last move */
        g->snapshot = json_object();
        return CD_LOAD_OK;
    }
    g->snapshot = json_loads(PQgetvalue(res, 0, 2), 0, NULL);
    if (!g->setup || !g->snapshot)
        return CD_LOAD_CORRUPT;
    return decode_state(g, g->seed);
}

cd_load_result cd_game_lock(cd_db *db, const char *id, cd_game *g)
{
    memset(g, 0, sizeof *g);
    const char *p[] = {id};
    cd_held held = cd_held_take(id);   /* game_lock names no seq: the copy just spares the decode */
    PGresult *res = cd_db_exec(db, ST_GAME_LOCK, 1, p);
    if (!cd_db_ok(res)) {
        free(held.st);
        return result_error(db, res);
    }
    cd_load_result lr = cd_game_lock_row(g, id, res, &held);
    PQclear(res);
    return lr;
}

json_t *cd_snapshot_for_store(const carc_state *st)
{
    json_t *snap = carc_state_to_json(st);
    json_object_del(json_object_get(snap, "rng"), "seed");
    return snap;
}

json_t *cd_legal_moves_json(const carc_state *st, int seq, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    json_t *answer = json_pack("{s:i, s:i, s:o}", "seq", seq, "seat", seat, "moves", carc_moves_to_json(st, &m));
    carc_moves_free(&m);
    return answer;
}

/* Whether a token's statement found its seat; else answers (503/500, or 401 for a token nobody has) and
 * clears res. */
static bool token_found(cd_req *r, cd_db *db, PGresult *res)
{
    if (cd_db_ok(res) && PQntuples(res) > 0)
        return true;
    if (!cd_db_ok(res))
        cd_reply_db_failure(r, cd_db_unavailable(db, res), "token lookup failed");
    else
        cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token belongs to no seat");
    PQclear(res);
    return false;
}

bool cd_game_open_seat(cd_req *r, cd_db *db, const char *id, bool names, int *seat, cd_game *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    char hash[CD_HEX256_LEN];
    cd_sha256_hex(r->bearer, hash);
    cd_held held = cd_held_take(id);
    const char *p[] = {hash, id, held.seq_text};
    PGresult *res = cd_db_exec(db, names ? ST_GAME_GET_SEAT : ST_GAME_GET_PLAY, 3, p);
    if (!token_found(r, db, res)) {
        free(held.st);
        return false;
    }
    /* columns 11 and 12: whether the token's game is this one, and its seat (store.c: BY_TOKEN) */
    if (strcmp(PQgetvalue(res, 0, 11), "t") != 0) {
        free(held.st);
        PQclear(res);
        cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
        return false;
    }
    *seat = atoi(PQgetvalue(res, 0, 12));
    cd_load_result lr = PQgetisnull(res, 0, 0) ? CD_LOAD_NOT_FOUND : decode_get_row(g, res, false, &held);
    free(held.st);   /* not taken (another game's seq, or no game) */
    PQclear(res);
    if (lr != CD_LOAD_OK) {
        cd_game_free(g);
        cd_reply_load_error(r, lr);
        return false;
    }
    return true;
}

bool cd_viewer_of(cd_req *r, cd_db *db, const char *id, int *viewer)
{
    if (r->is_admin) {
        *viewer = CARC_VIEW_ADMIN;
        return true;
    }
    if (!r->bearer) {
        *viewer = CARC_VIEW_PUBLIC;
        return true;
    }
    char hash[CD_HEX256_LEN];
    cd_sha256_hex(r->bearer, hash);
    const char *p[] = {hash};
    PGresult *res = cd_db_exec(db, ST_TOKEN_LOOKUP, 1, p);
    if (!token_found(r, db, res))
        return false;
    bool same = strcasecmp(PQgetvalue(res, 0, 0), id) == 0;
    *viewer = atoi(PQgetvalue(res, 0, 1));
    PQclear(res);
    if (!same) {
        cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
        return false;
    }
    return true;
}

json_t *cd_game_view(const cd_game *g, int viewer)
{
    json_t *v = carc_view_to_json(g->st, viewer);
    json_object_set_new(v, "id", json_string(g->id));
    json_object_set_new(v, "seq", json_integer(g->seq));
    json_object_set_new(v, "seed_sha256", json_string(g->seed_sha256));
    /* the board is the list of placed pieces */
    json_t *pieces = json_object_get(v, "pieces");
    if (pieces) {
        json_object_set(v, "board", pieces);
        json_object_del(v, "pieces");
    }
    json_t *players = json_object_get(v, "players");
    for (size_t i = 0; i < json_array_size(players) && i < json_array_size(g->names); i++)
        json_object_set(json_array_get(players, i), "name", json_array_get(g->names, i));
    json_object_set_new(v, "clock", g->clocked ? cd_clock_view(&g->clock, cd_wall_now()) : json_null());
    json_object_set_new(v, "created_at", json_string(g->created_at));
    json_object_set_new(v, "updated_at", json_string(g->updated_at));
    if (g->finished) {
        json_object_set_new(v, "finished_at", json_string(g->finished_at));
        json_object_set_new(v, "seed", json_string(g->seed));
        unsigned won = carc_winners(g->st);
        json_t *winners = json_array();
        for (int s = 0; s < g->st->nplayers; s++)
            if (won >> s & 1)
                json_array_append_new(winners, json_integer(s));
        json_object_set_new(v, "winners", winners);
    }
    return v;
}

bool cd_game_open(cd_req *r, cd_open_mode mode, cd_db **db, int *viewer, cd_game *g)
{
    memset(g, 0, sizeof *g);
    if (mode == CD_OPEN_ADMIN && !r->is_admin) {
        cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                         "this needs the admin token");
        return false;
    }
    const char *id = r->params[0];
    if (!cd_uuid_valid(id)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        return false;
    }
    r->game_id = id;
    *db = cd_req_db(r);
    if (!*db)
        return false;
    if (!r->is_admin && r->bearer)   /* a seat token: who it is and the game in one statement */
        return cd_game_open_seat(r, *db, id, true, viewer, g);
    if (!cd_viewer_of(r, *db, id, viewer))
        return false;
    cd_load_result lr = cd_game_load(*db, id, *viewer == CARC_VIEW_ADMIN, g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(g);
        cd_reply_load_error(r, lr);
        return false;
    }
    return true;
}

cd_db *cd_req_db(cd_req *r)
{
    char err[256];
    cd_db *db = cd_db_thread(r->cfg, err, sizeof err);
    if (!db) {
        cd_log("warn", "%s %s (route %s): %s", r->method, r->path, r->route ? r->route->name : "none", err);
        cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the database cannot be reached");
    }
    return db;
}

enum MHD_Result cd_reply_db_failure(cd_req *r, bool down, const char *what)
{
    cd_db_error e;
    bool known = cd_db_last_error(&e);
    if (!down && !(known && e.wait_out))   /* a bug, a refused privilege, a constraint: 500, the cause logged */
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "%s%s%s%s%s", what, known ? ": SQLSTATE " : "",
                                known ? (e.sqlstate[0] ? e.sqlstate : "none") : "", known ? ": " : "",
                                known ? e.message : "");
    /* a state the client can wait out: the database read-only (25006), out of disk (53100), restarting or
     * unreachable; the operator sees which */
    cd_log("warn", "%s %s (route %s%s%s): %s: SQLSTATE %s: %s", r->method, r->path, r->route ? r->route->name : "none",
           r->game_id ? ", game " : "", r->game_id ? r->game_id : "", what,
           known && e.sqlstate[0] ? e.sqlstate : "none", known ? e.message : "the database cannot be reached");
    if (known && e.refuses_writes && !down)
        return cd_reply_unavailable(r, CD_RETRY_AFTER_READ_ONLY_S, "the database refuses writes for now (%s)",
                                    strcmp(e.sqlstate, "25006") == 0 ? "it is read-only" : "it is out of resources");
    return cd_reply_unavailable(r, CD_RETRY_AFTER_S, "the database cannot be reached");
}

enum MHD_Result cd_reply_load_error(cd_req *r, cd_load_result lr)
{
    switch (lr) {
    case CD_LOAD_NOT_FOUND: return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    case CD_LOAD_UNAVAILABLE: return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the database cannot be reached");
    default: return cd_reply_db_failure(r, false, "the game could not be loaded");
    }
}
