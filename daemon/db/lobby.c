/*
 * lobby.c (db/) — see lobby.h.
 */
#include "lobby.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

#define SEAT_NAMES_OF(g) "COALESCE((SELECT json_agg(n.name ORDER BY n.seat) FROM seats n WHERE n.game_id = " g "), '[]')"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    /* the player's row joined to its seats in the game: no row for an unknown key (one index scan of
     * players.key_hash, then seats_player_ended, sql/038) */
    {ST_KEY_SEATS, "key_seats",
                   "SELECT t.token_hash, t.seat FROM players p LEFT JOIN seats t ON t.player_id = p.id "
                   "AND t.game_id = $2::uuid AND ($3::integer IS NULL OR t.seat = $3::integer) "
                   "WHERE p.key_hash = $1 ORDER BY t.seat",
                   3},
    /* behind the game's lock, as a move is: a move under way ends first, and a move after it reads the new
     * token behind the lock (ST_MOVE_AFTER_LOCK), so the old token moves nothing once this has answered */
    {ST_SEAT_TOKEN_RENEW, "seat_token_renew",
                          "WITH g AS (SELECT id FROM games WHERE id = $1::uuid FOR NO KEY UPDATE) "
                          "UPDATE seats t SET token_hash = $4 FROM players p, g WHERE p.key_hash = $3 "
                          "AND t.player_id = p.id AND t.game_id = g.id AND t.seat = $2::integer RETURNING t.seat",
                          4},
    {ST_WAITING_INSERT, "waiting_insert",
                        "INSERT INTO game_waiting (game_id, settings, nseats, public, creator_hash, rematch_of, "
                        "last_join_at) VALUES ($1::uuid, $2::jsonb, $3::integer, $4::boolean, $5, $6::uuid, "
                        "to_timestamp($7::float8))",
                        7},
    {ST_INVITE_INSERT, "invite_insert",
                       "INSERT INTO seat_invites (game_id, place, code_hash, old_seat, email) "
                       "VALUES ($1::uuid, $2::integer, $3, $4::integer, $5)",
                       5},
    /* the lock and the read are two statements: a statement that waits for a lock reads the other tables (the
     * waiting row, the seats) as they were when it began, before the transaction it waited for committed; the
     * read after it, a statement of its own, sees what that transaction wrote (a join, a keep-open) */
    {ST_WAITING_LOCK, "waiting_lock", "SELECT 1 FROM games WHERE id = $1::uuid FOR UPDATE", 1},
    {ST_WAITING_READ, "waiting_read",
                      "SELECT g.status, w.game_id IS NOT NULL, COALESCE(w.public, false), COALESCE(w.nseats, 0), "
                      "COALESCE(w.creator_hash, ''), COALESCE(w.settings, '{}'), w.rematch_of, s.seed, "
                      "(SELECT count(*) FROM seats t WHERE t.game_id = g.id), w.cancelled_by, "
                      "extract(epoch FROM w.last_join_at), COALESCE(w.expiry_warned, false) "
                      "FROM games g JOIN game_secrets s ON s.game_id = g.id "
                      "LEFT JOIN game_waiting w ON w.game_id = g.id WHERE g.id = $1::uuid",
                      1},
    {ST_INVITES, "invites",
                 "SELECT place, code_hash, old_seat, seat, email, email_displaced, by_code FROM seat_invites "
                 "WHERE game_id = $1::uuid "
                 "ORDER BY place",
                 1},
    {ST_INVITE_TAKE, "invite_take",
                     "UPDATE seat_invites SET seat = $3::integer, by_code = $4::boolean WHERE game_id = $1::uuid "
                     "AND place = $2::integer",
                     4},
    {ST_INVITE_EMAIL, "invite_email",
                      "UPDATE seat_invites SET email = $3 WHERE game_id = $1::uuid AND place = $2::integer", 3},
    {ST_INVITE_DISPLACE, "invite_displace",
                         "UPDATE seat_invites SET email_displaced = email, email = NULL WHERE game_id = $1::uuid "
                         "AND place = $2::integer AND email IS NOT NULL", 2},
    {ST_INVITE_REPLY_TAG, "invite_reply_tag",
                          "UPDATE seat_invites SET reply_tag = $3 WHERE game_id = $1::uuid "
                          "AND place = $2::integer", 3},
    {ST_WAITING_CREATOR, "waiting_creator",
                         "SELECT COALESCE(creator_hash, '') FROM game_waiting WHERE game_id = $1::uuid", 1},
    {ST_INVITE_BY_TAG, "invite_by_tag", "SELECT game_id, place FROM seat_invites WHERE reply_tag = $1", 1},
    {ST_WAITING_SEATS, "waiting_seats",
                       "SELECT seat, name, player_id, bot::text, left_to_bot FROM seats WHERE game_id = $1::uuid "
                       "ORDER BY seat", 1},
    /* the waiting game's row stops counting towards its expiry as the game row changes status */
    {ST_GAME_START, "game_start",
                    "WITH w AS (UPDATE game_waiting SET last_join_at = NULL WHERE game_id = $1::uuid) "
                    "UPDATE games SET status = $2, setup = $3::jsonb, snapshot = $4::jsonb, pending_seat = $5::integer, "
                    "clock = $6::jsonb, clock_deadline = to_timestamp($7::float8), clock_due = to_timestamp($8::float8), "
                    "updated_at = now(), finished_at = CASE WHEN $2 = 'finished' THEN now() END "
                    "WHERE id = $1::uuid AND status = 'waiting'",
                    8},
    {ST_GAME_CANCEL, "game_cancel",
                     "WITH w AS (UPDATE game_waiting SET last_join_at = NULL, cancelled_by = $2 "
                     "WHERE game_id = $1::uuid) "
                     "UPDATE games SET status = 'cancelled', updated_at = now(), finished_at = now() "
                     "WHERE id = $1::uuid AND status = 'waiting'",
                     2},
    /* public waiting games, oldest first (game_waiting_public, then each game's row); the filters are the
     * lobby's query arguments */
    {ST_LOBBY_LIST, "lobby_list",
                    "SELECT g.id, w.nseats, (SELECT count(*) FROM seats t WHERE t.game_id = g.id), w.settings, "
                    CD_SQL_ISO("g.created_at") ", " SEAT_NAMES_OF("g.id") ", extract(epoch FROM w.last_join_at) "
                    "FROM game_waiting w "
                    "JOIN games g ON g.id = w.game_id WHERE w.public AND g.status = 'waiting' "
                    "AND ($1::jsonb IS NULL OR CASE WHEN $1::jsonb = '[]'::jsonb "
                    "THEN COALESCE(jsonb_array_length(w.settings->'expansions'), 0) = 0 "
                    "ELSE COALESCE(w.settings->'expansions', '[]') @> $1::jsonb END) "
                    "AND ($2::integer IS NULL OR w.nseats = $2::integer) "
                    "AND ($3::boolean IS NULL OR (w.settings ? 'clock') = $3::boolean) "
                    "ORDER BY g.created_at, g.id LIMIT $4::integer",
                    4},
    {ST_WAITING_VIEW, "waiting_view",
                      "SELECT g.status, COALESCE(w.nseats, 0), "
                      "(SELECT count(*) FROM seat_invites i WHERE i.game_id = g.id AND i.seat IS NULL), "
                      "COALESCE(w.public, false), COALESCE(w.settings, '{}'), w.rematch_of, g.seed_sha256, "
                      CD_SQL_ISO("g.created_at") ", " CD_SQL_ISO("g.updated_at") ", " SEAT_NAMES_OF("g.id")
                      ", extract(epoch FROM w.last_join_at), w.cancelled_by "
                      "FROM games g LEFT JOIN game_waiting w ON w.game_id = g.id WHERE g.id = $1::uuid",
                      1},
    {ST_WAITING_COUNT_ANEW, "waiting_count_anew",
                            "UPDATE game_waiting SET last_join_at = to_timestamp($2::float8), expiry_warned = false "
                            "WHERE game_id = $1::uuid AND last_join_at IS NOT NULL "
                            "RETURNING extract(epoch FROM last_join_at)::float8",
                            2},
    /* the oldest first, by the partial index game_waiting_last_join; never one whose seats were not told */
    {ST_WAITING_EXPIRED, "waiting_expired",
                         "SELECT game_id FROM game_waiting WHERE last_join_at IS NOT NULL "
                         "AND last_join_at < to_timestamp($1::float8) AND expiry_warned "
                         "ORDER BY last_join_at LIMIT $2::integer", 2},
    {ST_WAITING_TO_WARN, "waiting_to_warn",
                         "SELECT game_id FROM game_waiting WHERE last_join_at IS NOT NULL "
                         "AND last_join_at < to_timestamp($1::float8) AND NOT expiry_warned ORDER BY last_join_at "
                         "LIMIT $2::integer", 2},
    /* a warning that comes late (counted from before late_before) counts the game anew from late_to */
    {ST_WAITING_WARNED, "waiting_warned",
                        "UPDATE game_waiting SET expiry_warned = true, last_join_at = CASE "
                        "WHEN last_join_at < to_timestamp($3::float8) THEN to_timestamp($4::float8) "
                        "ELSE last_join_at END WHERE game_id = $1::uuid "
                        "AND last_join_at < to_timestamp($2::float8) AND NOT expiry_warned "
                        "RETURNING extract(epoch FROM last_join_at)::float8", 4},
    {ST_WAITING_ENDED, "waiting_ended",
                       "UPDATE game_waiting SET last_join_at = NULL WHERE game_id = $1::uuid", 1},
    {ST_REMATCH_OF, "rematch_of", "SELECT game_id FROM game_waiting WHERE rematch_of = $1::uuid", 1},
    {ST_SEAT_INSERT_PLAYER, "seat_insert_player",
                            "INSERT INTO seats (game_id, seat, name, token_hash, player_id) "
                            "VALUES ($1::uuid, $2::integer, $3, $4, $5::uuid)",
                            5},
    {ST_SEAT_LEAVE, "seat_leave", "SELECT carcd_seat_gone($1::uuid, $2::integer, $3::boolean)", 3},
    /* both by a key (seats_gone's primary key; game_waiting's, then one text compared): 0 or 1 row */
    {ST_TOKEN_WAS, "token_was",
     "SELECT CASE WHEN removed THEN 'r' ELSE 'l' END FROM seats_gone WHERE token_hash = $1 AND game_id = $2::uuid "
     "UNION ALL SELECT 'c' FROM game_waiting WHERE game_id = $2::uuid AND creator_hash = $1 LIMIT 1", 2},
    {ST_SEAT_REMOVAL_ADD, "seat_removal_add",
                          "INSERT INTO seat_removals (game_id, player_id) VALUES ($1::uuid, $2::uuid) "
                          "ON CONFLICT DO NOTHING",
                          2},
    {ST_KEY_REMOVED, "key_removed",
                     "SELECT 1 FROM seat_removals r JOIN players p ON p.id = r.player_id "
                     "WHERE r.game_id = $1::uuid AND p.key_hash = $2",
                     2},
    {ST_INVITE_RENEW, "invite_renew",
                      "UPDATE seat_invites SET code_hash = $3, email = NULL, email_displaced = NULL, reply_tag = NULL "
                      "WHERE game_id = $1::uuid AND place = $2::integer",
                      3},
};
const cd_stmt_family cd_stmts_lobby = {stmts, sizeof stmts / sizeof stmts[0]};

