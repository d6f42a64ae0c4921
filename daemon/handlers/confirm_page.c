/*
 * confirm_page.c — see confirm_page.h.
 */
#include "confirm_page.h"

#include <stdlib.h>

#include "base/buf.h"
#include "handlers.h"

/* the form posts to this same address: the one thing beyond the problem pages' policy */
static const char confirm_csp[] = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                                  "form-action 'self'; frame-ancestors 'none'";

enum MHD_Result cd_reply_confirm_page(cd_req *r, const char *title, const char *text, const char *button)
{
    cd_buf b = {0};
    cd_buf_str(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
    cd_buf_html(&b, title);
    cd_buf_str(&b, " — carcd</title>\n<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;"
                   "padding:0 1em;line-height:1.5}button{font-size:1em;padding:.5em 1em}</style>\n</head>\n"
                   "<body>\n<h1>");
    cd_buf_html(&b, title);
    cd_buf_str(&b, "</h1>\n<p id=\"text\">");
    cd_buf_html(&b, text);
    cd_buf_str(&b, "</p>\n");
    if (button) {   /* no action: it posts to the page's own address */
        cd_buf_str(&b, "<form method=\"post\"><button type=\"submit\" id=\"confirm\">");
        cd_buf_html(&b, button);
        cd_buf_str(&b, "</button></form>\n");
    }
    cd_buf_str(&b, "</body>\n</html>\n");
    const char *headers[] = {"Cache-Control", "no-store", "Content-Security-Policy", confirm_csp, NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", b.p, b.len, headers);
    free(b.p);
    return ret;
}
