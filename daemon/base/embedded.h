/*
 * embedded.h — files compiled into carcd, so the binary needs nothing from the source tree at run time.
 *
 * Generated at build time by cmake/embed_files.cmake (see CMakeLists.txt): the bytes of each file exactly as
 * in the repository, plus a terminating NUL that `len` does not count.
 *
 *   cd_sql_files   every sql/ *.sql file, sorted by file name; `name` is the bare file name
 *                  ("001_init.sql", no directory); cd_sql_nfiles of them. Read by migrate.c.
 *   cd_openapi_json  api-docs/openapi.json, served verbatim by GET /v1/openapi.json.
 *   cd_page_game_html  daemon/page/game.html, the template of GET /games/{id} (game_page.c).
 *   cd_page_lobby_html daemon/page/lobby.html, GET /lobby as it is (lobby_page.c).
 *   cd_page_assets   every daemon/page/assets/ file (the page's ES modules and style sheet), sorted by name;
 *                  cd_page_nassets of them. Served by GET /games/assets/{name} (game_assets.c).
 */
#ifndef CD_EMBEDDED_H
#define CD_EMBEDDED_H

#include <stddef.h>

typedef struct {
    const char *name;   /* file name without directory */
    const char *text;   /* the file's bytes, NUL-terminated */
    size_t len;         /* bytes, without the NUL */
} cd_embedded_file;

extern const cd_embedded_file cd_sql_files[];
extern const size_t cd_sql_nfiles;

extern const char cd_openapi_json[];
extern const size_t cd_openapi_json_len;

extern const char cd_page_game_html[];
extern const size_t cd_page_game_html_len;

extern const char cd_page_lobby_html[];
extern const size_t cd_page_lobby_html_len;

extern const cd_embedded_file cd_page_assets[];
extern const size_t cd_page_nassets;

#endif