static void int_text(int v, char buf[16])
{
    snprintf(buf, 16, "%d", v);
}

cd_q cd_key_seats_get(cd_db *db, const char *key_hash, const char *game_id, int seat, cd_key_seats *out)
{
    *out = (cd_key_seats){0};
    char seat_s[16];
    int_text(seat, seat_s);
    const char *p[] = {key_hash, game_id, seat >= 0 ? seat_s : NULL};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_KEY_SEATS, 3, p, &res);
    if (q != CD_Q_OK)
        return q;
    out->key_known = PQntuples(res) > 0;
    for (int i = 0; i < PQntuples(res) && out->n < CD_LOBBY_MAX_SEATS; i++) {
        if (PQgetisnull(res, i, 0))
            continue;   /* the key's row with no seat of this game */
        snprintf(out->token_hash[out->n], sizeof out->token_hash[0], "%s", PQgetvalue(res, i, 0));
        out->seat[out->n++] = atoi(PQgetvalue(res, i, 1));
    }
    PQclear(res);
    return CD_Q_OK;
}

cd_q cd_seat_token_renew(cd_db *db, const char *game_id, int seat, const char *key_hash, const char *new_hash,
                         bool *renewed)
{
    char seat_s[16];
    int_text(seat, seat_s);
    const char *p[] = {game_id, seat_s, key_hash, new_hash};
    int n = 0;
    cd_q q = cd_q_count(db, ST_SEAT_TOKEN_RENEW, 4, p, &n);
    *renewed = q == CD_Q_OK && n > 0;
    return q;
}

