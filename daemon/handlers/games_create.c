/*
 * games_create.c — POST /v1/games: validates the request, starts the game in the engine (shuffling with a
 * fresh seed, or the admin's seed and script), and stores game, secret, seats and the opening events in
 * one transaction. Seat tokens are shown once here and stored only as hashes.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/clock.h"
#include "base/json_out.h"
#include "game/games.h"
#include "handlers.h"
#include "handlers/webhooks.h"
#include "mail/seat_mail.h"
#include "webhooks/outbox.h"
#include "db/games_table.h"
#include "db/moves.h"
#include "db/players.h"
#include "db/player_events.h"
#include "http/limits.h"
#include "base/timesrc.h"

typedef struct {
    const carc_state *st;
    json_t *setup, *snapshot, *events;
    const char *seed_hex, *seed_sha;
    int nplayers;
    const char *names[CARC_MAX_PLAYERS];
    char token_hash[CARC_MAX_PLAYERS][CD_HEX256_LEN];
    char key_hash[CARC_MAX_PLAYERS][CD_HEX256_LEN];   /* players[].player_key hashed; "" when none */
    bool clocked;
    cd_clock clock;   /* "clock": started once the game is */
    char deadline_iso[32];
    int bad_key;      /* out: the seat whose player_key names nobody, -1 */
    char id[37];   /* out */
    cd_req *req;   /* an admin's creation is written to the audit log in the same transaction */
    bool seeded;
    cd_player_hooks hooks;   /* players[].webhook (webhooks.h) */
    const char *emails[CARC_MAX_PLAYERS];   /* players[].email; NULL when none (mail/seat_mail.h) */
    char (*tokens)[CD_TOKEN_LEN + 1];       /* the seats' tokens, for the invitations' private links */
} create_tx;

/* Replies 400 naming the field of an engine/codec message "<field>: <what>"; `prefix` is prepended. */
static enum MHD_Result reply_field_error(cd_req *r, const char *prefix, const char *msg)
{
    char field[128] = "";
    const char *colon = strstr(msg, ": ");
    if (colon && (size_t)(colon - msg) < sizeof field - strlen(prefix) - 1)
        snprintf(field, sizeof field, "%s%.*s", prefix, (int)(colon - msg), msg);
    return cd_reply_problem(r, CD_P_INVALID, field[0] ? field : NULL, "%s%s", prefix, msg);
}

static bool parse_players(cd_req *r, json_t *players, create_tx *t)
{
    if (!json_is_array(players) || json_array_size(players) < CARC_MIN_PLAYERS ||
        json_array_size(players) > CARC_MAX_PLAYERS) {
        cd_reply_problem(r, CD_P_INVALID, "players", "players: expected an array of 2 to 6 players");
        return false;
    }
    static const char *const keys[] = {"name", "webhook", "player_key", "email", NULL};
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) {
        char where[32];
        snprintf(where, sizeof where, "players[%zu].", i);
        if (!json_is_object(p)) {
            cd_reply_problem(r, CD_P_INVALID, "players", "players[%zu]: expected an object", i);
            return false;
        }
        if (!cd_req_only_keys(r, p, keys, where))
            return false;
        json_t *name = json_object_get(p, "name");
        if (!json_is_string(name) || !cd_name_ok(json_string_value(name))) {
            cd_reply_problem(r, CD_P_INVALID, "players", "players[%zu].name: expected 1 to %d printable characters",
                             i, CD_NAME_MAX);
            return false;
        }
        t->names[i] = json_string_value(name);
        json_t *key = json_object_get(p, "player_key");
        if (key && !json_is_string(key)) {
            char field[64];
            snprintf(field, sizeof field, "players[%zu].player_key", i);
            cd_reply_problem(r, CD_P_INVALID, field, "%s: expected a player key (POST /v1/players)", field);
            return false;
        }
        if (key)
            cd_sha256_hex(json_string_value(key), t->key_hash[i]);
        json_t *email = json_object_get(p, "email");
        if (email && !json_is_null(email) && (!json_is_string(email) || !cd_mail_address_ok(json_string_value(email)))) {
            char field[64];
            snprintf(field, sizeof field, "players[%zu].email", i);
            cd_reply_problem(r, CD_P_INVALID, field, "%s: expected a mail address like ann@example.org", field);
            return false;
        }
        t->emails[i] = json_is_string(email) ? json_string_value(email) : NULL;
    }
    t->nplayers = (int)json_array_size(players);
    return true;
}

