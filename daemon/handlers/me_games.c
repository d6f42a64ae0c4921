/*
 * me_games.c — GET /v1/me/games with a player key: every game where a seat is linked to the player, the
 * games waiting for the player first, the earliest deadline first among them, then the most recently
 * updated. ?my_turn=true keeps the games that wait for the player; ?status=active|finished; ?limit=.
 */
#include <stdlib.h>
#include <string.h>

#include "game/clock.h"
#include "game/games.h"
#include "handlers.h"
#include "handlers/lobby.h"
#include "db/players.h"
#include "base/timesrc.h"

#define LIST_DEFAULT 100
#define LIST_MAX 500

static json_t *row_json(const cd_req *r, const cd_me_game_row *g, double now)
{
    int seat = g->seat;
    bool active = strcmp(g->status, "active") == 0;
    bool my_turn = active && g->has_pending && g->pending_seat == seat;
    json_t *pending = json_null(), *deadline = json_null(), *left = json_null();
    if (active && g->has_pending)
        pending = json_pack("{s:i, s:s}", "seat", g->pending_seat, "kind", g->pending_kind ? g->pending_kind : "none");
    if (active && g->has_deadline) {
        char iso[32];
        cd_iso_time(g->deadline, iso);
        deadline = json_string(iso);
    }
    cd_clock c;
    json_t *cj = g->clock ? json_loads(g->clock, 0, NULL) : NULL;
    if (active && cj && cd_clock_from_json(cj, &c) && seat < c.nseats)
        left = json_real(cd_clock_time_left(&c, seat, now));
    json_decref(cj);
    return json_pack("{s:s, s:i, s:s, s:i, s:b, s:o, s:o, s:o, s:s, s:o, s:o}", "id", g->id, "seat", seat, "status",
                     g->status, "seq", g->seq, "my_turn", my_turn, "pending", pending, "deadline", deadline,
                     "time_left_s", left, "updated_at", g->updated_at, "open",
                     g->open >= 0 ? json_integer(g->open) : json_null(), "expires_at",
                     cd_lobby_expires_at(r, g->last_join_at));
}

enum MHD_Result h_me_games(cd_req *r)
{
    if (!r->bearer)
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "this needs a player key (POST /v1/players)");
    const char *status = cd_req_arg(r, "status"), *my = cd_req_arg(r, "my_turn");
    if (status && strcmp(status, "active") != 0 && strcmp(status, "finished") != 0 &&
        strcmp(status, "waiting") != 0 && strcmp(status, "cancelled") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "status", "status: waiting, active, finished or cancelled");
    if (my && strcmp(my, "true") != 0 && strcmp(my, "false") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "my_turn", "my_turn: true or false");
    bool only_mine = my && strcmp(my, "true") == 0;
    long limit;
    if (!cd_req_limit(r, LIST_DEFAULT, LIST_MAX, &limit))
        return MHD_YES;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, hash);
    char player[37];
    bool found = false;
    cd_q q = cd_player_by_key(db, hash, &found, player);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the player could not be read");
    if (!found)
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token is no player key");
    cd_me_game_rows rows;
    q = cd_me_games(db, player, status, limit, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the games could not be read");
    double now = cd_wall_now();
    json_t *games = json_array();
    for (int i = 0; i < rows.n; i++) {
        json_t *g = row_json(r, &rows.v[i], now);
        if (only_mine && !json_is_true(json_object_get(g, "my_turn")))
            json_decref(g);
        else
            json_array_append_new(games, g);
    }
    cd_me_game_rows_free(&rows);
    return cd_reply_json(r, 200, json_pack("{s:s, s:o}", "player_id", player, "games", games), NULL);
}
