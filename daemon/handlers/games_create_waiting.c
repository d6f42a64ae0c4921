/*
 * games_create_waiting.c — POST /v1/games for a game with open seats ({"invite": true}): stored waiting
 * (lobby.h) with one place per open seat, each with an invite code shown once and stored hashed, and the
 * invitations carcd mails ({"invite": true, "email": ...}, mail/open_seat.h) written in the same transaction.
 * The engine sets the game up once its seats are taken (cd_lobby_start).
 */
#include "games_create_waiting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/messages.h"
#include "game/audit.h"
#include "handlers.h"
#include "handlers/lobby.h"
#include "mail/open_seat.h"
#include "mail/seat_mail.h"

/* A game with open seats: stored waiting (lobby.h), set up in the engine once its seats are taken. */
typedef struct {
    cd_waiting_new w;
    const create_tx *create;
    cd_req *req;
    bool seeded;
    bool public_chat;
    char (*codes)[CD_TOKEN_LEN + 1];   /* by place: the invite codes, for the mailed invitations' links */
    const json_t *settings;
} waiting_tx;

/* The invitations carcd mails (mail/open_seat.h), from the first named person (not a bot) of the game. */
static cd_tx_result mail_invitations(cd_db *db, const waiting_tx *t)
{
    const create_tx *c = t->create;
    const char *inviter = NULL;
    json_t *names = json_array();
    for (int i = 0; i < c->nplayers; i++) {
        json_array_append_new(names, json_string(c->names[i]));
        if (!inviter && !c->is_bot[i])
            inviter = c->names[i];
    }
    cd_tx_result out = CD_TX_COMMIT;
    for (int p = 0; p < c->nopen && out == CD_TX_COMMIT; p++) {
        if (!c->invite_emails[p])
            continue;
        char page[700];
        cd_lobby_invite_page_url(t->req->cfg->public_url, t->w.id, t->codes[p], page, sizeof page);
        const cd_mail_open_seat m = {.game_id = t->w.id, .place = p, .email = c->invite_emails[p], .inviter = inviter,
                                     .names = names, .nseats = t->w.nseats, .settings = t->settings,
                                     .page_url = page};
        out = cd_mail_enqueue_open_seat(db, &m);
    }
    json_decref(names);
    return out;
}

static cd_tx_result run_waiting(cd_db *db, void *arg)
{
    waiting_tx *t = arg;
    t->w.bad_key = -1;
    cd_tx_result out = cd_lobby_store_waiting(db, &t->w);
    if (out == CD_TX_COMMIT && !cd_create_store_bots(db, t->create, t->w.id))
        out = CD_TX_ERROR;
    if (out == CD_TX_COMMIT && t->public_chat && cd_msg_public_chat_set(db, t->w.id) != CD_Q_OK)
        out = CD_TX_ERROR;
    for (int i = 0; i < t->create->nplayers && out == CD_TX_COMMIT; i++)   /* kept for the start: mail/waiting.h */
        if (t->create->emails[i])
            out = cd_mail_seat_hold(db, t->w.id, i, t->create->emails[i]);
    if (out == CD_TX_COMMIT && t->create->nmailed > 0)
        out = mail_invitations(db, t);
    if (out == CD_TX_COMMIT && t->req->is_admin &&
        !cd_audit_write(t->req, db, NULL, t->w.id, json_pack("{s:b, s:b}", "seed_chosen", t->seeded, "scripted", 0),
                        NULL))
        out = CD_TX_ERROR;
    return out;
}

