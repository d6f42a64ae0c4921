/*
 * mail_outbox.c — see mail_outbox.h.
 */
#include "mail_outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

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
    /* a bounce of a mail sent: failed after all, with the report's words */
    {ST_MAIL_BOUNCED, "mail_bounced",
                      "UPDATE mail_outbox SET state = 'failed', lease = NULL, last_error = $2 "
                      "WHERE id = $1::bigint RETURNING game_id, seat, rcpt",
                      2},
    /* the newest invitation mail to each address of the game's open places (mail_outbox_seat's index) */
    {ST_OPEN_SEAT_MAILS, "open_seat_mails",
                         "SELECT DISTINCT ON (lower(rcpt)) rcpt, state, tries, last_error, "
                         "to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "
                         "FROM mail_outbox WHERE game_id = $1::uuid AND seat = -1 AND kind = 'open-seat' "
                         "ORDER BY lower(rcpt), id DESC",
                         1},
    /* carcd's answers to replies (a refusal, a status, an open place's answer) written for one address of one
     * seat of a game (seat -1: an open place's) in the last hour: mail_outbox_seat's index, then a filter */
    {ST_MAIL_ANSWERS_RECENT, "mail_answers_recent",
                             "SELECT count(*) FROM mail_outbox WHERE game_id = $1::uuid AND seat = $2::integer "
                             "AND kind IN ('refused', 'status', 'join-answer') AND lower(rcpt) = lower($3) "
                             "AND created_at > now() - interval '1 hour'",
                             3},
    {ST_MAIL_LOBBY_RECENT, "mail_lobby_recent",
                           "SELECT count(*) FROM mail_outbox WHERE game_id = $1::uuid AND kind IN ('joined', 'left') "
                           "AND lower(rcpt) = lower($2) AND created_at > now() - interval '1 hour'",
                           2},
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

/* A ST_MAIL_CLAIM row (id, lease, rcpt, body, tries, game_id, seat, stopped) copied into the cd_mail_claimed at
 * row; the body is malloc'd (the caller frees it). */
static void claimed_row(const PGresult *res, int i, void *row)
{
    cd_mail_claimed *out = row;
    out->id = strtoll(PQgetvalue(res, i, 0), NULL, 10);
    snprintf(out->lease, sizeof out->lease, "%s", PQgetvalue(res, i, 1));
    snprintf(out->rcpt, sizeof out->rcpt, "%s", PQgetvalue(res, i, 2));
    out->body_len = (size_t)PQgetlength(res, i, 3);
    out->body = malloc(out->body_len + 1);
    if (!out->body)
        abort();
    memcpy(out->body, PQgetvalue(res, i, 3), out->body_len + 1);
    out->tries = atoi(PQgetvalue(res, i, 4));
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, i, 5));
    out->seat = atoi(PQgetvalue(res, i, 6));
    out->stopped = PQgetvalue(res, i, 7)[0] == 't';
}

cd_mq cd_mail_claim(cd_db *db, double lease_s, bool *found, cd_mail_claimed *out)
{
    char l[32];
    snprintf(l, sizeof l, "%.3f", lease_s);
    const char *p[] = {l};
    /* at most one row: the statement leases the one mail its LIMIT 1 picked */
    return cd_mq_of(cd_q_one(db, ST_MAIL_CLAIM, 1, p, found, claimed_row, out));
}

cd_mq cd_mail_done(cd_db *db, const cd_mail_claimed *m, const char *state, double delay_s, const char *error,
                   bool *still_ours)
{
    char id[24], d[32];
    snprintf(id, sizeof id, "%lld", m->id);
    snprintf(d, sizeof d, "%.3f", delay_s);
    const char *p[] = {id, m->lease, state, d, error};
    int n = 0;
    cd_q q = cd_q_count(db, ST_MAIL_DONE, 5, p, &n);
    *still_ours = q == CD_Q_OK && n == 1;
    return cd_mq_of(q);
}

cd_q cd_open_seat_mails(cd_db *db, const char *game_id, cd_open_seat_mail *out, int max, int *n)
{
    *n = 0;
    const char *p[] = {game_id};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_OPEN_SEAT_MAILS, 1, p, &res);
    if (q != CD_Q_OK)
        return q;
    for (int i = 0; i < PQntuples(res) && *n < max; i++) {
        cd_open_seat_mail *m = &out[(*n)++];
        snprintf(m->rcpt, sizeof m->rcpt, "%s", PQgetvalue(res, i, 0));
        snprintf(m->state, sizeof m->state, "%s", PQgetvalue(res, i, 1));
        m->tries = atoi(PQgetvalue(res, i, 2));
        snprintf(m->error, sizeof m->error, "%s", PQgetvalue(res, i, 3));   /* "" for NULL */
        snprintf(m->sent_at, sizeof m->sent_at, "%s", PQgetvalue(res, i, 4));
    }
    PQclear(res);
    return CD_Q_OK;
}

static void fill_bounced(const PGresult *res, int i, void *row)
{
    cd_mail_bounced *b = row;
    snprintf(b->game_id, sizeof b->game_id, "%s", PQgetvalue(res, i, 0));
    b->seat = atoi(PQgetvalue(res, i, 1));
    snprintf(b->rcpt, sizeof b->rcpt, "%s", PQgetvalue(res, i, 2));
}

cd_q cd_mail_outbox_bounced(cd_db *db, long long id, const char *error, cd_mail_bounced *out)
{
    memset(out, 0, sizeof *out);
    char idt[24];
    snprintf(idt, sizeof idt, "%lld", id);
    const char *p[] = {idt, error};
    return cd_q_one(db, ST_MAIL_BOUNCED, 2, p, &out->found, fill_bounced, out);
}

/* A ST_MAIL_ANSWERS_RECENT row: its count into the int at row. */
static void count_row(const PGresult *res, int i, void *row)
{
    *(int *)row = atoi(PQgetvalue(res, i, 0));
}

cd_q cd_mail_answers_recent(cd_db *db, const char *game_id, int seat, const char *rcpt, int *n)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {game_id, s, rcpt};
    *n = 0;
    return cd_q_one(db, ST_MAIL_ANSWERS_RECENT, 3, p, NULL, count_row, n);
}

cd_q cd_mail_lobby_recent(cd_db *db, const char *game_id, const char *rcpt, int *n)
{
    const char *p[] = {game_id, rcpt};
    *n = 0;
    return cd_q_one(db, ST_MAIL_LOBBY_RECENT, 2, p, NULL, count_row, n);
}
