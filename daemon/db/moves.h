/*
 * moves.h — the moves table, a game's log: a move stored with its game row (deferred, with the COMMIT:
 * game/move_commit.c), read by page (GET .../events) or whole (replay), and its first row written with a new
 * game.
 */
#ifndef CD_DB_MOVES_H
#define CD_DB_MOVES_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* ST_MOVE_INSERT for seq 0: the game's opening events (admin view, JSON text), before any move. */
cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events);
/* ST_NOTIFY_MOVE: wakes the long-polls and event streams of the game at `seq` (sent with the COMMIT). */
cd_q cd_moves_notify(cd_db *db, const char *game_id, int seq);

/* A move as stored (ST_MOVE_INSERT), and the game row after it (ST_GAME_UPDATE, or ST_GAME_UPDATE_CLOCK for a
 * game with a turn clock). */
typedef struct {
    const char *game_id;
    int seq, seat;
    const char *move;       /* JSON text; NULL: none */
    const char *events;     /* the admin view of its events, JSON text */
    const char *idem;       /* the seat's Idempotency-Key; NULL: none */
    const char *request_sha256;   /* with a key: the hash of the request it came with (005_idempotency_request) */
    const char *response;   /* the answer replayed for that key, JSON text; NULL: none */
    const char *origin;     /* "seat" or "clock" */
} cd_move_row;

typedef struct {
    const char *snapshot;   /* JSON text, without the seed */
    bool finished;
    int pending_seat;       /* when not finished */
    const char *clock;      /* the turn clock's JSON; NULL: the game has none */
    double deadline, due;   /* epoch seconds, with a clock; < 0: none */
} cd_game_after_move;

/* Inside cd_db_tx: queues (cd_db_defer) the move's row, the game row and the NOTIFY that wakes long-polls
 * (ST_NOTIFY_MOVE "<id>:<seq>"); they go out with the next statement or the COMMIT. false when they could not
 * be sent. */
bool cd_move_store_deferred(cd_db *db, const cd_move_row *m, const cd_game_after_move *g);

/* One move of the log for a replay (ST_MOVES_ALL, seq > 0 in order); the strings live as long as the rows. */
typedef struct {
    int seq, seat;
    const char *move;   /* JSON text */
} cd_replay_row;

typedef struct {
    int n;
    cd_replay_row *v;
    struct pg_result *res;
} cd_replay_rows;

cd_q cd_moves_all(cd_db *db, const char *game_id, cd_replay_rows *out);
void cd_replay_rows_free(cd_replay_rows *rows);

/* One entry of the log (ST_MOVES_AFTER); the strings live as long as the rows. */
typedef struct {
    int seq;
    bool has_seat;         /* seq 0 (the opening) has none */
    int seat;
    const char *move;      /* the move as logged, JSON text; NULL: none (the opening) */
    const char *events;    /* the admin view of its events, JSON text */
    const char *origin;    /* "seat" or "clock" */
} cd_log_row;

typedef struct {
    int n;
    cd_log_row *v;
    struct pg_result *res;
} cd_log_rows;

/* ST_MOVES_AFTER: up to `limit` entries of the game's log after seq `after`, in order. */
cd_q cd_moves_after(cd_db *db, const char *game_id, int after, int limit, cd_log_rows *out);
void cd_log_rows_free(cd_log_rows *rows);

#endif
