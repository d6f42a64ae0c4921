/*
 * gauges.c — see gauges.h.
 */
#include "gauges.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    /* the time of the clocks is PostgreSQL's: the worker's time source can be a test's file (timesrc.h), so
     * how overdue a clock is reads the worker's lag only with the real clock */
    {ST_GAUGES, "gauges",
                "SELECT (SELECT count(*) FROM games WHERE status = 'active'), "
                "(SELECT count(*) FROM games WHERE status = 'finished'), "
                "o.n, COALESCE(EXTRACT(EPOCH FROM now() - o.oldest)::float8, 0), c.n, "
                "COALESCE(EXTRACT(EPOCH FROM now() - c.oldest)::float8, 0), "
                "(SELECT count(*) FROM games WHERE status = 'waiting'), "
                "(SELECT count(*) FROM games WHERE status = 'cancelled') "
                "FROM (SELECT count(*) AS n, min(created_at) AS oldest FROM webhook_outbox "
                "WHERE state = 'pending') o, "
                "(SELECT count(*) AS n, min(clock_due) AS oldest FROM games WHERE status = 'active' "
                "AND clock_due <= now()) c",
                0},
};
const cd_stmt_family cd_stmts_gauges = {stmts, sizeof stmts / sizeof stmts[0]};

bool cd_db_gauges_read(cd_db *db, cd_db_gauges *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res = cd_db_exec(db, ST_GAUGES, 0, NULL);
    bool ok = cd_db_ok(res) && PQntuples(res) == 1 && PQnfields(res) == 8;
    if (ok) {
        out->games_active = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        out->games_finished = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
        out->outbox_pending = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
        out->outbox_oldest_age_s = strtod(PQgetvalue(res, 0, 3), NULL);
        out->clocks_overdue = strtoll(PQgetvalue(res, 0, 4), NULL, 10);
        out->clocks_overdue_max_s = strtod(PQgetvalue(res, 0, 5), NULL);
        out->games_waiting = strtoll(PQgetvalue(res, 0, 6), NULL, 10);
        out->games_cancelled = strtoll(PQgetvalue(res, 0, 7), NULL, 10);
    }
    PQclear(res);
    return ok;
}
