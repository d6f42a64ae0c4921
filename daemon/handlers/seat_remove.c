/*
 * seat_remove.c — POST /v1/games/{id}/seats/{seat}/remove with the creator token (or the admin's): the seat,
 * taken by a join, is removed before the game starts (game/lobby_remove.h). The seats taken after it move down by
 * one; their tokens stay theirs. The answer is the game's lobby view without the seat, with "removed" (the seat
 * and its name) and, when the place opens to a new invite code, "invite" (the code and its URLs, as the creation
 * answered them): the only place that code is shown (a place a stranger took from the lobby keeps its code: the
 * creator's link for it still works). A seat named at the creation, or kept by a rematch for a
 * player of the finished game, is not removed (409 named-seat: cancel instead); nor is one of a game under way
 * (409 not-waiting).
 *
 * Seat numbers move under a client that read them: a seat given up before this one moves it down by one. The
 * body may say which player the client means by the place they took ({"place": i}, the view's places[i]);
 * a seat that is no longer place i's is not removed (409 seat-changed), where without it the player who
 * moved into the number would be.
 */
#include <stdio.h>
#include <string.h>

#include "base/crypto.h"
#include "game/lobby_cancel.h"
#include "game/lobby_remove.h"
#include "handlers.h"
#include "handlers/lobby.h"

typedef struct {
    cd_req *req;
    const char *id;
    int seat;
    int place;   /* -1: the body named no place */
    const char *code_hash;
    cd_removal out;   /* out */
    cd_refusal no;    /* out */
} remove_tx;

static cd_tx_result remove_locked(cd_db *db, remove_tx *t, const cd_waiting_lock_row *w)
{
    if (cd_lobby_refuse_unless_creator(&t->no, t->req, w->found, w->creator_hash))
        return CD_TX_ROLLBACK;
    char why[200];
    if (strcmp(w->status, "waiting") != 0) {
        cd_lobby_not_waiting_words(w, why, sizeof why);
        return cd_refuse(&t->no, CD_P_NOT_WAITING, NULL, why);
    }
    if (t->seat >= w->taken) {
        snprintf(why, sizeof why, "seat %d: the game has %d seat%s taken", t->seat, w->taken, w->taken == 1 ? "" : "s");
        return cd_refuse(&t->no, CD_P_NOT_FOUND, "seat", why);
    }
    cd_invite inv[CD_LOBBY_MAX_SEATS];   /* a seat a join took has a place; a named one has none */
    int ninv = 0;
    if (cd_invites_get(db, t->id, inv, &ninv) != CD_Q_OK)
        return CD_TX_ERROR;
    const cd_invite *in = NULL;
    for (int i = 0; i < ninv; i++)
        if (inv[i].seat == t->seat)
            in = &inv[i];
    if (t->place >= 0 && (!in || in->place != t->place)) {
        if (in)
            snprintf(why, sizeof why, "place: seat %d is now the player of place %d, not of place %d", t->seat,
                     in->place, t->place);
        else
            snprintf(why, sizeof why, "place: seat %d is now a seat named at the creation, not the player of place %d",
                     t->seat, t->place);
        return cd_refuse(&t->no, CD_P_SEAT_CHANGED, "place", why);
    }
    if (!in || in->old_seat >= 0) {
        snprintf(why, sizeof why,
                 !in ? "seat %d was named when the game was created, not taken by a join: cancel the game and create "
                       "it again to change who plays"
                     : "seat %d is a player of the finished game, who accepted the rematch: cancel the rematch "
                       "instead",
                 t->seat);
        return cd_refuse(&t->no, CD_P_NAMED_SEAT, "seat", why);
    }
    return cd_lobby_remove(db, t->id, w, in, t->code_hash, &t->out);
}

static cd_tx_result run_remove(cd_db *db, void *arg)
{
    remove_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = remove_locked(db, t, &w);
    cd_waiting_lock_row_free(&w);
    return out;
}

/* The body's optional "place": the place the client means the seat's player by; -1 when absent. False after
 * a 400 naming it. */
static bool body_place(cd_req *r, int *place)
{
    json_t *body = cd_req_json_body_optional(r);
    if (!body)
        return false;
    static const char *const keys[] = {"place", NULL};
    bool ok = cd_req_only_keys(r, body, keys, "");
    json_t *p = json_object_get(body, "place");
    *place = -1;
    if (ok && p && !json_is_null(p)) {
        json_int_t v = json_integer_value(p);
        if (!json_is_integer(p) || v < 0 || v >= CD_LOBBY_MAX_SEATS) {
            cd_reply_problem(r, CD_P_INVALID, "place", "place: expected a place of the game, 0 to %d",
                             CD_LOBBY_MAX_SEATS - 1);
            ok = false;
        } else {
            *place = (int)v;
        }
    }
    json_decref(body);
    return ok;
}

enum MHD_Result h_seat_remove(cd_req *r)
{
    int place;
    if (!body_place(r, &place))
        return MHD_YES;
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    int seat = cd_req_seat_param(r, 1);
    if (seat < 0)
        return MHD_YES;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char code[47], code_hash[CD_HEX256_LEN];
    cd_lobby_secret("iv_", code);   /* used only when the place's code went with the removed person */
    cd_sha256_hex(code, code_hash);
    remove_tx t = {.req = r, .id = id, .seat = seat, .place = place, .code_hash = code_hash};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_remove, &t, &down);
    if (tr != CD_TX_COMMIT)
        return cd_reply_refusal_or_failure(r, &t.no, down, "the seat could not be removed");
    json_t *own = json_pack("{s:{s:i, s:s}}", "removed", "seat", t.seat, "player", t.out.name);
    if (t.out.renewed) {
        char url[600], page[600];
        cd_lobby_join_url(r->cfg->public_url, id, code, url, sizeof url);
        cd_lobby_invite_page_url(r->cfg->public_url, id, code, page, sizeof page);
        json_object_set_new(own, "invite", json_pack("{s:i, s:s, s:s, s:s}", "place", t.out.place, "invite", code,
                                                     "join_url", url, "page_url", page));
    }
    return cd_lobby_reply_view(r, db, id, own);
}
