/*
 * admin_audit.c — GET /v1/admin/audit: the audit log of admin actions, newest first, with cursor pagination
 * (?cursor = the next_cursor of the previous page), filtered by ?game= and ?action=. Admin token only; reading
 * the log is itself an audited action.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "db/audit_log.h"

#define AUDIT_DEFAULT 50
#define AUDIT_MAX 500

static json_t *text_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *audit_row(const cd_audit_row *a)
{
    json_t *detail = json_loads(a->e.detail, 0, NULL);
    json_t *actor = json_pack("{s:s, s:o, s:o, s:o}", "id", a->e.actor, "name", text_or_null(a->e.actor_name),
                              "address", text_or_null(a->e.remote_addr), "user_agent", text_or_null(a->e.user_agent));
    return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "id", a->id, "at", a->at, "action", a->e.action, "game_id",
                     text_or_null(a->e.game_id), "actor", actor, "detail", detail ? detail : json_object());
}

static bool valid_action(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_'))
            return false;
    return true;
}

enum MHD_Result h_admin_audit(cd_req *r)
{
    if (!r->is_admin)
        return cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs the admin token");
    const char *cursor = cd_req_arg(r, "cursor"), *game = cd_req_arg(r, "game"), *action = cd_req_arg(r, "action");
    if (cursor) {
        char *end;
        errno = 0;
        long long c = strtoll(cursor, &end, 10);
        if (errno || end == cursor || *end || c < 1)
            return cd_reply_problem(r, CD_P_INVALID, "cursor", "cursor: not a cursor this server gave out");
    }
    if (game && !cd_uuid_valid(game))
        return cd_reply_problem(r, CD_P_INVALID, "game", "game: a game id");
    if (action && !valid_action(action))
        return cd_reply_problem(r, CD_P_INVALID, "action", "action: an action name such as admin.games.get");
    long limit;
    if (!cd_req_limit(r, AUDIT_DEFAULT, AUDIT_MAX, &limit))
        return MHD_YES;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    /* the page is read first, so that this look at the log is on the next page, not this one */
    cd_audit_rows rows;   /* one more than a page tells whether a next page exists */
    cd_q q = cd_audit_list(db, cursor, game, action, limit + 1, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "reading the audit log failed");
    int n = rows.n;
    json_t *entries = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(entries, audit_row(&rows.v[i]));
    json_t *next = n > limit ? json_string(rows.v[limit - 1].id) : json_null();
    cd_audit_rows_free(&rows);
    json_t *detail = json_object();
    if (game)
        json_object_set_new(detail, "game", json_string(game));
    if (action)
        json_object_set_new(detail, "action", json_string(action));
    if (!cd_audit(r, db, NULL, NULL, detail)) {
        json_decref(entries);
        json_decref(next);
        return MHD_YES;
    }
    return cd_reply_json(r, 200, json_pack("{s:o, s:o}", "entries", entries, "next_cursor", next), NULL);
}
