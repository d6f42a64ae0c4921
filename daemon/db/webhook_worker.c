/*
 * webhook_worker.c — see webhook_worker.h.
 */
#include "webhook_worker.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
/* an older message of row o's endpoint is being sent, or due: o waits its turn */
#define WH_OLDER_BUSY                                                                                        \
    "SELECT 1 FROM webhook_outbox p WHERE p.endpoint_id = o.endpoint_id AND p.state = 'pending' "            \
    "AND p.id < o.id AND (p.lease IS NOT NULL OR p.due_at <= now())"

static const cd_stmt_info stmts[] = {
    /* Takes up to $1 due rows no other worker holds (SKIP LOCKED), leases them for $2 seconds (due_at moves
     * past the lease, `lease` gets a fresh id that the outcome must present) and records the attempt. A row
     * waits while an older row of its endpoint is being sent or is due itself, so one endpoint gets its
     * messages one at a time and in order (unless an older one is waiting for a retry). */
    {ST_WH_CLAIM, "wh_claim",
                  "WITH due AS (SELECT o.id FROM webhook_outbox o WHERE o.state = 'pending' AND o.due_at <= now() "
                  "AND NOT EXISTS (" WH_OLDER_BUSY ") "
                  "ORDER BY o.due_at, o.id LIMIT $1::integer FOR UPDATE OF o SKIP LOCKED), "
                  "claimed AS (UPDATE webhook_outbox o SET due_at = now() + $2::integer * interval '1 second', "
                  "lease = gen_random_uuid(), attempts = o.attempts + 1, tries = o.tries + 1 FROM due "
                  "WHERE o.id = due.id RETURNING o.id, o.lease, o.msg_id, o.body, o.attempts, o.tries, "
                  "o.endpoint_id, o.created_at), "
                  "logged AS (INSERT INTO webhook_attempts (outbox_id, attempt, worker) "
                  "SELECT id, attempts, $3 FROM claimed) "
                  "SELECT c.id, c.lease, c.msg_id, c.body, c.attempts, c.tries, e.url, e.secret, e.id, "
                  "e.disabled_at IS NOT NULL, EXTRACT(EPOCH FROM now() - c.created_at)::float8 "
                  "FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id",
                  3},
    {ST_WH_NEXT_DUE, "wh_next_due",
                     "SELECT EXTRACT(EPOCH FROM min(o.due_at) - now())::float8 FROM webhook_outbox o "
                     "WHERE o.state = 'pending' AND NOT EXISTS (" WH_OLDER_BUSY ")",
                     0},
    {ST_WH_ATTEMPT_DONE, "wh_attempt_done",
                         "UPDATE webhook_attempts SET finished_at = now(), duration_ms = $3::integer, "
                         "status = $4::integer, error = $5 WHERE outbox_id = $1::bigint AND attempt = $2::integer",
                         5},
    /* only the lease holder's outcome counts: a worker whose lease ran out (and was taken over) changes
     * nothing but its own attempt row */
    {ST_WH_OUTBOX_DONE, "wh_outbox_done",
                        "UPDATE webhook_outbox SET state = $3, due_at = CASE WHEN $3 = 'pending' THEN "
                        "now() + $4::double precision * interval '1 second' ELSE now() END, lease = NULL, "
                        "tries = tries - $7::integer, last_status = $5::integer, last_error = $6, "
                        "delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END "
                        "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id",
                        7},
    /* a 2xx, recorded in one autocommitted statement right after the answer (deliver.c): the outbox row and the
     * attempt's, so that a carcd killed after the receiver answered has as little time as can be to resend it */
    {ST_WH_DELIVERED, "wh_delivered",
                      "WITH o AS (UPDATE webhook_outbox SET state = 'delivered', lease = NULL, "
                      "last_status = $4::integer, last_error = NULL, delivered_at = now(), due_at = now() "
                      "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id) "
                      "UPDATE webhook_attempts SET finished_at = now(), duration_ms = $5::integer, "
                      "status = $4::integer, error = NULL WHERE outbox_id = $1::bigint AND attempt = $3::integer",
                      5},
    {ST_WH_ENDPOINT_GONE, "wh_endpoint_gone",
                          "WITH e AS (UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $2 "
                          "WHERE id = $1::uuid AND disabled_at IS NULL RETURNING id) "
                          "UPDATE webhook_outbox o SET state = 'failed', lease = NULL, due_at = now(), "
                          "last_error = 'not sent: the endpoint was disabled' "
                          "FROM e WHERE o.endpoint_id = e.id AND o.state = 'pending'",
                          2},
};
const cd_stmt_family cd_stmts_webhook_worker = {stmts, sizeof stmts / sizeof stmts[0]};

