/*
 * mail_recent.c — see mail_recent.h.
 */
#include "mail_recent.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "query.h"

cd_mq cd_mail_recent_moves(cd_db *db, const char *game_id, int after_seq, cd_mail_recent_move *out, int max, int *n)
{
    char a[16], l[16];
    snprintf(a, sizeof a, "%d", after_seq);
    snprintf(l, sizeof l, "%d", max);
    const char *p[] = {game_id, a, l};
    PGresult *res;
    cd_q q = cd_q_result(db, ST_MOVES_AFTER, 3, p, &res);
    *n = 0;
    if (q != CD_Q_OK)
        return cd_mq_of(q);
    for (int i = 0; i < PQntuples(res) && *n < max; i++) {
        cd_mail_recent_move *m = &out[(*n)++];
        m->seq = atoi(PQgetvalue(res, i, 0));
        m->seat = PQgetisnull(res, i, 1) ? -1 : atoi(PQgetvalue(res, i, 1));
        m->notation[0] = 0;
        json_t *mv = PQgetisnull(res, i, 2) ? NULL : json_loads(PQgetvalue(res, i, 2), 0, NULL);
        const char *nt = json_string_value(json_object_get(mv, "notation"));
        if (nt)
            snprintf(m->notation, sizeof m->notation, "%s", nt);
        json_decref(mv);
        snprintf(m->origin, sizeof m->origin, "%s", PQgetvalue(res, i, 4));
    }
    PQclear(res);
    return CD_MQ_OK;
}

json_t *cd_mail_seat_names(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    PGresult *res = cd_db_exec(db, ST_SEATS_OF_GAME, 1, p);
    json_t *names = json_array();
    if (cd_db_ok(res))
        for (int i = 0; i < PQntuples(res); i++)
            json_array_append_new(names, json_string(PQgetvalue(res, i, 1)));
    PQclear(res);
    return names;
}
