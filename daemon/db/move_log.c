/*
 * move_log.c (db/) — see move_log.h.
 */
#include "move_log.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

/* The rows of a game's log, then (UNION ALL) its compact log when it has one: a game has one or the other
 * (compaction writes the text and deletes the rows in one transaction), and one statement reads one snapshot. */
#define LOG_ROWS "SELECT seq, seat, move, events, origin, NULL::text FROM moves WHERE game_id = $1::uuid "
#define LOG_COMPACT "SELECT NULL::integer, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::text, log FROM games " \
                    "WHERE id = $1::uuid AND log IS NOT NULL"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_LOG_AFTER, "log_after",
                   "(" LOG_ROWS "AND seq > $2::integer ORDER BY seq LIMIT $3::integer) UNION ALL (" LOG_COMPACT ")", 3},
    {ST_LOG_ALL, "log_all", "(" LOG_ROWS "AND seq > 0 ORDER BY seq) UNION ALL (" LOG_COMPACT ")", 1},
    {ST_GAME_REPLAY_READ, "game_replay_read",
                          "SELECT g.setup, s.seed FROM games g JOIN game_secrets s ON s.game_id = g.id "
                          "WHERE g.id = $1::uuid",
                          1},
    /* the oldest finished game still in rows (games_to_compact), locked; one that failed to compact in this
     * process is skipped ($1), so it cannot hold up the others */
    {ST_COMPACT_CLAIM, "compact_claim",
                       "SELECT id FROM games WHERE status = 'finished' AND log IS NULL AND NOT (id = ANY($1::uuid[])) "
                       "AND finished_at < to_timestamp($2::float8) ORDER BY finished_at LIMIT 1 FOR UPDATE SKIP LOCKED",
                       2},
    {ST_COMPACT_STORE, "compact_store", "UPDATE games SET log = $2 WHERE id = $1::uuid AND log IS NULL", 2},
    {ST_COMPACT_DELETE, "compact_delete", "DELETE FROM moves WHERE game_id = $1::uuid", 1},
    /* moves_key_age finds them; SKIP LOCKED leaves rows a move or another sweep holds for the next time */
    {ST_IDEM_SWEEP, "idempotency_sweep",
                    "WITH old AS (SELECT game_id, seq FROM moves WHERE (idempotency_key IS NOT NULL OR "
                    "response IS NOT NULL) AND created_at < to_timestamp($1::float8) ORDER BY created_at LIMIT $2::integer "
                    "FOR UPDATE SKIP LOCKED) "
                    "UPDATE moves m SET response = NULL, idempotency_key = NULL, request_sha256 = NULL FROM old "
                    "WHERE m.game_id = old.game_id AND m.seq = old.seq",
                    2},
};
const cd_stmt_family cd_stmts_move_log = {stmts, sizeof stmts / sizeof stmts[0]};

/* A row of LOG_ROWS / LOG_COMPACT; the compact log's row is told apart by its last column. */
typedef struct {
    cd_stored_move m;
    const char *compact;
} log_row;

static void fill_log_row(const PGresult *res, int i, void *row)
{
    log_row *r = row;
    r->compact = cd_q_text(res, i, 5);
    if (r->compact)
        return;
    r->m.seq = atoi(PQgetvalue(res, i, 0));
    r->m.has_seat = !PQgetisnull(res, i, 1);
    r->m.seat = cd_q_int(res, i, 1, -1);
    r->m.move = cd_q_text(res, i, 2);
    r->m.events = cd_q_text(res, i, 3);
    r->m.clock = strcmp(PQgetvalue(res, i, 4), "clock") == 0;
    r->m.bot = strcmp(PQgetvalue(res, i, 4), "bot") == 0;
}

static cd_q read_log(cd_db *db, int stmt, int n, const char *const *p, cd_stored_log *out)
{
    *out = (cd_stored_log){0};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, stmt, n, p, sizeof(log_row), fill_log_row, &r);
    if (q != CD_Q_OK)
        return q;
    log_row *rows = r.v;
    out->res = r.res;
    out->v = calloc((size_t)r.n + 1, sizeof *out->v);
    if (!out->v)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < r.n; i++) {
        if (rows[i].compact)
            out->compact = rows[i].compact;
        else
            out->v[out->n++] = rows[i].m;
    }
    free(rows);
    if (out->compact)
        out->n = 0;   /* never both; should rows remain, the compact log is what the game is */
    return CD_Q_OK;
}

cd_q cd_stored_log_after(cd_db *db, const char *game_id, int after, int limit, cd_stored_log *out)
{
    char after_s[16], limit_s[16];
    snprintf(after_s, sizeof after_s, "%d", after);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {game_id, after_s, limit_s};
    return read_log(db, ST_LOG_AFTER, 3, p, out);
}

cd_q cd_stored_log_all(cd_db *db, const char *game_id, cd_stored_log *out)
{
    const char *p[] = {game_id};
    return read_log(db, ST_LOG_ALL, 1, p, out);
}

void cd_stored_log_free(cd_stored_log *l)
{
    cd_q_rows_release(l->v, l->res);
    *l = (cd_stored_log){0};
}

typedef struct {
    char *setup;
    char seed[65];
} replay_row;

static void fill_replay_row(const PGresult *res, int i, void *row)
{
    replay_row *r = row;
    r->setup = strdup(PQgetvalue(res, i, 0));
    if (!r->setup)
        abort();
    snprintf(r->seed, sizeof r->seed, "%s", PQgetvalue(res, i, 1));
}

cd_q cd_game_replay_read(cd_db *db, const char *game_id, bool *found, char **setup, char seed[65])
{
    const char *p[] = {game_id};
    replay_row r = {0};
    cd_q q = cd_q_one(db, ST_GAME_REPLAY_READ, 1, p, found, fill_replay_row, &r);
    *setup = r.setup;
    memcpy(seed, r.seed, sizeof r.seed);
    return q;
}

cd_q cd_compact_claim(cd_db *db, const char *skip, double finished_before, bool *found, char game_id[37])
{
    char b[32];
    snprintf(b, sizeof b, "%.3f", finished_before);
    const char *p[] = {skip, b};
    return cd_q_one(db, ST_COMPACT_CLAIM, 2, p, found, cd_q_id_column, game_id);
}

cd_q cd_compact_store(cd_db *db, const char *game_id, const char *log)
{
    const char *p1[] = {game_id, log};
    const char *p2[] = {game_id};
    const cd_db_call calls[] = {{ST_COMPACT_STORE, 2, p1}, {ST_COMPACT_DELETE, 1, p2}};
    PGresult *res[2];
    cd_q q = cd_q_many(db, 2, calls, res);
    PQclear(res[0]);
    PQclear(res[1]);
    return q;
}

cd_q cd_idempotency_sweep(cd_db *db, double before, int limit, int *n)
{
    char b[32], l[16];
    snprintf(b, sizeof b, "%.3f", before);
    snprintf(l, sizeof l, "%d", limit);
    const char *p[] = {b, l};
    return cd_q_changed(db, ST_IDEM_SWEEP, 2, p, n);
}
