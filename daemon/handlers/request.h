/*
 * request.h — how an endpoint begins and how it answers a failure below it: this thread's database, who is
 * asking (the admin, a seat of the game, or the public) and the game loaded for them, and the problem
 * answers for a database or load failure. Every function here that fails has replied already.
 */
#ifndef CD_REQUEST_H
#define CD_REQUEST_H

#include <jansson.h>
#include <stdbool.h>

#include "base/crypto.h"
#include "db/db.h"
#include "game/games.h"
#include "http/http.h"

/* A query parameter's or header's decimal integer within [lo, hi]: an optional '-' and digits, nothing else
 * (no space, no '+', no hex). */
bool cd_parse_long(const char *s, long lo, long hi, long *out);

/* Whether name (a JSON value, maybe NULL) is a player's name (base/ids.h cd_name_ok); otherwise a 400 that
 * names field and says what is wrong with it. */
bool cd_req_name(cd_req *r, const json_t *name, const char *field);

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

/* A refusal decided inside a transaction (a game's state read under its lock says no): kept in the
 * transaction's argument, answered once the transaction rolled back. problem CD_NPROBLEMS: none. */
typedef struct {
    cd_problem problem;
    const char *field;   /* the problem's field (a static string); NULL: none */
    char detail[300];
} cd_refusal;
/* None yet: at the start of every run of the transaction (cd_db_tx may run it again). */
void cd_refusal_clear(cd_refusal *f);
/* Sets the refusal and returns CD_TX_ROLLBACK, the transaction's result. */
cd_tx_result cd_refuse(cd_refusal *f, cd_problem p, const char *field, const char *detail);
/* After cd_db_tx: the refusal's problem answer when there was one, else cd_reply_db_failure(r, down, what). */
enum MHD_Result cd_reply_refusal_or_failure(cd_req *r, const cd_refusal *f, bool down, const char *what);
/* The refusal for a seat token (token_hash) that holds no seat: 403 seat-removed or seat-given-up when it held a
 * seat of game id that was given up before the start (sql/032), so that the link a person still holds says what
 * became of it; 403 forbidden for the game's creator token, a token carcd knows but no seat's; else 401. The
 * lookup's outcome: f is set only when CD_Q_OK. */
cd_q cd_refusal_no_seat(cd_db *db, const char *id, const char *token_hash, cd_refusal *f);

/* Whether the bearer is a player key (pk_..., POST /v1/players) rather than a seat or admin token. */
bool cd_bearer_is_key(const cd_req *r);
/* The one place that says which seat a bearer (not the admin's) acts for in game `id`: hash gets the SHA-256
 * hex of that seat's token, which every seat check then looks up. A seat token stands for itself; a player
 * key for the seat of `id` linked to it, or, when it holds several (linked with POST .../link), for the one
 * ?seat=N names. Replies and returns false for an unknown key (401), a key with no seat of this game or not
 * that seat (403), a seat token with another seat's ?seat=N (403), several seats and no ?seat (409
 * seat-ambiguous), a bad ?seat (400), a database failure. */
bool cd_req_seat_hash(cd_req *r, cd_db *db, const char *id, char hash[CD_HEX256_LEN]);

/* Who is asking about game `id`: CARC_VIEW_ADMIN, a seat (>= 0) or CARC_VIEW_PUBLIC. Replies itself and
 * returns false for a token nobody has (401), another game's token (403) or a database failure. */
bool cd_viewer_of(cd_req *r, cd_db *db, const char *id, int *viewer);
/* cd_viewer_of for what is shown to the viewer (the game, its log, its pictures): a seat a bot plays, made for
 * it or left to it by its player, shows its hidden things to nobody, so its token sees what the public sees.
 * For a seat (a seat token, or a player key's seat) seat_hash (NULL: not wanted) gets its token's SHA-256 hex
 * ("" for the admin, the public and a bot's seat): what a wait that outlives the request asks about again
 * (feed.h). */
bool cd_viewer_shown(cd_req *r, cd_db *db, const char *id, int *viewer, char seat_hash[CD_HEX256_LEN]);

