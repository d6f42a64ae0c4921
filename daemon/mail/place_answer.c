/*
 * place_answer.c — carcd's answer to a reply for an open place (place_answer.h).
 */
#include "place_answer.h"

#include "build.h"
#include "compose.h"
#include "db/mail_outbox.h"
#include "mail.h"
#include "outbox.h"
#include "tag.h"

#define PLACE_ANSWER_KIND "join-answer"

cd_tx_result cd_mail_enqueue_place_answer(cd_db *db, const cd_mail_place_answer *a)
{
    const cd_mail_settings *S = cd_mail_settings_get();
    char msg_id[300], reply_to[400] = "";
    cd_mail_msg_id(a->game_id, -1, PLACE_ANSWER_KIND, 0, msg_id, sizeof msg_id);
    if (a->reply_tag)
        cd_mail_reply_address(a->reply_tag, reply_to, sizeof reply_to);
    const cd_mail_parts parts = {
        .from = S->cfg ? S->cfg->mail_from : "carcd@localhost",
        .to = a->email,
        .reply_to = reply_to,
        .subject = a->subject,
        .msg_id = msg_id,
        .thread_id = a->in_reply_to && a->in_reply_to[0] ? a->in_reply_to : NULL,
        .text = a->text,
    };
    bool ok = cd_mail_outbox_add_parts(db, a->game_id, -1, PLACE_ANSWER_KIND, 0, &parts) &&
              cd_mail_outbox_notify(db);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}
