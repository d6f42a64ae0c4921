/*
 * test_db.c — db.c and migrate.c against a real PostgreSQL: migrations (empty database, twice, several at
 * once), the schema check (missing, behind, ahead, renamed), the statement table preparing on a migrated
 * database, the transaction runner (commit, rollback, errors, retries on simulated and real serialization
 * failures and deadlocks) and reconnecting after the server ends a connection.
 *
 * The server is the throwaway cluster of scripts/test.sh, named by CARCD_TEST_DATABASE_URL. Each test makes
 * its own database (a random name, created through the `postgres` database) and drops it afterwards, so
 * tests do not see each other and may run in parallel with other test programs.
 */
#include <check.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/db.h"
#include "db/exec.h"
#include "db/games_table.h"
#include "db/messages.h"
#include "db/player_events.h"
#include "db/players.h"
#include "base/crypto.h"
#include "base/embedded.h"
#include "pgtest.h"
#include "db/store.h"

static char test_db[64];       /* this test's database */
static cd_config cfg;          /* database_url names test_db */

/* ---- helpers ------------------------------------------------------------------------------------------ */

static PGconn *connect_to(const char *dbname)
{
    return pgt_connect(dbname, "carcd_test");
}

/* Runs SQL that must succeed; returns the result (caller clears). */
static PGresult *sqlf(PGconn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static PGresult *sqlf(PGconn *c, const char *fmt, ...)
{
    char sql[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(cd_db_ok(res), "%s: %s", sql, PQresultErrorMessage(res));
    return res;
}

static void sql_do(PGconn *c, const char *sql)
{
    PQclear(sqlf(c, "%s", sql));
}

/* The first column of the first row of a query, as an integer. */
static long sql_int(PGconn *c, const char *sql)
{
    PGresult *res = sqlf(c, "%s", sql);
    ck_assert_int_eq(PQntuples(res), 1);
    long v = atol(PQgetvalue(res, 0, 0));
    PQclear(res);
    return v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int newest_version(void)
{
    int v = 0;
    for (size_t i = 0; i < cd_sql_nfiles; i++) {
        const char *base = strrchr(cd_sql_files[i].name, '/');
        base = base ? base + 1 : cd_sql_files[i].name;
        int n = atoi(base);
        if (n > v)
            v = n;
    }
    return v;
}

static void migrate_ok(void)
{
    char err[512] = "";
    ck_assert_msg(cd_migrate(&cfg, err, sizeof err) == 0, "cd_migrate: %s", err);
}

/* The backend pid of this process's cd_db connection (application_name carcd) to the test database. */
static long carcd_backend_pid(PGconn *c)
{
    return sql_int(c, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                      "AND application_name = 'carcd' ORDER BY backend_start DESC LIMIT 1");
}

static void terminate_backend(long pid)
{
    PGconn *c = connect_to("postgres");
    /* with a timeout, pg_terminate_backend waits until the backend has gone */
    PGresult *res = sqlf(c, "SELECT pg_terminate_backend(%ld, 5000)", pid);
    ck_assert_str_eq(PQgetvalue(res, 0, 0), "t");
    PQclear(res);
    PQfinish(c);
}

static long game_count(void)
{
    PGconn *c = connect_to(test_db);
    long n = sql_int(c, "SELECT count(*) FROM games");
    PQfinish(c);
    return n;
}

/* Inserts a game and its secret directly; returns its id in `id` (37 bytes). */
static void insert_game(PGconn *c, char *id)
{
    PGresult *res = sqlf(c, "INSERT INTO games (setup, snapshot, seed_sha256, pending_seat) "
                            "VALUES ('{}', '{}', 'x', 0) RETURNING id");
    snprintf(id, 37, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    PQclear(sqlf(c, "INSERT INTO game_secrets (game_id, seed) VALUES ('%s', 'seed')", id));
}

static cd_db *thread_db(void)
{
    char err[512] = "";
    cd_db *db = cd_db_thread(&cfg, err, sizeof err);
    ck_assert_msg(db != NULL, "cd_db_thread: %s", err);
    return db;
}

/* ---- fixture: one fresh database per test --------------------------------------------------------------- */

static void setup(void)
{
    pgt_db_create("carcd_t_", test_db, sizeof test_db);
    memset(&cfg, 0, sizeof cfg);
    cfg.command = CD_CMD_MIGRATE;
    pgt_url_for(test_db, cfg.database_url, sizeof cfg.database_url);
    cfg.threads = 1;
}

static void teardown(void)
{
    cd_db_thread_close();
    pgt_db_drop(test_db);
}

/* ---- migrations ------------------------------------------------------------------------------------------ */

START_TEST(migrate_empty_database)
{
    ck_assert_uint_gt(cd_sql_nfiles, 0);
    migrate_ok();
    PGconn *c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions"), (long)cd_sql_nfiles);
    ck_assert_int_eq(sql_int(c, "SELECT max(version) FROM schema_versions"), newest_version());
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions WHERE version = 1 AND name = '001_init.sql'"),
                     1);
    /* 001's tables are there */
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND "
                                "tablename IN ('games', 'game_secrets', 'seats', 'moves')"),
                     4);
    PQfinish(c);
}
END_TEST

START_TEST(migrate_twice_is_idempotent)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    PGresult *before = sqlf(c, "SELECT version, name, applied_at FROM schema_versions ORDER BY version");
    char game[37];
    insert_game(c, game);
    migrate_ok();
    PGresult *after = sqlf(c, "SELECT version, name, applied_at FROM schema_versions ORDER BY version");
    ck_assert_int_eq(PQntuples(before), PQntuples(after));
    for (int i = 0; i < PQntuples(before); i++)
        for (int j = 0; j < 3; j++)
            ck_assert_str_eq(PQgetvalue(before, i, j), PQgetvalue(after, i, j));
    PQclear(before);
    PQclear(after);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM games"), 1);   /* data untouched */
    PQfinish(c);
}
END_TEST

#define NMIGRATORS 4
static pthread_barrier_t barrier;

typedef struct {
    int rc;
    char err[512];
} migrator;

static void *migrate_thread(void *p)
{
    migrator *m = p;
    pthread_barrier_wait(&barrier);
    m->rc = cd_migrate(&cfg, m->err, sizeof m->err);
    return NULL;
}

/* Several `carcd migrate` at once: the advisory lock queues them, every one succeeds, each file once. */
START_TEST(migrate_concurrently)
{
    pthread_t t[NMIGRATORS];
    migrator m[NMIGRATORS];
    pthread_barrier_init(&barrier, NULL, NMIGRATORS);
    for (int i = 0; i < NMIGRATORS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, migrate_thread, &m[i]), 0);
    for (int i = 0; i < NMIGRATORS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < NMIGRATORS; i++)
        ck_assert_msg(m[i].rc == 0, "migrator %d: %s", i, m[i].err);
    PGconn *c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions"), (long)cd_sql_nfiles);
    ck_assert_int_eq(sql_int(c, "SELECT count(DISTINCT version) FROM schema_versions"), (long)cd_sql_nfiles);
    PQfinish(c);
    char err[512] = "";
    ck_assert_msg(cd_schema_check(&cfg, err, sizeof err) == 0, "%s", err);
}
END_TEST

/* ---- schema check ------------------------------------------------------------------------------------------ */

