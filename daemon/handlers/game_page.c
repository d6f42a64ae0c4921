/*
 * game_page.c — GET /games/{id}: the page where people watch and play a game. The HTML is a shell
 * (daemon/page/game.html, compiled in: embedded.h; @TITLE@ and @ID@ are filled here); the page's ES modules
 * and style sheet (daemon/page/assets/, GET /games/assets/{name}) draw the board from /v1/tiles and the
 * game's view, follow its events stream and post the moves, through the public REST API only. The
 * Content-Security-Policy allows scripts and styles from carcd's own files only.
 *
 * A player opens the page with their token in the fragment, /games/{id}#token=cs_..., which never reaches
 * the server in the URL: the script sends it as a bearer token with its fetches.
 *
 * Its problems (no such game, the database down) are pages too when a browser asks (problem_html.h): a person
 * who followed a broken link reads what went wrong, not a JSON document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/embedded.h"
#include "base/ids.h"
#include "game/games.h"
#include "handlers.h"
#include "handlers/request.h"

/* scripts and styles only from carcd's own files (/games/assets/): no inline code runs */
const char cd_page_csp[] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

enum MHD_Result h_game_page(cd_req *r)
{
    /* people open this page: a browser gets its problems (no such game, the database down) as a page too */
    cd_req_negotiate_problems(r);
    if (!cd_uuid_valid(r->params[0]))   /* most often a link that a mail program cut in two */
        return cd_reply_problem(r, CD_P_NOT_FOUND, "id",
                                "no game with that id: a game's id is 36 characters, as in "
                                "/games/0b4e7f2a-5c1d-4e8b-9a3f-6d2c1b0e9f7a; a link cut in two by a mail "
                                "program, or copied in part, names none (copy the whole link)");
    /* the game as the bearer may see it: an unknown game is a 404 here, not a blank page; a game that has
     * not started (the lobby) gets the page too, which says so; the seats' names make the title */
    cd_db *db;
    cd_game g;
    int viewer;
    bool waiting = false, bot;
    bool loaded = cd_game_open_view(r, &db, &viewer, &bot, &g, &waiting);
    if (!loaded && !waiting)
        return MHD_YES;
    cd_buf title = {0}, out = {0};
    cd_buf_str(&title, loaded ? "Carcassonne: " : "Carcassonne: a game waiting for players");
    for (size_t k = 0; loaded && k < json_array_size(g.names); k++) {
        if (k)
            cd_buf_str(&title, ", ");
        const char *n = json_string_value(json_array_get(g.names, k));
        cd_buf_str(&title, n ? n : "?");
    }
    if (loaded)
        cd_game_free(&g);
    const char *t = cd_page_game_html;
    while (*t) {
        const char *at = strchr(t, '@');
        if (!at) {
            cd_buf_str(&out, t);
            break;
        }
        cd_buf_add(&out, t, (size_t)(at - t));
        const char *end = strchr(at + 1, '@');
        size_t n = end ? (size_t)(end - at - 1) : 0;
        if (end && n == 5 && memcmp(at + 1, "TITLE", 5) == 0)
            cd_buf_html(&out, title.p);
        else if (end && n == 2 && memcmp(at + 1, "ID", 2) == 0)
            cd_buf_html(&out, r->params[0]);
        else {   /* not a placeholder: keep the '@' */
            cd_buf_add(&out, "@", 1);
            t = at + 1;
            continue;
        }
        t = end + 1;
    }
    const char *headers[] = {"Content-Security-Policy", cd_page_csp, "Cache-Control", "private, no-cache",
                             "Referrer-Policy", "no-referrer", NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", out.p, out.len, headers);
    free(out.p);
    free(title.p);
    return ret;
}
