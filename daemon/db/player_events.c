/*
 * player_events.c (db/) — see player_events.h.
 */
#include "player_events.h"

#include <stdio.h>

#include "query.h"

/* The number comes from the player's row (players.events_n), updated in the event's transaction: two games
 * of one player moving at once take their numbers one after the other (the row lock), never the same one. */
#define PEV_WRITE(source)                                                                                        \
    "WITH u AS (UPDATE players p SET events_n = p.events_n + 1 FROM (" source ") t WHERE p.id = t.player_id "     \
    "RETURNING p.id, p.events_n, t.seat), "                                                                     \
    "i AS (INSERT INTO player_events (player_id, n, kind, game_id, seq, seat, status) "                         \
    "SELECT u.id, u.events_n, $4, $1::uuid, $2::integer, u.seat, $5 FROM u RETURNING player_id, n) "            \
    "SELECT pg_notify('carcd_moves', i.player_id::text || ':' || i.n) FROM i"

static const cd_stmt_info stmts[] = {
    {ST_PLAYER_EVENTS_SEATS, "player_events_seats",
                             PEV_WRITE("SELECT player_id, min(seat) AS seat FROM seats WHERE game_id = $1::uuid "
                                       "AND player_id IS NOT NULL AND ($3::integer = -1 OR bot IS NULL AND seat = CASE WHEN "
                                       "$3::integer = -2 THEN (SELECT pending_seat FROM games WHERE id = $1::uuid) "
                                       "ELSE $3::integer END) GROUP BY player_id"),
                             5},
    {ST_PLAYER_EVENTS_OTHERS, "player_events_others",
                              /* the seat's own player holds no other seat of the game: a join is refused
                               * to a key that already holds one (game/lobby_join.c) */
                              PEV_WRITE("SELECT player_id, min(seat) AS seat FROM seats WHERE game_id = $1::uuid "
                                        "AND player_id IS NOT NULL AND bot IS NULL AND seat <> $3::integer "
                                        "GROUP BY player_id"),
                              5},
    {ST_PLAYER_EVENT_ONE, "player_event_one",
                          PEV_WRITE("SELECT $3::uuid AS player_id, $6::integer AS seat"), 6},
    {ST_PLAYER_EVENTS_AFTER, "player_events_after",
                             "SELECT n, kind, game_id, seq, seat, status, " CD_SQL_ISO("at") " FROM player_events "
                             "WHERE player_id = $1::uuid AND n > $2::integer ORDER BY n LIMIT $3::integer",
                             3},
};
const cd_stmt_family cd_stmts_player_events = {stmts, sizeof stmts / sizeof stmts[0]};

bool cd_player_events_for_seats_deferred(cd_db *db, const char *game_id, int seq, int seat, const char *kind,
                                         const char *status)
{
    char seq_s[16], seat_s[16];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seq_s, seat_s, kind, status};
    return cd_db_defer(db, ST_PLAYER_EVENTS_SEATS, 5, p);
}

bool cd_player_events_for_others_deferred(cd_db *db, const char *game_id, int seq, int seat, const char *kind)
{
    char seq_s[16], seat_s[16];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seq_s, seat_s, kind, NULL};
    return cd_db_defer(db, ST_PLAYER_EVENTS_OTHERS, 5, p);
}

bool cd_player_event_emit(cd_db *db, const char *player_id, const char *kind, const char *game_id, int seq,
                              int seat)
{
    char seq_s[16], seat_s[16];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seq_s, player_id, kind, NULL, seat >= 0 ? seat_s : NULL};
    return cd_db_defer(db, ST_PLAYER_EVENT_ONE, 6, p);
}

static void fill_event(const PGresult *res, int i, void *row)
{
    cd_player_event_row *e = row;
    e->n = atoi(PQgetvalue(res, i, 0));
    e->kind = PQgetvalue(res, i, 1);
    e->game_id = PQgetvalue(res, i, 2);
    e->seq = atoi(PQgetvalue(res, i, 3));
    e->has_seat = !PQgetisnull(res, i, 4);
    e->seat = cd_q_int(res, i, 4, -1);
    e->status = cd_q_text(res, i, 5);
    e->at = PQgetvalue(res, i, 6);
}

cd_q cd_player_events_after(cd_db *db, const char *player_id, int after, int limit, cd_player_event_rows *out)
{
    char after_s[16], limit_s[16];
    snprintf(after_s, sizeof after_s, "%d", after);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {player_id, after_s, limit_s};
    cd_q_rowset rs;
    cd_q q = cd_q_rows(db, ST_PLAYER_EVENTS_AFTER, 3, p, sizeof(cd_player_event_row), fill_event, &rs);
    *out = (cd_player_event_rows){.n = rs.n, .v = rs.v, .res = rs.res};
    return q;
}

void cd_player_event_rows_free(cd_player_event_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_player_event_rows){0};
}
