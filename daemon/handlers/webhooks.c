/*
 * webhooks.c — a game's webhook endpoints:
 *   POST   /v1/games/{id}/webhooks         create one: the admin token for the whole game, a seat token for
 *                                          that seat's notifications; 201 with the secret, shown only here
 *   GET    /v1/games/{id}/webhooks         the caller's endpoints (an admin: all of them)
 *   GET    /v1/games/{id}/webhooks/{wid}   one endpoint, for its owner
 *   DELETE /v1/games/{id}/webhooks/{wid}   removes it with its deliveries, for its owner
 * Owners: an endpoint made with a seat token (or in players[].webhook) belongs to that seat; the admin owns
 * every endpoint. Another seat's endpoint is answered 404, as if it did not exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "handlers/webhooks.h"
#include "db/games_table.h"
#include "db/webhook_endpoints.h"
#include "webhooks/webhooks.h"

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* An endpoint as answered. */
static json_t *endpoint_json(const cd_endpoint_row *e, const char *game_id)
{
    char events[160];
    snprintf(events, sizeof events, "{%s}", e->events);
    json_t *o = json_pack("{s:s, s:s, s:o, s:s, s:s, s:o, s:s, s:b, s:o, s:o}", "id", e->id, "game", game_id, "seat",
                          e->has_seat ? json_integer(e->seat) : json_null(), "url", e->url, "format", e->format,
                          "events", cd_wh_events_json(cd_wh_events_from_pg(events)), "created_at", e->created_at,
                          "enabled", e->disabled_at == NULL, "disabled_at", str_or_null(e->disabled_at),
                          "disabled_reason", str_or_null(e->disabled_reason));
    if (!o)
        abort();
    return o;
}

enum MHD_Result cd_reply_wh_error(cd_req *r, const cd_wh_error *err)
{
    return cd_reply_problem(r, CD_P_INVALID, err->field[0] ? err->field : NULL, "%s", err->detail);
}

bool cd_wh_caller(cd_req *r, const char *game_id, cd_db **db, int *viewer)
{
    if (!cd_uuid_valid(game_id)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        return false;
    }
    r->game_id = game_id;
    *db = cd_req_db(r);
    if (!*db || !cd_viewer_of(r, *db, game_id, viewer))
        return false;
    if (*viewer == CARC_VIEW_PUBLIC) {
        cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "webhooks need a seat token or the admin token");
        return false;
    }
    return true;
}

bool cd_wh_endpoint_load(cd_req *r, cd_db *db, const char *game_id, const char *wid, int viewer,
                         cd_wh_endpoint *out)
{
    memset(out, 0, sizeof *out);
    if (!cd_uuid_valid(wid)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no webhook with that id");
        return false;
    }
    cd_endpoint_rows rows;
    cd_q q = cd_endpoint_get(db, game_id, wid, &rows);
    if (q != CD_Q_OK) {
        cd_reply_db_failure(r, q == CD_Q_DOWN, "reading the webhook failed");
        return false;
    }
    int seat = rows.n == 1 && rows.v[0].has_seat ? rows.v[0].seat : -1;
    if (rows.n != 1 || (viewer != CARC_VIEW_ADMIN && seat != viewer)) {
        cd_endpoint_rows_free(&rows);
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no webhook with that id (of yours) in this game");
        return false;
    }
    snprintf(out->id, sizeof out->id, "%s", rows.v[0].id);
    out->seat = seat;
    out->disabled = rows.v[0].disabled_at != NULL;
    out->json = endpoint_json(&rows.v[0], game_id);
    cd_endpoint_rows_free(&rows);
    return true;
}

bool cd_wh_audit(cd_req *r, cd_db *db, int viewer, const char *game_id, const char *wid, json_t *detail)
{
    if (viewer != CARC_VIEW_ADMIN) {
        json_decref(detail);
        return true;
    }
    if (wid) {
        if (!detail)
            detail = json_object();
        json_object_set_new(detail, "webhook", json_string(wid));
    }
    return cd_audit(r, db, NULL, game_id, detail);
}

