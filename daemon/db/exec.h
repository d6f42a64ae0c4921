/*
 * exec.h — running statements with libpq: the part of db.c (its implementation) that only db/ and tests/db
 * use. The query files
 * of db/ build on it (query.h); the layers above call them and never see a PGresult.
 */
#ifndef CD_EXEC_H
#define CD_EXEC_H

#include <libpq-fe.h>
#include <stdbool.h>

typedef struct cd_db cd_db;   /* db.h: this thread's connection (C11 allows the repeated typedef) */

/* A new connection of its own (not the thread's), with carcd's defaults: application_name carcd and a
 * 5 s connect_timeout, unless the URL says otherwise. Never NULL: check PQstatus. The caller PQfinish()es
 * it. For migrations, the notify listener and tools; requests use cd_db_thread. */
PGconn *cd_db_connect(const char *url);

/* Runs a prepared statement with text parameters (NULL = SQL NULL). Never returns NULL: on failure the
 * result has an error status; cd_db_ok tells. The caller PQclear()s it. */
PGresult *cd_db_exec(cd_db *db, int stmt, int nparams, const char *const *values);
/* One statement of a batch: cd_db_exec's arguments. */
typedef struct {
    int stmt;
    int nparams;
    const char *const *values;
} cd_db_call;
/* Inside cd_db_tx: runs n statements in one round trip (they are pipelined; each still starts after the one
 * before it has finished, with its own snapshot). out[i] gets each result, never NULL; the caller PQclear()s
 * them. After a failed statement the later ones come back PGRES_PIPELINE_ABORTED. true when all succeeded.
 * Outside a transaction they run one after another. */
bool cd_db_exec_many(cd_db *db, int n, const cd_db_call *calls, PGresult **out);
/* Inside cd_db_tx: queues a statement whose rows nobody reads (an INSERT, an UPDATE, a NOTIFY). It is sent
 * with the next statement, or with the COMMIT; if it fails, that statement (or the commit) fails with its
 * SQLSTATE, and the transaction is rolled back (and retried on 40001/40P01) as for any failed statement.
 * The values are copied: they may be freed on return. false only when it could not be sent (the connection
 * is gone). Outside a transaction it runs at once. */
bool cd_db_defer(cd_db *db, int stmt, int nparams, const char *const *values);

/* PGRES_COMMAND_OK or PGRES_TUPLES_OK. */
bool cd_db_ok(const PGresult *res);
/* Whether the error in res (or the connection) means the database is unreachable (answer 503). */
bool cd_db_unavailable(cd_db *db, const PGresult *res);

#endif
