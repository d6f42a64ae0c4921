/*
 * moves.h — the moves table, a game's log: a move stored with its game row (deferred, with the COMMIT:
 * game/move_commit.c), and its first row written with a new game. The log is read in either of its forms by
 * db/move_log.h (ST_MOVES_AFTER: the mails' last moves, db/mail_recent.c).
 */
#ifndef CD_DB_MOVES_H
#define CD_DB_MOVES_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* ST_MOVE_INSERT for seq 0: the game's opening, before any move; `events` (admin view, JSON text) NULL since
 * sql/010_compact_log.sql: they are derived (game/move_log.h). */
cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events);
/* ST_NOTIFY_MOVE: wakes the long-polls and event streams of the game at `seq` (sent with the COMMIT). */
cd_q cd_moves_notify(cd_db *db, const char *game_id, int seq);

/* A move as stored (ST_MOVE_INSERT), and the game row after it (ST_GAME_UPDATE, or ST_GAME_UPDATE_CLOCK for a
 * game with a turn clock). */
typedef struct {
    const char *game_id;
    int seq, seat;
    const char *move;       /* JSON text; NULL: none */
    const char *events;     /* the admin view of its events, JSON text; NULL: derived (010_compact_log) */
    const char *idem;       /* the seat's Idempotency-Key; NULL: none */
    const char *request_sha256;   /* with a key: the hash of the request it came with (005_idempotency_request) */
    const char *response;   /* the answer replayed for that key, JSON text; NULL: none */
    const char *origin;     /* "seat" or "clock" */
} cd_move_row;

typedef struct {
    const char *snapshot;   /* JSON text, without the seed; NULL: the stored one stays, a checkpoint the moves
                               after it follow (sql/017) */
    const char *pending_kind;   /* what the pending seat decides: the state's pending.kind */
    bool finished;
    int pending_seat;       /* when not finished */
    const char *clock;      /* the turn clock's JSON; NULL: the game has none */
    double deadline, due;   /* epoch seconds, with a clock; < 0: none */
} cd_game_after_move;

/* Inside cd_db_tx: queues (cd_db_defer) the move's row, the game row and the NOTIFY that wakes long-polls
 * (ST_NOTIFY_MOVE "<id>:<seq>"); they go out with the next statement or the COMMIT. false when they could not
 * be sent. */
bool cd_move_store_deferred(cd_db *db, const cd_move_row *m, const cd_game_after_move *g);

#endif
