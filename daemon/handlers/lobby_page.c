/*
 * lobby_page.c — GET /lobby: the lobby for people (daemon/page/lobby.html, compiled in: embedded.h, served as
 * it is). Its script (daemon/page/assets/lobby.js) lists GET /v1/lobby, joins a game with the browser's player
 * key and starts new public games, through the public REST API only; the same Content-Security-Policy as the
 * game page (scripts and styles from carcd's own files only).
 */
#include "base/embedded.h"
#include "handlers.h"

enum MHD_Result h_lobby_page(cd_req *r)
{
    static const char *const headers[] = {"Content-Security-Policy", cd_page_csp, "Cache-Control", "no-cache",
                                          "Referrer-Policy", "no-referrer", NULL};
    return cd_reply_raw(r, 200, "text/html; charset=utf-8", cd_page_lobby_html, cd_page_lobby_html_len, headers);
}
