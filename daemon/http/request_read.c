/*
 * request_read.c — what a handler reads of its request (http.h): query arguments and headers, the bearer
 * token's hash (computed once a request), `?limit=`, and the JSON body (Content-Type checked, duplicate keys
 * refused, an object only, unknown keys named), answering the problem itself when the request is wrong; and
 * whether its problems are to be a page (a browser's Accept) for a route that negotiates them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/crypto.h"
#include "base/json_arena.h"
#include "http.h"
#include "problem_html.h"

void cd_req_bearer_hash(cd_req *r, char out[CD_HEX256_LEN])
{
    if (!r->bearer_hashed) {
        cd_sha256_bytes((const uint8_t *)(r->bearer ? r->bearer : ""), r->bearer ? strlen(r->bearer) : 0,
                        r->bearer_sha256);
        r->bearer_hashed = true;
    }
    cd_hex(r->bearer_sha256, 32, out);
}

const char *cd_req_arg(cd_req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

bool cd_req_limit(cd_req *r, long def, long max, long *out)
{
    const char *v = cd_req_arg(r, "limit");
    *out = def;
    if (!v)
        return true;
    char *end;
    *out = strtol(v, &end, 10);
    if (*end || end == v || *out < 1 || *out > max) {
        cd_reply_problem(r, CD_P_INVALID, "limit", "limit: an integer 1..%ld", max);
        return false;
    }
    return true;
}

const char *cd_req_header(cd_req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

/* Whether a Content-Type is application/json, optionally with charset=utf-8 (the only charset JSON has). */
static bool is_json_type(const char *ct)
{
    static const char json[] = "application/json";
    if (!ct)
        return false;
    while (*ct == ' ' || *ct == '\t')
        ct++;
    if (strncasecmp(ct, json, sizeof json - 1) != 0)
        return false;
    ct += sizeof json - 1;
    while (*ct == ' ' || *ct == '\t')
        ct++;
    if (*ct == '\0')
        return true;
    if (*ct++ != ';')
        return false;
    while (*ct == ' ' || *ct == '\t')
        ct++;
    if (strncasecmp(ct, "charset=", 8) != 0)
        return false;
    ct += 8;
    bool quoted = *ct == '"';
    ct += quoted;
    if (strncasecmp(ct, "utf-8", 5) != 0)
        return false;
    ct += 5;
    if (quoted && *ct++ != '"')
        return false;
    while (*ct == ' ' || *ct == '\t')
        ct++;
    return *ct == '\0';
}

json_t *cd_req_json_body(cd_req *r)
{
    if (!is_json_type(cd_req_header(r, MHD_HTTP_HEADER_CONTENT_TYPE))) {
        cd_reply_problem(r, CD_P_UNSUPPORTED_TYPE, NULL, "send the body as Content-Type: application/json");
        return NULL;
    }
    json_error_t e;
    json_t *j = json_loadb(r->body ? r->body : "", r->body_len, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        cd_reply_problem(r, CD_P_BAD_JSON, NULL, "line %d, column %d: %s", e.line, e.column, e.text);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        cd_reply_problem(r, CD_P_INVALID, NULL, "the body must be a JSON object");
        return NULL;
    }
    return j;
}

json_t *cd_req_json_body_optional(cd_req *r)
{
    return r->body_len == 0 ? json_object() : cd_req_json_body(r);
}

bool cd_req_body_empty(cd_req *r)
{
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return false;
    static const char *const none[] = {NULL};
    bool ok = cd_req_only_keys(r, body, none, "");
    json_decref(body);
    return ok;
}

enum MHD_Result cd_in_json_arena(cd_req *r, cd_handler h)
{
    cd_json_arena_begin();
    enum MHD_Result ret = h(r);
    cd_json_arena_end();
    return ret;
}

bool cd_req_only_keys(cd_req *r, const json_t *o, const char *const *allowed, const char *where)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            char field[160];
            snprintf(field, sizeof field, "%s%s", where, key);
            cd_reply_problem(r, CD_P_INVALID, field, "unknown field %s", field);
            return false;
        }
    }
    return true;
}

void cd_req_negotiate_problems(cd_req *r)
{
    r->negotiated = true;
    r->html_problems = cd_accept_prefers_html(cd_req_header(r, MHD_HTTP_HEADER_ACCEPT));
}
