/*
 * migrate.c — `carcd migrate` and the start-up schema check.
 *
 * The migrations are the numbered files of sql/ compiled into the binary (embedded.h); a file's number is
 * the leading digits of its name (`001_init.sql` is 1). The database records what it has applied in
 * schema_versions, one row per file.
 *
 * cd_migrate works on a connection of its own, in one transaction: it takes a transaction-level advisory
 * lock first, so concurrent `carcd migrate`s queue up behind each other and the later ones find nothing
 * left to do; then it applies, in order, every file whose number schema_versions does not hold yet, each
 * followed by its row in schema_versions, and commits. Everything or nothing: a failing file leaves the
 * database as it was. "Not held yet" rather than "above the highest": two branches may add 002 and 003 and
 * land in either order, and a database migrated with 003 first still gets 002.
 *
 * Each row keeps the SHA-256 of the text applied (sha256; NULL in rows written before carcd kept it, which
 * cd_migrate fills from its own files, trusting them), and cd_schema_check refuses a database whose applied
 * text differs from this binary's: a migration edited after it was applied somewhere would otherwise leave
 * that database without the edit, and nothing would say so until a statement failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "exec.h"
#include "base/crypto.h"
#include "base/embedded.h"

/* pg_advisory_xact_lock key: the bytes of "carcdsql". Fixed forever: every carcd version must agree. */
#define CD_MIGRATE_LOCK_KEY "7161130653708415340"
_Static_assert(0x636172636473716cLL == 7161130653708415340LL, "lock key is \"carcdsql\"");

typedef struct {
    int version;
    const char *name;
    const char *text;
    char sha256[CD_HEX256_LEN];   /* of text */
} migration;

/* ---- the embedded files ---------------------------------------------------------------------------- */

/* The leading digits of a file name, or -1 when it has none (or absurdly many). */
static int file_version(const char *name)
{
    int v = 0, n = 0;
    for (; name[n] >= '0' && name[n] <= '9'; n++) {
        if (n >= 9)
            return -1;
        v = v * 10 + (name[n] - '0');
    }
    return n == 0 ? -1 : v;
}

static int cmp_migration(const void *a, const void *b)
{
    const migration *x = a, *y = b;
    return (x->version > y->version) - (x->version < y->version);
}

/* The embedded migrations sorted by number; *n of them. NULL with err when two share a number, or a file
 * has none (a build mistake, so it stops everything rather than skip a file). Caller frees. */
static migration *migrations(size_t *n, char *err, size_t errlen)
{
    migration *m = calloc(cd_sql_nfiles ? cd_sql_nfiles : 1, sizeof *m);
    if (!m)
        abort();
    for (size_t i = 0; i < cd_sql_nfiles; i++) {
        const char *base = strrchr(cd_sql_files[i].name, '/');
        base = base ? base + 1 : cd_sql_files[i].name;
        m[i].version = file_version(base);
        m[i].name = base;
        m[i].text = cd_sql_files[i].text;
        cd_sha256_hex(m[i].text, m[i].sha256);
        if (m[i].version <= 0) {
            snprintf(err, errlen, "migration file %s does not start with a number above 0", base);
            free(m);
            return NULL;
        }
    }
    qsort(m, cd_sql_nfiles, sizeof *m, cmp_migration);
    for (size_t i = 1; i < cd_sql_nfiles; i++) {
        if (m[i].version == m[i - 1].version) {
            snprintf(err, errlen, "migration files %s and %s have the same number", m[i - 1].name, m[i].name);
            free(m);
            return NULL;
        }
    }
    *n = cd_sql_nfiles;
    return m;
}

/* ---- helpers ----------------------------------------------------------------------------------------- */

static void trimmed(char *dst, size_t dstlen, const char *msg)
{
    snprintf(dst, dstlen, "%s", msg && *msg ? msg : "unknown error");
    size_t n = strlen(dst);
    while (n > 0 && (dst[n - 1] == '\n' || dst[n - 1] == ' '))
        dst[--n] = '\0';
}

static void quiet_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;   /* "relation schema_versions already exists, skipping" and the like */
}

static PGconn *connect_or_err(const cd_config *cfg, char *err, size_t errlen)
{
    PGconn *c = cd_db_connect(cfg->database_url);
    if (PQstatus(c) != CONNECTION_OK) {
        char msg[300];
        trimmed(msg, sizeof msg, PQerrorMessage(c));
        snprintf(err, errlen, "cannot connect to the database: %s", msg);
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet_notices, NULL);
    /* so that pg_stat_activity tells who holds (or waits for) the migration lock */
    PGresult *res = PQexec(c, "SET application_name = 'carcd-migrate'");
    PQclear(res);
    return c;
}