cd_q cd_waiting_insert(cd_db *db, const char *game_id, const char *settings, int nseats, bool public_,
                       const char *creator_hash, const char *rematch_of, double now)
{
    char n[16], at[32];
    int_text(nseats, n);
    snprintf(at, sizeof at, "%.3f", now);
    const char *p[] = {game_id, settings, n, public_ ? "true" : "false", creator_hash, rematch_of, at};
    return cd_q_run(db, ST_WAITING_INSERT, 7, p);
}

static void epoch_column(const PGresult *res, int i, void *row)
{
    *(double *)row = atof(PQgetvalue(res, i, 0));
}

cd_q cd_waiting_count_anew(cd_db *db, const char *game_id, double now, double *stored)
{
    char at[32];
    snprintf(at, sizeof at, "%.3f", now);
    const char *p[] = {game_id, at};
    double got = -1;
    bool found = false;
    cd_q q = cd_q_one(db, ST_WAITING_COUNT_ANEW, 2, p, &found, epoch_column, &got);
    if (stored)
        *stored = found ? got : -1;
    return q;
}

/* The ids statement st (ST_WAITING_EXPIRED, ST_WAITING_TO_WARN) answers for `before`, at most max. */
static cd_q waiting_ids(cd_db *db, int st, double before, int max, char (*ids)[37], int *n)
{
    char at[32], lim[16];
    snprintf(at, sizeof at, "%.3f", before);
    int_text(max, lim);
    const char *p[] = {at, lim};
    PGresult *res;
    *n = 0;
    cd_q q = cd_q_result(db, st, 2, p, &res);
    if (q != CD_Q_OK)
        return q;
    for (int i = 0; i < PQntuples(res) && *n < max; i++)
        snprintf(ids[(*n)++], 37, "%s", PQgetvalue(res, i, 0));
    PQclear(res);
    return CD_Q_OK;
}

