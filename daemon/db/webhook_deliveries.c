/*
 * webhook_deliveries.c — see webhook_deliveries.h.
 */
#include "webhook_deliveries.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
/* a delivery: its state ("sending" while a worker holds its lease), and every attempt as a JSON array */
#define WH_DELIVERY_COLUMNS                                                                                  \
    "o.id, o.msg_id, o.event, o.seq, "                                                                       \
    "CASE WHEN o.state = 'pending' AND o.lease IS NOT NULL AND o.due_at > now() THEN 'sending' ELSE o.state END, " \
    CD_SQL_ISO("o.created_at") ", CASE WHEN o.state = 'pending' THEN " CD_SQL_ISO("o.due_at") " END, " CD_SQL_ISO("o.delivered_at")     \
    ", o.last_status, o.last_error, "                                                                        \
    "COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'worker', a.worker, 'started_at', "   \
    CD_SQL_ISO("a.started_at") ", 'finished_at', " CD_SQL_ISO("a.finished_at") ", 'duration_ms', a.duration_ms, 'status', "   \
    "a.status, 'error', a.error) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.outbox_id = o.id), '[]')"

static const cd_stmt_info stmts[] = {
    {ST_WH_DELIVERIES, "wh_deliveries",
                       "SELECT " WH_DELIVERY_COLUMNS " FROM webhook_outbox o WHERE o.endpoint_id = $1::uuid "
                       "AND ($2::bigint IS NULL OR o.id < $2::bigint) ORDER BY o.id DESC LIMIT $3::integer",
                       3},
    {ST_WH_DELIVERY_GET, "wh_delivery_get",
                         "SELECT " WH_DELIVERY_COLUMNS " FROM webhook_outbox o "
                         "WHERE o.endpoint_id = $1::uuid AND o.id = $2::bigint",
                         2},
    /* a new round: the schedule starts again, the message keeps its webhook-id and body */
    {ST_WH_REDELIVER, "wh_redeliver",
                      "UPDATE webhook_outbox SET state = 'pending', tries = 0, due_at = now(), lease = NULL, "
                      "delivered_at = NULL WHERE endpoint_id = $1::uuid AND id = $2::bigint RETURNING id",
                      2},
};
const cd_stmt_family cd_stmts_webhook_deliveries = {stmts, sizeof stmts / sizeof stmts[0]};

static void delivery_row(const PGresult *res, int i, void *row)
{
    cd_delivery_row *d = row;
    d->id_text = PQgetvalue(res, i, 0);
    d->id = strtoll(d->id_text, NULL, 10);
    d->msg_id = PQgetvalue(res, i, 1);
    d->event = PQgetvalue(res, i, 2);
    d->seq = atoi(PQgetvalue(res, i, 3));
    d->state = PQgetvalue(res, i, 4);
    d->created_at = PQgetvalue(res, i, 5);
    d->next_attempt_at = cd_q_text(res, i, 6);
    d->delivered_at = cd_q_text(res, i, 7);
    d->has_status = !PQgetisnull(res, i, 8);
    d->last_status = cd_q_int(res, i, 8, 0);
    d->last_error = cd_q_text(res, i, 9);
    d->attempts = PQgetvalue(res, i, 10);
}

static cd_q delivery_rows(cd_db *db, int stmt, int n, const char *const *p, cd_delivery_rows *out)
{
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, stmt, n, p, sizeof *out->v, delivery_row, &r);
    *out = (cd_delivery_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

cd_q cd_deliveries_list(cd_db *db, const char *endpoint_id, const char *before, long limit, cd_delivery_rows *out)
{
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {endpoint_id, before, lim};
    return delivery_rows(db, ST_WH_DELIVERIES, 3, p, out);
}

cd_q cd_delivery_get(cd_db *db, const char *endpoint_id, const char *id, cd_delivery_rows *out)
{
    const char *p[] = {endpoint_id, id};
    return delivery_rows(db, ST_WH_DELIVERY_GET, 2, p, out);
}

void cd_delivery_rows_free(cd_delivery_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_delivery_rows){0};
}

cd_q cd_delivery_redeliver(cd_db *db, const char *endpoint_id, const char *id, bool *found)
{
    const char *p[] = {endpoint_id, id};
    int n = 0;
    cd_q q = cd_q_count(db, ST_WH_REDELIVER, 2, p, &n);
    if (q == CD_Q_OK)
        *found = n == 1;
    return q;
}

void cd_deliveries_wake(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    PQclear(cd_db_exec(db, ST_WH_NOTIFY, 1, p));
}
