/*
 * move_commit.c — a move committed inside the caller's transaction (move_commit.h): the clock passes the turn
 * on, the events are rendered, and the move's rows (db/moves.c: the move, the game row, the NOTIFY) travel
 * deferred with the COMMIT, with the webhook outbox when the game has endpoints.
 */
#include "move_commit.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/json_out.h"
#include "event_cache.h"
#include "move_log.h"
#include "views.h"
#include "mail/outbox.h"
#include "webhooks/outbox.h"
#include "bot_seats.h"
#include "db/moves.h"
#include "db/player_events.h"

/* Set once at start-up (main.c), before any thread moves: read-only after. */
static int snapshot_every = 16;

void cd_snapshot_every(int every)
{
    assert(every >= 1);
    snapshot_every = every;
}

bool cd_snapshot_checkpoint(int seq, bool over)
{
    return over || seq % snapshot_every == 0;
}

/* Stores the move: seat moved, move as logged (NULL: none), idem with its request's hash (a repeated key's
 * answer is derived from the log: the answer is not stored). events_admin, its events in the admin view
 * (events: their compact text), are not stored (a replay derives them: move_log.h): they go into the event
 * cache, for the reads of the events that follow a move, and filtered to the public view into the webhooks. */
static cd_tx_result move_write(cd_db *db, const cd_game *g, int seat, const json_t *move, const json_t *events_admin,
                               const char *events, const char *idem, const char *request_sha256, const char *origin)
{
    bool over = g->st->status == CARC_FINISHED;
    bool checkpoint = cd_snapshot_checkpoint(g->seq, over);
    char *snapshot = checkpoint ? cd_snapshot_text_for_store(g->st) : NULL;   /* the tree's text, without the tree */
    char *mv = move ? cd_json_dumps(move, JSON_COMPACT) : NULL;
    if ((checkpoint && !snapshot) || (move && !mv))
        abort();   /* out of memory (docs/STYLE.md) */
    char *key = cd_event_cache_move_key(move);
    cd_event_cache_put(g->id, g->seq, seat, key, events);   /* right even if the commit fails: event_cache.h */
    free(key);

    /* a game with a turn clock stores it (advanced by the caller) with its derived deadline and due time */
    char *clock = NULL;
    double d = -1, u = -1;
    if (g->clocked) {
        json_t *cj = cd_clock_to_json(&g->clock);
        clock = cd_json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
        d = cd_clock_deadline(&g->clock);
        u = cd_clock_due(&g->clock);
    }
    const cd_move_row row = {.game_id = g->id, .seq = g->seq, .seat = seat, .move = mv, .events = NULL,
                             .idem = idem, .request_sha256 = request_sha256, .response = NULL, .origin = origin};
    const cd_game_after_move after = {.snapshot = snapshot, .pending_kind = carc_pending_kind_name(g->st),
                                      .finished = over, .pending_seat = g->st->pending.seat,
                                      .clock = clock, .deadline = d, .due = u};
    bool ok = cd_move_store_deferred(db, &row, &after);
    free(clock);
    free(snapshot);
    free(mv);
    if (!ok)
        return CD_TX_ERROR;
    /* webhooks: their outbox rows commit with the move (outbox.h) */
    const cd_outbox_game og = {.id = g->id, .seq = g->seq, .st = g->st, .seed = g->seed, .deadline = g->deadline};
    if (!(g->hooks_known && g->hooks == 0) && cd_outbox_enqueue_move(db, &og, g->seq, seat, events_admin) != CD_TX_COMMIT)
        return CD_TX_ERROR;
    /* players' streams (GET /v1/me/events): the turn passed to another seat, or the game ended; nothing to
     * write when no seat is linked to a player (known for a seat's move, ST_MOVE_AFTER_LOCK) */
    bool passes = !over && g->st->pending.seat != seat;
    if ((over || passes) && !(g->linked_known && g->linked == 0) &&
        !cd_player_events_for_seats_deferred(db, g->id, g->seq, over ? -1 : g->st->pending.seat,
                                             over ? CD_PEV_GAME_OVER : CD_PEV_TURN, over ? "finished" : NULL))
        return CD_TX_ERROR;
    /* mail: the turn mail (or game over) commits with the move too (mail/outbox.h) */
    return cd_mail_enqueue_move(db, g->id, g->seq, g->st, g->deadline);
}

cd_tx_result cd_move_commit(cd_db *db, cd_game *g, const cd_move_commit_args *a, json_t **answer)
{
    g->seq++;
    g->deadline[0] = 0;
    if (g->clocked) {   /* the turn passes: the clock charges the mover and starts the next seat's */
        cd_clock_after_move(&g->clock, g->st, g->seq, a->now);
        /* a seat that left or went to a bot may have been the last a pause waited for: one statement more, only
         * while some seat has asked for a pause */
        unsigned absent = 0;
        if (g->clock.pause_votes && !g->clock.paused) {
            if (!cd_seats_without_person(db, g->id, g->st, &absent))
                return CD_TX_ERROR;
            cd_clock_pause_settle(&g->clock, absent, a->now);
        }
        if (cd_clock_deadline(&g->clock) >= 0)   /* the next turn's deadline goes into its turn.started */
            cd_iso_time(cd_clock_deadline(&g->clock), g->deadline);
    }
    /* with its legal moves when the mover decides again; a repeated Idempotency-Key gets the same answer
     * derived from the log (move_log.h: cd_log_answer) */
    json_t *events_admin = carc_events_to_json(g->st, a->ev, CARC_VIEW_ADMIN);
    char *events_text = cd_json_dumps(events_admin, JSON_COMPACT);   /* the event cache's, and the answer's */
    if (!events_text)
        abort();   /* out of memory (docs/STYLE.md) */
    json_t *ans = NULL;
    if (a->answer_text)
        *a->answer_text = cd_move_answer_text(g->st, g->seq, a->ev, events_admin, events_text, a->seat,
                                              a->legal_moves);
    else
        ans = cd_move_answer(g->st, g->seq, a->ev, a->seat, a->legal_moves);
    cd_tx_result out = move_write(db, g, a->seat, a->move, events_admin, events_text, a->idem, a->request_sha256,
                                  a->origin);
    free(events_text);
    json_decref(events_admin);
    *answer = ans;
    return out;
}
