/*
 * webhook_deliveries.c — see webhook_deliveries.h.
 */
#include "webhook_deliveries.h"

#include <stdio.h>

#include "query.h"

static cd_q delivery_rows(cd_db *db, int stmt, int n, const char *const *p, cd_delivery_rows *out)
{
    *out = (cd_delivery_rows){0};
    PGresult *res = cd_db_exec(db, stmt, n, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    out->res = res;
    out->n = PQntuples(res);
    out->v = calloc((size_t)out->n + 1, sizeof *out->v);
    if (!out->v)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < out->n; i++) {
        cd_delivery_row *d = &out->v[i];
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
    return CD_Q_OK;
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
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_delivery_rows){0};
}

cd_q cd_delivery_redeliver(cd_db *db, const char *endpoint_id, const char *id, bool *found)
{
    const char *p[] = {endpoint_id, id};
    PGresult *res = cd_db_exec(db, ST_WH_REDELIVER, 2, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res))
        q = cd_q_failed(db, res);
    else
        *found = PQntuples(res) == 1;
    PQclear(res);
    return q;
}

void cd_deliveries_wake(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    PQclear(cd_db_exec(db, ST_WH_NOTIFY, 1, p));
}
