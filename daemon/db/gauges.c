/*
 * gauges.c — see gauges.h.
 */
#include "gauges.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"

bool cd_db_gauges_read(cd_db *db, cd_db_gauges *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res = cd_db_exec(db, ST_GAUGES, 0, NULL);
    bool ok = cd_db_ok(res) && PQntuples(res) == 1 && PQnfields(res) == 6;
    if (ok) {
        out->games_active = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        out->games_finished = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
        out->outbox_pending = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
        out->outbox_oldest_age_s = strtod(PQgetvalue(res, 0, 3), NULL);
        out->clocks_overdue = strtoll(PQgetvalue(res, 0, 4), NULL, 10);
        out->clocks_overdue_max_s = strtod(PQgetvalue(res, 0, 5), NULL);
    }
    PQclear(res);
    return ok;
}