START_TEST(schema_check_passes_after_migrate)
{
    migrate_ok();
    char err[512] = "";
    ck_assert_msg(cd_schema_check(&cfg, err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(schema_check_fails_without_table)
{
    char err[512] = "", want[128];
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    snprintf(want, sizeof want, "this carcd needs %d: run carcd migrate", newest_version());
    ck_assert_msg(strstr(err, "database schema is at version 0") && strstr(err, want), "message: %s", err);
}
END_TEST

START_TEST(schema_check_fails_behind)
{
    migrate_ok();
    int m = newest_version();
    PGconn *c = connect_to(test_db);
    PQclear(sqlf(c, "DELETE FROM schema_versions WHERE version = %d", m));
    long behind = sql_int(c, "SELECT coalesce(max(version), 0) FROM schema_versions");
    PQfinish(c);
    char err[512] = "", want[160];
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    snprintf(want, sizeof want, "database schema is at version %ld, this carcd needs %d: run carcd migrate", behind,
             m);
    ck_assert_msg(strstr(err, want), "message: %s", err);
}
END_TEST

START_TEST(schema_check_fails_ahead)
{
    migrate_ok();
    int m = newest_version();
    PGconn *c = connect_to(test_db);
    PQclear(sqlf(c, "INSERT INTO schema_versions (version, name) VALUES (%d, 'from_the_future.sql')", m + 1));
    PQfinish(c);
    char err[512] = "", want[160];
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    snprintf(want, sizeof want, "database schema is at version %d, newer than this carcd", m + 1);
    ck_assert_msg(strstr(err, want), "message: %s", err);
    /* and migrate does not touch a database that is ahead */
    migrate_ok();
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
}
END_TEST

START_TEST(schema_check_fails_renamed)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    sql_do(c, "UPDATE schema_versions SET name = '001_other.sql' WHERE version = 1");
    PQfinish(c);
    char err[512] = "";
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "001_other.sql") && strstr(err, "001_init.sql"), "message: %s", err);
}
END_TEST

/* Each applied migration keeps its text's SHA-256: a database that applied another text of a file than this
 * carcd's (the file edited after it was applied somewhere) is refused at start-up, naming the file. */
START_TEST(schema_check_fails_edited)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions WHERE sha256 ~ '^[0-9a-f]{64}$'"),
                     (long)cd_sql_nfiles);
    sql_do(c, "UPDATE schema_versions SET sha256 = repeat('0', 64) WHERE version = 1");
    PQfinish(c);
    char err[600] = "";
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "version 1 was applied from another text of 001_init.sql") && strstr(err, "edited"),
                  "message: %s", err);
}
END_TEST

/* A database migrated before carcd kept the hashes (no sha256 column) passes the check, and the next migrate
 * adds the column and records this carcd's hashes, each the SHA-256 of its embedded file. */
START_TEST(migrate_records_the_hashes_of_older_rows)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    sql_do(c, "ALTER TABLE schema_versions DROP COLUMN sha256");
    char err[600] = "";
    ck_assert_msg(cd_schema_check(&cfg, err, sizeof err) == 0, "without the column: %s", err);
    migrate_ok();
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions WHERE sha256 IS NULL"), 0);
    for (size_t i = 0; i < cd_sql_nfiles; i++) {
        const char *base = strrchr(cd_sql_files[i].name, '/');
        base = base ? base + 1 : cd_sql_files[i].name;
        char want[CD_HEX256_LEN], q[300];
        cd_sha256_hex(cd_sql_files[i].text, want);
        snprintf(q, sizeof q, "SELECT count(*) FROM schema_versions WHERE name = '%s' AND sha256 = '%s'", base, want);
        ck_assert_msg(sql_int(c, q) == 1, "%s: not its hash", base);
    }
    PQfinish(c);
    ck_assert_msg(cd_schema_check(&cfg, err, sizeof err) == 0, "after migrate: %s", err);
}
END_TEST

/* A migration numbered below one already applied (two branches landing in the other order) is still applied:
 * here 001 is taken out again, tables and row, as if it had come after the others. */
START_TEST(migrate_fills_a_gap)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    sql_do(c, "DROP TABLE moves, seats, game_secrets, games CASCADE");
    sql_do(c, "DELETE FROM schema_versions WHERE version = 1");
    PQfinish(c);
    char err[512] = "";
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "lacks migration 001_init.sql"), "message: %s", err);
    migrate_ok();
    err[0] = '\0';
    ck_assert_msg(cd_schema_check(&cfg, err, sizeof err) == 0, "after migrate: %s", err);
    c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM schema_versions WHERE version = 1"), 1);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM games"), 0);
    PQfinish(c);
}
END_TEST

/* 024 on a database with games in it: a game waiting then counts its expiry from its creation; one that had
 * started (its game_waiting row kept) never expires. */
START_TEST(migrate_024_counts_waiting_games_from_their_creation)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    sql_do(c, "DROP INDEX game_waiting_last_join");
    sql_do(c, "ALTER TABLE game_waiting DROP COLUMN last_join_at");
    sql_do(c, "DELETE FROM schema_versions WHERE version = 24");
    sql_do(c, "INSERT INTO games (id, status, setup, snapshot, seed_sha256, created_at) VALUES "
              "('00000000-0000-4000-8000-000000000001', 'waiting', '{}', '{}', '', '2026-01-02T03:04:05Z'), "
              "('00000000-0000-4000-8000-000000000002', 'active', '{}', '{}', '', '2026-01-02T03:04:05Z')");
    sql_do(c, "INSERT INTO game_waiting (game_id, settings, nseats, creator_hash) VALUES "
              "('00000000-0000-4000-8000-000000000001', '{}', 3, ''), "
              "('00000000-0000-4000-8000-000000000002', '{}', 3, '')");
    PQfinish(c);
    migrate_ok();
    c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM game_waiting WHERE game_id = "
                                "'00000000-0000-4000-8000-000000000001' AND last_join_at = '2026-01-02T03:04:05Z'"),
                     1);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM game_waiting WHERE game_id = "
                                "'00000000-0000-4000-8000-000000000002' AND last_join_at IS NULL"),
                     1);
    PQfinish(c);
}
END_TEST

