/*
 * query.h — what the query files of db/ share (internal to db/): the failure of a statement as a cd_q, a
 * column's text, and the shapes nearly every query has (run and check; one row or maybe one; all the rows as
 * an array of typed rows). Outside db/ nobody sees a PGresult.
 */
#ifndef CD_QUERY_H
#define CD_QUERY_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "db.h"
#include "exec.h"
#include "store.h"

/* The cd_q of a statement that did not give what was wanted (failed, or the wrong number of rows). */
static inline cd_q cd_q_failed(cd_db *db, const PGresult *res)
{
    return cd_db_unavailable(db, res) ? CD_Q_DOWN : CD_Q_FAILED;
}

/* Row i, column c: its text, or NULL for SQL NULL. */
static inline const char *cd_q_text(const PGresult *res, int i, int c)
{
    return PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
}

/* Row i, column c as an int; `null` for SQL NULL. */
static inline int cd_q_int(const PGresult *res, int i, int c, int null)
{
    return PQgetisnull(res, i, c) ? null : atoi(PQgetvalue(res, i, c));
}

/* ---- the shapes of a query (query.c). Each costs one cd_db_exec round trip (or, inside cd_db_tx, the
 * statement's part of the pipeline) and nothing worth counting beside it: one indirect call per row. ---- */

/* Reads row i of res into *row (a query file's typed row). */
typedef void cd_q_fill(const PGresult *res, int i, void *row);

/* A fill for the commonest row: column 0 of row i (an id, a uuid's 36 characters) into the char[37] at row. */
void cd_q_id_column(const PGresult *res, int i, void *row);

/* Takes res (from cd_db_exec). Succeeded: *kept = res, which the caller now owns (PQclear). Failed: res is
 * cleared, *kept = NULL, and the answer is cd_q_failed's. For rows that point into the result. */
cd_q cd_q_take(cd_db *db, PGresult *res, PGresult **kept);
static inline cd_q cd_q_result(cd_db *db, int stmt, int nparams, const char *const *params, PGresult **kept)
{
    return cd_q_take(db, cd_db_exec(db, stmt, nparams, params), kept);
}

/* cd_db_exec_many's statements (inside cd_db_tx: one round trip) as a cd_q: CD_Q_OK when every one succeeded,
 * else the answer for the first that failed (the later ones come back aborted). out[i] are the caller's to
 * PQclear either way. */
cd_q cd_q_many(cd_db *db, int n, const cd_db_call *calls, PGresult **out);

/* Runs the statement for its effect; its rows (if any) are not read. */
cd_q cd_q_run(cd_db *db, int stmt, int nparams, const char *const *params);

/* Runs it; *nrows = how many rows it gave (untouched on failure). For "did it touch the row" (== 1). */
cd_q cd_q_count(cd_db *db, int stmt, int nparams, const char *const *params, int *nrows);

/* Runs an INSERT, UPDATE or DELETE without RETURNING; *nchanged = the rows it changed (0 on failure). */
cd_q cd_q_changed(cd_db *db, int stmt, int nparams, const char *const *params, int *nchanged);

/* Runs a statement that gives at most one row and reads row 0 with fill(res, 0, row) when there is one.
 * found non-NULL: *found = whether there was a row (false on failure). found NULL: exactly one row is wanted,
 * and none (or more than one) is CD_Q_FAILED. The result is cleared before return, so fill copies what it
 * keeps (into row's own buffers); fill may be NULL when only the row's presence matters. */
cd_q cd_q_one(cd_db *db, int stmt, int nparams, const char *const *params, bool *found, cd_q_fill *fill,
              void *row);

/* All the rows of a statement, as an array of typed rows that point into the result. */
typedef struct {
    void *v;        /* n + 1 rows of row_size bytes, zeroed, then filled (the extra one keeps calloc non-0) */
    int n;
    PGresult *res;  /* the rows' strings live here */
} cd_q_rowset;
/* Takes res (from cd_db_exec; see cd_q_take). Succeeded: out gets the rows, fill(res, i, row i) for each;
 * the caller owns both out->v (free) and out->res (PQclear): a family's *_rows_free does both. Failed: res
 * is cleared and *out = {0}. Out of memory aborts (docs/STYLE.md). Costs one calloc of (n + 1) rows. */
cd_q cd_q_rows_of(cd_db *db, PGresult *res, size_t row_size, cd_q_fill *fill, cd_q_rowset *out);
static inline cd_q cd_q_rows(cd_db *db, int stmt, int nparams, const char *const *params, size_t row_size,
                             cd_q_fill *fill, cd_q_rowset *out)
{
    return cd_q_rows_of(db, cd_db_exec(db, stmt, nparams, params), row_size, fill, out);
}

/* Frees what cd_q_rows gave (the rows, then the result they point into); NULLs are fine. */
static inline void cd_q_rows_release(void *v, PGresult *res)
{
    free(v);
    PQclear(res);
}

#endif
