/*
 * mail_unsubscribe.c — POST /v1/mail/unsubscribe/{tag}: the one-click unsubscribe of RFC 8058 that every
 * mail names in List-Unsubscribe (its body, "List-Unsubscribe=One-Click", is not needed). The tag is the
 * seat's reply tag: only that seat's mail carries it. The seat's mail stops (stopped_reason "unsubscribed");
 * PUT /v1/games/{id}/email starts it again. 200 {"unsubscribed": true}; 404 for a tag nobody has.
 */
#include <string.h>

#include "db/mail_seats.h"
#include "game/games.h"
#include "handlers.h"
#include "request.h"

enum MHD_Result h_mail_unsubscribe(cd_req *r)
{
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
    return cd_reply_json(r, 200, json_pack("{s:b}", "unsubscribed", 1), NULL);
}