START_TEST(unreachable_database)
{
    snprintf(cfg.database_url, sizeof cfg.database_url,
             "host=/nonexistent/carcd-socket-dir port=1 dbname=x user=postgres connect_timeout=2");
    char err[512] = "";
    ck_assert_int_eq(cd_schema_check(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot connect to the database"), "message: %s", err);
    err[0] = '\0';
    ck_assert_int_eq(cd_migrate(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot connect to the database"), "message: %s", err);
    err[0] = '\0';
    ck_assert_ptr_null(cd_db_thread(&cfg, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot connect to the database"), "message: %s", err);
}
END_TEST

/* ---- the statement table ------------------------------------------------------------------------------------ */

/* Every statement prepares on a migrated database with the number of parameters its row says: catches SQL
 * typos and schema drift in the query files of db/. */
START_TEST(every_statement_prepares)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    ck_assert_int_eq(cd_nstmts, CD_NSTMTS);
    /* the families (one per query file) hold every statement once: as many rows as statements, each id found */
    int nrows = 0;
    for (int f = 0; f < cd_nstmt_families; f++)
        nrows += cd_stmt_families[f]->n;
    ck_assert_int_eq(nrows, CD_NSTMTS);
    for (int i = 0; i < cd_nstmts; i++) {
        const cd_stmt_info *s = cd_stmt_row(i);
        ck_assert_msg(s && s->name && s->sql, "statement %d has no row", i);
        ck_assert_int_eq((int)s->id, i);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(s->name, cd_stmt_row(j)->name) != 0, "two statements are named %s", s->name);
        PGresult *res = PQprepare(c, s->name, s->sql, s->nparams, NULL);
        ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK, "statement %s does not prepare: %s", s->name,
                      PQresultErrorMessage(res));
        PQclear(res);
        res = PQdescribePrepared(c, s->name);
        ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK, "describe %s", s->name);
        ck_assert_msg(PQnparams(res) == s->nparams, "statement %s uses %d parameters, its row says %d", s->name,
                      PQnparams(res), s->nparams);
        PQclear(res);
    }
    PQfinish(c);
    /* and through db.c */
    cd_db *db = thread_db();
    PGresult *res = cd_db_exec(db, ST_PING, 0, NULL);
    ck_assert(cd_db_ok(res));
    ck_assert_str_eq(PQgetvalue(res, 0, 0), "1");
    PQclear(res);
}
END_TEST

/* Statements name tables: on an unmigrated database the thread connection fails, naming the statement. */
START_TEST(thread_db_on_unmigrated_database)
{
    char err[512] = "";
    ck_assert_ptr_null(cd_db_thread(&cfg, err, sizeof err));
    ck_assert_msg(strstr(err, "preparing statement"), "message: %s", err);
    migrate_ok();
    nanosleep(&(struct timespec){0, 150 * 1000 * 1000}, NULL);   /* past the hold-off after a failed connect */
    thread_db();
}
END_TEST

START_TEST(exec_null_parameter_and_error_result)
{
    migrate_ok();
    cd_db *db = thread_db();
    /* a statement failing on the server: an error result, not a dead database */
    const char *p[2] = {"00000000-0000-0000-0000-000000000000", "seed"};
    PGresult *res = cd_db_exec(db, ST_SECRET_INSERT, 2, p);
    ck_assert(!cd_db_ok(res));
    ck_assert_str_eq(PQresultErrorField(res, PG_DIAG_SQLSTATE), "23503");
    ck_assert(!cd_db_unavailable(db, res));
    PQclear(res);
    /* NULL is SQL NULL: the seed column is NOT NULL */
    p[1] = NULL;
    res = cd_db_exec(db, ST_SECRET_INSERT, 2, p);
    ck_assert_str_eq(PQresultErrorField(res, PG_DIAG_SQLSTATE), "23502");
    PQclear(res);
    /* the connection is fine afterwards */
    res = cd_db_exec(db, ST_PING, 0, NULL);
    ck_assert(cd_db_ok(res));
    PQclear(res);
}
END_TEST

/* An active game at seq 0 with the snapshot {"x": 1}, its id into id. */
static void insert_game_row(cd_db *db, char id[37])
{
    const char *g[8] = {"{}", "{\"x\": 1}", "sha", "0", "active", NULL, NULL, NULL};
    PGresult *res = cd_db_exec(db, ST_GAME_INSERT, 8, g);
    ck_assert(cd_db_ok(res));
    snprintf(id, 37, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
}

/* insert_game_row's game with its seed ("seed") and seat 0, whose token hash is "hash0". */
static void insert_seated_game(cd_db *db, char id[37])
{
    insert_game_row(db, id);
    const char *sp[2] = {id, "seed"};
    PGresult *res = cd_db_exec(db, ST_SECRET_INSERT, 2, sp);
    ck_assert(cd_db_ok(res));
    PQclear(res);
    const char *seat[5] = {id, "0", "Ann", "hash0", NULL};
    res = cd_db_exec(db, ST_SEAT_INSERT, 5, seat);
    ck_assert(cd_db_ok(res));
    PQclear(res);
}

/* A seat's reads name the seq of the state carcd holds (state_cache.h): at that seq the snapshot stays in the
 * database; at any other (or -1) it comes along. */
START_TEST(seat_reads_leave_out_a_cached_snapshot)
{
    migrate_ok();
    cd_db *db = thread_db();
    char id[37];
    insert_seated_game(db, id);
    PGresult *res;
    static const cd_stmt stmts[] = {ST_GAME_GET_PLAY, ST_GAME_GET_SEAT};
    for (size_t i = 0; i < sizeof stmts / sizeof stmts[0]; i++) {
        const char *cached[] = {"0", "-1", "7"};   /* the game is at seq 0 */
        for (int k = 0; k < 3; k++) {
            const char *p[3] = {"hash0", id, cached[k]};
            res = cd_db_exec(db, stmts[i], 3, p);
            ck_assert(cd_db_ok(res));
            ck_assert_int_eq(PQntuples(res), 1);
            ck_assert_str_eq(PQgetvalue(res, 0, 0), "0");   /* seq */
            ck_assert_str_eq(PQgetvalue(res, 0, 15), "t");  /* the token's game (after the moves' columns) */
            ck_assert(PQgetisnull(res, 0, 13) && PQgetisnull(res, 0, 14));   /* no move after the snapshot */
            if (k == 0) {
                ck_assert_msg(PQgetisnull(res, 0, 3), "%s: the snapshot came at the cached seq", cd_stmt_row(stmts[i])->name);
            } else {
                ck_assert(!PQgetisnull(res, 0, 3));
                ck_assert_str_eq(PQgetvalue(res, 0, 3), "{\"x\": 1}");
            }
            PQclear(res);
        }
    }
}
END_TEST

/* Game id at seq 3 with its moves 1-3 (seats 0, 1, 0; by the seat, the clock, a bot: who made them is not
 * read back) and its snapshot still at seq 1: the moves after the checkpoint are 2 and 3, `tail` as the reads
 * give them. */
static const char *const tail = "[[2, 1, \"{\\\"m\\\": 2}\"], [3, 0, \"{\\\"m\\\": 3}\"]]";
static void three_moves_checkpoint_at_1(PGconn *c, const char *id)
{
    char q[400];
    snprintf(q, sizeof q,
             "INSERT INTO moves (game_id, seq, seat, move, origin) VALUES ('%s', 1, 0, '{\"m\": 1}', 'seat'), "
             "('%s', 2, 1, '{\"m\": 2}', 'clock'), ('%s', 3, 0, '{\"m\": 3}', 'bot')", id, id, id);
    sql_do(c, q);
    snprintf(q, sizeof q, "UPDATE games SET seq = 3, snapshot_seq = 1 WHERE id = '%s'", id);
    sql_do(c, q);
}

/* The snapshot is a checkpoint (sql/017): every read that decodes it gets the moves after it, in order, and
 * the seed their draws need (the game is active: its seed is otherwise not read), unless it names the seq of
 * the state carcd holds. Here the snapshot is at seq 1 and the game at seq 3. */
START_TEST(reads_bring_the_moves_after_the_snapshot)
{
    migrate_ok();
    cd_db *db = thread_db();
    char id[37];
    insert_seated_game(db, id);
    PGresult *res;
    PGconn *c = connect_to(test_db);
    three_moves_checkpoint_at_1(c, id);
    PQfinish(c);
    static const cd_stmt seats[] = {ST_GAME_GET_PLAY, ST_GAME_GET_SEAT};
    for (size_t i = 0; i < sizeof seats / sizeof seats[0]; i++) {
        for (int k = 0; k < 2; k++) {   /* holding no state, then the state at seq 3 */
            const char *p[3] = {"hash0", id, k == 0 ? "-1" : "3"};
            res = cd_db_exec(db, seats[i], 3, p);
            ck_assert(cd_db_ok(res));
            ck_assert_str_eq(PQgetvalue(res, 0, 12), "1");   /* snapshot_seq */
            ck_assert(PQgetisnull(res, 0, 8));                /* the seed a viewer may see: none yet */
            if (k == 0) {
                ck_assert_str_eq(PQgetvalue(res, 0, 13), tail);
                ck_assert_str_eq(PQgetvalue(res, 0, 14), "seed");
            } else {
                ck_assert(PQgetisnull(res, 0, 3) && PQgetisnull(res, 0, 13) && PQgetisnull(res, 0, 14));
            }
            PQclear(res);
        }
    }
    const char *p1[1] = {id};
    res = cd_db_exec(db, ST_GAME_GET, 1, p1);
    ck_assert(cd_db_ok(res));
    ck_assert(PQgetisnull(res, 0, 8));
    ck_assert_str_eq(PQgetvalue(res, 0, 13), tail);
    ck_assert_str_eq(PQgetvalue(res, 0, 14), "seed");
    PQclear(res);
    /* behind a lock, a statement of their own: ST_GAME_TAIL, and ST_MOVE_AFTER_LOCK's last two columns */
    for (int k = 0; k < 2; k++) {
        const char *pt[2] = {id, k == 0 ? "-1" : "3"};
        res = cd_db_exec(db, ST_GAME_TAIL, 2, pt);
        ck_assert(cd_db_ok(res));
        ck_assert_str_eq(PQgetvalue(res, 0, 0), "1");
        if (k == 0)
            ck_assert_str_eq(PQgetvalue(res, 0, 1), tail);
        else
            ck_assert(PQgetisnull(res, 0, 1));
        PQclear(res);
        const char *pa[4] = {id, "hash0", NULL, k == 0 ? "-1" : "3"};
        res = cd_db_exec(db, ST_MOVE_AFTER_LOCK, 4, pa);
        ck_assert(cd_db_ok(res));
        ck_assert_int_eq(PQnfields(res), 8);
        ck_assert_str_eq(PQgetvalue(res, 0, 6), "1");
        if (k == 0)
            ck_assert_str_eq(PQgetvalue(res, 0, 7), tail);
        else
            ck_assert(PQgetisnull(res, 0, 7));
        PQclear(res);
    }
}
END_TEST

/* Prepares statement id on c as carcd's connections have it. */
static void prepare_on(PGconn *c, cd_stmt id)
{
    const cd_stmt_info *st = cd_stmt_row(id);
    PGresult *res = PQprepare(c, st->name, st->sql, st->nparams, NULL);
    ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
    PQclear(res);
}

/* A move that waits for the game's lock must read the moves its holder wrote. PostgreSQL gives the waiting
 * statement the row as the holder committed it, but every other table as it was when that statement began
 * (READ COMMITTED): the moves after the checkpoint come from ST_MOVE_AFTER_LOCK, pipelined behind the lock
 * and begun once it is held. Here A holds the lock and moves the game from seq 3 to 4; B's move_lock and
 * move_after_lock are sent meanwhile, as carcd sends them; B's tail must end with A's move. */
START_TEST(a_waiting_move_reads_the_moves_just_committed)
{
    migrate_ok();
    cd_db *db = thread_db();
    char id[37];
    insert_seated_game(db, id);
    PGconn *a = connect_to(test_db), *b = connect_to(test_db);
    three_moves_checkpoint_at_1(a, id);
    char q[400];

    sql_do(a, "BEGIN");
    snprintf(q, sizeof q, "SELECT 1 FROM games WHERE id = '%s' FOR UPDATE", id);
    sql_do(a, q);
    snprintf(q, sizeof q, "INSERT INTO moves (game_id, seq, seat, move, origin) VALUES ('%s', 4, 0, '{\"a\": 4}', 'seat')", id);
    sql_do(a, q);
    snprintf(q, sizeof q, "UPDATE games SET seq = 4 WHERE id = '%s'", id);
    sql_do(a, q);

    prepare_on(b, ST_MOVE_LOCK);
    prepare_on(b, ST_MOVE_AFTER_LOCK);
    ck_assert(PQenterPipelineMode(b));
    const char *p1[3] = {id, "hash0", "-1"}, *p2[4] = {id, "hash0", NULL, "-1"};
    ck_assert(PQsendQueryPrepared(b, cd_stmt_row(ST_MOVE_LOCK)->name, 3, p1, NULL, NULL, 0));
    ck_assert(PQsendQueryPrepared(b, cd_stmt_row(ST_MOVE_AFTER_LOCK)->name, 4, p2, NULL, NULL, 0));
    ck_assert(PQpipelineSync(b));
    ck_assert_int_eq(PQflush(b), 0);
    struct timespec wait = {0, 200 * 1000000L};   /* B's lock is waiting for A's by now */
    nanosleep(&wait, NULL);
    sql_do(a, "COMMIT");

    PGresult *lock = PQgetResult(b);
    ck_assert_msg(cd_db_ok(lock), "%s", PQresultErrorMessage(lock));
    ck_assert_str_eq(PQgetvalue(lock, 0, 0), "4");   /* the locked row: as A committed it */
    PQclear(lock);
    ck_assert_ptr_null(PQgetResult(b));
    PGresult *after = PQgetResult(b);
    ck_assert_msg(cd_db_ok(after), "%s", PQresultErrorMessage(after));
    ck_assert_str_eq(PQgetvalue(after, 0, 6), "1");
    ck_assert_str_eq(PQgetvalue(after, 0, 7), "[[2, 1, \"{\\\"m\\\": 2}\"], [3, 0, "
                                              "\"{\\\"m\\\": 3}\"], [4, 0, \"{\\\"a\\\": 4}\"]]");
    PQclear(after);
    ck_assert_ptr_null(PQgetResult(b));
    PGresult *sync = PQgetResult(b);
    ck_assert_int_eq(PQresultStatus(sync), PGRES_PIPELINE_SYNC);
    PQclear(sync);
    PQfinish(b);
    PQfinish(a);
}
END_TEST

/* A move's update of an unclocked game row (ST_GAME_UPDATE, as prepared on carcd's connections) changes no
 * indexed column, so PostgreSQL makes it HOT: no index entry per move (sql/015_games_hot_updates.sql). Counted
 * in the transaction's own statistics, which are exact. now() is the transaction's start, so it is the first
 * update that changes updated_at: with 011's index on updated_at that one was not HOT (3 updates, 2 HOT). */
START_TEST(a_move_updates_its_game_row_hot)
{
    migrate_ok();
    cd_db *db = thread_db();
    char id[37];
    insert_game_row(db, id);
    PGresult *res;
    PGconn *c = connect_to(test_db);
    const cd_stmt_info *up = cd_stmt_row(ST_GAME_UPDATE);
    res = PQprepare(c, up->name, up->sql, up->nparams, NULL);
    ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
    PQclear(res);
    sql_do(c, "BEGIN");
    for (int seq = 1; seq <= 3; seq++) {   /* seq 2 writes a checkpoint, 1 and 3 keep it (sql/017) */
        char s[12];
        snprintf(s, sizeof s, "%d", seq);
        const char *p[6] = {id, s, seq == 2 ? "{\"x\": 2}" : NULL, "active", seq % 2 ? "1" : "0", "figure"};
        res = PQexecPrepared(c, up->name, 6, p, NULL, NULL, 0);
        ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
        ck_assert_str_eq(PQcmdTuples(res), "1");
        PQclear(res);
        char q[200];
        snprintf(q, sizeof q, "SELECT snapshot_seq * 10 + (snapshot->>'x')::integer FROM games WHERE id = '%s'", id);
        ck_assert_int_eq(sql_int(c, q), seq == 1 ? 1 : 22);   /* seq 0's {"x": 1} until seq 2's {"x": 2} */
    }
    ck_assert_int_eq(sql_int(c, "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'games'"), 3);
    ck_assert_int_eq(sql_int(c, "SELECT n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'games'"), 3);
    sql_do(c, "ROLLBACK");
    PQfinish(c);
}
END_TEST

/* A move that keeps the snapshot (sql/017) logs the row's small columns only: the snapshot lives out of the
 * row (sql/018: toast_tuple_target), though compressed it would fit in it. Here a 2.7 KB snapshot that
 * compresses to ~0.7 KB; in the row, the same update logged 808 bytes, out of it 168 (measured on a copy of
 * the table). */
START_TEST(an_update_keeping_the_snapshot_does_not_log_it)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    PGresult *res = sqlf(c, "INSERT INTO games (setup, snapshot, seed_sha256, pending_seat) VALUES ('{}', "
                            "jsonb_build_object('pieces', (SELECT jsonb_agg(jsonb_build_object('tile', 'T' || (i %% 7), "
                            "'x', i, 'y', -i, 'rot', i %% 4)) FROM generate_series(1, 60) i)), 'x', 0) RETURNING id");
    char id[37];
    snprintf(id, sizeof id, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    res = sqlf(c, "SELECT octet_length(snapshot::text), pg_column_size(snapshot) FROM games WHERE id = '%s'", id);
    ck_assert_int_gt(atoi(PQgetvalue(res, 0, 0)), 2500);   /* the text: over the 2 KB a row keeps anyway */
    ck_assert_int_lt(atoi(PQgetvalue(res, 0, 1)), 1000);   /* as stored, compressed: under it */
    PQclear(res);
    const cd_stmt_info *up = cd_stmt_row(ST_GAME_UPDATE);
    res = PQprepare(c, up->name, up->sql, up->nparams, NULL);
    ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
    PQclear(res);
    /* the WAL between two positions is the whole cluster's, and the other tests (ctest runs two at once) write
     * theirs there too: pg_walinspect counts this transaction's records alone, once they are flushed */
    sql_do(c, "CREATE EXTENSION IF NOT EXISTS pg_walinspect");
    res = sqlf(c, "SELECT pg_current_wal_insert_lsn()");
    char lsn[64];
    snprintf(lsn, sizeof lsn, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    sql_do(c, "BEGIN");
    sql_do(c, "SET LOCAL synchronous_commit = on");   /* the COMMIT flushes what pg_walinspect reads */
    const char *p[6] = {id, "1", NULL, "active", "1", "place"};
    res = PQexecPrepared(c, up->name, 6, p, NULL, NULL, 0);
    ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
    PQclear(res);
    res = sqlf(c, "SELECT pg_current_xact_id()::text");
    char xid[32];
    snprintf(xid, sizeof xid, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    sql_do(c, "COMMIT");
    /* the row's own record (Heap): the snapshot would be in it. The indexes' records are left out: whether the
     * update is HOT, and so logs no index entries, depends on the room left on the row's page by the tests
     * before (CI once saw 6 records, 406 bytes in all) */
    res = sqlf(c, "SELECT coalesce(sum(record_length) FILTER (WHERE resource_manager = 'Heap'), 0), count(*), "
                  "string_agg(resource_manager || '/' || record_type || ' ' || record_length, ', ') "
                  "FROM pg_get_wal_records_info('%s', pg_current_wal_flush_lsn()) WHERE xid::text = '%s'", lsn, xid);
    long logged = atol(PQgetvalue(res, 0, 0));
    int records = atoi(PQgetvalue(res, 0, 1));
    char seen[512];
    snprintf(seen, sizeof seen, "%s", PQgetvalue(res, 0, 2));
    PQclear(res);
    ck_assert_int_ge(records, 2);   /* the update and the commit at least: the transaction was found */
    ck_assert_msg(logged > 0 && logged < 400, "the update's row logged %ld bytes (the records: %s)", logged, seen);
    PQfinish(c);
}
END_TEST

/* Writes the player events of one game: for every linked seat, and one for a player alone (the lobby's). */
typedef struct {
    const char *game, *player;
} pev_arg;

static cd_tx_result player_events_fn(cd_db *db, void *p)
{
    pev_arg *a = p;
    bool ok = cd_player_events_for_seats_deferred(db, a->game, 0, -1, CD_PEV_GAME_STARTED, NULL) &&
              cd_player_events_for_seats_deferred(db, a->game, 3, 1, CD_PEV_TURN, NULL) &&
              cd_player_events_for_seats_deferred(db, a->game, 4, 0, CD_PEV_TURN, NULL) &&   /* seat 0: no player */
              cd_player_event_emit(db, a->player, CD_PEV_INVITATION, a->game, 5, -1) &&
              cd_player_events_for_seats_deferred(db, a->game, 9, -1, CD_PEV_GAME_OVER, "cancelled");
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

START_TEST(player_events_numbered_per_player)
{
    migrate_ok();
    cd_db *db = thread_db();
    const char *g[8] = {"{}", "{}", "sha", "0", "active", NULL, NULL, NULL};
    PGresult *res = cd_db_exec(db, ST_GAME_INSERT, 8, g);
    ck_assert(cd_db_ok(res));
    char id[37], player[37];
    snprintf(id, sizeof id, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    ck_assert_int_eq(cd_player_insert(db, "Ann", "keyhash-ann", player), CD_Q_OK);
    const char *s0[5] = {id, "0", "Bob", "th0", NULL}, *s1[5] = {id, "1", "Ann", "th1", "keyhash-ann"};
    res = cd_db_exec(db, ST_SEAT_INSERT, 5, s0);
    ck_assert(cd_db_ok(res));
    PQclear(res);
    res = cd_db_exec(db, ST_SEAT_INSERT, 5, s1);
    ck_assert(cd_db_ok(res));
    PQclear(res);
    pev_arg a = {id, player};
    bool down = false;
    ck_assert_int_eq(cd_db_tx(db, player_events_fn, &a, &down), CD_TX_COMMIT);
    cd_player_event_rows rows;
    ck_assert_int_eq(cd_player_events_after(db, player, 0, 100, &rows), CD_Q_OK);
    ck_assert_int_eq(rows.n, 4);
    static const char *const kinds[] = {"game_started", "turn", "invitation", "game_over"};
    static const int seqs[] = {0, 3, 5, 9}, seats[] = {1, 1, -1, 1};
    for (int i = 0; i < rows.n; i++) {
        ck_assert_int_eq(rows.v[i].n, i + 1);
        ck_assert_str_eq(rows.v[i].kind, kinds[i]);
        ck_assert_str_eq(rows.v[i].game_id, id);
        ck_assert_int_eq(rows.v[i].seq, seqs[i]);
        ck_assert_int_eq(rows.v[i].has_seat ? rows.v[i].seat : -1, seats[i]);
    }
    ck_assert_str_eq(rows.v[3].status, "cancelled");
    ck_assert_ptr_null(rows.v[0].status);
    cd_player_event_rows_free(&rows);
    ck_assert_int_eq(cd_player_events_after(db, player, 3, 100, &rows), CD_Q_OK);
    ck_assert_int_eq(rows.n, 1);
    ck_assert_int_eq(rows.v[0].n, 4);
    cd_player_event_rows_free(&rows);
}
END_TEST

/* ---- the transaction runner --------------------------------------------------------------------------------- */

typedef struct {
    int attempts;
    cd_tx_result ret;        /* what fn returns when its statements succeed */
    bool fk_violation;       /* also insert a secret for a game that does not exist */
    bool ignore_failure;     /* return ret even when a statement failed */
    bool defer_secret;       /* queue the secret's insert (cd_db_defer): it goes out with the COMMIT */
    char id[37];
} tx_arg;

static cd_tx_result insert_game_fn(cd_db *db, void *p)
{
    tx_arg *a = p;
    a->attempts++;
    const char *g[8] = {"{}", "{}", "sha", "0", "active", NULL, NULL, NULL};
    PGresult *res = cd_db_exec(db, ST_GAME_INSERT, 8, g);
    if (!cd_db_ok(res)) {
        PQclear(res);
        return CD_TX_ERROR;
    }
    snprintf(a->id, sizeof a->id, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    const char *s[2] = {a->fk_violation ? "00000000-0000-0000-0000-000000000000" : a->id, "seed"};
    if (a->defer_secret)
        return cd_db_defer(db, ST_SECRET_INSERT, 2, s) ? a->ret : CD_TX_ERROR;
    res = cd_db_exec(db, ST_SECRET_INSERT, 2, s);
    bool ok = cd_db_ok(res);
    PQclear(res);
    if (!ok && !a->ignore_failure)
        return CD_TX_ERROR;
    return a->ret;
}

/* The connection is idle (no transaction open) according to the server. */
static void assert_idle(void)
{
    PGconn *c = connect_to(test_db);
    PGresult *res = sqlf(c, "SELECT state FROM pg_stat_activity WHERE datname = current_database() "
                            "AND application_name = 'carcd' ORDER BY backend_start DESC LIMIT 1");
    ck_assert_int_eq(PQntuples(res), 1);
    ck_assert_str_eq(PQgetvalue(res, 0, 0), "idle");
    PQclear(res);
    PQfinish(c);
}

/* carcd_seat_leave (sql/029) moves the seats after the one that leaves down by one, their messages with them;
 * a write by seat number then holds the seat only while it is still the bearer's (its token, or linked to its
 * player key): seat 2 of a writer who looked it up before the leave is somebody else's now. */
START_TEST(a_seat_hold_is_the_bearers_seat)
{
    migrate_ok();
    cd_db *db = thread_db();
    PGconn *c = connect_to(test_db);
    char id[37];
    insert_game(c, id);
    PQclear(sqlf(c, "UPDATE games SET status = 'waiting' WHERE id = '%s'", id));
    PQclear(sqlf(c, "INSERT INTO players (name, key_hash) VALUES ('Di', 'key3')"));
    for (int seat = 0; seat < 4; seat++)
        PQclear(sqlf(c, "INSERT INTO seats (game_id, seat, name, token_hash, player_id) VALUES ('%s', %d, 'p%d', "
                        "'hash%d', %s)", id, seat, seat, seat,
                     seat == 3 ? "(SELECT id FROM players WHERE key_hash = 'key3')" : "NULL"));
    PQclear(sqlf(c, "INSERT INTO game_messages (game_id, seat, seq, text, created_at) VALUES ('%s', 3, 0, 'hi', "
                    "now())", id));
    bool held = false, found = false;
    ck_assert_int_eq(cd_seat_hold(db, id, 2, "hash2", &held), CD_Q_OK);
    ck_assert(held);
    ck_assert_int_eq(cd_seat_hold(db, id, 2, "hash3", &held), CD_Q_OK);
    ck_assert(!held);

    PQclear(sqlf(c, "SELECT carcd_seat_leave('%s', 1)", id));   /* seat 1 leaves: 2 -> 1, 3 -> 2 */
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT string_agg(seat || ':' || token_hash, ',' ORDER BY seat) FROM seats "
                              "WHERE game_id = '%s'", id);
    PGresult *res = sqlf(c, "%s", sql);
    ck_assert_str_eq(PQgetvalue(res, 0, 0), "0:hash0,1:hash2,2:hash3");
    PQclear(res);
    snprintf(sql, sizeof sql, "SELECT seat FROM game_messages WHERE game_id = '%s'", id);
    ck_assert_int_eq(sql_int(c, sql), 2);   /* the message moved with its author (ON UPDATE CASCADE) */

    ck_assert_int_eq(cd_seat_hold(db, id, 2, "hash2", &held), CD_Q_OK);
    ck_assert(!held);                                     /* seat 2 is no longer hash2's */
    ck_assert_int_eq(cd_seat_hold(db, id, 1, "hash2", &held), CD_Q_OK);
    ck_assert(held);
    ck_assert_int_eq(cd_seat_hold(db, id, 2, "hash3", &held), CD_Q_OK);
    ck_assert(held);
    ck_assert_int_eq(cd_seat_hold(db, id, 2, "key3", &held), CD_Q_OK);   /* by the player key linked to it */
    ck_assert(held);
    ck_assert_int_eq(cd_seat_hold(db, id, 1, "key3", &held), CD_Q_OK);
    ck_assert(!held);
    ck_assert_int_eq(cd_msg_seat_lock(db, id, 2, "hash2", &found), CD_Q_OK);
    ck_assert(!found);
    ck_assert_int_eq(cd_msg_seat_lock(db, id, 2, NULL, &found), CD_Q_OK);   /* by number alone: somebody's */
    ck_assert(found);
    PQfinish(c);
}
END_TEST


START_TEST(tx_commits)
{
    migrate_ok();
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_COMMIT);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 1);
    ck_assert_int_eq(game_count(), 1);
    assert_idle();
}
END_TEST

START_TEST(tx_rolls_back)
{
    migrate_ok();
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_ROLLBACK};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_ROLLBACK);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 1);
    ck_assert_int_eq(game_count(), 0);
    assert_idle();
}
END_TEST

/* A statement error that is not a serialization failure: rolled back, not retried. */
START_TEST(tx_error_not_retried)
{
    migrate_ok();
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT, .fk_violation = true};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_ERROR);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 1);
    ck_assert_int_eq(game_count(), 0);
    assert_idle();
}
END_TEST

