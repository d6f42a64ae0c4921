/*
 * webhook_endpoints.c — see webhook_endpoints.h.
 */
#include "webhook_endpoints.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

static cd_q endpoint_rows(cd_db *db, int stmt, const char *const *p, cd_endpoint_rows *out)
{
    *out = (cd_endpoint_rows){0};
    PGresult *res = cd_db_exec(db, stmt, 2, p);
    if (!cd_db_ok(res)) {
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
        cd_endpoint_row *e = &out->v[i];
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
    return CD_Q_OK;
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
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_endpoint_rows){0};
}

cd_q cd_endpoint_game_lock(cd_db *db, const char *game_id, bool *found, bool *finished, int *endpoints)
{
    const char *p[] = {game_id};
    PGresult *res = cd_db_exec(db, ST_WH_GAME_FOR_HOOK, 1, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res)) {
        q = cd_q_failed(db, res);
    } else if ((*found = PQntuples(res) > 0)) {
        *finished = strcmp(PQgetvalue(res, 0, 0), "finished") == 0;
        *endpoints = atoi(PQgetvalue(res, 0, 1));
    }
    PQclear(res);
    return q;
}

cd_q cd_endpoint_insert(cd_db *db, const char *game_id, int seat, const char *url, const char *format,
                        const char *events, const char *secret, char id[37], char created_at[40])
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat >= 0 ? seat_s : NULL, url, format, events, secret};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINT_INSERT, 6, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res) || PQntuples(res) != 1) {
        q = cd_q_failed(db, res);
    } else {
        snprintf(id, 37, "%s", PQgetvalue(res, 0, 0));
        snprintf(created_at, 40, "%s", PQgetvalue(res, 0, 1));
    }
    PQclear(res);
    return q;
}

cd_q cd_endpoint_delete(cd_db *db, const char *game_id, const char *id)
{
    const char *p[] = {game_id, id};
    PGresult *res = cd_db_exec(db, ST_WH_ENDPOINT_DELETE, 2, p);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}
