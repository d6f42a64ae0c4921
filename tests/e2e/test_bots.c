/*
 * test_bots.c — bot seats end to end (engine/bot/, daemon/clock/bot_worker.c), through real sockets against
 * the real carcd: a game of three bots finishes by itself, every move logged "by": "bot" and replayed
 * identically by verify; a seat out of time under the clock's "bot" timeout is played by a bot and its
 * player takes it back by moving; two carcd processes on one database play each bot move once; a bot takes
 * a resigned seat under "bot_after_leave"; bad bot forms are 400s naming their field. The bot worker looks
 * every 10 ms (CARCD_BOT_INTERVAL_MS); the clock's time comes from a file (CARCD_TIME_FILE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

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

static e2e_daemon *up(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(time_path, sizeof time_path, "%s/carcd-bots-now.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    snprintf(env_time, sizeof env_time, "CARCD_TIME_FILE=%s", time_path);
    set_time(T0);
    const char *env[] = {env_time, "CARCD_BOT_INTERVAL_MS=10", "CARCD_CLOCK_INTERVAL_MS=20", NULL};
    return e2e_daemon_up(env);
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
    /* a bot's token reads its seat's view, and its moves are not the token's to make on the bot's behalf */
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%.36s", g.id);
    json_decref(e2e_get_ok(c, p, g.token[1], 200));
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
    e2e_daemon *d = up();
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
    json_decref(create(c, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"bot_after_leave\":true}", &g));
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%.36s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", p, g.token[0], NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "bot.bot"), "greedy");
    ck_assert_int_eq(e2e_jint(r.json, "seq"), 0);
    e2e_resp_free(&r);
    /* the bot plays Ann's turn; the game waits for Bob, and nobody left */
    json_t *v = wait_for(c, &g, 1, 1, "the bot takes the resigned seat");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "left")), 0);
    json_decref(v);
    e2e_rng rng = {7};
    for (int k = 0; k < 3; k++) {   /* Bob plays; the bot answers each turn */
        e2e_play pl;
        v = wait_for(c, &g, 1, 1, "Bob's turn again");
        json_decref(v);
        long st = e2e_play_random(c, &g, &rng, NULL, &pl);
        ck_assert_int_eq(st, 200);
        ck_assert_int_eq(pl.seat, 1);
        e2e_play_free(&pl);
    }
    v = wait_for(c, &g, 1, 1, "the bot answers Bob");
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
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
        /* with open seats (the lobby), not yet */
        {"{\"players\":[{\"bot\":\"greedy\"},{\"invite\":true}]}", "players"},
        {"{\"players\":[{\"name\":\"A\"},{\"invite\":true}],\"bot_after_leave\":true}", "bot_after_leave"},
        {"{\"players\":[{\"name\":\"A\"},{\"invite\":true}],\"clock\":{\"per_move_s\":60,\"timeout\":\"bot\"}}",
         "clock.timeout"},
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
    tcase_add_test(tc, bot_timeout_then_player_takes_back);
    tcase_add_test(tc, two_processes_play_each_move_once);
    tcase_add_test(tc, bot_takes_resigned_seat);
    tcase_add_test(tc, bad_bot_forms);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
