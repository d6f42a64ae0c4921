/*
 * db.h — PostgreSQL access: one libpq connection per worker thread, statements prepared once per
 * connection, and a transaction runner that retries on serialization failure and deadlock.
 *
 * Every SQL statement the daemon runs is one row of the statement family of the db/ file that runs it
 * (store.h), named by a cd_stmt, and is run by a query function of that file that hands back typed rows; outside db/ nobody sees libpq (the
 * statement runner is exec.h, for db/ and its tests). Connections are made on first use by a thread and remade after they
 * break, so a database restart costs the requests made while it is down (503) and nothing else.
 */
#ifndef CD_DB_H
#define CD_DB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

typedef struct cd_db cd_db;

/* This thread's connection: connected (and statements prepared) on first use, reconnected when it has
 * broken. NULL when the database cannot be reached (err says why; answer 503). */
cd_db *cd_db_thread(const cd_config *cfg, char *err, size_t errlen);
/* Every thread's connection is checked (what arrived read, then a SELECT 1) at its next cd_db_thread, and
 * remade if it is dead: the notify thread calls it when it loses its LISTEN connection, since a server
 * restart kills the idle connections of every worker as well. */
void cd_db_suspect_all(void);
/* Closes this thread's connection (shutdown; a thread that exits without it has it closed for it). */
void cd_db_thread_close(void);
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

/* The SQLSTATE of carcd_guard (sql/016_move_guard.sql): a transaction sent on an assumption (a move computed from
 * the state cache, game_reads.h: cd_move_guard_deferred) found it false under the lock. cd_db_tx rolls back and
 * runs fn again at once, without counting a database error; fn is to take the long way then. */
#define CD_SQLSTATE_GUARD "CD001"

typedef cd_tx_result (*cd_tx_fn)(cd_db *db, void *arg);
/* BEGIN; fn; COMMIT or ROLLBACK, in libpq's pipeline mode: BEGIN goes out with fn's first statement and
 * COMMIT with its deferred writes (cd_db_defer), so a transaction that reads once and then writes is two
 * round trips. fn may run again (from scratch, after a rollback) up to 5 times on
 * serialization failure, deadlock or a refused guard (CD_SQLSTATE_GUARD), so it must keep its effects in `arg`
 * idempotent per attempt.
 * Returns what fn returned last, or CD_TX_ERROR when COMMIT itself failed. `db_unavailable` is set
 * when the failure was the database being unreachable. */
cd_tx_result cd_db_tx(cd_db *db, cd_tx_fn fn, void *arg, bool *db_unavailable);

/* ---- the query functions (one header per query or table family in db/) ------------------------------- */
/* Each runs its statements and hands back a typed row struct; none of them replies to anything. */
typedef enum {
    CD_Q_OK,       /* done (whether a row was found is the function's own out-parameter) */
    CD_Q_FAILED,   /* a statement failed (answer 500) */
    CD_Q_DOWN,     /* the database cannot be reached (answer 503) */
} cd_q;

/* SELECT 1 (GET /readyz). */
bool cd_db_ping(cd_db *db);

/* Migrations (migrate.c): the numbered files of sql/, compiled in. */
/* Applies every migration newer than the database's, under an advisory lock. 0 or -1 with err. */
int cd_migrate(const cd_config *cfg, char *err, size_t errlen);
/* 0 when the database's schema is the newest this binary knows; -1 with err otherwise. */
int cd_schema_check(const cd_config *cfg, char *err, size_t errlen);

#endif