/* For a request with a seat token (not the admin token): who the token is and game `id` loaded for that
 * seat, in one statement (cd_game_load_seat; with `names` false only what legal-moves needs). Replies
 * itself and returns false, g holding nothing to free, for a token nobody has (401), another game's token
 * (403), no such game (404) or a database failure (503/500), in that order of precedence, as cd_viewer_of
 * and then cd_game_load would; and for a seat a bot plays (403 seat-left: cd_viewer_shown). */
bool cd_game_open_seat(cd_req *r, cd_db *db, const char *id, bool names, int *seat, cd_game *g);

typedef enum { CD_OPEN_ANYONE, CD_OPEN_ADMIN } cd_open_mode;
/* The start every endpoint on one game shares: a well-formed id (else 404), this thread's database (else
 * 503), who is asking (CD_OPEN_ADMIN: only the admin token, else 401/403; CD_OPEN_ANYONE: admin, a seat of
 * this game or the public, else 401/403; a seat a bot plays is the public, as cd_viewer_shown says), and the
 * game loaded for that viewer (404/503/500). On false the request has been answered and g holds nothing to
 * free. */
bool cd_game_open(cd_req *r, cd_open_mode mode, cd_db **db, int *viewer, cd_game *g);
/* cd_game_open(CD_OPEN_ANYONE) for a view: a game that has not started (waiting, cancelled) is no reply but
 * false with *waiting true (and *db, *viewer set), for the caller to answer its lobby view. A seat a bot plays
 * is its seat in *viewer with *bot true: the caller shows it the public's view (cd_game_view_bot_seat). */
bool cd_game_open_view(cd_req *r, cd_db **db, int *viewer, bool *bot, cd_game *g, bool *waiting);

/* The {seat} of a route's path, r->params[i]: a seat number, 0 to 5. -1 after replying 400 when it is not one. */
int cd_req_seat_param(cd_req *r, int i);

/* The seat of game r->params[0] the bearer token holds, with this thread's database in *db. Replies (404 bad
 * id, 401/403 token, 503) and returns -1 when there is none, or 409 seat-left when a bot plays the seat (its
 * player left it under bot_after_leave, or it was made for a bot): such a token reads, it does not act. */
int cd_req_seat(cd_req *r, cd_db **db);
/* A write by the bearer's seat number checks, in its transaction, that the number is still the bearer's seat
 * (db/games_table.h's cd_seat_hold: an earlier seat may have left the waiting game since cd_req_seat looked); when
 * it is not, the handler looks the seat up again, at most this many times in all, and then answers 409
 * seat-moved. */
#define CD_SEAT_TRIES 3
/* 409 seat-moved: the bearer's seat number changed under a write CD_SEAT_TRIES times. */
enum MHD_Result cd_reply_seat_moved(cd_req *r);
/* Runs fn in a transaction (cd_db_tx) as the bearer's seat of game r->params[0]: *seat is looked up (cd_req_seat)
 * before each run; fn holds it (cd_seat_hold, after whatever it locks first) and sets *moved when it is no longer
 * the bearer's, and then runs again with the seat looked up anew, CD_SEAT_TRIES times in all. False when it has
 * replied (the lookup refused, or 409 seat-moved); else *db, *tr and *down are the last run's. */
bool cd_seat_tx(cd_req *r, cd_db **db, int *seat, const bool *moved, cd_tx_fn fn, void *arg, cd_tx_result *tr,
                bool *down);
/* In cd_seat_tx's fn: seat held as the bearer's (cd_seat_hold with bearer_hash, its token or player key hashed).
 * CD_TX_COMMIT: held, go on; CD_TX_ROLLBACK with *moved: it is no longer the bearer's; CD_TX_ERROR. */
cd_tx_result cd_seat_tx_hold(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *moved);
/* cd_req_seat, but a seat its player left to a bot (bot_after_leave) is still that player's: the rematch's
 * offer and acceptance, which give the player a seat of a new game. */
int cd_req_seat_or_left(cd_req *r, cd_db **db);

/* cd_audit_write for request r; when the row cannot be written it replies (503 when the database is
 * unreachable, else 500) and returns false, so nothing is shown unrecorded. */
bool cd_audit(cd_req *r, cd_db *db, const char *action, const char *game_id, json_t *detail);

#endif