/* fn asks to commit after a statement failed: COMMIT would roll back silently; the runner reports an error. */
START_TEST(tx_commit_after_failed_statement)
{
    migrate_ok();
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT, .fk_violation = true, .ignore_failure = true};
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, NULL), CD_TX_ERROR);
    ck_assert_int_eq(a.attempts, 1);
    ck_assert_int_eq(game_count(), 0);
    assert_idle();
}
END_TEST

/* A trigger on game_secrets raises SQLSTATE 40001 on the first `fail_first` inserts (a sequence counts them,
 * outside any transaction): the runner must retry from scratch. */
static void install_failing_trigger(int fail_first)
{
    PGconn *c = connect_to(test_db);
    sql_do(c, "CREATE SEQUENCE t_secret_inserts");
    PQclear(sqlf(c,
                 "CREATE FUNCTION t_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                 "IF nextval('t_secret_inserts') <= %d THEN "
                 "RAISE EXCEPTION 'simulated serialization failure' USING ERRCODE = '40001'; END IF; "
                 "RETURN NEW; END $$",
                 fail_first));
    sql_do(c, "CREATE TRIGGER t_fail BEFORE INSERT ON game_secrets FOR EACH ROW EXECUTE FUNCTION t_fail()");
    PQfinish(c);
}

