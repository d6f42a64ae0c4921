/*
 * game_reads.c — see game_reads.h. The column numbers below are those of GAME_COLUMNS, LOCK_COLUMNS and
 * BY_TOKEN in store.c.
 */
#include "game_reads.h"

#include <string.h>
#include <strings.h>

#include "query.h"

/* Row 0 of a ST_GAME_GET-shaped result: seq, status, setup, snapshot, seed_sha256, created_at, updated_at,
 * finished_at, seed, names, clock. */
static void get_columns(PGresult *res, cd_game_read *g)
{
    g->res = res;
    g->found = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0);
    if (!g->found)
        return;
    g->seq = atoi(PQgetvalue(res, 0, 0));
    g->finished = strcmp(PQgetvalue(res, 0, 1), "finished") == 0;
    g->setup = PQgetvalue(res, 0, 2);
    g->snapshot = PQgetvalue(res, 0, 3);
    g->seed_sha256 = PQgetvalue(res, 0, 4);
    g->created_at = PQgetvalue(res, 0, 5);
    g->updated_at = PQgetvalue(res, 0, 6);
    g->finished_at = PQgetvalue(res, 0, 7);
    g->seed = PQgetvalue(res, 0, 8);
    g->names = cd_q_text(res, 0, 9);
    g->clock = cd_q_text(res, 0, 10);
}

/* Row 0 of a result that starts with LOCK_COLUMNS: seq, status, snapshot, seed, clock. */
static void lock_columns(PGresult *res, cd_game_read *g)
{
    g->res = res;
    g->found = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0);
    if (!g->found)
        return;
    g->seq = atoi(PQgetvalue(res, 0, 0));
    g->finished = strcmp(PQgetvalue(res, 0, 1), "finished") == 0;
    g->setup = g->seed_sha256 = g->created_at = g->updated_at = g->finished_at = "";
    g->snapshot = PQgetvalue(res, 0, 2);
    g->seed = PQgetvalue(res, 0, 3);
    g->clock = cd_q_text(res, 0, 4);
}

void cd_game_read_free(cd_game_read *g)
{
    PQclear(g->res);
    *g = (cd_game_read){0};
}

cd_q cd_game_read_get(cd_db *db, const char *id, bool admin, cd_game_read *out)
{
    *out = (cd_game_read){0};
    const char *p[] = {id};
    PGresult *res = cd_db_exec(db, admin ? ST_GAME_GET_ADMIN : ST_GAME_GET, 1, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    get_columns(res, out);
    return CD_Q_OK;
}

cd_q cd_game_read_lock(cd_db *db, const char *id, cd_game_read *out)
{
    *out = (cd_game_read){0};
    const char *p[] = {id};
    PGresult *res = cd_db_exec(db, ST_GAME_LOCK, 1, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    lock_columns(res, out);
    return CD_Q_OK;
}

cd_q cd_game_read_seat(cd_db *db, const char *token_hash, const char *id, const char *cached_seq, bool names,
                       cd_token_seat *token, cd_game_read *out)
{
    *out = (cd_game_read){0};
    *token = (cd_token_seat){0};
    const char *p[] = {token_hash, id, cached_seq};
    PGresult *res = cd_db_exec(db, names ? ST_GAME_GET_SEAT : ST_GAME_GET_PLAY, 3, p);
    if (!cd_db_ok(res)) {
        cd_q q = cd_q_failed(db, res);
        PQclear(res);
        return q;
    }
    token->found = PQntuples(res) > 0;
    if (token->found) {   /* columns 11 and 12: whether the token's game is this one, and its seat (BY_TOKEN) */
        token->same_game = strcmp(PQgetvalue(res, 0, 11), "t") == 0;
        token->seat = atoi(PQgetvalue(res, 0, 12));
    }
    get_columns(res, out);
    return CD_Q_OK;
}

cd_q cd_token_lookup(cd_db *db, const char *token_hash, const char *id, cd_token_seat *token)
{
    *token = (cd_token_seat){0};
    const char *p[] = {token_hash};
    PGresult *res = cd_db_exec(db, ST_TOKEN_LOOKUP, 1, p);
    cd_q q = CD_Q_OK;
    if (!cd_db_ok(res)) {
        q = cd_q_failed(db, res);
    } else if ((token->found = PQntuples(res) > 0)) {
        token->same_game = strcasecmp(PQgetvalue(res, 0, 0), id) == 0;
        token->seat = atoi(PQgetvalue(res, 0, 1));
    }
    PQclear(res);
    return q;
}

cd_q cd_move_lock(cd_db *db, const char *id, const char *token_hash, const char *cached_seq, const char *idem,
                  cd_move_lock_read *out)
{
    *out = (cd_move_lock_read){0};
    const char *p1[] = {id, token_hash, cached_seq};
    const char *p2[] = {id, token_hash, idem};
    const cd_db_call calls[] = {{ST_MOVE_LOCK, 3, p1}, {ST_MOVE_AFTER_LOCK, 3, p2}};
    PGresult *res[2];
    if (!cd_db_exec_many(db, 2, calls, res)) {
        PQclear(res[0]);
        PQclear(res[1]);
        return CD_Q_FAILED;
    }
    PGresult *lock = res[0], *after = res[1];
    int nf = PQnfields(lock);   /* the token's two columns come last */
    out->token.found = PQntuples(lock) > 0;
    if (out->token.found) {
        out->token.same_game = strcmp(PQgetvalue(lock, 0, nf - 2), "t") == 0;
        out->token.seat = atoi(PQgetvalue(lock, 0, nf - 1));
    }
    lock_columns(lock, &out->game);
    out->after = after;
    out->hooks = atoi(PQgetvalue(after, 0, 0));
    out->stored_answer = cd_q_text(after, 0, 1);
    return CD_Q_OK;
}

void cd_move_lock_read_free(cd_move_lock_read *m)
{
    cd_game_read_free(&m->game);
    PQclear(m->after);
    *m = (cd_move_lock_read){0};
}
