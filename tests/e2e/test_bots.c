/*
 * test_bots.c — bot seats end to end (engine/bot/, daemon/clock/bot_worker.c), through real sockets against
 * the real carcd: a game of three bots finishes by itself, every move logged "by": "bot" and replayed
 * identically by verify; a seat out of time under the clock's "bot" timeout is played by a bot and its player
 * takes it back by moving; two carcd processes on one database play each bot move once; a bot takes a resigned
 * seat under "bot_after_leave" (the seat's old token and player key then only read: 409 seat-left for a move,
 * resign, pause, message); a waiting game with a bot seat and an open one is joined and played to the end, the
 * bot moving by itself, and a bot seat keeps its number through a creator's start with a place still open; bad
 * bot forms are 400s naming their field. The bot worker looks every 10 ms (CARCD_BOT_INTERVAL_MS); the clock's
 * time comes from a file (CARCD_TIME_FILE).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "hooks.h"

#define T0 1900000000.0
#define WAIT_S 120.0

static char time_path[300], env_time[340];

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void set_time(double t)
{
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s.tmp", time_path);
    FILE *f = fopen(tmp, "w");
    ck_assert_msg(f != NULL, "%s: %s", tmp, strerror(errno));
    fprintf(f, "%.3f\n", t);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(rename(tmp, time_path), 0);
}

/* carcd with the test's time file, bots looking every 10 ms, and `extra` (NULL: nothing) in its environment */
static e2e_daemon *up_with(const char *extra)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(time_path, sizeof time_path, "%s/carcd-bots-now.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    snprintf(env_time, sizeof env_time, "CARCD_TIME_FILE=%s", time_path);
    set_time(T0);
    const char *env[] = {env_time, "CARCD_BOT_INTERVAL_MS=10", "CARCD_CLOCK_INTERVAL_MS=20", extra, NULL};
    return e2e_daemon_up(env);
}

static e2e_daemon *up(void)
{
    return up_with(NULL);
}

typedef struct {
    const char *type;
    int seq;
} hook_want;

static bool is_hook(const json_t *j, const void *arg)
{
    const hook_want *w = arg;
    return strcmp(e2e_jstr(j, "type"), w->type) == 0 && e2e_jint(j, "data.seq") == w->seq;
}

/* The first body sent to `path` of type `type` at data.seq `seq`, waiting up to 20 s; NULL when none came. */
static json_t *wait_hook(e2e_hooks *R, const char *path, const char *type, int seq)
{
    hook_want w = {type, seq};
    return e2e_hooks_wait(R, path, is_hook, &w, 20);
}

/* How many events of `type` for seat `seat` an array of events holds. */
static int count_events(const json_t *events, const char *type, int seat)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) n += strcmp(e2e_jstr(e, "type"), type) == 0 && e2e_jint(e, "seat") == seat;
    return n;
}

static void down(e2e_daemon *d)
{
    e2e_daemon_down(d);
    unlink(time_path);
}

/* POST /v1/games with `body`; the 201 answer (owned), g filled. */
static json_t *create(e2e_client *c, const char *body, e2e_game *g)
{
    e2e_resp r;
    long st = e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r);
    ck_assert_msg(st == 201, "POST /v1/games %s: %ld %.400s", body, st, r.body);
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", e2e_jstr(r.json, "id"));
    json_t *ps = json_object_get(r.json, "players");
    g->nplayers = (int)json_array_size(ps);
    for (int i = 0; i < g->nplayers; i++)
        snprintf(g->token[i], sizeof g->token[i], "%s", e2e_jstr(json_array_get(ps, (size_t)i), "token"));
    json_t *a = json_incref(r.json);
    e2e_resp_free(&r);
    return a;
}

static json_t *view(e2e_client *c, const e2e_game *g)
{
    char p[120];
    snprintf(p, sizeof p, "/v1/games/%.36s", g->id);
    return e2e_get_ok(c, p, NULL, 200);
}

/* Waits until the view satisfies `done` (pending seat == want, or status finished when want < 0). */
static json_t *wait_for(e2e_client *c, const e2e_game *g, int want_seat, int min_seq, const char *what)
{
    double end = e2e_now() + WAIT_S;
    for (;;) {
        json_t *v = view(c, g);
        bool ok = want_seat < 0 ? strcmp(e2e_jstr(v, "status"), "finished") == 0
                                : e2e_jint(v, "pending.seat") == want_seat && e2e_jint(v, "seq") >= min_seq;
        if (ok)
            return v;
        ck_assert_msg(e2e_now() < end, "%s: not within %.0f s (seq %lld)", what, WAIT_S, e2e_jint(v, "seq"));
        json_decref(v);
        nap(0.02);
    }
}

/* How many log entries (seq >= 1) have by == `by` (NULL: no by) and seat `seat` (-1: any). */
static int count_by(const json_t *log, const char *by, int seat)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e) {
        if (e2e_jint(e, "seq") < 1 || (seat >= 0 && e2e_jint(e, "seat") != seat))
            continue;
        const char *b = e2e_jstr(e, "by");
        n += by ? strcmp(b, by) == 0 : b[0] == 0;
    }
    return n;
}

