/*
 * replay.c — a game's state rebuilt from seed, set-up and move log (see replay.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "replay.h"
#include "db/moves.h"

bool cd_replay_start(const cd_game *g, carc_state *st, char *why, size_t whylen)
{
    carc_setup s;
    why[0] = 0;
    if (carc_setup_from_json(cd_catalog(), g->setup, &s, why, whylen) != 0 || !cd_unhex(g->seed, s.seed, sizeof s.seed)) {
        if (!why[0])
            snprintf(why, whylen, "stored seed is not 64 hex digits");
        return false;
    }
    return carc_game_new(st, cd_catalog(), &s, NULL, why, whylen) == 0;
}

int cd_replay(cd_db *db, const cd_game *g, int upto, carc_state *st, int *nmoves, json_t **moves, char *why,
              size_t whylen, bool *db_error)
{
    *nmoves = 0;
    if (moves)
        *moves = NULL;
    if (!cd_replay_start(g, st, why, whylen))
        return 0;
    cd_replay_rows rows;
    if (cd_moves_all(db, g->id, &rows) != CD_Q_OK) {
        *db_error = true;
        return 0;
    }
    if (moves)
        *moves = json_array();
    int bad = -1;
    for (int i = 0; i < rows.n && bad < 0; i++) {
        int seq = rows.v[i].seq, seat = rows.v[i].seat;
        if (upto >= 0 && seq > upto)
            break;
        json_t *mv = json_loads(rows.v[i].move, 0, NULL);
        const char *kind = json_string_value(json_object_get(mv, "kind"));
        if (seq != i + 1) {
            snprintf(why, whylen, "the log has a gap before seq %d", seq);
            bad = seq;
        } else if (kind && strcmp(kind, "cancel") == 0) {
            /* the admin's cancel (handlers/admin_cancel.c), the log's last entry: the state stays as it was */
            (*nmoves)++;
        } else if (!mv || carc_logged_move_apply(st, seat, mv, NULL, why, whylen) != 0) {   /* a leave too */
            bad = seq;
        } else {
            (*nmoves)++;
            if (moves)
                json_array_append_new(*moves, json_pack("{s:i, s:i, s:O}", "seq", seq, "seat", seat, "move", mv));
        }
        json_decref(mv);
    }
    cd_replay_rows_free(&rows);
    return bad;
}
