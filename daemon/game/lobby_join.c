/*
 * lobby_join.c — see lobby_join.h.
 */
#include "lobby_join.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/crypto.h"
#include "base/timesrc.h"
#include "db/games_table.h"
#include "db/player_events.h"
#include "lobby_cancel.h"
#include "lobby_start.h"
#include "mail/seat_mail.h"
#include "mail/waiting.h"
#include "webhooks/outbox.h"

int cd_lobby_place_of_code(const cd_invite *inv, int n, const char *code_hash)
{
    int found = -1;
    for (int i = 0; i < n; i++) {   /* every place compared, no early exit: the time says nothing of which */
        bool eq = inv[i].has_code && cd_secret_equal(inv[i].code_hash, code_hash, CD_HEX256_LEN - 1);
        if (eq)
            found = i;
    }
    return found;
}

static cd_tx_result refuse(cd_join *j, cd_join_refusal why, const char *fmt, ...)
{
    j->why = why;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->detail, sizeof j->detail, fmt, ap);
    va_end(ap);
    return CD_TX_ROLLBACK;
}

/* The place j asks for among inv (read under the lock), or -1 with the refusal in j. */
static int place_of(cd_join *j, const cd_waiting_lock_row *w, const cd_invite *inv, int ninv)
{
    int place = -1;
    if (j->place >= 0) {   /* a reply to the invitation carcd mailed for that place */
        for (int i = 0; i < ninv; i++)
            if (inv[i].place == j->place)
                place = i;
        if (place < 0 || !inv[place].email[0] || strcasecmp(inv[place].email, j->from) != 0) {
            refuse(j, CD_JOIN_NOT_INVITEE, "the invitation was mailed to another address than %s", j->from);
            return -1;
        }
    } else if (j->code_hash) {
        place = cd_lobby_place_of_code(inv, ninv, j->code_hash);
        if (place < 0) {
            refuse(j, CD_JOIN_BAD_CODE, "invite: not an invite code of this game");
            return -1;
        }
    } else {
        if (!w->public_) {
            refuse(j, CD_JOIN_NOT_PUBLIC, "invite: the game is not in the lobby; joining it needs an invite code");
            return -1;
        }
        if (!j->key_hash) {
            refuse(j, CD_JOIN_NEEDS_KEY,
                   "joining from the lobby needs a player key (player_key, or Authorization: Bearer pk_...)");
            return -1;
        }
        /* the first open place that a code could open, one whose invitation carcd did not mail first: that
         * one waits for its invitee while another is open */
        for (int pass = 0; pass < 2 && place < 0; pass++)
            for (int i = 0; i < ninv && place < 0; i++)
                if (inv[i].seat < 0 && inv[i].old_seat < 0 && (pass == 1 || !inv[i].email[0]))
                    place = i;
        if (place < 0)
            refuse(j, CD_JOIN_FULL, "the game has no open seat left");
        return place;
    }
    if (inv[place].seat >= 0) {
        refuse(j, CD_JOIN_PLACE_TAKEN, "invite: this invitation's seat is taken already%s",
               inv[place].displaced[0] ? ", by a player from the lobby (the game is public, and its last open seats "
                                         "were the ones carcd had mailed invitations for)"
                                       : "");
        return -1;
    }
    return place;
}