START_TEST(three_bots_finish_by_themselves)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    json_t *a = create(c,
                       "{\"players\":[{\"bot\":\"greedy\"},{\"bot\":\"mcts\",\"think_ms\":5},"
                       "{\"bot\":\"greedy\",\"name\":\"Grete\"}],\"expansions\":[\"hills_sheep\",\"fruit_trees\"]}",
                       &g);
    ck_assert_str_eq(e2e_jstr(a, "players.0.name"), "greedy bot");
    ck_assert_str_eq(e2e_jstr(a, "players.0.bot.bot"), "greedy");
    ck_assert_str_eq(e2e_jstr(a, "players.1.bot.bot"), "mcts");
    ck_assert_int_eq(e2e_jint(a, "players.1.bot.think_ms"), 5);
    ck_assert_str_eq(e2e_jstr(a, "players.2.name"), "Grete");
    json_decref(a);
    json_t *v = wait_for(c, &g, -1, 0, "three bots finish");
    int seq = (int)e2e_jint(v, "seq");
    ck_assert_int_gt(seq, 50);
    json_decref(v);
    long st;
    json_t *log = e2e_events_log(c, g.id, NULL, &st);
    ck_assert_msg(log != NULL, "events: %ld", st);
    e2e_assert_log_complete(log, seq, "bots' log");
    ck_assert_int_eq(count_by(log, "bot", -1), seq);   /* every move a bot's */
    for (int s = 0; s < 3; s++)
        ck_assert_int_gt(count_by(log, "bot", s), 0);
    json_decref(log);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq);   /* replayed from seed and log: the same state */
    /* a bot's token reads what a spectator reads (a_bot_seat_shows_its_hand_to_nobody) */
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%.36s", g.id);
    json_decref(e2e_get_ok(c, p, g.token[1], 200));
    e2e_client_free(c);
    down(d);
}
END_TEST

/* The bytes a GET of path answers `token` (NULL: the public), asserting 200 (malloc'd). */
static char *body_as(e2e_client *c, const char *path, const char *token)
{
    e2e_resp r;
    long st = e2e_req(c, "GET", path, token, NULL, NULL, &r);
    ck_assert_msg(st == 200, "GET %s: %ld %.300s", path, st, r.body);
    char *b = strdup(r.body);
    e2e_resp_free(&r);
    return b;
}

/* A seat carcd plays keeps its hidden things (Halb so wild II's hand) from everyone but the admin: the token the
 * creation answered for it reads the view (which says which seat it is), the log and the board as the public
 * does, and its legal moves are 409 seat-left. The game's creator holds that token; with the seat's view it
 * would read the bot's hand. */
START_TEST(a_bot_seat_shows_its_hand_to_nobody)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    json_decref(create(c, "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"greedy\"}],\"expansions\":[\"halflings\"]}",
                       &g));
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%.36s", g.id);
    json_t *ann = e2e_get_ok(c, p, g.token[0], 200);   /* a person's seat sees its own hand */
    ck_assert_int_gt((int)json_array_size(json_object_get(json_object_get(ann, "you"), "hand")), 0);
    json_decref(ann);
    /* the view: the public's, and which seat the token is (the page says that a bot plays it), nothing more */
    snprintf(p, sizeof p, "/v1/games/%.36s", g.id);
    json_t *pv = e2e_get_ok(c, p, NULL, 200), *bv = e2e_get_ok(c, p, g.token[1], 200);
    ck_assert_int_eq(e2e_jint(bv, "you.seat"), 1);
    ck_assert_int_eq((int)json_object_size(json_object_get(bv, "you")), 1);
    json_object_del(bv, "you");
    ck_assert_msg(json_equal(pv, bv), "the bot's token reads more than the public");
    json_decref(pv);
    json_decref(bv);
    static const char *const paths[] = {"/events", "/board.svg"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        snprintf(p, sizeof p, "/v1/games/%.36s%s", g.id, paths[i]);
        char *pub = body_as(c, p, NULL), *bot = body_as(c, p, g.token[1]);
        ck_assert_msg(strcmp(pub, bot) == 0, "%s: the bot's token reads more than the public:\n%s\n%s", p, bot, pub);
        free(pub);
        free(bot);
    }
    snprintf(p, sizeof p, "/v1/games/%.36s/legal-moves", g.id);
    e2e_resp r;
    e2e_req(c, "GET", p, g.token[1], NULL, NULL, &r);
    e2e_assert_problem(&r, 409, "Authorization", p);
    ck_assert_msg(e2e_problem_is(&r, "seat-left"), "%.300s", r.body);
    e2e_resp_free(&r);
    e2e_client_free(c);
    down(d);
}
END_TEST

START_TEST(bot_timeout_then_player_takes_back)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    json_decref(create(c,
                       "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"greedy\"}],"
                       "\"clock\":{\"per_move_s\":100,\"reserve_s\":0,\"timeout\":\"bot\"}}",
                       &g));
    json_t *v = view(c, &g);
    ck_assert_str_eq(e2e_jstr(v, "clock.timeout"), "bot");
    json_decref(v);
    /* before the deadline nobody moves for Ann */
    set_time(T0 + 99);
    nap(0.5);
    v = view(c, &g);
    ck_assert_int_eq(e2e_jint(v, "seq"), 0);
    json_decref(v);
    /* at the deadline a bot plays her turn, then the bot seat its own: the game waits for Ann again */
    set_time(T0 + 100);
    v = wait_for(c, &g, 0, 2, "the bot plays the timed-out turn");
    int seq = (int)e2e_jint(v, "seq");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);   /* the seat stays hers */
    json_decref(v);
    long st;
    json_t *log = e2e_events_log(c, g.id, NULL, &st);
    ck_assert_ptr_nonnull(log);
    ck_assert_int_gt(count_by(log, "bot", 0), 0);   /* Ann's timed-out turn, played by a bot */
    ck_assert_int_gt(count_by(log, "bot", 1), 0);
    ck_assert_int_eq(count_by(log, NULL, -1), 0);
    json_decref(log);
    /* her new turn runs to T0 + 200: she moves in time, and the move is hers */
    nap(0.3);
    v = view(c, &g);
    ck_assert_int_eq(e2e_jint(v, "seq"), seq);   /* no bot moves for her before her deadline */
    json_decref(v);
    e2e_rng rng = {42};
    int mine = 0;
    for (;;) {   /* her whole turn: the tile, then what follows it */
        v = view(c, &g);
        bool hers = e2e_jint(v, "pending.seat") == 0 && e2e_jint(v, "seq") == seq + mine;
        json_decref(v);
        if (!hers)
            break;
        e2e_play pl;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &pl), 200);
        ck_assert_int_eq(pl.seat, 0);
        e2e_play_free(&pl);
        mine++;
    }
    ck_assert_int_gt(mine, 0);
    log = e2e_events_log(c, g.id, NULL, &st);
    ck_assert_int_eq(count_by(log, NULL, 0), mine);   /* her moves are hers, not a bot's */
    json_decref(log);
    /* the game goes on: the bot seat answers, and the game waits for Ann, whose clock runs */
    v = wait_for(c, &g, 0, seq + mine + 1, "the bot seat answers Ann's move");
    seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq);
    e2e_client_free(c);
    down(d);
}
END_TEST

