/*
 * lobby.c — see lobby.h. A waiting game keeps its settings as asked for (expansions and options as the
 * engine normalised them at creation, the clock as requested) in game_waiting; the start reads them back
 * through the same decoders a creation uses, so a game started from the lobby is set up exactly as one
 * created with the same seats.
 */
#include "lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "base/ids.h"
#include "base/json_out.h"
#include "base/log.h"
#include "base/timesrc.h"
#include "db/games_table.h"
#include "db/player_events.h"
#include "db/moves.h"
#include "game/catalog.h"
#include "game/clock.h"
#include "game/event_cache.h"
#include "game/games.h"
#include "game/views.h"
#include "mail/mail.h"
#include "mail/seat_mail.h"
#include "request.h"
#include "webhooks/outbox.h"

json_t *cd_setup_json(const carc_setup *s, const json_t *script)
{
    json_t *o = json_object();
    json_object_set_new(o, "nplayers", json_integer(s->nplayers));
    json_object_set_new(o, "expansions", carc_expansions_to_json(s->expansions));
    json_object_set_new(o, "options", carc_options_to_json(s->opt));
    if (script)
        json_object_set(o, "script", (json_t *)script);
    return o;
}

void cd_lobby_secret(const char *prefix, char out[47])
{
    cd_token_new(out);          /* "cs_" + 43 base64url characters */
    memcpy(out, prefix, 3);     /* told apart at a glance: iv_ invite code, ct_ creator token */
}

void cd_lobby_join_url(const char *public_url, const char *id, const char *code, char *out, size_t n)
{
    snprintf(out, n, "%s/v1/games/%s/join?invite=%s", public_url, id, code);
}

void cd_lobby_invite_page_url(const char *public_url, const char *id, const char *code, char *out, size_t n)
{
    snprintf(out, n, "%s/games/%s#invite=%s", public_url, id, code);
}

int cd_lobby_place_of_code(const cd_invite *inv, int n, const char *code_hash)
{
    int found = -1;
    for (int i = 0; i < n; i++) {   /* every place compared, no early exit: the time says nothing of which */
        bool eq = inv[i].has_code && cd_secret_equal(inv[i].code_hash, code_hash, CD_HEX256_LEN - 1);
        if (eq)
            found = i;
    }
    return found;
}

const char *cd_lobby_mail_missing(const cd_req *r)
{
    if (!cd_mail_settings_get()->enabled)
        return "mail server, CARCD_SMTP_URL";
    return r->cfg->public_url[0] ? NULL : "CARCD_PUBLIC_URL for links";
}

cd_tx_result cd_lobby_store_waiting(cd_db *db, cd_waiting_new *w)
{
    const cd_game_insert_row row = {.setup = "{}", .snapshot = "{}", .seed_sha256 = w->seed_sha, .waiting = true,
                                    .pending_seat = -1, .deadline = -1, .due = -1};
    if (cd_game_insert(db, &row, w->id) != CD_Q_OK || cd_game_secret_insert(db, w->id, w->seed_hex) != CD_Q_OK)
        return CD_TX_ERROR;
    for (int i = 0; i < w->nnamed; i++) {
        bool key_known = true;
        if (cd_seat_insert(db, w->id, i, w->names[i], w->token_hash[i], w->key_hash[i], &key_known) != CD_Q_OK)
            return CD_TX_ERROR;
        if (!key_known) {
            w->bad_key = i;
            return CD_TX_ROLLBACK;
        }
    }
    char *settings = cd_json_dumps(w->settings, JSON_COMPACT);
    cd_q q = cd_waiting_insert(db, w->id, settings, w->nseats, w->public_, w->creator_hash, w->rematch_of);
    free(settings);
    if (q != CD_Q_OK)
        return CD_TX_ERROR;
    for (int p = 0; p < w->nopen; p++)
        if (cd_invite_insert(db, w->id, p, w->code_hash[p], w->old_seat[p], w->email[p]) != CD_Q_OK)
            return CD_TX_ERROR;
    return CD_TX_COMMIT;
}

/* The settings back into a carc_setup for n seats and a clock; false with detail when they do not decode
 * (stored by carcd, so only for an engine that changed its mind about them). */
