/*
 * request.c — see request.h.
 */
#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "base/crypto.h"
#include "base/log.h"
#include "base/ids.h"
#include "db/game_reads.h"
#include "db/games_table.h"
#include "db/lobby.h"
#include "game/audit.h"

/* Whether a token's statement found its seat; else answers (503/500; 401 for a token nobody has, 403 for one
 * whose seat of game id was given up or for the game's creator token, cd_refusal_no_seat). */
static bool token_found(cd_req *r, cd_db *db, const char *id, const char *hash, cd_q q, const cd_token_seat *token)
{
    if (q == CD_Q_OK && token->found)
        return true;
    cd_refusal no;
    cd_refusal_clear(&no);
    if (q == CD_Q_OK)
        q = cd_refusal_no_seat(db, id, hash, &no);
    cd_reply_refusal_or_failure(r, &no, q == CD_Q_DOWN, "token lookup failed");
    return false;
}

cd_q cd_refusal_no_seat(cd_db *db, const char *id, const char *token_hash, cd_refusal *f)
{
    cd_token_was was;
    cd_q q = cd_token_was_of(db, token_hash, id, &was);
    if (q != CD_Q_OK)
        return q;
    if (was == CD_TOKEN_UNKNOWN)
        cd_refuse(f, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token belongs to no seat");
    else if (was == CD_TOKEN_CREATOR)   /* a token carcd knows, so 403: it is the wrong one for this */
        cd_refuse(f, CD_P_FORBIDDEN, "Authorization",
                  "this is the game's creator token: it starts, cancels and invites; a seat's requests need the "
                  "token its join answered");
    else if (was == CD_TOKEN_SEAT_REMOVED)
        cd_refuse(f, CD_P_SEAT_REMOVED, "Authorization",
                  "the game's creator removed this token's seat before the game started: it opens nothing of the "
                  "game any more");
    else
        cd_refuse(f, CD_P_SEAT_GIVEN_UP, "Authorization",
                  "this token's seat left the game before it started: it opens nothing of the game any more");
    return CD_Q_OK;
}

bool cd_bearer_is_key(const cd_req *r)
{
    return r->bearer && strncmp(r->bearer, "pk_", 3) == 0;
}

bool cd_req_name(cd_req *r, const json_t *name, const char *field)
{
    char why[160];
    if (json_is_string(name) && cd_name_ok(json_string_value(name), field, why, sizeof why))
        return true;
    if (!json_is_string(name))
        snprintf(why, sizeof why, "%s: expected a string of 1 to %d characters", field, CD_NAME_MAX);
    cd_reply_problem(r, CD_P_INVALID, field, "%s", why);
    return false;
}

/* ?seat=N into *want (-1 when absent): digits only (strtol would read "", " 1" and "+1" as numbers). */
static bool seat_arg(cd_req *r, long *want)
{
    const char *s = cd_req_arg(r, "seat");
    *want = -1;
    if (!s)
        return true;
    if (!*s || strlen(s) > 2 || strspn(s, "0123456789") != strlen(s)) {
        cd_reply_problem(r, CD_P_INVALID, "seat", "seat: expected the number of a seat of the game");
        return false;
    }
    *want = strtol(s, NULL, 10);
    return true;
}

/* A seat token stands for itself; a client that adds ?seat=N expects to act for seat N, so another seat's
 * number is refused, not ignored. One more statement, only when ?seat is given; a token of no seat, or of
 * another game, is left to the caller's own lookup to answer. */
static bool seat_token_named(cd_req *r, cd_db *db, const char *id, const char *hash)
{
    long want;
    if (!seat_arg(r, &want))
        return false;
    if (want < 0)
        return true;
    cd_token_seat token;
    cd_q q = cd_token_lookup(db, hash, id, &token);
    if (q != CD_Q_OK) {
        cd_reply_db_failure(r, q == CD_Q_DOWN, "token lookup failed");
        return false;
    }
    if (!token.found || !token.same_game || token.seat == want)
        return true;
    cd_reply_problem(r, CD_P_FORBIDDEN, "seat",
                     "the bearer token is seat %d's, and ?seat=%ld names another: only a player key or the admin "
                     "token chooses a seat", token.seat, want);
    return false;
}

bool cd_req_seat_hash(cd_req *r, cd_db *db, const char *id, char hash[CD_HEX256_LEN])
{
    if (!cd_bearer_is_key(r)) {
        cd_req_bearer_hash(r, hash);
        return seat_token_named(r, db, id, hash);
    }
    long want;
    if (!seat_arg(r, &want))
        return false;
    char key_hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, key_hash);
    cd_key_seats ks;
    cd_q q = cd_key_seats_get(db, key_hash, id, (int)want, &ks);
    if (q != CD_Q_OK) {
        cd_reply_db_failure(r, q == CD_Q_DOWN, "player key lookup failed");
        return false;
    }
    if (!ks.key_known) {
        cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token belongs to no seat or player");
        return false;
    }
    if (ks.n == 0) {
        bool removed = false;   /* the creator removed the key's seat before the start (sql/030): say so */
        if (want < 0 && (q = cd_key_removed(db, id, key_hash, &removed)) != CD_Q_OK) {
            cd_reply_db_failure(r, q == CD_Q_DOWN, "player key lookup failed");
            return false;
        }
        if (removed)
            cd_reply_problem(r, CD_P_SEAT_REMOVED, "Authorization",
                             "the game's creator removed this player key's seat before the game started");
        else if (want >= 0)
            cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "seat %ld of this game is not linked to the player key",
                             want);
        else
            cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "the player key holds no seat of this game");
        return false;
    }
    if (ks.n > 1) {   /* seats linked with POST .../link: the request must say which it acts for */
        cd_reply_problem(r, CD_P_SEAT_AMBIGUOUS, "seat",
                         "the player key holds %d seats of this game (%d and %d...): name one with ?seat=N", ks.n,
                         ks.seat[0], ks.seat[1]);
        return false;
    }
    memcpy(hash, ks.token_hash[0], CD_HEX256_LEN);
    hash[CD_HEX256_LEN - 1] = '\0';
    return true;
}