/* The "pid P" of every "bot: game G ... moved at seq S" line, per (game, seq): each exactly once. */
static void ck_each_move_once(const char *logtext, const e2e_game *g, int ng, const int *seqs, int *by_pid,
                              long pids[2])
{
    for (int i = 0; i < ng; i++)
        for (int s = 1; s <= seqs[i]; s++) {
            char pat[160];
            snprintf(pat, sizeof pat, "bot: game %.36s seat ", g[i].id);
            int found = 0;
            for (const char *p = strstr(logtext, pat); p; p = strstr(p + 1, pat)) {
                const char *at = strstr(p, "moved at seq "), *nl = strchr(p, '\n');
                if (!at || (nl && at > nl) || atoi(at + 13) != s)
                    continue;
                found++;
                const char *pp = strstr(at, "pid ");
                long pid = pp ? atol(pp + 4) : 0;
                by_pid[pid == pids[0] ? 0 : pid == pids[1] ? 1 : 2]++;
            }
            ck_assert_msg(found == 1, "game %d seq %d: played %d times", i, s, found);
        }
}

START_TEST(two_processes_play_each_move_once)
{
    e2e_daemon *d = up_with("CARCD_BOT_WORKERS=2");   /* two processes of two bot threads each */
    e2e_daemon *d2 = calloc(1, sizeof *d2);
    *d2 = *d;   /* the same database, time file and settings; the same log file */
    d2->pid = 0;
    d2->port = 0;
    e2e_daemon_start(d2);
    e2e_client *c = e2e_client_new(d), *c2 = e2e_client_new(d2);
    enum { NG = 4 };
    e2e_game g[NG];
    int seqs[NG];
    for (int i = 0; i < NG; i++)
        json_decref(create(i % 2 ? c2 : c, "{\"players\":[{\"bot\":\"greedy\"},{\"bot\":\"greedy\"}]}", &g[i]));
    for (int i = 0; i < NG; i++) {
        json_t *v = wait_for(c, &g[i], -1, 0, "two processes finish the bots' games");
        seqs[i] = (int)e2e_jint(v, "seq");
        json_decref(v);
        long st;
        json_t *log = e2e_events_log(c2, g[i].id, NULL, &st);
        ck_assert_ptr_nonnull(log);
        e2e_assert_log_complete(log, seqs[i], "two processes");
        ck_assert_int_eq(count_by(log, "bot", -1), seqs[i]);
        json_decref(log);
        ck_assert_int_eq(e2e_verify_ok(c, d, g[i].id), seqs[i]);
        ck_assert_int_eq(e2e_verify_ok(c2, d2, g[i].id), seqs[i]);
    }
    char *text = e2e_daemon_log(d);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "the move could not be stored") == NULL, "a bot move failed to commit");
    int by_pid[3] = {0};
    long pids[2] = {(long)d->pid, (long)d2->pid};
    ck_each_move_once(text, g, NG, seqs, by_pid, pids);
    ck_assert_int_eq(by_pid[2], 0);
    ck_assert_msg(by_pid[0] > 0 && by_pid[1] > 0, "one process played everything (%d, %d)", by_pid[0], by_pid[1]);
    free(text);
    e2e_client_free(c2);
    e2e_client_free(c);
    int st2 = e2e_daemon_stop(d2);
    ck_assert(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
    free(d2);
    down(d);
}
END_TEST

