/*
 * game_reads.c — see game_reads.h. The column numbers below are those of GAME_COLUMNS, LOCK_COLUMNS and
 * BY_TOKEN below.
 */
#include "game_reads.h"

#include <string.h>
#include <strings.h>

#include "base/int_text.h"
#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
#define GAME_COLUMNS_WITH(snapshot)                                                                          \
    "g.seq, g.status, g.setup, " snapshot ", g.seed_sha256, " CD_SQL_ISO("g.created_at") ", " CD_SQL_ISO("g.updated_at")   \
    ", " CD_SQL_ISO("g.finished_at")
#define GAME_COLUMNS GAME_COLUMNS_WITH("g.snapshot")
/* the seats' names in seat order, as a JSON array (one index scan of seats' primary key) */
#define SEAT_NAMES "COALESCE((SELECT json_agg(n.name ORDER BY n.seat) FROM seats n WHERE n.game_id = g.id), '[]')"
/* the seats' bots in seat order (null for a person's seat), read only for a game that has bots (games.bots):
 * any other game pays no second scan */
#define SEAT_BOTS "CASE WHEN g.bots THEN (SELECT json_agg(b.bot ORDER BY b.seat) FROM seats b WHERE b.game_id = g.id) END"
/* The reads of a request with a seat token: who the token is (whether its game is $2, its seat) and the game
 * joined to it, in one statement. No row: the token belongs to no seat; the game's columns are NULL when the
 * token is another game's. $3 is the seq of the state this process holds for the game (state_cache.h; -1:
 * none): at that seq the snapshot stays in the database (NULL), which spares the server detoasting and
 * printing ~3 KB of jsonb that carcd would not read (a third of the statement's cost, measured with pgbench). */
#define SNAPSHOT_UNLESS_CACHED "CASE WHEN g.seq = $3::integer THEN NULL ELSE g.snapshot END"
/* The snapshot is a checkpoint at g.snapshot_seq (sql/017): the moves after it, [[seq, seat, move as text],
 * ...] in order (an index range of moves' primary key), NULL when there are none, and the seed their
 * draws need, for statements that would not read it. The cached variants leave both out with the snapshot. */
#define MOVES_AFTER_CHECKPOINT_OF(g)                                                                          \
    "(SELECT json_agg(json_build_array(m.seq, m.seat, m.move::text) ORDER BY m.seq) FROM moves m " \
    "WHERE m.game_id = " g ".id AND m.seq > " g ".snapshot_seq)"
#define MOVES_AFTER_CHECKPOINT MOVES_AFTER_CHECKPOINT_OF("g")
#define TAIL "g.snapshot_seq, CASE WHEN g.snapshot_seq < g.seq THEN " MOVES_AFTER_CHECKPOINT " END"
#define TAIL_UNLESS_CACHED                                                                                    \
    "g.snapshot_seq, CASE WHEN g.snapshot_seq < g.seq AND g.seq <> $3::integer THEN " MOVES_AFTER_CHECKPOINT " END"
#define TAIL_SEED "CASE WHEN g.snapshot_seq < g.seq THEN s.seed END"
#define TAIL_SEED_UNLESS_CACHED "CASE WHEN g.snapshot_seq < g.seq AND g.seq <> $3::integer THEN s.seed END"
#define BY_TOKEN                                                                                             \
    ", t.game_id = $2::uuid, t.seat, t.bot IS NOT NULL FROM seats t "                                        \
    "LEFT JOIN (games g JOIN game_secrets s ON s.game_id = g.id) "                                           \
    "ON g.id = t.game_id AND g.id = $2::uuid WHERE t.token_hash = $1"
/* what a move reads from the game row it locks (game_lock, move_lock; games.c: cd_game_lock_row); move_lock
 * leaves out the snapshot of a state carcd holds, as the seat reads do */
