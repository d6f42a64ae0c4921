/*
 * mail_outbox.c — see mail_outbox.h.
 */
#include "mail_outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "store.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_MAIL_OUTBOX_INSERT, "mail_outbox_insert",
                            "INSERT INTO mail_outbox (game_id, seat, kind, seq, msg_id, rcpt, body) "
                            "VALUES ($1::uuid, $2::integer, $3, $4::integer, $5, $6, $7)",
                            7},
    {ST_MAIL_NOTIFY, "mail_notify", "SELECT pg_notify('carcd_mail', '')", 0},
    /* the oldest due mail, leased for $1 seconds; the seat's stop is read so a stopped address gets nothing */
    {ST_MAIL_CLAIM, "mail_claim",
                    "UPDATE mail_outbox o SET lease = gen_random_uuid(), tries = o.tries + 1, "
                    "due_at = now() + make_interval(secs => $1::float8) "
                    "FROM (SELECT id FROM mail_outbox WHERE state = 'pending' AND due_at <= now() "
                    "ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) d WHERE o.id = d.id "
                    "RETURNING o.id, o.lease, o.rcpt, o.body, o.tries, o.game_id, o.seat, "
                    "EXISTS (SELECT 1 FROM mail_seats m WHERE m.game_id = o.game_id AND m.seat = o.seat "
                    "AND lower(m.email) = lower(o.rcpt) AND m.stopped_at IS NOT NULL)",
                    1},
    {ST_MAIL_DONE, "mail_done",
                   "UPDATE mail_outbox SET state = $3, lease = NULL, last_error = $5, "
                   "sent_at = CASE WHEN $3 = 'sent' THEN now() END, "
                   "due_at = now() + make_interval(secs => GREATEST($4::float8, 0)) "
                   "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id",
                   5},
};
const cd_stmt_family cd_stmts_mail_outbox = {stmts, sizeof stmts / sizeof stmts[0]};

bool cd_mail_outbox_add(cd_db *db, const char *game_id, int seat, const char *kind, int seq, const char *msg_id,
                        const char *rcpt, const char *body)
{
    char s[16], q[16];
    snprintf(s, sizeof s, "%d", seat);
    snprintf(q, sizeof q, "%d", seq);
    const char *p[] = {game_id, s, kind, q, msg_id, rcpt, body};
    return cd_db_defer(db, ST_MAIL_OUTBOX_INSERT, 7, p);
}

bool cd_mail_outbox_notify(cd_db *db)
{
    return cd_db_defer(db, ST_MAIL_NOTIFY, 0, NULL);
}

cd_mq cd_mail_claim(cd_db *db, double lease_s, bool *found, cd_mail_claimed *out)
{
    char l[32];
    snprintf(l, sizeof l, "%.3f", lease_s);
    const char *p[] = {l};
    PGresult *res = cd_db_exec(db, ST_MAIL_CLAIM, 1, p);
    *found = false;
    if (!cd_db_ok(res)) {
        cd_mq q = cd_db_unavailable(db, res) ? CD_MQ_DOWN : CD_MQ_FAILED;
        PQclear(res);
        return q;
    }
    if (PQntuples(res) == 1) {
        *found = true;
        out->id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        snprintf(out->lease, sizeof out->lease, "%s", PQgetvalue(res, 0, 1));
        snprintf(out->rcpt, sizeof out->rcpt, "%s", PQgetvalue(res, 0, 2));
        out->body_len = (size_t)PQgetlength(res, 0, 3);
        out->body = malloc(out->body_len + 1);
        if (!out->body)
            abort();
        memcpy(out->body, PQgetvalue(res, 0, 3), out->body_len + 1);
        out->tries = atoi(PQgetvalue(res, 0, 4));
        snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, 0, 5));
        out->seat = atoi(PQgetvalue(res, 0, 6));
        out->stopped = PQgetvalue(res, 0, 7)[0] == 't';
    }
    PQclear(res);
    return CD_MQ_OK;
}

cd_mq cd_mail_done(cd_db *db, const cd_mail_claimed *m, const char *state, double delay_s, const char *error,
                   bool *still_ours)
{
    char id[24], d[32];
    snprintf(id, sizeof id, "%lld", m->id);
    snprintf(d, sizeof d, "%.3f", delay_s);
    const char *p[] = {id, m->lease, state, d, error};
    PGresult *res = cd_db_exec(db, ST_MAIL_DONE, 5, p);
    *still_ours = false;
    cd_mq q = CD_MQ_OK;
    if (!cd_db_ok(res))
        q = cd_db_unavailable(db, res) ? CD_MQ_DOWN : CD_MQ_FAILED;
    else
        *still_ours = PQntuples(res) == 1;
    PQclear(res);
    return q;
}
