/*
 * mail_unsubscribe.c — GET and POST /v1/mail/unsubscribe/{tag}: the unsubscribe link of every mail of a seat's.
 * POST is RFC 8058's one-click unsubscribe, which mail programs send from List-Unsubscribe (its body,
 * "List-Unsubscribe=One-Click", is not needed). GET is the same link opened in a browser, from the mail's text
 * or by a mail program without one-click (RFC 2369): a page whose one button posts it (confirm_page.h), since a
 * GET must change nothing. The tag is the seat's reply tag: only that seat's mail carries it. The seat's mail
 * stops (stopped_reason "unsubscribed"); PUT /v1/games/{id}/email starts it again. 200 {"unsubscribed": true}
 * (a page for a browser's form); 404 for a tag nobody has.
 */
#include <string.h>

#include "confirm_page.h"
#include "db/mail_seats.h"
#include "game/games.h"
#include "handlers.h"
#include "request.h"

enum MHD_Result h_mail_unsubscribe_page(cd_req *r)
{
    cd_req_negotiate_problems(r);
    if (strlen(r->params[0]) != CD_MAIL_TAG_LEN)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no seat gets mail with that tag (a link cut in two?)");
    return cd_reply_confirm_page(r, "Stop this game's mails?",
                                 "Press the button and this server stops mailing you about this game of "
                                 "Carcassonne: no more turn mails, reminders or the game's end. The game goes on; "
                                 "its page, where you can also start the mails again, is the link of your "
                                 "invitation.",
                                 "Stop this game's mails");
}

enum MHD_Result h_mail_unsubscribe(cd_req *r)
{
    /* a browser's form post gets a page; a mail program's one-click (RFC 8058) and other clients JSON */
    cd_req_negotiate_problems(r);
    const char *tag = r->params[0];
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char game_id[37];
    cd_mail_seat m;
    bool found = false;
    cd_mq q = strlen(tag) == CD_MAIL_TAG_LEN ? cd_mail_seat_by_tag(db, tag, &found, game_id, &m) : CD_MQ_OK;
    if (q != CD_MQ_OK)
        return cd_reply_db_failure(r, q == CD_MQ_DOWN, "the seat's mail could not be read");
    if (!found)   /* a tag is its stored value (mail/tag.h): a seat renumbered by a leave keeps its own */
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no seat gets mail with that tag");
    q = cd_mail_seat_stop(db, game_id, m.seat, m.email, "unsubscribed");
    if (q != CD_MQ_OK)
        return cd_reply_db_failure(r, q == CD_MQ_DOWN, "the unsubscribe could not be stored");
    if (r->html_problems)
        return cd_reply_confirm_page(r, "No more mails from this game",
                                     "Done: this server will not mail you about this game again.", NULL);
    return cd_reply_json(r, 200, json_pack("{s:b}", "unsubscribed", 1), NULL);
}
