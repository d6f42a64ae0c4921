/*
 * moves.c (db/) — see moves.h.
 */
#include "moves.h"

#include <stdio.h>

#include "query.h"

cd_q cd_moves_insert_opening(cd_db *db, const char *game_id, const char *events)
{
    const char *p[] = {game_id, "0", NULL, NULL, events, NULL, NULL, "seat"};
    PGresult *res = cd_db_exec(db, ST_MOVE_INSERT, 8, p);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}

cd_q cd_moves_after(cd_db *db, const char *game_id, int after, int limit, cd_log_rows *out)
{
    *out = (cd_log_rows){0};
    char after_s[16], limit_s[16];
    snprintf(after_s, sizeof after_s, "%d", after);
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    const char *p[] = {game_id, after_s, limit_s};
    PGresult *res = cd_db_exec(db, ST_MOVES_AFTER, 3, p);
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
        cd_log_row *m = &out->v[i];
        m->seq = atoi(PQgetvalue(res, i, 0));
        m->has_seat = !PQgetisnull(res, i, 1);
        m->seat = cd_q_int(res, i, 1, -1);
        m->events = PQgetvalue(res, i, 3);
        m->origin = PQgetvalue(res, i, 4);
    }
    return CD_Q_OK;
}

void cd_log_rows_free(cd_log_rows *rows)
{
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_log_rows){0};
}
