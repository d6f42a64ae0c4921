/*
 * games_create.c — POST /v1/games: validates the request, starts the game in the engine (shuffling with a
 * fresh seed, or the admin's seed and script), and stores game, secret, seats and the opening events in
 * one transaction. Seat tokens are shown once here and stored only as hashes. A game with open seats is stored
 * waiting instead (games_create_waiting.c).
 */
#include "games_create_waiting.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/bot_seats.h"
#include "game/clock.h"
#include "base/json_out.h"
#include "game/event_cache.h"
#include "game/games.h"
#include "game/state_cache.h"
#include "handlers.h"
#include "handlers/lobby.h"
#include "handlers/webhooks.h"
#include "mail/mail.h"
#include "mail/seat_mail.h"
#include "webhooks/outbox.h"
#include "db/games_table.h"
#include "db/messages.h"
#include "db/moves.h"
#include "db/players.h"
#include "http/limits.h"
#include "base/timesrc.h"



/* Replies 400 naming the field of an engine/codec message "<field>: <what>"; `prefix` is prepended. */
static enum MHD_Result reply_field_error(cd_req *r, const char *prefix, const char *msg)
{
    char field[128] = "";
    const char *colon = strstr(msg, ": ");
    if (colon && (size_t)(colon - msg) < sizeof field - strlen(prefix) - 1)
        snprintf(field, sizeof field, "%s%.*s", prefix, (int)(colon - msg), msg);
    return cd_reply_problem(r, CD_P_INVALID, field[0] ? field : NULL, "%s%s", prefix, msg);
}

/* An open seat's "email": the address carcd mails its invitation to (mail/open_seat.h). Refused where the
 * mail could not go out or its link would not work: no mail server, or no CARCD_PUBLIC_URL for the link. */
static bool parse_invite_email(cd_req *r, json_t *email, size_t i, const char **out)
{
    *out = NULL;
    if (!email || json_is_null(email))
        return true;
    char field[64];
    snprintf(field, sizeof field, "players[%zu].email", i);
    if (!json_is_string(email) || !cd_mail_address_ok(json_string_value(email))) {
        cd_reply_problem(r, CD_P_INVALID, field, "%s: expected a mail address like bob@example.org", field);
        return false;
    }
    const char *missing = cd_lobby_mail_missing(r);
    if (missing) {
        cd_reply_problem(r, CD_P_INVALID, field, "%s: this server mails no invitations (it has no %s); send the "
                         "invitation's page_url yourself", field, missing);
        return false;
    }
    *out = json_string_value(email);
    return true;
}

