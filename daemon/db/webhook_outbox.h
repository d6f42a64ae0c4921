/*
 * webhook_outbox.h — what webhooks/outbox.c reads and writes in an event's transaction: the game's enabled
 * endpoints, its seats' names, and the outbox rows with the NOTIFY that wakes the delivery workers (both
 * deferred: they travel with the COMMIT).
 */
#ifndef CD_WEBHOOK_OUTBOX_H
#define CD_WEBHOOK_OUTBOX_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* An enabled endpoint (ST_WH_ENDPOINTS_ACTIVE); the strings live as long as the rows. */
typedef struct {
    const char *id;
    int seat;              /* -1: the whole game's */
    const char *format;    /* cd_wh_format name */
    const char *events;    /* a PostgreSQL text[] in text form */
} cd_active_endpoint_row;

typedef struct {
    int n;
    cd_active_endpoint_row *v;
    struct pg_result *res;
} cd_active_endpoint_rows;

cd_q cd_endpoints_active(cd_db *db, const char *game_id, cd_active_endpoint_rows *out);
void cd_active_endpoint_rows_free(cd_active_endpoint_rows *rows);

/* ST_WH_OUTBOX_INSERT, deferred: one message for one endpoint, due after delay_s seconds. */
bool cd_outbox_insert_deferred(cd_db *db, const char *endpoint_id, const char *msg_id, const char *event,
                               const char *game_id, int seq, const char *body, double delay_s);
/* ST_WH_NOTIFY, deferred: wakes the delivery workers once the messages are committed. */
bool cd_outbox_wake_deferred(cd_db *db, const char *game_id);

#endif