START_TEST(bot_takes_resigned_seat)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    /* Ann plays with a player key as well as her seat token */
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"Ann\"}", NULL, &r), 201);
    char key[128];
    snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
    char body[300];
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}],\"bot_after_leave\":true}",
             key);
    json_decref(create(c, body, &g));
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%.36s/resign", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", p, g.token[0], NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "bot.bot"), "greedy");
    ck_assert_int_eq(e2e_jint(r.json, "seq"), 1);   /* logged: {"kind": "leave_to_bot"} */
    e2e_resp_free(&r);
    /* the bot plays Ann's turn; the game waits for Bob, and nobody left */
    json_t *v = wait_for(c, &g, 1, 1, "the bot takes the resigned seat");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);
    json_decref(v);
    /* Ann's old token and her key act no more for the seat: 409 seat-left, the game unchanged */
    v = wait_for(c, &g, 1, 1, "Bob's turn");
    long long seq0 = e2e_jint(v, "seq");
    json_decref(v);
    static const char *const acts[][2] = {
        {"moves", NULL},
        {"resign", NULL}, {"pause", NULL}, {"resume", NULL}, {"messages", "{\"text\":\"still here\"}"},
    };
    const char *who[] = {g.token[0], key};
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
            char mv[80];   /* a move at the current seq: refused for whose seat it is, not for its form */
            snprintf(mv, sizeof mv, "{\"expected_seq\":%lld,\"move\":{}}", seq0);
            snprintf(p, sizeof p, "/v1/games/%.36s/%s", g.id, acts[i][0]);
            e2e_req(c, "POST", p, who[w], i == 0 ? mv : acts[i][1], NULL, &r);
            e2e_assert_problem(&r, 409, "Authorization", p);
            ck_assert_msg(e2e_problem_is(&r, "seat-left"), "%s: %.300s", p, r.body);
            e2e_resp_free(&r);
        }
    v = view(c, &g);   /* nothing changed: still Bob's turn at the same seq */
    ck_assert_int_eq(e2e_jint(v, "seq"), seq0);
    ck_assert_int_eq(e2e_jint(v, "pending.seat"), 1);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);
    json_decref(v);
    /* they still read the game, as a spectator does: the bot's seat is the bot's */
    snprintf(p, sizeof p, "/v1/games/%.36s", g.id);
    v = e2e_get_ok(c, p, g.token[0], 200);
    ck_assert_int_eq(e2e_jint(v, "you.seat"), 0);
    ck_assert_int_eq((int)json_object_size(json_object_get(v, "you")), 1);   /* which seat, nothing it holds */
    json_decref(v);
    e2e_rng rng = {7};
    /* Bob plays three whole turns (a turn may take more than one move: the answer offers legal_moves while he
     * decides again); the bot answers each, so Bob's turn comes back at a later seq */
    int seq = (int)seq0;
    for (int k = 0; k < 3; k++) {
        bool more = true;
        while (more) {
            e2e_play pl;
            long st = e2e_play_random(c, &g, &rng, NULL, &pl);
            ck_assert_int_eq(st, 200);
            ck_assert_int_eq(pl.seat, 1);
            more = e2e_jget(pl.post.json, "legal_moves") != NULL;
            seq = (int)e2e_jint(pl.post.json, "seq");
            e2e_play_free(&pl);
        }
        v = wait_for(c, &g, 1, seq + 1, "the bot answers Bob");
        seq = (int)e2e_jint(v, "seq");
        json_decref(v);
    }
    long st;
    json_t *log = e2e_events_log(c, g.id, NULL, &st);
    ck_assert_int_gt(count_by(log, "bot", 0), 3);
    ck_assert_int_eq(count_by(log, "bot", 1), 0);
    json_decref(log);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq);
    e2e_client_free(c);
    down(d);
}
END_TEST

/* Entries of `kind` for game `id` at seq >= min_seq. */
static int count_me(const json_t *es, const char *kind, const char *id, int min_seq)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(es, i, e) n += strcmp(e2e_jstr(e, "kind"), kind) == 0 && strcmp(e2e_jstr(e, "game"), id) == 0 &&
                                      e2e_jint(e, "seq") >= min_seq;
    return n;
}

/* The log's entry at seq (owned), or NULL. */
static json_t *log_entry(e2e_client *c, const char *id, int seq)
{
    long st;
    json_t *log = e2e_events_log(c, id, NULL, &st);
    ck_assert_msg(log != NULL, "events: %ld", st);
    json_t *out = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e) if (e2e_jint(e, "seq") == seq) out = json_incref(e);
    json_decref(log);
    return out;
}

