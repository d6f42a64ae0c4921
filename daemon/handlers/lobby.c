/*
 * lobby.c — see lobby.h.
 */
#include "lobby.h"

#include <stdio.h>
#include <string.h>

#include "base/crypto.h"
#include "base/ids.h"
#include "base/json_out.h"
#include "base/log.h"
#include "base/timesrc.h"
#include "db/games_table.h"
#include "db/player_events.h"
#include "game/games.h"
#include "game/clock.h"
#include "game/lobby_cancel.h"
#include "game/lobby_expire.h"
#include "game/views.h"
#include "mail/mail.h"
#include "request.h"

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

const char *cd_lobby_mail_missing(const cd_req *r)
{
    if (!cd_mail_settings_get()->enabled)
        return "mail server, CARCD_SMTP_URL";
    return r->cfg->public_url[0] ? NULL : "CARCD_PUBLIC_URL for links";
}

json_t *cd_lobby_expires_at(const cd_req *r, double last_join_at)
{
    if (last_join_at < 0 || r->cfg->waiting_ttl_s <= 0)
        return json_null();
    char iso[32];
    cd_iso_time(last_join_at + r->cfg->waiting_ttl_s, iso);
    return json_string(iso);
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
    cd_q q = cd_waiting_insert(db, w->id, settings, w->nseats, w->public_, w->creator_hash, w->rematch_of,
                               cd_wall_now());
    free(settings);
    if (q != CD_Q_OK)
        return CD_TX_ERROR;
    for (int p = 0; p < w->nopen; p++)
        if (cd_invite_insert(db, w->id, p, w->code_hash[p], w->old_seat[p], w->email[p]) != CD_Q_OK)
            return CD_TX_ERROR;
    return CD_TX_COMMIT;
}

cd_tx_result cd_lobby_on_invited(cd_db *db, const char *game_id, const char *player_id, int old_seat)
{
    cd_log("info", "game %s: player %s (seat %d of the finished game) invited to its rematch", game_id, player_id,
           old_seat);
    /* the player's stream: no seat of the new game yet */
    return cd_player_event_emit(db, player_id, CD_PEV_INVITATION, game_id, 0, -1) ? CD_TX_COMMIT : CD_TX_ERROR;
}

enum MHD_Result cd_lobby_reply_view(cd_req *r, cd_db *db, const char *id, json_t *own)
{
    cd_waiting_view_row w;
    cd_q q = cd_waiting_view(db, id, &w);
    if (q != CD_Q_OK) {
        json_decref(own);
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
    }
    if (!w.found) {
        json_decref(own);
        cd_waiting_view_row_free(&w);
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    }
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int ninv = 0;
    if ((q = cd_invites_get(db, id, inv, &ninv)) != CD_Q_OK) {
        json_decref(own);
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
    bool waits = strcmp(w.status, "waiting") == 0;
    json_object_set_new(v, "cancelled_by", w.cancelled_by ? json_string(w.cancelled_by) : json_null());
    json_object_set_new(v, "expires_at", cd_lobby_expires_at(r, waits ? w.last_join_at : -1));
    if (own)
        json_object_update(v, own);
    json_decref(own);
    json_decref(settings);
    json_decref(names);
    cd_waiting_view_row_free(&w);
    /* each bearer sees its own view (its seat, its mail); no ETag: the seq stays 0 while the seats change */
    static const char *const headers[] = {"Cache-Control", "private, no-cache", "Vary", "Authorization", NULL};
    return cd_reply_json(r, 200, v, headers);
}

bool cd_lobby_is_creator(const cd_req *r, const char *creator_hash)
{
    if (r->is_admin)
        return true;
    if (!r->bearer || !creator_hash[0])
        return false;
    char hash[CD_HEX256_LEN];
    cd_sha256_hex(r->bearer, hash);   /* r is const here: hashed again (rare: the lobby creator) */
    return strlen(creator_hash) == CD_HEX256_LEN - 1 && cd_secret_equal(hash, creator_hash, CD_HEX256_LEN - 1);
}

/* The game as the public sees it after a creator's action: the game's view once it started, else its lobby
 * view (cancelled, or still waiting with its new expires_at). */
static enum MHD_Result reply_game(cd_req *r, cd_db *db, const char *id)
{
    cd_game g;
    cd_load_result lr = cd_game_load(db, id, false, &g);
    if (lr == CD_LOAD_WAITING)
        return cd_lobby_reply_view(r, db, id, NULL);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        return cd_reply_load_error(r, lr);
    }
    json_t *v = cd_game_view(&g, CARC_VIEW_PUBLIC);
    cd_game_free(&g);
    return cd_reply_json(r, 200, v, NULL);
}

bool cd_lobby_refuse_unless_creator(cd_refusal *no, const cd_req *r, bool found, const char *creator_hash)
{
    if (!found)
        cd_refuse(no, CD_P_NOT_FOUND, NULL, "no game with that id");
    else if (!cd_lobby_is_creator(r, creator_hash))
        cd_refuse(no, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                  "this needs the game's creator token (creator_token of the creation's answer) or the admin token");
    else
        return false;
    return true;
}

typedef struct {
    cd_req *req;
    const char *id;
    cd_creator_action what;
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
    if (cd_lobby_refuse_unless_creator(&t->no, t->req, w.found, w.creator_hash))
        out = CD_TX_ROLLBACK;
    else if (strcmp(w.status, "waiting") != 0) {
        char why[100];
        cd_lobby_not_waiting_words(&w, why, sizeof why);
        out = cd_refuse(&t->no, CD_P_NOT_WAITING, NULL, why);
    } else if (t->what == CD_CREATOR_CANCEL)   /* the game is over before it began */
        out = cd_lobby_cancel(db, t->id, &w, t->req->is_admin ? CD_CANCEL_BY_ADMIN : CD_CANCEL_BY_CREATOR,
                              NULL);
    else if (t->what == CD_CREATOR_KEEP_OPEN)
        out = cd_lobby_keep_open(db, t->id, &w, cd_wall_now(), t->req->cfg->waiting_ttl_s, t->req->is_admin);
    else {
        out = cd_lobby_start(db, t->id, &w, -1, NULL, t->no.detail, sizeof t->no.detail);
        if (out == CD_TX_ROLLBACK)
            t->no.problem = CD_P_TOO_FEW_SEATS;
    }
    cd_waiting_lock_row_free(&w);
    return out;
}

enum MHD_Result cd_lobby_creator_action(cd_req *r, cd_creator_action what)
{
    static const char *const failed[] = {
        [CD_CREATOR_START] = "the game could not be started",
        [CD_CREATOR_CANCEL] = "the game could not be cancelled",
        [CD_CREATOR_KEEP_OPEN] = "the game could not be kept open",
    };
    if (!cd_req_body_empty(r))
        return MHD_YES;
    creator_tx t = {.req = r, .id = r->params[0], .what = what};
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
    return cd_reply_refusal_or_failure(r, &t.no, down, failed[what]);
}
