/*
 * join.c — POST /v1/games/{id}/join {"invite": "iv_...", "name": "Cy", "player_key": "pk_..."}: takes an open
 * seat of a waiting game and answers its token (shown once, stored hashed). With an invite code (in the body,
 * or ?invite= of the join URL the creation answered) any open seat of the game; without one, a seat of a
 * public game (GET /v1/lobby), which needs a player key (the body's player_key, or the bearer pk_...): first
 * come, first served. The seat is numbered in the order seats are taken (lobby.h); the join that takes the
 * last open seat starts the game. A place whose invitation carcd mailed (sql/019) gives the seat joined with
 * its code that address: the game's mail goes there from its start, and the answer says so ("email"). A join
 * from the lobby takes such a place only when no other is open, and never its address.
 *
 * Joins of one game are serialised by the lock on its row, taken first; what they read after it (the seats,
 * the places) is what the previous holder committed. Of two joins racing for the last seat one takes it and
 * starts the game, the other finds it started: 409 /problems/no-open-seat, nothing changed.
 */
#include <stdio.h>
#include <string.h>

#include "game/lobby_join.h"
#include "handlers.h"
#include "handlers/lobby.h"

/* A refusal of the join core (game/lobby_join.h) as a problem: its type and the field it names. */
static void refusal_of(const cd_join *j, cd_refusal *no)
{
    static const struct {
        cd_join_refusal why;
        cd_problem problem;
        const char *field;
    } map[] = {
        {CD_JOIN_NO_GAME, CD_P_NOT_FOUND, NULL},           {CD_JOIN_NOT_WAITING, CD_P_NO_OPEN_SEAT, NULL},
        {CD_JOIN_UNKNOWN_KEY, CD_P_INVALID, "player_key"}, {CD_JOIN_ALREADY_SEATED, CD_P_ALREADY_SEATED, "player_key"},
        {CD_JOIN_BAD_CODE, CD_P_FORBIDDEN, "invite"},      {CD_JOIN_PLACE_TAKEN, CD_P_NO_OPEN_SEAT, "invite"},
        {CD_JOIN_NOT_PUBLIC, CD_P_FORBIDDEN, "invite"},    {CD_JOIN_NEEDS_KEY, CD_P_UNAUTHENTICATED, "player_key"},
        {CD_JOIN_FULL, CD_P_NO_OPEN_SEAT, NULL},           {CD_JOIN_SETUP_REFUSED, CD_P_INTERNAL, NULL},
        {CD_JOIN_REMOVED, CD_P_FORBIDDEN, "player_key"},
    };
    cd_refusal_clear(no);
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].why == j->why)
            cd_refuse(no, map[i].problem, map[i].field, j->detail);
}

typedef struct {
    cd_join j;
    cd_refusal no;   /* out */
} join_tx;

static cd_tx_result run_join(cd_db *db, void *arg)
{
    join_tx *t = arg;
    cd_tx_result out = cd_lobby_join(db, &t->j);
    refusal_of(&t->j, &t->no);
    return out;
}

static enum MHD_Result join(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"invite", "name", "player_key", NULL};
    join_tx t = {.j = {.id = r->params[0], .place = -1}};
    char code_hash[CD_HEX256_LEN], key_hash[CD_HEX256_LEN], token_hash[CD_HEX256_LEN];
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    if (!cd_uuid_valid(t.j.id)) {
        ret = cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        goto out;
    }
    r->game_id = t.j.id;
    json_t *name = json_object_get(body, "name"), *code = json_object_get(body, "invite");
    json_t *key = json_object_get(body, "player_key");
    if (!cd_req_name(r, name, "name"))
        goto out;
    if ((code && !json_is_string(code)) || (key && !json_is_string(key))) {
        ret = cd_reply_problem(r, CD_P_INVALID, code && !json_is_string(code) ? "invite" : "player_key",
                               "%s: expected a string", code && !json_is_string(code) ? "invite" : "player_key");
        goto out;
    }
    t.j.name = json_string_value(name);
    const char *code_s = code ? json_string_value(code) : cd_req_arg(r, "invite");
    if (code_s) {
        cd_sha256_hex(code_s, code_hash);
        t.j.code_hash = code_hash;
    }
    const char *key_s = key ? json_string_value(key) : cd_bearer_is_key(r) ? r->bearer : NULL;
    if (key_s) {
        cd_sha256_hex(key_s, key_hash);
        t.j.key_hash = key_hash;
    }
    if (!cd_rate_check(r, CD_RATE_JOIN, key_s))   /* per address and per player key (http/limits.h) */
        goto out;
    char token[CD_TOKEN_LEN + 1];
    cd_token_new(token);
    cd_sha256_hex(token, token_hash);
    t.j.token_hash = token_hash;
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_join, &t, &down);
    if (tr == CD_TX_COMMIT) {
        json_t *a = json_pack("{s:s, s:i, s:s, s:s}", "game_id", t.j.id, "seat", t.j.seat, "token", token,
                              "status", t.j.started ? "active" : "waiting");
        if (t.j.email[0])   /* to the holder of the code that was mailed there: where the seat's mail will go */
            json_object_set_new(a, "email", json_string(t.j.email));
        ret = cd_reply_json(r, 201, a, NULL);
    }
    else
        ret = cd_reply_refusal_or_failure(r, &t.no, down, "the join could not be stored");
out:
    json_decref(body);
    return ret;
}

enum MHD_Result h_game_join(cd_req *r)
{
    return cd_in_json_arena(r, join);
}