/* cd_viewer_of; *bot: a bot plays the token's seat (always false for admin and public), *left_to_bot: its
 * player left it to that bot (bot_after_leave). */
static bool viewer_of(cd_req *r, cd_db *db, const char *id, int *viewer, bool *bot, bool *left_to_bot,
                      char seat_hash[CD_HEX256_LEN])
{
    *bot = *left_to_bot = false;
    if (seat_hash)
        seat_hash[0] = '\0';
    if (r->is_admin) {
        *viewer = CARC_VIEW_ADMIN;
        return true;
    }
    if (!r->bearer) {
        *viewer = CARC_VIEW_PUBLIC;
        return true;
    }
    char hash[CD_HEX256_LEN];
    if (!cd_req_seat_hash(r, db, id, hash))
        return false;
    cd_token_seat token;
    cd_q q = cd_token_lookup(db, hash, id, &token);
    if (!token_found(r, db, id, hash, q, &token))
        return false;
    *viewer = token.seat;
    *bot = token.bot;
    *left_to_bot = token.left_to_bot;
    if (!token.same_game) {
        cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
        return false;
    }
    if (seat_hash)
        memcpy(seat_hash, hash, CD_HEX256_LEN);
    return true;
}

bool cd_viewer_of(cd_req *r, cd_db *db, const char *id, int *viewer)
{
    bool bot, left_to_bot;
    return viewer_of(r, db, id, viewer, &bot, &left_to_bot, NULL);
}

/* A seat a bot plays shows its hidden things (a hand, the moves it may make) to nobody but the admin: carcd, not
 * the token's holder, plays it now. Its token, made for the bot or left to it by its player (bot_after_leave),
 * is shown what a spectator is. */
static int shown_to(int viewer, bool bot)
{
    return bot ? CARC_VIEW_PUBLIC : viewer;
}

