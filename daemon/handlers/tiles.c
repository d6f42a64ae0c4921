/*
 * tiles.c — GET /v1/tiles: the tile catalog (tiles_doc.h), public and cacheable. The text is built once per
 * process from the tile data the engine plays with, so its ETag changes only with the binary.
 */
#include "handlers.h"
#include "game/tiles_doc.h"

enum MHD_Result h_tiles(cd_req *r)
{
    const cd_tiles_doc *d = cd_tiles_document();
    const char *const headers[] = {"ETag", d->etag, "Cache-Control", "public, max-age=3600", NULL};
    if (cd_etag_list_matches(cd_req_header(r, "If-None-Match"), d->etag))
        return cd_reply_empty(r, 304, headers);
    return cd_reply_raw(r, 200, "application/json", d->json, d->len, headers);
}
