/*
 * webhook_worker.h — what the webhook delivery worker (webhooks/deliver.c) runs: claiming due outbox rows
 * with a lease, recording an attempt's outcome, disabling an endpoint after a 410, and when the next row is
 * due. The statements and their leases are described in deliver.h.
 */
#ifndef CD_WEBHOOK_WORKER_H
#define CD_WEBHOOK_WORKER_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

struct pg_result;

/* A claimed row (ST_WH_CLAIM); the strings live as long as the rows. */
typedef struct {
    long long id;
    const char *lease, *msg_id;
    const char *body;
    size_t body_len;
    int attempt, tries;
    const char *url, *secret, *endpoint_id;
    bool disabled;   /* the endpoint was disabled since the row was queued */
    double age_s;    /* seconds since the message was written */
} cd_claim_row;

typedef struct {
    int n;
    cd_claim_row *v;
    struct pg_result *res;
} cd_claim_rows;

/* ST_WH_CLAIM: up to `limit` due rows leased for lease_s seconds to `worker`. On failure err gets the
 * database's message (one line). */
cd_q cd_outbox_claim(cd_db *db, int limit, int lease_s, const char *worker, cd_claim_rows *out, char *err,
                     size_t errlen);
void cd_claim_rows_free(cd_claim_rows *rows);

/* ST_WH_ATTEMPT_DONE: the attempt's row (status 0: no HTTP status; error NULL: none). */
cd_q cd_outbox_attempt_done(cd_db *db, long long id, int attempt, int duration_ms, long status, const char *error);
/* ST_WH_DELIVERED: a 2xx, the outbox row (if the lease is still this worker's) and its attempt in one
 * autocommitted statement. */
cd_q cd_outbox_delivered(cd_db *db, long long id, const char *lease, int attempt, long status, int duration_ms);
/* ST_WH_OUTBOX_DONE: the row's new state, if the lease is still this worker's (*still_ours); refund: the
 * attempt does not count. */
cd_q cd_outbox_done(cd_db *db, long long id, const char *lease, const char *state, double delay_s, long status,
                    const char *error, bool refund, bool *still_ours);
/* ST_WH_ENDPOINT_GONE: disables the endpoint and fails its pending rows. */
cd_q cd_outbox_endpoint_gone(cd_db *db, const char *endpoint_id, const char *reason);
/* ST_WH_NEXT_DUE: seconds until the next pending row is due; *known false when none is (or it failed). */
void cd_outbox_next_due(cd_db *db, double *seconds, bool *known);

#endif
