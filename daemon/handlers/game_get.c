/*
 * game_get.c — GET /v1/games/{id}: the view the bearer may see (admin, seat or public). The ETag is the
 * game's seq, so a client polling with If-None-Match gets 304 until someone moves.
 */
#include <stdio.h>
#include <string.h>

#include "../audit.h"
#include "../games.h"
#include "../handlers.h"

/* Whether an If-None-Match header names this seq ("*", "\"7\"", W/"7", or a list of them). */
static bool etag_matches(const char *header, const char *etag)
{
    if (!header)
        return false;
    if (strcmp(header, "*") == 0)
        return true;
    return strstr(header, etag) != NULL;
}

enum MHD_Result h_game_get(cd_req *r)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    int viewer;
    if (!cd_viewer_of(r, db, id, &viewer))
        return MHD_YES;
    if (viewer == CARC_VIEW_ADMIN && !cd_audit(r, db, NULL, id, NULL))
        return MHD_YES;
    cd_game g;
    cd_load_result lr = cd_game_load(db, id, viewer == CARC_VIEW_ADMIN, &g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        return cd_reply_load_error(r, lr);
    }
    char etag[24];
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
