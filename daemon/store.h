/*
 * store.h — every SQL statement carcd runs, one enum value each (the rows of cd_stmts in store.c).
 * Parameters are text; the SQL casts them. Results are read with libpq directly by the one caller.
 */
#ifndef CD_STORE_H
#define CD_STORE_H

typedef enum {
    ST_PING,             /* () -> 1 */
    ST_GAME_INSERT,      /* (setup, snapshot, seed_sha256, pending_seat, status) -> id */
    ST_SECRET_INSERT,    /* (game_id, seed) */
    ST_SEAT_INSERT,      /* (game_id, seat, name, token_hash) */
    ST_MOVE_INSERT,      /* (game_id, seq, seat, move, events, idempotency_key, response) */
    ST_GAME_LOCK,        /* (game_id) -> seq, status, snapshot, seed   FOR UPDATE */
    ST_GAME_GET,         /* (game_id) -> seq, status, setup, snapshot, seed_sha256, created_at, updated_at,
                                         finished_at, seed (only once finished) */
    ST_GAME_GET_ADMIN,   /* (game_id) -> the same, seed always */
    ST_SEATS_OF_GAME,    /* (game_id) -> seat, name */
    ST_TOKEN_LOOKUP,     /* (token_hash) -> game_id, seat */
    ST_GAME_UPDATE,      /* (game_id, seq, snapshot, status, pending_seat) */
    ST_MOVE_BY_IDEM,     /* (game_id, seat, key) -> response */
    ST_MOVES_AFTER,      /* (game_id, after_seq, limit) -> seq, seat, move, events */
    ST_MOVES_ALL,        /* (game_id) -> seq, seat, move   (seq > 0, in order: replay) */
    ST_GAMES_LIST,       /* (status|NULL, after_id|NULL, limit) -> id, status, seq, created_at, updated_at,
                                         nplayers, pending_seat */
    ST_NOTIFY_MOVE,      /* (payload) */
    ST_AUDIT_INSERT,     /* (action, game_id|NULL, actor, actor_name|NULL, remote_addr|NULL, user_agent|NULL,
                             detail) -> id */
    ST_AUDIT_LIST,       /* (before_id|NULL, game_id|NULL, action|NULL, limit) -> id, at, action, game_id,
                             actor, actor_name, remote_addr, user_agent, detail   (newest first) */
    CD_NSTMTS
} cd_stmt;

#endif
