/*
 * legal_moves.c — GET /v1/games/{id}/legal-moves: every move the bearer's seat may make now, each one a
 * body `move` it can post back unchanged; none when the game waits for someone else. An admin may ask on
 * behalf of a seat with ?seat=N. With ?format=text the answer is text/plain for chat bots and mail: the seq on
 * the first line, then one notation (engine/notation.h) per line, in the JSON answer's order.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "game/audit.h"
#include "game/games.h"
#include "game/notations.h"
#include "handlers.h"

static enum MHD_Result legal_moves(cd_req *r)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    const char *format = cd_req_arg(r, "format");
    if (format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0)
        return cd_reply_problem(r, CD_P_INVALID, "format", "format: \"json\" (the default) or \"text\"");
    bool text = format && strcmp(format, "text") == 0;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    int viewer;
    cd_game g;
    if (!r->is_admin && r->bearer) {   /* a seat: token and game in one statement, no names */
        if (!cd_game_open_seat(r, db, id, false, &viewer, &g))
            return MHD_YES;
    } else {
        if (!cd_viewer_of(r, db, id, &viewer))
            return MHD_YES;
        if (viewer == CARC_VIEW_PUBLIC)
            return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "legal moves need a seat token");
        cd_load_result lr = cd_game_load(db, id, false, &g);
        if (lr != CD_LOAD_OK) {
            cd_game_free(&g);
            return cd_reply_load_error(r, lr);
        }
    }
    int seat = viewer;
    if (viewer == CARC_VIEW_ADMIN) {
        /* digits only: strtol would read "" (and " 1", "+1") as a seat */
        const char *s = cd_req_arg(r, "seat");
        long v = s && *s && strlen(s) <= 2 && strspn(s, "0123456789") == strlen(s) ? strtol(s, NULL, 10) : -1;
        if (v < 0 || v >= g.st->nplayers) {
            int nplayers = g.st->nplayers;   /* cd_game_free clears g */
            cd_game_free(&g);
            return cd_reply_problem(r, CD_P_INVALID, "seat", "an admin names the seat: ?seat=0..%d", nplayers - 1);
        }
        seat = (int)v;
        if (!cd_audit(r, db, NULL, id, json_pack("{s:i}", "seat", seat))) {
            cd_game_free(&g);
            return MHD_YES;
        }
    }
    if (g.cancelled) {   /* the engine's state is where the admin stopped it: nothing is legal any more */
        int seq = g.seq;
        cd_game_free(&g);
        if (text) {
            char line[16];
            int n = snprintf(line, sizeof line, "%d\n", seq);
            return cd_reply_raw(r, 200, "text/plain; charset=utf-8", line, (size_t)n, NULL);
        }
        return cd_reply_json(r, 200, json_pack("{s:i, s:i, s:[]}", "seq", seq, "seat", seat, "moves"), NULL);
    }
    if (text) {
        cd_buf b = {0};
        cd_legal_moves_text(&b, g.st, g.seq, seat);
        cd_game_free(&g);
        enum MHD_Result ret = cd_reply_raw(r, 200, "text/plain; charset=utf-8", b.p, b.len, NULL);
        free(b.p);
        return ret;
    }
    /* written as text, without the tree: the same bytes as cd_reply_json of cd_legal_moves_json */
    char *answer = cd_legal_moves_json_text(g.st, g.seq, seat);
    cd_game_free(&g);
    return cd_reply_json_text(r, 200, answer, NULL);
}

/* The moves are generated, encoded and answered: the JSON of it all lives in this request's arena (json_arena.h) */
enum MHD_Result h_legal_moves(cd_req *r)
{
    return cd_in_json_arena(r, legal_moves);
}
