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
#include "db/store.h"

#define AUDIT_DEFAULT 50
#define AUDIT_MAX 500

static json_t *text_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_string(PQgetvalue(res, i, col));
}

static json_t *audit_row(const PGresult *res, int i)
{
    json_t *detail = json_loads(PQgetvalue(res, i, 8), 0, NULL);
    json_t *actor = json_pack("{s:s, s:o, s:o, s:o}", "id", PQgetvalue(res, i, 4), "name", text_or_null(res, i, 5),
                              "address", text_or_null(res, i, 6), "user_agent", text_or_null(res, i, 7));
    return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "id", PQgetvalue(res, i, 0), "at", PQgetvalue(res, i, 1),
                     "action", PQgetvalue(res, i, 2), "game_id", text_or_null(res, i, 3), "actor", actor, "detail",
                     detail ? detail : json_object());
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
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit + 1);
    const char *p[] = {cursor, game, action, lim};
    PGresult *res = cd_db_exec(db, ST_AUDIT_LIST, 4, p);
    if (!cd_db_ok(res)) {
        bool down = cd_db_unavailable(db, res);
        PQclear(res);
        return cd_reply_db_failure(r, down, "reading the audit log failed");
    }
    int n = PQntuples(res);
    json_t *entries = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(entries, audit_row(res, i));
    json_t *next = n > limit ? json_string(PQgetvalue(res, (int)limit - 1, 0)) : json_null();
    PQclear(res);
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
