/*
 * webhook_deliveries.h — the webhook_outbox rows of one endpoint as its owner sees them (GET .../deliveries,
 * POST .../redeliver), with every attempt; and waking the delivery workers.
 */
#ifndef CD_WEBHOOK_DELIVERIES_H
#define CD_WEBHOOK_DELIVERIES_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* One delivery (WH_DELIVERY_COLUMNS of store.c); the strings live as long as the rows. */
typedef struct {
    long long id;
    const char *id_text;           /* the id as the database wrote it (a cursor) */
    const char *msg_id, *event;
    int seq;
    const char *state;             /* pending, sending, delivered, failed */
    const char *created_at;
    const char *next_attempt_at;   /* NULL unless pending */
    const char *delivered_at;      /* NULL: not delivered */
    bool has_status;               /* the last attempt's HTTP status, if it got one */
    int last_status;
    const char *last_error;        /* NULL: none */
    const char *attempts;          /* JSON array text */
} cd_delivery_row;

typedef struct {
    int n;
    cd_delivery_row *v;
    struct pg_result *res;
} cd_delivery_rows;

/* ST_WH_DELIVERIES: up to `limit` deliveries of the endpoint before id `before` (NULL: the newest). */
cd_q cd_deliveries_list(cd_db *db, const char *endpoint_id, const char *before, long limit, cd_delivery_rows *out);
/* ST_WH_DELIVERY_GET: delivery `id` of the endpoint (0 or 1 rows). */
cd_q cd_delivery_get(cd_db *db, const char *endpoint_id, const char *id, cd_delivery_rows *out);
void cd_delivery_rows_free(cd_delivery_rows *rows);

/* ST_WH_REDELIVER: a new round of the schedule for delivery `id`; *found false when the endpoint has none. */
cd_q cd_delivery_redeliver(cd_db *db, const char *endpoint_id, const char *id, bool *found);
/* ST_WH_NOTIFY: wakes the delivery workers (a lost wake-up costs at most a second: not checked). */
void cd_deliveries_wake(cd_db *db, const char *game_id);

#endif