bool cd_viewer_shown(cd_req *r, cd_db *db, const char *id, int *viewer, char seat_hash[CD_HEX256_LEN])
{
    bool bot, left_to_bot;
    if (!viewer_of(r, db, id, viewer, &bot, &left_to_bot, seat_hash))
        return false;
    if (bot && seat_hash)
        seat_hash[0] = '\0';
    *viewer = shown_to(*viewer, bot);
    return true;
}

/* cd_game_open_seat; with `waiting` non-NULL a game that has not started is no reply: *waiting says so. *bot: a
 * bot plays the seat. */
static bool open_seat(cd_req *r, cd_db *db, const char *id, bool names, int *seat, bool *bot, cd_game *g,
                      bool *waiting)
{
    char hash[CD_HEX256_LEN];
    if (!cd_req_seat_hash(r, db, id, hash))
        return false;
    cd_token_seat token;
    cd_load_result lr;
    cd_q q = cd_game_load_seat(db, hash, id, names, &token, &lr, g);
    if (!token_found(r, db, id, hash, q, &token))
        return false;
    if (!token.same_game) {
        cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
        return false;
    }
    *seat = token.seat;
    *bot = token.bot;
    if (lr != CD_LOAD_OK) {
        cd_game_free(g);
        if (lr == CD_LOAD_WAITING && waiting)
            *waiting = true;
        else
            cd_reply_load_error(r, lr);
        return false;
    }
    return true;
}

bool cd_game_open_seat(cd_req *r, cd_db *db, const char *id, bool names, int *seat, cd_game *g)
{
    bool bot;
    if (!open_seat(r, db, id, names, seat, &bot, g, NULL))
        return false;
    if (bot) {
        cd_game_free(g);
        cd_reply_problem(r, CD_P_SEAT_LEFT, "Authorization",
                         "a bot plays this seat (its player left it to the bot, or it was made for one): what it may "
                         "do is the bot's to know, and its token reads what a spectator sees");
        return false;
    }
    return true;
}

/* *bot (NULL: not wanted, and a seat a bot plays is then the public, as cd_viewer_shown says): the viewer is a
 * seat a bot plays. */
static bool game_open(cd_req *r, cd_open_mode mode, cd_db **db, int *viewer, bool *bot, cd_game *g, bool *waiting)
{
    memset(g, 0, sizeof *g);
    if (waiting)
        *waiting = false;
    if (bot)
        *bot = false;
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
    if (!r->is_admin && r->bearer) {   /* a seat token: who it is and the game in one statement */
        bool by_bot = false;
        bool ok = open_seat(r, *db, id, true, viewer, &by_bot, g, waiting);
        if (bot)
            *bot = by_bot;
        else
            *viewer = shown_to(*viewer, by_bot);
        return ok;
    }
    if (!cd_viewer_of(r, *db, id, viewer))
        return false;
    cd_load_result lr = cd_game_load(*db, id, *viewer == CARC_VIEW_ADMIN, g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(g);
        if (lr == CD_LOAD_WAITING && waiting)
            *waiting = true;
        else
            cd_reply_load_error(r, lr);
        return false;
    }
    return true;
}

bool cd_game_open(cd_req *r, cd_open_mode mode, cd_db **db, int *viewer, cd_game *g)
{
    return game_open(r, mode, db, viewer, NULL, g, NULL);
}

bool cd_game_open_view(cd_req *r, cd_db **db, int *viewer, bool *bot, cd_game *g, bool *waiting)
{
    return game_open(r, CD_OPEN_ANYONE, db, viewer, bot, g, waiting);
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

bool cd_parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s || !(*s == '-' || isdigit((unsigned char)*s)))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
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

void cd_refusal_clear(cd_refusal *f)
{
    f->problem = CD_NPROBLEMS;
    f->field = NULL;
    f->detail[0] = 0;
}

cd_tx_result cd_refuse(cd_refusal *f, cd_problem p, const char *field, const char *detail)
{
    f->problem = p;
    f->field = field;
    snprintf(f->detail, sizeof f->detail, "%s", detail);
    return CD_TX_ROLLBACK;
}

