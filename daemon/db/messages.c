/*
 * messages.c (db/) — see messages.h.
 */
#include "messages.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    /* $3: the bearer's token or player key hashed, which the seat must still be (NULL: the seat alone, for a
     * reply mail found by its tag under the game's lock) */
    {ST_MSG_SEAT_LOCK, "msg_seat_lock",
                       "SELECT 1 FROM seats WHERE game_id = $1::uuid AND seat = $2::integer AND ($3::text IS NULL "
                       "OR token_hash = $3 OR player_id = (SELECT id FROM players WHERE key_hash = $3)) FOR UPDATE",
                       3},
    /* Counts the seat's messages in the window and inserts only below `max`; the row comes back either way
     * (n and the oldest's age give Retry-After). READ COMMITTED: after the seat lock, this statement's
     * snapshot sees every message a parallel post committed. */
    {ST_MSG_INSERT, "msg_insert",
                    "WITH recent AS (SELECT count(*) AS n, min(created_at) AS oldest FROM game_messages "
                    "WHERE game_id = $1::uuid AND seat = $2::integer "
                    "AND created_at > to_timestamp($5::float8 - $6::float8)), "
                    "ins AS (INSERT INTO game_messages (game_id, seat, seq, text, origin, created_at) "
                    "SELECT $1::uuid, $2::integer, g.seq, $3, $4, to_timestamp($5::float8) FROM games g, recent "
                    "WHERE g.id = $1::uuid AND recent.n < $7::integer RETURNING id, seq, created_at) "
                    "SELECT ins.id, ins.seq, " CD_SQL_ISO("ins.created_at") ", "
                    "EXTRACT(EPOCH FROM recent.oldest)::float8 + $6::float8 - $5::float8, "
                    "(SELECT name FROM seats WHERE game_id = $1::uuid AND seat = $2::integer) "
                    "FROM recent LEFT JOIN ins ON true",
                    7},
    {ST_MSG_NOTIFY, "msg_notify", "SELECT pg_notify('carcd_moves', $1)", 1},
    {ST_MSG_AFTER, "msg_after",
                   "SELECT m.id, m.seat, s.name, m.seq, m.text, " CD_SQL_ISO("m.created_at") ", "
                   "m.hidden_at IS NOT NULL, "
                   "($4::boolean OR m.hidden_at IS NULL) AND ($3::integer IS NULL OR NOT EXISTS "
                   "(SELECT 1 FROM message_mutes u WHERE u.game_id = m.game_id AND u.seat = $3::integer "
                   "AND u.muted = m.seat)) "
                   "FROM game_messages m JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat "
                   "WHERE m.game_id = $1::uuid AND m.id > $2::bigint ORDER BY m.id LIMIT $5::integer",
                   5},
    /* what a turn mail tells (mail/outbox.c): the others' messages since the seat's previous turn mail,
     * i.e. written at its seq or later (a message at seq s comes after the move s and the mails it wrote) */
    {ST_MSG_FOR_MAIL, "msg_for_mail",
                      "SELECT * FROM (SELECT m.id, m.seat, s.name, m.seq, m.text, " CD_SQL_ISO("m.created_at") ", "
                      "false, true FROM game_messages m JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat "
                      "WHERE m.game_id = $1::uuid AND m.seat <> $2::integer AND m.hidden_at IS NULL "
                      "AND m.seq >= coalesce((SELECT max(o.seq) FROM mail_outbox o WHERE o.game_id = $1::uuid "
                      "AND o.seat = $2::integer AND o.kind IN ('turn', 'invitation')), 0) "
                      "AND NOT EXISTS (SELECT 1 FROM message_mutes u WHERE u.game_id = m.game_id "
                      "AND u.seat = $2::integer AND u.muted = m.seat) "
                      "ORDER BY m.id DESC LIMIT $3::integer) t ORDER BY id",
                      3},
    {ST_MSG_GAME_CHAT, "msg_game_chat", "SELECT public_chat FROM games WHERE id = $1::uuid", 1},
    {ST_MSG_PUBLIC_CHAT_SET, "msg_public_chat_set", "UPDATE games SET public_chat = true WHERE id = $1::uuid", 1},
    {ST_MSG_HIDE, "msg_hide",
                  "UPDATE game_messages m SET hidden_at = coalesce(m.hidden_at, to_timestamp($3::float8)) "
                  "FROM game_messages old WHERE old.id = m.id AND m.game_id = $1::uuid AND m.id = $2::bigint "
                  "RETURNING m.seat, old.hidden_at IS NOT NULL",
                  3},
    {ST_MUTE_PUT, "mute_put",
                  "INSERT INTO message_mutes (game_id, seat, muted) VALUES ($1::uuid, $2::integer, $3::integer) "
                  "ON CONFLICT DO NOTHING",
                  3},
    {ST_MUTE_DELETE, "mute_delete",
                     "DELETE FROM message_mutes WHERE game_id = $1::uuid AND seat = $2::integer "
                     "AND muted = $3::integer",
                     3},
    {ST_MUTES_OF, "mutes_of",
                  "SELECT muted FROM message_mutes WHERE game_id = $1::uuid AND seat = $2::integer ORDER BY muted", 2},
};
const cd_stmt_family cd_stmts_messages = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_msg_seat_lock(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *found)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, bearer_hash};
    return cd_q_one(db, ST_MSG_SEAT_LOCK, 3, p, found, NULL, NULL);
}

