/*
 * test_clock.c — the turn clock's arithmetic (daemon/clock.h), by exact times: deadlines, reserve charged by
 * an overrun, one reminder per turn, pause and resume, vacation (its allowance, its yearly renewal, a
 * vacation taken on one's own turn), the stored form round trip, and the creation request's checks.
 * The states are built by hand: the clock reads only nplayers, status and the pending seat.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "game/clock.h"

#define T0 1767225600.0   /* 2026-01-01T00:00:00Z */

static carc_state *state(int nplayers, int pending)
{
    carc_state *st = calloc(1, sizeof *st);
    ck_assert_ptr_nonnull(st);
    st->nplayers = (uint8_t)nplayers;
    st->status = CARC_ACTIVE;
    st->pending.seat = (uint8_t)pending;
    return st;
}

static cd_clock started(const char *request, carc_state *st)
{
    cd_clock c;
    char field[64], detail[200];
    json_t *j = json_loads(request, 0, NULL);
    ck_assert_msg(cd_clock_from_request(j, &c, field, sizeof field, detail, sizeof detail), "%s", detail);
    json_decref(j);
    cd_clock_start(&c, st, 0, T0);
    return c;
}

START_TEST(deadline_and_reserve)
{
    carc_state *st = state(2, 0);
    cd_clock c = started("{\"per_move_s\": 3600, \"reserve_s\": 600, \"timeout\": \"skip\"}", st);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 4200);
    ck_assert_double_eq(cd_clock_time_left(&c, 0, T0 + 1000), 3200);
    ck_assert_double_eq(cd_clock_time_left(&c, 1, T0 + 1000), 4200);   /* the other seat's next turn */
    /* seat 0 takes 3800 s: 200 over per_move_s come off its reserve */
    st->pending.seat = 1;
    cd_clock_after_move(&c, st, 1, T0 + 3800);
    ck_assert_double_eq(c.reserve[0], 400);
    ck_assert_int_eq(c.seat, 1);
    ck_assert_int_eq(c.turn_seq, 1);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 3800 + 4200);
    /* seat 1 moves within per_move_s: its reserve stays */
    st->pending.seat = 0;
    cd_clock_after_move(&c, st, 2, T0 + 4000);
    ck_assert_double_eq(c.reserve[1], 600);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 4000 + 3600 + 400);
    /* a decision of the same seat continues its turn: nothing changes */
    cd_clock_after_move(&c, st, 3, T0 + 4100);
    ck_assert_int_eq(c.turn_seq, 2);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 8000);
    /* overrunning everything leaves the reserve at zero, never below */
    st->pending.seat = 1;
    cd_clock_after_move(&c, st, 4, T0 + 20000);
    ck_assert_double_eq(c.reserve[0], 0);
    /* the end stops the clock */
    st->status = CARC_FINISHED;
    cd_clock_after_move(&c, st, 5, T0 + 20010);
    ck_assert_int_eq(c.seat, -1);
    ck_assert_double_eq(cd_clock_deadline(&c), -1);
    ck_assert_double_eq(cd_clock_due(&c), -1);
    free(st);
}
END_TEST

START_TEST(reminder_once_per_turn)
{
    carc_state *st = state(3, 0);
    cd_clock c = started("{\"per_move_s\": 1000, \"reserve_s\": 0, \"timeout\": \"none\", \"remind_at\": 0.8}", st);
    ck_assert_double_eq(cd_clock_reminder_at(&c), T0 + 800);
    ck_assert_double_eq(cd_clock_due(&c), T0 + 800);   /* "none": the reminder is all the worker does */
    c.reminded = true;
    ck_assert_double_eq(cd_clock_reminder_at(&c), -1);
    ck_assert_double_eq(cd_clock_due(&c), -1);
    st->pending.seat = 1;
    cd_clock_after_move(&c, st, 1, T0 + 900);
    ck_assert(!c.reminded);
    ck_assert_double_eq(cd_clock_reminder_at(&c), T0 + 900 + 800);
    /* overdue under "none": time left goes negative */
    ck_assert_double_eq(cd_clock_time_left(&c, 1, T0 + 2000), -100);
    cd_clock d = started("{\"per_move_s\": 1000, \"timeout\": \"forfeit\", \"remind_at\": null}", st);
    ck_assert_double_eq(cd_clock_reminder_at(&d), -1);
    ck_assert_double_eq(cd_clock_due(&d), T0 + 1000);
    free(st);
}
END_TEST

