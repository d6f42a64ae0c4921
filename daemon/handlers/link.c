/*
 * link.c — POST /v1/games/{id}/link {"player_key": "pk_..."} with a seat token: ties the seat to a player
 * (what "joining with the key" means for a seat created without one). Linking again moves the seat to the
 * key given last.
 */
#include <string.h>

#include "handlers.h"
#include "db/players.h"

enum MHD_Result h_game_link(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"player_key", NULL};
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    const char *pkey = json_string_value(json_object_get(body, "player_key"));
    if (!pkey) {
        ret = cd_reply_problem(r, CD_P_INVALID, "player_key", "player_key: expected a player key (POST /v1/players)");
        goto out;
    }
    cd_db *db;
    int seat = cd_req_seat(r, &db);
    if (seat < 0)
        goto out;
    char hash[CD_HEX256_LEN], player[37];
    cd_sha256_hex(pkey, hash);
    bool found = false;
    cd_q q = cd_seat_link(db, r->params[0], seat, hash, &found, player);
    if (q != CD_Q_OK)
        ret = cd_reply_db_failure(r, q == CD_Q_DOWN, "the seat could not be linked");
    else if (!found)
        ret = cd_reply_problem(r, CD_P_INVALID, "player_key", "player_key: no player has this key");
    else
        ret = cd_reply_json(r, 200, json_pack("{s:i, s:s}", "seat", seat, "player_id", player), NULL);
out:
    json_decref(body);
    return ret;
}
