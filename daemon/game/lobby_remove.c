/*
 * lobby_remove.c — see lobby_remove.h.
 */
#include "lobby_remove.h"

#include <assert.h>
#include <string.h>

#include "db/mail_seats.h"
#include "db/player_events.h"
#include "lobby_leave.h"
#include "mail/waiting.h"

cd_tx_result cd_lobby_remove(cd_db *db, const char *id, const cd_waiting_lock_row *w, const cd_invite *in,
                             const char *new_code_hash, cd_removal *out)
{
    assert(w->found && strcmp(w->status, "waiting") == 0 && in->seat >= 0 && in->old_seat < 0);
    memset(out, 0, sizeof *out);
    out->place = in->place;
    bool mailed = false;
    cd_mail_seat was;   /* its address, read before the seat's rows go */
    cd_waiting_seat who;
    if (cd_mail_seat_get(db, id, in->seat, &mailed, &was) != CD_MQ_OK ||
        cd_lobby_leave(db, id, w, in->seat, true, &who) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    memcpy(out->name, who.name, sizeof out->name);
    if (who.player_id[0] &&
        (!cd_player_event_emit(db, who.player_id, CD_PEV_SEAT_REMOVED, id, 0, in->seat) ||
         cd_seat_removal_add(db, id, who.player_id) != CD_Q_OK))
        return CD_TX_ERROR;
    /* a join from the lobby never saw the place's code (nor, onto a mailed place, its invitation): the creator's
     * link still opens it, and the leave gave a mailed place its invitee back */
    out->renewed = in->has_code && in->by_code != 0;
    if (out->renewed && cd_invite_renew(db, id, in->place, new_code_hash) != CD_Q_OK)
        return CD_TX_ERROR;
    if (mailed && !was.stopped)
        return cd_mail_enqueue_gone(db, id, &was, out->name, true);
    return CD_TX_COMMIT;
}
