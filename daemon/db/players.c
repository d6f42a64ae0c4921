/*
 * players.c — see players.h.
 */
#include "players.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_PLAYER_INSERT, "player_insert",
                       "INSERT INTO players (name, key_hash) VALUES ($1, $2) RETURNING id", 2},
    {ST_PLAYER_BY_KEY, "player_by_key", "SELECT id FROM players WHERE key_hash = $1", 1},
    {ST_SEAT_LINK, "seat_link",
                   "UPDATE seats SET player_id = p.id FROM players p WHERE p.key_hash = $3 "
                   "AND seats.game_id = $1::uuid AND seats.seat = $2::integer RETURNING p.id",
                   3},
    /* the pending kind a move wrote (sql/017), else that of a snapshot no move has followed since */
    {ST_ME_GAMES, "me_games",
                  "SELECT g.id, s.seat, g.status, g.seq, g.pending_seat, COALESCE(g.pending_kind, g.snapshot->'pending'->>'kind'), "
                  "EXTRACT(EPOCH FROM g.clock_deadline)::float8, " CD_SQL_ISO("g.updated_at") ", g.clock, "
                  /* a waiting game's open places: one index scan each, for those games only */
                  "CASE WHEN g.status = 'waiting' THEN (SELECT count(*) FROM seat_invites i "
                  "WHERE i.game_id = g.id AND i.seat IS NULL) END, "
                  /* and when it counts from for its expiry (sql/024): its row, by its primary key */
                  "CASE WHEN g.status = 'waiting' THEN (SELECT extract(epoch FROM w.last_join_at)::float8 "
                  "FROM game_waiting w WHERE w.game_id = g.id) END "
                  /* the player's seats of games under way (no ended_at: few), and only the latest `limit` of
                   * those that ended, by seats_player_ended (sql/038): not every seat it ever held */
                  "FROM ((SELECT r.game_id, r.seat FROM seats r WHERE r.player_id = $1::uuid AND r.ended_at IS NULL) "
                  "UNION ALL (SELECT e.game_id, e.seat FROM seats e JOIN games eg ON eg.id = e.game_id "
                  "WHERE e.player_id = $1::uuid AND e.ended_at IS NOT NULL "
                  "AND ($2::text IS NULL OR eg.status = $2) ORDER BY e.ended_at DESC LIMIT $3::integer)) s "
                  "JOIN games g ON g.id = s.game_id WHERE ($2::text IS NULL OR g.status = $2) "
                  "ORDER BY (g.status = 'active' AND g.pending_seat = s.seat) DESC, "
                  "g.clock_deadline ASC NULLS LAST, g.updated_at DESC LIMIT $3::integer",
                  3},
};
const cd_stmt_family cd_stmts_players = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_player_insert(cd_db *db, const char *name, const char *key_hash, char id[37])
{
    const char *p[] = {name, key_hash};
    return cd_q_one(db, ST_PLAYER_INSERT, 2, p, NULL, cd_q_id_column, id);
}

cd_q cd_player_by_key(cd_db *db, const char *key_hash, bool *found, char id[37])
{
    const char *p[] = {key_hash};
    return cd_q_one(db, ST_PLAYER_BY_KEY, 1, p, found, cd_q_id_column, id);
}

cd_q cd_seat_link(cd_db *db, const char *game_id, int seat, const char *key_hash, bool *found, char player_id[37])
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, key_hash};
    return cd_q_one(db, ST_SEAT_LINK, 3, p, found, cd_q_id_column, player_id);
}

static void me_game_row(const PGresult *res, int i, void *row)
{
    cd_me_game_row *g = row;
    g->id = PQgetvalue(res, i, 0);
    g->seat = atoi(PQgetvalue(res, i, 1));
    g->status = PQgetvalue(res, i, 2);
    g->seq = atoi(PQgetvalue(res, i, 3));
    g->has_pending = !PQgetisnull(res, i, 4);
    g->pending_seat = cd_q_int(res, i, 4, -1);
    g->pending_kind = cd_q_text(res, i, 5);
    g->has_deadline = !PQgetisnull(res, i, 6);
    g->deadline = g->has_deadline ? atof(PQgetvalue(res, i, 6)) : 0;
    g->updated_at = PQgetvalue(res, i, 7);
    g->clock = cd_q_text(res, i, 8);
    g->open = cd_q_int(res, i, 9, -1);
    g->last_join_at = PQgetisnull(res, i, 10) ? -1 : atof(PQgetvalue(res, i, 10));
}

cd_q cd_me_games(cd_db *db, const char *player_id, const char *status, long limit, cd_me_game_rows *out)
{
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {player_id, status, lim};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_ME_GAMES, 3, p, sizeof *out->v, me_game_row, &r);
    *out = (cd_me_game_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_me_game_rows_free(cd_me_game_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_me_game_rows){0};
}