START_TEST(leave_to_bot_is_told)
{
    e2e_daemon *d = up_with("CARCD_WEBHOOK_ALLOW=127.0.0.1/32");
    e2e_client *c = e2e_client_new(d);
    e2e_hooks *R = e2e_hooks_start();
    char ann[128], bob[128];
    e2e_player_key(c, "Ann", ann, sizeof ann);
    e2e_player_key(c, "Bob", bob, sizeof bob);
    /* the same game twice, a plain one and one with bot_after_leave; Bob's webhook on each; Ann resigns on her
     * turn in both: each tells it the same ways, a leave in the first, a leave to a bot in the second (where
     * the turn stays with the seat, now the bot's: Bob's turn.started comes after the bot's move) */
    e2e_game g[2];
    static const char *const type[2] = {"seat_left", "seat_to_bot"};
    for (int k = 0; k < 2; k++) {
        char body[600], p[160], hook[200];
        snprintf(body, sizeof body,
                 "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\",\"player_key\":\"%s\"},"
                 "{\"name\":\"Cid\"}]%s}",
                 ann, bob, k ? ",\"bot_after_leave\":true" : "");
        json_decref(create(c, body, &g[k]));
        snprintf(p, sizeof p, "/v1/games/%.36s/webhooks", g[k].id);
        snprintf(hook, sizeof hook, "{\"url\":\"http://127.0.0.1:%d/g%d\",\"format\":\"json\"}", e2e_hooks_port(R), k);
        e2e_resp r;
        ck_assert_int_eq(e2e_req(c, "POST", p, g[k].token[1], hook, NULL, &r), 201);
        e2e_resp_free(&r);
        snprintf(p, sizeof p, "/v1/games/%.36s/resign", g[k].id);
        ck_assert_int_eq(e2e_req(c, "POST", p, g[k].token[0], NULL, NULL, &r), 200);
        ck_assert_int_eq(e2e_jint(r.json, "seq"), 1);   /* logged: the move log's seq 1 */
        ck_assert_int_eq(count_events(json_object_get(r.json, "events"), type[k], 0), 1);
        ck_assert_str_eq(e2e_jstr(r.json, "bot.bot"), k ? "greedy" : "");
        e2e_resp_free(&r);
        /* the log: the entry, made by the seat (no "by"), with its event */
        json_t *e = log_entry(c, g[k].id, 1);
        ck_assert_msg(e != NULL, "game %d: no entry at seq 1", k);
        ck_assert_str_eq(e2e_jstr(e, "notation"), "");   /* no move of the seat's: a leave */
        ck_assert_int_eq(e2e_jint(e, "seat"), 0);
        ck_assert_str_eq(e2e_jstr(e, "by"), "");
        ck_assert_int_eq(count_events(json_object_get(e, "events"), type[k], 0), 1);
        json_decref(e);
        /* the webhook: move.made and turn.started at seq 1, as for any move */
        snprintf(p, sizeof p, "/g%d", k);
        json_t *w = wait_hook(R, p, "move.made", 1);
        ck_assert_msg(w != NULL, "game %d: no move.made at seq 1", k);
        ck_assert_int_eq(e2e_jint(w, "data.seat"), 0);
        ck_assert_int_eq(count_events(e2e_jget(w, "data.events"), type[k], 0), 1);
        ck_assert_msg(strstr(e2e_jstr(w, "data.summary"), "Ann left the game") != NULL, "summary: %s",
                      e2e_jstr(w, "data.summary"));
        json_decref(w);
        if (k == 0) {   /* Bob's turn now; in the other game it comes after the bot's (below) */
            w = wait_hook(R, p, "turn.started", 1);
            ck_assert_msg(w != NULL, "game %d: no turn.started at seq 1", k);
            ck_assert_int_eq(e2e_jint(w, "data.seat"), 1);
            json_decref(w);
        }
    }
    /* who plays the seat: the plain game lost it, the other one's view says a bot plays it */
    json_t *v = view(c, &g[0]);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 1);
    ck_assert_ptr_null(e2e_jget(v, "players.0.bot"));
    ck_assert_int_eq(e2e_jint(v, "pending.seat"), 1);
    json_decref(v);
    v = wait_for(c, &g[1], 1, 2, "the bot plays the seat Ann left");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);
    ck_assert_str_eq(e2e_jstr(v, "players.0.bot.bot"), "greedy");
    ck_assert_ptr_null(e2e_jget(v, "players.1.bot"));
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%.36s", g[1].id);   /* Ann's token reads that too */
    v = e2e_get_ok(c, p, g[1].token[0], 200);
    ck_assert_str_eq(e2e_jstr(v, "players.0.bot.bot"), "greedy");
    json_decref(v);
    /* the bot's moves notify as any move: its last one, which gave Bob the turn */
    json_t *w = wait_hook(R, "/g1", "move.made", seq);
    ck_assert_msg(w != NULL, "no move.made for the bot's move at seq %d", seq);
    ck_assert_int_eq(e2e_jint(w, "data.seat"), 0);
    json_decref(w);
    w = wait_hook(R, "/g1", "turn.started", seq);
    ck_assert_msg(w != NULL, "no turn.started to Bob at seq %d", seq);
    ck_assert_int_eq(e2e_jint(w, "data.seat"), 1);
    json_decref(w);
    /* Bob and Cid play on in the second game until its turn comes back to the bot, which plays again */
    e2e_rng rng = {5};
    int played = 0;
    for (double end = e2e_now() + WAIT_S;; ck_assert(e2e_now() < end)) {
        v = view(c, &g[1]);
        long long pending = e2e_jint(v, "pending.seat");
        json_decref(v);
        if (pending == 0 && played)
            break;
        if (pending == 0) {
            nap(0.01);
            continue;
        }
        e2e_play pl;
        ck_assert_int_eq(e2e_play_random(c, &g[1], &rng, NULL, &pl), 200);
        e2e_play_free(&pl);
        played++;
    }
    v = wait_for(c, &g[1], 1, seq + played + 1, "the bot plays its seat's next turn");
    seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    /* the players' streams: Bob's turn in both games, once the bot has played in the second; Ann, who left,
     * hears of no turn after her resignation in either (the bot's turns are not hers) */
    json_t *eb = e2e_me_events_all(c, bob), *ea = e2e_me_events_all(c, ann);
    ck_assert_int_eq(count_me(eb, "turn", g[0].id, 1), 1);
    ck_assert_int_ge(count_me(eb, "turn", g[1].id, 2), 1);
    ck_assert_int_eq(count_me(ea, "turn", g[0].id, 1), 0);
    ck_assert_int_eq(count_me(ea, "turn", g[1].id, 1), 0);
    json_decref(eb);
    json_decref(ea);
    /* the log replays: the leave to a bot changes no state */
    ck_assert_int_eq(e2e_verify_ok(c, d, g[1].id), seq);
    e2e_hooks_stop(R);
    e2e_client_free(c);
    down(d);
}
END_TEST

START_TEST(forfeit_to_bot_is_told)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    json_decref(create(c,
                       "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":\"Cid\"}],\"bot_after_leave\":true,"
                       "\"clock\":{\"per_move_s\":100,\"reserve_s\":0,\"timeout\":\"forfeit\"}}",
                       &g));
    /* Ann runs out of time: the clock logs her leave to a bot, then skips her turn; the bot plays her next */
    set_time(T0 + 100);
    json_t *v = wait_for(c, &g, 1, 2, "the clock forfeits Ann's seat to a bot");
    ck_assert_str_eq(e2e_jstr(v, "players.0.bot.bot"), "greedy");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);
    json_decref(v);
    json_t *e = log_entry(c, g.id, 1);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e2e_jstr(e, "by"), "clock");
    ck_assert_int_eq(e2e_jint(e, "seat"), 0);
    ck_assert_int_eq(count_events(json_object_get(e, "events"), "seat_to_bot", 0), 1);
    json_decref(e);
    /* Bob and Cid play; then the bot plays Ann's seat, by itself */
    e2e_rng rng = {9};
    for (int k = 0; k < 2; k++) {
        for (;;) {
            v = view(c, &g);
            long long pending = e2e_jint(v, "pending.seat");
            json_decref(v);
            if (pending == 0)
                break;
            e2e_play pl;
            ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &pl), 200);
            e2e_play_free(&pl);
        }
        v = wait_for(c, &g, 1, 3, "the bot plays the forfeited seat");
        json_decref(v);
    }
    long st;
    json_t *log = e2e_events_log(c, g.id, NULL, &st);
    ck_assert_int_gt(count_by(log, "bot", 0), 0);
    json_decref(log);
    v = view(c, &g);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), seq);
    e2e_client_free(c);
    down(d);
}
END_TEST