static void claim_row(const PGresult *res, int i, void *row)
{
    cd_claim_row *c = row;
    c->id = strtoll(PQgetvalue(res, i, 0), NULL, 10);
    c->lease = PQgetvalue(res, i, 1);
    c->msg_id = PQgetvalue(res, i, 2);
    c->body = PQgetvalue(res, i, 3);
    c->body_len = (size_t)PQgetlength(res, i, 3);
    c->attempt = atoi(PQgetvalue(res, i, 4));
    c->tries = atoi(PQgetvalue(res, i, 5));
    c->url = PQgetvalue(res, i, 6);
    c->secret = PQgetvalue(res, i, 7);
    c->endpoint_id = PQgetvalue(res, i, 8);
    c->disabled = PQgetvalue(res, i, 9)[0] == 't';
    c->age_s = strtod(PQgetvalue(res, i, 10), NULL);
}

cd_q cd_outbox_claim(cd_db *db, int limit, int lease_s, const char *worker, cd_claim_rows *out, char *err,
                     size_t errlen)
{
    char lim[16], lease[16];
    snprintf(lim, sizeof lim, "%d", limit);
    snprintf(lease, sizeof lease, "%d", lease_s);
    const char *p[] = {lim, lease, worker};
    PGresult *res = cd_db_exec(db, ST_WH_CLAIM, 3, p);
    if (!cd_db_ok(res)) {   /* the message first: cd_q_rows_of clears a failed result */
        snprintf(err, errlen, "%s", PQresultErrorMessage(res));
        err[strcspn(err, "\n")] = 0;
    }
    cd_q_rowset r;
    cd_q q = cd_q_rows_of(db, res, sizeof *out->v, claim_row, &r);
    *out = (cd_claim_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_claim_rows_free(cd_claim_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_claim_rows){0};
}

cd_q cd_outbox_attempt_done(cd_db *db, long long id, int attempt, int duration_ms, long status, const char *error)
{
    char ids[24], att[16], ms[16], st[16];
    snprintf(ids, sizeof ids, "%lld", id);
    snprintf(att, sizeof att, "%d", attempt);
    snprintf(ms, sizeof ms, "%d", duration_ms);
    snprintf(st, sizeof st, "%ld", status);
    const char *p[] = {ids, att, ms, status ? st : NULL, error};
    return cd_q_run(db, ST_WH_ATTEMPT_DONE, 5, p);
}

cd_q cd_outbox_delivered(cd_db *db, long long id, const char *lease, int attempt, long status, int duration_ms)
{
    char ids[24], att[16], ms[16], st[16];
    snprintf(ids, sizeof ids, "%lld", id);
    snprintf(att, sizeof att, "%d", attempt);
    snprintf(ms, sizeof ms, "%d", duration_ms);
    snprintf(st, sizeof st, "%ld", status);
    const char *p[] = {ids, lease, att, st, ms};
    return cd_q_run(db, ST_WH_DELIVERED, 5, p);
}

cd_q cd_outbox_done(cd_db *db, long long id, const char *lease, const char *state, double delay_s, long status,
                    const char *error, bool refund, bool *still_ours)
{
    char ids[24], delay[32], st[16];
    snprintf(ids, sizeof ids, "%lld", id);
    snprintf(delay, sizeof delay, "%.3f", delay_s);
    snprintf(st, sizeof st, "%ld", status);
    const char *p[] = {ids, lease, state, delay, status ? st : NULL, error, refund ? "1" : "0"};
    int n = 0;
    cd_q q = cd_q_count(db, ST_WH_OUTBOX_DONE, 7, p, &n);
    if (q == CD_Q_OK)
        *still_ours = n == 1;
    return q;
}

cd_q cd_outbox_endpoint_gone(cd_db *db, const char *endpoint_id, const char *reason)
{
    const char *p[] = {endpoint_id, reason};
    return cd_q_run(db, ST_WH_ENDPOINT_GONE, 2, p);
}

void cd_outbox_next_due(cd_db *db, double *seconds, bool *known)
{
    PGresult *res = cd_db_exec(db, ST_WH_NEXT_DUE, 0, NULL);
    *known = cd_db_ok(res) && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0);
    if (*known)
        *seconds = atof(PQgetvalue(res, 0, 0));
    PQclear(res);
}
