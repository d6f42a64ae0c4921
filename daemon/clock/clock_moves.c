/*
 * clock_moves.c — see clock_moves.h.
 */
#include "clock_moves.h"

#include <stdio.h>
#include <string.h>

#include "game/move_write.h"

#define MAX_DEFAULT_MOVES 64   /* a turn has a handful of decisions; this only stops a bug from looping */

bool cd_move_is_leave(const json_t *move)
{
    const char *k = json_string_value(json_object_get(move, "kind"));
    return k && strcmp(k, "leave") == 0 && json_object_size(move) == 1;
}

/* One logged move, already applied to g->st: the clock passes the turn on, then cd_move_write stores it. */
static cd_tx_result log_move(cd_db *db, cd_game *g, int seat, const json_t *move, const carc_events *ev,
                             const char *origin, double now, json_t **answer)
{
    g->seq++;
    g->deadline[0] = 0;
    if (g->clocked) {   /* the next turn's deadline goes into its turn.started */
        cd_clock_after_move(&g->clock, g->st, g->seq, now);
        if (cd_clock_deadline(&g->clock) >= 0)
            cd_iso_time(cd_clock_deadline(&g->clock), g->deadline);
    }
    json_t *events_admin = carc_events_to_json(g->st, ev, CARC_VIEW_ADMIN);
    json_t *resp = json_pack("{s:i, s:o}", "seq", g->seq, "events", carc_events_to_json(g->st, ev, seat));
    cd_tx_result out = cd_move_write(db, g, seat, move, events_admin, NULL, resp, origin);
    if (out == CD_TX_COMMIT && answer && !*answer)
        *answer = json_incref(resp);
    json_decref(resp);
    json_decref(events_admin);
    return out;
}

cd_tx_result cd_clock_moves_store(cd_db *db, cd_game *g, int seat, cd_clock_move what, const char *origin,
                                  double now, json_t **answer, char *err, size_t errlen)
{
    if (what == CD_CM_LEAVE) {
        carc_events ev = {0};
        cd_tx_result out = CD_TX_ROLLBACK;
        if (carc_leave(g->st, seat, &ev, err, errlen) == 0) {
            json_t *mv = json_pack("{s:s}", "kind", "leave");
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