/* script: {"stack": ["D", "U", ...], "sheep": [2, "wolf", ...], "fruit": {"apple": [5, 2, 4, 3]}, "hands":
 * [["HW01", "HW08"], ...]} (admins only), decoded by the engine (carc_script_from_json) as replay decodes
 * the stored copy. */
static bool parse_script(cd_req *r, json_t *script, carc_setup *s)
{
    static const char *const keys[] = {"stack", "sheep", "hands", "fruit", NULL};
    if (!json_is_object(script)) {
        cd_reply_problem(r, CD_P_INVALID, "script", "script: expected an object");
        return false;
    }
    if (!cd_req_only_keys(r, script, keys, "script."))
        return false;
    char err[256];
    if (carc_script_from_json(cd_catalog(), script, s, err, sizeof err) != 0) {
        if (strncmp(err, "script.stack", 12) == 0)   /* the stack's problems name the field script.stack */
            cd_reply_problem(r, CD_P_INVALID, "script.stack", "%s", err);
        else
            reply_field_error(r, "", err);
        return false;
    }
    return true;
}

/* The request into a carc_setup; replies itself and returns false on any error. */
static bool parse_request(cd_req *r, json_t *body, carc_setup *s, create_tx *t)
{
    static const char *const keys[] = {"players", "expansions", "options", "seed", "script", "clock", NULL};
    char err[256];
    if (!cd_req_only_keys(r, body, keys, ""))
        return false;
    carc_setup_defaults(s);
    if (!parse_players(r, json_object_get(body, "players"), t))
        return false;
    cd_wh_error hook_err;
    if (!cd_player_hooks_parse(json_object_get(body, "players"), &t->hooks, &hook_err)) {
        cd_reply_wh_error(r, &hook_err);
        return false;
    }
    s->nplayers = t->nplayers;
    json_t *clock = json_object_get(body, "clock");
    if (clock && !json_is_null(clock)) {
        char field[64], detail[200];
        if (!cd_clock_from_request(clock, &t->clock, field, sizeof field, detail, sizeof detail)) {
            cd_reply_problem(r, CD_P_INVALID, field, "%s", detail);
            return false;
        }
        t->clocked = true;
    }
    json_t *exp = json_object_get(body, "expansions");
    if (exp && carc_expansions_from_json(&s->expansions, exp, err, sizeof err) != 0) {
        reply_field_error(r, "", err);
        return false;
    }
    json_t *opt = json_object_get(body, "options");
    if (opt && carc_options_from_json(s->opt, opt, true, err, sizeof err) != 0) {
        reply_field_error(r, "", err);
        return false;
    }
    json_t *seed = json_object_get(body, "seed"), *script = json_object_get(body, "script");
    if ((seed || script) && !r->is_admin) {
        cd_reply_problem(r, CD_P_FORBIDDEN, seed ? "seed" : "script", "only an admin may choose the seed or script");
        return false;
    }
    if (seed) {
        if (!json_is_string(seed) || !cd_unhex(json_string_value(seed), s->seed, sizeof s->seed)) {
            cd_reply_problem(r, CD_P_INVALID, "seed", "seed: expected 64 hex digits");
            return false;
        }
    } else {
        cd_random_bytes(s->seed, sizeof s->seed);
    }
    return !script || parse_script(r, script, s);
}

static json_t *setup_json(const carc_setup *s, json_t *script)
{
    json_t *o = json_object();
    json_object_set_new(o, "nplayers", json_integer(s->nplayers));
    json_object_set_new(o, "expansions", carc_expansions_to_json(s->expansions));
    json_object_set_new(o, "options", carc_options_to_json(s->opt));
    if (script)
        json_object_set(o, "script", script);
    return o;
}

