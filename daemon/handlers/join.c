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

#include "db/games_table.h"
#include "db/lobby.h"
#include "handlers.h"
#include "handlers/lobby.h"

typedef struct {
    const char *id, *name;
    bool has_code, has_key;
    char code_hash[CD_HEX256_LEN], key_hash[CD_HEX256_LEN], token_hash[CD_HEX256_LEN];
    /* out */
    cd_refusal no;
    int seat;
    bool started;
    char email[CD_EMAIL_MAX + 1];   /* the address carcd mailed the place's invitation to: the seat's from the start */
} join_tx;

static cd_tx_result run_join(cd_db *db, void *arg)
{
    join_tx *t = arg;
    cd_refusal_clear(&t->no);
    t->started = false;
    t->email[0] = 0;
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out;
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    int ninv = 0, nseats = 0;
    cd_key_seats ks = {0};
    if (!w.found) {
        out = cd_refuse(&t->no, CD_P_NOT_FOUND, NULL, "no game with that id");
        goto done;
    }
    if (strcmp(w.status, "waiting") != 0) {
        char d[120];
        snprintf(d, sizeof d, "the game has no open seat: it is %s", strcmp(w.status, "cancelled") == 0 ? "cancelled"
                 : strcmp(w.status, "active") == 0 ? "under way (every seat was taken, or it was started)" : w.status);
        out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, NULL, d);
        goto done;
    }
    /* read after the lock: what earlier joins committed */
    if (cd_invites_get(db, t->id, inv, &ninv) != CD_Q_OK || cd_waiting_seats(db, t->id, seats, &nseats) != CD_Q_OK ||
        (t->has_key && cd_key_seats_get(db, t->key_hash, t->id, -1, &ks) != CD_Q_OK)) {
        out = CD_TX_ERROR;
        goto done;
    }
    if (t->has_key && !ks.key_known) {
        out = cd_refuse(&t->no, CD_P_INVALID, "player_key", "player_key: no player has this key");
        goto done;
    }
    if (t->has_key && ks.n > 0) {
        out = cd_refuse(&t->no, CD_P_ALREADY_SEATED, "player_key",
                        "this player key already holds a seat of this game");
        goto done;
    }
    int place = -1;
    if (t->has_code) {
        place = cd_lobby_place_of_code(inv, ninv, t->code_hash);
        if (place < 0) {
            out = cd_refuse(&t->no, CD_P_FORBIDDEN, "invite", "invite: not an invite code of this game");
            goto done;
        }
        if (inv[place].seat >= 0) {
            out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, "invite",
                            "invite: this invitation's seat is taken already");
            goto done;
        }
    } else {
        if (!w.public_) {
            out = cd_refuse(&t->no, CD_P_FORBIDDEN, "invite",
                            "invite: the game is not in the lobby; joining it needs an invite code");
            goto done;
        }
        if (!t->has_key) {
            out = cd_refuse(&t->no, CD_P_UNAUTHENTICATED, "player_key",
                            "joining from the lobby needs a player key (player_key, or Authorization: Bearer pk_...)");
            goto done;
        }
        /* the first open place that a code could open, one whose invitation carcd did not mail first: that
         * one waits for its invitee while another is open */
        for (int pass = 0; pass < 2 && place < 0; pass++)
            for (int i = 0; i < ninv && place < 0; i++)
                if (inv[i].seat < 0 && inv[i].old_seat < 0 && (pass == 1 || !inv[i].email[0]))
                    place = i;
        if (place < 0) {
            out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, NULL, "the game has no open seat left");
            goto done;
        }
    }
    int open = 0;
    for (int i = 0; i < ninv; i++)
        open += inv[i].seat < 0;
    t->seat = nseats;
    bool key_known = true;
    /* a lobby join into a mailed place: the address is the invitee's, not this seat's (the start mails the
     * places' addresses, lobby.h) */
    bool drop_email = !t->has_code && inv[place].email[0];
    if (cd_seat_insert(db, t->id, t->seat, t->name, t->token_hash, t->has_key ? t->key_hash : NULL, &key_known) !=
            CD_Q_OK ||
        cd_invite_take(db, t->id, inv[place].place, t->seat) != CD_Q_OK ||
        (drop_email && cd_invite_email_set(db, t->id, inv[place].place, NULL) != CD_Q_OK)) {
        out = CD_TX_ERROR;
        goto done;
    }
    if (t->has_code)   /* the address goes with the code that was mailed there, never to a lobby join */
        memcpy(t->email, inv[place].email, sizeof t->email);
    out = CD_TX_COMMIT;
    if (open == 1) {   /* the last open seat: the game starts */
        out = cd_lobby_start(db, t->id, &w, t->no.detail, sizeof t->no.detail);
        if (out == CD_TX_ROLLBACK)   /* the engine refused the set-up carcd stored: a bug, said as one */
            t->no.problem = CD_P_INTERNAL;
        t->started = out == CD_TX_COMMIT;
    }
done:
    cd_waiting_lock_row_free(&w);
    return out;
}

static enum MHD_Result join(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"invite", "name", "player_key", NULL};
    join_tx t = {.id = r->params[0]};
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    if (!cd_uuid_valid(t.id)) {
        ret = cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        goto out;
    }
    r->game_id = t.id;
    json_t *name = json_object_get(body, "name"), *code = json_object_get(body, "invite");
    json_t *key = json_object_get(body, "player_key");
    if (!json_is_string(name) || !cd_name_ok(json_string_value(name))) {
        ret = cd_reply_problem(r, CD_P_INVALID, "name", "name: expected 1 to %d printable characters", CD_NAME_MAX);
        goto out;
    }
    if ((code && !json_is_string(code)) || (key && !json_is_string(key))) {
        ret = cd_reply_problem(r, CD_P_INVALID, code && !json_is_string(code) ? "invite" : "player_key",
                               "%s: expected a string", code && !json_is_string(code) ? "invite" : "player_key");
        goto out;
    }
    t.name = json_string_value(name);
    const char *code_s = code ? json_string_value(code) : cd_req_arg(r, "invite");
    if (code_s) {
        t.has_code = true;
        cd_sha256_hex(code_s, t.code_hash);
    }
    const char *key_s = key ? json_string_value(key) : cd_bearer_is_key(r) ? r->bearer : NULL;
    if (key_s) {
        t.has_key = true;
        cd_sha256_hex(key_s, t.key_hash);
    }
    if (!cd_rate_check(r, CD_RATE_JOIN, key_s))   /* per address and per player key (http/limits.h) */
        goto out;
    char token[CD_TOKEN_LEN + 1];
    cd_token_new(token);
    cd_sha256_hex(token, t.token_hash);
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_join, &t, &down);
    if (tr == CD_TX_COMMIT) {
        json_t *a = json_pack("{s:s, s:i, s:s, s:s}", "game_id", t.id, "seat", t.seat, "token", token, "status",
                              t.started ? "active" : "waiting");
        if (t.email[0])   /* to the holder of the code that was mailed there: where the seat's mail will go */
            json_object_set_new(a, "email", json_string(t.email));
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
