/*
 * board.c — GET /v1/games/{id}/board.svg and board.png: a picture of the board as the bearer may see it
 * (admin, seat or public: the same view rules as GET /v1/games/{id}, since the picture is drawn from that
 * very view), now or, with ?seq=N, as it was after move N.
 *
 * The past is replayed on the server from the secret seed, the set-up and the move log, then shown through
 * the viewer's view of the replayed state: the seed and the stack never leave the server. An admin's look
 * is written to the audit log first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "render/render.h"
#include "game/replay.h"

#define PNG_MAX_PX 4096

json_t *cd_board_view(cd_req *r, const char *action, int *viewer_out)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        return NULL;
    }
    r->game_id = id;
    const char *seq_s = cd_req_arg(r, "seq");
    long want = -1;
    if (seq_s && !cd_parse_long(seq_s, 0, 1000000, &want)) {   /* digits only: not "+1", " 1" */
        cd_reply_problem(r, CD_P_INVALID, "seq", "seq: a move number 0..the game's seq");
        return NULL;
    }
    cd_db *db = cd_req_db(r);
    if (!db)
        return NULL;
    int viewer;
    if (!cd_viewer_shown(r, db, id, &viewer, NULL))
        return NULL;
    cd_game g;
    /* the seed is needed to replay the past; it stays here */
    cd_load_result lr = cd_game_load(db, id, viewer == CARC_VIEW_ADMIN || want >= 0, &g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        cd_reply_load_error(r, lr);
        return NULL;
    }
    if (want > g.seq) {
        int seq = g.seq;
        cd_game_free(&g);
        cd_reply_problem(r, CD_P_INVALID, "seq", "seq: this game is at seq %d", seq);
        return NULL;
    }
    if (viewer == CARC_VIEW_ADMIN &&
        !cd_audit(r, db, action, id, want >= 0 ? json_pack("{s:i}", "seq", (int)want) : NULL)) {
        cd_game_free(&g);
        return NULL;
    }
    json_t *view;
    if (want < 0 || want == g.seq) {
        view = cd_game_view(&g, viewer);
    } else {
        carc_state *st = malloc(sizeof *st);
        if (!st)
            abort();
        char why[256] = "";
        int nmoves = 0;
        bool db_error = false;
        int bad = cd_replay(db, &g, (int)want, st, &nmoves, NULL, why, sizeof why, &db_error);
        if (db_error || bad >= 0 || nmoves != want) {
            free(st);
            cd_game_free(&g);
            if (!db_error)
                fprintf(stderr, "carcd: game %s: replay to seq %ld failed at %d: %s\n", id, want, bad, why);
            cd_reply_problem(r, db_error ? CD_P_UNAVAILABLE : CD_P_INTERNAL, NULL, "the game could not be replayed");
            return NULL;
        }
        cd_game past = g;   /* the same game, its state and seq as after move `want` */
        past.st = st;
        past.seq = (int)want;
        past.finished = st->status == CARC_FINISHED;
        view = cd_game_view(&past, viewer);
        free(st);
    }
    cd_game_free(&g);
    if (viewer_out)
        *viewer_out = viewer;
    return view;
}

enum MHD_Result h_board_svg(cd_req *r)
{
    json_t *view = cd_board_view(r, NULL, NULL);
    if (!view)
        return MHD_YES;
    size_t len;
    char *svg = cd_render_svg(cd_catalog(), view, &len);
    json_decref(view);
    const char *headers[] = {"Cache-Control", "private, no-cache", NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "image/svg+xml; charset=utf-8", svg, len, headers);
    free(svg);
    return ret;
}

enum MHD_Result h_board_png(cd_req *r)
{
    json_t *view = cd_board_view(r, NULL, NULL);
    if (!view)
        return MHD_YES;
    size_t len = 0;
    unsigned char *png = cd_render_png(cd_catalog(), view, PNG_MAX_PX, &len);
    json_decref(view);
    if (!png)
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "the picture could not be drawn");
    const char *headers[] = {"Cache-Control", "private, no-cache", NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "image/png", (const char *)png, len, headers);
    free(png);
    return ret;
}
