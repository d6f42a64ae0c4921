/*
 * forced_moves.c — see forced_moves.h.
 */
#include "forced_moves.h"

#include <stdio.h>
#include <string.h>

#include "move_commit.h"

#define MAX_DEFAULT_MOVES 64   /* a turn has a handful of decisions; this only stops a bug from looping */

/* One logged move, already applied to g->st, committed; *answer keeps the first one's answer. */
static cd_tx_result log_move(cd_db *db, cd_game *g, int seat, const json_t *move, const carc_events *ev,
                             const char *origin, double now, json_t **answer)
{
    const cd_move_commit_args a = {.seat = seat, .move = move, .ev = ev, .origin = origin, .now = now};
    json_t *resp;
    cd_tx_result out = cd_move_commit(db, g, &a, &resp);
    if (out == CD_TX_COMMIT && answer && !*answer)
        *answer = json_incref(resp);
    json_decref(resp);
    return out;
}

cd_tx_result cd_forced_moves_commit(cd_db *db, cd_game *g, int seat, cd_forced_move what, const char *origin,
                                    double now, json_t **answer, char *err, size_t errlen)
{
    if (what == CD_FORCED_LEAVE || what == CD_FORCED_TO_BOT) {
        bool to_bot = what == CD_FORCED_TO_BOT;
        carc_events ev = {0};
        cd_tx_result out = CD_TX_ROLLBACK;
        if ((to_bot ? carc_leave_to_bot : carc_leave)(g->st, seat, &ev, err, errlen) == 0) {
            json_t *mv = json_pack("{s:s}", "kind", to_bot ? "leave_to_bot" : "leave");
            out = log_move(db, g, seat, mv, &ev, origin, now, answer);
            json_decref(mv);
        }
        carc_events_free(&ev);
        return out;
    }
    cd_tx_result out = CD_TX_COMMIT;
    for (int n = 0; out == CD_TX_COMMIT && g->st->status == CARC_ACTIVE && g->st->pending.seat == seat &&
                    n < MAX_DEFAULT_MOVES;
         n++) {
        carc_move m;
        carc_events ev = {0};
        json_t *mv = NULL;
        if (carc_default_move(g->st, &m) != 0 || !(mv = carc_move_to_json_described(g->st, &m)) ||
            carc_apply(g->st, seat, &m, &ev, err, errlen) != 0) {
            if (!mv)
                snprintf(err, errlen, "no default move for seat %d", seat);
            out = CD_TX_ERROR;
        } else {
            out = log_move(db, g, seat, mv, &ev, origin, now, answer);
        }
        json_decref(mv);
        carc_events_free(&ev);
    }
    return out;
}
