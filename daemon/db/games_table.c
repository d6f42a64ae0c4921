/*
 * games_table.c — see games_table.h.
 */
#include "games_table.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_GAME_INSERT, "game_insert",
                     "INSERT INTO games (setup, snapshot, seed_sha256, pending_seat, status, clock, clock_deadline, "
                     "clock_due) VALUES ($1::jsonb, $2::jsonb, $3, $4::integer, $5, $6::jsonb, "
                     "to_timestamp($7::float8), to_timestamp($8::float8)) RETURNING id",
                     8},
    {ST_SECRET_INSERT, "secret_insert", "INSERT INTO game_secrets (game_id, seed) VALUES ($1::uuid, $2)", 2},
    {ST_SEAT_INSERT, "seat_insert",
                     "INSERT INTO seats (game_id, seat, name, token_hash, player_id) VALUES ($1::uuid, $2::integer, "
                     "$3, $4, (SELECT id FROM players WHERE key_hash = $5)) "
                     "RETURNING $5::text IS NULL OR player_id IS NOT NULL",
                     5},
    {ST_SEAT_HOLD, "seat_hold",
                   "SELECT 1 FROM seats WHERE game_id = $1::uuid AND seat = $2::integer AND (token_hash = $3 "
                   "OR player_id = (SELECT id FROM players WHERE key_hash = $3)) FOR SHARE",
                   3},
    {ST_SEATS_OF_GAME, "seats_of_game", "SELECT seat, name FROM seats WHERE game_id = $1::uuid ORDER BY seat",
                       1},
    /* the cursor is the last id of the previous page; rows are ordered by (created_at, id) */
    /* The page's ids first, from an index alone, then their rows: with the rows' columns in the scan, the
     * planner priced games_created (every game, filtered by status) and games_status_created (sql/001) alike,
     * and after an ANALYZE on 100 000 games, most finished, it walked the old finished games for a page of
     * active ones (7 100 buffers, 9-40 ms against 0.4; a helper's audit, 2026-12-07). */
    {ST_GAMES_LIST, "games_list",
                    "SELECT g.id, g.status, g.seq, " CD_SQL_ISO("g.created_at") ", " CD_SQL_ISO("g.updated_at") ", "
                    "(g.setup->>'nplayers')::integer, g.pending_seat, "
                    "CASE WHEN g.status = 'waiting' THEN (SELECT nseats FROM game_waiting w WHERE w.game_id = g.id) "
                    "END, "
                    "CASE WHEN g.status = 'waiting' THEN (SELECT count(*) FROM seats s WHERE s.game_id = g.id) END "
                    "FROM (SELECT k.id FROM games k WHERE ($1::text IS NULL OR k.status = $1) AND ($2::uuid IS NULL OR "
                    "(k.created_at, k.id) > ((SELECT created_at FROM games WHERE id = $2::uuid), $2::uuid)) "
                    "ORDER BY k.created_at, k.id LIMIT $3::integer) page JOIN games g ON g.id = page.id "
                    "ORDER BY g.created_at, g.id",
                    3},
};
const cd_stmt_family cd_stmts_games_table = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_game_insert(cd_db *db, const cd_game_insert_row *g, char id[37])
{
    char pending[16], deadline[32], due[32];
    snprintf(pending, sizeof pending, "%d", g->pending_seat);
    snprintf(deadline, sizeof deadline, "%.3f", g->deadline);
    snprintf(due, sizeof due, "%.3f", g->due);
    const char *p[] = {g->setup, g->snapshot, g->seed_sha256, g->finished || g->waiting ? NULL : pending,
                       g->waiting ? "waiting" : g->finished ? "finished" : "active", g->clock,
                       g->clock && g->deadline >= 0 ? deadline : NULL,
                       g->clock && g->due >= 0 ? due : NULL};
    return cd_q_one(db, ST_GAME_INSERT, 8, p, NULL, cd_q_id_column, id);
}

cd_q cd_game_secret_insert(cd_db *db, const char *game_id, const char *seed_hex)
{
    const char *p[] = {game_id, seed_hex};
    return cd_q_run(db, ST_SECRET_INSERT, 2, p);
}

/* Column 0 of row i (whether the key was already a player's) into the bool at row. */
static void bool_column(const PGresult *res, int i, void *row)
{
    *(bool *)row = strcmp(PQgetvalue(res, i, 0), "t") == 0;
}

cd_q cd_seat_insert(cd_db *db, const char *game_id, int seat, const char *name, const char *token_hash,
                    const char *key_hash, bool *key_known)
{
    char seat_s[12];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, name, token_hash, key_hash};
    return cd_q_one(db, ST_SEAT_INSERT, 5, p, NULL, bool_column, key_known);
}

cd_q cd_seat_hold(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *held)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, bearer_hash};
    *held = false;
    return cd_q_one(db, ST_SEAT_HOLD, 3, p, held, NULL, NULL);
}

cd_q cd_seats_count(cd_db *db, const char *game_id, int *n)
{
    const char *p[] = {game_id};
    return cd_q_count(db, ST_SEATS_OF_GAME, 1, p, n);
}

/* Column 1 (the seat's name) of a ST_SEATS_OF_GAME row into the const char * at row. */
static void seat_name(const PGresult *res, int i, void *row)
{
    *(const char **)row = PQgetvalue(res, i, 1);
}

cd_q cd_seat_names_read(cd_db *db, const char *game_id, cd_seat_names *out)
{
    const char *p[] = {game_id};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_SEATS_OF_GAME, 1, p, sizeof *out->name, seat_name, &r);
    *out = (cd_seat_names){.n = r.n, .name = r.v, .res = r.res};
    return q;
}

void cd_seat_names_free(cd_seat_names *names)
{
    cd_q_rows_release(names->name, names->res);
    *names = (cd_seat_names){0};
}

static void games_list_row(const PGresult *res, int i, void *row)
{
    cd_games_list_row *g = row;
    g->id = PQgetvalue(res, i, 0);
    g->status = PQgetvalue(res, i, 1);
    g->seq = atoi(PQgetvalue(res, i, 2));
    g->created_at = PQgetvalue(res, i, 3);
    g->updated_at = PQgetvalue(res, i, 4);
    g->nplayers = atoi(PQgetvalue(res, i, 5));
    g->has_pending = !PQgetisnull(res, i, 6);
    g->pending_seat = cd_q_int(res, i, 6, -1);
    g->seats_asked = cd_q_int(res, i, 7, -1);
    g->seats_taken = cd_q_int(res, i, 8, -1);
}

cd_q cd_games_list(cd_db *db, const char *status, const char *after, long limit, cd_games_list_rows *out)
{
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {status, after, lim};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_GAMES_LIST, 3, p, sizeof *out->v, games_list_row, &r);
    *out = (cd_games_list_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_games_list_rows_free(cd_games_list_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_games_list_rows){0};
}
