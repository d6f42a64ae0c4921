/*
 * invites_get.c — GET /v1/games/{id}/invites with the creator token (or the admin's): the game's places as
 * only its creator may see them — which seat each became, the address carcd mailed its invitation to, and how
 * that mail fared (pending, sent, or failed with the mail server's words), so that a creator whose friend
 * never answers can tell a refused address from a slow friend and mail the link elsewhere. A game created with
 * every seat named has no places: 404.
 */
#include <string.h>
#include <strings.h>

#include "db/lobby.h"
#include "db/mail_outbox.h"
#include "handlers.h"
#include "handlers/lobby.h"

#define MAX_MAILS 32   /* places are at most 5; addresses mailed to them, the newest each, at most this many */

/* The newest mail to address among mails (addresses folded as mail systems fold them); NULL: none. */
static const cd_open_seat_mail *mail_to(const cd_open_seat_mail *mails, int n, const char *address)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(mails[i].rcpt, address) == 0)
            return &mails[i];
    return NULL;
}

static json_t *mail_json(const cd_open_seat_mail *m)
{
    json_t *o = json_pack("{s:s, s:i}", "state", m->state, "tries", m->tries);
    json_object_set_new(o, "error", m->error[0] && strcmp(m->state, "sent") != 0 ? json_string(m->error)
                                                                                   : json_null());
    json_object_set_new(o, "sent_at", m->sent_at[0] ? json_string(m->sent_at) : json_null());
    return o;
}

enum MHD_Result h_game_invites(cd_req *r)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char creator_hash[CD_HEX256_LEN];
    bool found = false;
    cd_q q = cd_waiting_creator(db, id, &found, creator_hash);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
    if (!found)
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with invitations with that id (a game created "
                                "with every seat named has none)");
    cd_refusal no;
    cd_refusal_clear(&no);
    if (cd_lobby_refuse_unless_creator(&no, r, true, creator_hash))
        return cd_reply_refusal_or_failure(r, &no, false, "");
    if (r->is_admin && !cd_audit(r, db, NULL, id, NULL))   /* the invitees' addresses: an admin read is recorded */
        return MHD_YES;
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    cd_open_seat_mail mails[MAX_MAILS];
    int ninv = 0, nmails = 0;
    if ((q = cd_invites_get(db, id, inv, &ninv)) != CD_Q_OK ||
        (q = cd_open_seat_mails(db, id, mails, MAX_MAILS, &nmails)) != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game's invitations could not be read");
    json_t *places = json_array();
    for (int i = 0; i < ninv; i++) {
        const cd_open_seat_mail *m = inv[i].email[0] ? mail_to(mails, nmails, inv[i].email) : NULL;
        json_array_append_new(places, json_pack("{s:i, s:o, s:o, s:o}", "place", inv[i].place, "seat",
                                                inv[i].seat >= 0 ? json_integer(inv[i].seat) : json_null(),
                                                "mailed_to", inv[i].email[0] ? json_string(inv[i].email) : json_null(),
                                                "mail", m ? mail_json(m) : json_null()));
    }
    static const char *const headers[] = {"Cache-Control", "private, no-store", NULL};
    return cd_reply_json(r, 200, json_pack("{s:s, s:o}", "game_id", id, "places", places), headers);
}