static bool parse_players(cd_req *r, json_t *players, create_tx *t)
{
    if (!json_is_array(players) || json_array_size(players) < CARC_MIN_PLAYERS ||
        json_array_size(players) > CARC_MAX_PLAYERS) {
        cd_reply_problem(r, CD_P_INVALID, "players", "players: expected an array of 2 to 6 players");
        return false;
    }
    static const char *const keys[] = {"name", "webhook", "player_key", "email", NULL};
    static const char *const bot_keys[] = {"bot", "think_ms", "name", NULL};   /* a bot has no hooks or mail */
    static const char *const invite_keys[] = {"invite", "email", NULL};
    size_t i;
    json_t *p;
    int named = 0;   /* named seats are numbered in their order, before the open ones (lobby.h) */
    int hook_at = -1;
    json_array_foreach(players, i, p) {
        char where[32];
        snprintf(where, sizeof where, "players[%zu].", i);
        if (!json_is_object(p)) {
            cd_reply_problem(r, CD_P_INVALID, "players", "players[%zu]: expected an object", i);
            return false;
        }
        if (json_object_get(p, "bot")) {   /* {"bot": "greedy"} or {"bot": "mcts", "think_ms": 1000} */
            char field[64], detail[160];
            if (!cd_req_only_keys(r, p, bot_keys, where))
                return false;
            if (!cd_bot_spec_parse(p, where, &t->bots[named], field, sizeof field, detail, sizeof detail)) {
                cd_reply_problem(r, CD_P_INVALID, field, "%s", detail);
                return false;
            }
            t->is_bot[named] = true;
            json_t *name = json_object_get(p, "name");
            snprintf(field, sizeof field, "players[%zu].name", i);
            if (name && !cd_req_name(r, name, field))
                return false;
            t->names[named] = name ? json_string_value(name) : cd_bot_default_name(t->bots[named].kind);
            named++;
            continue;
        }
        json_t *invite = json_object_get(p, "invite");
        if (invite) {   /* an open seat: {"invite": true}, its invitation mailed with "email" */
            if (!cd_req_only_keys(r, p, invite_keys, where))
                return false;
            if (!json_is_true(invite)) {
                char field[64];
                snprintf(field, sizeof field, "players[%zu].invite", i);
                cd_reply_problem(r, CD_P_INVALID, field, "%s: expected true (an open seat to invite a player to)",
                                 field);
                return false;
            }
            if (!parse_invite_email(r, json_object_get(p, "email"), i, &t->invite_emails[t->nopen]))
                return false;
            t->nmailed += t->invite_emails[t->nopen] != NULL;
            t->invite_at[t->nopen] = (int)i;
            t->nopen++;
            continue;
        }
        if (!cd_req_only_keys(r, p, keys, where))
            return false;
        char name_field[64];
        snprintf(name_field, sizeof name_field, "players[%zu].name", i);
        json_t *name = json_object_get(p, "name");
        if (!cd_req_name(r, name, name_field))
            return false;
        t->names[named] = json_string_value(name);
        json_t *key = json_object_get(p, "player_key");
        if (key && !json_is_string(key)) {
            char field[64];
            snprintf(field, sizeof field, "players[%zu].player_key", i);
            cd_reply_problem(r, CD_P_INVALID, field, "%s: expected a player key (POST /v1/players)", field);
            return false;
        }
        if (key)
            cd_sha256_hex(json_string_value(key), t->key_hash[named]);
        json_t *email = json_object_get(p, "email");
        if (email && !json_is_null(email) && (!json_is_string(email) || !cd_mail_address_ok(json_string_value(email)))) {
            char field[64];
            snprintf(field, sizeof field, "players[%zu].email", i);
            cd_reply_problem(r, CD_P_INVALID, field, "%s: expected a mail address like ann@example.org", field);
            return false;
        }
        if (json_is_string(email) && !cd_mail_settings_get()->enabled) {   /* rather than a seat waiting for mail */
            char field[64];
            snprintf(field, sizeof field, "players[%zu].email", i);
            cd_reply_problem(r, CD_P_INVALID, field, "%s: this server sends no mail (it has no mail server, "
                             "CARCD_SMTP_URL): the seat plays by its token", field);
            return false;
        }
        t->emails[named] = json_is_string(email) ? json_string_value(email) : NULL;
        if (json_object_get(p, "webhook") && hook_at < 0)
            hook_at = (int)i;
        named++;
    }
    t->nplayers = named;
    if (t->nopen > 0 && hook_at >= 0) {   /* a waiting game's endpoints are made with POST .../webhooks */
        char field[64];
        snprintf(field, sizeof field, "players[%d].webhook", hook_at);
        cd_reply_problem(r, CD_P_INVALID, field, "%s: not in a game with open seats; the seat adds it with POST "
                         "/v1/games/{id}/webhooks, and it gets the game's start", field);
        return false;
    }
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
    static const char *const keys[] = {"players", "expansions", "options", "seed", "script", "clock", "public",
                                       "bot_after_leave", "public_chat", NULL};
    char err[256];
    if (!cd_req_only_keys(r, body, keys, ""))
        return false;
    json_t *pc = json_object_get(body, "public_chat");
    if (pc && !json_is_boolean(pc)) {
        cd_reply_problem(r, CD_P_INVALID, "public_chat", "public_chat: expected true or false");
        return false;
    }
    t->public_chat = json_is_true(pc);
    carc_setup_defaults(s);
    if (!parse_players(r, json_object_get(body, "players"), t))
        return false;
    cd_wh_error hook_err;
    if (!cd_player_hooks_parse(json_object_get(body, "players"), &t->hooks, &hook_err)) {
        cd_reply_wh_error(r, &hook_err);
        return false;
    }
    s->nplayers = t->nplayers + t->nopen;   /* a waiting game is checked with every seat it asks for */
    json_t *pub = json_object_get(body, "public");
    if (pub && !json_is_boolean(pub)) {
        cd_reply_problem(r, CD_P_INVALID, "public", "public: expected true or false");
        return false;
    }
    t->public_ = json_is_true(pub);
    if (t->public_ && t->nopen == 0) {
        cd_reply_problem(r, CD_P_INVALID, "public", "public: only a game with open seats ({\"invite\": true}) "
                         "is listed in the lobby");
        return false;
    }
    if (t->nopen > 0 && json_object_get(body, "script")) {
        cd_reply_problem(r, CD_P_INVALID, "script", "script: not with open seats (its stack and hands are for a "
                         "known number of seats)");
        return false;
    }
    json_t *after_leave = json_object_get(body, "bot_after_leave");
    if (after_leave && !json_is_boolean(after_leave)) {
        cd_reply_problem(r, CD_P_INVALID, "bot_after_leave", "bot_after_leave: expected true or false");
        return false;
    }
    t->bot_after_leave = json_is_true(after_leave);
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
    if (!cd_create_store_bots(db, t, t->id))
        goto done;
    if (t->public_chat && cd_msg_public_chat_set(db, t->id) != CD_Q_OK)
        goto done;
    if (cd_moves_insert_opening(db, t->id, NULL) == CD_Q_OK) {   /* its events are derived (game/move_log.h) */
        out = CD_TX_COMMIT;
        char *key = cd_event_cache_move_key(NULL);
        cd_event_cache_put(t->id, 0, -1, key, events);
        free(key);
    }
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
    if (out == CD_TX_COMMIT)   /* the linked players' streams among them (lobby.h) */
        out = cd_lobby_on_started(db, t->id, t->nplayers);
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
        cd_req_bearer_hash(r, hash);
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
    /* a creation that mails invitations to addresses it names spends a token of its own limit too: a server
     * that mails whoever a request names must not mail them as fast as games may be created */
    if (!parse_request(r, body, &setup, &t) || (t.nmailed > 0 && !cd_rate_check(r, CD_RATE_INVITE_MAIL, r->bearer))) {
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
    if (t.nopen > 0) {   /* open seats: the game waits for them (lobby.h) */
        ret = cd_create_waiting(r, &t, &setup, body, seed_hex, seed_sha, tokens);
        goto out;
    }
    t.setup = cd_setup_json(&setup, json_object_get(body, "script"));
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
    /* the state a first read would decode from the snapshot just stored: held, that read is a hit; with what
     * this transaction stored of the game besides, so that its first move goes in one round trip too (a
     * webhook or a player linked before that move fails the move's guard: it retries the long way,
     * state_cache.h). st becomes whatever the cache let go, freed below. */
    cd_cache_aux aux = {.known = true, .unclocked = !t.clocked, .no_hooks = true, .no_linked = true};
    for (int i = 0; i < t.nplayers; i++) {
        aux.no_hooks = aux.no_hooks && !t.hooks.has[i];
        aux.no_linked = aux.no_linked && !t.key_hash[i][0];
        if (!t.is_bot[i])   /* a bot's seat is moved by carcd, never under its token */
            memcpy(aux.seat_token[i], t.token_hash[i], CD_HEX256_LEN);
    }
    cd_cache_give(t.id, 0, &st, &aux);
    r->game_id = NULL;
    json_t *players = json_array();
    for (int i = 0; i < t.nplayers; i++) {
        json_t *pl = json_pack("{s:i, s:s, s:s}", "seat", i, "name", t.names[i], "token", tokens[i]);
        if (t.is_bot[i])   /* carcd plays it; the token still reads the seat's view */
            json_object_set_new(pl, "bot", cd_bot_spec_json(&t.bots[i]));
        json_array_append_new(players, pl);
    }
    json_t *answer = json_pack("{s:s, s:i, s:s, s:o}", "id", t.id, "seq", 0, "seed_sha256", seed_sha, "players",
                               players);
    cd_player_hooks_answer(&t.hooks, answer);
    json_object_set_new(answer, "clock", t.clocked ? cd_clock_view(&t.clock, cd_wall_now()) : json_null());
    json_object_set_new(answer, "public_chat", json_boolean(t.public_chat));
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