static cd_tx_result join_locked(cd_db *db, cd_join *j, const cd_waiting_lock_row *w)
{
    if (!w->found)
        return refuse(j, CD_JOIN_NO_GAME, "no game with that id");
    if (strcmp(w->status, "cancelled") == 0)
        return refuse(j, CD_JOIN_NOT_WAITING, "the game has no open seat: it %s",
                      cd_lobby_cancelled_words(w->cancelled_by));
    if (strcmp(w->status, "waiting") != 0)
        return refuse(j, CD_JOIN_NOT_WAITING, "the game has no open seat: it is %s",
                      strcmp(w->status, "active") == 0 ? "under way (every seat was taken, or it was started)"
                                                       : w->status);
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    int ninv = 0, nseats = 0;
    cd_key_seats ks = {0};
    /* read after the lock: what earlier joins committed */
    if (cd_invites_get(db, j->id, inv, &ninv) != CD_Q_OK || cd_waiting_seats(db, j->id, seats, &nseats) != CD_Q_OK ||
        (j->key_hash && cd_key_seats_get(db, j->key_hash, j->id, -1, &ks) != CD_Q_OK))
        return CD_TX_ERROR;
    if (j->key_hash && !ks.key_known)
        return refuse(j, CD_JOIN_UNKNOWN_KEY, "player_key: no player has this key");
    if (j->key_hash && ks.n > 0)
        return refuse(j, CD_JOIN_ALREADY_SEATED, "this player key already holds a seat of this game");
    if (j->key_hash && !j->code_hash && j->place < 0) {   /* the lobby: not to a player its creator removed */
        bool removed = false;
        if (cd_key_removed(db, j->id, j->key_hash, &removed) != CD_Q_OK)
            return CD_TX_ERROR;
        if (removed)
            return refuse(j, CD_JOIN_REMOVED,
                          "player_key: the game's creator removed this player from the game; only a new invite code "
                          "from them lets you in again");
    }
    int place = place_of(j, w, inv, ninv);
    if (place < 0)
        return CD_TX_ROLLBACK;
    int open = 0;
    for (int i = 0; i < ninv; i++)
        open += inv[i].seat < 0;
    j->seat = nseats;
    bool key_known = true;
    /* a lobby join into a mailed place: the address is the invitee's, not this seat's (the start mails the
     * places' addresses, lobby_start.h) */
    bool invited = j->code_hash || j->place >= 0;
    bool drop_email = !invited && inv[place].email[0];
    if (cd_seat_insert(db, j->id, j->seat, j->name, j->token_hash, j->key_hash, &key_known) != CD_Q_OK ||
        cd_invite_take(db, j->id, inv[place].place, j->seat, invited) != CD_Q_OK ||
        (drop_email && cd_invite_displace(db, j->id, inv[place].place) != CD_Q_OK))
        return CD_TX_ERROR;
    if (invited && inv[place].email[0]) {   /* the address goes with the code mailed there, never to a lobby join */
        memcpy(j->email, inv[place].email, sizeof j->email);
        if (cd_mail_seat_hold(db, j->id, j->seat, j->email) != CD_TX_COMMIT)
            return CD_TX_ERROR;
    }
    if (open > 1)   /* the game waits on: the others hear who came (the start says so itself) */
        return cd_lobby_joined(db, j->id, j->seat, nseats + 1, nseats + open);
    /* the last open seat: the game starts */
    cd_tx_result out = cd_lobby_start(db, j->id, w, j->place >= 0 ? j->seat : -1, j->place >= 0 ? j->token : NULL,
                                      j->detail, sizeof j->detail);
    if (out == CD_TX_ROLLBACK)   /* the engine refused the set-up carcd stored: a bug, said as one */
        j->why = CD_JOIN_SETUP_REFUSED;
    j->started = out == CD_TX_COMMIT;
    return out;
}

cd_tx_result cd_lobby_joined(cd_db *db, const char *id, int seat, int taken, int total)
{
    if (cd_waiting_count_anew(db, id, cd_wall_now(), NULL) != CD_Q_OK ||   /* its expiry counts from now */
        !cd_player_events_for_others_deferred(db, id, 0, seat, CD_PEV_PLAYER_JOINED) ||
        cd_outbox_enqueue_joined(db, id, seat, taken, total) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    return cd_mail_enqueue_joined(db, id, seat, taken, total);
}

cd_tx_result cd_lobby_join(cd_db *db, cd_join *j)
{
    j->why = CD_JOIN_OK;
    j->detail[0] = 0;
    j->started = false;
    j->email[0] = 0;
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, j->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = join_locked(db, j, &w);
    cd_waiting_lock_row_free(&w);
    return out;
}