START_TEST(pause_needs_everyone_in_play)
{
    carc_state *st = state(3, 0);
    cd_clock c = started("{\"per_move_s\": 1000, \"timeout\": \"skip\"}", st);
    unsigned left = 1u << 2;   /* seat 2 resigned: seats 0 and 1 decide */
    ck_assert(!cd_clock_pause_vote(&c, 0, left, T0 + 100));
    ck_assert(!cd_clock_pause_vote(&c, 0, left, T0 + 150));   /* asking twice is one request */
    ck_assert(cd_clock_pause_vote(&c, 1, left, T0 + 200));
    ck_assert(c.paused);
    ck_assert_double_eq(cd_clock_deadline(&c), -1);
    ck_assert_double_eq(cd_clock_due(&c), -1);
    ck_assert_double_eq(cd_clock_time_left(&c, 0, T0 + 5000), 800);   /* paused at 200 s used */
    cd_clock_resume(&c, T0 + 10000);
    ck_assert(!c.paused);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 10000 + 800);
    /* resume withdraws open requests */
    ck_assert(!cd_clock_pause_vote(&c, 1, left, T0 + 10001));
    cd_clock_resume(&c, T0 + 10002);
    ck_assert_uint_eq(c.pause_votes, 0);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 10800);
    free(st);
}
END_TEST

START_TEST(vacation)
{
    carc_state *st = state(2, 0);
    cd_clock c = started("{\"per_move_s\": 1000, \"timeout\": \"skip\", \"vacation_days\": 5}", st);
    char detail[200];
    /* seat 1 (not on turn) goes away for 2 days: its next turn's clock waits for the end */
    ck_assert_int_eq(cd_clock_vacation(&c, 1, 2, T0 + 100, detail, sizeof detail), 0);
    ck_assert_double_eq(c.vacation_until[1], T0 + 100 + 2 * CD_DAY_S);
    ck_assert_int_eq(cd_clock_vacation_left(&c, T0 + 100, 1), 3);
    st->pending.seat = 1;
    cd_clock_after_move(&c, st, 1, T0 + 500);
    ck_assert(!cd_clock_running(&c, T0 + 600));
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 100 + 2 * CD_DAY_S + 1000);
    ck_assert_double_eq(cd_clock_time_left(&c, 1, T0 + 600), 2 * CD_DAY_S + 500);   /* to the deadline */
    /* more than is left: refused, nothing taken */
    ck_assert_int_eq(cd_clock_vacation(&c, 1, 4, T0 + 600, detail, sizeof detail), -1);
    ck_assert_int_eq(cd_clock_vacation_left(&c, T0 + 600, 1), 3);
    /* on one's own running turn: the time used so far is kept, the clock restarts after the vacation */
    st->pending.seat = 0;
    cd_clock_after_move(&c, st, 2, T0 + 3 * CD_DAY_S);
    ck_assert_int_eq(cd_clock_vacation(&c, 0, 1, T0 + 3 * CD_DAY_S + 300, detail, sizeof detail), 0);
    ck_assert_double_eq(cd_clock_deadline(&c), T0 + 4 * CD_DAY_S + 300 + 700);
    /* the allowance comes back a year after the game began */
    ck_assert_int_eq(cd_clock_vacation_left(&c, T0 + CD_YEAR_S + 1, 0), 5);
    ck_assert_int_eq(cd_clock_vacation(&c, 0, 5, T0 + CD_YEAR_S + 1, detail, sizeof detail), 0);
    ck_assert_int_eq(cd_clock_vacation_left(&c, T0 + CD_YEAR_S + 2, 0), 0);
    free(st);
}
END_TEST

