/*
 * db.c — one libpq connection per worker thread, every statement prepared on it, and the transaction
 * runner.
 *
 * Each thread owns one cd_db (thread-local storage, no locking). It is connected on the thread's first
 * cd_db_thread and every statement (store.h: each query file's family) is prepared on it then and after every
 * reconnect.
 * A connection that broke (the server restarted, the backend was terminated, the network went away) is
 * marked; the next cd_db_thread — or the next cd_db_exec outside a transaction — makes one attempt to
 * reconnect. One attempt per call, never a loop: while the database is down each request costs one failed
 * connect (bounded by connect_timeout) and gets a 503; a short hold-off after a failed connect keeps a
 * burst of requests from hammering a server that is starting up.
 *
 * A connection that died while its thread was idle (PostgreSQL restarted, even with -m immediate, which says
 * nothing to clients) fails its next statement with an error libpq made itself: PGRES_FATAL_ERROR, no
 * SQLSTATE, PQstatus perhaps still CONNECTION_OK. That counts as a lost connection (never a 500), and the
 * work runs once more on a new connection when that cannot do harm: a read outside a transaction, or a
 * transaction whose COMMIT had not been sent. And when the notify thread loses its LISTEN connection it
 * marks every thread's connection suspect (cd_db_suspect_all): each is checked before its next use.
 *
 * Transactions go through cd_db_tx only: BEGIN, the caller's function, COMMIT; from scratch again on
 * serialization failure (40001) or deadlock (40P01), up to CD_TX_RETRIES more times with a short jittered
 * backoff, and at once when the function's guard was refused (CD_SQLSTATE_GUARD: a move sent in one round trip
 * from the state cache found the game otherwise).
 *
 * A transaction runs in libpq's pipeline mode, so that it costs as few round trips as its reads need: BEGIN is
 * sent with the first statement, cd_db_exec_many sends several statements at once, and cd_db_defer queues a
 * write whose result nobody reads: it goes out with the next statement or with the COMMIT, whose round trip
 * reports it. A move read first is two round trips: BEGIN + its reads, its writes + COMMIT; one computed from the
 * state cache is one (BEGIN, its lock and guard, its writes, COMMIT: handlers/moves_post.c). Every statement still takes
 * its own snapshot when it starts (read committed): a statement queued behind a lock sees what the lock
 * holder committed. After every transaction — and whenever a thread takes its connection — the connection must be
 * idle (no transaction open). Debug builds assert it; release builds roll back and log.
 */
#include "db.h"
#include "exec.h"

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/metrics.h"
#include "store.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_PING, "ping", "SELECT 1", 0},
    /* prepared like the rest: cd_db_tx sends them in its pipeline (below) */
    {ST_TX_BEGIN, "tx_begin", "BEGIN", 0},
    {ST_TX_COMMIT, "tx_commit", "COMMIT", 0},
};
const cd_stmt_family cd_stmts_db = {stmts, sizeof stmts / sizeof stmts[0]};

#define CD_TX_RETRIES 5
/* connect_timeout (seconds) when the URL names none: a request should not hang on a dead server. */
#define CD_DB_CONNECT_TIMEOUT "5"
/* After a failed connect, calls within this many milliseconds fail at once with the same message. */
#define CD_DB_HOLDOFF_MS 100

struct cd_db {
    PGconn *conn;
    bool broken;          /* the connection failed: reconnect before the next use */
    bool in_tx;           /* inside cd_db_tx: never reconnect behind fn's back */
    bool pipe;            /* in pipeline mode: inside cd_db_tx */
    bool need_begin;      /* in the pipeline: BEGIN is still to be sent (with the first statement) */
    bool tx_failed;       /* a statement of this transaction failed */
    int owed;             /* results of statements sent in the pipeline and not read yet */
    char url[sizeof ((cd_config *)0)->database_url];   /* what conn is connected to */
    char sqlstate[6];     /* SQLSTATE of the last failed statement ("" if none or unknown) */
    char errmsg[256];     /* its message (the server's primary message, or libpq's), "" if none */
    bool last_unavailable;   /* the last failed statement failed for want of a database */
    double failed_at;     /* monotonic seconds of the last failed connect; 0 when none */
    unsigned checked_gen; /* the suspect generation this connection was last checked at (cd_db_suspect_all) */
    bool commit_sent;     /* inside cd_db_tx: COMMIT has gone out, so a lost connection leaves the outcome unknown */
    char failed_msg[256];
};

