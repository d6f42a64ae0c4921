/*
 * moves.h — the moves table, a game's log, read by page (GET .../events) and its first row written with a new
 * game. A move's own rows are written by game/move_commit.c with the COMMIT (deferred).
 */
#ifndef CD_DB_MOVES_H
#define CD_DB_MOVES_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* ST_MOVE_INSERT for seq 0: the game's opening events (admin view, JSON text), before any move. */
cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events);

/* One entry of the log (ST_MOVES_AFTER); the strings live as long as the rows. */
typedef struct {
    int seq;
    bool has_seat;         /* seq 0 (the opening) has none */
    int seat;
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