cd_q cd_waiting_expired(cd_db *db, double before, int max, char (*ids)[37], int *n)
{
    return waiting_ids(db, ST_WAITING_EXPIRED, before, max, ids, n);
}

cd_q cd_waiting_to_warn(cd_db *db, double before, int max, char (*ids)[37], int *n)
{
    return waiting_ids(db, ST_WAITING_TO_WARN, before, max, ids, n);
}

cd_q cd_waiting_warned(cd_db *db, const char *game_id, double before, double late_before, double late_to,
                       double *counted_from)
{
    char at[32], late[32], to[32];
    snprintf(at, sizeof at, "%.3f", before);
    snprintf(late, sizeof late, "%.3f", late_before);
    snprintf(to, sizeof to, "%.3f", late_to);
    const char *p[] = {game_id, at, late, to};
    double got = -1;
    bool found = false;
    cd_q q = cd_q_one(db, ST_WAITING_WARNED, 4, p, &found, epoch_column, &got);
    *counted_from = q == CD_Q_OK && found ? got : -1;
    return q;
}

cd_q cd_waiting_ended(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    return cd_q_run(db, ST_WAITING_ENDED, 1, p);
}

cd_q cd_invite_insert(cd_db *db, const char *game_id, int place, const char *code_hash, int old_seat,
                      const char *email)
{
    char pl[16], old[16];
    int_text(place, pl);
    int_text(old_seat, old);
    const char *p[] = {game_id, pl, code_hash, old_seat >= 0 ? old : NULL, email};
    return cd_q_run(db, ST_INVITE_INSERT, 5, p);
}