static _Thread_local cd_db tl_db;
/* Bumped when a connection to the server is known to have been lost (the notify thread's LISTEN connection):
 * every thread's connection may be as dead, so each is checked before its next use. */
static atomic_uint suspect_gen;
static _Thread_local uint64_t tl_rand;

/* A thread that exits without cd_db_thread_close still closes its connection: a key destructor does. */
static pthread_key_t close_key;
static pthread_once_t close_once = PTHREAD_ONCE_INIT;

/* ---- small helpers ------------------------------------------------------------------------------------ */

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Copies a libpq message without its trailing newline. */
static void copy_msg(char *dst, size_t dstlen, const char *msg)
{
    if (dstlen == 0)
        return;
    snprintf(dst, dstlen, "%s", msg && *msg ? msg : "unknown error");
    size_t n = strlen(dst);
    while (n > 0 && (dst[n - 1] == '\n' || dst[n - 1] == ' '))
        dst[--n] = '\0';
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* xorshift64*, seeded per thread: jitter only, nothing secret. */
static uint32_t jitter_rand(void)
{
    if (tl_rand == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        tl_rand = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&tl_rand;
        if (tl_rand == 0)
            tl_rand = 0x9e3779b97f4a7c15u;
    }
    tl_rand ^= tl_rand >> 12;
    tl_rand ^= tl_rand << 25;
    tl_rand ^= tl_rand >> 27;
    return (uint32_t)((tl_rand * 0x2545f4914f6cdd1du) >> 32);
}

/* Before retry `attempt` (1, 2, ...): a random pause in [base/2, base), base = 2 ms doubling per attempt,
 * so two transactions that collided are unlikely to collide again and the worst case stays under 50 ms. */
static void backoff(int attempt)
{
    long base_us = 2000L << (attempt - 1);
    long us = base_us / 2 + (long)(jitter_rand() % (uint32_t)(base_us / 2));
    struct timespec ts = {us / 1000000L, (us % 1000000L) * 1000L};
    nanosleep(&ts, NULL);
}

/* Forgets the last failure (a new request, a new transaction attempt). */
static void clear_failure(cd_db *db)
{
    db->sqlstate[0] = '\0';
    db->errmsg[0] = '\0';
    db->last_unavailable = false;
}

static bool sqlstate_retryable(const char *s)
{
    return strcmp(s, "40001") == 0 || strcmp(s, "40P01") == 0;
}

/* Notices (e.g. "there is no transaction in progress") go to the log, one line each. */
static void notice_to_log(void *arg, const char *message)
{
    (void)arg;
    char msg[400];
    copy_msg(msg, sizeof msg, message);
    cd_log("warn", "db: server notice: %s", msg);
}

/* ---- connecting ----------------------------------------------------------------------------------------- */

PGconn *cd_db_connect(const char *url)
{
    /* Later entries override earlier ones, and the expanded URL overrides what precedes it: so the
     * defaults come first and whatever the URL says wins. */
    const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *const vals[] = {CD_DB_CONNECT_TIMEOUT, "carcd", url, NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (!c)
        abort();   /* libpq could not allocate: out of memory aborts (docs/STYLE.md) */
    return c;
}

static void db_drop(cd_db *db)
{
    if (db->conn)
        PQfinish(db->conn);
    db->conn = NULL;
    db->broken = false;
    db->in_tx = false;
    db->pipe = false;
    db->need_begin = false;
    db->owed = 0;
}

static void close_at_exit(void *p)
{
    db_drop(p);
}

static void make_close_key(void)
{
    if (pthread_key_create(&close_key, close_at_exit) != 0)
        abort();
}

/* Prepares every statement of the table on db->conn. 0, or -1 with err (the connection is then dropped). */
static int prepare_all(cd_db *db, char *err, size_t errlen)
{
    for (int i = 0; i < cd_nstmts; i++) {
        const cd_stmt_info *s = cd_stmt_row(i);
        if (!s) {
            set_err(err, errlen, "statement %d has no row in any statement family (store.h)", i);
            db_drop(db);
            return -1;
        }
        PGresult *res = PQprepare(db->conn, s->name, s->sql, s->nparams, NULL);
        if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
            char msg[300];
            copy_msg(msg, sizeof msg, res ? PQresultErrorMessage(res) : PQerrorMessage(db->conn));
            set_err(err, errlen, "preparing statement %s: %s", s->name, msg);
            PQclear(res);
            db_drop(db);
            return -1;
        }
        PQclear(res);
    }
    return 0;
}

/* Connects (or resets the broken connection) and prepares the table. One attempt. 0 or -1 with err. */
static int db_connect(cd_db *db, const char *url, char *err, size_t errlen)
{
    double t = mono_now();
    if (db->failed_at > 0 && t - db->failed_at < CD_DB_HOLDOFF_MS / 1000.0 && strcmp(db->url, url) == 0) {
        set_err(err, errlen, "%s", db->failed_msg);
        return -1;
    }
    if (db->conn && strcmp(db->url, url) == 0) {
        PQreset(db->conn);   /* same parameters, new session: prepared statements are gone */
    } else {
        char copy[sizeof db->url];   /* url may be db->url itself (a dropped connection made again) */
        snprintf(copy, sizeof copy, "%s", url);
        db_drop(db);
        memcpy(db->url, copy, sizeof copy);
        db->conn = cd_db_connect(db->url);
        pthread_once(&close_once, make_close_key);
        pthread_setspecific(close_key, db);
    }
    db->broken = false;
    db->in_tx = false;
    if (PQstatus(db->conn) != CONNECTION_OK) {
        char msg[200];
        copy_msg(msg, sizeof msg, PQerrorMessage(db->conn));
        snprintf(db->failed_msg, sizeof db->failed_msg, "cannot connect to the database: %s", msg);
        set_err(err, errlen, "%s", db->failed_msg);
        db->failed_at = mono_now();
        db->broken = true;
        cd_metrics_db_error();
        return -1;
    }
    PQsetNoticeProcessor(db->conn, notice_to_log, NULL);
    if (prepare_all(db, err, errlen) != 0) {
        snprintf(db->failed_msg, sizeof db->failed_msg, "%s", err && errlen ? err : "preparing statements");
        db->failed_at = mono_now();
        cd_metrics_db_error();
        return -1;
    }
    db->failed_at = 0;
    db->checked_gen = atomic_load(&suspect_gen);   /* a new session needs no check */
    return 0;
}

/* The check after every transaction (and before a thread reuses its connection): nothing left open. */
static void ensure_idle(cd_db *db, const char *where)
{
    if (!db->conn || db->broken || PQstatus(db->conn) != CONNECTION_OK)
        return;
    PGTransactionStatusType ts = PQtransactionStatus(db->conn);
    if (ts == PQTRANS_IDLE)
        return;
    assert(!"a transaction was left open");
    cd_log("error", "db: %s: a transaction was left open (libpq transaction status %d); rolling it back", where,
           (int)ts);
    PGresult *res = PQexec(db->conn, "ROLLBACK");
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK || PQtransactionStatus(db->conn) != PQTRANS_IDLE)
        db->broken = true;   /* cannot trust this session any more: start a new one */
    PQclear(res);
}

