/*
 * db.h — PostgreSQL access: one libpq connection per worker thread, statements prepared once per
 * connection, and a transaction runner that retries on serialization failure and deadlock.
 *
 * Every SQL statement the daemon runs is one row of the statement table (store.c), named by a cd_stmt;
 * no SQL text lives in handlers. Connections are made on first use by a thread and remade after they
 * break, so a database restart costs the requests made while it is down (503) and nothing else.
 */
#ifndef CD_DB_H
#define CD_DB_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

typedef struct cd_db cd_db;

typedef struct {
    const char *name;   /* prepared statement name */
    const char *sql;
    int nparams;
} cd_stmt_info;

/* The statement table, indexed by cd_stmt (store.h). */
extern const cd_stmt_info cd_stmts[];
extern const int cd_nstmts;

/* This thread's connection: connected (and statements prepared) on first use, reconnected when it has
 * broken. NULL when the database cannot be reached (err says why; answer 503). */
cd_db *cd_db_thread(const cd_config *cfg, char *err, size_t errlen);
/* Every thread's connection is checked (what arrived read, then a SELECT 1) at its next cd_db_thread, and
 * remade if it is dead: the notify thread calls it when it loses its LISTEN connection, since a server
 * restart kills the idle connections of every worker as well. */
void cd_db_suspect_all(void);
/* Closes this thread's connection (shutdown; a thread that exits without it has it closed for it). */
void cd_db_thread_close(void);
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

/* The last failure of this thread's connection since its cd_db_thread (so: of the current request): its
 * SQLSTATE ("" when libpq gave none: the connection was lost), the server's message, and whether it is a
 * state a client can wait out (answer 503 with Retry-After: read-only database, disk full, shutdown, lost
 * connection; not a refused privilege or a bug). false when nothing failed. */
typedef struct {
    char sqlstate[6];
    char message[256];
    bool wait_out;
    bool refuses_writes;   /* of those, the ones where reads still work: read-only (25006), out of resources (53xxx) */
} cd_db_error;
bool cd_db_last_error(cd_db_error *e);

typedef enum {
    CD_TX_COMMIT,     /* commit; the caller's reply is the success answer */
    CD_TX_ROLLBACK,   /* roll back: the request failed for a reason of its own (409, 422 ...) */
    CD_TX_ERROR,      /* a statement failed: roll back; retried when its SQLSTATE is 40001 or 40P01 */
} cd_tx_result;

typedef cd_tx_result (*cd_tx_fn)(cd_db *db, void *arg);
/* BEGIN; fn; COMMIT or ROLLBACK, in libpq's pipeline mode: BEGIN goes out with fn's first statement and
 * COMMIT with its deferred writes (cd_db_defer), so a transaction that reads once and then writes is two
 * round trips. fn may run again (from scratch, after a rollback) up to 5 times on
 * serialization failure or deadlock, so it must keep its effects in `arg` idempotent per attempt.
 * Returns what fn returned last, or CD_TX_ERROR when COMMIT itself failed. `db_unavailable` is set
 * when the failure was the database being unreachable. */
cd_tx_result cd_db_tx(cd_db *db, cd_tx_fn fn, void *arg, bool *db_unavailable);

/* Migrations (migrate.c): the numbered files of sql/, compiled in. */
/* Applies every migration newer than the database's, under an advisory lock. 0 or -1 with err. */
int cd_migrate(const cd_config *cfg, char *err, size_t errlen);
/* 0 when the database's schema is the newest this binary knows; -1 with err otherwise. */
int cd_schema_check(const cd_config *cfg, char *err, size_t errlen);

#endif
