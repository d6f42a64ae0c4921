/*
 * reply.c — a handler's answer (http.h's cd_reply_*): JSON, text, raw bytes, a stream or nothing, with the
 * headers every answer carries (Cache-Control: no-store unless the handler set one, nosniff, Allow on a 405),
 * and RFC 9457 problems (problem.h's catalogue; Retry-After on a 503 and a 429), or on a page route asked by a
 * browser the same problem as a page for people (problem_html.h). Only one answer a request:
 * a second one, or one while suspended, is a handler bug, logged and dropped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/json_out.h"
#include "base/log.h"
#include "http.h"
#include "http_priv.h"
#include "problem_html.h"

/* Adds the common headers, queues resp (and releases our reference) and records the status. */
static enum MHD_Result queue(cd_req *r, int status, struct MHD_Response *resp, const char *content_type,
                             const char *const *headers)
{
    req_priv *p = priv(r);
    if (!resp)
        abort();
    bool cache_control = false;
    if (content_type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    for (const char *const *h = headers; h && h[0]; h += 2) {
        MHD_add_response_header(resp, h[0], h[1]);
        if (strcasecmp(h[0], MHD_HTTP_HEADER_CACHE_CONTROL) == 0)
            cache_control = true;
    }
    if (!cache_control)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED && p->allow[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, p->allow);
    p->replied = true;
    r->status = status;
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    if (ret != MHD_YES)
        cd_log("error", "MHD refused the %d answer to %s %s", status, r->method, r->path);
    return ret;
}

/* A second reply, or one while suspended, is a handler bug: logged and dropped (never a crash). */
static bool may_reply(cd_req *r)
{
    req_priv *p = priv(r);
    if (!p->replied && !r->suspended)
        return true;
    cd_log("error", "route %s replied %s", r->route ? r->route->name : "none",
           p->replied ? "twice" : "while suspended");
    return false;
}

/* text: the body (malloc memory, stolen), NULL when it could not be written */
static enum MHD_Result reply_text_as(cd_req *r, int status, char *text, const char *content_type,
                                     const char *const *headers)
{
    if (!text) {
        cd_log("error", "route %s: reply body missing or not encodable", r->route ? r->route->name : "none");
        static const char fallback[] =
            "{\"type\":\"/problems/internal\",\"title\":\"Internal error\",\"status\":500}";
        return queue(r, 500,
                     MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback,
                                                     MHD_RESPMEM_PERSISTENT),
                     "application/problem+json", NULL);
    }
    return queue(r, status, MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE),
                 content_type, headers);
}

enum MHD_Result cd_http_reply_json_as(cd_req *r, int status, json_t *body, const char *content_type,
                                     const char *const *headers)
{
    char *text = body ? cd_json_dumps(body, CD_REPLY_JSON_FLAGS) : NULL;
    json_decref(body);
    return reply_text_as(r, status, text, content_type, headers);
}

enum MHD_Result cd_reply_json(cd_req *r, int status, json_t *body, const char *const *headers)
{
    if (!may_reply(r)) {
        json_decref(body);
        return MHD_YES;
    }
    return cd_http_reply_json_as(r, status, body, "application/json", headers);
}

enum MHD_Result cd_reply_json_text(cd_req *r, int status, char *text, const char *const *headers)
{
    if (!may_reply(r)) {
        free(text);
        return MHD_YES;
    }
    return reply_text_as(r, status, text, "application/json", headers);
}

enum MHD_Result cd_reply_raw(cd_req *r, int status, const char *content_type, const char *data, size_t len,
                             const char *const *headers)
{
    if (!may_reply(r))
        return MHD_YES;
    return queue(r, status, MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY),
                 content_type, headers);
}

enum MHD_Result cd_reply_empty(cd_req *r, int status, const char *const *headers)
{
    if (!may_reply(r))
        return MHD_YES;
    return queue(r, status, MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT), NULL, headers);
}

enum MHD_Result cd_reply_stream(cd_req *r, int status, const char *content_type, MHD_ContentReaderCallback reader,
                                void *cls, MHD_ContentReaderFreeCallback free_cb, const char *const *headers)
{
    if (!may_reply(r)) {
        if (free_cb)
            free_cb(cls);
        return MHD_YES;
    }
    /* MHD allocates (and zeroes) the block with the response, for the stream's life. Over HTTP/1.1 the stream
     * is chunked and the reader writes straight into the connection's own buffer, so the block is only used
     * for HTTP/1.0 (then it is the most one reader call may give): small, since 10 000 streams each keep one */
    return queue(r, status, MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 256, reader, cls, free_cb),
                 content_type, headers);
}

/* json_string of text, which need not be UTF-8: bytes that break it become '?'. */
static json_t *string_lossy(const char *text)
{
    json_t *s = json_string(text);
    if (s)
        return s;
    char *copy = strdup(text);
    if (!copy)
        abort();
    for (unsigned char *c = (unsigned char *)copy; *c; c++)
        if (*c >= 0x80)
            *c = '?';
    s = json_string(copy);
    free(copy);
    return s;
}

