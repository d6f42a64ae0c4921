/*
 * test_storage.c — what a game keeps (sql/010_compact_log.sql): its set-up and its moves; events derived by
 * replay; a finished game compacted into its games row; a move's answer kept for the idempotency window only.
 *
 * One daemon on one database, restarted between phases with other settings:
 *   A. clock worker on (every 50 ms), CARCD_TIME_FILE: game X (3 seats, every expansion, a turn clock with
 *      timeout skip) gets a move from the clock and a resignation;
 *   B. clock worker off (nothing is compacted): X ends with a second resignation, Y (base, 2 seats) is played
 *      to its end, Z (base, 2 seats) too and then rewritten by SQL into the form rows had before 010 (events
 *      and answers stored, the answers two days old); V, in play, has rows of both forms, its log read from
 *      them equal to its log replayed. The answers of every read we compare are taken, then
 *      again after a restart (the event cache empty: every event derived by replay) — the same bytes;
 *   C. clock worker on again: X, Y and Z get compacted (their rows deleted, `log` set), Z's old answers go
 *      with its rows; every read answers the same bytes as in B for X and Y (the same JSON for Z, whose stored
 *      events were jsonb, in its key order), carcctl imports X's compacted export into the same state, and an
 *      Idempotency-Key of game W (in play) answers its first answer until the window is over, then is a new
 *      request refused as a stale seq; a compact log that does not replay answers 500 and fails verify.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define NREADS 16

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static char time_path[400], env_time[420];
static const char *env_clock_on = "CARCD_CLOCK_INTERVAL_MS=50", *env_clock_off = "CARCD_CLOCK_INTERVAL_MS=0";

static void set_time(double t)
{
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", time_path);
    FILE *f = fopen(tmp, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%.3f\n", t);
    fclose(f);
    ck_assert_int_eq(rename(tmp, time_path), 0);
}

static void restart(e2e_daemon *d, e2e_client *c, const char *clock_env)
{
    e2e_daemon_stop(d);
    d->extra_env[0] = env_time;
    d->extra_env[1] = clock_env;
    d->extra_env[2] = NULL;
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
}

/* ---- SQL on the daemon's database ---------------------------------------------------------------------------- */
static PGconn *db_open(const e2e_daemon *d)
{
    PGconn *c = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    return c;
}

static void db_exec(PGconn *c, const char *sql, int n, const char *const *p)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, p, NULL, NULL, 0);
    ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
                  PQerrorMessage(c));
    PQclear(r);
}

static long db_long(PGconn *c, const char *sql, const char *id)
{
    const char *p[] = {id};
    PGresult *r = PQexecParams(c, sql, id ? 1 : 0, NULL, id ? p : NULL, NULL, NULL, 0);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1, "%s: %s", sql, PQerrorMessage(c));
    long v = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    return v;
}

/* ---- playing ------------------------------------------------------------------------------------------------- */
static int game_seq(e2e_client *c, const e2e_game *g, int *pending)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seq = (int)e2e_jint(v, "seq");
    if (pending)
        *pending = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    return seq;
}