enum MHD_Result cd_create_waiting(cd_req *r, const create_tx *t, const carc_setup *s, json_t *body,
                                      const char *seed_hex, const char *seed_sha,
                                      char tokens[][CD_TOKEN_LEN + 1])
{
    waiting_tx wt = {.create = t, .req = r, .seeded = json_object_get(body, "seed") != NULL,
                     .public_chat = t->public_chat};
    cd_waiting_new *w = &wt.w;
    w->nseats = t->nplayers + t->nopen;
    w->nnamed = t->nplayers;
    w->nopen = t->nopen;
    w->public_ = t->public_;
    w->seed_hex = seed_hex;
    w->seed_sha = seed_sha;
    json_t *emails = json_array();
    for (int i = 0; i < t->nplayers; i++) {
        w->names[i] = t->names[i];
        w->token_hash[i] = t->token_hash[i];
        w->key_hash[i] = t->key_hash[i][0] ? t->key_hash[i] : NULL;
        if (t->emails[i])
            json_array_append_new(emails, json_pack("{s:i, s:s}", "seat", i, "email", t->emails[i]));
    }
    char codes[CD_LOBBY_MAX_SEATS][CD_TOKEN_LEN + 1], code_hash[CD_LOBBY_MAX_SEATS][CD_HEX256_LEN];
    for (int p = 0; p < t->nopen; p++) {
        cd_lobby_secret("iv_", codes[p]);
        cd_sha256_hex(codes[p], code_hash[p]);
        w->code_hash[p] = code_hash[p];
        w->old_seat[p] = -1;
        w->email[p] = t->invite_emails[p];
    }
    wt.codes = codes;
    char creator[CD_TOKEN_LEN + 1], creator_hash[CD_HEX256_LEN];
    cd_lobby_secret("ct_", creator);
    cd_sha256_hex(creator, creator_hash);
    w->creator_hash = creator_hash;
    json_t *clock = json_object_get(body, "clock");
    json_t *settings = json_pack("{s:o, s:o, s:o}", "expansions", carc_expansions_to_json(s->expansions), "options",
                                 carc_options_to_json(s->opt), "emails", emails);
    if (clock && !json_is_null(clock))
        json_object_set(settings, "clock", clock);
    w->settings = settings;
    wt.settings = settings;
    enum MHD_Result ret;
    cd_db *db = cd_req_db(r);
    if (!db) {
        json_decref(settings);
        return MHD_YES;
    }
    for (int p = 0; p < t->nopen; p++) {   /* an address that used an invitation's stop link gets none */
        bool out = false;
        cd_q q = t->invite_emails[p] ? cd_mail_invite_opted_out(db, t->invite_emails[p], &out) : CD_Q_OK;
        if (q != CD_Q_OK || out) {
            json_decref(settings);
            if (q != CD_Q_OK)
                return cd_reply_db_failure(r, q == CD_Q_DOWN, "the invitations could not be checked");
            char field[64];
            snprintf(field, sizeof field, "players[%d].email", t->invite_at[p]);
            return cd_reply_problem(r, CD_P_INVALID, field, "%s: " CD_MAIL_OPTED_OUT_WORDS, field);
        }
    }
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_waiting, &wt, &down);
    json_decref(settings);
    if (tr == CD_TX_ROLLBACK && w->bad_key >= 0) {
        char field[64];
        snprintf(field, sizeof field, "players[%d].player_key", w->bad_key);
        return cd_reply_problem(r, CD_P_INVALID, field, "%s: no player has this key", field);
    }
    if (tr != CD_TX_COMMIT)
        return cd_reply_db_failure(r, down, "the game could not be stored");
    json_t *players = json_array();
    for (int i = 0; i < t->nplayers; i++) {
        json_t *pl = json_pack("{s:i, s:s, s:s}", "seat", i, "name", t->names[i], "token", tokens[i]);
        if (t->is_bot[i])   /* taken at once: carcd plays it once the game starts */
            json_object_set_new(pl, "bot", cd_bot_spec_json(&t->bots[i]));
        json_array_append_new(players, pl);
    }
    json_t *invites = json_array();
    for (int p = 0; p < t->nopen; p++) {
        char url[700], page[700];
        cd_lobby_join_url(r->cfg->public_url, w->id, codes[p], url, sizeof url);
        cd_lobby_invite_page_url(r->cfg->public_url, w->id, codes[p], page, sizeof page);
        json_t *iv = json_pack("{s:s, s:s, s:s}", "invite", codes[p], "join_url", url, "page_url", page);
        if (t->invite_emails[p])   /* the creator's own words back: the address the link was mailed to */
            json_object_set_new(iv, "mailed_to", json_string(t->invite_emails[p]));
        json_array_append_new(invites, iv);
    }
    json_t *answer = json_pack("{s:s, s:s, s:i, s:s, s:o, s:o, s:s, s:b, s:i, s:n}", "id", w->id, "status", "waiting",
                               "seq", 0, "seed_sha256", seed_sha, "players", players, "invites", invites,
                               "creator_token", creator, "public", t->public_, "seats", w->nseats, "clock");
    char location[64];
    snprintf(location, sizeof location, "/v1/games/%s", w->id);
    const char *headers[] = {"Location", location, NULL};
    ret = cd_reply_json(r, 201, answer, headers);
    return ret;
}
