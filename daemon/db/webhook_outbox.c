/*
 * webhook_outbox.c — see webhook_outbox.h.
 */
#include "webhook_outbox.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    /* an endpoint whose seat went before the start (sql/033) hears the event of the transaction that let it go
     * only (its player.left): the row's xmin is this transaction's id exactly when this transaction wrote it.
     * (gone_at = now(), the transaction's start, would also match another that started in the same
     * microsecond.) Nothing writes a gone endpoint's row after that but the sender's 410, which fans out nothing */
    {ST_WH_ENDPOINTS_ACTIVE, "wh_endpoints_active",
                             "SELECT id, seat, format, array_to_string(events, ',') FROM webhook_endpoints "
                             "WHERE game_id = $1::uuid AND disabled_at IS NULL "
                             "AND (gone_at IS NULL OR xmin = pg_current_xact_id()::xid) ORDER BY created_at, id",
                             1},
    {ST_WH_OUTBOX_INSERT, "wh_outbox_insert",
                          "INSERT INTO webhook_outbox (endpoint_id, msg_id, event, game_id, seq, body, due_at) "
                          "VALUES ($1::uuid, $2, $3, $4::uuid, $5::integer, $6, "
                          "now() + $7::double precision * interval '1 second')",
                          7},
    {ST_WH_NOTIFY, "wh_notify", "SELECT pg_notify('carcd_webhooks', $1)", 1},
};
const cd_stmt_family cd_stmts_webhook_outbox = {stmts, sizeof stmts / sizeof stmts[0]};

static void active_endpoint_row(const PGresult *res, int i, void *row)
{
    cd_active_endpoint_row *e = row;
    e->id = PQgetvalue(res, i, 0);
    e->seat = cd_q_int(res, i, 1, -1);
    e->format = PQgetvalue(res, i, 2);
    e->events = PQgetvalue(res, i, 3);
}

cd_q cd_endpoints_active(cd_db *db, const char *game_id, cd_active_endpoint_rows *out)
{
    const char *p[] = {game_id};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_WH_ENDPOINTS_ACTIVE, 1, p, sizeof *out->v, active_endpoint_row, &r);
    *out = (cd_active_endpoint_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_active_endpoint_rows_free(cd_active_endpoint_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_active_endpoint_rows){0};
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