static bool settings_setup(const json_t *settings, int n, const char *seed_hex, carc_setup *s, bool *clocked,
                           cd_clock *clock, char *detail, size_t detlen)
{
    carc_setup_defaults(s);
    s->nplayers = n;
    json_t *exp = json_object_get(settings, "expansions"), *opt = json_object_get(settings, "options");
    char err[256] = "";
    if ((exp && carc_expansions_from_json(&s->expansions, exp, err, sizeof err) != 0) ||
        (opt && carc_options_from_json(s->opt, opt, true, err, sizeof err) != 0) ||
        !cd_unhex(seed_hex, s->seed, sizeof s->seed)) {
        snprintf(detail, detlen, "the game's stored settings do not decode: %s", err);
        return false;
    }
    json_t *cj = json_object_get(settings, "clock");
    *clocked = cj && !json_is_null(cj);
    char field[64];
    if (*clocked && !cd_clock_from_request(cj, clock, field, sizeof field, detail, detlen))
        return false;
    return true;
}

cd_tx_result cd_lobby_start(cd_db *db, const char *id, const cd_waiting_lock_row *w, char *detail, size_t detlen)
{
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int n = 0, ninv = 0;
    if (cd_waiting_seats(db, id, seats, &n) != CD_Q_OK || cd_invites_get(db, id, inv, &ninv) != CD_Q_OK)
        return CD_TX_ERROR;
    if (n < CARC_MIN_PLAYERS) {
        snprintf(detail, detlen, "%d seat%s taken: a game starts with at least %d", n, n == 1 ? "" : "s",
                 CARC_MIN_PLAYERS);
        return CD_TX_ROLLBACK;
    }
    json_t *settings = json_loads(w->settings, 0, NULL);
    carc_setup s;
    bool clocked = false;
    cd_clock clock;
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    cd_tx_result out = CD_TX_ROLLBACK;
    char err[256];
    json_t *setup = NULL, *snap = NULL, *events = NULL, *names = json_array();
    char *setup_s = NULL, *snap_s = NULL, *events_s = NULL, *clock_s = NULL;
    if (!settings || !st) {
        snprintf(detail, detlen, "the game's stored settings do not decode");
        goto done;
    }
    if (!settings_setup(settings, n, w->seed, &s, &clocked, &clock, detail, detlen))
        goto done;
    if (carc_game_new(st, cd_catalog(), &s, &ev, err, sizeof err) != 0) {
        snprintf(detail, detlen, "the game cannot be set up for %d seats: %s", n, err);
        goto done;
    }
    char deadline_iso[32] = "";
    if (clocked) {
        cd_clock_start(&clock, st, 0, cd_wall_now());
        if (cd_clock_deadline(&clock) >= 0)
            cd_iso_time(cd_clock_deadline(&clock), deadline_iso);
        json_t *cj = cd_clock_to_json(&clock);
        clock_s = cd_json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
    }
    setup = cd_setup_json(&s, NULL);
    snap = cd_snapshot_for_store(st);
    events = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
    setup_s = cd_json_dumps(setup, JSON_COMPACT);
    snap_s = cd_json_dumps(snap, JSON_COMPACT);
    events_s = cd_json_dumps(events, JSON_COMPACT);
    const cd_game_start_row row = {.setup = setup_s, .snapshot = snap_s, .finished = st->status == CARC_FINISHED,
                                   .pending_seat = st->pending.seat, .clock = clock_s,
                                   .deadline = clock_s ? cd_clock_deadline(&clock) : -1,
                                   .due = clock_s ? cd_clock_due(&clock) : -1};
    out = CD_TX_ERROR;
    /* the opening's events are derived (game/move_log.h), and kept in the event cache meanwhile */
    if (cd_game_start_store(db, id, &row) != CD_Q_OK || cd_moves_insert_opening(db, id, NULL) != CD_Q_OK ||
        cd_moves_notify(db, id, 0) != CD_Q_OK)
        goto done;
    char *opening_key = cd_event_cache_move_key(NULL);
    cd_event_cache_put(id, 0, -1, opening_key, events_s);
    free(opening_key);
    /* as a creation: turn.started to the endpoints the seats registered while they waited */
    out = cd_outbox_game_created(db, id, st, w->seed, deadline_iso[0] ? deadline_iso : NULL, NULL);
    for (int i = 0; i < n; i++)
        json_array_append_new(names, json_string(seats[i].name));
    size_t k;
    json_t *e;
    json_array_foreach(json_object_get(settings, "emails"), k, e) {   /* the named seats' addresses */
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        const char *addr = json_string_value(json_object_get(e, "email"));
        if (out == CD_TX_COMMIT && addr && seat >= 0 && seat < n)
            out = cd_mail_seat_set(db, id, st, 0, names, seat, addr, NULL, deadline_iso);
    }
    for (int i = 0; i < ninv && out == CD_TX_COMMIT; i++)   /* a place taken by the invitation carcd mailed */
        if (inv[i].seat >= 0 && inv[i].seat < n && inv[i].email[0])
            out = cd_mail_seat_set(db, id, st, 0, names, inv[i].seat, inv[i].email, NULL, deadline_iso);
    if (out == CD_TX_COMMIT)
        out = cd_lobby_on_started(db, id, n);
done:
    carc_events_free(&ev);
    free(st);
    json_decref(settings);
    json_decref(setup);
    json_decref(snap);
    json_decref(events);
    json_decref(names);
    free(setup_s);
    free(snap_s);
    free(events_s);
    free(clock_s);
    return out;
}