START_TEST(rematch_keeps_bots)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    char ann[128], bob[128];
    e2e_player_key(c, "Ann", ann, sizeof ann);
    e2e_player_key(c, "Bob", bob, sizeof bob);
    /* Ann, an mcts bot made at creation and Bob; both people leave to bots, and the bots finish the game */
    char body[600], p[160];
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"bot\":\"mcts\",\"think_ms\":2},"
             "{\"name\":\"Bob\",\"player_key\":\"%s\"}],\"bot_after_leave\":true,"
             "\"clock\":{\"per_move_s\":86400,\"timeout\":\"bot\"}}",
             ann, bob);
    e2e_game g;
    json_decref(create(c, body, &g));
    snprintf(p, sizeof p, "/v1/games/%.36s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", p, g.token[2], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", p, g.token[0], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    json_decref(wait_for(c, &g, -1, 0, "the bots finish the game"));
    /* Ann's old token offers the rematch (a bot plays her seat, but she is the one invited back); the bot
     * made at creation is a bot again, taken at once and numbered first; Bob's place waits for him */
    snprintf(p, sizeof p, "/v1/games/%.36s/rematch", g.id);
    ck_assert_msg(e2e_req(c, "POST", p, g.token[0], NULL, NULL, &r) == 201, "rematch: %.400s", r.body);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 1);
    e2e_game n = {.nplayers = 3};
    snprintf(n.id, sizeof n.id, "%s", e2e_jstr(r.json, "game_id"));
    snprintf(n.token[1], sizeof n.token[1], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    snprintf(p, sizeof p, "/v1/games/%.36s", n.id);
    json_t *v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(v, "open"), 1);
    ck_assert_str_eq(e2e_jstr(v, "players.0.name"), "mcts bot");
    ck_assert_str_eq(e2e_jstr(v, "clock.timeout"), "bot");
    json_decref(v);
    /* the bot seat of the finished game has no place of its own: its token is refused */
    snprintf(p, sizeof p, "/v1/games/%.36s/rematch/accept", g.id);
    e2e_req(c, "POST", p, g.token[1], NULL, NULL, &r);
    e2e_assert_problem(&r, 409, "Authorization", "the bot seat accepts");
    e2e_resp_free(&r);
    /* Bob accepts with his key: the rematch starts, the bot moves first by itself */
    ck_assert_msg(e2e_req(c, "POST", p, bob, NULL, NULL, &r) == 201, "accept: %.400s", r.body);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 2);
    snprintf(n.token[2], sizeof n.token[2], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    v = wait_for(c, &n, 1, 1, "the rematch's bot moves first");
    ck_assert_str_eq(e2e_jstr(v, "players.0.bot.bot"), "mcts");
    ck_assert_int_eq(e2e_jint(v, "players.0.bot.think_ms"), 2);
    ck_assert_ptr_null(e2e_jget(v, "players.1.bot"));
    ck_assert_ptr_null(e2e_jget(v, "players.2.bot"));
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Ann");
    ck_assert_str_eq(e2e_jstr(v, "players.2.name"), "Bob");
    json_decref(v);
    long st;
    json_t *log = e2e_events_log(c, n.id, NULL, &st);
    ck_assert_int_gt(count_by(log, "bot", 0), 0);
    json_decref(log);
    /* bot_after_leave carried over: Bob leaves the rematch to a bot */
    snprintf(p, sizeof p, "/v1/games/%.36s/resign", n.id);
    ck_assert_int_eq(e2e_req(c, "POST", p, n.token[2], NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "bot.bot"), "greedy");
    e2e_resp_free(&r);
    e2e_client_free(c);
    down(d);
}
END_TEST

/* The moves' log lines of one process: for each, its worker, and the time it thought (end: the line's
 * time, start: that less its think time), in ms since the epoch. */
typedef struct {
    char game[37];
    int seq, worker;
    double start, end;
} bot_line;

/* Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil): timegm is not POSIX. */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int bot_lines(const char *text, bot_line *out, int max)
{
    int n = 0;
    for (const char *p = strstr(text, "bot: game "); p && n < max; p = strstr(p + 1, "bot: game ")) {
        const char *nl = strchr(p, '\n'), *at = strstr(p, "moved at seq "), *ms = strstr(p, " ms, pid ");
        const char *wk = strstr(p, "worker "), *bol = p;
        if (!at || !ms || !wk || (nl && (at > nl || ms > nl || wk > nl)))
            continue;
        while (bol > text && bol[-1] != '\n')
            bol--;
        const char *ts = strstr(bol, "\"ts\":\"");
        int y, mo, day, h, mi, sec, msec;
        if (!ts || ts > p || sscanf(ts + 6, "%d-%d-%dT%d:%d:%d.%dZ", &y, &mo, &day, &h, &mi, &sec, &msec) != 7)
            continue;
        const char *think = ms;
        while (think > at && think[-1] != '(')
            think--;
        bot_line *l = &out[n++];
        snprintf(l->game, sizeof l->game, "%.36s", p + 10);
        l->seq = atoi(at + 13);
        l->worker = atoi(wk + 7);
        l->end = ((double)days_from_civil(y, mo, day) * 86400 + h * 3600 + mi * 60 + sec) * 1000 + msec;
        l->start = l->end - atof(think);
    }
    return n;
}