/* ---- POST /v1/games/{id}/webhooks ------------------------------------------------------------------------- */
typedef struct {
    cd_req *req;
    const char *game_id;
    int seat;                     /* -1: the whole game */
    const cd_wh_spec *spec;
    const char *secret;
    const char *bearer_hash;      /* a seat's: its token or player key hashed */
    /* out */
    cd_refusal no;
    bool moved;                   /* the seat is no longer the bearer's (request.h's CD_SEAT_TRIES) */
    json_t *endpoint;             /* owned */
} create_tx;

static cd_tx_result run_create(cd_db *db, void *arg)
{
    create_tx *t = arg;
    json_decref(t->endpoint);
    t->endpoint = NULL;
    t->moved = false;
    cd_refusal_clear(&t->no);
    /* the game row locked: a move commits entirely before or after the endpoint exists */
    bool found = false, finished = false;
    int endpoints = 0;
    if (cd_endpoint_game_lock(db, t->game_id, t->seat, &found, &finished, &endpoints) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!found)
        return cd_refuse(&t->no, CD_P_NOT_FOUND, NULL, "no game with that id");
    if (finished)
        return cd_refuse(&t->no, CD_P_GAME_OVER, NULL, "the game is over: it will send nothing more");
    _Static_assert(CD_WH_MAX_PER_SEAT == 4 && CD_WH_MAX_ADMIN == 16, "the refusals below say 4 and 16");
    if (endpoints >= (t->seat >= 0 ? CD_WH_MAX_PER_SEAT : CD_WH_MAX_ADMIN))
        return cd_refuse(&t->no, CD_P_TOO_MANY_WEBHOOKS, NULL,
                         t->seat >= 0 ? "a seat has at most 4 webhook endpoints in a game (DELETE one first)"
                                      : "the admin has at most 16 webhook endpoints in a game (DELETE one first)");
    if (t->seat >= 0) {   /* a seat's endpoint: the seat is still the bearer's (an earlier one may have left) */
        cd_tx_result held = cd_seat_tx_hold(db, t->game_id, t->seat, t->bearer_hash, &t->moved);
        if (held != CD_TX_COMMIT)
            return held;
    }
    char events[CD_WH_EVENTS_PG_LEN], id[37], created_at[40];
    cd_wh_events_pg(t->spec->events, events, sizeof events);
    if (cd_endpoint_insert(db, t->game_id, t->seat, t->spec->url, cd_wh_format_name(t->spec->format), events,
                           t->secret, id, created_at) != CD_Q_OK)
        return CD_TX_ERROR;
    t->endpoint = json_pack("{s:s, s:s, s:o, s:s, s:s, s:o, s:s, s:b, s:n, s:n}", "id", id, "game", t->game_id,
                            "seat", t->seat >= 0 ? json_integer(t->seat) : json_null(), "url", t->spec->url, "format",
                            cd_wh_format_name(t->spec->format), "events", cd_wh_events_json(t->spec->events),
                            "created_at", created_at, "enabled", 1, "disabled_at", "disabled_reason");
    if (!t->endpoint)
        return CD_TX_ERROR;
    /* an admin's creation is audited in its transaction: no endpoint without its row */
    if (t->seat < 0 && !cd_audit_write(t->req, db, NULL, t->game_id, json_pack("{s:s}", "webhook", id), NULL))
        return CD_TX_ERROR;
    return CD_TX_COMMIT;
}

