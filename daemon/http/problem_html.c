/*
 * problem_html.c — a problem as a page for people (see problem_html.h). The texts come from problem.c (title,
 * status) and problem_pages.c (meaning, what to do).
 */
#include "problem_html.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "problem_pages.h"

const char cd_problem_html_csp[] = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                                   "form-action 'none'; frame-ancestors 'none'";

void cd_problem_html(cd_buf *b, cd_problem p, const char *detail)
{
    const cd_problem_info *info = &cd_problems[p];
    const cd_problem_page *page = &cd_problem_pages[p];
    cd_buf_str(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    cd_buf_html(b, info->title);
    cd_buf_str(b, " — carcd</title>\n<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;"
                  "padding:0 1em;line-height:1.5}code{background:#eee;padding:0 .2em}"
                  ".detail{padding:.5em 1em;background:#fde8e4;border:1px solid #b5452f;border-radius:6px}</style>\n"
                  "</head>\n<body>\n<h1>");
    cd_buf_html(b, info->title);
    cd_buf_str(b, "</h1>\n");
    if (detail) {   /* a page answered in place of the problem: what went wrong, and its type's own page */
        cd_buf_str(b, "<p class=\"detail\" id=\"detail\">");
        cd_buf_html(b, detail);
        cd_buf_printf(b, "</p>\n<p>Problem type <a href=\"/problems/%s\"><code>/problems/%s</code></a>, HTTP status "
                         "%d.</p>\n", info->slug, info->slug, info->status);
    } else {
        cd_buf_printf(b, "<p>Problem type <code>/problems/%s</code>, HTTP status %d.</p>\n", info->slug, info->status);
    }
    if (page->meaning) {
        cd_buf_str(b, "<h2>What it means</h2>\n<p>");
        cd_buf_html(b, page->meaning);
        cd_buf_str(b, "</p>\n<h2>What to do</h2>\n<p>");
        cd_buf_html(b, page->todo);
        cd_buf_str(b, "</p>\n");
    }
    cd_buf_str(b, "<p>Every error carcd answers a program is an RFC 9457 <code>application/problem+json</code> "
                  "document: its <code>detail</code> says what was wrong with this request and, where one input "
                  "is to blame, <code>field</code> names it. The API: <a href=\"/v1/openapi.json\">"
                  "/v1/openapi.json</a>.</p>\n</body>\n</html>\n");
}

/* The q of the media range at s (after its type): 1 unless a ";q=" parameter says otherwise. */
static double q_of(const char *s, const char *end)
{
    for (const char *p = s; p < end; p++) {
        if (*p != ';')
            continue;
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=')
            return strtod(p + 2, NULL);
    }
    return 1.0;
}

bool cd_accept_prefers_html(const char *accept)
{
    if (!accept)
        return false;
    double html = 0, json = -1, any = 0;   /* json < 0: no JSON type named, so any type's q stands for it */
    for (const char *s = accept; *s;) {
        const char *end = strchr(s, ',');
        if (!end)
            end = s + strlen(s);
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
        size_t n = 0;
        while (s + n < end && s[n] != ';' && s[n] != ' ' && s[n] != '\t')
            n++;
        double q = q_of(s + n, end);
        if (n == 9 && strncasecmp(s, "text/html", 9) == 0)
            html = q;
        else if ((n == 16 && strncasecmp(s, "application/json", 16) == 0) ||
                 (n == 24 && strncasecmp(s, "application/problem+json", 24) == 0)) {
            if (q > json)
                json = q;
        } else if (n == 3 && strncmp(s, "*/*", 3) == 0)
            any = q;
        s = *end ? end + 1 : end;
    }
    if (json < 0)
        json = any;
    return html > 0 && html > json;
}
