/*
 * invite_mail.c — POST /v1/games/{id}/invites/mail {"invite": "iv_...", "email": "bob@example.org"} with the
 * creator token (or the admin's): carcd mails that open place's page link to the address (mail/open_seat.h),
 * as a creation's {"invite": true, "email": ...} does, for an invitation the creator decides to send later.
 * carcd keeps only the codes' hashes, so the creator names the invitation by its code (which it holds: the
 * creation answered it) and carcd finds the place by comparing hashes in constant time.
 *
 * The place must still be open (409 no-open-seat). Mailed again, to another address or the same, the newest
 * address is the one the seat gets once joined; each call is one more mail. Refused (400 email) where the mail
 * could not go out or its link would not work; each call takes a token of CARCD_RATE_INVITE_MAILS. 202: the
 * mail is written in this transaction and delivered at least once, as all of carcd's mail.
 */
#include <stdio.h>
#include <string.h>

#include "db/lobby.h"
#include "handlers.h"
#include "game/lobby_cancel.h"
#include "handlers/lobby.h"
#include "http/limits.h"
#include "mail/open_seat.h"
#include "mail/seat_mail.h"

typedef struct {
    cd_req *req;
    const char *id, *code, *email;
    char code_hash[CD_HEX256_LEN];
    /* out */
    cd_refusal no;
    int place;
} invite_mail_tx;

static cd_tx_result run_invite_mail(cd_db *db, void *arg)
{
    invite_mail_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = CD_TX_ERROR;
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    int ninv = 0, nseats = 0;
    json_t *settings = NULL, *names = NULL;
    if (cd_lobby_refuse_unless_creator(&t->no, t->req, w.found, w.creator_hash)) {
        out = CD_TX_ROLLBACK;
        goto done;
    }
    if (strcmp(w.status, "waiting") != 0) {
        char why[100];
        cd_lobby_not_waiting_words(&w, why, sizeof why);
        out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, NULL, why);
        goto done;
    }
    if (cd_invites_get(db, t->id, inv, &ninv) != CD_Q_OK || cd_waiting_seats(db, t->id, seats, &nseats) != CD_Q_OK)
        goto done;
    t->place = cd_lobby_place_of_code(inv, ninv, t->code_hash);
    if (t->place < 0) {
        out = cd_refuse(&t->no, CD_P_INVALID, "invite", "invite: not an invite code of this game");
        goto done;
    }
    if (inv[t->place].seat >= 0) {
        out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, "invite", "invite: this invitation's seat is taken already");
        goto done;
    }
    bool opted_out = false;
    if (cd_mail_invite_opted_out(db, t->email, &opted_out) != CD_Q_OK)
        goto done;
    if (opted_out) {
        out = cd_refuse(&t->no, CD_P_INVALID, "email", "email: " CD_MAIL_OPTED_OUT_WORDS);
        goto done;
    }
    if (cd_invite_email_set(db, t->id, inv[t->place].place, t->email) != CD_Q_OK)
        goto done;
    settings = json_loads(w.settings, 0, NULL);
    names = json_array();
    const char *inviter = NULL;   /* the first person seated, as a creation's mail says (not a bot) */
    for (int i = 0; i < nseats; i++) {
        json_array_append_new(names, json_string(seats[i].name));
        if (!inviter && !seats[i].bot[0])
            inviter = seats[i].name;
    }
    char page[700];
    cd_lobby_invite_page_url(t->req->cfg->public_url, t->id, t->code, page, sizeof page);
    const cd_mail_open_seat m = {.game_id = t->id, .place = inv[t->place].place, .email = t->email,
                                 .inviter = inviter, .names = names, .nseats = w.nseats, .settings = settings,
                                 .page_url = page};
    out = cd_mail_enqueue_open_seat(db, &m);
done:
    json_decref(settings);
    json_decref(names);
    cd_waiting_lock_row_free(&w);
    return out;
}

static enum MHD_Result invite_mail(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    enum MHD_Result ret = MHD_YES;
    static const char *const keys[] = {"invite", "email", NULL};
    invite_mail_tx t = {.req = r, .id = r->params[0]};
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    if (!cd_uuid_valid(t.id)) {
        ret = cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        goto out;
    }
    r->game_id = t.id;
    json_t *code = json_object_get(body, "invite"), *email = json_object_get(body, "email");
    if (!json_is_string(code) || strncmp(json_string_value(code), "iv_", 3) != 0) {
        ret = cd_reply_problem(r, CD_P_INVALID, "invite", "invite: expected the invitation's code (iv_...)");
        goto out;
    }
    if (!json_is_string(email) || !cd_mail_address_ok(json_string_value(email))) {
        ret = cd_reply_problem(r, CD_P_INVALID, "email", "email: expected a mail address like bob@example.org");
        goto out;
    }
    const char *missing = cd_lobby_mail_missing(r);
    if (missing) {
        ret = cd_reply_problem(r, CD_P_INVALID, "email", "email: this server mails no invitations (it has no %s); "
                               "send the invitation's page_url yourself", missing);
        goto out;
    }
    if (!cd_rate_check(r, CD_RATE_INVITE_MAIL, r->bearer))
        goto out;
    t.code = json_string_value(code);
    t.email = json_string_value(email);
    cd_sha256_hex(t.code, t.code_hash);
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_invite_mail, &t, &down);
    if (tr == CD_TX_COMMIT)
        ret = cd_reply_json(r, 202, json_pack("{s:i, s:s}", "place", t.place, "mailed_to", t.email), NULL);
    else
        ret = cd_reply_refusal_or_failure(r, &t.no, down, "the invitation could not be mailed");
out:
    json_decref(body);
    return ret;
}

enum MHD_Result h_game_invite_mail(cd_req *r)
{
    return cd_in_json_arena(r, invite_mail);
}
