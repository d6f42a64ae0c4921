/*
 * clock_tx.c — see clock_tx.h.
 */
#include "clock_tx.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/json_out.h"
#include "db/store.h"
#include "base/timesrc.h"

int cd_req_seat(cd_req *r, cd_db **db)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id)) {
        cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        return -1;
    }
    r->game_id = id;
    *db = cd_req_db(r);
    int viewer;
    if (!*db || !cd_viewer_of(r, *db, id, &viewer))
        return -1;
    if (viewer < 0) {
        if (viewer == CARC_VIEW_ADMIN)
            cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "this is done with a seat token");
        else
            cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "this needs a seat token");
        return -1;
    }
    return viewer;
}

bool cd_clock_save(cd_db *db, const char *id, const cd_clock *c)
{
    json_t *j = cd_clock_to_json(c);
    char *text = cd_json_dumps(j, JSON_COMPACT), deadline[32], due[32];
    json_decref(j);
    double d = cd_clock_deadline(c), u = cd_clock_due(c);
    snprintf(deadline, sizeof deadline, "%.3f", d);
    snprintf(due, sizeof due, "%.3f", u);
    const char *p[] = {id, text, d >= 0 ? deadline : NULL, u >= 0 ? due : NULL};
    PGresult *res = cd_db_exec(db, ST_CLOCK_UPDATE, 4, p);
    bool ok = cd_db_ok(res);
    PQclear(res);
    free(text);
    return ok;
}

typedef struct {
    const char *id;
    cd_clock_fn fn;
    void *arg;
    int seat;
    double now;
    cd_problem problem;   /* CD_NPROBLEMS: done */
    const char *field;
    char detail[200];
    json_t *view;         /* out: the clock's view after the change */
} action_tx;

static cd_tx_result refuse(action_tx *t, cd_problem p, const char *detail)
{
    t->problem = p;
    snprintf(t->detail, sizeof t->detail, "%s", detail);
    return CD_TX_ROLLBACK;
}

static cd_tx_result run_action(cd_db *db, void *arg)
{
    action_tx *t = arg;
    t->problem = CD_NPROBLEMS;
    t->field = NULL;
    json_decref(t->view);   /* a retried attempt starts again */
    t->view = NULL;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out;
    if (lr == CD_LOAD_NOT_FOUND)
        out = refuse(t, CD_P_NOT_FOUND, "no game with that id");
    else if (lr != CD_LOAD_OK)
        out = CD_TX_ERROR;
    else if (!g.clocked)
        out = refuse(t, CD_P_NO_CLOCK, "the game was created without a clock");
    else if (g.finished)
        out = refuse(t, CD_P_GAME_OVER, "the game is over");
    else if (g.st->left >> t->seat & 1)
        out = refuse(t, CD_P_SEAT_LEFT, "this seat has left the game");
    else {
        t->problem = t->fn(&g.clock, t->seat, g.st, t->now, t->arg, &t->field, t->detail, sizeof t->detail);
        if (t->problem != CD_NPROBLEMS)
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
    } else if (tr == CD_TX_ROLLBACK && t.problem != CD_NPROBLEMS) {
        ret = cd_reply_problem(r, t.problem, t.field, "%s", t.detail);
    } else {
        ret = cd_reply_db_failure(r, down, "the clock could not be stored");
    }
    json_decref(t.view);
    return ret;
}