START_TEST(stored_form_round_trip)
{
    carc_state *st = state(4, 2);
    cd_clock c = started("{\"per_move_s\": 86400, \"reserve_s\": 172800, \"timeout\": \"forfeit\", \"remind_at\": 0.5}", st);
    char detail[200];
    ck_assert_int_eq(cd_clock_vacation(&c, 3, 2, T0 + 5, detail, sizeof detail), 0);
    cd_clock_pause_vote(&c, 1, 0, T0 + 6);
    json_t *j = cd_clock_to_json(&c);
    cd_clock d;
    ck_assert(cd_clock_from_json(j, &d));
    json_decref(j);
    ck_assert_mem_eq(&c, &d, sizeof c);
    /* the view: the running seat's deadline, whole seconds as integers */
    json_t *v = cd_clock_view(&c, T0 + 100);
    ck_assert_str_eq(json_string_value(json_object_get(v, "deadline")), "2026-01-04T00:00:00.000Z");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(json_object_get(v, "seats"), 2), "time_left_s")),
                     259200 - 100);
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "seats"), 0), "deadline")));
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(v, "pause_requested_by"), 0)), 1);
    json_decref(v);
    free(st);
}
END_TEST

START_TEST(request_checks)
{
    static const struct {
        const char *json, *field;
    } bad[] = {
        {"{}", "clock.per_move_s"},
        {"{\"per_move_s\": 0}", "clock.per_move_s"},
        {"{\"per_move_s\": -5}", "clock.per_move_s"},
        {"{\"per_move_s\": \"1d\"}", "clock.per_move_s"},
        {"{\"per_move_s\": 99999999999}", "clock.per_move_s"},
        {"{\"per_move_s\": 60, \"reserve_s\": -1}", "clock.reserve_s"},
        {"{\"per_move_s\": 60, \"timeout\": \"pass\"}", "clock.timeout"},
        {"{\"per_move_s\": 60, \"remind_at\": 0}", "clock.remind_at"},
        {"{\"per_move_s\": 60, \"remind_at\": 1.5}", "clock.remind_at"},
        {"{\"per_move_s\": 60, \"vacation_days\": 1.5}", "clock.vacation_days"},
        {"{\"per_move_s\": 60, \"vacation_days\": 400}", "clock.vacation_days"},
        {"{\"per_move_s\": 60, \"hurry\": true}", "clock.hurry"},
        {"[60]", "clock"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i].json, JSON_DECODE_ANY, NULL);
        cd_clock c;
        char field[64] = "", detail[200];
        ck_assert_msg(!cd_clock_from_request(j, &c, field, sizeof field, detail, sizeof detail), "%s", bad[i].json);
        ck_assert_str_eq(field, bad[i].field);
        json_decref(j);
    }
    json_t *j = json_loads("{\"per_move_s\": 0.5}", 0, NULL);
    cd_clock c;
    char field[64], detail[200];
    ck_assert(cd_clock_from_request(j, &c, field, sizeof field, detail, sizeof detail));
    ck_assert_int_eq(c.timeout, CD_TIMEOUT_NONE);
    ck_assert_double_eq(c.remind_at, 0.8);
    ck_assert_int_eq(c.vacation_days, CD_CLOCK_VACATION_DEFAULT);
    json_decref(j);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("clock");
    tcase_add_test(tc, deadline_and_reserve);
    tcase_add_test(tc, reminder_once_per_turn);
    tcase_add_test(tc, pause_needs_everyone_in_play);
    tcase_add_test(tc, vacation);
    tcase_add_test(tc, stored_form_round_trip);
    tcase_add_test(tc, request_checks);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
