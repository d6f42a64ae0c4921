/*
 * admin_games.c — GET /v1/admin/games (list, cursor pagination over (created_at, id)) and
 * GET /v1/admin/games/{id} (everything, hidden orders included: the remaining stack in draw order and the
 * seed). Admin token only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "db/mail_seats.h"
#include "handlers.h"
#include "request.h"
#include "db/games_table.h"

#define LIST_DEFAULT 50
#define LIST_MAX 200

static bool require_admin(cd_req *r)
{
    if (r->is_admin)
        return true;
    if (r->bearer)
        cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "this needs the admin token");
    else
        cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "this needs the admin token");
    return false;
}

static json_t *game_row(const cd_games_list_row *g)
{
    json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s, s:i}", "id", g->id, "status", g->status, "seq", g->seq,
                          "created_at", g->created_at, "updated_at", g->updated_at, "nplayers", g->nplayers);
    json_object_set_new(o, "pending_seat", g->has_pending ? json_integer(g->pending_seat) : json_null());
    json_object_set_new(o, "seats_asked", g->seats_asked >= 0 ? json_integer(g->seats_asked) : json_null());
    json_object_set_new(o, "seats_taken", g->seats_taken >= 0 ? json_integer(g->seats_taken) : json_null());
    return o;
}

enum MHD_Result h_admin_games_list(cd_req *r)
{
    if (!require_admin(r))
        return MHD_YES;
    const char *status = cd_req_arg(r, "status"), *cursor = cd_req_arg(r, "cursor");
    if (status && strcmp(status, "active") != 0 && strcmp(status, "finished") != 0 &&
        strcmp(status, "waiting") != 0 && strcmp(status, "cancelled") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "status", "status: waiting, active, finished or cancelled");
    if (cursor && !cd_uuid_valid(cursor))
        return cd_reply_problem(r, CD_P_INVALID, "cursor", "cursor: not a cursor this server gave out");
    long limit;
    if (!cd_req_limit(r, LIST_DEFAULT, LIST_MAX, &limit))
        return MHD_YES;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    if (!cd_audit(r, db, NULL, NULL, status ? json_pack("{s:s}", "status", status) : NULL))
        return MHD_YES;
    cd_games_list_rows rows;   /* one more than a page tells whether a next page exists */
    cd_q q = cd_games_list(db, status, cursor, limit + 1, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "listing games failed");
    int n = rows.n;
    json_t *games = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(games, game_row(&rows.v[i]));
    json_t *next = n > limit ? json_string(rows.v[limit - 1].id) : json_null();
    cd_games_list_rows_free(&rows);
    return cd_reply_json(r, 200, json_pack("{s:o, s:o}", "games", games, "next_cursor", next), NULL);
}

enum MHD_Result h_admin_game_get(cd_req *r)
{
    cd_db *db;
    cd_game g;
    int viewer;
    if (!cd_game_open(r, CD_OPEN_ADMIN, &db, &viewer, &g))
        return MHD_YES;
    const char *id = r->params[0];
    if (!cd_audit(r, db, NULL, id, json_pack("{s:i}", "seq", g.seq))) {
        cd_game_free(&g);
        return MHD_YES;
    }
    json_t *v = cd_game_view(&g, CARC_VIEW_ADMIN);
    json_object_set_new(v, "seed", json_string(g.seed));
    json_object_set(v, "setup", g.setup);
    cd_game_free(&g);
    /* play by e-mail: every seat's address and whether its mail was stopped (a permanent refusal, an
     * unsubscribe) */
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    cd_mq mq = cd_mail_seats_all(db, id, seats, CARC_MAX_PLAYERS, &n);
    if (mq != CD_MQ_OK) {
        json_decref(v);
        return cd_reply_db_failure(r, mq == CD_MQ_DOWN, "the seats' mail could not be read");
    }
    json_t *mail = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(mail, json_pack("{s:i, s:s, s:o, s:o}", "seat", seats[i].seat, "email", seats[i].email,
                                              "stopped_at", seats[i].stopped ? json_string(seats[i].stopped_at) : json_null(),
                                              "stopped_reason",
                                              seats[i].stopped ? json_string(seats[i].stopped_reason) : json_null()));
    json_object_set_new(v, "mail", mail);
    return cd_reply_json(r, 200, v, NULL);
}
