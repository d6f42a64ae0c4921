/*
 * webhook_deliveries.c — what was sent to a webhook endpoint, for its owner and admins:
 *   GET  /v1/games/{id}/webhooks/{wid}/deliveries                  newest first, ?limit=1..200 (50) and
 *                                                                  ?before=<next_cursor> to page
 *   POST /v1/games/{id}/webhooks/{wid}/deliveries/{did}/redeliver  sends a message again: a new round of
 *                                                                  the schedule, the same webhook-id and body
 * A delivery is one message to one endpoint (a webhook_outbox row) with every attempt made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/games.h"
#include "handlers.h"
#include "db/store.h"
#include "webhooks/webhooks.h"

#define LIST_DEFAULT 50
#define LIST_MAX 200

static json_t *str_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_string(PQgetvalue(res, i, col));
}

/* A row of WH_DELIVERY_COLUMNS (store.c) as answered. */
static json_t *delivery_json(const PGresult *res, int i)
{
    json_t *attempts = json_loads(PQgetvalue(res, i, 10), 0, NULL);
    json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "id",
                          (json_int_t)strtoll(PQgetvalue(res, i, 0), NULL, 10), "webhook_id", PQgetvalue(res, i, 1),
                          "event", PQgetvalue(res, i, 2), "seq", atoi(PQgetvalue(res, i, 3)), "state",
                          PQgetvalue(res, i, 4), "created_at", PQgetvalue(res, i, 5), "next_attempt_at",
                          str_or_null(res, i, 6), "delivered_at", str_or_null(res, i, 7), "last_status",
                          PQgetisnull(res, i, 8) ? json_null() : json_integer(atoi(PQgetvalue(res, i, 8))),
                          "last_error", str_or_null(res, i, 9), "attempts", attempts ? attempts : json_array());
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

/* A positive integer id of at most 18 digits, or -1. */
static long long parse_id(const char *s)
{
    if (!s || !*s || strlen(s) > 18)
        return -1;
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    long long v = strtoll(s, NULL, 10);
    return v > 0 ? v : -1;
}

enum MHD_Result h_webhook_deliveries(cd_req *r)
{
    const char *before = cd_req_arg(r, "before");
    if (before && parse_id(before) < 0)
        return cd_reply_problem(r, CD_P_INVALID, "before", "before: not a cursor this server gave out");
    long limit;
    if (!cd_req_limit(r, LIST_DEFAULT, LIST_MAX, &limit))
        return MHD_YES;
    cd_db *db;
    int viewer;
    cd_wh_endpoint e;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer) || !cd_wh_endpoint_load(r, db, r->params[0], r->params[1], viewer, &e))
        return MHD_YES;
    json_decref(e.json);
    if (!cd_wh_audit(r, db, viewer, r->params[0], e.id, before ? json_pack("{s:s}", "before", before) : NULL))
        return MHD_YES;
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit + 1);   /* one more tells whether a next page exists */
    const char *p[] = {e.id, before, lim};
    PGresult *res = cd_db_exec(db, ST_WH_DELIVERIES, 3, p);
    if (!cd_db_ok(res))
        return reply_db_error(r, db, res, "listing deliveries failed");
    int n = PQntuples(res);
    json_t *list = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(list, delivery_json(res, i));
    json_t *next = n > limit ? json_string(PQgetvalue(res, (int)limit - 1, 0)) : json_null();
    PQclear(res);
    return cd_reply_json(r, 200, json_pack("{s:s, s:o, s:o}", "webhook", e.id, "deliveries", list, "next_cursor", next),
                         NULL);
}

enum MHD_Result h_webhook_redeliver(cd_req *r)
{
    cd_db *db;
    int viewer;
    cd_wh_endpoint e;
    if (!cd_wh_caller(r, r->params[0], &db, &viewer) || !cd_wh_endpoint_load(r, db, r->params[0], r->params[1], viewer, &e))
        return MHD_YES;
    json_decref(e.json);
    if (parse_id(r->params[2]) < 0)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no delivery with that id");
    if (e.disabled)
        return cd_reply_problem(r, CD_P_WEBHOOK_DISABLED, NULL,
                                "the endpoint was disabled (its receiver answered 410 Gone): create a new one");
    if (!cd_wh_audit(r, db, viewer, r->params[0], e.id, json_pack("{s:s}", "delivery", r->params[2])))
        return MHD_YES;
    const char *p[] = {e.id, r->params[2]};
    PGresult *res = cd_db_exec(db, ST_WH_REDELIVER, 2, p);
    if (!cd_db_ok(res))
        return reply_db_error(r, db, res, "redelivering failed");
    bool found = PQntuples(res) == 1;
    PQclear(res);
    if (!found)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no delivery with that id for this webhook");
    const char *pn[] = {r->params[0]};
    PQclear(cd_db_exec(db, ST_WH_NOTIFY, 1, pn));   /* a lost wake-up costs at most a second */
    res = cd_db_exec(db, ST_WH_DELIVERY_GET, 2, p);
    if (!cd_db_ok(res) || PQntuples(res) != 1)
        return reply_db_error(r, db, res, "reading the delivery failed");
    json_t *d = delivery_json(res, 0);
    PQclear(res);
    return cd_reply_json(r, 202, d, NULL);
}
