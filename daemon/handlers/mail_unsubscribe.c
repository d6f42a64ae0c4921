/*
 * mail_unsubscribe.c — GET and POST /v1/mail/unsubscribe/{tag}: the unsubscribe link of every mail of a seat's.
 * POST is RFC 8058's one-click unsubscribe, which mail programs send from List-Unsubscribe (its body,
 * "List-Unsubscribe=One-Click", is not needed). GET is the same link opened in a browser, from the mail's text
 * or by a mail program without one-click (RFC 2369): a page whose one button posts it (confirm_page.h), since a
 * GET must change nothing. The {tag} is the seat's unsubscribe token (mail/tag.h: the game id and an HMAC over
 * the seat's reply tag), which only that seat's mail carries; the reply tag itself, which the links of mails
 * sent before the token carried, is taken too. The seat's mail stops (stopped_reason "unsubscribed"); PUT
 * /v1/games/{id}/email starts it again. 200 {"unsubscribed": true} (a page for a browser's form); 404 for a tag
 * nobody has.
 */
#include <string.h>

#include "confirm_page.h"
#include "db/mail_seats.h"
#include "game/games.h"
#include "handlers.h"
#include "mail/tag.h"
#include "request.h"

enum MHD_Result h_mail_unsubscribe_page(cd_req *r)
{
    cd_req_negotiate_problems(r);
    size_t len = strlen(r->params[0]);
    if (len != CD_MAIL_UNSUB_LEN && len != CD_MAIL_TAG_LEN)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no seat gets mail with that tag (a link cut in two?)");
    return cd_reply_confirm_page(r, "Stop this game's mails?",
                                 "Press the button and this server stops mailing you about this game of "
                                 "Carcassonne: no more turn mails, reminders or the game's end. The game goes on; "
                                 "its page, where you can also start the mails again, is the link of your "
                                 "invitation.",
                                 "Stop this game's mails");
}

/* The seat whose reply tag the unsubscribe token was made of: the reply tags of the token's game (six at most),
 * each one's token made and compared, then the seat found by the tag that matched. */
static cd_mq seat_by_token(cd_db *db, const char *token, bool *found, char game_id[37], cd_mail_seat *out)
{
    *found = false;
    if (strlen(token) != CD_MAIL_UNSUB_LEN || token[36] != '.')
        return CD_MQ_OK;
    snprintf(game_id, 37, "%.36s", token);
    if (!cd_uuid_valid(game_id))
        return CD_MQ_OK;
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    cd_mq q = cd_mail_seat_tags(db, game_id, seats, CARC_MAX_PLAYERS, &n);
    for (int i = 0; q == CD_MQ_OK && i < n; i++)
        if (cd_mail_unsub_token_ok(token, seats[i].tag))
            return cd_mail_seat_by_tag(db, seats[i].tag, found, game_id, out);
    return q;
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
    cd_mq q = strlen(tag) == CD_MAIL_TAG_LEN ? cd_mail_seat_by_tag(db, tag, &found, game_id, &m)
                                             : seat_by_token(db, tag, &found, game_id, &m);
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
