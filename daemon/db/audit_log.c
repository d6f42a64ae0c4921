/*
 * audit_log.c — see audit_log.h.
 */
#include "audit_log.h"

#include <stdio.h>

#include "query.h"

cd_q cd_audit_insert(cd_db *db, const cd_audit_entry *e)
{
    const char *p[] = {e->action, e->game_id, e->actor, e->actor_name, e->remote_addr, e->user_agent, e->detail};
    PGresult *res = cd_db_exec(db, ST_AUDIT_INSERT, 7, p);
    cd_q q = cd_db_ok(res) ? CD_Q_OK : cd_q_failed(db, res);
    PQclear(res);
    return q;
}

cd_q cd_audit_list(cd_db *db, const char *before, const char *game_id, const char *action, long limit,
                   cd_audit_rows *out)
{
    *out = (cd_audit_rows){0};
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {before, game_id, action, lim};
    PGresult *res = cd_db_exec(db, ST_AUDIT_LIST, 4, p);
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
        cd_audit_row *a = &out->v[i];
        a->id = PQgetvalue(res, i, 0);
        a->at = PQgetvalue(res, i, 1);
        a->e.action = PQgetvalue(res, i, 2);
        a->e.game_id = cd_q_text(res, i, 3);
        a->e.actor = PQgetvalue(res, i, 4);
        a->e.actor_name = cd_q_text(res, i, 5);
        a->e.remote_addr = cd_q_text(res, i, 6);
        a->e.user_agent = cd_q_text(res, i, 7);
        a->e.detail = PQgetvalue(res, i, 8);
    }
    return CD_Q_OK;
}

void cd_audit_rows_free(cd_audit_rows *rows)
{
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_audit_rows){0};
}
