/*
 * moves.c (db/) — see moves.h.
 */
#include "moves.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_MOVE_INSERT, "move_insert",
                     "INSERT INTO moves (game_id, seq, seat, move, events, idempotency_key, response, origin, "
                     "request_sha256) VALUES ($1::uuid, $2::integer, $3::integer, $4::jsonb, $5::jsonb, $6, "
                     "$7::jsonb, $8, $9)",
                     9},
    {ST_GAME_UPDATE, "game_update",
                     "UPDATE games SET seq = $2::integer, snapshot = $3::jsonb, status = $4, "
                     "pending_seat = $5::integer, updated_at = now(), "
                     "finished_at = CASE WHEN $4 = 'finished' THEN now() END WHERE id = $1::uuid",
                     5},
    {ST_GAME_UPDATE_CLOCK, "game_update_clock",
                           "UPDATE games SET seq = $2::integer, snapshot = $3::jsonb, status = $4, "
                           "pending_seat = $5::integer, updated_at = now(), "
                           "finished_at = CASE WHEN $4 = 'finished' THEN now() END, clock = $6::jsonb, "
                           "clock_deadline = to_timestamp($7::float8), clock_due = to_timestamp($8::float8) "
                           "WHERE id = $1::uuid",
                           8},
    {ST_MOVES_AFTER, "moves_after",
                     "SELECT seq, seat, move, events, origin FROM moves WHERE game_id = $1::uuid "
                     "AND seq > $2::integer ORDER BY seq LIMIT $3::integer",
                     3},
    {ST_MOVES_ALL, "moves_all",
                   "SELECT seq, seat, move FROM moves WHERE game_id = $1::uuid AND seq > 0 ORDER BY seq", 1},
    {ST_NOTIFY_MOVE, "notify_move", "SELECT pg_notify('carcd_moves', $1)", 1},
};
const cd_stmt_family cd_stmts_moves = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events)
{
    const char *p[] = {game_id, "0", NULL, NULL, events, NULL, NULL, "seat", NULL};
    return cd_q_run(db, ST_MOVE_INSERT, 9, p);
}

static void log_row(const PGresult *res, int i, void *row)
{
    cd_log_row *m = row;
    m->seq = atoi(PQgetvalue(res, i, 0));
    m->has_seat = !PQgetisnull(res, i, 1);
    m->seat = cd_q_int(res, i, 1, -1);
    m->move = cd_q_text(res, i, 2);
    m->events = PQgetvalue(res, i, 3);
    m->origin = PQgetvalue(res, i, 4);
}

cd_q cd_moves_notify(cd_db *db, const char *game_id, int seq)
{
    char payload[64];
    snprintf(payload, sizeof payload, "%s:%d", game_id, seq);
    const char *p[] = {payload};
    return cd_q_run(db, ST_NOTIFY_MOVE, 1, p);
}

cd_q cd_moves_after(cd_db *db, const char *game_id, int after, int limit, cd_log_rows *out)
{
    char after_s[16], limit_s[16];
    snprintf(after_s, sizeof after_s, "%d", after);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {game_id, after_s, limit_s};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_MOVES_AFTER, 3, p, sizeof *out->v, log_row, &r);
    *out = (cd_log_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_log_rows_free(cd_log_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_log_rows){0};
}

bool cd_move_store_deferred(cd_db *db, const cd_move_row *m, const cd_game_after_move *g)
{
    char seq[16], seat[16], pending[16], payload[64], deadline[32], due[32];
    snprintf(seq, sizeof seq, "%d", m->seq);
    snprintf(seat, sizeof seat, "%d", m->seat);
    snprintf(pending, sizeof pending, "%d", g->pending_seat);
    snprintf(payload, sizeof payload, "%s:%d", m->game_id, m->seq);
    snprintf(deadline, sizeof deadline, "%.3f", g->deadline);
    snprintf(due, sizeof due, "%.3f", g->due);
    const char *p1[] = {m->game_id, seq, seat, m->move, m->events, m->idem, m->response, m->origin,
                        m->idem ? m->request_sha256 : NULL};
    const char *p2[] = {m->game_id, seq, g->snapshot, g->finished ? "finished" : "active", g->finished ? NULL : pending,
                        g->clock, g->deadline >= 0 ? deadline : NULL, g->due >= 0 ? due : NULL};
    const char *p3[] = {payload};
    bool clocked = g->clock != NULL;
    return cd_db_defer(db, ST_MOVE_INSERT, 9, p1) &&
           cd_db_defer(db, clocked ? ST_GAME_UPDATE_CLOCK : ST_GAME_UPDATE, clocked ? 8 : 5, p2) &&
           cd_db_defer(db, ST_NOTIFY_MOVE, 1, p3);
}

static void replay_row(const PGresult *res, int i, void *row)
{
    cd_replay_row *m = row;
    m->seq = atoi(PQgetvalue(res, i, 0));
    m->seat = atoi(PQgetvalue(res, i, 1));
    m->move = PQgetvalue(res, i, 2);
}

cd_q cd_moves_all(cd_db *db, const char *game_id, cd_replay_rows *out)
{
    const char *p[] = {game_id};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_MOVES_ALL, 1, p, sizeof *out->v, replay_row, &r);
    *out = (cd_replay_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_replay_rows_free(cd_replay_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_replay_rows){0};
}
