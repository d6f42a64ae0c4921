/*
 * tiles_doc.h — the tile catalog document of GET /v1/tiles (carc_catalog_json of the daemon's catalog),
 * built once per process and served as the same bytes, with a strong ETag derived from them.
 */
#ifndef CD_TILES_DOC_H
#define CD_TILES_DOC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *json;   /* compact JSON text, NUL-terminated */
    size_t len;
    const char *etag;   /* "\"<32 hex digits>\"": the first 128 bits of the text's SHA-256 */
} cd_tiles_doc;

/* The document; the first call builds it (carcd calls it at start-up), later calls return the same. */
const cd_tiles_doc *cd_tiles_document(void);
/* Whether an If-None-Match header value (a list of entity tags, or "*") matches `etag`: RFC 9110 §13.1.2's
 * weak comparison, so W/"x" matches "x". NULL matches nothing. */
bool cd_etag_list_matches(const char *header, const char *etag);

#endif