static void play(e2e_client *c, const e2e_game *g, e2e_rng *rng, int moves)
{
    for (int i = 0; i < moves; i++) {
        static int keys;
        char key[64];
        snprintf(key, sizeof key, "k-%s-%d", g->id, keys++);
        e2e_play p;
        long st = e2e_play_random(c, g, rng, key, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            return;
        ck_assert_int_eq(st, 200);
    }
}

static void resign_pending(e2e_client *c, const e2e_game *g)
{
    int seat;
    game_seq(c, g, &seat);
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/resign", g->id);
    e2e_resp r;
    long st = e2e_req(c, "POST", path, g->token[seat], "{}", NULL, &r);
    ck_assert_msg(st == 200, "resign: %ld %s", st, r.body);
    e2e_resp_free(&r);
}

/* ---- the reads compared -------------------------------------------------------------------------------------- */
typedef struct {
    long status[NREADS];
    char *body[NREADS];
    size_t len[NREADS];
    char what[NREADS][200];
    int n;
} reads;

static void read_one(e2e_client *c, reads *R, const char *method, const char *path, const char *token,
                     const char *const *headers)
{
    e2e_resp r;
    long st = e2e_req(c, method, path, token, method[0] == 'P' ? "{}" : NULL, headers, &r);
    ck_assert_int_lt(R->n, NREADS);
    R->status[R->n] = st;
    R->len[R->n] = r.len;
    R->body[R->n] = malloc(r.len + 1);
    memcpy(R->body[R->n], r.body, r.len + 1);
    snprintf(R->what[R->n], sizeof R->what[0], "%s %s%s", method, path, token ? " (token)" : "");
    /* the clock's "now" moves with the test's time, the page's script nonce is new in every answer (its CSP):
     * both masked */
    for (char *n = R->body[R->n]; (n = strstr(n, "\"now\":\"")) != NULL;)
        for (n += 7; *n && *n != '"'; n++)
            *n = 'x';
    for (char *n = R->body[R->n]; (n = strstr(n, "nonce=\"")) != NULL;)
        for (n += 7; *n && *n != '"'; n++)
            *n = 'x';
    ck_assert_msg(st == 200, "%s: %ld %s", R->what[R->n], st, r.body);
    R->n++;
    e2e_resp_free(&r);
}

/* Everything a finished game answers that compaction must leave as it is. */
static void read_all(e2e_client *c, const e2e_daemon *d, const e2e_game *g, int seq, reads *R)
{
    memset(R, 0, sizeof *R);
    char p[300];
    static const char *const sse[] = {"Accept: text/event-stream", NULL};
    snprintf(p, sizeof p, "/v1/games/%s/events?after=-1", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    read_one(c, R, "GET", p, g->token[0], NULL);
    read_one(c, R, "GET", p, d->admin, NULL);
    snprintf(p, sizeof p, "/v1/games/%s/events?after=100", g->id);
    read_one(c, R, "GET", p, g->token[1], NULL);
    snprintf(p, sizeof p, "/v1/games/%s/events?after=%d", g->id, seq - 3);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/v1/games/%s/events?after=-1&wait=0", g->id);
    read_one(c, R, "GET", p, NULL, sse);
    snprintf(p, sizeof p, "/v1/admin/games/%s/export", g->id);
    read_one(c, R, "GET", p, d->admin, NULL);
    snprintf(p, sizeof p, "/v1/admin/games/%s/verify", g->id);
    read_one(c, R, "POST", p, d->admin, NULL);
    snprintf(p, sizeof p, "/v1/games/%s/board.svg?seq=1", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/v1/games/%s/board.svg?seq=%d", g->id, seq / 2);
    read_one(c, R, "GET", p, g->token[0], NULL);
    snprintf(p, sizeof p, "/v1/games/%s/board.png?seq=%d", g->id, seq - 1);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/v1/games/%s/board.svg", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/v1/games/%s", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/games/%s", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
}

static void reads_free(reads *R)
{
    for (int i = 0; i < R->n; i++)
        free(R->body[i]);
    R->n = 0;
}

/* The same bytes (json_only: the same JSON, for what was stored as jsonb before 010; images as bytes). */
static void reads_same(const reads *a, const reads *b, bool json_only, const char *what)
{
    ck_assert_int_eq(a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        ck_assert_msg(a->status[i] == b->status[i], "%s: %s: status %ld, then %ld", what, a->what[i], a->status[i],
                      b->status[i]);
        json_t *ja = json_only ? json_loads(a->body[i], 0, NULL) : NULL, *jb = ja ? json_loads(b->body[i], 0, NULL) : NULL;
        bool same = ja ? json_equal(ja, jb)
                       : a->len[i] == b->len[i] && memcmp(a->body[i], b->body[i], a->len[i]) == 0;
        if (!same && json_only && !ja && strstr(a->what[i], "events")) {   /* the SSE frames: JSON per data line */
            same = true;
            const char *pa = a->body[i], *pb = b->body[i];
            while (same && (pa = strstr(pa, "data: ")) && (pb = strstr(pb, "data: "))) {
                json_t *x = json_loads(pa + 6, JSON_DISABLE_EOF_CHECK, NULL), *y = json_loads(pb + 6, JSON_DISABLE_EOF_CHECK, NULL);
                same = x && json_equal(x, y);
                json_decref(x);
                json_decref(y);
                pa += 6;
                pb += 6;
            }
        }
        json_decref(ja);
        json_decref(jb);
        size_t at = 0;
        while (!same && at < a->len[i] && at < b->len[i] && a->body[i][at] == b->body[i][at])
            at++;
        size_t from = at > 200 ? at - 200 : 0;
        ck_assert_msg(same, "%s: %s answers differently from byte %zu:\n%.400s\n---\n%.400s", what, a->what[i], at,
                      a->body[i] + from, b->body[i] + from);
    }
}

/* Rewrites game g's rows into their form before 010: every row keeps its events (from the admin log) and an
 * answer two days old. */
static void to_old_form(e2e_client *c, const e2e_daemon *d, PGconn *db, const e2e_game *g)
{
    long st;
    json_t *log = e2e_events_log(c, g->id, d->admin, &st);
    ck_assert_ptr_nonnull(log);
    size_t i;
    json_t *e;
    db_exec(db, "BEGIN", 0, NULL);
    json_array_foreach(log, i, e) {
        char *events = json_dumps(json_object_get(e, "events"), JSON_COMPACT), seq[16], answer[64];
        snprintf(seq, sizeof seq, "%lld", e2e_jint(e, "seq"));
        snprintf(answer, sizeof answer, "{\"seq\": %s, \"events\": []}", seq);
        const char *p[] = {g->id, seq, events, answer};
        db_exec(db, "UPDATE moves SET events = $3::jsonb, response = $4::jsonb, "
                    "created_at = now() - interval '2 days' WHERE game_id = $1::uuid AND seq = $2::integer",
                4, p);
        free(events);
    }
    db_exec(db, "COMMIT", 0, NULL);
    json_decref(log);
    ck_assert_int_eq(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid AND events IS NULL", g->id), 0);
}

static int run_carcctl(const e2e_daemon *d, const char *args, char **out)
{
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "'%s' --server '%s' --token '%s' --as e2e %s 2>'%s/carcctl.err'", CARCCTL_BIN, d->base,
             d->admin, args, d->dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 20, len = 0, k;
    char *buf = malloc(cap);
    while ((k = fread(buf + len, 1, cap - len - 1, p)) > 0)
        len += k;
    buf[len] = 0;
    int rc = pclose(p);
    *out = buf;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

START_TEST(compacted_games_answer_the_same)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(time_path, sizeof time_path, "%s/carcd-storage-time.%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    snprintf(env_time, sizeof env_time, "CARCD_TIME_FILE=%s", time_path);
    double t0 = (double)time(NULL);
    set_time(t0);
    const char *env[] = {env_time, env_clock_on, NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    PGconn *db = db_open(d);
    e2e_rng rng = {0x5eed};

    /* A: X gets a move from the turn clock and loses a seat */
    e2e_game X, Y, Z, W;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]",
                                         "{\"clock\":{\"per_move_s\":60,\"reserve_s\":0,\"timeout\":\"skip\"}}", false, &X),
                     201);
    play(c, &X, &rng, 7);
    int before = game_seq(c, &X, NULL);
    set_time(t0 + 1000);   /* the waited-for seat runs out of time: the clock moves for it */
    for (int i = 0; i < 200 && game_seq(c, &X, NULL) == before; i++)
        sleep_ms(50);
    ck_assert_int_gt(game_seq(c, &X, NULL), before);
    ck_assert_int_gt(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid AND origin = 'clock'",
                             X.id), 0);
    play(c, &X, &rng, 6);
    resign_pending(c, &X);
    play(c, &X, &rng, 9);

    /* B: nothing is compacted */
    restart(d, c, env_clock_off);
    resign_pending(c, &X);   /* one seat is left: X is over */
    e2e_game_create(c, 2, NULL, &Y);
    play(c, &Y, &rng, 100000);
    e2e_game_create(c, 2, NULL, &Z);
    play(c, &Z, &rng, 100000);
    e2e_game_create(c, 2, NULL, &W);
    play(c, &W, &rng, 3);
    const e2e_game *games[] = {&X, &Y, &Z};
    int seqs[3];
    for (int k = 0; k < 3; k++) {
        int pending = 0;
        seqs[k] = game_seq(c, games[k], &pending);
        ck_assert_int_eq(pending, -1);
        ck_assert_int_eq(db_long(db, "SELECT count(*) FROM games WHERE id = $1::uuid AND status = 'finished' "
                                     "AND log IS NULL", games[k]->id), 1);
        ck_assert_int_eq(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid AND events IS NOT NULL",
                                 games[k]->id), 0);
    }
    to_old_form(c, d, db, &Z);
    /* W: a key's retry gets the first answer */
    int wseq, wseat;
    wseq = game_seq(c, &W, &wseat);
    char legal_path[200], move_path[200], body[1200];
    snprintf(legal_path, sizeof legal_path, "/v1/games/%s/legal-moves?format=text", W.id);
    snprintf(move_path, sizeof move_path, "/v1/games/%s/moves", W.id);
    e2e_resp lr, first, again;
    ck_assert_int_eq(e2e_req(c, "GET", legal_path, W.token[wseat], NULL, NULL, &lr), 200);
    char *line = strchr(lr.body, '\n');
    ck_assert_ptr_nonnull(line);
    char *end = strchr(line + 1, '\n');
    if (end)
        *end = 0;
    snprintf(body, sizeof body, "{\"notation\": \"%s\", \"expected_seq\": %d}", line + 1, wseq);
    static const char *const idem[] = {"Idempotency-Key: storage-w-1", NULL};
    ck_assert_int_eq(e2e_req(c, "POST", move_path, W.token[wseat], body, idem, &first), 200);
    ck_assert_int_eq(e2e_req(c, "POST", move_path, W.token[wseat], body, idem, &again), 200);
    ck_assert_str_eq(first.body, again.body);   /* derived from the log: byte for byte */
    e2e_resp_free(&again);

    /* V: a game in play whose first rows are in the old form, its later ones in the new: one log */
    e2e_game V;
    e2e_game_create(c, 3, "[\"hills_sheep\",\"fruit_trees\"]", &V);
    play(c, &V, &rng, 8);
    to_old_form(c, d, db, &V);
    play(c, &V, &rng, 5);
    long vst;
    json_t *vlog_mixed = e2e_events_log(c, V.id, d->admin, &vst);
    ck_assert_ptr_nonnull(vlog_mixed);
    e2e_assert_log_complete(vlog_mixed, game_seq(c, &V, NULL), "a log of both forms");

    reads rb[3], rc[3], ra[3];
    for (int k = 0; k < 3; k++)
        read_all(c, d, games[k], seqs[k], &rb[k]);
    restart(d, c, env_clock_off);   /* the event cache is empty: everything is replayed */
    json_t *vlog_replayed = e2e_events_log(c, V.id, d->admin, &vst);
    ck_assert_msg(json_equal(vlog_mixed, vlog_replayed), "V's log read from stored events and the cache differs "
                                                         "from its log replayed");
    json_decref(vlog_mixed);
    json_decref(vlog_replayed);
    for (int k = 0; k < 3; k++) {
        read_all(c, d, games[k], seqs[k], &rc[k]);
        reads_same(&rb[k], &rc[k], false, "derived again after a restart");
        reads_free(&rc[k]);
    }

    /* C: compacted; the idempotency window is over for what is older than a day */
    set_time(t0 + 86400 + 3600);
    restart(d, c, env_clock_on);
    for (int i = 0; i < 400; i++) {
        if (db_long(db, "SELECT count(*) FROM games WHERE status = 'finished' AND log IS NULL", NULL) == 0 &&
            db_long(db, "SELECT count(*) FROM moves WHERE response IS NOT NULL OR idempotency_key IS NOT NULL",
                    NULL) == 0)
            break;
        sleep_ms(50);
    }
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid", games[k]->id), 0);
        ck_assert_int_eq(db_long(db, "SELECT count(*) FROM games WHERE id = $1::uuid AND log IS NOT NULL",
                                 games[k]->id), 1);
        ck_assert_int_eq(db_long(db, "SELECT length(log) - length(replace(log, chr(10), '')) FROM games "
                                     "WHERE id = $1::uuid", games[k]->id), seqs[k]);
        read_all(c, d, games[k], seqs[k], &ra[k]);
        reads_same(&rb[k], &ra[k], k == 2, k == 2 ? "old form, then compacted" : "compacted");
        reads_free(&rb[k]);
        reads_free(&ra[k]);
    }
    ck_assert_int_eq(db_long(db, "SELECT count(*) FROM games WHERE id = $1::uuid AND log ~ '(^|\n)[0-9]c '", X.id), 1);
    ck_assert_int_eq(db_long(db, "SELECT count(*) FROM games WHERE id = $1::uuid AND log LIKE '%!leave%'", X.id), 1);

    /* W's key has expired: the same request again is a new one, refused as a stale seq */
    ck_assert_int_eq(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid AND idempotency_key IS NOT NULL",
                             W.id), 0);
    long st = e2e_req(c, "POST", move_path, W.token[wseat], body, idem, &again);
    ck_assert_int_eq(st, 409);
    ck_assert(e2e_problem_is(&again, "stale-seq"));
    e2e_resp_free(&again);
    e2e_resp_free(&first);
    e2e_resp_free(&lr);

    /* carcctl import of a compacted game's export: the same final state */
    char args[800], *out;
    snprintf(args, sizeof args, "export %s -o '%s/x.json'", X.id, d->dir);
    ck_assert_int_eq(run_carcctl(d, args, &out), 0);
    free(out);
    snprintf(args, sizeof args, "--json import '%s/x.json'", d->dir);
    int rc_import = run_carcctl(d, args, &out);
    json_t *imported = json_loads(out, 0, NULL);
    ck_assert_msg(rc_import == 0 && json_is_true(json_object_get(imported, "same_state")), "import: %d %s", rc_import,
                  out);
    json_decref(imported);
    free(out);

    /* a compact log that does not replay is no crash: the events are a 500 problem, verify says where */
    const char *bad[] = {Y.id};
    db_exec(db, "UPDATE games SET log = '0 E 99,99 r9' || chr(10) || '1 nonsense' || chr(10) WHERE id = $1::uuid", 1,
            bad);
    char p[300];
    snprintf(p, sizeof p, "/v1/games/%s/events?after=-1", Y.id);
    st = e2e_req(c, "GET", p, NULL, NULL, NULL, &again);
    e2e_assert_problem(&again, 500, NULL, "events of a log that does not replay");
    e2e_resp_free(&again);
    snprintf(p, sizeof p, "/v1/admin/games/%s/verify", Y.id);
    json_t *v = NULL;
    st = e2e_req(c, "POST", p, d->admin, "{}", NULL, &again);
    ck_assert_int_eq(st, 200);
    v = again.json;
    ck_assert(json_is_false(json_object_get(v, "ok")));
    ck_assert_int_eq(e2e_jint(v, "failed_at_seq"), 1);
    e2e_resp_free(&again);

    PQfinish(db);
    e2e_client_free(c);
    e2e_daemon_down(d);
    unlink(time_path);
}
END_TEST

