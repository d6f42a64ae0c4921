/*
 * lobby_leave.c — see lobby_leave.h.
 */
#include "lobby_leave.h"

#include <assert.h>
#include <string.h>

#include "db/player_events.h"
#include "mail/waiting.h"
#include "webhooks/outbox.h"

cd_tx_result cd_lobby_leave(cd_db *db, const char *id, const cd_waiting_lock_row *w, int seat, bool removed,
                            cd_waiting_seat *who)
{
    assert(w->found && strcmp(w->status, "waiting") == 0 && seat >= 0 && seat < w->taken);
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    int n = 0;
    if (cd_waiting_seats(db, id, seats, &n) != CD_Q_OK)   /* the name, before its row goes */
        return CD_TX_ERROR;
    cd_waiting_seat gone = {.seat = seat};
    for (int i = 0; i < n; i++)
        if (seats[i].seat == seat)
            gone = seats[i];
    if (who)
        *who = gone;
    const char *name = gone.name;
    int taken = w->taken - 1;
    if (cd_seat_leave(db, id, seat, removed) != CD_Q_OK ||
        !cd_player_events_for_seats_deferred(db, id, 0, -1, CD_PEV_PLAYER_LEFT, NULL) ||
        cd_outbox_enqueue_left(db, id, seat, name, removed, taken, w->nseats) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    return cd_mail_enqueue_left(db, id, name, taken, w->nseats, removed);
}
