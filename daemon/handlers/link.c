/*
 * link.c — POST /v1/games/{id}/link {"player_key": "pk_..."} with a seat token: ties the seat to a player
 * (what "joining with the key" means for a seat created without one). Linking again moves the seat to the
 * key given last.
 */
#include <string.h>

#include "handlers.h"
#include "db/players.h"

typedef struct {
    const char *game_id, *bearer_hash, *key_hash;
    int seat;
    bool moved, found;   /* out: the seat is no longer the bearer's (request.h); the key names a player */
    char player[37];     /* out */
} link_tx;

/* The bearer's seat held (an earlier seat leaving the waiting game would move it), then tied to the key. */
static cd_tx_result run_link(cd_db *db, void *arg)
{
    link_tx *t = arg;
    t->found = false;
    cd_tx_result held = cd_seat_tx_hold(db, t->game_id, t->seat, t->bearer_hash, &t->moved);
    if (held != CD_TX_COMMIT)
        return held;
    if (cd_seat_link(db, t->game_id, t->seat, t->key_hash, &t->found, t->player) != CD_Q_OK)
        return CD_TX_ERROR;
    return t->found ? CD_TX_COMMIT : CD_TX_ROLLBACK;
}

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
    char key_hash[CD_HEX256_LEN], bearer_hash[CD_HEX256_LEN];
    cd_sha256_hex(pkey, key_hash);
    cd_req_bearer_hash(r, bearer_hash);
    link_tx t = {.game_id = r->params[0], .bearer_hash = bearer_hash, .key_hash = key_hash};
    cd_db *db;
    cd_tx_result tr;
    bool down = false;
    if (!cd_seat_tx(r, &db, &t.seat, &t.moved, run_link, &t, &tr, &down))
        goto out;
    if (tr == CD_TX_ERROR)
        ret = cd_reply_db_failure(r, down, "the seat could not be linked");
    else if (!t.found)
        ret = cd_reply_problem(r, CD_P_INVALID, "player_key", "player_key: no player has this key");
    else
        ret = cd_reply_json(r, 200, json_pack("{s:i, s:s}", "seat", t.seat, "player_id", t.player), NULL);
out:
    json_decref(body);
    return ret;
}
