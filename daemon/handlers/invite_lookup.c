/*
 * invite_lookup.c — POST /v1/games/{id}/invites/lookup {"invite": "iv_..."}: what became of one invitation,
 * for whoever holds its code: its place, the seat it became (null while open), and whether a join from the
 * lobby took that seat instead of the invitee. The invitation page asks it before it shows its join form, so
 * that a link opened a second time (by its invitee, who joined already, or by someone it was forwarded to)
 * says who took the seat instead of a form that can only be refused.
 *
 * The code is a secret that opens a seat: it goes in the body, as in a join, never in the request line (access
 * logs). A code that is not the game's is 403, as a join with it is; lookups count against the joins' rate
 * limit, so that codes cannot be guessed faster than joins could try them. Nothing is written.
 */
#include <string.h>

#include "base/crypto.h"
#include "db/lobby.h"
#include "game/lobby_join.h"
#include "handlers.h"

static enum MHD_Result lookup(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"invite", NULL};
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    const char *id = r->params[0];
    if (!cd_uuid_valid(id)) {
        ret = cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        goto out;
    }
    r->game_id = id;
    const char *code = json_string_value(json_object_get(body, "invite"));
    if (!code || !*code) {
        ret = cd_reply_problem(r, CD_P_INVALID, "invite", "invite: expected the invitation's code, a string");
        goto out;
    }
    if (!cd_rate_check(r, CD_RATE_JOIN, NULL))   /* a code tried here is a join's guess (http/limits.h) */
        goto out;
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int ninv = 0;
    cd_q q = cd_invites_get(db, id, inv, &ninv);
    if (q != CD_Q_OK) {
        ret = cd_reply_db_failure(r, q == CD_Q_DOWN, "the game's invitations could not be read");
        goto out;
    }
    char code_hash[CD_HEX256_LEN];
    cd_sha256_hex(code, code_hash);
    int i = cd_lobby_place_of_code(inv, ninv, code_hash);   /* in constant time, as a join compares it */
    if (i < 0) {
        /* the same answer for a game that does not exist: a code names its game, and opens nothing else */
        ret = cd_reply_problem(r, CD_P_FORBIDDEN, "invite",
                               "invite: not an invite code of this game (its creator may have replaced it with a new "
                               "one)");
        goto out;
    }
    json_t *a = json_pack("{s:s, s:i, s:o}", "game_id", id, "place", inv[i].place, "seat",
                          inv[i].seat >= 0 ? json_integer(inv[i].seat) : json_null());
    /* by_code 0: a join from the lobby took the place (a public game's last open seats); -1: not known */
    json_object_set_new(a, "from_lobby", json_boolean(inv[i].seat >= 0 && inv[i].by_code == 0));
    static const char *const headers[] = {"Cache-Control", "private, no-store", NULL};
    ret = cd_reply_json(r, 200, a, headers);
out:
    json_decref(body);
    return ret;
}

enum MHD_Result h_invite_lookup(cd_req *r)
{
    return cd_in_json_arena(r, lookup);
}
