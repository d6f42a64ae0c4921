/*
 * game_assets.c — GET /games/assets/{name}: the game page's ES modules and style sheet (daemon/page/assets/,
 * compiled in: embedded.h). Public and static for the life of the binary, so each answer carries an ETag
 * made of the file's bytes and may be cached; a browser revalidates with If-None-Match and gets a 304.
 *
 * The page's Content-Security-Policy allows scripts and styles from 'self' only, so these files are the
 * only code the page runs: no inline script, no CDN.
 */
#include <stdio.h>
#include <string.h>

#include "base/embedded.h"
#include "game/tiles_doc.h"
#include "handlers.h"

/* The type by the name's ending; only the kinds of file the folder holds. */
static const char *content_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (dot && strcmp(dot, ".js") == 0)
        return "text/javascript; charset=utf-8";
    if (dot && strcmp(dot, ".css") == 0)
        return "text/css; charset=utf-8";
    return "application/octet-stream";
}

/* FNV-1a over the bytes, as a strong ETag. Cost: one pass over the file (the largest is ~30 KB, a few tens
 * of microseconds), paid per request rather than kept in a global table filled at start-up. */
static void etag_of(const cd_embedded_file *f, char out[24])
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < f->len; i++)
        h = (h ^ (unsigned char)f->text[i]) * 1099511628211ULL;
    snprintf(out, 24, "\"%016llx\"", h);
}

enum MHD_Result h_game_assets(cd_req *r)
{
    const char *name = r->params[0];
    for (size_t i = 0; i < cd_page_nassets; i++) {
        const cd_embedded_file *f = &cd_page_assets[i];
        if (strcmp(f->name, name) != 0)
            continue;
        char etag[24];
        etag_of(f, etag);
        /* asked again at every load, a 304 while its ETag holds: the modules import each other by unversioned
         * names, and a day's max-age let a browser run a new main.js with an old api.js after an upgrade */
        const char *const headers[] = {"ETag", etag, "Cache-Control", "public, no-cache", NULL};
        if (cd_etag_list_matches(cd_req_header(r, "If-None-Match"), etag))
            return cd_reply_empty(r, 304, headers);
        return cd_reply_raw(r, 200, content_type(name), f->text, f->len, headers);
    }
    return cd_reply_problem(r, CD_P_NO_ROUTE, "name", "the game page has no asset of that name");
}