START_TEST(two_workers_then_cancel)
{
    e2e_daemon *d = up_with("CARCD_BOT_WORKERS=2");
    e2e_client *c = e2e_client_new(d);
    enum { NG = 2 };
    e2e_game g[NG];
    for (int i = 0; i < NG; i++)   /* mcts thinks long enough for two thinks to overlap, if they can */
        json_decref(create(c, "{\"players\":[{\"bot\":\"mcts\",\"think_ms\":20},{\"bot\":\"mcts\",\"think_ms\":20}]}",
                           &g[i]));
    for (int i = 0; i < NG; i++) {
        double end = e2e_now() + WAIT_S;
        for (;;) {
            json_t *v = view(c, &g[i]);
            long long seq = e2e_jint(v, "seq");
            json_decref(v);
            if (seq >= 12)
                break;
            ck_assert_msg(e2e_now() < end, "game %d: the bots reached seq %lld only", i, seq);
            nap(0.05);
        }
    }
    /* the admin cancels both while their bots play: the bots stop */
    int last[NG];
    for (int i = 0; i < NG; i++) {
        char p[160];
        snprintf(p, sizeof p, "/v1/admin/games/%.36s/cancel", g[i].id);
        e2e_resp r;
        ck_assert_msg(e2e_req(c, "POST", p, d->admin, "{\"reason\":\"enough\"}", NULL, &r) == 200, "cancel: %.300s",
                      r.body);
        last[i] = (int)e2e_jint(r.json, "seq") - 1;   /* the cancel's entry follows the last move */
        e2e_resp_free(&r);
    }
    nap(1.0);
    for (int i = 0; i < NG; i++) {
        json_t *v = view(c, &g[i]);
        ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
        ck_assert_int_eq(e2e_jint(v, "seq"), last[i] + 1);
        json_decref(v);
    }
    char *text = e2e_daemon_log(d);
    ck_assert_ptr_nonnull(text);
    long pids[2] = {(long)d->pid, -1};
    int by_pid[3] = {0};
    ck_each_move_once(text, g, NG, last, by_pid, pids);   /* each seq once, by this process */
    ck_assert_int_eq(by_pid[0], last[0] + last[1]);
    static bot_line lines[4096];
    int nl = bot_lines(text, lines, 4096), by_worker[2] = {0}, overlaps = 0;
    for (int i = 0; i < nl; i++) {
        for (int k = 0; k < NG; k++)   /* nothing after the cancel */
            if (strcmp(lines[i].game, g[k].id) == 0)
                ck_assert_msg(lines[i].seq <= last[k], "game %d: a bot moved at seq %d after the cancel", k, lines[i].seq);
        ck_assert(lines[i].worker >= 0 && lines[i].worker < 2);
        by_worker[lines[i].worker]++;
        for (int j = 0; j < i; j++)   /* two thinks of the two workers at the same time */
            overlaps += lines[j].worker != lines[i].worker && lines[j].start < lines[i].end &&
                        lines[i].start < lines[j].end;
    }
    ck_assert_int_eq(nl, last[0] + last[1]);
    fprintf(stderr, "e2e bots: two workers played %d and %d moves; %d pairs of thinks overlapped in time\n",
            by_worker[0], by_worker[1], overlaps);
    ck_assert_msg(by_worker[0] > 0 && by_worker[1] > 0, "one worker played everything (%d, %d)", by_worker[0],
                  by_worker[1]);
    ck_assert_msg(overlaps > 0, "the two workers never thought at the same time");
    free(text);
    e2e_client_free(c);
    down(d);
}
END_TEST

/* Plays g to its end: every seat but `bot` at random through its token, the bot by itself; then checks the
 * log (the bot's seat moved by bot only, the others never by bot) and verify. */
static void play_to_end(e2e_client *c, e2e_daemon *d, const e2e_game *g, int bot)
{
    e2e_rng rng = {11};
    double end = e2e_now() + WAIT_S;
    for (;;) {
        json_t *v = view(c, g);
        bool over = strcmp(e2e_jstr(v, "status"), "finished") == 0;
        long long pending = e2e_jint(v, "pending.seat");
        json_decref(v);
        if (over)
            break;
        ck_assert_msg(e2e_now() < end, "the game with a bot seat did not finish in %.0f s", WAIT_S);
        if (pending == bot || pending < 0) {
            nap(0.01);
            continue;
        }
        e2e_play pl;
        long st = e2e_play_random(c, g, &rng, NULL, &pl);
        ck_assert_msg(st == 200 || st == 409, "seat %lld's move: %ld", pending, st);   /* 409: a stale view */
        e2e_play_free(&pl);
    }
    json_t *v = view(c, g);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    long st;
    json_t *log = e2e_events_log(c, g->id, NULL, &st);
    ck_assert_msg(log != NULL, "events: %ld", st);
    e2e_assert_log_complete(log, seq, "the log of a game with a bot seat");
    ck_assert_int_gt(count_by(log, "bot", bot), 10);                    /* the bot played its seat... */
    ck_assert_int_eq(count_by(log, NULL, bot), 0);                     /* ...each of its moves... */
    for (int s = 0; s < g->nplayers; s++)
        if (s != bot)
            ck_assert_int_eq(count_by(log, "bot", s), 0);               /* ...and never another's */
    json_decref(log);
    ck_assert_int_eq(e2e_verify_ok(c, d, g->id), seq);
}

