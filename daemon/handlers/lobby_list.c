/*
 * lobby_list.c — GET /v1/lobby: the public games that wait for players (created with "public": true and
 * open seats), oldest first, as anyone may see them: settings, seats taken (names) and open. Filters:
 * ?expansions=hills_sheep,crop_circles (games with at least those; "none": the base game alone), ?seats=N
 * (games of N seats), ?clock=true|false, ?limit (default 50, at most 200). Any player key joins one with
 * POST /v1/games/{id}/join and no code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_out.h"
#include "db/lobby.h"
#include "handlers.h"
#include "handlers/lobby.h"

/* ?expansions= as a JSON array of set names, checked by the engine's decoder; NULL after a 400. */
static json_t *expansions_arg(cd_req *r, const char *arg)
{
    json_t *a = json_array();
    if (strcmp(arg, "none") == 0)
        return a;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        json_array_append_new(a, json_string(tok));
    uint8_t sets = 0;
    char err[256];
    if (json_array_size(a) == 0 || strlen(arg) >= sizeof buf ||
        carc_expansions_from_json(&sets, a, err, sizeof err) != 0) {
        json_decref(a);
        cd_reply_problem(r, CD_P_INVALID, "expansions", "expansions: expected names of expansions separated by "
                         "commas (as in a game's \"expansions\"), or none");
        return NULL;
    }
    json_decref(a);
    return carc_expansions_to_json(sets);   /* the engine's names and order */
}

static enum MHD_Result lobby_list(cd_req *r)
{
    long limit;
    if (!cd_req_limit(r, 50, 200, &limit))
        return MHD_YES;
    const char *e = cd_req_arg(r, "expansions"), *n = cd_req_arg(r, "seats"), *c = cd_req_arg(r, "clock");
    int nseats = 0;
    if (n) {
        if (strlen(n) != 1 || n[0] < '2' || n[0] > '6')
            return cd_reply_problem(r, CD_P_INVALID, "seats", "seats: expected 2 to 6");
        nseats = n[0] - '0';
    }
    if (c && strcmp(c, "true") != 0 && strcmp(c, "false") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "clock", "clock: expected true or false");
    json_t *exp = NULL;
    if (e && !(exp = expansions_arg(r, e)))
        return MHD_YES;
    char *exp_s = exp ? cd_json_dumps(exp, JSON_COMPACT) : NULL;   /* malloc'd, not the arena's */
    json_decref(exp);
    cd_db *db = cd_req_db(r);
    if (!db) {
        free(exp_s);
        return MHD_YES;
    }
    cd_lobby_rows rows;
    cd_q q = cd_lobby_list(db, exp_s, nseats, c, limit, &rows);
    free(exp_s);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the lobby could not be read");
    json_t *games = json_array();
    for (int i = 0; i < rows.n; i++) {
        const cd_lobby_row *g = &rows.v[i];
        json_t *settings = json_loads(g->settings, 0, NULL), *names = json_loads(g->names, 0, NULL);
        json_t *ex = json_object_get(settings, "expansions"), *opt = json_object_get(settings, "options");
        json_t *clock = json_object_get(settings, "clock");
        json_array_append_new(
            games, json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:s, s:o}", "id", g->id, "seats", g->nseats,
                             "taken", g->taken, "open", g->nseats - g->taken, "players",
                             names ? names : json_array(), "expansions", ex ? json_incref(ex) : json_array(),
                             "options", opt ? json_incref(opt) : json_object(), "clock",
                             clock ? json_incref(clock) : json_null(), "created_at", g->created_at, "expires_at",
                             cd_lobby_expires_at(r, g->last_join_at)));
        json_decref(settings);
    }
    cd_lobby_rows_free(&rows);
    /* whether a creation here may mail its invitations (games_create.c refuses an address otherwise): the
     * lobby page offers the field only then */
    bool invite_mail = cd_lobby_mail_missing(r) == NULL;
    return cd_reply_json(r, 200, json_pack("{s:o, s:b}", "games", games, "invite_mail", invite_mail), NULL);
}

enum MHD_Result h_lobby_list(cd_req *r)
{
    return cd_in_json_arena(r, lobby_list);
}