static void inserted_row(const PGresult *res, int i, void *row)
{
    cd_msg_inserted *m = row;
    m->inserted = !PQgetisnull(res, i, 0);
    if (m->inserted) {
        m->id = atoll(PQgetvalue(res, i, 0));
        m->seq = atoi(PQgetvalue(res, i, 1));
        snprintf(m->at, sizeof m->at, "%s", PQgetvalue(res, i, 2));
        snprintf(m->name, sizeof m->name, "%s", PQgetvalue(res, i, 4));
    } else {
        m->retry_s = PQgetisnull(res, i, 3) ? 1 : atof(PQgetvalue(res, i, 3));
    }
}

cd_q cd_msg_insert(cd_db *db, const char *game_id, int seat, const char *text, const char *origin, double now,
                   double window_s, int max, cd_msg_inserted *out)
{
    char seat_s[16], now_s[32], win_s[32], max_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    snprintf(now_s, sizeof now_s, "%.6f", now);
    snprintf(win_s, sizeof win_s, "%.3f", window_s);
    snprintf(max_s, sizeof max_s, "%d", max);
    const char *p[] = {game_id, seat_s, text, origin, now_s, win_s, max_s};
    memset(out, 0, sizeof *out);
    return cd_q_one(db, ST_MSG_INSERT, 7, p, NULL, inserted_row, out);
}

bool cd_msg_notify_deferred(cd_db *db, const char *game_id, long long id)
{
    char payload[64];
    snprintf(payload, sizeof payload, "%s:m%lld", game_id, id);
    const char *p[] = {payload};
    return cd_db_defer(db, ST_MSG_NOTIFY, 1, p);
}

static void msg_row(const PGresult *res, int i, void *row)
{
    cd_msg_row *m = row;
    m->id = atoll(PQgetvalue(res, i, 0));
    m->seat = atoi(PQgetvalue(res, i, 1));
    m->name = PQgetvalue(res, i, 2);
    m->seq = atoi(PQgetvalue(res, i, 3));
    m->text = PQgetvalue(res, i, 4);
    m->at = PQgetvalue(res, i, 5);
    m->hidden = PQgetvalue(res, i, 6)[0] == 't';
    m->visible = PQgetvalue(res, i, 7)[0] == 't';
}

cd_q cd_msgs_after(cd_db *db, const char *game_id, long long after, int reader_seat, bool with_hidden, int limit,
                   cd_msg_rows *out)
{
    char after_s[24], seat_s[16], limit_s[16];
    snprintf(after_s, sizeof after_s, "%lld", after);
    snprintf(seat_s, sizeof seat_s, "%d", reader_seat);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {game_id, after_s, reader_seat >= 0 ? seat_s : NULL, with_hidden ? "true" : "false", limit_s};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_MSG_AFTER, 5, p, sizeof *out->v, msg_row, &r);
    *out = (cd_msg_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

cd_q cd_msgs_for_mail(cd_db *db, const char *game_id, int seat, int limit, cd_msg_rows *out)
{
    char seat_s[16], limit_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {game_id, seat_s, limit_s};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_MSG_FOR_MAIL, 3, p, sizeof *out->v, msg_row, &r);
    *out = (cd_msg_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_msg_rows_free(cd_msg_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_msg_rows){0};
}

static void bool_column(const PGresult *res, int i, void *row)
{
    *(bool *)row = PQgetvalue(res, i, 0)[0] == 't';
}

cd_q cd_msg_game_chat(cd_db *db, const char *game_id, bool *found, bool *public_chat)
{
    const char *p[] = {game_id};
    *public_chat = false;
    return cd_q_one(db, ST_MSG_GAME_CHAT, 1, p, found, bool_column, public_chat);
}

cd_q cd_msg_public_chat_set(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    return cd_q_run(db, ST_MSG_PUBLIC_CHAT_SET, 1, p);
}

typedef struct {
    int seat;
    bool was_hidden;
} hide_row;

static void hide_fill(const PGresult *res, int i, void *row)
{
    hide_row *h = row;
    h->seat = atoi(PQgetvalue(res, i, 0));
    h->was_hidden = PQgetvalue(res, i, 1)[0] == 't';
}

cd_q cd_msg_hide(cd_db *db, const char *game_id, long long id, double now, bool *found, int *seat, bool *was_hidden)
{
    char id_s[24], now_s[32];
    snprintf(id_s, sizeof id_s, "%lld", id);
    snprintf(now_s, sizeof now_s, "%.6f", now);
    const char *p[] = {game_id, id_s, now_s};
    hide_row h = {-1, false};
    cd_q q = cd_q_one(db, ST_MSG_HIDE, 3, p, found, hide_fill, &h);
    *seat = h.seat;
    *was_hidden = h.was_hidden;
    return q;
}

static cd_q mute_run(cd_db *db, int stmt, const char *game_id, int seat, int muted)
{
    char seat_s[16], muted_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    snprintf(muted_s, sizeof muted_s, "%d", muted);
    const char *p[] = {game_id, seat_s, muted_s};
    return cd_q_run(db, stmt, 3, p);
}

cd_q cd_mute_put(cd_db *db, const char *game_id, int seat, int muted)
{
    return mute_run(db, ST_MUTE_PUT, game_id, seat, muted);
}

cd_q cd_mute_delete(cd_db *db, const char *game_id, int seat, int muted)
{
    return mute_run(db, ST_MUTE_DELETE, game_id, seat, muted);
}

static void mute_fill(const PGresult *res, int i, void *row)
{
    *(int *)row = atoi(PQgetvalue(res, i, 0));
}

cd_q cd_mutes_of(cd_db *db, const char *game_id, int seat, unsigned *bits)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_MUTES_OF, 2, p, sizeof(int), mute_fill, &r);
    *bits = 0;
    for (int i = 0; i < r.n; i++) {
        int m = ((const int *)r.v)[i];
        if (m >= 0 && m < 32)
            *bits |= 1u << m;
    }
    cd_q_rows_release(r.v, r.res);
    return q;
}