START_TEST(bot_seat_beside_open_seat)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    /* a bot seat is taken at once: the game waits for its one open seat only, with bot_after_leave and the
     * clock's "bot" timeout allowed as in any game */
    e2e_resp r;
    const char *body = "{\"players\":[{\"bot\":\"greedy\"},{\"invite\":true}],\"bot_after_leave\":true,"
                       "\"clock\":{\"per_move_s\":86400,\"timeout\":\"bot\"}}";
    ck_assert_msg(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r) == 201, "%.400s", r.body);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    ck_assert_str_eq(e2e_jstr(r.json, "players.0.bot.bot"), "greedy");
    ck_assert_int_eq((int)json_array_size(json_object_get(r.json, "invites")), 1);
    e2e_game g = {.nplayers = 2};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    char jb[300], p[160];
    snprintf(jb, sizeof jb, "{\"name\":\"Zoe\",\"invite\":\"%s\"}", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    nap(0.1);   /* the bot worker does not play a game that waits */
    json_t *v = view(c, &g);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    json_decref(v);
    snprintf(p, sizeof p, "/v1/games/%.36s/join", g.id);
    ck_assert_msg(e2e_req(c, "POST", p, NULL, jb, NULL, &r) == 201, "join: %.400s", r.body);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 1);
    snprintf(g.token[1], sizeof g.token[1], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    /* Zoe plays seat 1 at random; the bot plays seat 0 by itself, to the end */
    play_to_end(c, d, &g, 0);
    e2e_client_free(c);
    down(d);
}
END_TEST

START_TEST(bot_seat_kept_by_creator_start)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    /* named seats first: Ann 0, the bot 1, then the joins; the creator starts with one place still open */
    e2e_resp r;
    const char *body = "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"bot\":\"greedy\",\"name\":\"Gus\"},"
                       "{\"invite\":true}]}";
    ck_assert_msg(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r) == 201, "%.400s", r.body);
    ck_assert_int_eq(e2e_jint(r.json, "players.1.seat"), 1);
    ck_assert_str_eq(e2e_jstr(r.json, "players.1.bot.bot"), "greedy");
    e2e_game g = {.nplayers = 3};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    snprintf(g.token[1], sizeof g.token[1], "%s", e2e_jstr(r.json, "players.1.token"));
    char jb[300], p[160], creator[80];
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(jb, sizeof jb, "{\"name\":\"Zoe\",\"invite\":\"%s\"}", e2e_jstr(r.json, "invites.1.invite"));
    e2e_resp_free(&r);
    snprintf(p, sizeof p, "/v1/games/%.36s/join", g.id);
    ck_assert_msg(e2e_req(c, "POST", p, NULL, jb, NULL, &r) == 201, "join: %.400s", r.body);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 2);
    snprintf(g.token[2], sizeof g.token[2], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    snprintf(p, sizeof p, "/v1/games/%.36s/start", g.id);
    ck_assert_msg(e2e_req(c, "POST", p, creator, NULL, NULL, &r) == 200, "start: %.400s", r.body);
    e2e_resp_free(&r);
    json_t *v = view(c, &g);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "players")), 3);
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Gus");
    json_decref(v);
    play_to_end(c, d, &g, 1);
    e2e_client_free(c);
    down(d);
}
END_TEST

START_TEST(bad_bot_forms)
{
    e2e_daemon *d = up();
    e2e_client *c = e2e_client_new(d);
    static const struct {
        const char *body, *field;
    } bad[] = {
        {"{\"players\":[{\"bot\":\"deep\"},{\"name\":\"B\"}]}", "players[0].bot"},
        {"{\"players\":[{\"name\":\"A\"},{\"bot\":7}]}", "players[1].bot"},
        {"{\"players\":[{\"bot\":\"greedy\",\"think_ms\":50},{\"name\":\"B\"}]}", "players[0].think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":0},{\"name\":\"B\"}]}", "players[0].think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":60001},{\"name\":\"B\"}]}", "players[0].think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":\"1s\"},{\"name\":\"B\"}]}", "players[0].think_ms"},
        {"{\"players\":[{\"bot\":\"greedy\",\"email\":\"a@example.org\"},{\"name\":\"B\"}]}", "players[0].email"},
        {"{\"players\":[{\"bot\":\"greedy\",\"name\":\"\"},{\"name\":\"B\"}]}", "players[0].name"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"bot_after_leave\":\"yes\"}", "bot_after_leave"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"clock\":{\"per_move_s\":60,\"timeout\":\"robot\"}}",
         "clock.timeout"},
        /* with open seats (the lobby) a bot seat's form is checked as well */
        {"{\"players\":[{\"bot\":\"deep\"},{\"invite\":true}]}", "players[0].bot"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e2e_resp r;
        e2e_req(c, "POST", "/v1/games", NULL, bad[i].body, NULL, &r);
        e2e_assert_problem(&r, 400, bad[i].field, bad[i].body);
        e2e_resp_free(&r);
    }
    e2e_client_free(c);
    down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_bots");
    TCase *tc = e2e_tcase("bots", 240);
    tcase_add_test(tc, three_bots_finish_by_themselves);
    tcase_add_test(tc, a_bot_seat_shows_its_hand_to_nobody);
    tcase_add_test(tc, bot_timeout_then_player_takes_back);
    tcase_add_test(tc, two_processes_play_each_move_once);
    tcase_add_test(tc, bot_takes_resigned_seat);
    tcase_add_test(tc, bot_seat_beside_open_seat);
    tcase_add_test(tc, bot_seat_kept_by_creator_start);
    tcase_add_test(tc, bad_bot_forms);
    tcase_add_test(tc, leave_to_bot_is_told);
    tcase_add_test(tc, forfeit_to_bot_is_told);
    tcase_add_test(tc, rematch_keeps_bots);
    tcase_add_test(tc, two_workers_then_cancel);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
