/*
 * problem_page.c — GET /problems/{name}: the page a problem's "type" URI points to, saying what the problem
 * means and what to do (the texts are problem_pages.c). Public, static for the life of the binary.
 */
#include "base/buf.h"
#include "handlers.h"
#include "http/problem_pages.h"

#include <stdlib.h>

/* The texts are ours, but escaped anyway: a page never trusts what it prints. */
static void esc(cd_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': cd_buf_str(b, "&amp;"); break;
        case '<': cd_buf_str(b, "&lt;"); break;
        case '>': cd_buf_str(b, "&gt;"); break;
        case '"': cd_buf_str(b, "&quot;"); break;
        default: cd_buf_add(b, s, 1);
        }
    }
}

enum MHD_Result h_problem_page(cd_req *r)
{
    int p = cd_problem_by_slug(r->params[0]);
    if (p < 0 || !cd_problem_pages[p].meaning)
        return cd_reply_problem(r, CD_P_NO_ROUTE, "name", "no problem type is called that");
    const cd_problem_info *info = &cd_problems[p];
    const cd_problem_page *page = &cd_problem_pages[p];
    cd_buf b = {0};
    cd_buf_str(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    esc(&b, info->title);
    cd_buf_str(&b, " — carcd</title>\n<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;"
                   "padding:0 1em;line-height:1.5}code{background:#eee;padding:0 .2em}</style>\n</head>\n<body>\n"
                   "<h1>");
    esc(&b, info->title);
    cd_buf_printf(&b, "</h1>\n<p>Problem type <code>/problems/%s</code>, HTTP status %d.</p>\n", info->slug,
                  info->status);
    cd_buf_str(&b, "<h2>What it means</h2>\n<p>");
    esc(&b, page->meaning);
    cd_buf_str(&b, "</p>\n<h2>What to do</h2>\n<p>");
    esc(&b, page->todo);
    cd_buf_str(&b, "</p>\n<p>Every error carcd answers is an RFC 9457 <code>application/problem+json</code> "
                   "document: its <code>detail</code> says what was wrong with this request and, where one input "
                   "is to blame, <code>field</code> names it. The API: <a href=\"/v1/openapi.json\">"
                   "/v1/openapi.json</a>.</p>\n</body>\n</html>\n");
    static const char *const headers[] = {
        "Cache-Control", "public, max-age=3600",
        "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                                   "form-action 'none'; frame-ancestors 'none'",
        NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", b.p, b.len, headers);
    free(b.p);
    return ret;
}
