/*
 * moves.c (db/) — see moves.h.
 */
#include "moves.h"

#include <stdio.h>
#include <string.h>

#include "base/int_text.h"
#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
/* The snapshot $3 becomes the checkpoint at seq $2; NULL keeps the stored one and its seq (sql/017) */
#define SNAPSHOT_CHECKPOINT                                                                                   \
    "snapshot = COALESCE($3::jsonb, snapshot), snapshot_seq = CASE WHEN $3::jsonb IS NULL THEN snapshot_seq " \
    "ELSE $2::integer END"
static const cd_stmt_info stmts[] = {
    {ST_MOVE_INSERT, "move_insert",
                     "INSERT INTO moves (game_id, seq, seat, move, events, idempotency_key, response, origin, "
                     "request_sha256) VALUES ($1::uuid, $2::integer, $3::integer, $4::jsonb, $5::jsonb, $6, "
                     "$7::jsonb, $8, $9)",
                     9},
    {ST_GAME_UPDATE, "game_update",
                     "UPDATE games SET seq = $2::integer, " SNAPSHOT_CHECKPOINT ", pending_kind = $6, status = $4, "
                     "pending_seat = $5::integer, updated_at = now(), "
                     "finished_at = CASE WHEN $4 = 'finished' THEN now() END WHERE id = $1::uuid",
                     6},
    {ST_GAME_UPDATE_CLOCK, "game_update_clock",
                           "UPDATE games SET seq = $2::integer, " SNAPSHOT_CHECKPOINT ", pending_kind = $6, "
                           "status = $4, pending_seat = $5::integer, updated_at = now(), "
                           "finished_at = CASE WHEN $4 = 'finished' THEN now() END, clock = $7::jsonb, "
                           "clock_deadline = to_timestamp($8::float8), clock_due = to_timestamp($9::float8) "
                           "WHERE id = $1::uuid",
                           9},
    {ST_MOVES_AFTER, "moves_after",
                     "SELECT seq, seat, move, events, origin FROM moves WHERE game_id = $1::uuid "
                     "AND seq > $2::integer ORDER BY seq LIMIT $3::integer",
                     3},
    {ST_NOTIFY_MOVE, "notify_move", "SELECT pg_notify('carcd_moves', $1)", 1},
};
const cd_stmt_family cd_stmts_moves = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events)
{
    const char *p[] = {game_id, "0", NULL, NULL, events, NULL, NULL, "seat", NULL};
    return cd_q_run(db, ST_MOVE_INSERT, 9, p);
}

/* "<game id>:<seq>", a move's NOTIFY (db/notify.c reads it back) */
static void notify_payload(const char *game_id, int seq, char out[64])
{
    size_t n = strlen(game_id);
    if (n > 64 - CD_INT_TEXT - 1)
        n = 64 - CD_INT_TEXT - 1;   /* a game id is a uuid, 36 characters */
    memcpy(out, game_id, n);
    out[n] = ':';
    cd_int_text(seq, out + n + 1);
}

cd_q cd_moves_notify(cd_db *db, const char *game_id, int seq)
{
    char payload[64];
    notify_payload(game_id, seq, payload);
    const char *p[] = {payload};
    return cd_q_run(db, ST_NOTIFY_MOVE, 1, p);
}

bool cd_move_store_deferred(cd_db *db, const cd_move_row *m, const cd_game_after_move *g)
{
    char seq[CD_INT_TEXT], seat[CD_INT_TEXT], pending[CD_INT_TEXT], payload[64], deadline[32] = "", due[32] = "";
    cd_int_text(m->seq, seq);
    cd_int_text(m->seat, seat);
    cd_int_text(g->pending_seat, pending);
    notify_payload(m->game_id, m->seq, payload);
    if (g->deadline >= 0)   /* a clocked game's only: "%.3f" is the costliest of these formats */
        snprintf(deadline, sizeof deadline, "%.3f", g->deadline);
    if (g->due >= 0)
        snprintf(due, sizeof due, "%.3f", g->due);
    const char *p1[] = {m->game_id, seq, seat, m->move, m->events, m->idem, m->response, m->origin,
                        m->idem ? m->request_sha256 : NULL};
    /* ST_GAME_UPDATE takes the first six, ST_GAME_UPDATE_CLOCK all nine */
    const char *p2[] = {m->game_id, seq, g->snapshot, g->finished ? "finished" : "active", g->finished ? NULL : pending,
                        g->pending_kind, g->clock, g->deadline >= 0 ? deadline : NULL, g->due >= 0 ? due : NULL};
    const char *p3[] = {payload};
    bool clocked = g->clock != NULL;
    return cd_db_defer(db, ST_MOVE_INSERT, 9, p1) &&
           cd_db_defer(db, clocked ? ST_GAME_UPDATE_CLOCK : ST_GAME_UPDATE, clocked ? 9 : 6, p2) &&
           cd_db_defer(db, ST_NOTIFY_MOVE, 1, p3);
}
