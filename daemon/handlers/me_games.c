/*
 * me_games.c — GET /v1/me/games with a player key: every game where a seat is linked to the player, the
 * games waiting for the player first, the earliest deadline first among them, then the most recently
 * updated. ?my_turn=true keeps the games that wait for the player; ?status=active|finished; ?limit=.
 */
#include <stdlib.h>
#include <string.h>

#include "clock/clock.h"
#include "game/games.h"
#include "handlers.h"
#include "db/store.h"
#include "base/timesrc.h"

#define LIST_DEFAULT 100
#define LIST_MAX 500

static json_t *row_json(PGresult *res, int i, double now)
{
    int seat = atoi(PQgetvalue(res, i, 1));
    bool active = strcmp(PQgetvalue(res, i, 2), "active") == 0;
    bool my_turn = active && !PQgetisnull(res, i, 4) && atoi(PQgetvalue(res, i, 4)) == seat;
    json_t *pending = json_null(), *deadline = json_null(), *left = json_null();
    if (active && !PQgetisnull(res, i, 4))
        pending = json_pack("{s:i, s:s}", "seat", atoi(PQgetvalue(res, i, 4)), "kind",
                            PQgetisnull(res, i, 5) ? "none" : PQgetvalue(res, i, 5));
    if (active && !PQgetisnull(res, i, 6)) {
        char iso[32];
        cd_iso_time(atof(PQgetvalue(res, i, 6)), iso);
        deadline = json_string(iso);
    }
    cd_clock c;
    json_t *cj = PQgetisnull(res, i, 8) ? NULL : json_loads(PQgetvalue(res, i, 8), 0, NULL);
    if (active && cj && cd_clock_from_json(cj, &c) && seat < c.nseats)
        left = json_real(cd_clock_time_left(&c, seat, now));
    json_decref(cj);
    return json_pack("{s:s, s:i, s:s, s:i, s:b, s:o, s:o, s:o, s:s}", "id", PQgetvalue(res, i, 0), "seat", seat,
                     "status", PQgetvalue(res, i, 2), "seq", atoi(PQgetvalue(res, i, 3)), "my_turn", my_turn,
                     "pending", pending, "deadline", deadline, "time_left_s", left, "updated_at",
                     PQgetvalue(res, i, 7));
}

enum MHD_Result h_me_games(cd_req *r)
{
    if (!r->bearer)
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "this needs a player key (POST /v1/players)");
    const char *status = cd_req_arg(r, "status"), *my = cd_req_arg(r, "my_turn");
    if (status && strcmp(status, "active") != 0 && strcmp(status, "finished") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "status", "status: active or finished");
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
    cd_sha256_hex(r->bearer, hash);
    const char *p1[] = {hash};
    PGresult *res = cd_db_exec(db, ST_PLAYER_BY_KEY, 1, p1);
    if (!cd_db_ok(res) || PQntuples(res) == 0) {
        bool bad = cd_db_ok(res), down = !bad && cd_db_unavailable(db, res);
        PQclear(res);
        if (bad)
            return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token is no player key");
        return cd_reply_db_failure(r, down, "the player could not be read");
    }
    char player[40], lim[24];
    snprintf(player, sizeof player, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p2[] = {player, status, lim};
    res = cd_db_exec(db, ST_ME_GAMES, 3, p2);
    if (!cd_db_ok(res)) {
        bool down = cd_db_unavailable(db, res);
        PQclear(res);
        return cd_reply_db_failure(r, down, "the games could not be read");
    }
    double now = cd_wall_now();
    json_t *games = json_array();
    for (int i = 0; i < PQntuples(res); i++) {
        json_t *g = row_json(res, i, now);
        if (only_mine && !json_is_true(json_object_get(g, "my_turn")))
            json_decref(g);
        else
            json_array_append_new(games, g);
    }
    PQclear(res);
    return cd_reply_json(r, 200, json_pack("{s:s, s:o}", "player_id", player, "games", games), NULL);
}
