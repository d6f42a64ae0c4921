/*
 * mail_in.c — see mail_in.h.
 */
#include "mail_in.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_MAIL_IN_INSERT, "mail_in_insert",
                        "INSERT INTO mail_in (message_id, game_id, seat, outcome, detail) "
                        "VALUES ($1, $2::uuid, $3::integer, $4, $5) ON CONFLICT (message_id) DO NOTHING RETURNING 1",
                        5},
};
const cd_stmt_family cd_stmts_mail_in = {stmts, sizeof stmts / sizeof stmts[0]};

cd_mq cd_mail_in_record(cd_db *db, const char *message_id, const char *game_id, int seat, const char *outcome,
                        const char *detail, bool *fresh)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {message_id, game_id, seat >= 0 ? s : NULL, outcome, detail};
    int n = 0;   /* ON CONFLICT DO NOTHING RETURNING: 1 row when it was new */
    cd_q q = cd_q_count(db, ST_MAIL_IN_INSERT, 5, p, &n);
    *fresh = q == CD_Q_OK && n == 1;
    return cd_mq_of(q);
}