#define LOCK_COLUMNS_WITH(snapshot) "g.seq, g.status, " snapshot ", s.seed, g.clock"
#define LOCK_COLUMNS LOCK_COLUMNS_WITH("g.snapshot")
/* What a lock's statement must not read itself: the moves after the checkpoint. A statement that waited for
 * the row lock reads the row as its holder committed it, but any other table as it was when the statement
 * began (READ COMMITTED): the moves its holder just wrote would be missing. So a statement of its own, pipelined
 * behind the lock, reads them (and snapshot_seq with them) as committed by then: ST_GAME_TAIL after
 * ST_GAME_LOCK, and the last columns of ST_MOVE_AFTER_LOCK after ST_MOVE_LOCK. $2 / $4: the seq of the
 * state this process holds (-1: none), at which they are left out with the snapshot. */
#define TAIL_AFTER_LOCK(cached)                                                                               \
    "c.snapshot_seq, c.tail FROM games cg LEFT JOIN LATERAL (SELECT cg.snapshot_seq, CASE WHEN "               \
    "cg.snapshot_seq < cg.seq AND cg.seq <> " cached "::integer THEN " MOVES_AFTER_CHECKPOINT_OF("cg")         \
    " END AS tail) c ON true"
#define LOCK_FROM "FROM games g JOIN game_secrets s ON s.game_id = g.id"

