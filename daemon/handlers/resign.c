/*
 * resign.c — POST /v1/games/{id}/resign: the seat leaves the game at once, on its turn or not. What it owes
 * now is decided with the default moves; its followers stay on the board and score, it takes no more turns;
 * the game ends when one seat remains. Answers like a move: {"seq", "events"} as the seat sees them. In a
 * game created with "bot_after_leave": true a greedy bot takes the seat instead (game/bot_seats.h): the
 * seat stays in the game, the log gets {"kind": "leave_to_bot"} (a seat_to_bot event, notified as any move),
 * and the answer is {"seq", "events", "bot"}.
 */
#include <stdio.h>

#include "db/bots.h"
#include "game/bot_seats.h"
#include "game/forced_moves.h"
#include "handlers.h"
#include "base/metrics.h"
#include "base/timesrc.h"

typedef struct {
    const char *id;
    int seat;
    double now;
    cd_problem problem;   /* CD_NPROBLEMS: none */
    char detail[200];
    json_t *answer;
} resign_tx;

static cd_tx_result run_resign(cd_db *db, void *arg)
{
    resign_tx *t = arg;
    t->problem = CD_NPROBLEMS;
    json_decref(t->answer);
    t->answer = NULL;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out;
    bool taken = false;
    unsigned bots = 0;
    if (lr == CD_LOAD_WAITING) {
        t->problem = CD_P_NOT_STARTED;
        snprintf(t->detail, sizeof t->detail, "the game has not started: it waits for its open seats "
                                              "(a seat taken by a join leaves it with POST /v1/games/{id}/leave)");
        out = CD_TX_ROLLBACK;
    } else if (lr != CD_LOAD_OK) {
        if (lr == CD_LOAD_NOT_FOUND)
            t->problem = CD_P_NOT_FOUND;
        out = lr == CD_LOAD_NOT_FOUND ? CD_TX_ROLLBACK : CD_TX_ERROR;
    } else if (g.finished) {   /* a move is refused in the same words */
        t->problem = g.cancelled ? CD_P_GAME_CANCELLED : CD_P_GAME_OVER;
        snprintf(t->detail, sizeof t->detail, "%s",
                 g.cancelled ? "the game was cancelled by the admin" : "the game is over");
        out = CD_TX_ROLLBACK;
    } else if (g.st->left >> t->seat & 1) {
        t->problem = CD_P_SEAT_LEFT;
        snprintf(t->detail, sizeof t->detail, "this seat has already left the game");
        out = CD_TX_ROLLBACK;
    } else if (cd_bot_seat_mask(db, g.id, &bots) != CD_Q_OK) {
        out = CD_TX_ERROR;
    } else if (bots >> t->seat & 1) {   /* read under the lock: a resignation just committed left it to a bot */
        t->problem = CD_P_SEAT_LEFT;
        snprintf(t->detail, sizeof t->detail, "this seat has already left the game: a bot plays it");
        out = CD_TX_ROLLBACK;
    } else if (!cd_bot_take_seat(db, g.id, t->seat, &taken)) {
        out = CD_TX_ERROR;
    } else if (taken) {   /* "bot_after_leave": a bot plays the seat from now on, logged as a leave to it */
        out = cd_forced_moves_commit(db, &g, t->seat, CD_FORCED_TO_BOT, "seat", t->now, &t->answer, t->detail,
                                     sizeof t->detail);
        const cd_bot_spec spec = {.kind = CARC_BOT_GREEDY};
        if (out == CD_TX_COMMIT && t->answer)
            json_object_set_new(t->answer, "bot", cd_bot_spec_json(&spec));
        else if (out == CD_TX_ROLLBACK)
            t->problem = CD_P_ILLEGAL_MOVE;
    } else {
        out = cd_forced_moves_commit(db, &g, t->seat, CD_FORCED_LEAVE, "seat", t->now, &t->answer, t->detail,
                                     sizeof t->detail);
        if (out == CD_TX_ROLLBACK)
            t->problem = CD_P_ILLEGAL_MOVE;
    }
    cd_game_free(&g);
    return out;
}

enum MHD_Result h_game_resign(cd_req *r)
{
    if (!cd_req_body_empty(r))
        return MHD_YES;
    cd_db *db;
    int seat = cd_req_seat(r, &db);
    if (seat < 0)
        return MHD_YES;
    resign_tx t = {.id = r->params[0], .seat = seat, .now = cd_wall_now()};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_resign, &t, &down);
    enum MHD_Result ret;
    if (tr == CD_TX_COMMIT && t.answer) {
        cd_metrics_move_applied();
        ret = cd_reply_json(r, 200, t.answer, NULL);
        t.answer = NULL;
    } else if (tr == CD_TX_ROLLBACK && t.problem != CD_NPROBLEMS) {
        ret = cd_reply_problem(r, t.problem, NULL, "%s", t.problem == CD_P_NOT_FOUND ? "no game with that id" : t.detail);
    } else {
        ret = cd_reply_db_failure(r, down, "the resignation could not be stored");
    }
    json_decref(t.answer);
    return ret;
}