START_TEST(tx_retries_simulated_40001)
{
    migrate_ok();
    install_failing_trigger(1);
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_COMMIT);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 2);
    ck_assert_int_eq(game_count(), 1);   /* the first attempt's game was rolled back */
    assert_idle();
}
END_TEST

/* A statement outside any transaction that fails with 40001 (or loses a deadlock) was rolled back whole: it runs
 * again, so an autocommit request (a webhook's DELETE) does not fail on a transient conflict. Other failures
 * are not retried. */
START_TEST(autocommit_statement_retried_on_40001)
{
    migrate_ok();
    install_failing_trigger(2);
    cd_db *db = thread_db();
    const char *g[8] = {"{}", "{}", "sha", "0", "active", NULL, NULL, NULL};
    PGresult *res = cd_db_exec(db, ST_GAME_INSERT, 8, g);
    ck_assert(cd_db_ok(res));
    char id[40];
    snprintf(id, sizeof id, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    const char *sp[2] = {id, "seed"};
    res = cd_db_exec(db, ST_SECRET_INSERT, 2, sp);   /* fails twice with 40001, then succeeds */
    ck_assert_msg(cd_db_ok(res), "%s", PQresultErrorMessage(res));
    PQclear(res);
    PGconn *c = connect_to(test_db);
    ck_assert_int_eq(sql_int(c, "SELECT last_value FROM t_secret_inserts"), 3);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM game_secrets"), 1);
    /* a foreign key violation is no conflict: one attempt */
    const char *bad[2] = {"00000000-0000-0000-0000-000000000000", "seed"};
    res = cd_db_exec(db, ST_SECRET_INSERT, 2, bad);
    ck_assert(!cd_db_ok(res));
    PQclear(res);
    ck_assert_int_eq(sql_int(c, "SELECT last_value FROM t_secret_inserts"), 4);
    PQfinish(c);
    assert_idle();
}
END_TEST

/* A deferred write fails with the COMMIT it travels with: nothing is committed, and 40001 runs fn again. */
START_TEST(tx_deferred_write_fails_the_commit)
{
    migrate_ok();
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT, .fk_violation = true, .defer_secret = true};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_ERROR);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 1);
    ck_assert_int_eq(game_count(), 0);
    assert_idle();
}
END_TEST

