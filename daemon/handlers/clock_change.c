/*
 * clock_change.c — see clock_change.h.
 */
#include "clock_change.h"

#include <stdio.h>

#include "base/timesrc.h"
#include "clock/clock_tx.h"
#include "game/bot_seats.h"

typedef struct {
    const char *id;
    cd_clock_fn fn;
    void *arg;
    int seat;
    double now;
    cd_refusal no;
    json_t *view;         /* out: the clock's view after the change */
} action_tx;

static cd_tx_result run_action(cd_db *db, void *arg)
{
    action_tx *t = arg;
    cd_refusal_clear(&t->no);
    json_decref(t->view);   /* a retried attempt starts again */
    t->view = NULL;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out;
    unsigned absent = 0;
    if (lr == CD_LOAD_NOT_FOUND)
        out = cd_refuse(&t->no, CD_P_NOT_FOUND, NULL, "no game with that id");
    else if (lr == CD_LOAD_WAITING)
        out = cd_refuse(&t->no, CD_P_NOT_STARTED, NULL, "the game has not started: it waits for its open seats");
    else if (lr != CD_LOAD_OK)
        out = CD_TX_ERROR;
    else if (!g.clocked)
        out = cd_refuse(&t->no, CD_P_NO_CLOCK, NULL, "the game was created without a clock");
    else if (g.cancelled)   /* as a move is refused */
        out = cd_refuse(&t->no, CD_P_GAME_CANCELLED, NULL, "the game was cancelled by the admin");
    else if (g.finished)
        out = cd_refuse(&t->no, CD_P_GAME_OVER, NULL, "the game is over");
    else if (g.st->left >> t->seat & 1)
        out = cd_refuse(&t->no, CD_P_SEAT_LEFT, NULL, "this seat has left the game");
    else if (!cd_seats_without_person(db, t->id, g.st, &absent))
        out = CD_TX_ERROR;
    else {
        t->no.problem = t->fn(&g.clock, t->seat, absent, t->now, t->arg, &t->no.field, t->no.detail,
                              sizeof t->no.detail);
        if (t->no.problem != CD_NPROBLEMS)
            out = CD_TX_ROLLBACK;
        else
            out = cd_clock_save(db, t->id, &g.clock) ? CD_TX_COMMIT : CD_TX_ERROR;
        if (out == CD_TX_COMMIT)
            t->view = cd_clock_view(&g.clock, t->now);
    }
    cd_game_free(&g);
    return out;
}

enum MHD_Result cd_clock_action(cd_req *r, cd_clock_fn fn, void *arg)
{
    cd_db *db;
    int seat = cd_req_seat(r, &db);
    if (seat < 0)
        return MHD_YES;
    action_tx t = {.id = r->params[0], .fn = fn, .arg = arg, .seat = seat, .now = cd_wall_now()};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_action, &t, &down);
    enum MHD_Result ret;
    if (tr == CD_TX_COMMIT && t.view) {
        ret = cd_reply_json(r, 200, json_pack("{s:o}", "clock", t.view), NULL);
        t.view = NULL;
    } else {
        ret = cd_reply_refusal_or_failure(r, &t.no, down, "the clock could not be stored");
    }
    json_decref(t.view);
    return ret;
}