static const cd_stmt_info stmts[] = {
    {ST_GAME_LOCK, "game_lock", "SELECT " LOCK_COLUMNS " " LOCK_FROM " WHERE g.id = $1::uuid FOR UPDATE OF g", 1},
    {ST_GAME_TAIL, "game_tail", "SELECT " TAIL_AFTER_LOCK("$2") " WHERE cg.id = $1::uuid", 2},
    /* a move's first statement: the token's seat, and its game locked, unless the token is another game's (no
     * row: no such token); the lock columns first, as in game_lock (the snapshot NULL when the game is at $3,
     * the seq of the state carcd holds), then the token's two */
    {ST_MOVE_LOCK, "move_lock",
                   "SELECT l.*, t.game_id = $1::uuid, t.seat FROM seats t LEFT JOIN LATERAL (SELECT "
                   LOCK_COLUMNS_WITH(SNAPSHOT_UNLESS_CACHED) " " LOCK_FROM " WHERE g.id = t.game_id "
                   "AND g.id = $1::uuid FOR UPDATE OF g) l ON true WHERE t.token_hash = $2",
                   3},
    /* the move's second, pipelined behind the lock and so reading what the lock's previous holder committed:
     * the game's enabled webhook endpoints (none: the move skips the outbox) and the answer already stored for
     * this seat's idempotency key (NULL key: none) with the hash of the request it answered (NULL: stored
     * before 005_idempotency_request.sql), the seq of its move (the answer is derived from the log since
     * 010_compact_log.sql: game/move_log.h), whether a bot plays the token's seat now (a seat that left to a
     * bot under bot_after_leave: read here, behind the lock, so a resignation just committed counts; NULL when
     * no seat has the token any more: a renewal committed while the move waited) and its
     * seats linked to a player (none: the move writes no player events, sql/009); then the snapshot's seq and the
     * moves after it (TAIL_AFTER_LOCK: NULL at $4, the seq of the state carcd holds) */
    {ST_MOVE_AFTER_LOCK, "move_after_lock",
                         "SELECT (SELECT count(*) FROM webhook_endpoints e WHERE e.game_id = $1::uuid "
                         "AND e.disabled_at IS NULL AND e.gone_at IS NULL), m.response, m.request_sha256, m.seq, "
                         "(SELECT b.bot IS NOT NULL FROM seats b WHERE b.token_hash = $2), "
                         "(SELECT count(*) FROM seats p WHERE p.game_id = $1::uuid AND p.player_id IS NOT NULL), "
                         "ck.snapshot_seq, ck.tail FROM (SELECT 1) one "
                         "LEFT JOIN (moves m JOIN seats t ON t.game_id = m.game_id AND t.seat = m.seat) "
                         "ON t.token_hash = $2 AND m.game_id = $1::uuid AND m.idempotency_key = $3 "
                         "LEFT JOIN (SELECT " TAIL_AFTER_LOCK("$4") " WHERE cg.id = $1::uuid) ck ON true",
                         4},
    /* A move sent in one round trip (cd_move_guard_deferred): the row locked first, then, in a statement of its
     * own and so reading what the lock's previous holder committed, the guard that the game is what the state
     * cache and the move computed from it assumed: at the seq held, active, without a clock; the token the
     * pending seat's, no bot on it; no enabled webhook endpoint (the move wrote no outbox rows); no seat
     * linked to a player when the move wrote no player events ($6); the Idempotency-Key not used by this seat
     * yet. Anything else raises CD001 (sql/016_move_guard.sql), and the writes queued behind it are skipped. */
    {ST_MOVE_FAST_LOCK, "move_fast_lock", "SELECT 1 FROM games g WHERE g.id = $1::uuid FOR UPDATE OF g", 1},
    {ST_MOVE_GUARD, "move_guard",
                    "SELECT carcd_guard(EXISTS (SELECT 1 FROM games g JOIN seats t ON t.game_id = g.id "
                    "WHERE g.id = $1::uuid AND g.seq = $3::integer AND g.status = 'active' AND g.clock IS NULL "
                    "AND t.token_hash = $2 AND t.seat = $4::integer AND t.bot IS NULL) "
                    "AND NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.game_id = $1::uuid "
                    "AND e.disabled_at IS NULL AND e.gone_at IS NULL) "
                    "AND NOT ($6::boolean AND EXISTS (SELECT 1 FROM seats p WHERE p.game_id = $1::uuid "
                    "AND p.player_id IS NOT NULL)) "
                    "AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = $1::uuid AND m.seat = $4::integer "
                    "AND m.idempotency_key = $5))",
                    6},
    /* the seed leaves game_secrets only once the game is over: it is revealed then */
    {ST_GAME_GET, "game_get",
                  "SELECT " GAME_COLUMNS ", CASE WHEN g.status = 'finished' THEN s.seed END, " SEAT_NAMES ", g.clock, " SEAT_BOTS
                  ", " TAIL ", " TAIL_SEED " FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                  1},
    {ST_GAME_GET_ADMIN, "game_get_admin",
                        "SELECT " GAME_COLUMNS ", s.seed, " SEAT_NAMES ", g.clock, " SEAT_BOTS ", " TAIL ", s.seed"
                        " FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                        1},
    {ST_GAME_GET_SEAT, "game_get_seat",
                       "SELECT " GAME_COLUMNS_WITH(SNAPSHOT_UNLESS_CACHED) ", CASE WHEN g.status = 'finished' "
                       "THEN s.seed END, " SEAT_NAMES ", g.clock, " SEAT_BOTS ", " TAIL_UNLESS_CACHED ", "
                       TAIL_SEED_UNLESS_CACHED BY_TOKEN,
                       3},
    /* what legal-moves reads: the columns of game_get it uses (no set-up, times or names), the others NULL */
    {ST_GAME_GET_PLAY, "game_get_play",
                       "SELECT g.seq, g.status, NULL, " SNAPSHOT_UNLESS_CACHED ", g.seed_sha256, NULL, NULL, NULL, "
                       "CASE WHEN g.status = 'finished' THEN s.seed END, NULL, NULL, NULL, " TAIL_UNLESS_CACHED ", "
                       TAIL_SEED_UNLESS_CACHED BY_TOKEN,
                       3},
    {ST_TOKEN_LOOKUP, "token_lookup", "SELECT game_id, seat, bot IS NOT NULL, left_to_bot FROM seats WHERE token_hash = $1", 1},
};
const cd_stmt_family cd_stmts_game_reads = {stmts, sizeof stmts / sizeof stmts[0]};

/* The status's flags (g->seq read first). A game with no state yet waits for its seats, or was cancelled so
 * (sql/008: seq 0); a game the admin cancelled once it had started has a state, and its cancel is an entry
 * of its log (seq >= 1, admin_cancel.c): it is over, as a finished game is, with no winner. */
static void status_flags(cd_game_read *g, const char *status)
{
    bool cancelled = strcmp(status, "cancelled") == 0;
    g->unstarted = strcmp(status, "waiting") == 0 || (cancelled && g->seq == 0);
    g->cancelled = cancelled && !g->unstarted;
    g->finished = g->cancelled || strcmp(status, "finished") == 0;
}

/* Row 0 of a ST_GAME_GET-shaped result: seq, status, setup, snapshot, seed_sha256, created_at, updated_at,
 * finished_at, seed, names, clock, bots, snapshot_seq, the moves after it, their seed. */
static void get_columns(PGresult *res, cd_game_read *g)
{
    g->res = res;
    g->found = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0);
    if (!g->found)
        return;
    g->seq = atoi(PQgetvalue(res, 0, 0));
    status_flags(g, PQgetvalue(res, 0, 1));
    g->setup = PQgetvalue(res, 0, 2);
    g->snapshot = PQgetvalue(res, 0, 3);
    g->seed_sha256 = PQgetvalue(res, 0, 4);
    g->created_at = PQgetvalue(res, 0, 5);
    g->updated_at = PQgetvalue(res, 0, 6);
    g->finished_at = PQgetvalue(res, 0, 7);
    g->seed = PQgetvalue(res, 0, 8);
    g->names = cd_q_text(res, 0, 9);
    g->clock = cd_q_text(res, 0, 10);
    g->bots = cd_q_text(res, 0, 11);
    g->snapshot_seq = atoi(PQgetvalue(res, 0, 12));
    g->tail = cd_q_text(res, 0, 13);
    g->tail_seed = PQgetvalue(res, 0, 14);
}

/* Row 0 of a result that starts with LOCK_COLUMNS: seq, status, snapshot, seed, clock; and row 0 of `tail`,
 * columns `at` and at + 1 (TAIL_AFTER_LOCK: snapshot_seq, the moves after it, whose seed is the seed). */
static void lock_columns(PGresult *res, PGresult *tail, int at, cd_game_read *g)
{
    g->res = res;
    g->found = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0);
    if (!g->found)
        return;
    g->seq = atoi(PQgetvalue(res, 0, 0));
    status_flags(g, PQgetvalue(res, 0, 1));
    g->setup = g->seed_sha256 = g->created_at = g->updated_at = g->finished_at = "";
    g->snapshot = PQgetvalue(res, 0, 2);
    g->seed = PQgetvalue(res, 0, 3);
    g->clock = cd_q_text(res, 0, 4);
    g->snapshot_seq = atoi(PQgetvalue(tail, 0, at));
    g->tail = cd_q_text(tail, 0, at + 1);
    g->tail_seed = g->seed;
}

