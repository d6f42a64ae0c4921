/*
 * clock_moves.c — see clock_moves.h.
 */
#include "clock_moves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbox.h"
#include "store.h"

#define MAX_DEFAULT_MOVES 64   /* a turn has a handful of decisions; this only stops a bug from looping */

bool cd_move_is_leave(const json_t *move)
{
    const char *k = json_string_value(json_object_get(move, "kind"));
    return k && strcmp(k, "leave") == 0 && json_object_size(move) == 1;
}

static bool exec_ok(cd_db *db, cd_stmt st, int n, const char *const *p)
{
    PGresult *res = cd_db_exec(db, st, n, p);
    bool ok = cd_db_ok(res);
    PQclear(res);
    return ok;
}

/* One logged move: the row, and its webhooks (g->st is the state after it). */
static cd_tx_result log_move(cd_db *db, cd_game *g, int seat, json_t *move, const carc_events *ev, const char *origin,
                             cd_clock *c, double now, json_t **answer)
{
    g->seq++;
    g->deadline[0] = 0;
    if (c) {   /* the next turn's deadline goes into its turn.started */
        cd_clock_after_move(c, g->st, g->seq, now);
        if (cd_clock_deadline(c) >= 0)
            cd_iso_time(cd_clock_deadline(c), g->deadline);
    }
    json_t *events_admin = carc_events_to_json(g->st, ev, CARC_VIEW_ADMIN);
    json_t *resp = json_pack("{s:i, s:o}", "seq", g->seq, "events", carc_events_to_json(g->st, ev, seat));
    char seq[16], seat_s[16];
    snprintf(seq, sizeof seq, "%d", g->seq);
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    char *mv = json_dumps(move, JSON_COMPACT), *evs = json_dumps(events_admin, JSON_COMPACT),
         *rs = json_dumps(resp, JSON_COMPACT);
    const char *p[] = {g->id, seq, seat_s, mv, evs, origin, rs};
    cd_tx_result out = exec_ok(db, ST_MOVE_INSERT_ORIGIN, 7, p) ? CD_TX_COMMIT : CD_TX_ERROR;
    if (out == CD_TX_COMMIT)
        out = cd_outbox_enqueue_move(db, g, g->seq, seat, events_admin);
    if (out == CD_TX_COMMIT && answer && !*answer)
        *answer = json_incref(resp);
    json_decref(resp);
    json_decref(events_admin);
    free(mv);
    free(evs);
    free(rs);
    return out;
}

static cd_tx_result store_game(cd_db *db, const cd_game *g, const cd_clock *c)
{
    const carc_state *st = g->st;
    bool over = st->status == CARC_FINISHED;
    char seq[16], pending[16], deadline[32], due[32];
    snprintf(seq, sizeof seq, "%d", g->seq);
    snprintf(pending, sizeof pending, "%d", st->pending.seat);
    char *clock = NULL;
    double d = -1, u = -1;
    if (c) {
        json_t *cj = cd_clock_to_json(c);
        clock = json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
        d = cd_clock_deadline(c);
        u = cd_clock_due(c);
    }
    snprintf(deadline, sizeof deadline, "%.3f", d);
    snprintf(due, sizeof due, "%.3f", u);
    json_t *snap = cd_snapshot_for_store(st);
    char *snapshot = json_dumps(snap, JSON_COMPACT);
    json_decref(snap);
    const char *p[] = {g->id, seq, snapshot, over ? "finished" : "active", over ? NULL : pending, clock,
                       d >= 0 ? deadline : NULL, u >= 0 ? due : NULL};
    cd_tx_result out = exec_ok(db, ST_GAME_UPDATE_CLOCK, 8, p) ? CD_TX_COMMIT : CD_TX_ERROR;
    free(snapshot);
    free(clock);
    if (out == CD_TX_COMMIT) {
        char payload[64];
        snprintf(payload, sizeof payload, "%s:%d", g->id, g->seq);
        const char *pn[] = {payload};
        out = exec_ok(db, ST_NOTIFY_MOVE, 1, pn) ? CD_TX_COMMIT : CD_TX_ERROR;
    }
    return out;
}

cd_tx_result cd_clock_moves_store(cd_db *db, cd_game *g, int seat, cd_clock_move what, const char *origin,
                                  cd_clock *c, double now, json_t **answer, char *err, size_t errlen)
{
    cd_tx_result out = CD_TX_COMMIT;
    if (what == CD_CM_LEAVE) {
        carc_events ev = {0};
        if (carc_leave(g->st, seat, &ev, err, errlen) != 0) {
            carc_events_free(&ev);
            return CD_TX_ROLLBACK;
        }
        json_t *mv = json_pack("{s:s}", "kind", "leave");
        out = log_move(db, g, seat, mv, &ev, origin, c, now, answer);
        json_decref(mv);
        carc_events_free(&ev);
    } else {
        int n = 0;
        while (out == CD_TX_COMMIT && g->st->status == CARC_ACTIVE && g->st->pending.seat == seat &&
               n < MAX_DEFAULT_MOVES) {
            carc_move m;
            carc_events ev = {0};
            json_t *mv = NULL;
            if (carc_default_move(g->st, &m) != 0 || !(mv = carc_move_to_json(g->st, &m)) ||
                carc_apply(g->st, seat, &m, &ev, err, errlen) != 0) {
                if (!mv)
                    snprintf(err, errlen, "no default move for seat %d", seat);
                json_decref(mv);
                carc_events_free(&ev);
                return CD_TX_ERROR;
            }
            out = log_move(db, g, seat, mv, &ev, origin, c, now, answer);
            json_decref(mv);
            carc_events_free(&ev);
            n++;
        }
    }
    return out == CD_TX_COMMIT ? store_game(db, g, c) : out;
}
