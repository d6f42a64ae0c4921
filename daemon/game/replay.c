/*
 * replay.c — a game's state rebuilt from seed, set-up and move log (see replay.h), the log in either stored
 * form (move_log.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "move_log.h"
#include "replay.h"
#include "db/move_log.h"

bool cd_replay_start(const cd_game *g, carc_state *st, char *why, size_t whylen)
{
    return cd_log_begin(g->setup, g->seed, st, NULL, why, whylen);
}

int cd_replay(cd_db *db, const cd_game *g, int upto, carc_state *st, int *nmoves, json_t **moves, char *why,
              size_t whylen, bool *db_error)
{
    *nmoves = 0;
    if (moves)
        *moves = NULL;
    if (!cd_replay_start(g, st, why, whylen))
        return 0;
    cd_stored_log l;
    if (cd_stored_log_all(db, g->id, &l) != CD_Q_OK) {
        *db_error = true;
        return 0;
    }
    cd_log_moves log;
    if (!cd_log_moves_of(&l, &log, why, whylen)) {
        cd_log_moves_free(&log);
        cd_stored_log_free(&l);
        return 1;
    }
    if (moves)
        *moves = json_array();
    int bad = -1;
    bool cancelled = false;
    for (int i = 0; i < log.n && bad < 0; i++) {
        const cd_log_move *m = &log.v[i];
        if (upto >= 0 && m->seq > upto)
            break;
        json_t *described = NULL;
        bool cancel = cd_log_move_is_cancel(m);
        if (m->seq != i + 1) {
            snprintf(why, whylen, "the log has a gap before seq %d", m->seq);
            bad = m->seq;
        } else if (cancelled) {
            snprintf(why, whylen, "the log goes on after the admin's cancel, at seq %d", m->seq);
            bad = m->seq;
        } else if (cd_log_move_apply(st, m, NULL, moves ? &described : NULL, NULL, why, whylen) != 0) {   /* a leave too */
            bad = m->seq;
        } else if ((cancelled = cancel)) {
            /* the admin's cancel (handlers/admin_cancel.c), the log's last entry: the state stays as it was,
             * and the moves exported are the seats' */
            (*nmoves)++;
            json_decref(described);
        } else {
            (*nmoves)++;
            if (moves)
                json_array_append_new(*moves, json_pack("{s:i, s:i, s:o}", "seq", m->seq, "seat", m->seat, "move",
                                                        described));
        }
    }
    cd_log_moves_free(&log);
    cd_stored_log_free(&l);
    return bad;
}
