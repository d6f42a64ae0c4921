/*
 * test_carcctl.c — carcctl's surface and its import, against a real carcd:
 *   - `--help`, `-h`, `help`, `help COMMAND` and `COMMAND --help` print what the commands do and exit 0; an
 *     unknown command or flag is named, exit 2; an HTTP error prints no table header (stdout stays empty);
 *   - `--json` makes every command print one JSON document;
 *   - `import` (with and without --stack-script) of the export of random games of every expansion mix, with
 *     resignations, and of admin games with scripted fruit and hands, succeeds and reaches the same final state;
 *   - an import whose moves would be refused creates nothing, nor one of a game where a seat was left to a bot;
 *   - `show` against a server that answers a board no game can make (a piece 65 535 spaces out) says so and
 *     draws nothing, where its canvas's size overflowed an int and carcctl wrote past its end;
 *   - against a server whose texts hold terminal controls (ESC sequences, C1, DEL), what carcctl prints for a
 *     person shows them escaped; an answer over carcctl's limit (64 MiB) is refused, named, and not read on.
 */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

/* Runs carcctl with `args` (the admin token of d unless `args` names --token); exit status, stdout in *out and
 * stderr in *err (malloc'd; err may be NULL). */
static int run(const e2e_daemon *d, const char *args, char **out, char **err)
{
    char errpath[300], cmd[1600];
    snprintf(errpath, sizeof errpath, "%s/carcctl.err", d->dir);
    snprintf(cmd, sizeof cmd, "'%s' --server '%s' %s%s%s --as e2e %s 2>'%s'", CARCCTL_BIN, d->base,
             strstr(args, "--token") ? "" : "--token '", strstr(args, "--token") ? "" : d->admin,
             strstr(args, "--token") ? "" : "'", args, errpath);
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "popen %s", cmd);
    size_t cap = 1 << 16, len = 0, k;
    char *buf = malloc(cap);
    while ((k = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += k;
        if (cap - len < 2)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int st = pclose(p);
    *out = buf;
    if (err) {
        FILE *f = fopen(errpath, "r");
        char *e = calloc(1, 1 << 16);
        if (f) {
            size_t n = fread(e, 1, (1 << 16) - 1, f);
            e[n] = 0;
            fclose(f);
        }
        *err = e;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

START_TEST(help_and_usage_errors)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    static const char *const commands[] = {"list", "show", "hidden", "verify", "replay", "export", "import", "audit",
                                           NULL};
    static const char *const helps[] = {"--help", "-h", "help", NULL};
    char *out, *err;
    for (int i = 0; helps[i]; i++) {
        ck_assert_int_eq(run(d, helps[i], &out, NULL), 0);
        for (int c = 0; commands[c]; c++) {
            char line[40];
            snprintf(line, sizeof line, "\n  %s ", commands[c]);
            ck_assert_msg(strstr(out, line), "%s does not describe %s:\n%s", helps[i], commands[c], out);
        }
        free(out);
    }
    for (int c = 0; commands[c]; c++) {
        char args[80];
        snprintf(args, sizeof args, "%s --help", commands[c]);
        ck_assert_int_eq(run(d, args, &out, NULL), 0);
        char want[60];
        snprintf(want, sizeof want, "usage: carcctl [GLOBAL FLAGS] %s ", commands[c]);
        ck_assert_msg(strstr(out, want), "%s:\n%s", args, out);
        free(out);
        snprintf(args, sizeof args, "help %s", commands[c]);
        ck_assert_int_eq(run(d, args, &out, NULL), 0);
        ck_assert_msg(strstr(out, want), "%s:\n%s", args, out);
        free(out);
    }
    /* what is wrong is named */
    struct {
        const char *args, *says;
    } bad[] = {{"frobnicate", "unknown command frobnicate"},
               {"--frob list", "unknown flag --frob"},
               {"list --frob", "unknown flag --frob"},
               {"show", "show: missing"},
               {"show a b", "unexpected argument b"},
               {"list --limit", "--limit needs a value"},
               {"list --limit -3", "--limit needs a number of 1 or more, not -3"},
               {"list --players x", "--players needs a whole number, not x"},
               {"list --status bogus", "--status is waiting, active, finished or cancelled, not bogus"},
               {"show --seq -1 g", "--seq needs a number of 0 or more"},
               {"audit --limit 900", "--limit is at most 500"},
               {"replay", "replay: missing ID\n"},   /* the argument's name, not the command's usage */
               {"--server ftp://h list", "an http:// or https:// URL, not ftp://h"},
               {"help frob", "no command frob"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(run(d, bad[i].args, &out, &err), 2);
        ck_assert_msg(strstr(err, bad[i].says), "carcctl %s: stderr does not say \"%s\":\n%s", bad[i].args,
                      bad[i].says, err);
        free(out);
        free(err);
    }
    /* an HTTP error: no table header, nothing on stdout, exit 3 */
    ck_assert_int_eq(run(d, "--token wrong-token list", &out, &err), 3);
    ck_assert_msg(out[0] == 0, "stdout before the error:\n%s", out);
    ck_assert_msg(strstr(err, "HTTP 403") || strstr(err, "HTTP 401"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(run(d, "--token wrong-token audit", &out, &err), 3);
    ck_assert_msg(out[0] == 0, "stdout before the error:\n%s", out);
    free(out);
    free(err);
    /* no server there: one line that says why, exit 3 */
    ck_assert_int_eq(run(d, "--server http://127.0.0.1:1 list", &out, &err), 3);
    ck_assert_msg(strstr(err, "127.0.0.1:1/v1/admin/games") && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    free(out);
    free(err);

    /* a server URL with a trailing slash is the same server; a waiting game's seats, taken of asked for */
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}",
            NULL, &r);
    ck_assert_msg(r.status == 201, "%s", r.body);
    char id[40], args[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    snprintf(args, sizeof args, "--server '%s/' list --status waiting --players 3", d->base);
    ck_assert_int_eq(run(d, args, &out, &err), 0);
    char row[120];
    snprintf(row, sizeof row, "%s  waiting      0     1/3       -  ", id);
    ck_assert_msg(strstr(out, row), "wanted \"%s\" in:\n%s%s", row, out, err);
    free(out);
    free(err);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

static json_t *must_json(const char *out, const char *what)
{
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    ck_assert_msg(j != NULL, "%s --json: not JSON (%s):\n%.300s", what, e.text, out);
    return j;
}

START_TEST(json_for_every_command)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, "[\"hills_sheep\"]", &g);
    e2e_rng rng = {77};
    for (int i = 0; i < 6; i++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
    }
    char args[400], *out;
    const char *tmpl[] = {"--json list", "list --json", "--json show %s", "--json show %s --seq 2",
                          "--json hidden %s", "--json verify %s", "--json replay %s", "--json export %s",
                          "--json audit --game %s", NULL};
    for (int i = 0; tmpl[i]; i++) {
        snprintf(args, sizeof args, tmpl[i], g.id);
        ck_assert_int_eq(run(d, args, &out, NULL), 0);
        json_t *j = must_json(out, args);
        if (strstr(args, "list"))
            ck_assert_msg(json_is_array(j) && strstr(out, g.id), "%s: %s", args, out);
        if (strstr(args, "show"))
            ck_assert_msg(json_is_array(json_object_get(j, "players")), "%s", args);
        if (strstr(args, "hidden"))
            ck_assert_msg(json_is_string(json_object_get(j, "seed")) &&
                              json_is_array(json_object_get(j, "stack_remaining")), "%s", out);
        if (strstr(args, "verify"))
            ck_assert(json_is_true(json_object_get(j, "ok")));
        if (strstr(args, "replay"))
            ck_assert(json_is_true(json_object_get(j, "same_state")) && e2e_jint(j, "seq") == 6);
        if (strstr(args, "audit"))
            ck_assert(json_is_array(j) && json_array_size(j) > 0);
        json_decref(j);
        free(out);
    }
    /* import prints JSON too: the new game */
    char path[300];
    snprintf(path, sizeof path, "%s/one.json", d->dir);
    snprintf(args, sizeof args, "export %s -o '%s'", g.id, path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "--json import '%s'", path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    json_t *j = must_json(out, args);
    ck_assert(json_is_true(json_object_get(j, "same_state")));
    json_decref(j);
    free(out);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* How many games the server holds (carcctl list --json). */
static size_t games_on(const e2e_daemon *d)
{
    char *out;
    ck_assert_int_eq(run(d, "--json list", &out, NULL), 0);
    json_t *j = must_json(out, "list");
    size_t n = json_array_size(j);
    json_decref(j);
    free(out);
    return n;
}

/* Exports game g and imports it (with --stack-script when asked): asserts it succeeds and ends the same. */
static void import_ok(const e2e_daemon *d, const e2e_game *g, bool stack_script, const char *what)
{
    char path[400], args[600], *out, *err;
    snprintf(path, sizeof path, "%s/ex-%s.json", d->dir, g->id);
    snprintf(args, sizeof args, "export %s -o '%s'", g->id, path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "import '%s'%s", path, stack_script ? " --stack-script" : "");
    int rc = run(d, args, &out, &err);
    ck_assert_msg(rc == 0, "%s%s: exit %d: %s", what, stack_script ? " --stack-script" : "", rc, err);
    json_t *j = must_json(out, "import");
    ck_assert_msg(json_is_true(json_object_get(j, "same_state")), "%s: %s", what, err);
    json_decref(j);
    free(out);
    free(err);
}

/* Plays game g at random for up to `moves` moves; with `resign`, the seat to move resigns at move 4 (and, with
 * 3 or more seats, another at move 9). */
static void play(e2e_client *c, const e2e_game *g, e2e_rng *rng, int moves, bool resign)
{
    for (int i = 0; i < moves; i++) {
        if (resign && (i == 4 || (i == 9 && g->nplayers > 2))) {
            char path[200];
            snprintf(path, sizeof path, "/v1/games/%s", g->id);
            json_t *v = e2e_get_ok(c, path, NULL, 200);
            int seat = (int)e2e_jint(v, "pending.seat");
            json_decref(v);
            snprintf(path, sizeof path, "/v1/games/%s/resign", g->id);
            e2e_resp r;
            long st = e2e_req(c, "POST", path, g->token[seat], "{}", NULL, &r);
            ck_assert_msg(st == 200, "resign: %ld %s", st, r.body);
            e2e_resp_free(&r);
            continue;
        }
        e2e_play p;
        long st = e2e_play_random(c, g, rng, NULL, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            return;
        ck_assert_int_eq(st, 200);
    }
}

/* Every mix of the four expansions, 2 to 5 seats, half of them with resignations, some played to the end;
 * then admin games with the seed and scripted fruit, hands and sheep. Each imported both ways. */
START_TEST(import_every_expansion_mix)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    static const char *const names[] = {"hills_sheep", "crop_circles", "fruit_trees", "halflings"};
    e2e_rng rng = {0x1a2b};
    int imported = 0;
    for (int mix = 0; mix < 16; mix++) {
        char exps[200] = "[";
        for (int k = 0; k < 4; k++)
            if (mix >> k & 1)
                snprintf(exps + strlen(exps), sizeof exps - strlen(exps), "%s\"%s\"", strlen(exps) > 1 ? "," : "",
                         names[k]);
        strcat(exps, "]");
        e2e_game g;
        int seats = 2 + mix % 4;
        e2e_game_create(c, seats, exps, &g);
        play(c, &g, &rng, mix % 5 == 0 ? 5000 : 40 + 7 * mix, mix % 2 == 1);
        char what[300];
        snprintf(what, sizeof what, "%s, %d seats%s", exps, seats, mix % 2 ? ", resignations" : "");
        import_ok(d, &g, false, what);
        import_ok(d, &g, true, what);
        imported += 2;
    }
    /* scripted: fruit stacks, hands and sheep draws chosen by the admin */
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 3, "[\"fruit_trees\",\"halflings\",\"hills_sheep\"]",
                                  "{\"script\":{\"fruit\":{\"apple\":[5,2,4,3],\"plum\":[2,3,4,5]},"
                                  "\"sheep\":[2,\"wolf\",3],"
                                  "\"hands\":[[\"HW01\",\"HW08\"],[\"HW02\",\"HW03\"],[\"HW04\",\"HW05\"]]}}",
                                  true, &g);
    ck_assert_int_eq(st, 201);
    play(c, &g, &rng, 90, true);
    import_ok(d, &g, false, "scripted fruit, hands and sheep");
    import_ok(d, &g, true, "scripted fruit, hands and sheep");
    imported += 2;
    fprintf(stderr, "e2e carcctl: %d imports of 17 games (16 expansion mixes, one scripted), all the same state\n",
            imported);

    /* a move the game would refuse: the import stops before it creates anything */
    char path[400], args[600], *out, *err;
    snprintf(path, sizeof path, "%s/ex-%s.json", d->dir, g.id);
    json_t *ex = json_load_file(path, 0, NULL);
    ck_assert_ptr_nonnull(ex);
    json_t *m = json_object_get(json_array_get(json_object_get(ex, "moves"), 2), "move");
    json_object_set_new(m, "x", json_integer(40));   /* far from every tile */
    json_object_set_new(m, "type", json_string("place"));
    snprintf(path, sizeof path, "%s/bad.json", d->dir);
    ck_assert_int_eq(json_dump_file(ex, path, 0), 0);
    json_decref(ex);
    size_t before = games_on(d);
    snprintf(args, sizeof args, "import '%s'", path);
    ck_assert_int_eq(run(d, args, &out, &err), 1);
    ck_assert_msg(strstr(err, "move 3") && strstr(err, "nothing was imported"), "%s", err);
    ck_assert_msg(out[0] == 0, "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(games_on(d), before);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* carcctl replay compares the replay of the log with what the server serves from its stored state too (the
 * export's snapshot is itself a replay of the log): a finished game whose stored score was changed by hand is a
 * MISMATCH (exit 1), where it said "ok" while the server served the wrong score. */
START_TEST(replay_finds_a_changed_state)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {5};
    play(c, &g, &rng, 4, false);
    char path[200], sql[300], args[200], *out;
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[seat], NULL, NULL, &r), 200);   /* two seats: it is over */
    e2e_resp_free(&r);
    snprintf(args, sizeof args, "replay %s", g.id);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    snprintf(sql, sizeof sql, "WITH u AS (UPDATE games SET snapshot = jsonb_set(snapshot, '{players,0,score}', '99') "
                              "WHERE id = '%s' RETURNING 1) SELECT count(*) FROM u", g.id);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    e2e_daemon_stop(d);   /* nothing of the game held in memory: the server serves the row */
    e2e_daemon_start(d);
    ck_assert_int_eq(run(d, args, &out, NULL), 1);
    ck_assert_msg(strstr(out, "MISMATCH: the server's game (its stored state) differs") != NULL, "%s", out);
    free(out);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* An export keeps the game's clock settings and an import gives them to the copy (its clock starts then). */
START_TEST(import_keeps_the_clock)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"clock\":{\"per_move_s\":3600,\"reserve_s\":600,"
                                         "\"timeout\":\"skip\",\"remind_at\":null,\"vacation_days\":3}}", false, &g),
                     201);
    e2e_rng rng = {9};
    play(c, &g, &rng, 3, false);
    char path[300], args[400], *out, *err;
    snprintf(path, sizeof path, "%s/clocked.json", d->dir);
    snprintf(args, sizeof args, "export %s -o '%s'", g.id, path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "--json import '%s'", path);
    ck_assert_int_eq(run(d, args, &out, &err), 0);
    json_t *j = must_json(out, "import");
    ck_assert_msg(json_is_true(json_object_get(j, "same_state")), "%s", err);
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(j, "id"));
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "clock.per_move_s"), 3600);
    ck_assert_int_eq(e2e_jint(v, "clock.reserve_s"), 600);
    ck_assert_str_eq(e2e_jstr(v, "clock.timeout"), "skip");
    ck_assert(json_is_null(e2e_jget(v, "clock.remind_at")));
    ck_assert_int_eq(e2e_jint(v, "clock.vacation_days"), 3);
    json_decref(v);
    json_decref(j);
    free(out);
    free(err);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A game the admin cancelled: its import replays the seats' moves and cancels the copy too, where the copy had
 * been a game under way (and "the same final state" said so). */
