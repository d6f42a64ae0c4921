/*
 * admin_cancel.c (db/) — see admin_cancel.h.
 */
#include "admin_cancel.h"

#include <stdio.h>

#include "query.h"

static const cd_stmt_info stmts[] = {
    /* one statement: the row (only if it is still at the locked seq), the entry, the wake-up */
    {ST_GAME_ADMIN_CANCEL, "game_admin_cancel",
                     "WITH g AS (UPDATE games SET status = 'cancelled', seq = seq + 1, pending_seat = NULL, "
                     "updated_at = now(), finished_at = now(), clock_deadline = NULL, clock_due = NULL "
                     "WHERE id = $1::uuid AND seq = $2::integer RETURNING id, seq), "
                     "m AS (INSERT INTO moves (game_id, seq, seat, move, events, origin) "
                     "SELECT id, seq, NULL, $3::jsonb, '[]'::jsonb, 'admin' FROM g RETURNING game_id, seq) "
                     "SELECT pg_notify('carcd_moves', m.game_id::text || ':' || m.seq) FROM m",
                     3},
};
const cd_stmt_family cd_stmts_admin_cancel = {stmts, sizeof stmts / sizeof stmts[0]};

bool cd_admin_cancel_deferred(cd_db *db, const char *game_id, int seq, const char *move_json)
{
    char seq_s[16];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    const char *p[] = {game_id, seq_s, move_json};
    return cd_db_defer(db, ST_GAME_ADMIN_CANCEL, 3, p);
}
