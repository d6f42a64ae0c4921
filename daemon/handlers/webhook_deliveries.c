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
#include "handlers/webhooks.h"
#include "db/webhook_deliveries.h"
#include "webhooks/webhooks.h"

#define LIST_DEFAULT 50
#define LIST_MAX 200

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* A delivery as answered. */
static json_t *delivery_json(const cd_delivery_row *d)
{
    json_t *attempts = json_loads(d->attempts, 0, NULL);
    json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "id", (json_int_t)d->id,
                          "webhook_id", d->msg_id, "event", d->event, "seq", d->seq, "state", d->state, "created_at",
                          d->created_at, "next_attempt_at", str_or_null(d->next_attempt_at), "delivered_at",
                          str_or_null(d->delivered_at), "last_status",
                          d->has_status ? json_integer(d->last_status) : json_null(), "last_error",
                          str_or_null(d->last_error), "attempts", attempts ? attempts : json_array());
    if (!o)
        abort();
    return o;
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
    cd_delivery_rows rows;   /* one more than a page tells whether a next page exists */
    cd_q q = cd_deliveries_list(db, e.id, before, limit + 1, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "listing deliveries failed");
    int n = rows.n;
    json_t *list = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(list, delivery_json(&rows.v[i]));
    json_t *next = n > limit ? json_string(rows.v[limit - 1].id_text) : json_null();
    cd_delivery_rows_free(&rows);
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
    bool found = false;
    cd_q q = cd_delivery_redeliver(db, e.id, r->params[2], &found);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "redelivering failed");
    if (!found)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no delivery with that id for this webhook");
    cd_deliveries_wake(db, r->params[0]);   /* a lost wake-up costs at most a second */
    cd_delivery_rows rows;
    q = cd_delivery_get(db, e.id, r->params[2], &rows);
    if (q != CD_Q_OK || rows.n != 1) {
        if (q == CD_Q_OK)
            cd_delivery_rows_free(&rows);
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "reading the delivery failed");
    }
    json_t *d = delivery_json(&rows.v[0]);
    cd_delivery_rows_free(&rows);
    return cd_reply_json(r, 202, d, NULL);
}
