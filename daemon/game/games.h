/*
 * games.h — what the game endpoints share: the tile catalog, tokens, who is asking, loading and storing a
 * game's state, and rendering a view with the daemon's own fields (id, seq, names, the seed once over).
 */
#ifndef CD_GAMES_H
#define CD_GAMES_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "clock/clock.h"
#include "db/db.h"
#include "http/http.h"
#include "json.h"

#define CD_TOKEN_LEN 46     /* "cs_" + 43 base64url characters (32 random bytes) */
#define CD_HEX256_LEN 65    /* 64 hex digits + NUL */

/* The catalog, loaded once per process (read-only afterwards). Aborts if the built-in data is broken. */
const carc_catalog *cd_catalog(void);

bool cd_uuid_valid(const char *s);
#define CD_NAME_MAX 64
/* A player's name: 1 to CD_NAME_MAX bytes, no control characters. */
bool cd_name_ok(const char *s);
/* 32 random bytes from the kernel; aborts if the kernel cannot give them. */
void cd_random_bytes(uint8_t *buf, size_t n);
void cd_hex(const uint8_t *bytes, size_t n, char *out);   /* out: 2n + 1 */
bool cd_unhex(const char *hex, uint8_t *out, size_t n);   /* exactly 2n hex digits */
void cd_token_new(char token[CD_TOKEN_LEN + 1]);
void cd_sha256_hex(const char *text, char out[CD_HEX256_LEN]);

/* A game row with its decoded state. */
typedef struct {
    char id[37];
    int seq;
    bool finished;
    json_t *setup;        /* owned */
    json_t *snapshot;     /* owned: the stored snapshot (no seed); an empty object when st came from the
                             state cache (only admin loads promise the stored snapshot) */
    char seed_sha256[CD_HEX256_LEN];
    char seed[CD_HEX256_LEN];   /* "" unless the query may read it (admin, locked for a move, finished) */
    char created_at[40], updated_at[40], finished_at[40];
    carc_state *st;       /* owned, decoded from snapshot + seed (seed zero when unknown) */
    json_t *names;        /* owned: ["Ann","Bob"] by seat */
    bool clocked;         /* the game has a turn clock (when the query read it: views, moves) */
    cd_clock clock;
    bool hooks_known;     /* hooks holds the number of the game's enabled webhook endpoints (a move's
                             ST_MOVE_AFTER_LOCK tells); when false, cd_move_write looks them up */
    int hooks;
    char deadline[32];    /* the turn clock's deadline after a move (ISO), for its webhooks; "" for none */
} cd_game;

void cd_game_free(cd_game *g);

typedef enum { CD_LOAD_OK, CD_LOAD_NOT_FOUND, CD_LOAD_DB_ERROR, CD_LOAD_UNAVAILABLE, CD_LOAD_CORRUPT } cd_load_result;

/* A decoded state copied from the state cache before a read, and its seq (-1, st NULL: none held). The read
 * names that seq (the database leaves the snapshot out when the game is still at it) and keeps the copy only
 * then (state_cache.h). */
typedef struct {
    carc_state *st;
    int seq;
    char seq_text[16];   /* the seq as the statement's parameter */
} cd_held;
cd_held cd_held_take(const char *id);
/* Loads a game for viewing (ST_GAME_GET, or ST_GAME_GET_ADMIN with `admin`), its seats' names included, in
 * one statement. */
cd_load_result cd_game_load(cd_db *db, const char *id, bool admin, cd_game *g);
/* Loads and locks a game inside a transaction (ST_GAME_LOCK): the state to apply a move to. */
cd_load_result cd_game_lock(cd_db *db, const char *id, cd_game *g);
/* Fills g (a game `id`) from row 0 of res, a statement that starts with the lock columns (store.c:
 * LOCK_COLUMNS: ST_GAME_LOCK, ST_MOVE_LOCK) and named held's seq; CD_LOAD_NOT_FOUND for no row, or NULL lock
 * columns. res stays the caller's; held's state is g's or freed. */
cd_load_result cd_game_lock_row(cd_game *g, const char *id, const PGresult *res, cd_held *held);

/* The snapshot to store: the engine's, minus the seed (it lives in game_secrets). */
json_t *cd_snapshot_for_store(const carc_state *st);

/* What GET legal-moves answers for `seat` in st at `seq`: {"seq","seat","moves"}, each move postable as is. A
 * move's answer carries the same object when its mover owes the next decision too. */
json_t *cd_legal_moves_json(const carc_state *st, int seq, int seat);

/* Who is asking about game `id`: CARC_VIEW_ADMIN, a seat (>= 0) or CARC_VIEW_PUBLIC. Replies itself and
 * returns false for a token nobody has (401), another game's token (403) or a database failure. */
bool cd_viewer_of(cd_req *r, cd_db *db, const char *id, int *viewer);

/* The view of g for viewer: the engine's view plus id, seq, status, names, created/updated/finished, and
 * the seed once the game is over (with the winners). */
json_t *cd_game_view(const cd_game *g, int viewer);

/* For a request with a seat token (not the admin token): who the token is and game `id` loaded for that
 * seat, in one statement (ST_GAME_GET_SEAT; with `names` false ST_GAME_GET_PLAY, which leaves out the set-up,
 * the times and the names). Replies itself and returns false, g holding nothing to free, for a token nobody
 * has (401), another game's token (403), no such game (404) or a database failure (503/500), in that order
 * of precedence, as cd_viewer_of and then cd_game_load would. */
bool cd_game_open_seat(cd_req *r, cd_db *db, const char *id, bool names, int *seat, cd_game *g);

typedef enum { CD_OPEN_ANYONE, CD_OPEN_ADMIN } cd_open_mode;
/* The start every endpoint on one game shares: a well-formed id (else 404), this thread's database (else
 * 503), who is asking (CD_OPEN_ADMIN: only the admin token, else 401/403; CD_OPEN_ANYONE: admin, a seat of
 * this game or the public, else 401/403), and the game loaded for that viewer (404/503/500). On false the
 * request has been answered and g holds nothing to free. */
bool cd_game_open(cd_req *r, cd_open_mode mode, cd_db **db, int *viewer, cd_game *g);

/* The database connection for this request, or a 503 reply and NULL. */
cd_db *cd_req_db(cd_req *r);
/* Answers for a failed database step: 503 with Retry-After when it is a state a client can wait out (`down`:
 * the database cannot be reached, or the request's last failure says so, cd_db_last_error: read-only, disk
 * full, shutting down), else 500 naming `what` failed. Either way the log line has `what`, the SQLSTATE and
 * the server's message (never the client). */
#define CD_RETRY_AFTER_READ_ONLY_S 30
enum MHD_Result cd_reply_db_failure(cd_req *r, bool down, const char *what);
/* Answers for a failed load (404, 503, 500) and returns the MHD result. */
enum MHD_Result cd_reply_load_error(cd_req *r, cd_load_result lr);

#endif
