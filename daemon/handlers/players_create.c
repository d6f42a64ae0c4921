/*
 * players_create.c — POST /v1/players {"name": "Ann"}: a person's key. Creating a game with
 * players[].player_key, or POST /v1/games/{id}/link, ties a seat to it, so GET /v1/me/games can answer
 * "where is it my turn" across games. The key is shown once and stored hashed, like seat tokens.
 */
#include <string.h>

#include "game/games.h"
#include "handlers.h"
#include "db/players.h"

enum MHD_Result h_players_create(cd_req *r)
{
    /* keys are what CARCD_CREATE=players asks for: making them counts against the creation rate per address */
    if (!cd_rate_check(r, CD_RATE_CREATE, NULL))
        return MHD_YES;
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"name", NULL};
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    json_t *name = json_object_get(body, "name");
    if (name && !json_is_null(name) && !cd_req_name(r, name, "name"))
        goto out;
    const char *name_s = json_string_value(name);
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    char pkey[CD_TOKEN_LEN + 1], hash[CD_HEX256_LEN];
    cd_token_new(pkey);
    memcpy(pkey, "pk_", 3);   /* a player key, told apart from seat tokens ("cs_") at a glance */
    cd_sha256_hex(pkey, hash);
    char id[37];
    cd_q q = cd_player_insert(db, name_s, hash, id);
    if (q != CD_Q_OK)
        ret = cd_reply_db_failure(r, q == CD_Q_DOWN, "the player could not be stored");
    else
        ret = cd_reply_json(r, 201, json_pack("{s:s, s:o, s:s}", "id", id, "name",
                                              name_s ? json_string(name_s) : json_null(), "key", pkey),
                            NULL);
out:
    json_decref(body);
    return ret;
}
