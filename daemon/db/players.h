/*
 * players.h — the players table and the seats linked to it (sql/004): POST /v1/players, POST .../link and
 * GET /v1/me/games.
 */
#ifndef CD_PLAYERS_H
#define CD_PLAYERS_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* ST_PLAYER_INSERT: a new player (name NULL: none) known by the hash of its key; id gets its uuid. */
cd_q cd_player_insert(cd_db *db, const char *name, const char *key_hash, char id[37]);
/* ST_PLAYER_BY_KEY: the player whose key hashes to key_hash; *found false (id untouched) when none. */
cd_q cd_player_by_key(cd_db *db, const char *key_hash, bool *found, char id[37]);
/* ST_SEAT_LINK: links the seat of game_id to the player of key_hash; *found false when no player has it. */
cd_q cd_seat_link(cd_db *db, const char *game_id, int seat, const char *key_hash, bool *found, char player_id[37]);

/* A game one of the player's seats is in (ST_ME_GAMES). The strings live as long as the rows. */
typedef struct {
    const char *id;
    int seat;
    const char *status;         /* "waiting", "active", "finished" or "cancelled" */
    int seq;
    bool has_pending;           /* the game waits for pending_seat */
    int pending_seat;
    const char *pending_kind;   /* the snapshot's pending.kind; NULL when it has none */
    bool has_deadline;          /* the turn clock's deadline, epoch seconds */
    double deadline;
    const char *updated_at;     /* ISO 8601 */
    const char *clock;          /* the clock's JSON; NULL for a game without one */
    int open;                   /* a waiting game's seats still open; -1 for any other */
    double last_join_at;        /* a waiting game's creation or latest join (epoch s, sql/024); -1 for any other */
} cd_me_game_row;

typedef struct {
    int n;
    cd_me_game_row *v;
    struct pg_result *res;
} cd_me_game_rows;

/* ST_ME_GAMES: the player's games (status NULL: any), waiting for the player first, at most limit. */
cd_q cd_me_games(cd_db *db, const char *player_id, const char *status, long limit, cd_me_game_rows *out);
void cd_me_game_rows_free(cd_me_game_rows *rows);

#endif