/* Runs sql (no parameters, or the given text ones). 0, or -1 with err prefixed by `what`. *out receives the
 * result when wanted (caller clears). */
static int run(PGconn *c, const char *what, const char *sql, int nparams, const char *const *params,
               PGresult **out, char *err, size_t errlen)
{
    PGresult *res = nparams ? PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, 0) : PQexec(c, sql);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        char msg[600];
        trimmed(msg, sizeof msg, res ? PQresultErrorMessage(res) : PQerrorMessage(c));
        snprintf(err, errlen, "%s: %s", what, msg);
        PQclear(res);
        return -1;
    }
    if (out)
        *out = res;
    else
        PQclear(res);
    return 0;
}

/* The highest applied version (0 when none), or -1 with err. */
static int applied_version(PGconn *c, char *err, size_t errlen)
{
    PGresult *res;
    if (run(c, "reading schema_versions", "SELECT coalesce(max(version), 0) FROM schema_versions", 0, NULL,
            &res, err, errlen) != 0)
        return -1;
    int v = atoi(PQgetvalue(res, 0, 0));
    PQclear(res);
    return v;
}

/* Whether schema_versions holds `version` (false when it cannot be read: err says why, *failed is set). */
static bool version_applied(PGconn *c, int version, bool *failed, char *err, size_t errlen)
{
    char vbuf[16];
    snprintf(vbuf, sizeof vbuf, "%d", version);
    const char *params[1] = {vbuf};
    PGresult *res;
    if (run(c, "reading schema_versions", "SELECT 1 FROM schema_versions WHERE version = $1::integer", 1, params,
            &res, err, errlen) != 0) {
        *failed = true;
        return false;
    }
    bool held = PQntuples(res) > 0;
    PQclear(res);
    return held;
}

/* ---- cd_migrate -------------------------------------------------------------------------------------- */

int cd_migrate(const cd_config *cfg, char *err, size_t errlen)
{
    size_t n = 0;
    migration *m = migrations(&n, err, errlen);
    if (!m)
        return -1;
    PGconn *c = connect_or_err(cfg, err, errlen);
    if (!c) {
        free(m);
        return -1;
    }

    int rc = -1, from = 0, applied = 0;
    if (run(c, "BEGIN", "BEGIN", 0, NULL, NULL, err, errlen) != 0)
        goto out;
    /* held until COMMIT or ROLLBACK: a second migrate waits here, then sees this one's rows */
    if (run(c, "taking the migration lock", "SELECT pg_advisory_xact_lock(" CD_MIGRATE_LOCK_KEY ")", 0, NULL,
            NULL, err, errlen) != 0)
        goto out;
    if (run(c, "creating schema_versions",
            "CREATE TABLE IF NOT EXISTS schema_versions (version integer PRIMARY KEY, name text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT now())",
            0, NULL, NULL, err, errlen) != 0 ||
        run(c, "adding schema_versions.sha256", "ALTER TABLE schema_versions ADD COLUMN IF NOT EXISTS sha256 text", 0,
            NULL, NULL, err, errlen) != 0)
        goto out;
    if ((from = applied_version(c, err, errlen)) < 0)
        goto out;

    bool *todo = calloc(n ? n : 1, sizeof *todo);
    if (!todo)
        abort();
    for (size_t i = 0; i < n; i++) {
        bool failed = false;
        todo[i] = !version_applied(c, m[i].version, &failed, err, errlen);
        if (failed) {
            free(todo);
            goto out;
        }
    }
    for (size_t i = 0; i < n; i++) {
        char what[300];
        snprintf(what, sizeof what, "applying %s", m[i].name);
        if (todo[i] && run(c, what, m[i].text, 0, NULL, NULL, err, errlen) != 0) {
            free(todo);
            goto out;
        }
        /* its row; a row applied before carcd kept the text's hash gets this binary's file's, which stands for it */
        char vbuf[16];
        snprintf(vbuf, sizeof vbuf, "%d", m[i].version);
        const char *params[3] = {vbuf, m[i].name, m[i].sha256};
        if (run(c, "recording the migration",
                "INSERT INTO schema_versions (version, name, sha256) VALUES ($1, $2, $3) ON CONFLICT (version) DO "
                "UPDATE SET sha256 = EXCLUDED.sha256 WHERE schema_versions.sha256 IS NULL "
                "AND schema_versions.name = EXCLUDED.name",
                3, params, NULL, err, errlen) != 0) {
            free(todo);
            goto out;
        }
        applied += todo[i];
    }
    if (run(c, "COMMIT", "COMMIT", 0, NULL, NULL, err, errlen) != 0) {
        free(todo);
        goto out;
    }
    rc = 0;

    /* reported after COMMIT, so every line printed is a file that is in the database */
    for (size_t i = 0; i < n; i++)
        if (todo[i])
            fprintf(stderr, "carcd migrate: applied %s\n", m[i].name);
    free(todo);
    int newest = n ? m[n - 1].version : 0;
    if (applied == 0 && from > newest)
        fprintf(stderr, "carcd migrate: database at version %d, newer than this carcd (%d): nothing to apply\n",
                from, newest);
    else if (applied == 0)
        fprintf(stderr, "carcd migrate: database at version %d, nothing to apply\n", from);

out:
    if (rc != 0 && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE) {
        PGresult *res = PQexec(c, "ROLLBACK");
        PQclear(res);
    }
    PQfinish(c);
    free(m);
    return rc;
}