START_TEST(import_of_a_cancelled_game)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {3};
    play(c, &g, &rng, 5, false);
    char path[400], args[600], *out, *err;
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"reason\":\"moved to another server\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "%s/ex-%s.json", d->dir, g.id);
    snprintf(args, sizeof args, "export %s -o '%s'", g.id, path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "import '%s'", path);
    ck_assert_int_eq(run(d, args, &out, &err), 0);
    json_t *j = must_json(out, "import");
    ck_assert_msg(json_is_true(json_object_get(j, "same_state")), "%s", err);
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(j, "id"));
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_int_eq(e2e_jint(v, "seq"), 6);
    json_decref(v);
    json_decref(j);
    free(out);
    free(err);
    snprintf(args, sizeof args, "show %s", g.id);   /* its summary says cancelled, and waits for nobody */
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    ck_assert_msg(strstr(out, ", cancelled, ") && !strstr(out, "waiting for seat"), "%s", out);
    free(out);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A game where a seat was left to a bot (bot_after_leave): its export is refused by import (the bot's seat
 * takes no token's moves), saying which move, and nothing is created. */
START_TEST(import_refuses_a_seat_left_to_a_bot)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"bot_after_leave\":true}", false, &g), 201);
    char path[400], args[600], *out, *err;
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[1], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "%s/ex-%s.json", d->dir, g.id);
    snprintf(args, sizeof args, "export %s -o '%s'", g.id, path);
    ck_assert_int_eq(run(d, args, &out, NULL), 0);
    free(out);
    size_t before = games_on(d);
    snprintf(args, sizeof args, "import '%s'", path);
    ck_assert_int_eq(run(d, args, &out, &err), 1);
    ck_assert_msg(strstr(err, "move 1 left seat 1 to a bot") && strstr(err, "not imported"), "%s", err);
    ck_assert_msg(out[0] == 0, "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(games_on(d), before);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* What a hostile or broken server answers to every request: a status and a JSON text. */
typedef struct {
    unsigned status;
    const char *body;
} canned;

/* A server that answers every request with the canned answer at cls. */
static enum MHD_Result answer_canned(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                     const char *version, const char *data, size_t *size, void **ctx)
{
    (void)url, (void)method, (void)version, (void)data, (void)size, (void)ctx;
    const canned *a = cls;
    struct MHD_Response *res = MHD_create_response_from_buffer(strlen(a->body), (void *)a->body,
                                                               MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(res, "Content-Type", "application/json");
    enum MHD_Result ret = MHD_queue_response(con, a->status, res);
    MHD_destroy_response(res);
    return ret;
}

/* Runs carcctl with `args` against the server on 127.0.0.1:port (token x); its stdout and stderr together in
 * out (cap bytes); its exit status (128: it did not exit). */
static int run_at(int port, const char *args, char *out, size_t cap)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' --server http://127.0.0.1:%d --token x %s 2>&1", CARCCTL_BIN, port, args);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t n = 0, k;
    while (n < cap - 1 && (k = fread(out + n, 1, cap - 1 - n, p)) > 0)
        n += k;
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* The port of an MHD server (port 0: the system chose it). */
static int port_of(struct MHD_Daemon *mhd)
{
    ck_assert(mhd != NULL);
    return MHD_get_daemon_info(mhd, MHD_DAEMON_INFO_BIND_PORT)->port;
}

START_TEST(show_of_a_hostile_board)
{
    static const canned board = {200, "{\"seq\":1,\"status\":\"active\",\"board\":[{\"x\":0,\"y\":0,\"tile\":\"A\","
                                      "\"rot\":0},{\"x\":65535,\"y\":2340,\"tile\":\"A\",\"rot\":0}],\"figures\":[],"
                                      "\"players\":[],\"pending\":{}}"};
    struct MHD_Daemon *mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer_canned,
                                              (void *)&board, MHD_OPTION_END);
    char out[4096];
    int st = run_at(port_of(mhd), "show 00000000-0000-4000-8000-000000000000", out, sizeof out);
    MHD_stop_daemon(mhd);
    ck_assert_msg(st < 128, "carcctl did not exit: %s", out);
    ck_assert_msg(strstr(out, "no game's board; not drawn"), "%s", out);
}
END_TEST

/* A text that would drive a terminal: ESC ] 0;pwned BEL (its title), ESC [2J (clear it), a C1 CSI (U+009B as
 * UTF-8), DEL and a newline; and "Zoë", which is printable and stays. As JSON, and as carcctl must print it. */
#define EVIL_JSON "\"Eve\\u001b]0;pwned\\u0007\\u001b[2J\xc2\x9b" "\\u007f\\nZo\xc3\xab\""
#define EVIL_SHOWN "Eve\\x1b]0;pwned\\x07\\x1b[2J\\u009b\\x7f\\x0aZo\xc3\xab"

/* No byte of out could drive a terminal: no C0 control but the newline, no DEL, no C1 control as UTF-8. */
static void assert_no_controls(const char *out, const char *what)
{
    for (const unsigned char *u = (const unsigned char *)out; *u; u++) {
        ck_assert_msg((*u >= 0x20 || *u == '\n') && *u != 0x7f, "%s: byte 0x%02x at %td:\n%s", what, *u,
                      (const char *)u - out, out);
        ck_assert_msg(!(u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f), "%s: a C1 control at %td:\n%s", what,
                      (const char *)u - out, out);
    }
}

/* A server whose names, ids, reasons, times and problem details hold terminal controls: every command that
 * prints them for a person shows them escaped (\x1b, \u009b), the rest of the text as it is; where it wrote
 * them raw, and a player's name could retitle or clear the admin's terminal. */
START_TEST(hostile_text_is_escaped)
{
    /* one answer that is every command's: a view (show, hidden), verify's, audit's and a page of list */
    static const canned all = {200, "{\"seq\":1,\"turn\":1,\"status\":\"active\",\"stack_left\":3,"
        "\"board\":[{\"x\":0,\"y\":0,\"tile\":\"A\",\"rot\":0,\"under\":" EVIL_JSON "}],"
        "\"figures\":[{\"piece\":0,\"seat\":-21,\"figure\":\"\\u001b\"}],"   /* '0' - 21 is an ESC */
        "\"players\":[{\"name\":" EVIL_JSON ",\"score\":0,\"supply\":{\"meeple\":7}}],"
        "\"pending\":{\"seat\":0,\"kind\":\"place\",\"tile\":" EVIL_JSON "},"
        "\"seed\":" EVIL_JSON ",\"seed_sha256\":\"ab\",\"rng\":{\"pos\":0},\"stack_remaining\":[" EVIL_JSON "],"
        "\"ok\":false,\"failed_at_seq\":3,\"reason\":" EVIL_JSON ","
        "\"entries\":[{\"id\":\"7\",\"at\":\"2026-12-07T00:00:00Z\",\"action\":" EVIL_JSON ",\"game_id\":" EVIL_JSON
        ",\"actor\":{\"id\":\"admin\",\"name\":" EVIL_JSON ",\"address\":" EVIL_JSON "}}],"
        "\"games\":[{\"id\":" EVIL_JSON ",\"status\":\"active\",\"seq\":1,\"nplayers\":2,\"created_at\":" EVIL_JSON
        "}]," EVIL_JSON ":1}"};
    static const canned problem = {404, "{\"type\":\"about:blank\",\"title\":" EVIL_JSON ",\"status\":404,"
                                        "\"detail\":" EVIL_JSON "}"};
    struct {
        const char *args;
        int exit;
        const char *says[3];
    } want[] = {
        /* the board: the figure's seat and kind in tile A's cell (a cloister: c), escaped */
        {"show g", 0, {"\n> seat 0  " EVIL_SHOWN "    0 points  meeples 7\n", "\nwaiting for seat 0: place "
                       EVIL_SHOWN "\n", "\n     |\\x1b\\x1b  c|\n"}},
        {"verify g", 1, {"MISMATCH at seq 3: " EVIL_SHOWN "\n"}},
        {"audit", 0, {"     7  2026-12-07T00:00:00Z  " EVIL_SHOWN " " EVIL_SHOWN " admin " EVIL_SHOWN " " EVIL_SHOWN
                      "\n"}},
        {"list", 0, {"\n" EVIL_SHOWN "  active       1       2       -  " EVIL_SHOWN "\n"}},
        {"hidden g", 0, {"seed         " EVIL_SHOWN "\n", "stack, in draw order (1): " EVIL_SHOWN "\n",
                         "under the hill A at (0, 0): " EVIL_SHOWN "\n"}},
    };
    char out[16384];
    struct MHD_Daemon *mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer_canned,
                                              (void *)&all, MHD_OPTION_END);
    int port = port_of(mhd);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int st = run_at(port, want[i].args, out, sizeof out);
        ck_assert_msg(st == want[i].exit, "carcctl %s: exit %d:\n%s", want[i].args, st, out);
        assert_no_controls(out, want[i].args);
        for (int k = 0; k < 3 && want[i].says[k]; k++)
            ck_assert_msg(strstr(out, want[i].says[k]), "carcctl %s does not say\n%s\nbut\n%s", want[i].args,
                          want[i].says[k], out);
    }
    MHD_stop_daemon(mhd);
    /* a problem's detail, on stderr */
    mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer_canned, (void *)&problem,
                           MHD_OPTION_END);
    ck_assert_int_eq(run_at(port_of(mhd), "show g", out, sizeof out), 3);
    MHD_stop_daemon(mhd);
    assert_no_controls(out, "a problem");
    ck_assert_str_eq(out, "carcctl: GET /v1/admin/games/g: HTTP 404: " EVIL_SHOWN "\n");
}
END_TEST

