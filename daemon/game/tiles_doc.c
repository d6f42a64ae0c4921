/*
 * tiles_doc.c — the tile catalog document, built once from the engine's catalog (tiles_doc.h).
 *
 * The document depends only on the tile data compiled into this binary, so one text and one ETag serve
 * every request: a client that cached it revalidates with If-None-Match and gets 304 until carcd is
 * upgraded with other tile data.
 */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "json.h"
#include "base/json_out.h"
#include "tiles_doc.h"

static cd_tiles_doc doc;
static char etag[2 + 32 + 1];
static pthread_once_t doc_once = PTHREAD_ONCE_INIT;

static void doc_build(void)
{
    json_t *j = carc_catalog_json(cd_catalog());   /* outside any request: malloc memory, kept */
    char *text = cd_json_dumps(j, JSON_COMPACT);
    json_decref(j);
    unsigned char md[32];
    unsigned int mdlen = sizeof md;
    if (!text || !EVP_Digest(text, strlen(text), md, &mdlen, EVP_sha256(), NULL)) {
        fputs("carcd: cannot build the tile catalog document\n", stderr);
        abort();
    }
    etag[0] = '"';
    for (int i = 0; i < 16; i++)
        snprintf(etag + 1 + 2 * i, 3, "%02x", md[i]);
    etag[33] = '"';
    etag[34] = '\0';
    doc = (cd_tiles_doc){.json = text, .len = strlen(text), .etag = etag};
}

const cd_tiles_doc *cd_tiles_document(void)
{
    pthread_once(&doc_once, doc_build);
    return &doc;
}

bool cd_etag_list_matches(const char *header, const char *tag)
{
    if (!header)
        return false;
    size_t tlen = strlen(tag);
    const char *p = header;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            return false;
        if (*p == '*')
            return true;
        if (p[0] == 'W' && p[1] == '/')
            p += 2;
        const char *end = p;
        if (*p == '"') {   /* an entity tag: "..." with no quote inside */
            end = strchr(p + 1, '"');
            if (!end)
                return false;
            end++;
        } else {
            while (*end && *end != ',')
                end++;
        }
        if ((size_t)(end - p) == tlen && memcmp(p, tag, tlen) == 0)
            return true;
        p = end;
    }
}
