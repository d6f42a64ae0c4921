/*
 * clocks.c — see clocks.h.
 */
#include "clocks.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_CLOCK_UPDATE, "clock_update",
                      "UPDATE games SET clock = $2::jsonb, clock_deadline = to_timestamp($3::float8), "
                      "clock_due = to_timestamp($4::float8) WHERE id = $1::uuid",
                      4},
    /* one due game per transaction: the worker holds its row until the timeout or reminder is stored */
    {ST_CLOCK_CLAIM, "clock_claim",
                     "SELECT id FROM games WHERE clock_due <= to_timestamp($1::float8) AND status = 'active' "
                     "ORDER BY clock_due LIMIT 1 FOR UPDATE SKIP LOCKED",
                     1},
    /* the same without the lock: names the due game in the log when the claim itself failed (read-only) */
    {ST_CLOCK_DUE_PEEK, "clock_due_peek",
                        "SELECT id FROM games WHERE clock_due <= to_timestamp($1::float8) AND status = 'active' "
                        "ORDER BY clock_due LIMIT 1",
                        1},
    {ST_CLOCK_DEFER, "clock_defer",
                     "UPDATE games SET clock_due = to_timestamp($2::float8) WHERE id = $1::uuid AND status = 'active' "
                     "AND clock_due IS NOT NULL",
                     2},
};
const cd_stmt_family cd_stmts_clocks = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_clock_update(cd_db *db, const char *game_id, const char *clock, double deadline, double due)
{
    char d[32], u[32];
    snprintf(d, sizeof d, "%.3f", deadline);
    snprintf(u, sizeof u, "%.3f", due);
    const char *p[] = {game_id, clock, deadline >= 0 ? d : NULL, due >= 0 ? u : NULL};
    return cd_q_run(db, ST_CLOCK_UPDATE, 4, p);
}

/* ST_CLOCK_CLAIM or ST_CLOCK_DUE_PEEK: the most overdue game at `now` (LIMIT 1). */
static cd_q due_game(cd_db *db, int stmt, double now, bool *found, char game_id[37])
{
    char now_s[32];
    snprintf(now_s, sizeof now_s, "%.3f", now);
    const char *p[] = {now_s};
    return cd_q_one(db, stmt, 1, p, found, cd_q_id_column, game_id);
}

cd_q cd_clock_claim(cd_db *db, double now, bool *found, char game_id[37])
{
    return due_game(db, ST_CLOCK_CLAIM, now, found, game_id);
}

cd_q cd_clock_due_peek(cd_db *db, double now, bool *found, char game_id[37])
{
    return due_game(db, ST_CLOCK_DUE_PEEK, now, found, game_id);
}

cd_q cd_clock_defer(cd_db *db, const char *game_id, double due)
{
    char u[32];
    snprintf(u, sizeof u, "%.3f", due);
    const char *p[] = {game_id, u};
    return cd_q_run(db, ST_CLOCK_DEFER, 2, p);
}
