/*
 * test_standby.c — carcd serving from a hot standby (after a failover, before promotion): PostgreSQL refuses
 * LISTEN during recovery, so the notify thread cannot listen. A long-poll still waits its time and answers;
 * carcd says so once and keeps its connection rather than reconnecting over and over (db/notify.c: a refused
 * LISTEN is asked again a second later).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

START_TEST(long_poll_on_a_standby)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    ck_assert_int_eq(e2e_daemon_stop(d), 0);
    /* the same database, on a standby taken now; carcd is started again on it */
    char primary[sizeof d->dburl];
    snprintf(primary, sizeof primary, "%s", d->dburl);
    e2e_pg_standby_start(d->dbname, d->dburl, sizeof d->dburl);
    char *before = e2e_daemon_log(d);
    size_t from = strlen(before);
    free(before);
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=0&wait=3", g.id);
    double t0 = e2e_now();
    json_t *a = e2e_get_ok(c, path, NULL, 200);
    double took = e2e_now() - t0;
    ck_assert_uint_eq(json_array_size(json_object_get(a, "entries")), 0);
    ck_assert_double_ge(took, 2.9);   /* it waited: nothing could wake it, and nothing did early */
    ck_assert_double_lt(took, 3.0 + 3.0 * E2E_SLACK);   /* its 3 s, and the request around it */
    json_decref(a);
    char *log = e2e_daemon_log(d);
    const char *since = log + from;
    ck_assert_msg(e2e_count(since, "cannot execute LISTEN during recovery") == 1, "the log since the restart:\n%s",
                  since);
    ck_assert_msg(e2e_count(since, "lost the listening connection") == 0, "the log since the restart:\n%s", since);
    free(log);
    ck_assert_int_eq(e2e_daemon_stop(d), 0);
    e2e_pg_standby_stop();
    snprintf(d->dburl, sizeof d->dburl, "%s", primary);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_standby");
    TCase *tc = e2e_tcase("standby", 120);
    tcase_add_test(tc, long_poll_on_a_standby);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
