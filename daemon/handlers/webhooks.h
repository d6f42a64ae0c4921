/*
 * webhooks.h — what the webhook handlers (handlers/webhooks.c) share with the other handlers: the 400 answer
 * for a webhook spec the client got wrong (webhooks/webhooks.h's cd_wh_error), used by POST
 * /v1/games/{id}/webhooks and by game creation (players[].webhook).
 */
#ifndef CD_HANDLERS_WEBHOOKS_H
#define CD_HANDLERS_WEBHOOKS_H

#include "http/http.h"
#include "webhooks/webhooks.h"

/* Answers err as the 400 problem (invalid-request) naming its field ("field" omitted when err names none). */
enum MHD_Result cd_reply_wh_error(cd_req *r, const cd_wh_error *err);

#endif
