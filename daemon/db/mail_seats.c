/*
 * mail_seats.c — see mail_seats.h.
 */
#include "mail_seats.h"

#include <stdio.h>
#include <stdlib.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
/* The number a row's mail threads under (sql/031): the one it had before it moved down, else its own. */
#define THREAD_SEAT "COALESCE(thread_seat, seat)"

static const cd_stmt_info stmts[] = {
    {ST_MAIL_SEATS_ACTIVE, "mail_seats_active",
                           "SELECT m.seat, m.email, m.tag, EXISTS (SELECT 1 FROM seats s WHERE s.game_id = m.game_id "
                           "AND s.seat = m.seat AND s.bot IS NOT NULL), " THREAD_SEAT " "
                           "FROM mail_seats m WHERE m.game_id = $1::uuid "
                           "AND m.stopped_at IS NULL ORDER BY m.seat",
                           1},
    {ST_MAIL_SEAT_PUT, "mail_seat_put",
                       "INSERT INTO mail_seats (game_id, seat, email, tag) VALUES ($1::uuid, $2::integer, $3, $4) "
                       "ON CONFLICT (game_id, seat) DO UPDATE SET email = EXCLUDED.email, "
                       "stopped_at = NULL, stopped_reason = NULL RETURNING tag, " THREAD_SEAT,
                       4},
    {ST_MAIL_SEAT_DELETE, "mail_seat_delete",
                          "DELETE FROM mail_seats WHERE game_id = $1::uuid AND seat = $2::integer", 2},
    {ST_MAIL_SEAT_GET, "mail_seat_get",
                       "SELECT email, " CD_SQL_ISO("stopped_at") ", stopped_reason, " THREAD_SEAT " "
                       "FROM mail_seats WHERE game_id = $1::uuid AND seat = $2::integer",
                       2},
    {ST_MAIL_SEATS_ALL, "mail_seats_all",
                        "SELECT seat, email, " CD_SQL_ISO("stopped_at") ", stopped_reason FROM mail_seats "
                        "WHERE game_id = $1::uuid ORDER BY seat",
                        1},
    {ST_MAIL_SEAT_BY_TAG, "mail_seat_by_tag",
                          "SELECT m.game_id, m.seat, m.email, m.stopped_at IS NOT NULL, " THREAD_SEAT ", "
                          "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = m.game_id AND s.seat = m.seat "
                          "AND s.bot IS NOT NULL) FROM mail_seats m WHERE m.tag = $1",
                          1},
    {ST_MAIL_SEAT_TAGS, "mail_seat_tags",
                        "SELECT seat, tag FROM mail_seats WHERE game_id = $1::uuid AND tag IS NOT NULL ORDER BY seat",
                        1},
    {ST_MAIL_SEAT_STOP, "mail_seat_stop",
                        "UPDATE mail_seats SET stopped_at = now(), stopped_reason = $4 WHERE game_id = $1::uuid "
                        "AND seat = $2::integer AND lower(email) = lower($3) AND stopped_at IS NULL",
                        4},
    {ST_MAIL_TAG_GEN, "mail_tag_gen",
                      "SELECT COALESCE((SELECT leaves FROM game_waiting WHERE game_id = $1::uuid), 0)", 1},
};
const cd_stmt_family cd_stmts_mail_seats = {stmts, sizeof stmts / sizeof stmts[0]};

static const char *text(const PGresult *res, int i, int c)
{
    return PQgetisnull(res, i, c) ? "" : PQgetvalue(res, i, c);
}

/* Rows of (seat, email, tag, bot, thread_seat), of seats whose mail goes out. */
static void read_active_row(const PGresult *res, int i, cd_mail_seat *m)
{
    m->seat = atoi(PQgetvalue(res, i, 0));
    snprintf(m->email, sizeof m->email, "%s", PQgetvalue(res, i, 1));
    snprintf(m->tag, sizeof m->tag, "%s", PQgetvalue(res, i, 2));
    m->bot = PQgetvalue(res, i, 3)[0] == 't';
    m->thread_seat = atoi(PQgetvalue(res, i, 4));
    m->stopped = false;
    m->stopped_at[0] = m->stopped_reason[0] = 0;
}

/* Rows of (seat, email, stopped_at, stopped_reason). */
static void read_all_row(const PGresult *res, int i, cd_mail_seat *m)
{
    m->seat = atoi(PQgetvalue(res, i, 0));
    snprintf(m->email, sizeof m->email, "%s", text(res, i, 1));
    m->tag[0] = 0;
    m->bot = false;
    m->thread_seat = m->seat;
    snprintf(m->stopped_at, sizeof m->stopped_at, "%s", text(res, i, 2));
    snprintf(m->stopped_reason, sizeof m->stopped_reason, "%s", text(res, i, 3));
    m->stopped = m->stopped_at[0] != 0;
}

/* Up to max rows of a statement of the game, each read into out by read_row (copies: the result is cleared). */
static cd_mq seat_rows(cd_db *db, int stmt, const char *game_id, void (*read_row)(const PGresult *, int, cd_mail_seat *),
                       cd_mail_seat *out, int max, int *n)
{
    const char *p[] = {game_id};
    PGresult *res;
    cd_q q = cd_q_result(db, stmt, 1, p, &res);
    *n = 0;
    if (q != CD_Q_OK)
        return cd_mq_of(q);
    for (int i = 0; i < PQntuples(res) && *n < max; i++)
        read_row(res, i, &out[(*n)++]);
    PQclear(res);
    return CD_MQ_OK;
}

