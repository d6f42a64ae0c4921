/*
 * webhook_endpoints.h — the webhook_endpoints table as the webhook endpoints' handlers use it: one endpoint,
 * a game's (or a seat's) list, a new one under the game's lock, removing one.
 */
#ifndef CD_WEBHOOK_ENDPOINTS_H
#define CD_WEBHOOK_ENDPOINTS_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* One endpoint (WH_ENDPOINT_COLUMNS of webhook_endpoints.c); the strings live as long as the rows. */
typedef struct {
    const char *id;
    bool has_seat;                 /* false: the whole game's (the admin's) */
    int seat;
    const char *url, *format;
    const char *events;            /* the event names joined by ',' */
    const char *created_at;
    const char *disabled_at;       /* NULL: enabled */
    const char *disabled_reason;   /* NULL: none */
} cd_endpoint_row;

typedef struct {
    int n;
    cd_endpoint_row *v;
    struct pg_result *res;
} cd_endpoint_rows;

/* ST_WH_ENDPOINT_GET: endpoint `id` of the game (0 or 1 rows). */
cd_q cd_endpoint_get(cd_db *db, const char *game_id, const char *id, cd_endpoint_rows *out);
/* ST_WH_ENDPOINTS_LIST: the game's endpoints, of one seat (-1: all), oldest first. */
cd_q cd_endpoints_list(cd_db *db, const char *game_id, int seat, cd_endpoint_rows *out);
void cd_endpoint_rows_free(cd_endpoint_rows *rows);

/* ST_WH_GAME_FOR_HOOK then ST_WH_ENDPOINTS_COUNT, in a transaction and one round trip: locks the game row
 * against moves and tells whether it exists, is finished and how many endpoints seat has in it (-1: the admin's,
 * of no seat), counted after the lock. */
cd_q cd_endpoint_game_lock(cd_db *db, const char *game_id, int seat, bool *found, bool *finished, int *endpoints);
/* ST_WH_ENDPOINT_INSERT: a new endpoint of the game (seat -1: the whole game's); id and created_at (ISO)
 * get its own. events: a PostgreSQL text[] literal (cd_wh_events_pg). */
cd_q cd_endpoint_insert(cd_db *db, const char *game_id, int seat, const char *url, const char *format,
                        const char *events, const char *secret, char id[37], char created_at[40]);
/* ST_WH_ENDPOINT_DELETE, with its deliveries. */
cd_q cd_endpoint_delete(cd_db *db, const char *game_id, const char *id);

#endif
