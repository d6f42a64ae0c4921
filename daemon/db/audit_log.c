/*
 * audit_log.c — see audit_log.h.
 */
#include "audit_log.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_AUDIT_INSERT, "audit_insert",
                      "INSERT INTO admin_audit (action, game_id, actor, actor_name, remote_addr, user_agent, "
                      "detail) VALUES ($1, $2::uuid, $3, $4, $5, $6, $7::jsonb) RETURNING id",
                      7},
    /* the cursor is the last id of the previous page: newest first */
    {ST_AUDIT_LIST, "audit_list",
                    "SELECT id, " CD_SQL_ISO("at") ", action, game_id, actor, actor_name, remote_addr, user_agent, "
                    "detail FROM admin_audit WHERE ($1::bigint IS NULL OR id < $1::bigint) "
                    "AND ($2::uuid IS NULL OR game_id = $2::uuid) AND ($3::text IS NULL OR action = $3) "
                    "ORDER BY id DESC LIMIT $4::integer",
                    4},
};
const cd_stmt_family cd_stmts_audit_log = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_audit_insert(cd_db *db, const cd_audit_entry *e)
{
    const char *p[] = {e->action, e->game_id, e->actor, e->actor_name, e->remote_addr, e->user_agent, e->detail};
    return cd_q_run(db, ST_AUDIT_INSERT, 7, p);
}

static void audit_row(const PGresult *res, int i, void *row)
{
    cd_audit_row *a = row;
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

cd_q cd_audit_list(cd_db *db, const char *before, const char *game_id, const char *action, long limit,
                   cd_audit_rows *out)
{
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {before, game_id, action, lim};
    cd_q_rowset r;
    cd_q q = cd_q_rows(db, ST_AUDIT_LIST, 4, p, sizeof *out->v, audit_row, &r);
    *out = (cd_audit_rows){.n = r.n, .v = r.v, .res = r.res};
    return q;
}

void cd_audit_rows_free(cd_audit_rows *rows)
{
    cd_q_rows_release(rows->v, rows->res);
    *rows = (cd_audit_rows){0};
}
