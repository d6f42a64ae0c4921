/*
 * webhook_endpoints.c — see webhook_endpoints.h.
 */
#include "webhook_endpoints.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ----
 * An endpoint whose seat went before the start (gone_at, sql/033) is in none of them: nobody's any more. */
#define WH_ENDPOINT_COLUMNS                                                                                  \
    "id, seat, url, format, array_to_string(events, ','), " CD_SQL_ISO("created_at") ", " CD_SQL_ISO("disabled_at")          \
    ", disabled_reason"

static const cd_stmt_info stmts[] = {
    {ST_WH_ENDPOINT_INSERT, "wh_endpoint_insert",
                            "INSERT INTO webhook_endpoints (game_id, seat, url, format, events, secret) "
                            "VALUES ($1::uuid, $2::integer, $3, $4, $5::text[], $6) RETURNING id, " CD_SQL_ISO("created_at"),
                            6},
    /* the count is a statement of its own, after the lock: a statement that waits for the lock reads the other
     * tables as they were when it began, and would miss the endpoints of the registration it waited for */
    {ST_WH_GAME_FOR_HOOK, "wh_game_for_hook", "SELECT status FROM games WHERE id = $1::uuid FOR NO KEY UPDATE", 1},
    {ST_WH_ENDPOINTS_COUNT, "wh_endpoints_count",
                            "SELECT count(*) FROM webhook_endpoints WHERE game_id = $1::uuid AND gone_at IS NULL "
                            "AND seat IS NOT DISTINCT FROM $2::integer",
                            2},
    {ST_WH_ENDPOINT_GET, "wh_endpoint_get",
                         "SELECT " WH_ENDPOINT_COLUMNS " FROM webhook_endpoints "
                         "WHERE game_id = $1::uuid AND id = $2::uuid AND gone_at IS NULL",
                         2},
    {ST_WH_ENDPOINTS_LIST, "wh_endpoints_list",
                           "SELECT " WH_ENDPOINT_COLUMNS " FROM webhook_endpoints WHERE game_id = $1::uuid "
                           "AND ($2::integer IS NULL OR seat = $2::integer) AND gone_at IS NULL "
                           "ORDER BY created_at, id",
                           2},
    {ST_WH_ENDPOINT_DELETE, "wh_endpoint_delete",
                            "DELETE FROM webhook_endpoints WHERE game_id = $1::uuid AND id = $2::uuid "
                            "AND gone_at IS NULL",
                            2},
};
const cd_stmt_family cd_stmts_webhook_endpoints = {stmts, sizeof stmts / sizeof stmts[0]};

static void endpoint_row(const PGresult *res, int i, void *row)
{
    cd_endpoint_row *e = row;
    e->id = PQgetvalue(res, i, 0);
    e->has_seat = !PQgetisnull(res, i, 1);
    e->seat = cd_q_int(res, i, 1, -1);
    e->url = PQgetvalue(res, i, 2);
    e->format = PQgetvalue(res, i, 3);
    e->events = PQgetvalue(res, i, 4);
    e->created_at = PQgetvalue(res, i, 5);
    e->disabled_at = cd_q_text(res, i, 6);
    e->disabled_reason = cd_q_text(res, i, 7);
}

static cd_q endpoint_rows(cd_db *db, int stmt, const char *const *p, cd_endpoint_rows *out)
{
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, stmt, 2, p, sizeof *out->v, endpoint_row, &r);
    *out = (cd_endpoint_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

cd_q cd_endpoint_get(cd_db *db, const char *game_id, const char *id, cd_endpoint_rows *out)
{
    const char *p[] = {game_id, id};
    return endpoint_rows(db, ST_WH_ENDPOINT_GET, p, out);
}

cd_q cd_endpoints_list(cd_db *db, const char *game_id, int seat, cd_endpoint_rows *out)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat >= 0 ? seat_s : NULL};
    return endpoint_rows(db, ST_WH_ENDPOINTS_LIST, p, out);
}

void cd_endpoint_rows_free(cd_endpoint_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_endpoint_rows){0};
}

cd_q cd_endpoint_game_lock(cd_db *db, const char *game_id, int seat, bool *found, bool *finished, int *endpoints)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat >= 0 ? seat_s : NULL};
    const cd_db_call calls[] = {{ST_WH_GAME_FOR_HOOK, 1, p}, {ST_WH_ENDPOINTS_COUNT, 2, p}};
    PGresult *res[2];
    cd_q q = cd_q_many(db, 2, calls, res);
    *found = q == CD_Q_OK && PQntuples(res[0]) == 1;
    if (*found) {
        const char *status = PQgetvalue(res[0], 0, 0);   /* a cancelled game is over too (sql/009) */
        *finished = strcmp(status, "finished") == 0 || strcmp(status, "cancelled") == 0;
        *endpoints = atoi(PQgetvalue(res[1], 0, 0));
    }
    PQclear(res[0]);
    PQclear(res[1]);
    return q;
}

/* A ST_WH_ENDPOINT_INSERT row (id, created_at) read into cd_endpoint_insert's buffers. */
typedef struct {
    char *id;          /* [37] */
    char *created_at;  /* [40] */
} inserted;

static void inserted_row(const PGresult *res, int i, void *row)
{
    inserted *e = row;
    snprintf(e->id, 37, "%s", PQgetvalue(res, i, 0));
    snprintf(e->created_at, 40, "%s", PQgetvalue(res, i, 1));
}

cd_q cd_endpoint_insert(cd_db *db, const char *game_id, int seat, const char *url, const char *format,
                        const char *events, const char *secret, char id[37], char created_at[40])
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat >= 0 ? seat_s : NULL, url, format, events, secret};
    inserted e = {id, created_at};
    return cd_q_one(db, ST_WH_ENDPOINT_INSERT, 6, p, NULL, inserted_row, &e);
}

cd_q cd_endpoint_delete(cd_db *db, const char *game_id, const char *id)
{
    const char *p[] = {game_id, id};
    return cd_q_run(db, ST_WH_ENDPOINT_DELETE, 2, p);
}