static cd_tx_result run_create(cd_db *db, void *arg)
{
    create_tx *t = arg;
    char *setup = cd_json_dumps(t->setup, JSON_COMPACT), *snap = cd_json_dumps(t->snapshot, JSON_COMPACT);
    char *events = cd_json_dumps(t->events, JSON_COMPACT);
    char *clock = NULL;
    if (t->clocked) {
        json_t *cj = cd_clock_to_json(&t->clock);
        clock = cd_json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
    }
    const cd_game_insert_row row = {.setup = setup, .snapshot = snap, .seed_sha256 = t->seed_sha,
                                    .finished = t->st->status == CARC_FINISHED, .pending_seat = t->st->pending.seat,
                                    .clock = clock, .deadline = clock ? cd_clock_deadline(&t->clock) : -1,
                                    .due = clock ? cd_clock_due(&t->clock) : -1};
    cd_tx_result out = CD_TX_ERROR;
    if (cd_game_insert(db, &row, t->id) != CD_Q_OK || cd_game_secret_insert(db, t->id, t->seed_hex) != CD_Q_OK)
        goto done;
    for (int i = 0; i < t->nplayers; i++) {
        bool key_known = true;
        if (cd_seat_insert(db, t->id, i, t->names[i], t->token_hash[i], t->key_hash[i][0] ? t->key_hash[i] : NULL,
                           &key_known) != CD_Q_OK)
            goto done;
        if (!key_known) {   /* a player key that names nobody */
            t->bad_key = i;
            out = CD_TX_ROLLBACK;
            goto done;
        }
    }
    if (cd_moves_insert_opening(db, t->id, events) == CD_Q_OK)
        out = CD_TX_COMMIT;
    /* players' streams (GET /v1/me/events): the game started for every linked seat, and the first turn */
    bool linked = false;
    for (int i = 0; i < t->nplayers; i++)
        linked = linked || t->key_hash[i][0];
    if (out == CD_TX_COMMIT && linked &&
        (!cd_player_events_for_seats_deferred(db, t->id, 0, -1, CD_PEV_GAME_STARTED, NULL) ||
         (t->st->status != CARC_FINISHED &&
          !cd_player_events_for_seats_deferred(db, t->id, 0, t->st->pending.seat, CD_PEV_TURN, NULL))))
        out = CD_TX_ERROR;
    if (out == CD_TX_COMMIT && t->req->is_admin &&
        !cd_audit_write(t->req, db, NULL, t->id,
                        json_pack("{s:b, s:b}", "seed_chosen", t->seeded,
                                  "scripted", json_object_get(t->setup, "script") != NULL),
                        NULL))
        out = CD_TX_ERROR;
    if (out == CD_TX_COMMIT)   /* webhooks: the players' endpoints and the first turn.started (outbox.h) */
        out = cd_outbox_game_created(db, t->id, t->st, t->seed_hex, t->deadline_iso[0] ? t->deadline_iso : NULL,
                                     &t->hooks);
    /* mail: the seats with an address get their invitation, the first seat its turn mail (mail/seat_mail.h) */
    json_t *names = json_array();
    for (int i = 0; i < t->nplayers; i++)
        json_array_append_new(names, json_string(t->names[i]));
    for (int i = 0; i < t->nplayers && out == CD_TX_COMMIT; i++)
        if (t->emails[i])
            out = cd_mail_seat_set(db, t->id, t->st, 0, names, i, t->emails[i], t->tokens[i], t->deadline_iso);
    json_decref(names);
done:
    free(setup);
    free(snap);
    free(events);
    free(clock);
    return out;
}

/* CARCD_CREATE: whether the bearer may create games (anyone; players: a player key or the admin token; admin:
 * the admin token only), then the creation rate limit (per address and per key); else it has answered. */