cd_q cd_waiting_lock(cd_db *db, const char *game_id, cd_waiting_lock_row *out)
{
    *out = (cd_waiting_lock_row){0};
    const char *p[] = {game_id};
    const cd_db_call calls[] = {{ST_WAITING_LOCK, 1, p}, {ST_WAITING_READ, 1, p}};
    PGresult *both[2];
    cd_q q = cd_q_many(db, 2, calls, both);
    PQclear(both[0]);
    if (q != CD_Q_OK) {
        PQclear(both[1]);
        return q;
    }
    PGresult *res = both[1];
    out->res = res;
    if (!(out->found = PQntuples(res) > 0))
        return CD_Q_OK;
    out->status = PQgetvalue(res, 0, 0);
    out->waiting_row = strcmp(PQgetvalue(res, 0, 1), "t") == 0;
    out->public_ = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
    out->nseats = atoi(PQgetvalue(res, 0, 3));
    out->creator_hash = PQgetvalue(res, 0, 4);
    out->settings = PQgetvalue(res, 0, 5);
    out->rematch_of = cd_q_text(res, 0, 6);
    out->seed = PQgetvalue(res, 0, 7);
    out->taken = atoi(PQgetvalue(res, 0, 8));
    out->cancelled_by = cd_q_text(res, 0, 9);
    out->last_join_at = PQgetisnull(res, 0, 10) ? -1 : atof(PQgetvalue(res, 0, 10));
    out->expiry_warned = strcmp(PQgetvalue(res, 0, 11), "t") == 0;
    return CD_Q_OK;
}

void cd_waiting_lock_row_free(cd_waiting_lock_row *w)
{
    PQclear(w->res);
    *w = (cd_waiting_lock_row){0};
}

cd_q cd_invites_get(cd_db *db, const char *game_id, cd_invite out[CD_LOBBY_MAX_SEATS], int *n)
{
    *n = 0;
    const char *p[] = {game_id};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_INVITES, 1, p, &res);
    if (q != CD_Q_OK)
        return q;
    for (int i = 0; i < PQntuples(res) && *n < CD_LOBBY_MAX_SEATS; i++) {
        cd_invite *v = &out[(*n)++];
        *v = (cd_invite){.place = atoi(PQgetvalue(res, i, 0)), .has_code = !PQgetisnull(res, i, 1),
                         .old_seat = cd_q_int(res, i, 2, -1), .seat = cd_q_int(res, i, 3, -1)};
        snprintf(v->code_hash, sizeof v->code_hash, "%s", PQgetvalue(res, i, 1));
        snprintf(v->email, sizeof v->email, "%s", PQgetvalue(res, i, 4));   /* "" for NULL */
        snprintf(v->displaced, sizeof v->displaced, "%s", PQgetvalue(res, i, 5));
        v->by_code = PQgetisnull(res, i, 6) ? -1 : PQgetvalue(res, i, 6)[0] == 't';
    }
    PQclear(res);
    return CD_Q_OK;
}

cd_q cd_invite_take(cd_db *db, const char *game_id, int place, int seat, bool by_code)
{
    char pl[16], st[16];
    int_text(place, pl);
    int_text(seat, st);
    const char *p[] = {game_id, pl, st, by_code ? "true" : "false"};
    return cd_q_run(db, ST_INVITE_TAKE, 4, p);
}

cd_q cd_invite_email_set(cd_db *db, const char *game_id, int place, const char *email)
{
    char pl[16];
    int_text(place, pl);
    const char *p[] = {game_id, pl, email};
    return cd_q_run(db, ST_INVITE_EMAIL, 3, p);
}

cd_q cd_invite_displace(cd_db *db, const char *game_id, int place)
{
    char pl[16];
    int_text(place, pl);
    const char *p[] = {game_id, pl};
    return cd_q_run(db, ST_INVITE_DISPLACE, 2, p);
}

cd_q cd_invite_reply_tag_set(cd_db *db, const char *game_id, int place, const char *tag)
{
    char pl[16];
    int_text(place, pl);
    const char *p[] = {game_id, pl, tag};
    return cd_q_run(db, ST_INVITE_REPLY_TAG, 3, p);
}

