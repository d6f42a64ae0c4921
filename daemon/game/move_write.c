/*
 * move_write.c — an applied move written inside the caller's transaction (move_write.h): three deferred
 * statements (ST_MOVE_INSERT, ST_GAME_UPDATE, ST_NOTIFY_MOVE) that travel with the COMMIT, and the webhook
 * outbox when the game has endpoints, and the mail outbox when mail is on (mail/outbox.h).
 */
#include "move_write.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/json_out.h"
#include "mail/outbox.h"
#include "webhooks/outbox.h"
#include "db/store.h"

cd_tx_result cd_move_write(cd_db *db, const cd_game *g, int seat, const json_t *move, const json_t *events_admin,
                           const char *idem, const json_t *answer, const char *origin)
{
    char seq[16], seats[16], pending[16], payload[64];
    snprintf(seq, sizeof seq, "%d", g->seq);
    snprintf(seats, sizeof seats, "%d", seat);
    snprintf(pending, sizeof pending, "%d", g->st->pending.seat);
    snprintf(payload, sizeof payload, "%s:%d", g->id, g->seq);
    bool over = g->st->status == CARC_FINISHED;
    json_t *snap = cd_snapshot_for_store(g->st);
    char *snapshot = cd_json_dumps(snap, JSON_COMPACT);
    json_decref(snap);
    char *mv = move ? cd_json_dumps(move, JSON_COMPACT) : NULL;
    char *events = cd_json_dumps(events_admin, JSON_COMPACT);
    char *ans = answer ? cd_json_dumps(answer, JSON_COMPACT) : NULL;
    if (!snapshot || !events || (move && !mv) || (answer && !ans))
        abort();   /* out of memory (STYLE.md) */

    /* a game with a turn clock stores it (advanced by the caller) with its derived deadline and due time */
    char *clock = NULL, deadline[32], due[32];
    double d = -1, u = -1;
    if (g->clocked) {
        json_t *cj = cd_clock_to_json(&g->clock);
        clock = cd_json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
        d = cd_clock_deadline(&g->clock);
        u = cd_clock_due(&g->clock);
    }
    snprintf(deadline, sizeof deadline, "%.3f", d);
    snprintf(due, sizeof due, "%.3f", u);
    const char *p1[] = {g->id, seq, seats, mv, events, idem, ans, origin};
    const char *p2[] = {g->id, seq, snapshot, over ? "finished" : "active", over ? NULL : pending,
                        clock, d >= 0 ? deadline : NULL, u >= 0 ? due : NULL};
    const char *p3[] = {payload};
    bool ok = cd_db_defer(db, ST_MOVE_INSERT, 8, p1) &&
              cd_db_defer(db, g->clocked ? ST_GAME_UPDATE_CLOCK : ST_GAME_UPDATE, g->clocked ? 8 : 5, p2) &&
              cd_db_defer(db, ST_NOTIFY_MOVE, 1, p3);
    free(clock);
    free(snapshot);
    free(mv);
    free(events);
    free(ans);
    if (!ok)
        return CD_TX_ERROR;
    /* webhooks: their outbox rows commit with the move (outbox.h) */
    if (!(g->hooks_known && g->hooks == 0) && cd_outbox_enqueue_move(db, g, g->seq, seat, events_admin) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    /* mail: the turn mail (or game over) commits with the move too (mail/outbox.h) */
    return cd_mail_enqueue_move(db, g);
}