START_TEST(tx_deferred_write_retried_on_40001)
{
    migrate_ok();
    install_failing_trigger(1);
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT, .defer_secret = true};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_COMMIT);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 2);
    ck_assert_int_eq(game_count(), 1);
    assert_idle();
}
END_TEST

START_TEST(tx_gives_up_after_5_retries)
{
    migrate_ok();
    install_failing_trigger(1000);
    cd_db *db = thread_db();
    tx_arg a = {.ret = CD_TX_COMMIT};
    bool down = true;
    ck_assert_int_eq(cd_db_tx(db, insert_game_fn, &a, &down), CD_TX_ERROR);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 6);
    ck_assert_int_eq(game_count(), 0);
    assert_idle();
}
END_TEST

/* Real conflicts: two threads, each with its own cd_db connection, meet at a barrier on their first attempt. */
typedef struct {
    const char *first, *second;   /* games: read-and-update `first` (serialization) or lock both (deadlock) */
    bool deadlock;
    int attempts;
    cd_tx_result result;
    bool down;
    char err[512];
} conflict_arg;

static int atoi_col(PGresult *res, int col)
{
    return atoi(PQgetvalue(res, 0, col));
}

static cd_tx_result conflict_fn(cd_db *db, void *p)
{
    conflict_arg *a = p;
    a->attempts++;
    if (a->deadlock) {
        /* lock `first`, wait for the other thread to lock its first, then lock `second`: a cycle */
        const char *p1[1] = {a->first};
        PGresult *res = cd_db_exec(db, ST_GAME_LOCK, 1, p1);
        bool ok = cd_db_ok(res);
        PQclear(res);
        if (!ok)
            return CD_TX_ERROR;
        if (a->attempts == 1)
            pthread_barrier_wait(&barrier);
        const char *p2[1] = {a->second};
        res = cd_db_exec(db, ST_GAME_LOCK, 1, p2);
        ok = cd_db_ok(res);
        PQclear(res);
        return ok ? CD_TX_COMMIT : CD_TX_ERROR;
    }
    /* read the seq, wait until the other thread has read it too, write seq + 1: a lost update unless one
     * of the two fails with 40001 and runs again */
    const char *p1[1] = {a->first};
    PGresult *res = cd_db_exec(db, ST_GAME_GET, 1, p1);
    if (!cd_db_ok(res) || PQntuples(res) != 1) {
        PQclear(res);
        return CD_TX_ERROR;
    }
    int seq = atoi_col(res, 0);
    PQclear(res);
    if (a->attempts == 1)
        pthread_barrier_wait(&barrier);
    char next[16];
    snprintf(next, sizeof next, "%d", seq + 1);
    const char *p2[6] = {a->first, next, "{}", "active", "0", "place"};
    res = cd_db_exec(db, ST_GAME_UPDATE, 6, p2);
    bool ok = cd_db_ok(res);
    PQclear(res);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

static void *conflict_thread(void *p)
{
    conflict_arg *a = p;
    cd_db *db = cd_db_thread(&cfg, a->err, sizeof a->err);
    if (!db) {
        a->result = CD_TX_ERROR;
        pthread_barrier_wait(&barrier);   /* do not leave the other thread waiting */
        return NULL;
    }
    a->result = cd_db_tx(db, conflict_fn, a, &a->down);
    cd_db_thread_close();
    return NULL;
}

static void run_conflict(conflict_arg *a, conflict_arg *b)
{
    pthread_t ta, tb;
    pthread_barrier_init(&barrier, NULL, 2);
    ck_assert_int_eq(pthread_create(&ta, NULL, conflict_thread, a), 0);
    ck_assert_int_eq(pthread_create(&tb, NULL, conflict_thread, b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&barrier);
    ck_assert_msg(a->result == CD_TX_COMMIT, "first thread: %d %s", a->result, a->err);
    ck_assert_msg(b->result == CD_TX_COMMIT, "second thread: %d %s", b->result, b->err);
    ck_assert(!a->down && !b->down);
    /* at least one of the two ran again (under load the retried one can collide once more: the runner's
     * point is that both end committed, within its retry budget) */
    ck_assert_int_ge(a->attempts + b->attempts, 3);
    ck_assert_int_le(a->attempts, 6);
    ck_assert_int_le(b->attempts, 6);
}

START_TEST(tx_retries_real_serialization_failure)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    PQclear(sqlf(c, "ALTER DATABASE %s SET default_transaction_isolation = 'serializable'", test_db));
    char id[37];
    insert_game(c, id);
    conflict_arg a = {.first = id}, b = {.first = id};
    run_conflict(&a, &b);
    ck_assert_int_eq(sql_int(c, "SELECT seq FROM games"), 2);   /* both increments, none lost */
    PQfinish(c);
}
END_TEST

START_TEST(tx_retries_real_deadlock)
{
    migrate_ok();
    PGconn *c = connect_to(test_db);
    PQclear(sqlf(c, "ALTER DATABASE %s SET deadlock_timeout = '100ms'", test_db));
    char g1[37], g2[37];
    insert_game(c, g1);
    insert_game(c, g2);
    PQfinish(c);
    conflict_arg a = {.first = g1, .second = g2, .deadlock = true};
    conflict_arg b = {.first = g2, .second = g1, .deadlock = true};
    run_conflict(&a, &b);
}
END_TEST

/* ---- reconnecting ----------------------------------------------------------------------------------------------- */

START_TEST(reconnects_after_backend_terminated)
{
    migrate_ok();
    cd_db *db = thread_db();
    PGconn *c = connect_to(test_db);
    long pid = carcd_backend_pid(c);
    terminate_backend(pid);

    /* a read on the dead connection (libpq's own error, no SQLSTATE) runs again on a new one: answered */
    double t0 = now_s();
    PGresult *res = cd_db_exec(db, ST_PING, 0, NULL);
    double took = now_s() - t0;
    ck_assert_msg(cd_db_ok(res), "a read after the backend was terminated: %s", PQresultErrorMessage(res));
    PQclear(res);
    fprintf(stderr, "test_db: a read on a dead connection, reconnect + prepare + the read again took %.1f ms\n",
            took * 1000);
    ck_assert_int_ne(carcd_backend_pid(c), pid);

    /* a write is not sent twice (it may have been done): it fails as unavailable, and the next call reconnects */
    terminate_backend(carcd_backend_pid(c));
    const char *p[] = {"test.write", NULL, "admin:test", NULL, NULL, NULL, "{}"};
    res = cd_db_exec(db, ST_AUDIT_INSERT, 7, p);
    ck_assert(!cd_db_ok(res));
    ck_assert(cd_db_unavailable(db, res));
    PQclear(res);
    cd_db_error e;
    ck_assert(cd_db_last_error(&e));
    ck_assert(e.wait_out);
    ck_assert_str_eq(e.sqlstate, "");
    ck_assert_msg(e.message[0], "no message for a lost connection");
    res = cd_db_exec(db, ST_AUDIT_INSERT, 7, p);
    ck_assert_msg(cd_db_ok(res), "after reconnect: %s", PQresultErrorMessage(res));
    PQclear(res);
    ck_assert_int_eq(sql_int(c, "SELECT count(*) FROM admin_audit WHERE action = 'test.write'"), 1);

    /* the same through cd_db_thread, the way requests get their connection */
    terminate_backend(carcd_backend_pid(c));
    db = thread_db();
    res = cd_db_exec(db, ST_PING, 0, NULL);
    ck_assert(cd_db_ok(res));
    PQclear(res);

    /* once a connection is suspect (the notify thread lost its own), cd_db_thread checks it: the dead one is
     * replaced before the caller's first statement, so even a write goes through */
    terminate_backend(carcd_backend_pid(c));
    cd_db_suspect_all();
    db = thread_db();
    res = cd_db_exec(db, ST_AUDIT_INSERT, 7, p);
    ck_assert_msg(cd_db_ok(res), "a write after the suspect check: %s", PQresultErrorMessage(res));
    PQclear(res);
    PQfinish(c);
}
END_TEST

typedef struct {
    long pid;
    PGconn *watch;   /* when set: the current backend is killed at every attempt, not only the first's */
    int attempts;
} kill_arg;

static cd_tx_result killed_fn(cd_db *db, void *p)
{
    kill_arg *a = p;
    a->attempts++;
    if (a->watch || a->attempts == 1)
        terminate_backend(a->watch ? carcd_backend_pid(a->watch) : a->pid);
    PGresult *res = cd_db_exec(db, ST_PING, 0, NULL);
    bool ok = cd_db_ok(res);
    PQclear(res);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

/* The connection dies inside a transaction before its COMMIT: nothing was committed, so it runs once more on a
 * new connection; dead again there, it fails as unavailable, and the next request reconnects. */
START_TEST(tx_connection_lost)
{
    migrate_ok();
    cd_db *db = thread_db();
    PGconn *c = connect_to(test_db);
    kill_arg a = {.pid = carcd_backend_pid(c)};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, killed_fn, &a, &down);
    ck_assert_msg(tr == CD_TX_COMMIT, "result %d, attempts %d, down %d", (int)tr, a.attempts, (int)down);
    ck_assert(!down);
    ck_assert_int_eq(a.attempts, 2);

    kill_arg b = {.watch = c};
    ck_assert_int_eq(cd_db_tx(db, killed_fn, &b, &down), CD_TX_ERROR);
    ck_assert(down);
    ck_assert_int_eq(b.attempts, 2);
    db = thread_db();
    PGresult *res = cd_db_exec(db, ST_PING, 0, NULL);
    ck_assert(cd_db_ok(res));
    PQclear(res);
    PQfinish(c);
}
END_TEST

/* ---- main ---------------------------------------------------------------------------------------------------- */

static Suite *db_suite(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("migrate");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, migrate_empty_database);
    tcase_add_test(tc, migrate_twice_is_idempotent);
    tcase_add_loop_test(tc, migrate_concurrently, 0, 3);
    tcase_add_test(tc, schema_check_passes_after_migrate);
    tcase_add_test(tc, schema_check_fails_without_table);
    tcase_add_test(tc, schema_check_fails_behind);
    tcase_add_test(tc, schema_check_fails_ahead);
    tcase_add_test(tc, schema_check_fails_renamed);
    tcase_add_test(tc, schema_check_fails_edited);
    tcase_add_test(tc, migrate_records_the_hashes_of_older_rows);
    tcase_add_test(tc, migrate_fills_a_gap);
    tcase_add_test(tc, migrate_024_counts_waiting_games_from_their_creation);
    tcase_add_test(tc, unreachable_database);
    suite_add_tcase(s, tc);

    tc = tcase_create("statements");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_statement_prepares);
    tcase_add_test(tc, thread_db_on_unmigrated_database);
    tcase_add_test(tc, exec_null_parameter_and_error_result);
    tcase_add_test(tc, seat_reads_leave_out_a_cached_snapshot);
    tcase_add_test(tc, reads_bring_the_moves_after_the_snapshot);
    tcase_add_test(tc, a_waiting_move_reads_the_moves_just_committed);
    tcase_add_test(tc, an_update_keeping_the_snapshot_does_not_log_it);
    tcase_add_test(tc, a_move_updates_its_game_row_hot);
    tcase_add_test(tc, player_events_numbered_per_player);
    tcase_add_test(tc, a_seat_hold_is_the_bearers_seat);
    suite_add_tcase(s, tc);

    tc = tcase_create("tx");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tx_commits);
    tcase_add_test(tc, tx_rolls_back);
    tcase_add_test(tc, tx_error_not_retried);
    tcase_add_test(tc, tx_commit_after_failed_statement);
    tcase_add_test(tc, tx_retries_simulated_40001);
    tcase_add_test(tc, autocommit_statement_retried_on_40001);
    tcase_add_test(tc, tx_gives_up_after_5_retries);
    tcase_add_test(tc, tx_deferred_write_fails_the_commit);
    tcase_add_test(tc, tx_deferred_write_retried_on_40001);
    tcase_add_test(tc, tx_retries_real_serialization_failure);
    tcase_add_test(tc, tx_retries_real_deadlock);
    suite_add_tcase(s, tc);

    tc = tcase_create("reconnect");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, reconnects_after_backend_terminated);
    tcase_add_test(tc, tx_connection_lost);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *base_url = getenv("CARCD_TEST_DATABASE_URL");
    if (!base_url || !*base_url) {
        fprintf(stderr, "test_db: CARCD_TEST_DATABASE_URL is not set: these tests need a PostgreSQL server. "
                        "Run scripts/test.sh, or `source scripts/pg-temp.sh; pg_temp_start` first.\n");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(db_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
