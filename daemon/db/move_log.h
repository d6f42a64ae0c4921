/*
 * move_log.h — a game's move log read in either stored form (sql/010_compact_log.sql): the rows of the moves
 * table while the game runs (and until it is compacted), or the `log` text of its games row once compacted;
 * the reads that replay needs (set-up and seed), and the writes of compaction and of the idempotency sweep.
 * game/move_log.c turns what these return into moves and events.
 */
#ifndef CD_DB_MOVE_LOG_H
#define CD_DB_MOVE_LOG_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* One row of the moves table. */
typedef struct {
    int seq;
    bool has_seat;        /* seq 0 (the opening) has none */
    int seat;
    const char *move;     /* JSON text as stored; NULL: none (the opening) */
    const char *events;   /* the admin view of its events, JSON text; NULL: derived (rows since 010) */
    bool clock;           /* origin 'clock' */
    bool bot;             /* origin 'bot' (clock/bot_worker.h) */
} cd_stored_move;

/* A read of the log: rows, or (compacted) the log text; the strings live as long as the read. */
typedef struct {
    int n;
    cd_stored_move *v;
    const char *compact;   /* the games.log text of a compacted game (then n == 0); NULL: rows */
    struct pg_result *res;
} cd_stored_log;

/* ST_LOG_AFTER: up to `limit` rows after seq `after`, in order, or the compact log; in one statement, so a
 * compaction between two reads cannot show a log that is neither. */
cd_q cd_stored_log_after(cd_db *db, const char *game_id, int after, int limit, cd_stored_log *out);
/* ST_LOG_ALL: every row after the opening (seq > 0), or the compact log. */
cd_q cd_stored_log_all(cd_db *db, const char *game_id, cd_stored_log *out);
void cd_stored_log_free(cd_stored_log *l);

/* ST_GAME_REPLAY_READ: what a replay starts from, the set-up (JSON text, malloc'd: the caller frees it; NULL
 * when not found) and the seed (hex); *found false for no such game. Only replay code reads the seed so. */
cd_q cd_game_replay_read(cd_db *db, const char *game_id, bool *found, char **setup, char seed[65]);

/* Inside cd_db_tx. ST_COMPACT_CLAIM: a game finished before `finished_before` (epoch s) whose log is still in
 * rows, locked (SKIP LOCKED), the oldest finished first, none of `skip` (a Postgres array literal of ids, "{}"
 * for none). */
cd_q cd_compact_claim(cd_db *db, const char *skip, double finished_before, bool *found, char game_id[37]);
/* ST_COMPACT_STORE and ST_COMPACT_DELETE, sent together: the log text into the games row, the rows deleted. */
cd_q cd_compact_store(cd_db *db, const char *game_id, const char *log);

/* ST_IDEM_SWEEP: forgets key, answer and request hash of up to `limit` moves stored before `before` (epoch
 * seconds); *n gets how many. */
cd_q cd_idempotency_sweep(cd_db *db, double before, int limit, int *n);

#endif