/* Whether an idle connection still reaches its server: what has arrived is read first (a server that
 * restarted closed the socket: end of file, at no round trip's cost), then one SELECT 1 (a silent one). */
static bool conn_alive(cd_db *db)
{
    if (!PQconsumeInput(db->conn) || PQstatus(db->conn) != CONNECTION_OK)
        return false;
    PGresult *res = PQexecPrepared(db->conn, cd_stmt_row(ST_PING)->name, 0, NULL, NULL, NULL, 0);
    bool ok = cd_db_ok(res) && PQstatus(db->conn) == CONNECTION_OK;
    PQclear(res);
    if (!ok)
        cd_log("info", "db: this thread's connection was lost (checked after the notify connection was): reconnecting");
    return ok;
}

void cd_db_suspect_all(void)
{
    atomic_fetch_add(&suspect_gen, 1);
}

cd_db *cd_db_thread(const cd_config *cfg, char *err, size_t errlen)
{
    cd_db *db = &tl_db;
    clear_failure(db);   /* what cd_db_last_error reports is this caller's */
    unsigned gen = atomic_load(&suspect_gen);
    if (db->conn && !db->broken && db->checked_gen != gen) {
        db->checked_gen = gen;
        if (!conn_alive(db))
            db->broken = true;   /* reconnected just below, before the caller's first statement */
    }
    if (db->conn && !db->broken && PQstatus(db->conn) == CONNECTION_OK && strcmp(db->url, cfg->database_url) == 0) {
        ensure_idle(db, "cd_db_thread");
        if (!db->broken)
            return db;
    }
    if (db_connect(db, cfg->database_url, err, errlen) != 0)
        return NULL;
    return db;
}