static void fill_creator_hash(const PGresult *res, int i, void *row)
{
    snprintf(row, 65, "%s", PQgetvalue(res, i, 0));
}

cd_q cd_waiting_creator(cd_db *db, const char *game_id, bool *found, char creator_hash[65])
{
    creator_hash[0] = 0;
    const char *p[] = {game_id};
    return cd_q_one(db, ST_WAITING_CREATOR, 1, p, found, fill_creator_hash, creator_hash);
}

typedef struct {
    char *game_id;   /* char[37] */
    int *place;
} tag_place_row;

static void fill_tag_place(const PGresult *res, int i, void *row)
{
    tag_place_row *t = row;
    snprintf(t->game_id, 37, "%s", PQgetvalue(res, i, 0));
    *t->place = atoi(PQgetvalue(res, i, 1));
}

cd_q cd_invite_by_tag(cd_db *db, const char *tag, bool *found, char game_id[37], int *place)
{
    const char *p[] = {tag};
    tag_place_row row = {game_id, place};
    return cd_q_one(db, ST_INVITE_BY_TAG, 1, p, found, fill_tag_place, &row);
}

cd_q cd_waiting_seats(cd_db *db, const char *game_id, cd_waiting_seat out[CD_LOBBY_MAX_SEATS], int *n)
{
    *n = 0;
    const char *p[] = {game_id};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_WAITING_SEATS, 1, p, &res);
    if (q != CD_Q_OK)
        return q;
    for (int i = 0; i < PQntuples(res) && *n < CD_LOBBY_MAX_SEATS; i++) {
        cd_waiting_seat *s = &out[(*n)++];
        s->seat = atoi(PQgetvalue(res, i, 0));
        snprintf(s->name, sizeof s->name, "%s", PQgetvalue(res, i, 1));
        snprintf(s->player_id, sizeof s->player_id, "%s", PQgetvalue(res, i, 2));
        snprintf(s->bot, sizeof s->bot, "%s", PQgetvalue(res, i, 3));
        s->left_to_bot = strcmp(PQgetvalue(res, i, 4), "t") == 0;
    }
    PQclear(res);
    return CD_Q_OK;
}

cd_q cd_game_start_store(cd_db *db, const char *game_id, const cd_game_start_row *g)
{
    char pending[16], deadline[32], due[32];
    int_text(g->pending_seat, pending);
    snprintf(deadline, sizeof deadline, "%.3f", g->deadline);
    snprintf(due, sizeof due, "%.3f", g->due);
    const char *p[] = {game_id, g->finished ? "finished" : "active", g->setup, g->snapshot,
                       g->finished ? NULL : pending, g->clock, g->clock && g->deadline >= 0 ? deadline : NULL,
                       g->clock && g->due >= 0 ? due : NULL};
    return cd_q_run(db, ST_GAME_START, 8, p);
}

const char *cd_cancel_by_name(cd_cancel_by by)
{
    return by == CD_CANCEL_BY_ADMIN ? "admin" : by == CD_CANCEL_BY_EXPIRY ? "expiry" : "creator";
}

cd_q cd_game_cancel_store(cd_db *db, const char *game_id, cd_cancel_by by)
{
    const char *p[] = {game_id, cd_cancel_by_name(by)};
    return cd_q_run(db, ST_GAME_CANCEL, 2, p);
}

static void lobby_row(const PGresult *res, int i, void *row)
{
    cd_lobby_row *g = row;
    g->id = PQgetvalue(res, i, 0);
    g->nseats = atoi(PQgetvalue(res, i, 1));
    g->taken = atoi(PQgetvalue(res, i, 2));
    g->settings = PQgetvalue(res, i, 3);
    g->created_at = PQgetvalue(res, i, 4);
    g->names = PQgetvalue(res, i, 5);
    g->last_join_at = PQgetisnull(res, i, 6) ? -1 : atof(PQgetvalue(res, i, 6));
}

cd_q cd_lobby_list(cd_db *db, const char *expansions, int nseats, const char *clock, long limit, cd_lobby_rows *out)
{
    char n[16], lim[24];
    int_text(nseats, n);
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {expansions, nseats > 0 ? n : NULL, clock, lim};
    cd_q_rowset rs;
    cd_q q = cd_q_rows(db, ST_LOBBY_LIST, 4, p, sizeof(cd_lobby_row), lobby_row, &rs);
    *out = (cd_lobby_rows){.n = rs.n, .v = rs.v, .res = rs.res};
    return q;
}

