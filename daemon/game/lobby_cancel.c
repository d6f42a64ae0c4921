/*
 * lobby_cancel.c — see lobby_cancel.h.
 */
#include "lobby_cancel.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "db/player_events.h"
#include "mail/waiting.h"
#include "webhooks/outbox.h"

const char *cd_lobby_cancelled_words(const char *cancelled_by)
{
    if (!cancelled_by)
        return "was cancelled";
    if (strcmp(cancelled_by, "expiry") == 0)
        return "was cancelled: nobody joined it in time";
    return strcmp(cancelled_by, "admin") == 0 ? "was cancelled by the server's admin" : "was cancelled by its creator";
}

void cd_lobby_not_waiting_words(const cd_waiting_lock_row *w, char *out, size_t n)
{
    snprintf(out, n, "the game %s",
             strcmp(w->status, "cancelled") == 0 ? cd_lobby_cancelled_words(w->cancelled_by) : "has started");
}

cd_tx_result cd_lobby_cancel(cd_db *db, const char *id, const cd_waiting_lock_row *w, cd_cancel_by by,
                             const char *reason)
{
    assert(w->found && strcmp(w->status, "waiting") == 0);
    if (cd_game_cancel_store(db, id, by) != CD_Q_OK ||
        !cd_player_events_for_seats_deferred(db, id, 0, -1, CD_PEV_GAME_OVER, "cancelled"))
        return CD_TX_ERROR;
    if (cd_outbox_enqueue_waiting_cancel(db, id, w->seed, by) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    return cd_mail_enqueue_waiting_cancelled(db, id, w->taken, w->nseats, by, reason);
}
