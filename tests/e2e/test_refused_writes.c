/*
 * test_refused_writes.c — a database that refuses writes, end to end against the real throwaway PostgreSQL:
 * the game's database made read-only (ALTER DATABASE ... SET default_transaction_read_only = on; carcd
 * restarted so its sessions take it, as after a failover to a standby).
 *
 * Checked: a move and a game creation answer 503 /problems/unavailable with Retry-After (not 500), the game
 * is unchanged; reads still answer; carcd's log names the route, the game, the SQLSTATE (25006) and the
 * server's message; the clock worker's line names the game whose clock is due; an admin export still
 * answers 200 and says `audited: false` (the log keeps the record); once writes are allowed again the same
 * move is stored and the export is audited. A refused privilege (carcd connecting as a role that may not
 * insert moves: 42501) is nothing a client can wait out: 500, with the SQLSTATE and message in the log.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"

/* One statement on a session of its own that may write whatever the database's default says */
static void db_run(const e2e_daemon *d, const char *sql)
{
    char url[sizeof d->dburl + 80];
    snprintf(url, sizeof url, "%s options='-c default_transaction_read_only=off'", d->dburl);
    PGconn *c = PQconnectdb(url);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK, "%s: %s", sql, PQerrorMessage(c));
    PQclear(res);
    PQfinish(c);
}

static void set_read_only(e2e_daemon *d, e2e_client *c, bool on)
{
    char sql[200];
    snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" SET default_transaction_read_only = %s", d->dbname,
             on ? "on" : "off");
    db_run(d, sql);
    /* the setting is taken by new sessions: carcd starts again, as it would after a failover */
    e2e_daemon_stop(d);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
}

/* Whether a line of carcd's log has all of a, b and c (NULL: any); the first such line is printed. */
static bool log_has(const e2e_daemon *d, const char *a, const char *b, const char *c)
{
    char *log = e2e_daemon_log(d);
    bool found = false;
    for (char *line = log; line && *line && !found;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        found = strstr(line, a) && (!b || strstr(line, b)) && (!c || strstr(line, c));
        if (found)
            fprintf(stderr, "e2e refused writes: %s\n", line);
        line = end ? end + 1 : NULL;
    }
    free(log);
    return found;
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

START_TEST(read_only_database)
{
    const char *env[] = {"CARCD_CLOCK_INTERVAL_MS=50", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    /* a clocked game; its clock is made due once carcd runs on the read-only database (below) */
    e2e_game cg;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"clock\":{\"per_move_s\":86400}}", false, &cg), 201);

    char path[160], mpath[160], epath[200];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);
    snprintf(epath, sizeof epath, "/v1/admin/games/%s/export", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    char lpath[200];
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g.id);
    json_t *lm = e2e_get_ok(c, lpath, g.token[seat], 200);
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", 0, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    json_decref(lm);

    set_read_only(d, c, true);
    /* the clocked game due in 3 s: the worker will want to act on it. Set only now, so that the writable carcd
     * stopped above cannot have acted on it first (it looks every 50 ms) */
    char sql[300];
    snprintf(sql, sizeof sql, "UPDATE games SET clock_due = now() + interval '3 seconds' WHERE id = '%s'", cg.id);
    db_run(d, sql);
    e2e_resp r;
    char after[32];
    /* a move: 503 with Retry-After, nothing stored */
    ck_assert_int_eq(e2e_req(c, "POST", mpath, g.token[seat], body, NULL, &r), 503);
    e2e_assert_problem(&r, 503, NULL, "a move on a read-only database");
    ck_assert(e2e_problem_is(&r, "unavailable"));
    ck_assert_ptr_nonnull(e2e_header(&r, "Retry-After", after, sizeof after));
    ck_assert_int_gt(atoi(after), 0);
    e2e_resp_free(&r);
    ck_assert_msg(log_has(d, "moves", "SQLSTATE 25006", g.id), "the log has no line with the move's SQLSTATE and game");
    ck_assert_msg(log_has(d, "SQLSTATE 25006", "read-only transaction", NULL), "the log has not the server's message");
    /* a game creation too */
    e2e_game g2;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, NULL, false, &g2), 503);
    /* reads still work, and the game is where it was */
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "seq"), 0);
    json_decref(v);
    /* the export answers, and says it was not audited; the log keeps the record */
    json_t *ex = e2e_get_ok(c, epath, d->admin, 200);
    ck_assert(json_is_false(json_object_get(ex, "audited")));
    ck_assert_int_eq(e2e_jint(ex, "seq"), 0);
    json_decref(ex);
    ck_assert_msg(log_has(d, "audit:", "exported game", g.id), "the unaudited export left no log line");
    /* the clock worker names the game it could not act on */
    double end = e2e_now() + 10;
    while (!log_has(d, "clock: game", cg.id, "SQLSTATE 25006") && e2e_now() < end)
        nap(0.1);
    ck_assert_msg(log_has(d, "clock: game", cg.id, "SQLSTATE 25006"), "no clock line names game %s", cg.id);

    /* writes allowed again: the same move is stored, the export audited */
    set_read_only(d, c, false);
    ck_assert_int_eq(e2e_req(c, "POST", mpath, g.token[seat], body, NULL, &r), 200);
    ck_assert_int_eq(e2e_jint(r.json, "seq"), 1);
    e2e_resp_free(&r);
    ex = e2e_get_ok(c, epath, d->admin, 200);
    ck_assert(json_is_true(json_object_get(ex, "audited")));
    json_decref(ex);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), 1);
    free(body);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* carcd as a role of its own that may read and write every table but insert no moves */
START_TEST(revoked_privilege)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char role[80], sql[400];
    snprintf(role, sizeof role, "%s_limited", d->dbname);
    snprintf(sql, sizeof sql, "CREATE ROLE \"%s\" LOGIN", role);
    db_run(d, sql);
    snprintf(sql, sizeof sql, "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \"%s\"", role);
    db_run(d, sql);
    snprintf(sql, sizeof sql, "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \"%s\"", role);
    db_run(d, sql);
    snprintf(sql, sizeof sql, "REVOKE INSERT ON moves FROM \"%s\"", role);
    db_run(d, sql);
    char url[sizeof d->dburl];
    memcpy(url, d->dburl, sizeof url);
    e2e_daemon_stop(d);
    snprintf(d->dburl, sizeof d->dburl, "%s user=%s", url, role);   /* the last user= wins */
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);

    char path[160], lpath[200], mpath[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);   /* reads work */
    int seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    json_t *lm = e2e_get_ok(c, lpath, g.token[seat], 200);
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", 0, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    json_decref(lm);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", mpath, g.token[seat], body, NULL, &r), 500);
    e2e_assert_problem(&r, 500, NULL, "a move its role may not insert");
    e2e_resp_free(&r);
    ck_assert_msg(log_has(d, "the move could not be stored", "SQLSTATE 42501", "permission denied"),
                  "the log has no line with the refused privilege");

    e2e_daemon_stop(d);
    memcpy(d->dburl, url, sizeof url);
    snprintf(sql, sizeof sql, "DROP OWNED BY \"%s\"", role);
    db_run(d, sql);
    snprintf(sql, sizeof sql, "DROP ROLE \"%s\"", role);
    db_run(d, sql);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    ck_assert_int_eq(e2e_req(c, "POST", mpath, g.token[seat], body, NULL, &r), 200);
    e2e_resp_free(&r);
    free(body);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_refused_writes");
    TCase *tc = e2e_tcase("refused_writes", 120);
    tcase_add_test(tc, read_only_database);
    tcase_add_test(tc, revoked_privilege);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
