/*
 * mail_in.c — see mail_in.h.
 */
#include "mail_in.h"

#include <stdio.h>

#include "exec.h"
#include "store.h"

cd_mq cd_mail_in_record(cd_db *db, const char *message_id, const char *game_id, int seat, const char *outcome,
                        const char *detail, bool *fresh)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {message_id, game_id, seat >= 0 ? s : NULL, outcome, detail};
    PGresult *res = cd_db_exec(db, ST_MAIL_IN_INSERT, 5, p);
    *fresh = false;
    cd_mq q = CD_MQ_OK;
    if (!cd_db_ok(res))
        q = cd_db_unavailable(db, res) ? CD_MQ_DOWN : CD_MQ_FAILED;
    else
        *fresh = PQntuples(res) == 1;
    PQclear(res);
    return q;
}
