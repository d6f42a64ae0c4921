/*
 * admin_message_hide.c — POST /v1/admin/games/{id}/messages/{mid}/hide: the admin hides a message, with an
 * optional {"reason": "..."} (up to 500 characters). From then on no seat and no spectator reads it (GET
 * .../messages, the events streams, the turn mails); the admin still does, marked "hidden": true. The action
 * and its reason are written to the audit log in the same transaction as the hide, so nothing is hidden
 * unrecorded. 200 {"id", "seat", "hidden": true, "already": bool}; hiding a hidden message again is no error.
 * Webhooks already sent are not taken back.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "handlers.h"
#include "db/messages.h"
#include "base/timesrc.h"

typedef struct {
    cd_req *r;
    const char *id;
    long long mid;
    const char *reason;
    bool found, already;
    int seat;
} hide_tx;

static cd_tx_result run_hide(cd_db *db, void *arg)
{
    hide_tx *t = arg;
    if (cd_msg_hide(db, t->id, t->mid, cd_wall_now(), &t->found, &t->seat, &t->already) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!t->found)
        return CD_TX_ROLLBACK;
    json_t *detail = json_pack("{s:I, s:i, s:b}", "message", (json_int_t)t->mid, "seat", t->seat, "already",
                               t->already);
    if (t->reason)
        json_object_set_new(detail, "reason", json_string(t->reason));
    return cd_audit_write(t->r, db, NULL, t->id, detail, NULL) ? CD_TX_COMMIT : CD_TX_ERROR;
}

enum MHD_Result h_admin_message_hide(cd_req *r)
{
    if (!r->is_admin)
        return cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs the admin token");
    const char *raw_id = r->params[0];
    if (!cd_uuid_valid(raw_id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = raw_id;
    char id[37];
    for (int i = 0; i < 37; i++)
        id[i] = (char)tolower((unsigned char)raw_id[i]);
    const char *m = r->params[1];
    char *end;
    errno = 0;
    long long mid = isdigit((unsigned char)m[0]) ? strtoll(m, &end, 10) : -1;
    if (mid <= 0 || errno || *end)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no message with that id");
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return MHD_YES;
    static const char *const keys[] = {"reason", NULL};
    if (!cd_req_only_keys(r, body, keys, "")) {
        json_decref(body);
        return MHD_YES;
    }
    json_t *reason = json_object_get(body, "reason");
    if (reason && (!json_is_string(reason) || json_string_length(reason) > 500)) {
        json_decref(body);
        return cd_reply_problem(r, CD_P_INVALID, "reason", "reason: expected a string of at most 500 bytes");
    }
    cd_db *db = cd_req_db(r);
    if (!db) {
        json_decref(body);
        return MHD_YES;
    }
    hide_tx t = {.r = r, .id = id, .mid = mid, .reason = reason ? json_string_value(reason) : NULL};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_hide, &t, &down);
    json_decref(body);
    if (tr == CD_TX_ROLLBACK)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "the game has no message %lld", mid);
    if (tr != CD_TX_COMMIT)
        return cd_reply_db_failure(r, down, "the message could not be hidden");
    return cd_reply_json(r, 200,
                         json_pack("{s:I, s:i, s:b, s:b}", "id", (json_int_t)mid, "seat", t.seat, "hidden", 1,
                                   "already", t.already),
                         NULL);
}