void cd_lobby_rows_free(cd_lobby_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_lobby_rows){0};
}

cd_q cd_waiting_view(cd_db *db, const char *game_id, cd_waiting_view_row *out)
{
    *out = (cd_waiting_view_row){0};
    const char *p[] = {game_id};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_WAITING_VIEW, 1, p, &res);
    if (q != CD_Q_OK)
        return q;
    out->res = res;
    if (!(out->found = PQntuples(res) > 0))
        return CD_Q_OK;
    out->status = PQgetvalue(res, 0, 0);
    out->nseats = atoi(PQgetvalue(res, 0, 1));
    out->open = atoi(PQgetvalue(res, 0, 2));
    out->public_ = strcmp(PQgetvalue(res, 0, 3), "t") == 0;
    out->settings = PQgetvalue(res, 0, 4);
    out->rematch_of = cd_q_text(res, 0, 5);
    out->seed_sha256 = PQgetvalue(res, 0, 6);
    out->created_at = PQgetvalue(res, 0, 7);
    out->updated_at = PQgetvalue(res, 0, 8);
    out->names = PQgetvalue(res, 0, 9);
    out->last_join_at = PQgetisnull(res, 0, 10) ? -1 : atof(PQgetvalue(res, 0, 10));
    out->cancelled_by = cd_q_text(res, 0, 11);
    return CD_Q_OK;
}

void cd_waiting_view_row_free(cd_waiting_view_row *w)
{
    PQclear(w->res);
    *w = (cd_waiting_view_row){0};
}

cd_q cd_rematch_of(cd_db *db, const char *old_id, bool *found, char id[37])
{
    const char *p[] = {old_id};
    return cd_q_one(db, ST_REMATCH_OF, 1, p, found, cd_q_id_column, id);
}

cd_q cd_seat_insert_player(cd_db *db, const char *game_id, int seat, const char *name, const char *token_hash,
                           const char *player_id)
{
    char st[16];
    int_text(seat, st);
    const char *p[] = {game_id, st, name, token_hash, player_id && player_id[0] ? player_id : NULL};
    return cd_q_run(db, ST_SEAT_INSERT_PLAYER, 5, p);
}

cd_q cd_seat_leave(cd_db *db, const char *game_id, int seat, bool removed)
{
    char st[16];
    int_text(seat, st);
    const char *p[] = {game_id, st, removed ? "true" : "false"};
    return cd_q_run(db, ST_SEAT_LEAVE, 3, p);
}

static void token_was_column(const PGresult *res, int i, void *row)
{
    char c = PQgetvalue(res, i, 0)[0];
    *(cd_token_was *)row = c == 'r' ? CD_TOKEN_SEAT_REMOVED : c == 'l' ? CD_TOKEN_SEAT_LEFT : CD_TOKEN_CREATOR;
}

cd_q cd_token_was_of(cd_db *db, const char *token_hash, const char *game_id, cd_token_was *was)
{
    const char *p[] = {token_hash, game_id};
    bool found = false;
    *was = CD_TOKEN_UNKNOWN;
    return cd_q_one(db, ST_TOKEN_WAS, 2, p, &found, token_was_column, was);
}

cd_q cd_seat_removal_add(cd_db *db, const char *game_id, const char *player_id)
{
    const char *p[] = {game_id, player_id};
    return cd_q_run(db, ST_SEAT_REMOVAL_ADD, 2, p);
}

cd_q cd_key_removed(cd_db *db, const char *game_id, const char *key_hash, bool *removed)
{
    const char *p[] = {game_id, key_hash};
    return cd_q_one(db, ST_KEY_REMOVED, 2, p, removed, NULL, NULL);
}

cd_q cd_invite_renew(cd_db *db, const char *game_id, int place, const char *code_hash)
{
    char pl[16];
    int_text(place, pl);
    const char *p[] = {game_id, pl, code_hash};
    return cd_q_run(db, ST_INVITE_RENEW, 3, p);
}