void cd_game_read_free(cd_game_read *g)
{
    PQclear(g->res);
    PQclear(g->tail_res);
    *g = (cd_game_read){0};
}

cd_q cd_game_read_get(cd_db *db, const char *id, bool admin, cd_game_read *out)
{
    *out = (cd_game_read){0};
    const char *p[] = {id};
    PGresult *res;
    cd_q q = cd_q_result(db, admin ? ST_GAME_GET_ADMIN : ST_GAME_GET, 1, p, &res);
    if (q == CD_Q_OK)
        get_columns(res, out);
    return q;
}

cd_q cd_game_read_lock(cd_db *db, const char *id, cd_game_read *out)
{
    *out = (cd_game_read){0};
    const char *p1[] = {id};
    const char *p2[] = {id, "-1"};
    const cd_db_call calls[] = {{ST_GAME_LOCK, 1, p1}, {ST_GAME_TAIL, 2, p2}};
    PGresult *res[2];
    if (!cd_db_exec_many(db, 2, calls, res)) {
        PQclear(res[0]);
        PQclear(res[1]);
        return CD_Q_FAILED;
    }
    out->tail_res = res[1];
    if (PQntuples(res[0]) > 0 && PQntuples(res[1]) > 0)
        lock_columns(res[0], res[1], 0, out);
    else
        out->res = res[0];
    return CD_Q_OK;
}

