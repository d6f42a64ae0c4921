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
#include "db/store.h"
#include "webhooks/webhooks.h"

static json_t *str_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_string(PQgetvalue(res, i, col));
}

/* A row of WH_ENDPOINT_COLUMNS (store.c) as answered. */
static json_t *endpoint_json(const PGresult *res, int i, const char *game_id)
{
    char events[160];
    snprintf(events, sizeof events, "{%s}", PQgetvalue(res, i, 4));
    json_t *o = json_pack("{s:s, s:s, s:o, s:s, s:s, s:o, s:s, s:b, s:o, s:o}", "id", PQgetvalue(res, i, 0), "game",
                          game_id, "seat",
                          PQgetisnull(res, i, 1) ? json_null() : json_integer(atoi(PQgetvalue(res, i, 1))), "url",
                          PQgetvalue(res, i, 2), "format", PQgetvalue(res, i, 3), "events",
                          cd_wh_events_json(cd_wh_events_from_pg(events)), "created_at", PQgetvalue(res, i, 5),
                          "enabled", PQgetisnull(res, i, 6), "disabled_at", str_or_null(res, i, 6),
                          "disabled_reason", str_or_null(res, i, 7));
    if (!o)
        abort();
    return o;
}

static enum MHD_Result reply_db_error(cd_req *r, cd_db *db, PGresult *res, const char *what)
{
    bool down = cd_db_unavailable(db, res);
    PQclear(res);
    return cd_reply_db_failure(r, down, what);
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
    const char *p[] = {game_id, wid};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINT_GET, 2, p);
    if (!cd_db_ok(res)) {
        reply_db_error(r, db, res, "reading the webhook failed");
        return false;
    }
    int seat = PQntuples(res) == 1 && !PQgetisnull(res, 0, 1) ? atoi(PQgetvalue(res, 0, 1)) : -1;
    if (PQntuples(res) != 1 || (viewer != CARC_VIEW_ADMIN && seat != viewer)) {
        PQclear(res);
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no webhook with that id (of yours) in this game");
        return false;
    }
    snprintf(out->id, sizeof out->id, "%s", PQgetvalue(res, 0, 0));
    out->seat = seat;
    out->disabled = !PQgetisnull(res, 0, 6);
    out->json = endpoint_json(res, 0, game_id);
    PQclear(res);
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
    /* out */
    cd_problem problem;           /* when refused */
    char detail[160];
    json_t *endpoint;             /* owned */
} create_tx;

static cd_tx_result refuse(create_tx *t, cd_problem p, const char *detail)
{
    t->problem = p;
    snprintf(t->detail, sizeof t->detail, "%s", detail);
    return CD_TX_ROLLBACK;
}

