/*
 * openapi.c — GET /v1/openapi.json: api-docs/openapi.json as compiled in, byte for byte.
 */
#include "base/embedded.h"
#include "handlers.h"

enum MHD_Result h_openapi(cd_req *r)
{
    /* the document changes only with the binary: clients may keep it for a while */
    static const char *const headers[] = {"Cache-Control", "public, max-age=3600", NULL};
    return cd_reply_raw(r, 200, "application/json", cd_openapi_json, cd_openapi_json_len, headers);
}
