/*
 * invite_stop.c — GET and POST /v1/mail/invitations/stop/{token}: the stop link of every invitation carcd
 * mails to a person with no seat (mail/open_seat.h). POST is RFC 8058's one-click unsubscribe, which mail
 * programs send from the List-Unsubscribe header: the link's address gets no invitation from this server
 * again (a creation or POST .../invites/mail naming it is refused, 400). GET is the same link opened in a
 * browser from the mail's text: a page with one button that posts it, since a GET must change nothing (mail
 * scanners follow links). The token is random and stored hashed; nothing here shows the address.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "handlers.h"
#include "http/problem_html.h"
#include "mail/open_seat.h"

/* the form posts to this same address: the one thing beyond the problem pages' policy */
static const char stop_csp[] = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'";

static enum MHD_Result reply_page(cd_req *r, const char *title, const char *text, bool form)
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
    if (form)   /* no action: it posts to the page's own address */
        cd_buf_str(&b, "<form method=\"post\"><button type=\"submit\" id=\"stop\">Never mail me an invitation "
                       "again</button></form>\n");
    cd_buf_str(&b, "</body>\n</html>\n");
    const char *headers[] = {"Cache-Control", "no-store", "Content-Security-Policy", stop_csp, NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", b.p, b.len, headers);
    free(b.p);
    return ret;
}

static bool token_shape(const char *t)
{
    return strlen(t) == CD_TOKEN_LEN && strncmp(t, "st_", 3) == 0;
}

enum MHD_Result h_invite_stop_page(cd_req *r)
{
    r->html_problems = cd_accept_prefers_html(cd_req_header(r, MHD_HTTP_HEADER_ACCEPT));
    if (!token_shape(r->params[0]))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no invitation has that stop link (a link cut in two?)");
    return reply_page(r, "No more invitations?",
                      "Someone invited this address to a game of Carcassonne on this server. Press the button and "
                      "the server will never mail an invitation to it again, whoever asks it to. A game you have "
                      "already joined keeps its own mail, which each of its mails can stop.",
                      true);
}

enum MHD_Result h_invite_stop(cd_req *r)
{
    /* a browser's form post gets a page; a mail program's one-click (RFC 8058) and other clients JSON */
    r->html_problems = cd_accept_prefers_html(cd_req_header(r, MHD_HTTP_HEADER_ACCEPT));
    const char *token = r->params[0];
    if (!token_shape(token))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no invitation has that stop link (a link cut in two?)");
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    bool found = false;
    cd_q q = cd_mail_invite_stop(db, token, &found);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the stop could not be stored");
    if (!found)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no invitation has that stop link");
    if (r->html_problems)
        return reply_page(r, "No more invitations",
                          "Done: this server will not mail an invitation to this address again.", false);
    return cd_reply_json(r, 200, json_pack("{s:b}", "stopped", 1), NULL);
}
