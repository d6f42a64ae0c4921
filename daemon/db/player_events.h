/*
 * player_events.h — the player_events table (sql/009): what GET /v1/me/events streams, one numbered row per
 * event of a player across their games, written in the transaction of what caused it, with the NOTIFY
 * ('<player id>:<n>' on carcd_moves) that wakes the player's streams through the notify thread's registry
 * (notify.h: a player's uuid is a key there like a game's).
 */
#ifndef CD_DB_PLAYER_EVENTS_H
#define CD_DB_PLAYER_EVENTS_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* The kinds (the table's CHECK; api-docs names them). */
#define CD_PEV_GAME_STARTED "game_started"
#define CD_PEV_TURN "turn"
#define CD_PEV_INVITATION "invitation"
#define CD_PEV_GAME_OVER "game_over"
#define CD_PEV_PLAYER_JOINED "player_joined"   /* sql/023 */
#define CD_PEV_GAME_EXPIRING "game_expiring"   /* sql/027 */
#define CD_PEV_GAME_KEPT_OPEN "game_kept_open" /* sql/028 */
#define CD_PEV_PLAYER_LEFT "player_left"       /* sql/029 */
#define CD_PEV_SEAT_REMOVED "seat_removed"     /* sql/030 */

#define CD_PEV_PENDING_SEAT (-2)   /* cd_player_events_for_seats_deferred: the seat the game row waits for */

/* Inside a transaction: queues (cd_db_defer) event `kind` of game_id at seq for the players linked to its
 * seat `seat` (-1: to every seat's player, once per player; CD_PEV_PENDING_SEAT: the games row's pending
 * seat, as the statements before it in the transaction left it), `status` ("finished", "cancelled"; NULL: none).
 * Nothing is written for seats no player is linked to, nor, for one seat, when a bot plays it (its player
 * left it to the bot: the turn is the bot's). false when it could not be sent. */
bool cd_player_events_for_seats_deferred(cd_db *db, const char *game_id, int seq, int seat, const char *kind,
                                         const char *status);

/* Inside a transaction: event `kind` of game_id at seq for the players linked to its seats but the player of
 * seat `seat` (each with its own seat, once per player; none to a seat a bot plays), queued likewise. */
bool cd_player_events_for_others_deferred(cd_db *db, const char *game_id, int seq, int seat, const char *kind);

/* Inside a transaction: event `kind` of game_id (at seq; seat -1: none) for player_id, queued likewise. */
bool cd_player_event_emit(cd_db *db, const char *player_id, const char *kind, const char *game_id, int seq,
                              int seat);

/* One event (ST_PLAYER_EVENTS_AFTER); the strings live as long as the rows. */
typedef struct {
    int n;
    const char *kind, *game_id;
    int seq;
    bool has_seat;
    int seat;
    const char *status;   /* NULL: none */
    const char *at;       /* ISO 8601 */
} cd_player_event_row;

typedef struct {
    int n;
    cd_player_event_row *v;
    struct pg_result *res;
} cd_player_event_rows;

/* ST_PLAYER_EVENTS_AFTER: up to `limit` events of the player after number `after`, in order. */
cd_q cd_player_events_after(cd_db *db, const char *player_id, int after, int limit, cd_player_event_rows *out);
void cd_player_event_rows_free(cd_player_event_rows *rows);

#endif