enum MHD_Result h_webhooks_create(cd_req *r)
{
    cd_db *db;
    int viewer;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer))
        return MHD_YES;
    char bearer_hash[CD_HEX256_LEN] = "";
    if (viewer >= 0)
        cd_req_bearer_hash(r, bearer_hash);
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    cd_wh_spec spec;
    cd_wh_error err;
    enum MHD_Result ret = MHD_YES;
    if (!cd_wh_spec_parse(body, "", CD_WH_ALL_EVENTS, &spec, &err)) {
        cd_reply_wh_error(r, &err);
        goto out;
    }
    char secret[CD_WH_SECRET_LEN + 1];
    cd_wh_secret_new(secret);
    create_tx t = {.req = r, .game_id = r->params[0], .seat = viewer >= 0 ? viewer : -1, .spec = &spec,
                   .secret = secret, .bearer_hash = bearer_hash};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_create, &t, &down);
    for (int tries = 1; tr == CD_TX_ROLLBACK && t.moved && tries < CD_SEAT_TRIES; tries++) {   /* request.h */
        if (!cd_wh_caller(r, r->params[0], &db, &viewer))
            goto out;
        t.seat = viewer;
        tr = cd_db_tx(db, run_create, &t, &down);
    }
    if (tr == CD_TX_ROLLBACK && t.moved) {
        ret = cd_reply_seat_moved(r);
    } else if (tr == CD_TX_COMMIT) {
        json_object_set_new(t.endpoint, "secret", json_string(secret));
        char location[160];
        snprintf(location, sizeof location, "/v1/games/%s/webhooks/%s", r->params[0],
                 json_string_value(json_object_get(t.endpoint, "id")));
        const char *headers[] = {"Location", location, NULL};
        ret = cd_reply_json(r, 201, t.endpoint, headers);
        t.endpoint = NULL;
    } else {
        ret = cd_reply_refusal_or_failure(r, &t.no, down, "the webhook could not be stored");
    }
    json_decref(t.endpoint);
out:
    json_decref(body);
    return ret;
}

/* ---- GET /v1/games/{id}/webhooks -------------------------------------------------------------------------- */
enum MHD_Result h_webhooks_list(cd_req *r)
{
    cd_db *db;
    int viewer;
    const char *id = r->params[0];
    if (!cd_wh_caller(r, id, &db, &viewer))
        return MHD_YES;
    cd_endpoint_rows rows;
    cd_q q = cd_endpoints_list(db, id, viewer >= 0 ? viewer : -1, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "listing webhooks failed");
    int n = rows.n;
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, endpoint_json(&rows.v[i], id));
    cd_endpoint_rows_free(&rows);
    if (n == 0 && viewer == CARC_VIEW_ADMIN) {
        /* a seat token proves the game exists; the admin's does not: every game has seats */
        int seats = 0;
        q = cd_seats_count(db, id, &seats);
        if (q != CD_Q_OK) {
            json_decref(list);
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "listing webhooks failed");
        }
        if (seats == 0) {
            json_decref(list);
            return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        }
    }
    if (!cd_wh_audit(r, db, viewer, id, NULL, json_pack("{s:i}", "count", n))) {
        json_decref(list);
        return MHD_YES;
    }
    return cd_reply_json(r, 200, json_pack("{s:o}", "webhooks", list), NULL);
}

/* ---- GET and DELETE /v1/games/{id}/webhooks/{wid} ------------------------------------------------------------ */
enum MHD_Result h_webhook_get(cd_req *r)
{
    cd_db *db;
    int viewer;
    cd_wh_endpoint e;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer) || !cd_wh_endpoint_load(r, db, r->params[0], r->params[1], viewer, &e))
        return MHD_YES;
    if (!cd_wh_audit(r, db, viewer, r->params[0], e.id, NULL)) {
        json_decref(e.json);
        return MHD_YES;
    }
    return cd_reply_json(r, 200, e.json, NULL);
}

enum MHD_Result h_webhook_delete(cd_req *r)
{
    cd_db *db;
    int viewer;
    cd_wh_endpoint e;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer) || !cd_wh_endpoint_load(r, db, r->params[0], r->params[1], viewer, &e))
        return MHD_YES;
    json_decref(e.json);
    if (!cd_wh_audit(r, db, viewer, r->params[0], e.id, NULL))
        return MHD_YES;
    cd_q q = cd_endpoint_delete(db, r->params[0], e.id);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "deleting the webhook failed");
    return cd_reply_empty(r, 204, NULL);
}