void cd_db_thread_close(void)
{
    db_drop(&tl_db);
    tl_db.failed_at = 0;
    tl_db.url[0] = '\0';
}

/* ---- statements --------------------------------------------------------------------------------------- */

bool cd_db_ok(const PGresult *res)
{
    if (!res)
        return false;
    ExecStatusType st = PQresultStatus(res);
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

static bool sqlstate_unavailable(const char *s)
{
    return strncmp(s, "08", 2) == 0          /* connection exception */
           || strcmp(s, "57P01") == 0        /* admin_shutdown */
           || strcmp(s, "57P02") == 0        /* crash_shutdown */
           || strcmp(s, "57P03") == 0;       /* cannot_connect_now */
}

bool cd_db_unavailable(cd_db *db, const PGresult *res)
{
    if (!db || !db->conn || PQstatus(db->conn) != CONNECTION_OK)
        return true;
    if (!res)
        return true;
    if (cd_db_ok(res))
        return false;
    /* an error libpq made itself has no SQLSTATE: "server closed the connection unexpectedly" (PQstatus may
     * still say CONNECTION_OK until the next call), "no connection to the server", a failed send */
    const char *s = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    return !s || sqlstate_unavailable(s);
}

/* States a client can wait out: the database is read-only (25006: a standby, or default_transaction_read_only),
 * out of disk, memory or connections (53100, 53200, 53300), shutting down or starting (57P0x), or the
 * connection is gone (08xxx; a lost server with no SQLSTATE at all is last_unavailable). */
static bool sqlstate_wait_out(const char *s)
{
    return sqlstate_unavailable(s) || strncmp(s, "57P0", 4) == 0 || strcmp(s, "25006") == 0 ||
           strcmp(s, "53100") == 0 || strcmp(s, "53200") == 0 || strcmp(s, "53300") == 0;
}

_Static_assert(sizeof ((cd_db *)0)->errmsg == sizeof ((cd_db_error *)0)->message, "cd_db_last_error copies it whole");
_Static_assert(sizeof ((cd_db *)0)->sqlstate == sizeof ((cd_db_error *)0)->sqlstate, "cd_db_last_error copies it whole");

bool cd_db_last_error(cd_db_error *e)
{
    const cd_db *db = &tl_db;
    memset(e, 0, sizeof *e);
    if (!db->errmsg[0] && !db->sqlstate[0] && !db->last_unavailable)
        return false;
    memcpy(e->sqlstate, db->sqlstate, sizeof e->sqlstate);
    if (db->errmsg[0])
        memcpy(e->message, db->errmsg, sizeof e->message);
    else
        snprintf(e->message, sizeof e->message, "unknown error");
    e->wait_out = db->last_unavailable || sqlstate_wait_out(db->sqlstate);
    e->refuses_writes = e->wait_out && !db->last_unavailable &&
                        (strcmp(db->sqlstate, "25006") == 0 || strncmp(db->sqlstate, "53", 2) == 0);
    return true;
}

/* A result with an error status for when there is no result from the server; never NULL. */
static PGresult *error_result(cd_db *db)
{
    PGresult *res = PQmakeEmptyPGresult(db->conn, PGRES_FATAL_ERROR);
    if (!res)
        abort();   /* out of memory */
    return res;
}

/* Records a failed statement's SQLSTATE, its message and whether the database is gone; counts it. */
static void note_failure(cd_db *db, const PGresult *res)
{
    const char *s = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    snprintf(db->sqlstate, sizeof db->sqlstate, "%s", s ? s : "");
    const char *m = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    if (!m && res)
        m = PQresultErrorMessage(res);
    if ((!m || !*m) && db->conn)
        m = PQerrorMessage(db->conn);
    copy_msg(db->errmsg, sizeof db->errmsg, m);
    db->last_unavailable = cd_db_unavailable(db, res);
    if (db->last_unavailable)
        db->broken = true;   /* a new session before the next statement */
    if (strcmp(db->sqlstate, CD_SQLSTATE_GUARD) != 0)   /* a refused guard is an assumption found false */
        cd_metrics_db_error();
    if (db->in_tx)
        db->tx_failed = true;
}

/* ---- the pipeline (inside cd_db_tx) ------------------------------------------------------------------- */

/* The connection failed under the pipeline: it is dropped at the end of the transaction. */
static void pipe_lost(cd_db *db)
{
    if (!db->broken && db->conn) {
        char msg[300];
        copy_msg(msg, sizeof msg, PQerrorMessage(db->conn));
        cd_log("warn", "db: pipeline: %s", msg);
    }
    if (!db->tx_failed) {
        db->sqlstate[0] = '\0';
        copy_msg(db->errmsg, sizeof db->errmsg, db->conn ? PQerrorMessage(db->conn) : "no connection");
    }
    db->last_unavailable = true;
    db->broken = true;
    db->tx_failed = true;
    cd_metrics_db_error();
}

/* Queues one statement, BEGIN first if it is still due. */
static bool pipe_send(cd_db *db, int stmt, int nparams, const char *const *values)
{
    if (!db->conn || db->broken) {
        pipe_lost(db);
        return false;
    }
    if (db->need_begin) {
        if (!PQsendQueryPrepared(db->conn, cd_stmt_row(ST_TX_BEGIN)->name, 0, NULL, NULL, NULL, 0)) {
            pipe_lost(db);
            return false;
        }
        db->need_begin = false;
        db->owed++;
    }
    if (!PQsendQueryPrepared(db->conn, cd_stmt_row(stmt)->name, nparams, values, NULL, NULL, 0)) {
        pipe_lost(db);
        return false;
    }
    db->owed++;
    return true;
}

/* Sends a sync and reads every owed result, in order. The last `keep` of them are the caller's, returned in
 * out[] (never NULL); the others (BEGIN, deferred writes) are checked and freed. The first failure is noted
 * (note_failure: its SQLSTATE); the statements after it in the pipeline come back PGRES_PIPELINE_ABORTED.
 * true when every result was OK. */
static bool pipe_sync(cd_db *db, int keep, PGresult **out)
{
    int n = db->owed;
    bool ok = true, lost = false;
    double t0 = mono_now();
    db->owed = 0;
    if (!db->conn || db->broken || !PQpipelineSync(db->conn))
        lost = true;
    for (int i = 0; i < n; i++) {
        PGresult *res = lost ? NULL : PQgetResult(db->conn);
        if (!res) {
            lost = true;
        } else {
            PGresult *extra;   /* one statement, one result; then NULL ends it */
            while ((extra = PQgetResult(db->conn)) != NULL)
                PQclear(extra);
            if (!cd_db_ok(res)) {
                if (ok && PQresultStatus(res) != PGRES_PIPELINE_ABORTED)
                    note_failure(db, res);
                ok = false;
            }
        }
        int k = i - (n - keep);
        if (k >= 0)
            out[k] = res ? res : error_result(db);
        else
            PQclear(res);
    }
    if (!lost) {
        PGresult *res = PQgetResult(db->conn);
        if (!res || PQresultStatus(res) != PGRES_PIPELINE_SYNC)
            lost = true;
        PQclear(res);
    }
    if (!lost)
        cd_metrics_db_roundtrip(mono_now() - t0);
    if (lost || PQstatus(db->conn) != CONNECTION_OK) {
        if (ok || !db->last_unavailable)
            pipe_lost(db);
        ok = false;
    }
    return ok;
}

/* Leaves pipeline mode at the end of a transaction; a connection that cannot is dropped (reconnected on the
 * next use). */
static void pipe_close(cd_db *db)
{
    if (!db->pipe)
        return;
    if (db->owed > 0)
        pipe_sync(db, 0, NULL);
    db->pipe = false;
    db->need_begin = false;
    if (!db->conn)
        return;
    if (db->broken || !PQexitPipelineMode(db->conn)) {
        char url[sizeof db->url];
        memcpy(url, db->url, sizeof url);
        db_drop(db);
        memcpy(db->url, url, sizeof url);
    }
}

/* COMMIT in the pipeline, after whatever is owed. true when every result was OK (nothing was sent at all:
 * nothing to commit). */
static bool pipe_commit(cd_db *db)
{
    if (db->need_begin)
        return true;
    db->commit_sent = true;   /* from here a lost connection may have committed: no second run */
    if (!pipe_send(db, ST_TX_COMMIT, 0, NULL))
        return false;
    return pipe_sync(db, 0, NULL);
}

bool cd_db_exec_many(cd_db *db, int n, const cd_db_call *calls, PGresult **out)
{
    if (!db->pipe) {   /* outside a transaction: one after another */
        bool ok = true;
        for (int i = 0; i < n; i++) {
            out[i] = cd_db_exec(db, calls[i].stmt, calls[i].nparams, calls[i].values);
            ok = cd_db_ok(out[i]) && ok;
        }
        return ok;
    }
    for (int i = 0; i < n; i++) {
        assert(calls[i].stmt >= 0 && calls[i].stmt < cd_nstmts && calls[i].nparams == cd_stmt_row(calls[i].stmt)->nparams);
        if (!pipe_send(db, calls[i].stmt, calls[i].nparams, calls[i].values)) {
            /* nothing more goes out: read what did, and fail the rest */
            int sent = i;
            PGresult **got = calloc((size_t)(sent > 0 ? sent : 1), sizeof *got);
            if (!got)
                abort();
            pipe_sync(db, sent, got);
            for (int k = 0; k < n; k++)
                out[k] = k < sent ? got[k] : error_result(db);
            free(got);
            return false;
        }
    }
    return pipe_sync(db, n, out);
}

bool cd_db_defer(cd_db *db, int stmt, int nparams, const char *const *values)
{
    assert(stmt >= 0 && stmt < cd_nstmts && nparams == cd_stmt_row(stmt)->nparams);
    if (!db->pipe) {
        PGresult *res = cd_db_exec(db, stmt, nparams, values);
        bool ok = cd_db_ok(res);
        PQclear(res);
        return ok;
    }
    return pipe_send(db, stmt, nparams, values);
}

/* Whether a statement only reads (its SQL is a SELECT without FOR UPDATE/SHARE): safe to send again after
 * its connection was lost, whatever the server did with it. pg_notify is a SELECT too: a repeated wake-up is
 * harmless. Anything else might have committed before the connection went. */
static bool stmt_is_read(int stmt)
{
    const char *sql = cd_stmt_row(stmt)->sql;
    return strncmp(sql, "SELECT ", 7) == 0 && !strstr(sql, " FOR UPDATE") && !strstr(sql, " FOR NO KEY UPDATE") &&
           !strstr(sql, " FOR SHARE");
}

PGresult *cd_db_exec(cd_db *db, int stmt, int nparams, const char *const *values)
{
    assert(stmt >= 0 && stmt < cd_nstmts);
    assert(nparams == cd_stmt_row(stmt)->nparams);
    if (stmt < 0 || stmt >= cd_nstmts || nparams != cd_stmt_row(stmt)->nparams) {
        cd_log("error", "db: cd_db_exec: statement %d called with %d parameters: a bug", stmt, nparams);
        db->sqlstate[0] = '\0';
        snprintf(db->errmsg, sizeof db->errmsg, "statement %d called with %d parameters", stmt, nparams);
        db->last_unavailable = false;
        return error_result(db);
    }
    if ((db->broken || !db->conn) && !db->in_tx && db->url[0]) {
        char msg[256];
        if (db_connect(db, db->url, msg, sizeof msg) != 0) {
            db->sqlstate[0] = '\0';
            copy_msg(db->errmsg, sizeof db->errmsg, msg);
            db->last_unavailable = true;
            return error_result(db);
        }
    }
    if (!db->conn || db->broken) {
        db->sqlstate[0] = '\0';
        snprintf(db->errmsg, sizeof db->errmsg, "no connection to the database");
        db->last_unavailable = true;
        return error_result(db);
    }
    if (db->pipe) {
        cd_db_call call = {stmt, nparams, values};
        PGresult *res;
        cd_db_exec_many(db, 1, &call, &res);
        return res;
    }
    /* A statement outside a transaction that lost a deadlock (or a serialization conflict) was rolled back
     * whole, so it runs again, like a transaction in cd_db_tx: a DELETE cascading into rows another
     * transaction locks in the other order must not fail its request. A read whose connection turned out to
     * be lost (a server restart while this thread was idle) runs once more on a fresh connection: it changed
     * nothing, and the client gets its answer rather than a 503 for a server that is back. */
    PGresult *res = NULL;
    bool fresh = false;
    for (int attempt = 0; attempt <= CD_TX_RETRIES; attempt++) {
        if (attempt > 0) {
            cd_metrics_db_retry(db->sqlstate);
            PQclear(res);
            backoff(attempt);
        }
        double t0 = mono_now();
        res = PQexecPrepared(db->conn, cd_stmt_row(stmt)->name, nparams, values, NULL, NULL, 0);
        cd_metrics_db_roundtrip(mono_now() - t0);
        if (!res)
            res = error_result(db);
        if (cd_db_ok(res))
            break;
        note_failure(db, res);
        if (!db->in_tx && db->broken && !fresh && stmt_is_read(stmt)) {
            fresh = true;
            char msg[256];
            if (db_connect(db, db->url, msg, sizeof msg) != 0)
                break;
            cd_log("info", "db: %s: the connection was lost; read again on a new one", cd_stmt_row(stmt)->name);
            PQclear(res);
            res = PQexecPrepared(db->conn, cd_stmt_row(stmt)->name, nparams, values, NULL, NULL, 0);
            if (!res)
                res = error_result(db);
            if (cd_db_ok(res)) {
                clear_failure(db);
                break;
            }
            note_failure(db, res);
        }
        if (db->in_tx || db->broken || !sqlstate_retryable(db->sqlstate))
            break;
    }
    return res;
}

/* ---- transactions ------------------------------------------------------------------------------------- */

/* Runs BEGIN, COMMIT or ROLLBACK. true when it succeeded; otherwise the failure is noted in db. */
static bool tx_command(cd_db *db, const char *sql)
{
    if (!db->conn || db->broken) {
        db->sqlstate[0] = '\0';
        db->last_unavailable = true;
        return false;
    }
    double t0 = mono_now();
    PGresult *res = PQexec(db->conn, sql);
    cd_metrics_db_roundtrip(mono_now() - t0);
    bool ok = cd_db_ok(res);
    if (!ok)
        note_failure(db, res);
    PQclear(res);
    return ok;
}

static void tx_rollback(cd_db *db)
{
    if (!db->conn || db->broken || PQtransactionStatus(db->conn) == PQTRANS_IDLE)
        return;
    tx_command(db, "ROLLBACK");
}

cd_tx_result cd_db_tx(cd_db *db, cd_tx_fn fn, void *arg, bool *db_unavailable)
{
    bool unavailable_local;
    bool *unavail = db_unavailable ? db_unavailable : &unavailable_local;
    *unavail = false;
    cd_tx_result r = CD_TX_ERROR;
    bool rerun = false;   /* fn ran again once on a new connection after losing the old one */
    bool no_pause = false;

    for (int attempt = 0; attempt <= CD_TX_RETRIES; attempt++) {
        if (attempt > 0 && !no_pause) {   /* not after a lost connection's rerun: that is no 40001/40P01 */
            cd_metrics_db_retry(db->sqlstate);   /* still the SQLSTATE that made the last attempt fail */
            backoff(attempt);
        }
        no_pause = false;
        db->commit_sent = false;
        clear_failure(db);
        if (db->broken || !db->conn) {
            /* broke in an earlier request: one reconnect attempt, as cd_db_exec would */
            char msg[256];
            if (db_connect(db, db->url, msg, sizeof msg) != 0) {
                copy_msg(db->errmsg, sizeof db->errmsg, msg);
                db->last_unavailable = true;
                *unavail = true;
                return CD_TX_ERROR;
            }
        }
        if (!PQenterPipelineMode(db->conn)) {
            char msg[300];
            copy_msg(msg, sizeof msg, PQerrorMessage(db->conn));
            cd_log("error", "db: cd_db_tx: cannot enter pipeline mode: %s", msg);
            db->broken = true;
            *unavail = PQstatus(db->conn) != CONNECTION_OK;
            return CD_TX_ERROR;
        }
        db->pipe = true;
        db->need_begin = true;   /* sent with fn's first statement */
        db->owed = 0;
        db->tx_failed = false;
        db->in_tx = true;
        r = fn(db, arg);

        if (r == CD_TX_COMMIT) {
            if (db->tx_failed) {
                /* fn ignored a failed statement: COMMIT would silently roll back */
                cd_log("error", "db: cd_db_tx: a statement failed (SQLSTATE %s) but fn asked to commit",
                       db->sqlstate[0] ? db->sqlstate : "unknown");
                r = CD_TX_ERROR;
            } else if (pipe_commit(db)) {
                db->in_tx = false;
                pipe_close(db);
                ensure_idle(db, "cd_db_tx");
                return CD_TX_COMMIT;
            } else {
                r = CD_TX_ERROR;   /* a failed COMMIT (or a deferred write before it): no commit */
            }
        }
        db->in_tx = false;
        /* keep the statement's SQLSTATE: ROLLBACK succeeding must not hide why we roll back */
        char state[sizeof db->sqlstate], emsg[sizeof db->errmsg];
        pipe_close(db);   /* reads what is owed: a deferred write may have failed */
        bool gone = db->last_unavailable;
        memcpy(state, db->sqlstate, sizeof state);
        memcpy(emsg, db->errmsg, sizeof emsg);
        tx_rollback(db);
        memcpy(db->sqlstate, state, sizeof state);
        memcpy(db->errmsg, emsg, sizeof emsg);
        db->last_unavailable = gone || db->last_unavailable;
        ensure_idle(db, "cd_db_tx");

        if (r == CD_TX_ROLLBACK)
            return r;
        bool lost = db->last_unavailable || !db->conn || db->broken;
        if (lost && !db->commit_sent && !rerun) {
            /* typically dead before the transaction began (a server restart while this thread was idle): no
             * COMMIT went out, so nothing was committed, and fn runs once more on a new connection (the loop's
             * top makes it; while the server is down that connect fails at once, and the answer is a 503) */
            rerun = no_pause = true;
            cd_log("info", "db: cd_db_tx: the connection was lost before COMMIT; the transaction runs again on a new "
                           "one");
            continue;
        }
        if (lost) {
            *unavail = true;
            return CD_TX_ERROR;
        }
        if (strcmp(db->sqlstate, CD_SQLSTATE_GUARD) == 0) {
            /* fn's guard found the game otherwise than it assumed: nothing was written; fn runs again at once
             * and takes the long way (db.h) */
            no_pause = true;
            continue;
        }
        if (!sqlstate_retryable(db->sqlstate))
            return CD_TX_ERROR;
        /* 40001 / 40P01: everything fn did was rolled back; run it again from scratch */
    }
    cd_log("warn", "db: cd_db_tx: giving up after %d retries (SQLSTATE %s)", CD_TX_RETRIES, db->sqlstate);
    return r;
}

bool cd_db_ping(cd_db *db)
{
    PGresult *res = cd_db_exec(db, ST_PING, 0, NULL);
    bool ok = cd_db_ok(res);
    PQclear(res);
    return ok;
}