cd_mq cd_mail_seats_active(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n)
{
    return seat_rows(db, ST_MAIL_SEATS_ACTIVE, game_id, read_active_row, out, max, n);
}

cd_mq cd_mail_seats_all(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n)
{
    return seat_rows(db, ST_MAIL_SEATS_ALL, game_id, read_all_row, out, max, n);
}

/* A ST_MAIL_SEAT_TAGS row (seat, tag) into the cd_mail_seat at row; its other fields zero. */
static void read_tag_row(const PGresult *res, int i, cd_mail_seat *m)
{
    *m = (cd_mail_seat){.seat = atoi(PQgetvalue(res, i, 0))};
    snprintf(m->tag, sizeof m->tag, "%s", PQgetvalue(res, i, 1));
}

cd_mq cd_mail_seat_tags(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n)
{
    return seat_rows(db, ST_MAIL_SEAT_TAGS, game_id, read_tag_row, out, max, n);
}

/* A ST_MAIL_SEAT_GET row (email, stopped_at, stopped_reason, thread_seat) into the cd_mail_seat at row (its seat is the
 * caller's). */
static void seat_get_row(const PGresult *res, int i, void *row)
{
    cd_mail_seat *out = row;
    snprintf(out->email, sizeof out->email, "%s", text(res, i, 0));
    out->tag[0] = 0;
    snprintf(out->stopped_at, sizeof out->stopped_at, "%s", text(res, i, 1));
    snprintf(out->stopped_reason, sizeof out->stopped_reason, "%s", text(res, i, 2));
    out->stopped = out->stopped_at[0] != 0;
    out->bot = false;
    out->thread_seat = atoi(PQgetvalue(res, i, 3));
}

cd_mq cd_mail_seat_get(cd_db *db, const char *game_id, int seat, bool *found, cd_mail_seat *out)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {game_id, s};
    cd_q q = cd_q_one(db, ST_MAIL_SEAT_GET, 2, p, found, seat_get_row, out);   /* the primary key: 0 or 1 row */
    if (*found)
        out->seat = seat;
    return cd_mq_of(q);
}

/* A ST_MAIL_SEAT_PUT row (tag, thread_seat) into the cd_mail_seat at row. */
static void put_row(const PGresult *res, int i, void *row)
{
    cd_mail_seat *m = row;
    snprintf(m->tag, sizeof m->tag, "%s", PQgetvalue(res, i, 0));
    m->thread_seat = atoi(PQgetvalue(res, i, 1));
}

cd_mq cd_mail_seat_put(cd_db *db, const char *game_id, int seat, const char *email, cd_mail_seat *row)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {game_id, s, email, row->tag};
    row->seat = row->thread_seat = seat;
    if (!email)
        return cd_mq_of(cd_q_run(db, ST_MAIL_SEAT_DELETE, 2, p));
    bool found = false;
    return cd_mq_of(cd_q_one(db, ST_MAIL_SEAT_PUT, 4, p, &found, put_row, row));   /* RETURNING: one row */
}

static void int_column(const PGresult *res, int i, void *row)
{
    *(int *)row = atoi(PQgetvalue(res, i, 0));
}

cd_mq cd_mail_tag_gen(cd_db *db, const char *game_id, int *gen)
{
    const char *p[] = {game_id};
    bool found = false;
    *gen = 0;
    return cd_mq_of(cd_q_one(db, ST_MAIL_TAG_GEN, 1, p, &found, int_column, gen));
}

/* A ST_MAIL_SEAT_BY_TAG row (game_id, seat, email, stopped, thread_seat, bot) into cd_mail_seat_by_tag's
 * out-parameters. */
typedef struct {
    char *game_id;   /* [37] */
    cd_mail_seat *m;
} by_tag;

static void by_tag_row(const PGresult *res, int i, void *row)
{
    by_tag *t = row;
    snprintf(t->game_id, 37, "%s", PQgetvalue(res, i, 0));
    t->m->seat = atoi(PQgetvalue(res, i, 1));
    snprintf(t->m->email, sizeof t->m->email, "%s", PQgetvalue(res, i, 2));
    t->m->stopped = PQgetvalue(res, i, 3)[0] == 't';
    t->m->stopped_at[0] = t->m->stopped_reason[0] = 0;
    t->m->thread_seat = atoi(PQgetvalue(res, i, 4));
    t->m->bot = PQgetvalue(res, i, 5)[0] == 't';
}

cd_mq cd_mail_seat_by_tag(cd_db *db, const char *tag, bool *found, char game_id[37], cd_mail_seat *out)
{
    const char *p[] = {tag};
    by_tag t = {game_id, out};
    cd_q q = cd_q_one(db, ST_MAIL_SEAT_BY_TAG, 1, p, found, by_tag_row, &t);   /* tag is UNIQUE: 0 or 1 row */
    if (*found)
        snprintf(out->tag, sizeof out->tag, "%s", tag);
    return cd_mq_of(q);
}

cd_mq cd_mail_seat_stop(cd_db *db, const char *game_id, int seat, const char *email, const char *reason)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {game_id, s, email, reason};
    return cd_mq_of(cd_q_run(db, ST_MAIL_SEAT_STOP, 4, p));
}
