/*
 * store.c — the statement table: all the SQL carcd runs, prepared once per connection by db.c.
 * One row per query, so a reader finds every statement the daemon can issue in this file.
 */
#include "db.h"
#include "store.h"

/* timestamps leave the database as ISO 8601 UTC text */
#define ISO(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
#define GAME_COLUMNS                                                                                         \
    "g.seq, g.status, g.setup, g.snapshot, g.seed_sha256, " ISO("g.created_at") ", " ISO("g.updated_at")     \
    ", " ISO("g.finished_at")

const cd_stmt_info cd_stmts[CD_NSTMTS] = {
    [ST_PING] = {"ping", "SELECT 1", 0},
    [ST_GAME_INSERT] = {"game_insert",
                        "INSERT INTO games (setup, snapshot, seed_sha256, pending_seat, status) "
                        "VALUES ($1::jsonb, $2::jsonb, $3, $4::integer, $5) RETURNING id",
                        5},
    [ST_SECRET_INSERT] = {"secret_insert", "INSERT INTO game_secrets (game_id, seed) VALUES ($1::uuid, $2)", 2},
    [ST_SEAT_INSERT] = {"seat_insert",
                        "INSERT INTO seats (game_id, seat, name, token_hash) VALUES ($1::uuid, $2::integer, $3, $4)",
                        4},
    [ST_MOVE_INSERT] = {"move_insert",
                        "INSERT INTO moves (game_id, seq, seat, move, events, idempotency_key, response) "
                        "VALUES ($1::uuid, $2::integer, $3::integer, $4::jsonb, $5::jsonb, $6, $7::jsonb)",
                        7},
    [ST_GAME_LOCK] = {"game_lock",
                      "SELECT g.seq, g.status, g.snapshot, s.seed FROM games g "
                      "JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid FOR UPDATE OF g",
                      1},
    /* the seed leaves game_secrets only once the game is over: it is revealed then */
    [ST_GAME_GET] = {"game_get",
                     "SELECT " GAME_COLUMNS ", CASE WHEN g.status = 'finished' THEN s.seed END "
                     "FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                     1},
    [ST_GAME_GET_ADMIN] = {"game_get_admin",
                           "SELECT " GAME_COLUMNS ", s.seed "
                           "FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                           1},
    [ST_SEATS_OF_GAME] = {"seats_of_game", "SELECT seat, name FROM seats WHERE game_id = $1::uuid ORDER BY seat",
                          1},
    [ST_TOKEN_LOOKUP] = {"token_lookup", "SELECT game_id, seat FROM seats WHERE token_hash = $1", 1},
    [ST_GAME_UPDATE] = {"game_update",
                        "UPDATE games SET seq = $2::integer, snapshot = $3::jsonb, status = $4, "
                        "pending_seat = $5::integer, updated_at = now(), "
                        "finished_at = CASE WHEN $4 = 'finished' THEN now() END WHERE id = $1::uuid",
                        5},
    [ST_MOVE_BY_IDEM] = {"move_by_idem",
                         "SELECT response FROM moves WHERE game_id = $1::uuid AND seat = $2::integer "
                         "AND idempotency_key = $3",
                         3},
    [ST_MOVES_AFTER] = {"moves_after",
                        "SELECT seq, seat, move, events FROM moves WHERE game_id = $1::uuid AND seq > $2::integer "
                        "ORDER BY seq LIMIT $3::integer",
                        3},
    [ST_MOVES_ALL] = {"moves_all",
                      "SELECT seq, seat, move FROM moves WHERE game_id = $1::uuid AND seq > 0 ORDER BY seq", 1},
    /* the cursor is the last id of the previous page; rows are ordered by (created_at, id) */
    [ST_GAMES_LIST] = {"games_list",
                       "SELECT id, status, seq, " ISO("created_at") ", " ISO("updated_at") ", "
                       "(setup->>'nplayers')::integer, pending_seat FROM games "
                       "WHERE ($1::text IS NULL OR status = $1) AND ($2::uuid IS NULL OR "
                       "(created_at, id) > ((SELECT created_at FROM games WHERE id = $2::uuid), $2::uuid)) "
                       "ORDER BY created_at, id LIMIT $3::integer",
                       3},
    [ST_NOTIFY_MOVE] = {"notify_move", "SELECT pg_notify('carcd_moves', $1)", 1},
    [ST_AUDIT_INSERT] = {"audit_insert",
                         "INSERT INTO admin_audit (action, game_id, actor, actor_name, remote_addr, user_agent, "
                         "detail) VALUES ($1, $2::uuid, $3, $4, $5, $6, $7::jsonb) RETURNING id",
                         7},
    /* the cursor is the last id of the previous page: newest first */
    [ST_AUDIT_LIST] = {"audit_list",
                       "SELECT id, " ISO("at") ", action, game_id, actor, actor_name, remote_addr, user_agent, "
                       "detail FROM admin_audit WHERE ($1::bigint IS NULL OR id < $1::bigint) "
                       "AND ($2::uuid IS NULL OR game_id = $2::uuid) AND ($3::text IS NULL OR action = $3) "
                       "ORDER BY id DESC LIMIT $4::integer",
                       4},
};
const int cd_nstmts = CD_NSTMTS;