cd_q cd_game_read_seat(cd_db *db, const char *token_hash, const char *id, const char *cached_seq, bool names,
                       cd_token_seat *token, cd_game_read *out)
{
    *out = (cd_game_read){0};
    *token = (cd_token_seat){0};
    const char *p[] = {token_hash, id, cached_seq};
    PGresult *res;
    cd_q q = cd_q_result(db, names ? ST_GAME_GET_SEAT : ST_GAME_GET_PLAY, 3, p, &res);
    if (q != CD_Q_OK)
        return q;
    token->found = PQntuples(res) > 0;
    if (token->found) {   /* columns 15-17: whether the token's game is this one, its seat, a bot's (BY_TOKEN) */
        token->same_game = strcmp(PQgetvalue(res, 0, 15), "t") == 0;
        token->seat = atoi(PQgetvalue(res, 0, 16));
        token->bot = strcmp(PQgetvalue(res, 0, 17), "t") == 0;
    }
    get_columns(res, out);
    return CD_Q_OK;
}

/* A ST_TOKEN_LOOKUP row (game_id, seat) read into the seat it names, against the game it is asked about. */
typedef struct {
    cd_token_seat *token;
    const char *id;
} token_row;

static void token_columns(const PGresult *res, int i, void *row)
{
    token_row *t = row;
    t->token->same_game = strcasecmp(PQgetvalue(res, i, 0), t->id) == 0;
    t->token->seat = atoi(PQgetvalue(res, i, 1));
    t->token->bot = strcmp(PQgetvalue(res, i, 2), "t") == 0;
    t->token->left_to_bot = strcmp(PQgetvalue(res, i, 3), "t") == 0;
}

cd_q cd_token_lookup(cd_db *db, const char *token_hash, const char *id, cd_token_seat *token)
{
    *token = (cd_token_seat){0};
    const char *p[] = {token_hash};
    token_row t = {token, id};
    return cd_q_one(db, ST_TOKEN_LOOKUP, 1, p, &token->found, token_columns, &t);
}

cd_q cd_move_lock(cd_db *db, const char *id, const char *token_hash, const char *cached_seq, const char *idem,
                  cd_move_lock_read *out)
{
    *out = (cd_move_lock_read){0};
    const char *p1[] = {id, token_hash, cached_seq};
    const char *p2[] = {id, token_hash, idem, cached_seq};
    const cd_db_call calls[] = {{ST_MOVE_LOCK, 3, p1}, {ST_MOVE_AFTER_LOCK, 4, p2}};
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
    lock_columns(lock, after, 6, &out->game);   /* after: the snapshot's seq and the moves after it, last */
    out->after = after;
    out->hooks = atoi(PQgetvalue(after, 0, 0));
    out->stored_answer = cd_q_text(after, 0, 1);
    out->stored_request_sha256 = cd_q_text(after, 0, 2);
    out->key_seq = cd_q_int(after, 0, 3, -1);
    out->bot_seat = strcmp(PQgetvalue(after, 0, 4), "t") == 0;
    out->token_gone = PQgetisnull(after, 0, 4);
    out->linked = atoi(PQgetvalue(after, 0, 5));
    return CD_Q_OK;
}

void cd_move_lock_read_free(cd_move_lock_read *m)
{
    cd_game_read_free(&m->game);
    PQclear(m->after);
    *m = (cd_move_lock_read){0};
}

bool cd_move_guard_deferred(cd_db *db, const char *id, const char *token_hash, int seq, int seat, const char *idem,
                            bool no_linked)
{
    char seq_text[CD_INT_TEXT], seat_text[CD_INT_TEXT];
    cd_int_text(seq, seq_text);
    cd_int_text(seat, seat_text);
    const char *p1[] = {id};
    const char *p2[] = {id, token_hash, seq_text, seat_text, idem, no_linked ? "true" : "false"};
    return cd_db_defer(db, ST_MOVE_FAST_LOCK, 1, p1) && cd_db_defer(db, ST_MOVE_GUARD, 6, p2);
}
