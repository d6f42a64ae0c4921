/*
 * players.c — see players.h.
 */
#include "players.h"

#include <stdio.h>

#include "query.h"

/* The first column of the one row of a statement that returns an id; *found tells whether there was one. */
static cd_q one_id(cd_db *db, int stmt, int n, const char *const *p, bool *found, char id[37])
{
    PGresult *res = cd_db_exec(db, stmt, n, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res))
        q = cd_q_failed(db, res);
    else if ((*found = PQntuples(res) > 0))
        snprintf(id, 37, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    return q;
}

cd_q cd_player_insert(cd_db *db, const char *name, const char *key_hash, char id[37])
{
    const char *p[] = {name, key_hash};
    PGresult *res = cd_db_exec(db, ST_PLAYER_INSERT, 2, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res) || PQntuples(res) != 1)
        q = cd_q_failed(db, res);
    else
        snprintf(id, 37, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    return q;
}

cd_q cd_player_by_key(cd_db *db, const char *key_hash, bool *found, char id[37])
{
    const char *p[] = {key_hash};
    return one_id(db, ST_PLAYER_BY_KEY, 1, p, found, id);
}

cd_q cd_seat_link(cd_db *db, const char *game_id, int seat, const char *key_hash, bool *found, char player_id[37])
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, key_hash};
    return one_id(db, ST_SEAT_LINK, 3, p, found, player_id);
}

cd_q cd_me_games(cd_db *db, const char *player_id, const char *status, long limit, cd_me_game_rows *out)
{
    *out = (cd_me_game_rows){0};
    char lim[24];
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *p[] = {player_id, status, lim};
    PGresult *res = cd_db_exec(db, ST_ME_GAMES, 3, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    out->res = res;
    out->n = PQntuples(res);
    out->v = calloc((size_t)out->n + 1, sizeof *out->v);
    if (!out->v)
        abort();   /* out of memory (docs/STYLE.md) */
    for (int i = 0; i < out->n; i++) {
        cd_me_game_row *g = &out->v[i];
        g->id = PQgetvalue(res, i, 0);
        g->seat = atoi(PQgetvalue(res, i, 1));
        g->status = PQgetvalue(res, i, 2);
        g->seq = atoi(PQgetvalue(res, i, 3));
        g->has_pending = !PQgetisnull(res, i, 4);
        g->pending_seat = cd_q_int(res, i, 4, -1);
        g->pending_kind = cd_q_text(res, i, 5);
        g->has_deadline = !PQgetisnull(res, i, 6);
        g->deadline = g->has_deadline ? atof(PQgetvalue(res, i, 6)) : 0;
        g->updated_at = PQgetvalue(res, i, 7);
        g->clock = cd_q_text(res, i, 8);
    }
    return CD_Q_OK;
}

void cd_me_game_rows_free(cd_me_game_rows *rows)
{
    free(rows->v);
    PQclear(rows->res);
    *rows = (cd_me_game_rows){0};
}