static cd_tx_result run_create(cd_db *db, void *arg)
{
    create_tx *t = arg;
    json_decref(t->endpoint);
    t->endpoint = NULL;
    t->problem = CD_NPROBLEMS;
    /* the game row locked: a move commits entirely before or after the endpoint exists */
    const char *p1[] = {t->game_id};
    PGresult *res = cd_db_exec(db, ST_WH_GAME_FOR_HOOK, 1, p1);
    if (!cd_db_ok(res)) {
        PQclear(res);
        return CD_TX_ERROR;
    }
    cd_tx_result out;
    if (PQntuples(res) == 0)
        out = refuse(t, CD_P_NOT_FOUND, "no game with that id");
    else if (strcmp(PQgetvalue(res, 0, 0), "finished") == 0)
        out = refuse(t, CD_P_GAME_OVER, "the game is over: it will send nothing more");
    else if (atoi(PQgetvalue(res, 0, 1)) >= CD_WH_MAX_PER_GAME)
        out = refuse(t, CD_P_TOO_MANY_WEBHOOKS, "a game has at most 16 webhook endpoints");
    else
        out = CD_TX_COMMIT;
    PQclear(res);
    if (out != CD_TX_COMMIT)
        return out;
    char seat[16], events[128];
    snprintf(seat, sizeof seat, "%d", t->seat);
    cd_wh_events_pg(t->spec->events, events, sizeof events);
    const char *p2[] = {t->game_id, t->seat >= 0 ? seat : NULL, t->spec->url, cd_wh_format_name(t->spec->format),
                        events, t->secret};
    res = cd_db_exec(db, ST_WH_ENDPOINT_INSERT, 6, p2);
    if (!cd_db_ok(res) || PQntuples(res) != 1) {
        PQclear(res);
        return CD_TX_ERROR;
    }
    t->endpoint = json_pack("{s:s, s:s, s:o, s:s, s:s, s:o, s:s, s:b, s:n, s:n}", "id", PQgetvalue(res, 0, 0),
                            "game", t->game_id, "seat", t->seat >= 0 ? json_integer(t->seat) : json_null(), "url",
                            t->spec->url, "format", cd_wh_format_name(t->spec->format), "events",
                            cd_wh_events_json(t->spec->events), "created_at", PQgetvalue(res, 0, 1), "enabled", 1,
                            "disabled_at", "disabled_reason");
    PQclear(res);
    if (!t->endpoint)
        return CD_TX_ERROR;
    /* an admin's creation is audited in its transaction: no endpoint without its row */
    if (t->seat < 0 && !cd_audit_write(t->req, db, NULL, t->game_id,
                                       json_pack("{s:s}", "webhook",
                                                 json_string_value(json_object_get(t->endpoint, "id"))),
                                       NULL))
        return CD_TX_ERROR;
    return CD_TX_COMMIT;
}

enum MHD_Result h_webhooks_create(cd_req *r)
{
    cd_db *db;
    int viewer;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer))
        return MHD_YES;
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    cd_wh_spec spec;
    enum MHD_Result ret = MHD_YES;
    if (!cd_wh_spec_parse(r, body, "", CD_WH_ALL_EVENTS, &spec))
        goto out;
    char secret[CD_WH_SECRET_LEN + 1];
    cd_wh_secret_new(secret);
    create_tx t = {.req = r, .game_id = r->params[0], .seat = viewer >= 0 ? viewer : -1, .spec = &spec, .secret = secret};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_create, &t, &down);
    if (tr == CD_TX_COMMIT) {
        json_object_set_new(t.endpoint, "secret", json_string(secret));
        char location[160];
        snprintf(location, sizeof location, "/v1/games/%s/webhooks/%s", r->params[0],
                 json_string_value(json_object_get(t.endpoint, "id")));
        const char *headers[] = {"Location", location, NULL};
        ret = cd_reply_json(r, 201, t.endpoint, headers);
        t.endpoint = NULL;
    } else if (tr == CD_TX_ROLLBACK && t.problem != CD_NPROBLEMS) {
        ret = cd_reply_problem(r, t.problem, NULL, "%s", t.detail);
    } else {
        ret = cd_reply_db_failure(r, down, "the webhook could not be stored");
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
    char seat[16];
    snprintf(seat, sizeof seat, "%d", viewer);
    const char *p[] = {id, viewer >= 0 ? seat : NULL};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINTS_LIST, 2, p);
    if (!cd_db_ok(res))
        return reply_db_error(r, db, res, "listing webhooks failed");
    int n = PQntuples(res);
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, endpoint_json(res, i, id));
    PQclear(res);
    if (n == 0 && viewer == CARC_VIEW_ADMIN) {
        /* a seat token proves the game exists; the admin's does not: every game has seats */
        const char *p2[] = {id};
        res = cd_db_exec(db, ST_SEATS_OF_GAME, 1, p2);
        if (!cd_db_ok(res)) {
            json_decref(list);
            return reply_db_error(r, db, res, "listing webhooks failed");
        }
        bool none = PQntuples(res) == 0;
        PQclear(res);
        if (none) {
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
    const char *p[] = {r->params[0], e.id};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINT_DELETE, 2, p);
    if (!cd_db_ok(res))
        return reply_db_error(r, db, res, "deleting the webhook failed");
    PQclear(res);
    return cd_reply_empty(r, 204, NULL);
}
