/*
 * webhook_worker.c — see webhook_worker.h.
 */
#include "webhook_worker.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

cd_q cd_outbox_claim(cd_db *db, int limit, int lease_s, const char *worker, cd_claim_rows *out, char *err,
                     size_t errlen)
{
    *out = (cd_claim_rows){0};
    char lim[16], lease[16];
    snprintf(lim, sizeof lim, "%d", limit);
    snprintf(lease, sizeof lease, "%d", lease_s);
    const char *p[] = {lim, lease, worker};
    PGresult *res = cd_db_exec(db, ST_WH_CLAIM, 3, p);
    if (!cd_db_ok(res)) {
        snprintf(err, errlen, "%s", PQresultErrorMessage(res));
        err[strcspn(err, "\n")] = 0;
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    out->res = res;
    out->n = PQntuples(res);
    out->v = calloc((size_t)out->n + 1, sizeof *out->v);
    if (!out->v)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < out->n; i++) {
        cd_claim_row *c = &out->v[i];
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
    }
    return CD_Q_OK;
}

void cd_claim_rows_free(cd_claim_rows *rows)
{
    free(rows->v);
    PQclear(rows->res);
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
    PGresult *res = cd_db_exec(db, ST_WH_ATTEMPT_DONE, 5, p);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}

cd_q cd_outbox_done(cd_db *db, long long id, const char *lease, const char *state, double delay_s, long status,
                    const char *error, bool refund, bool *still_ours)
{
    char ids[24], delay[32], st[16];
    snprintf(ids, sizeof ids, "%lld", id);
    snprintf(delay, sizeof delay, "%.3f", delay_s);
    snprintf(st, sizeof st, "%ld", status);
    const char *p[] = {ids, lease, state, delay, status ? st : NULL, error, refund ? "1" : "0"};
    PGresult *res = cd_db_exec(db, ST_WH_OUTBOX_DONE, 7, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res))
        q = cd_q_failed(db, res);
    else
        *still_ours = PQntuples(res) == 1;
    PQclear(res);
    return q;
}

cd_q cd_outbox_endpoint_gone(cd_db *db, const char *endpoint_id, const char *reason)
{
    const char *p[] = {endpoint_id, reason};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINT_GONE, 2, p);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}

void cd_outbox_next_due(cd_db *db, double *seconds, bool *known)
{
    PGresult *res = cd_db_exec(db, ST_WH_NEXT_DUE, 0, NULL);
    *known = cd_db_ok(res) && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0);
    if (*known)
        *seconds = atof(PQgetvalue(res, 0, 0));
    PQclear(res);
}
