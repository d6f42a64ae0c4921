/*
 * admin_verify.c — POST /v1/admin/games/{id}/verify: replays the move log from the seed and the stored
 * set-up through the engine and compares the result with the stored snapshot (at its seq, a checkpoint:
 * sql/017) and with the state carcd loads (the snapshot with the moves after it). A mismatch means the log,
 * the snapshot or the engine changed under the game; the answer says at which seq replay failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "game/replay.h"

/* A copy of the stored snapshot with its options as the engine reads them: a game stored before an option
 * existed lacks it and reads it as the value it was played with (engine/options.c, `absent`), which the
 * replayed state then names. */
static json_t *stored_as_read(const json_t *snapshot)
{
    json_t *s = json_deep_copy(snapshot);
    uint8_t opt[CARC_NOPTS];
    char err[128];
    if (s && carc_options_from_json(opt, json_object_get(s, "options"), false, err, sizeof err) == 0)
        json_object_set_new(s, "options", carc_options_to_json(opt));
    return s;
}

/* Whether st, replayed to `seq`, is `stored` (a snapshot as stored, `what`); why says otherwise. */
static bool same_state(const carc_state *st, const json_t *stored, const char *what, int seq, char *why,
                       size_t whylen)
{
    json_t *snap = cd_snapshot_for_store(st), *as_read = stored_as_read(stored);
    bool same = json_equal(snap, as_read);
    if (!same)
        snprintf(why, whylen, "the replayed state differs from %s (seq %d)", what, seq);
    json_decref(snap);
    json_decref(as_read);
    return same;
}

/* Replays; returns the seq at which it went wrong, or -1 when the replay matches. Twice: up to the stored
 * snapshot, a checkpoint (sql/017), which it must equal; then the whole log, which must end at the game's
 * seq in the state carcd loads (the checkpoint with the moves after it applied, games.c). An admin's verify
 * is rare, and a replay of a whole game costs milliseconds (game/move_log.h). */
static int replay(cd_db *db, const cd_game *g, char *why, size_t whylen, bool *db_error)
{
    carc_state *st = malloc(sizeof *st);
    if (!st) {
        snprintf(why, whylen, "out of memory");
        return 0;
    }
    int nmoves = 0;
    int bad = cd_replay(db, g, g->snapshot_seq, st, &nmoves, NULL, why, whylen, db_error);
    if (bad < 0 && !*db_error) {
        if (nmoves != g->snapshot_seq) {
            snprintf(why, whylen, "the log has %d moves, the snapshot is at seq %d", nmoves, g->snapshot_seq);
            bad = nmoves;
        } else if (!same_state(st, g->snapshot, "the stored snapshot", g->snapshot_seq, why, whylen)) {
            bad = g->snapshot_seq;
        }
    }
    if (bad < 0 && !*db_error) {
        bad = cd_replay(db, g, -1, st, &nmoves, NULL, why, whylen, db_error);
        if (bad < 0 && !*db_error) {
            json_t *loaded = cd_snapshot_for_store(g->st);
            if (nmoves != g->seq) {
                snprintf(why, whylen, "the log has %d moves, the game says seq %d", nmoves, g->seq);
                bad = nmoves;
            } else if (!same_state(st, loaded, "the stored snapshot with the moves after it", g->seq, why,
                                   whylen)) {
                bad = g->seq;
            }
            json_decref(loaded);
        }
    }
    free(st);
    return bad;
}

enum MHD_Result h_admin_verify(cd_req *r)
{
    cd_db *db;
    cd_game g;
    int viewer;
    if (!cd_game_open(r, CD_OPEN_ADMIN, &db, &viewer, &g))
        return MHD_YES;
    const char *id = r->params[0];
    char why[256] = "";
    bool db_error = false;
    int bad = replay(db, &g, why, sizeof why, &db_error);
    int seq = g.seq;
    cd_game_free(&g);
    if (db_error)
        return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the move log could not be read");
    json_t *outcome = json_pack("{s:i, s:b}", "seq", seq, "ok", bad < 0);
    if (bad >= 0)
        json_object_set_new(outcome, "failed_at_seq", json_integer(bad));
    if (!cd_audit(r, db, NULL, id, outcome))
        return MHD_YES;
    json_t *answer = json_pack("{s:s, s:i, s:b}", "id", id, "seq", seq, "ok", bad < 0);
    if (bad >= 0) {
        json_object_set_new(answer, "failed_at_seq", json_integer(bad));
        json_object_set_new(answer, "reason", json_string(why));
    }
    return cd_reply_json(r, 200, answer, NULL);
}