/* Everything a game in play answers from its state, for every viewer. */
static void read_state(e2e_client *c, const e2e_daemon *d, const e2e_game *g, int nseats, reads *R)
{
    memset(R, 0, sizeof *R);
    char p[300];
    int pending;
    game_seq(c, g, &pending);
    snprintf(p, sizeof p, "/v1/games/%s", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    read_one(c, R, "GET", p, d->admin, NULL);
    for (int k = 0; k < nseats; k++)
        read_one(c, R, "GET", p, g->token[k], NULL);
    snprintf(p, sizeof p, "/v1/games/%s/legal-moves", g->id);
    read_one(c, R, "GET", p, g->token[pending], NULL);
    snprintf(p, sizeof p, "/v1/games/%s/legal-moves?format=text", g->id);
    read_one(c, R, "GET", p, g->token[pending], NULL);
    snprintf(p, sizeof p, "/v1/games/%s/board.svg", g->id);
    read_one(c, R, "GET", p, NULL, NULL);
    snprintf(p, sizeof p, "/v1/admin/games/%s/export", g->id);
    read_one(c, R, "GET", p, d->admin, NULL);
}

static long snapshot_seq(PGconn *db, const e2e_game *g)
{
    return db_long(db, "SELECT snapshot_seq FROM games WHERE id = $1::uuid", g->id);
}

/* sql/017: with CARCD_SNAPSHOT_EVERY=5 a game row's snapshot is the state after seq 5, 10, ... (and the last
 * move); a carcd that does not hold the state (here: just restarted) decodes that checkpoint and applies the
 * moves after it, a leave and a bot's moves among them, and answers every read — public, each seat's, the
 * admin's, the legal moves — with the bytes the carcd that made the moves answered from its state cache. Its
 * moves then go on from there (the first one the long way, the lock reading the moves after the checkpoint),
 * verify replays to the checkpoint and to the end, and a log with a gap after the checkpoint is an error,
 * not a wrong state. */
START_TEST(checkpointed_games_read_the_same)
{
    const char *env[] = {"CARCD_SNAPSHOT_EVERY=5", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    PGconn *db = db_open(d);
    e2e_rng rng = {0xc4ec};
    e2e_game G, H;
    e2e_game_create(c, 3, "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]", &G);
    e2e_game_create(c, 2, "[]", &H);
    play(c, &G, &rng, 11);
    resign_pending(c, &G);   /* a leave among the moves after a checkpoint */
    play(c, &G, &rng, 2);
    play(c, &H, &rng, 8);
    ck_assert_int_eq(game_seq(c, &G, NULL), 14);   /* 11 moves, the leave at 12, 2 moves */
    ck_assert_int_eq(snapshot_seq(db, &G), 10);
    ck_assert_int_eq(snapshot_seq(db, &H), 5);
    ck_assert_int_eq(db_long(db, "SELECT count(*) FROM moves WHERE game_id = $1::uuid AND seq > "
                                 "(SELECT snapshot_seq FROM games WHERE id = $1::uuid)", H.id), 3);

    /* a new carcd holds no state: its first move locks the game and reads the moves after the checkpoint */
    e2e_daemon_stop(d);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    play(c, &G, &rng, 4);
    ck_assert_int_eq(game_seq(c, &G, NULL), 18);
    ck_assert_int_eq(snapshot_seq(db, &G), 15);

    /* what it answers from the state it holds, and what the next carcd answers from the checkpoint: the same */
    reads held, decoded;
    read_state(c, d, &G, 3, &held);
    e2e_daemon_stop(d);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    read_state(c, d, &G, 3, &decoded);
    reads_same(&held, &decoded, false, "decoded from the checkpoint and the moves after it");
    reads_free(&held);
    reads_free(&decoded);
    ck_assert_int_eq(e2e_verify_ok(c, d, G.id), 18);
    play(c, &H, &rng, 1);   /* H: the long way, from its checkpoint at 5 */
    ck_assert_int_eq(game_seq(c, &H, NULL), 9);

    /* the moves go on from the decoded state, across the next checkpoint, and verify still holds */
    play(c, &G, &rng, 6);
    ck_assert_int_eq(snapshot_seq(db, &G), 20);   /* at seq 24 */
    ck_assert_int_eq(e2e_verify_ok(c, d, G.id), game_seq(c, &G, NULL));
    play(c, &H, &rng, 500);   /* to its end: the last move writes the snapshot */
    ck_assert_int_eq(snapshot_seq(db, &H), game_seq(c, &H, NULL));

    /* a gap after the checkpoint: no state, a 500 naming the stored game, not a wrong state */
    e2e_game K;
    e2e_game_create(c, 2, "[]", &K);
    play(c, &K, &rng, 8);
    e2e_daemon_stop(d);
    const char *pk[] = {K.id};
    db_exec(db, "DELETE FROM moves WHERE game_id = $1::uuid AND seq = 6", 1, pk);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s", K.id);
    e2e_resp r;
    e2e_req(c, "GET", p, NULL, NULL, NULL, &r);
    e2e_assert_problem(&r, 500, NULL, "a gap after the checkpoint");
    e2e_resp_free(&r);

    PQfinish(db);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("storage");
    TCase *tc = e2e_tcase("storage", 600);
    tcase_add_test(tc, compacted_games_answer_the_same);
    tcase_add_test(tc, checkpointed_games_read_the_same);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
