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

#include "confirm_page.h"
#include "handlers.h"
#include "mail/open_seat.h"

static bool token_shape(const char *t)
{
    return strlen(t) == CD_TOKEN_LEN && strncmp(t, "st_", 3) == 0;
}

enum MHD_Result h_invite_stop_page(cd_req *r)
{
    cd_req_negotiate_problems(r);
    if (!token_shape(r->params[0]))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no invitation has that stop link (a link cut in two?)");
    return cd_reply_confirm_page(r, "No more invitations?",
                                 "Someone invited this address to a game of Carcassonne on this server. Press the "
                                 "button and the server will never mail an invitation to it again, whoever asks it "
                                 "to. A game you have already joined keeps its own mail, which each of its mails "
                                 "can stop.",
                                 "Never mail me an invitation again");
}

enum MHD_Result h_invite_stop(cd_req *r)
{
    /* a browser's form post gets a page; a mail program's one-click (RFC 8058) and other clients JSON */
    cd_req_negotiate_problems(r);
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
        return cd_reply_confirm_page(r, "No more invitations",
                                     "Done: this server will not mail an invitation to this address again.", NULL);
    return cd_reply_json(r, 200, json_pack("{s:b}", "stopped", 1), NULL);
}