/* An answer of `size` spaces, made as it is read, counting in *made what was made. */
typedef struct {
    uint64_t size;
    bool known;      /* Content-Length: size; else chunked, its size told by none */
    uint64_t made;   /* written by MHD's thread, read after MHD_stop_daemon */
} stream;

static ssize_t make_spaces(void *cls, uint64_t pos, char *buf, size_t max)
{
    stream *s = cls;
    if (pos >= s->size)
        return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = s->size - pos < max ? (size_t)(s->size - pos) : max;
    memset(buf, ' ', n);
    s->made = pos + n;
    return (ssize_t)n;
}

static enum MHD_Result answer_stream(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                     const char *version, const char *data, size_t *size, void **ctx)
{
    (void)url, (void)method, (void)version, (void)data, (void)size, (void)ctx;
    stream *s = cls;
    struct MHD_Response *res = MHD_create_response_from_callback(s->known ? s->size : MHD_SIZE_UNKNOWN, 1 << 16,
                                                                 make_spaces, s, NULL);
    enum MHD_Result ret = MHD_queue_response(con, 200, res);
    MHD_destroy_response(res);
    return ret;
}

/* An answer over carcctl's limit (64 MiB): one that says its length is refused before its body is read, one
 * streamed without a length is cut where it passes the limit; either way carcctl names the limit, exits 3 and
 * reads no further, where it read whatever came. */
