/*
 * query.h — what the query files of db/ share (internal to db/): the failure of a statement as a cd_q, and a
 * column's text. Outside db/ nobody sees a PGresult.
 */
#ifndef CD_QUERY_H
#define CD_QUERY_H

#include <libpq-fe.h>
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

#endif