json_t *cd_http_problem_json(cd_problem pr, const char *field, const char *detail)
{
    const cd_problem_info *info = &cd_problems[pr];
    char type[64];
    snprintf(type, sizeof type, "/problems/%s", info->slug);
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    json_object_set_new(o, "title", json_string(info->title));
    json_object_set_new(o, "status", json_integer(info->status));
    if (detail && *detail)
        json_object_set_new(o, "detail", string_lossy(detail));
    if (field)
        json_object_set_new(o, "field", string_lossy(field));
    return o;
}

/* The problem as an HTML page (r->html_problems), with the JSON answer's headers (`headers`, NULL for none) and
 * Vary: Accept, since the same URL answers JSON to others. */
static enum MHD_Result reply_problem_page(cd_req *r, cd_problem pr, const char *detail, const char *const *headers)
{
    cd_buf b = {0};
    cd_problem_html(&b, pr, detail);
    const char *page_headers[] = {"Content-Security-Policy", cd_problem_html_csp, "Vary", "Accept",
                                  headers ? headers[0] : NULL, headers ? headers[1] : NULL, NULL};
    enum MHD_Result ret = queue(r, cd_problems[pr].status,
                                MHD_create_response_from_buffer(b.len, b.p, MHD_RESPMEM_MUST_COPY),
                                "text/html; charset=utf-8", page_headers);
    free(b.p);
    return ret;
}

/* retry_after_s: the Retry-After of a 503 (0: CD_RETRY_AFTER_S) or a 429 */
static enum MHD_Result reply_problem_v(cd_req *r, cd_problem pr, const char *field, json_t *ext, int retry_after_s,
                                       const char *fmt, va_list ap)
{
    char detail[1024] = "";
    if (fmt)
        vsnprintf(detail, sizeof detail, fmt, ap);
    if (pr == CD_P_INTERNAL) {
        /* the details are for the operator: the client learns only that something broke */
        cd_log("error", "%s %s (route %s): %s", r->method, r->path, r->route ? r->route->name : "none", detail);
        snprintf(detail, sizeof detail, "an internal error occurred; it has been logged");
    }
    /* a 503 is a state to wait out (RFC 9110 §10.2.3), a 429 a limit (RFC 6585 §4): the client is told when
     * to try again */
    char after[16];
    snprintf(after, sizeof after, "%d", retry_after_s > 0 ? retry_after_s : CD_RETRY_AFTER_S);
    const char *const retry[] = {MHD_HTTP_HEADER_RETRY_AFTER, after, NULL};
    int status = cd_problems[pr].status;
    const char *const *headers = status == 503 || status == 429 ? retry : NULL;
    if (r->html_problems) {   /* a browser on a page route: the same problem, for a person to read */
        json_decref(ext);
        return reply_problem_page(r, pr, detail, headers);
    }
    json_t *o = cd_http_problem_json(pr, field, detail);
    if (ext) {
        json_object_update_missing(o, ext);
        json_decref(ext);
    }
    /* a page route's JSON side: a cache must not hand this to a browser that asks for the page */
    const char *const vary[] = {"Vary", "Accept", headers ? headers[0] : NULL, headers ? headers[1] : NULL, NULL};
    return cd_http_reply_json_as(r, status, o, "application/problem+json", r->negotiated ? vary : headers);
}

enum MHD_Result cd_reply_too_many(cd_req *r, cd_problem p, int retry_after_s, const char *fmt, ...)
{
    if (!may_reply(r))
        return MHD_YES;
    va_list ap;
    va_start(ap, fmt);
    enum MHD_Result ret = reply_problem_v(r, p, NULL, NULL, retry_after_s > 0 ? retry_after_s : 1, fmt, ap);
    va_end(ap);
    return ret;
}

enum MHD_Result cd_reply_problem(cd_req *r, cd_problem p, const char *field, const char *fmt, ...)
{
    if (!may_reply(r))
        return MHD_YES;
    va_list ap;
    va_start(ap, fmt);
    enum MHD_Result ret = reply_problem_v(r, p, field, NULL, 0, fmt, ap);
    va_end(ap);
    return ret;
}

enum MHD_Result cd_reply_unavailable(cd_req *r, int retry_after_s, const char *fmt, ...)
{
    if (!may_reply(r))
        return MHD_YES;
    va_list ap;
    va_start(ap, fmt);
    enum MHD_Result ret = reply_problem_v(r, CD_P_UNAVAILABLE, NULL, NULL, retry_after_s, fmt, ap);
    va_end(ap);
    return ret;
}

enum MHD_Result cd_reply_rate_limited(cd_req *r, int retry_after_s, json_t *ext, const char *fmt, ...)
{
    if (!may_reply(r)) {
        json_decref(ext);
        return MHD_YES;
    }
    va_list ap;
    va_start(ap, fmt);
    enum MHD_Result ret = reply_problem_v(r, CD_P_RATE_LIMITED, NULL, ext, retry_after_s > 0 ? retry_after_s : 1, fmt, ap);
    va_end(ap);
    return ret;
}

enum MHD_Result cd_reply_problem_ext(cd_req *r, cd_problem p, const char *field, json_t *ext, const char *fmt, ...)
{
    if (!may_reply(r)) {
        json_decref(ext);
        return MHD_YES;
    }
    va_list ap;
    va_start(ap, fmt);
    enum MHD_Result ret = reply_problem_v(r, p, field, ext, 0, fmt, ap);
    va_end(ap);
    return ret;
}