cd_tx_result cd_lobby_on_started(cd_db *db, const char *game_id, int nseats)
{
    cd_log("info", "game %s started with %d seats", game_id, nseats);
    /* the linked players' streams (GET /v1/me/events): the game started, and whose turn it is first */
    bool ok = cd_player_events_for_seats_deferred(db, game_id, 0, -1, CD_PEV_GAME_STARTED, NULL) &&
              cd_player_events_for_seats_deferred(db, game_id, 0, CD_PEV_PENDING_SEAT, CD_PEV_TURN, NULL);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_lobby_on_invited(cd_db *db, const char *game_id, const char *player_id, int old_seat)
{
    cd_log("info", "game %s: player %s (seat %d of the finished game) invited to its rematch", game_id, player_id,
           old_seat);
    /* the player's stream: no seat of the new game yet */
    return cd_player_event_emit(db, player_id, CD_PEV_INVITATION, game_id, 0, -1) ? CD_TX_COMMIT : CD_TX_ERROR;
}

enum MHD_Result cd_lobby_reply_view(cd_req *r, cd_db *db, const char *id)
{
    cd_waiting_view_row w;
    cd_q q = cd_waiting_view(db, id, &w);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
    if (!w.found) {
        cd_waiting_view_row_free(&w);
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    }
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int ninv = 0;
    if ((q = cd_invites_get(db, id, inv, &ninv)) != CD_Q_OK) {
        cd_waiting_view_row_free(&w);
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
    }
    /* by place, in the order the creation answered their invitations: the seat each became, so the creator's
     * page can tell a used link from one still to send */
    json_t *places = json_array();
    for (int i = 0; i < ninv; i++)
        json_array_append_new(places, json_pack("{s:i, s:o}", "place", inv[i].place, "seat",
                                                inv[i].seat >= 0 ? json_integer(inv[i].seat) : json_null()));
    json_t *settings = json_loads(w.settings, 0, NULL), *names = json_loads(w.names, 0, NULL);
    json_t *players = json_array();
    size_t i;
    json_t *nm;
    json_array_foreach(names, i, nm)
        json_array_append_new(players, json_pack("{s:i, s:O}", "seat", (int)i, "name", nm));
    json_t *exp = json_object_get(settings, "expansions"), *opt = json_object_get(settings, "options");
    json_t *clock = json_object_get(settings, "clock");
    json_t *v = json_pack("{s:s, s:s, s:i, s:s, s:i, s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:s, s:s}", "id", id,
                          "status", w.status, "seq", 0, "seed_sha256", w.seed_sha256, "seats", w.nseats, "open",
                          strcmp(w.status, "waiting") == 0 ? w.open : 0, "public", w.public_, "players", players,
                          "expansions", exp ? json_incref(exp) : json_array(), "options",
                          opt ? json_incref(opt) : json_object(), "clock", clock ? json_incref(clock) : json_null(),
                          "rematch_of",
                          w.rematch_of ? json_string(w.rematch_of) : json_null(), "created_at", w.created_at,
                          "updated_at", w.updated_at);
    json_object_set_new(v, "places", places);
    json_decref(settings);
    json_decref(names);
    cd_waiting_view_row_free(&w);
    static const char *const headers[] = {"Cache-Control", "private, no-cache", NULL};
    return cd_reply_json(r, 200, v, headers);
}

bool cd_lobby_is_creator(const cd_req *r, const cd_waiting_lock_row *w)
{
    if (r->is_admin)
        return true;
    if (!r->bearer || !w->creator_hash[0])
        return false;
    char hash[CD_HEX256_LEN];
    cd_sha256_hex(r->bearer, hash);   /* r is const here: hashed again (rare: the lobby creator) */
    return strlen(w->creator_hash) == CD_HEX256_LEN - 1 && cd_secret_equal(hash, w->creator_hash, CD_HEX256_LEN - 1);
}

/* The game as the public sees it after a creator's action: the game's view once it started, else its lobby
 * view (cancelled). */
static enum MHD_Result reply_game(cd_req *r, cd_db *db, const char *id)
{
    cd_game g;
    cd_load_result lr = cd_game_load(db, id, false, &g);
    if (lr == CD_LOAD_WAITING)
        return cd_lobby_reply_view(r, db, id);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        return cd_reply_load_error(r, lr);
    }
    json_t *v = cd_game_view(&g, CARC_VIEW_PUBLIC);
    cd_game_free(&g);
    return cd_reply_json(r, 200, v, NULL);
}

