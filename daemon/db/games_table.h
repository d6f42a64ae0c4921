/*
 * games_table.h — the games table and its companions written with a game (game_secrets, seats): a new game's
 * rows, and the admin's list. Loading and locking a game for play is game/games.c's, over ST_GAME_GET and
 * ST_GAME_LOCK.
 */
#ifndef CD_GAMES_TABLE_H
#define CD_GAMES_TABLE_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* A new game's row (ST_GAME_INSERT). */
typedef struct {
    const char *setup, *snapshot;   /* JSON text */
    const char *seed_sha256;
    bool finished;                  /* the set-up already ended the game */
    bool waiting;                   /* a game that waits for its seats: no state yet (handlers/lobby.h) */
    int pending_seat;               /* the seat it waits for (when not finished) */
    const char *clock;              /* the turn clock's JSON; NULL: none */
    double deadline, due;           /* epoch seconds, with a clock; < 0: none */
} cd_game_insert_row;

/* ST_GAME_INSERT; id gets the new game's uuid. */
cd_q cd_game_insert(cd_db *db, const cd_game_insert_row *g, char id[37]);
/* ST_SECRET_INSERT: the seed, kept apart from the game. */
cd_q cd_game_secret_insert(cd_db *db, const char *game_id, const char *seed_hex);
/* ST_SEAT_INSERT: a seat with its name and token hash, linked to the player of key_hash (NULL: none);
 * *key_known false when key_hash names no player (the seat is stored unlinked). */
cd_q cd_seat_insert(cd_db *db, const char *game_id, int seat, const char *name, const char *token_hash,
                    const char *key_hash, bool *key_known);
/* ST_SEATS_OF_GAME: how many seats the game has (0: no such game). */
cd_q cd_seats_count(cd_db *db, const char *game_id, int *n);
/* The seats' names in seat order (ST_SEATS_OF_GAME); the strings live as long as the rows. */
typedef struct {
    int n;
    const char **name;
    struct pg_result *res;
} cd_seat_names;

cd_q cd_seat_names_read(cd_db *db, const char *game_id, cd_seat_names *out);
void cd_seat_names_free(cd_seat_names *names);

/* ST_SEAT_HOLD, in a transaction: whether `seat` is still the seat of the bearer whose token or player key hashes
 * to bearer_hash, and if so its row locked (FOR SHARE) until the end. A seat's number changes only when an earlier
 * seat leaves the waiting game (game/lobby_leave.h), which locks the rows it moves: a write by seat number that
 * holds its row first is moved with it, one that comes after finds it gone and asks again. */
cd_q cd_seat_hold(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *held);

/* One game of the admin's list (ST_GAMES_LIST); the strings live as long as the rows. */
typedef struct {
    const char *id, *status;
    int seq;
    const char *created_at, *updated_at;
    int nplayers;
    bool has_pending;
    int pending_seat;
    int seats_asked, seats_taken;   /* a waiting game's seats (nplayers is 0 until it starts); else -1 */
} cd_games_list_row;

typedef struct {
    int n;
    cd_games_list_row *v;
    struct pg_result *res;
} cd_games_list_rows;

/* ST_GAMES_LIST: up to `limit` games after the id `after` (NULL: from the first), of one status (NULL: any). */
cd_q cd_games_list(cd_db *db, const char *status, const char *after, long limit, cd_games_list_rows *out);
void cd_games_list_rows_free(cd_games_list_rows *rows);

#endif
