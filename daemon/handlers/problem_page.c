/*
 * problem_page.c — GET /problems/{name}: the page a problem's "type" URI points to, saying what the problem
 * means and what to do (the texts are problem_pages.c, the page problem_html.c). Public, static for the life
 * of the binary.
 */
#include "base/buf.h"
#include "handlers.h"
#include "http/problem_html.h"
#include "http/problem_pages.h"

#include <stdlib.h>

enum MHD_Result h_problem_page(cd_req *r)
{
    int p = cd_problem_by_slug(r->params[0]);
    if (p < 0 || !cd_problem_pages[p].meaning)
        return cd_reply_problem(r, CD_P_NO_ROUTE, "name", "no problem type is called that");
    cd_buf b = {0};
    cd_problem_html(&b, (cd_problem)p, NULL);
    static const char *const headers[] = {
        "Cache-Control", "public, max-age=3600",
        "Content-Security-Policy", cd_problem_html_csp,
        NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", b.p, b.len, headers);
    free(b.p);
    return ret;
}