static bool may_create(cd_req *r)
{
    const char *mode = r->cfg->create_mode;
    if (!r->is_admin && strcmp(mode, "admin") == 0) {
        cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                         "on this server only the admin creates games (CARCD_CREATE=admin)");
        return false;
    }
    if (!r->is_admin && strcmp(mode, "players") == 0) {
        if (!r->bearer) {
            cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization",
                             "on this server games are created with a player key (POST /v1/players; CARCD_CREATE=players)");
            return false;
        }
        cd_db *db = cd_req_db(r);
        if (!db)
            return false;
        char hash[CD_HEX256_LEN], player[37];
        cd_sha256_hex(r->bearer, hash);
        bool found = false;
        cd_q q = cd_player_by_key(db, hash, &found, player);
        if (q != CD_Q_OK) {
            cd_reply_db_failure(r, q == CD_Q_DOWN, "the player could not be read");
            return false;
        }
        if (!found) {
            cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization",
                             "the bearer token is no player key; on this server games are created with one "
                             "(CARCD_CREATE=players)");
            return false;
        }
    }
    return cd_rate_check(r, CD_RATE_CREATE, r->bearer);
}

enum MHD_Result h_games_create(cd_req *r)
{
    if (!may_create(r))
        return MHD_YES;
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    carc_setup setup;
    create_tx t = {0};
    enum MHD_Result ret;
    if (!parse_request(r, body, &setup, &t)) {
        json_decref(body);
        return MHD_YES;
    }
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    char err[256];
    if (!st) {
        json_decref(body);
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "out of memory");
    }
    if (carc_game_new(st, cd_catalog(), &setup, &ev, err, sizeof err) != 0) {
        ret = reply_field_error(r, "", err);
        goto out;
    }
    char seed_hex[CD_HEX256_LEN], seed_sha[CD_HEX256_LEN];
    cd_hex(setup.seed, sizeof setup.seed, seed_hex);
    uint8_t md[32];
    unsigned int mdlen = 0;
    EVP_Digest(setup.seed, sizeof setup.seed, md, &mdlen, EVP_sha256(), NULL);
    cd_hex(md, sizeof md, seed_sha);

    char tokens[CARC_MAX_PLAYERS][CD_TOKEN_LEN + 1];
    for (int i = 0; i < t.nplayers; i++) {
        cd_token_new(tokens[i]);
        cd_sha256_hex(tokens[i], t.token_hash[i]);
    }
    t.st = st;
    t.tokens = tokens;
    t.req = r;
    t.seeded = json_object_get(body, "seed") != NULL;
    t.setup = setup_json(&setup, json_object_get(body, "script"));
    t.snapshot = cd_snapshot_for_store(st);
    t.events = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
    t.seed_hex = seed_hex;
    t.seed_sha = seed_sha;
    t.bad_key = -1;
    if (t.clocked) {
        cd_clock_start(&t.clock, st, 0, cd_wall_now());
        if (cd_clock_deadline(&t.clock) >= 0)
            cd_iso_time(cd_clock_deadline(&t.clock), t.deadline_iso);
    }

    cd_db *db = cd_req_db(r);
    if (!db) {
        ret = MHD_YES;
        goto out_tx;
    }
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_create, &t, &down);
    if (tr == CD_TX_ROLLBACK && t.bad_key >= 0) {
        char field[64];
        snprintf(field, sizeof field, "players[%d].player_key", t.bad_key);
        ret = cd_reply_problem(r, CD_P_INVALID, field, "%s: no player has this key", field);
        goto out_tx;
    }
    if (tr != CD_TX_COMMIT) {
        ret = cd_reply_db_failure(r, down, "the game could not be stored");
        goto out_tx;
    }
    r->game_id = NULL;
    json_t *players = json_array();
    for (int i = 0; i < t.nplayers; i++)
        json_array_append_new(players, json_pack("{s:i, s:s, s:s}", "seat", i, "name", t.names[i], "token",
                                                 tokens[i]));
    json_t *answer = json_pack("{s:s, s:i, s:s, s:o}", "id", t.id, "seq", 0, "seed_sha256", seed_sha, "players",
                               players);
    cd_player_hooks_answer(&t.hooks, answer);
    json_object_set_new(answer, "clock", t.clocked ? cd_clock_view(&t.clock, cd_wall_now()) : json_null());
    char location[64];
    snprintf(location, sizeof location, "/v1/games/%s", t.id);
    const char *headers[] = {"Location", location, NULL};
    ret = cd_reply_json(r, 201, answer, headers);
out_tx:
    json_decref(t.setup);
    json_decref(t.snapshot);
    json_decref(t.events);
out:
    carc_events_free(&ev);
    free(st);
    json_decref(body);
    return ret;
}
