/*
 * audit_log.h — the audit_log table (sql/003_admin_audit.sql): writing one admin action, reading pages of
 * them (GET /v1/admin/audit). What goes into a row is game/audit.c's business.
 */
#ifndef CD_AUDIT_LOG_H
#define CD_AUDIT_LOG_H

#include "db.h"

struct pg_result;

/* One admin action as stored (ST_AUDIT_INSERT); NULL for the optional columns. */
typedef struct {
    const char *action, *game_id, *actor, *actor_name, *remote_addr, *user_agent;
    const char *detail;   /* JSON text */
} cd_audit_entry;

cd_q cd_audit_insert(cd_db *db, const cd_audit_entry *e);

/* One row of the log (ST_AUDIT_LIST); the strings live as long as the rows; NULL for SQL NULL. */
typedef struct {
    const char *id, *at;
    cd_audit_entry e;
} cd_audit_row;

typedef struct {
    int n;
    cd_audit_row *v;
    struct pg_result *res;
} cd_audit_rows;

/* ST_AUDIT_LIST: up to `limit` rows before the id `before` (NULL: the newest), of one game and one action
 * (NULL: any), newest first. */
cd_q cd_audit_list(cd_db *db, const char *before, const char *game_id, const char *action, long limit,
                   cd_audit_rows *out);
void cd_audit_rows_free(cd_audit_rows *rows);

#endif