/* ---- cd_schema_check --------------------------------------------------------------------------------- */

int cd_schema_check(const cd_config *cfg, char *err, size_t errlen)
{
    size_t n = 0;
    migration *m = migrations(&n, err, errlen);
    if (!m)
        return -1;
    int need = n ? m[n - 1].version : 0;
    PGconn *c = connect_or_err(cfg, err, errlen);
    if (!c) {
        free(m);
        return -1;
    }

    int rc = -1;
    PGresult *res = NULL;
    if (run(c, "looking for schema_versions", "SELECT to_regclass('schema_versions') IS NOT NULL", 0, NULL, &res,
            err, errlen) != 0)
        goto out;
    bool has_table = PQgetvalue(res, 0, 0)[0] == 't';
    PQclear(res);
    res = NULL;
    if (!has_table) {
        snprintf(err, errlen, "database schema is at version 0 (no schema_versions table), this carcd needs %d: "
                 "run carcd migrate", need);
        goto out;
    }
    int have = applied_version(c, err, errlen);
    if (have < 0)
        goto out;
    if (have < need) {
        snprintf(err, errlen, "database schema is at version %d, this carcd needs %d: run carcd migrate", have,
                 need);
        goto out;
    }
    if (have > need) {
        snprintf(err, errlen, "database schema is at version %d, newer than this carcd knows (%d): "
                 "run the carcd that migrated it, or a newer one", have, need);
        goto out;
    }
    /* every file applied: one numbered below a later one may have landed after it (cd_migrate applies it) */
    for (size_t i = 0; i < n; i++) {
        bool failed = false;
        if (!version_applied(c, m[i].version, &failed, err, errlen)) {
            if (!failed)
                snprintf(err, errlen, "database schema lacks migration %s (it came after a later one): "
                         "run carcd migrate", m[i].name);
            goto out;
        }
    }
    /* same number, same file, same text: a renumbered, renamed or edited migration would otherwise go
     * unnoticed (sha256 read through to_jsonb: a table written before the column, or with it NULL, has none) */
    if (run(c, "reading schema_versions",
            "SELECT version, name, to_jsonb(s) ->> 'sha256' FROM schema_versions s ORDER BY version", 0, NULL, &res,
            err, errlen) != 0)
        goto out;
    for (int row = 0; row < PQntuples(res); row++) {
        int v = atoi(PQgetvalue(res, row, 0));
        const char *name = PQgetvalue(res, row, 1);
        const char *sha = PQgetisnull(res, row, 2) ? NULL : PQgetvalue(res, row, 2);
        for (size_t i = 0; i < n; i++) {
            if (m[i].version == v && strcmp(m[i].name, name) != 0) {
                snprintf(err, errlen, "database schema version %d was applied from %s, but this carcd's "
                         "migration %d is %s", v, name, v, m[i].name);
                goto out;
            }
            if (m[i].version == v && sha && strcmp(m[i].sha256, sha) != 0) {
                snprintf(err, errlen, "database schema version %d was applied from another text of %s than this "
                         "carcd's (sha256 %.12s, this carcd's %.12s): the file was edited after it was applied. "
                         "Put the applied text back, and make the change a new numbered migration",
                         v, name, sha, m[i].sha256);
                goto out;
            }
        }
    }
    rc = 0;

out:
    PQclear(res);
    PQfinish(c);
    free(m);
    return rc;
}