START_TEST(answer_over_the_limit)
{
    const uint64_t limit = (uint64_t)64 << 20;
    stream streams[] = {{limit + 1, true, 0}, {limit + (32 << 20), false, 0}};
    for (size_t i = 0; i < 2; i++) {
        stream *s = &streams[i];
        struct MHD_Daemon *mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer_stream, s,
                                                  MHD_OPTION_END);
        int port = port_of(mhd);
        char out[4096], says[300];
        int st = run_at(port, "export g", out, sizeof out);
        MHD_stop_daemon(mhd);
        snprintf(says, sizeof says, "carcctl: GET http://127.0.0.1:%d/v1/admin/games/g/export: the answer is larger "
                 "than 64 MiB, the most carcctl reads; not read further\n", port);
        ck_assert_msg(st == 3, "%s answer: exit %d: %s", s->known ? "a long" : "an endless", st, out);
        ck_assert_str_eq(out, says);
        /* the server stopped where carcctl did: what it made past the limit fitted in the sockets' buffers */
        ck_assert_msg(s->made < (s->known ? limit / 2 : limit + (16 << 20)), "%s answer: %llu bytes made",
                      s->known ? "a long" : "an endless", (unsigned long long)s->made);
        fprintf(stderr, "e2e carcctl: an answer of %llu bytes%s: the server made %llu before carcctl stopped\n",
                (unsigned long long)s->size, s->known ? " (Content-Length)" : ", chunked",
                (unsigned long long)s->made);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_carcctl");
    TCase *tc = e2e_tcase("carcctl", 240);
    tcase_add_test(tc, help_and_usage_errors);
    tcase_add_test(tc, json_for_every_command);
    tcase_add_test(tc, import_of_a_cancelled_game);
    tcase_add_test(tc, replay_finds_a_changed_state);
    tcase_add_test(tc, import_keeps_the_clock);
    tcase_add_test(tc, import_every_expansion_mix);
    tcase_add_test(tc, import_refuses_a_seat_left_to_a_bot);
    tcase_add_test(tc, show_of_a_hostile_board);
    tcase_add_test(tc, hostile_text_is_escaped);
    tcase_add_test(tc, answer_over_the_limit);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
