/*
 * seat_token.c — POST /v1/games/{id}/seats/{seat}/token with the player key the seat is linked to
 * (Authorization: Bearer pk_...): a new token for the seat, shown once; the old one stops working at once,
 * since every request looks its token up in the seats table (the state cache's copy of a seat's token hash,
 * renewed here, only lets a move try one round trip, whose guard checks the token in the database: a carcd
 * that kept the old one sends that move the long way). For a lost token: the key still acts for the seat, and
 * this gives a bot a token of its own again.
 */
#include <stdlib.h>
#include <string.h>

#include "db/lobby.h"
#include "game/state_cache.h"
#include "handlers.h"

enum MHD_Result h_seat_token(cd_req *r)
{
    if (!cd_req_body_empty(r))
        return MHD_YES;
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    int seat = cd_req_seat_param(r, 1);
    if (seat < 0)
        return MHD_YES;
    if (!cd_bearer_is_key(r))
        return cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "a new seat token is given to the player key the seat is linked to (Bearer pk_...)");
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char key_hash[CD_HEX256_LEN], token[CD_TOKEN_LEN + 1], hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, key_hash);
    cd_token_new(token);
    cd_sha256_hex(token, hash);
    bool renewed = false;
    cd_q q = cd_seat_token_renew(db, id, seat, key_hash, hash, &renewed);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the seat's token could not be renewed");
    if (!renewed) {   /* why not: an unknown key (401), or not this seat's (403) */
        cd_key_seats ks;
        q = cd_key_seats_get(db, key_hash, id, seat, &ks);
        if (q != CD_Q_OK)
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "player key lookup failed");
        if (!ks.key_known)
            return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token belongs to no player");
        return cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization",
                                "seat %d of this game is not linked to the player key (or there is no such seat)", seat);
    }
    cd_cache_seat_token(id, seat, hash);
    return cd_reply_json(r, 200, json_pack("{s:s, s:i, s:s}", "game_id", id, "seat", seat, "token", token), NULL);
}