bool cd_lobby_refuse_unless_creator(cd_refusal *no, const cd_req *r, const cd_waiting_lock_row *w)
{
    if (!w->found)
        cd_refuse(no, CD_P_NOT_FOUND, NULL, "no game with that id");
    else if (!cd_lobby_is_creator(r, w))
        cd_refuse(no, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                  "this needs the game's creator token (creator_token of the creation's answer) or the admin token");
    else
        return false;
    return true;
}

typedef struct {
    cd_req *req;
    const char *id;
    bool start;
    cd_refusal no;   /* out */
} creator_tx;

static cd_tx_result run_creator(cd_db *db, void *arg)
{
    creator_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out;
    if (cd_lobby_refuse_unless_creator(&t->no, t->req, &w))
        out = CD_TX_ROLLBACK;
    else if (strcmp(w.status, "waiting") != 0)
        out = cd_refuse(&t->no, CD_P_NOT_WAITING, NULL,
                        strcmp(w.status, "cancelled") == 0 ? "the game was cancelled" : "the game has started");
    else if (!t->start)   /* the named seats' players: the game is over before it began */
        out = cd_game_cancel_store(db, t->id) == CD_Q_OK &&
                      cd_player_events_for_seats_deferred(db, t->id, 0, -1, CD_PEV_GAME_OVER, "cancelled")
                  ? CD_TX_COMMIT
                  : CD_TX_ERROR;
    else {
        out = cd_lobby_start(db, t->id, &w, t->no.detail, sizeof t->no.detail);
        if (out == CD_TX_ROLLBACK)
            t->no.problem = CD_P_TOO_FEW_SEATS;
    }
    cd_waiting_lock_row_free(&w);
    return out;
}

enum MHD_Result cd_lobby_creator_action(cd_req *r, bool start)
{
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return MHD_YES;
    static const char *const none[] = {NULL};   /* the body may only be empty */
    bool ok = cd_req_only_keys(r, body, none, "");
    json_decref(body);
    if (!ok)
        return MHD_YES;
    creator_tx t = {.req = r, .id = r->params[0], .start = start};
    if (!cd_uuid_valid(t.id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = t.id;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_creator, &t, &down);
    if (tr == CD_TX_COMMIT)
        return reply_game(r, db, t.id);
    return cd_reply_refusal_or_failure(r, &t.no, down,
                                       start ? "the game could not be started" : "the game could not be cancelled");
}
