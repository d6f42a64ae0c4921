/*
 * webhook_outbox.c — see webhook_outbox.h.
 */
#include "webhook_outbox.h"

#include <stdio.h>

#include "query.h"

cd_q cd_endpoints_active(cd_db *db, const char *game_id, cd_active_endpoint_rows *out)
{
    *out = (cd_active_endpoint_rows){0};
    const char *p[] = {game_id};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINTS_ACTIVE, 1, p);
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
        out->v[i].id = PQgetvalue(res, i, 0);
        out->v[i].seat = cd_q_int(res, i, 1, -1);
        out->v[i].format = PQgetvalue(res, i, 2);
        out->v[i].events = PQgetvalue(res, i, 3);
    }
    return CD_Q_OK;
}

void cd_active_endpoint_rows_free(cd_active_endpoint_rows *rows)
{
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_active_endpoint_rows){0};
}

cd_q cd_seat_names_read(cd_db *db, const char *game_id, cd_seat_names *out)
{
    *out = (cd_seat_names){0};
    const char *p[] = {game_id};
    PGresult *res = cd_db_exec(db, ST_SEATS_OF_GAME, 1, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    out->res = res;
    out->n = PQntuples(res);
    out->name = calloc((size_t)out->n + 1, sizeof *out->name);
    if (!out->name)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < out->n; i++)
        out->name[i] = PQgetvalue(res, i, 1);
    return CD_Q_OK;
}

void cd_seat_names_free(cd_seat_names *names)
{
    free(names->name);
    PQclear(names->res);
    *names = (cd_seat_names){0};
}

bool cd_outbox_insert_deferred(cd_db *db, const char *endpoint_id, const char *msg_id, const char *event,
                               const char *game_id, int seq, const char *body, double delay_s)
{
    char seqs[16], delay[32];
    snprintf(seqs, sizeof seqs, "%d", seq);
    snprintf(delay, sizeof delay, "%.3f", delay_s);
    const char *p[] = {endpoint_id, msg_id, event, game_id, seqs, body, delay};
    return cd_db_defer(db, ST_WH_OUTBOX_INSERT, 7, p);
}

bool cd_outbox_wake_deferred(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    return cd_db_defer(db, ST_WH_NOTIFY, 1, p);
}
