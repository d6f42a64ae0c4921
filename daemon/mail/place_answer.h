/*
 * place_answer.h — carcd's answer to a reply that tried to take an open place by mail (mailin/join_by_mail.h):
 * "you have joined" with the seat's private link while the game waits for others, or why the reply took no
 * seat. It goes only to the address the place's invitation was mailed to, which wrote to carcd: like the
 * invitation, it names no seat (the outbox row's seat is -1, kind "join-answer") and is sent at least once by
 * mail/send.c. It is threaded under the reply it answers (In-Reply-To).
 */
#ifndef CD_MAIL_PLACE_ANSWER_H
#define CD_MAIL_PLACE_ANSWER_H

#include "db/db.h"

typedef struct {
    const char *game_id;
    const char *email;          /* the invitee's address */
    const char *in_reply_to;    /* the reply's Message-ID, without brackets; NULL or "": none */
    const char *reply_tag;      /* the place's tag, so that a refused reply can be answered again; NULL: none */
    const char *subject;
    const char *text;           /* the body, plain text */
} cd_mail_place_answer;

/* Into the outbox, the sender woken at commit. CD_TX_COMMIT, or CD_TX_ERROR when a statement failed. */
cd_tx_result cd_mail_enqueue_place_answer(cd_db *db, const cd_mail_place_answer *a);

#endif
