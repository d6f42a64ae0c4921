/*
 * query.c — the shapes of a query that the query files of db/ share (see query.h).
 */
#include "query.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

void cd_q_id_column(const PGresult *res, int i, void *row)
{
    snprintf(row, 37, "%s", PQgetvalue(res, i, 0));
}

cd_q cd_q_take(cd_db *db, PGresult *res, PGresult **kept)
{
    *kept = NULL;
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    *kept = res;
    return CD_Q_OK;
}

cd_q cd_q_many(cd_db *db, int n, const cd_db_call *calls, PGresult **out)
{
    if (cd_db_exec_many(db, n, calls, out))
        return CD_Q_OK;
    int i = 0;
    while (i < n - 1 && cd_db_ok(out[i]))
        i++;
    return cd_q_failed(db, out[i]);
}

cd_q cd_q_run(cd_db *db, int stmt, int nparams, const char *const *params)
{
    PGresult *res = cd_db_exec(db, stmt, nparams, params);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}

cd_q cd_q_count(cd_db *db, int stmt, int nparams, const char *const *params, int *nrows)
{
    PGresult *res;
    cd_q q = cd_q_result(db, stmt, nparams, params, &res);
    if (q == CD_Q_OK)
        *nrows = PQntuples(res);
    PQclear(res);
    return q;
}

cd_q cd_q_changed(cd_db *db, int stmt, int nparams, const char *const *params, int *nchanged)
{
    PGresult *res;
    cd_q q = cd_q_result(db, stmt, nparams, params, &res);
    *nchanged = q == CD_Q_OK ? atoi(PQcmdTuples(res)) : 0;
    PQclear(res);
    return q;
}

cd_q cd_q_one(cd_db *db, int stmt, int nparams, const char *const *params, bool *found, cd_q_fill *fill,
              void *row)
{
    PGresult *res = cd_db_exec(db, stmt, nparams, params);
    cd_q q = CD_Q_OK;
    bool there = false;
    /* the wrong number of rows, when exactly one was wanted, is a failed statement (cd_q_failed tells
     * whether the connection is gone; with a good result it says CD_Q_FAILED) */
    if (!cd_db_ok(res) || (!found && PQntuples(res) != 1))
        q = cd_q_failed(db, res);
    else if ((there = PQntuples(res) > 0) && fill)
        fill(res, 0, row);
    if (found)
        *found = there;
    PQclear(res);
    return q;
}

cd_q cd_q_rows_of(cd_db *db, PGresult *res, size_t row_size, cd_q_fill *fill, cd_q_rowset *out)
{
    assert(row_size > 0 && fill);
    *out = (cd_q_rowset){0};
    cd_q q = cd_q_take(db, res, &res);
    if (q != CD_Q_OK)
        return q;
    int n = PQntuples(res);
    char *v = calloc((size_t)n + 1, row_size);
    if (!v)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < n; i++)
        fill(res, i, v + (size_t)i * row_size);
    *out = (cd_q_rowset){v, n, res};
    return CD_Q_OK;
}
