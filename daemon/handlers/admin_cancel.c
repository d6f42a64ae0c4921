/*
 * admin_cancel.c — POST /v1/admin/games/{id}/cancel {"reason": "..."} (the body optional): the admin ends an
 * active game with no winner. In one transaction: the game row becomes `cancelled` (no seat waited for, its
 * turn clock's deadline and due time cleared, so reminders, timeouts and turn mail stop), the cancel is the
 * log's last entry (seat null, "by": "admin", "cancelled": true: long-polls and event streams wake with it),
 * game.finished goes to the game's webhooks with "reason": "cancelled", every seat with mail its game-over
 * mail saying the game was cancelled (and why), every linked player's stream gets a game_over entry with
 * status cancelled, and the audit log a row. Moves and every other change afterwards
 * are refused 409 (/problems/game-cancelled for a move). The seed stays secret: the game never finished.
 * A game that still waits for its seats is cancelled as its creator's POST /v1/games/{id}/cancel would
 * (no state, no log: seq 0), its seats' players and addresses told (game/lobby_cancel.h), the audit log
 * written.
 */
#include <stdio.h>
#include <string.h>

#include "base/json_out.h"
#include "db/admin_cancel.h"
#include "db/lobby.h"
#include "db/player_events.h"
#include "game/audit.h"
#include "game/lobby_cancel.h"
#include "handlers.h"
#include "mail/outbox.h"
#include "webhooks/outbox.h"

#define REASON_MAX 200

typedef struct {
    cd_req *r;
    const char *id;
    const char *reason;   /* NULL: none given */
    cd_problem problem;   /* CD_NPROBLEMS: none */
    const char *detail;
    int seq;              /* the cancel's entry */
} cancel_tx;

/* A game that waits for its seats (or was cancelled so: 409): status cancelled, as POST /v1/games/{id}/cancel
 * makes it (game/lobby_cancel.h), and the audit log written. */
static cd_tx_result cancel_waiting(cd_db *db, cancel_tx *t)
{
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out;
    if (!w.found || strcmp(w.status, "waiting") != 0) {
        t->problem = w.found ? CD_P_GAME_CANCELLED : CD_P_NOT_FOUND;
        t->detail = w.found ? "the game is cancelled already" : "no game with that id";
        out = CD_TX_ROLLBACK;
    } else {
        t->seq = 0;
        out = cd_lobby_cancel(db, t->id, &w, CD_CANCEL_BY_ADMIN, t->reason);
        if (out == CD_TX_COMMIT &&
            !cd_audit_write(t->r, db, NULL, t->id, json_pack("{s:i, s:s?}", "seq", 0, "reason", t->reason), NULL))
            out = CD_TX_ERROR;
    }
    cd_waiting_lock_row_free(&w);
    return out;
}

static cd_tx_result run_cancel(cd_db *db, void *arg)
{
    cancel_tx *t = arg;
    t->problem = CD_NPROBLEMS;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out = CD_TX_ERROR;
    if (lr == CD_LOAD_WAITING) {   /* no state yet: cancelled as its creator would (lobby.h) */
        out = cancel_waiting(db, t);
    } else if (lr != CD_LOAD_OK) {
        if (lr == CD_LOAD_NOT_FOUND) {
            t->problem = CD_P_NOT_FOUND;
            t->detail = "no game with that id";
            out = CD_TX_ROLLBACK;
        }
    } else if (g.cancelled) {
        t->problem = CD_P_GAME_CANCELLED;
        t->detail = "the game is cancelled already";
        out = CD_TX_ROLLBACK;
    } else if (g.finished) {
        t->problem = CD_P_GAME_OVER;
        t->detail = "the game is over: there is nothing to cancel";
        out = CD_TX_ROLLBACK;
    } else {
        t->seq = g.seq + 1;
        json_t *mv = json_pack("{s:s}", "kind", "cancel");
        if (t->reason)
            json_object_set_new(mv, "reason", json_string(t->reason));
        char *text = cd_json_dumps(mv, JSON_COMPACT);
        json_decref(mv);
        if (!text)
            abort();
        bool ok = cd_admin_cancel_deferred(db, t->id, g.seq, text) &&
                  cd_outbox_enqueue_cancel(db, t->id, t->seq, g.st, g.seed) == CD_TX_COMMIT &&
                  cd_mail_enqueue_cancel(db, t->id, t->seq, g.st, t->reason) == CD_TX_COMMIT &&
                  cd_player_events_for_seats_deferred(db, t->id, t->seq, -1, CD_PEV_GAME_OVER, "cancelled") &&
                  cd_audit_write(t->r, db, NULL, t->id,
                                 json_pack("{s:i, s:s?}", "seq", t->seq, "reason", t->reason), NULL);
        free(text);
        out = ok ? CD_TX_COMMIT : CD_TX_ERROR;
    }
    cd_game_free(&g);
    return out;
}

enum MHD_Result h_admin_cancel(cd_req *r)
{
    if (!r->is_admin)
        return cd_reply_problem(r, r->bearer ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs the admin token");
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return MHD_YES;
    static const char *const keys[] = {"reason", NULL};
    enum MHD_Result ret = MHD_YES;
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    json_t *reason = json_object_get(body, "reason");
    const char *why = json_string_value(reason);
    bool printable = why != NULL;
    for (const char *c = why; c && *c; c++)
        printable = printable && ((unsigned char)*c >= 0x20 && *c != 0x7f);
    if (reason && !json_is_null(reason) && (!why || !*why || strlen(why) > REASON_MAX || !printable)) {
        ret = cd_reply_problem(r, CD_P_INVALID, "reason", "reason: 1 to %d printable characters", REASON_MAX);
        goto out;
    }
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    char lower[37];
    for (int i = 0; i < 37; i++)
        lower[i] = (char)(id[i] >= 'A' && id[i] <= 'F' ? id[i] - 'A' + 'a' : id[i]);
    cancel_tx t = {.r = r, .id = lower, .reason = why && *why ? why : NULL};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_cancel, &t, &down);
    if (tr == CD_TX_COMMIT)
        ret = cd_reply_json(r, 200, json_pack("{s:s, s:s, s:i}", "id", lower, "status", "cancelled", "seq", t.seq),
                            NULL);
    else if (tr == CD_TX_ROLLBACK && t.problem != CD_NPROBLEMS)
        ret = cd_reply_problem(r, t.problem, NULL, "%s", t.detail);
    else
        ret = cd_reply_db_failure(r, down, "the cancel could not be stored");
out:
    json_decref(body);
    return ret;
}