enum MHD_Result cd_reply_refusal_or_failure(cd_req *r, const cd_refusal *f, bool down, const char *what)
{
    if (f->problem != CD_NPROBLEMS)
        return cd_reply_problem(r, f->problem, f->field, "%s", f->detail);
    return cd_reply_db_failure(r, down, what);
}

enum MHD_Result cd_reply_load_error(cd_req *r, cd_load_result lr)
{
    switch (lr) {
    case CD_LOAD_NOT_FOUND: return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    case CD_LOAD_UNAVAILABLE: return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the database cannot be reached");
    case CD_LOAD_WAITING:
        return cd_reply_problem(r, CD_P_NOT_STARTED, NULL,
                                "the game has not started: it waits for its open seats (or was cancelled); "
                                "it has no board, clock or legal moves yet");
    case CD_LOAD_SEAT_GONE:
        return cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization",
                                "the bearer token no longer opens a seat of this game");
    default: return cd_reply_db_failure(r, false, "the game could not be loaded");
    }
}

static int req_seat(cd_req *r, cd_db **db, bool left_ok)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        return -1;
    }
    r->game_id = id;
    *db = cd_req_db(r);
    int viewer;
    bool bot, left_to_bot;
    if (!*db || !viewer_of(r, *db, id, &viewer, &bot, &left_to_bot, NULL))
        return -1;
    if (bot && !(left_ok && left_to_bot)) {   /* its player left it to a bot (bot_after_leave), or it was created for one: it reads only */
        cd_reply_problem(r, CD_P_SEAT_LEFT, "Authorization",
                         "a bot plays seat %d (its player left it to the bot, or it was made for one): its token and "
                         "player key only read",
                         viewer);
        return -1;
    }
    if (viewer < 0) {
        if (viewer == CARC_VIEW_ADMIN)
            cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "this is done with a seat token");
        else
            cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "this needs a seat token");
        return -1;
    }
    return viewer;
}

int cd_req_seat(cd_req *r, cd_db **db)
{
    return req_seat(r, db, false);
}

int cd_req_seat_or_left(cd_req *r, cd_db **db)
{
    return req_seat(r, db, true);
}

enum MHD_Result cd_reply_seat_moved(cd_req *r)
{
    return cd_reply_problem(r, CD_P_SEAT_MOVED, NULL, "the seat's number kept changing: send it again");
}

int cd_req_seat_param(cd_req *r, int i)
{
    const char *s = r->params[i];
    if (!*s || strlen(s) > 1 || s[0] < '0' || s[0] > '5') {
        cd_reply_problem(r, CD_P_INVALID, "seat", "seat: expected a seat number, 0 to 5");
        return -1;
    }
    return s[0] - '0';
}

bool cd_seat_tx(cd_req *r, cd_db **db, int *seat, const bool *moved, cd_tx_fn fn, void *arg, cd_tx_result *tr,
                bool *down)
{
    for (int tries = 0; tries < CD_SEAT_TRIES; tries++) {
        if ((*seat = cd_req_seat(r, db)) < 0)
            return false;
        *tr = cd_db_tx(*db, fn, arg, down);
        if (*tr != CD_TX_ROLLBACK || !*moved)
            return true;
    }
    cd_reply_seat_moved(r);
    return false;
}

cd_tx_result cd_seat_tx_hold(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *moved)
{
    bool held = false;
    if (cd_seat_hold(db, game_id, seat, bearer_hash, &held) != CD_Q_OK)
        return CD_TX_ERROR;
    *moved = !held;
    return held ? CD_TX_COMMIT : CD_TX_ROLLBACK;
}

bool cd_audit(cd_req *r, cd_db *db, const char *action, const char *game_id, json_t *detail)
{
    bool down = false;
    if (cd_audit_write(r, db, action, game_id, detail, &down))
        return true;
    cd_reply_db_failure(r, down, "the admin action could not be recorded in the audit log");
    return false;
}
