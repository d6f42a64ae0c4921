/*
 * game_get.c — GET /v1/games/{id}: the view the bearer may see (admin, seat or public). The ETag is the
 * game's seq (with the clock's version in a game with a turn clock), so a client polling with If-None-Match gets
 * 304 until someone moves (or the clock is paused, resumed, or a seat takes vacation).
 */
#include <stdio.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"

/* Whether an If-None-Match header names this seq ("*", "\"7\"", W/"7", or a list of them). */
static bool etag_matches(const char *header, const char *etag)
{
    if (!header)
        return false;
    if (strcmp(header, "*") == 0)
        return true;
    return strstr(header, etag) != NULL;
}

static enum MHD_Result game_get(cd_req *r)
{
    cd_db *db;
    cd_game g;
    int viewer;
    if (!cd_game_open(r, CD_OPEN_ANYONE, &db, &viewer, &g))
        return MHD_YES;
    if (viewer == CARC_VIEW_ADMIN && !cd_audit(r, db, NULL, g.id, NULL)) {
        cd_game_free(&g);
        return MHD_YES;
    }
    /* a clock changes without a move (pause, vacation): its version joins the seq, "7.3"; POST .../moves
     * takes such a tag in If-Match by its seq */
    char etag[40];
    if (g.clocked)
        snprintf(etag, sizeof etag, "\"%d.%d\"", g.seq, g.clock.version);
    else
        snprintf(etag, sizeof etag, "\"%d\"", g.seq);
    const char *headers[] = {"ETag", etag, "Cache-Control", "private, no-cache", NULL};
    enum MHD_Result ret;
    if (etag_matches(cd_req_header(r, "If-None-Match"), etag))
        ret = cd_reply_empty(r, 304, headers);
    else
        ret = cd_reply_json(r, 200, cd_game_view(&g, viewer), headers);
    cd_game_free(&g);
    return ret;
}

/* A view is read, built and answered: the JSON of it all lives in this request's arena (json_arena.h) */
enum MHD_Result h_game_get(cd_req *r)
{
    return cd_in_json_arena(r, game_get);
}
