/*
 * webhooks.h — what the webhook handlers (handlers/webhooks.c) share with the other handlers: the 400 answer
 * for a webhook spec the client got wrong (webhooks/webhooks.h's cd_wh_error), used by POST
 * /v1/games/{id}/webhooks and by game creation (players[].webhook); and the caller check and endpoint
 * loading of every /v1/games/{id}/webhooks/... route (handlers/webhooks.c, handlers/webhook_deliveries.c).
 * They answer HTTP, so they live here, above webhooks/, which does not.
 */
#ifndef CD_HANDLERS_WEBHOOKS_H
#define CD_HANDLERS_WEBHOOKS_H

#include <jansson.h>
#include <stdbool.h>

#include "db/db.h"
#include "http/http.h"
#include "webhooks/webhooks.h"

/* Answers err as the 400 problem (invalid-request) naming its field ("field" omitted when err names none). */
enum MHD_Result cd_reply_wh_error(cd_req *r, const cd_wh_error *err);

typedef struct {
    char id[37];
    int seat;          /* -1: the whole game */
    bool disabled;
    json_t *json;      /* owned: the endpoint as answered (never its secret) */
} cd_wh_endpoint;

/* Validates the game id of the path and resolves the bearer: an admin (CARC_VIEW_ADMIN) or a seat of this
 * game (>= 0). Anyone else — no token, an unknown one, another game's — is answered (401, 403, 404 for a
 * malformed id, 503) here and false returned. *db gets the request's connection. */
bool cd_wh_caller(cd_req *r, const char *game_id, cd_db **db, int *viewer);
/* Endpoint `wid` of the game when `viewer` owns it (an admin owns every endpoint, a seat its own); else
 * answers 404 (also for another seat's endpoint), 503 or 500 and returns false. Free out->json. */
bool cd_wh_endpoint_load(cd_req *r, cd_db *db, const char *game_id, const char *wid, int viewer,
                         cd_wh_endpoint *out);

/* An admin's read or change of a game's webhooks is audited (audit.h) before it is answered: the answers show
 * the seats' private URLs. Writes the row when `viewer` is the admin (detail: object, stolen, may be NULL;
 * `webhook` names endpoint wid unless NULL); true when written or not needed, else it has replied. */
bool cd_wh_audit(cd_req *r, cd_db *db, int viewer, const char *game_id, const char *wid, json_t *detail);

#endif
