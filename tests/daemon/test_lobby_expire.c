/*
 * test_lobby_expire.c — how a waiting game's expiry is said and when its seats are warned
 * (daemon/game/lobby_expire.h): the TTL in the largest whole unit, a day's warning or half a short TTL. The
 * expiry itself, against PostgreSQL and the mail servers, is e2e_mail's waiting_game_expires (and a late warning
 * e2e_lobby's late_warning_counts_anew).
 */
#include <check.h>
#include <stdlib.h>

#include "game/lobby_expire.h"

START_TEST(ttl_words)
{
    static const struct {
        int s;
        const char *words;
    } cases[] = {{1209600, "14 days"}, {86400, "1 day"}, {90000, "25 hours"}, {7200, "2 hours"},
                 {3600, "1 hour"},     {120, "2 minutes"}, {90, "90 seconds"}, {1, "1 second"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[40];
        cd_lobby_ttl_words(cases[i].s, out, sizeof out);
        ck_assert_str_eq(out, cases[i].words);
    }
}
END_TEST

START_TEST(warned_a_day_before_or_half_way)
{
    ck_assert_int_eq(cd_lobby_warn_before(1209600), 86400);   /* the default: 13 days in, a day left */
    ck_assert_int_eq(cd_lobby_warn_before(2 * 86400), 86400);
    ck_assert_int_eq(cd_lobby_warn_before(2 * 86400 - 2), 86400 - 1);
    ck_assert_int_eq(cd_lobby_warn_before(6), 3);
    ck_assert_int_eq(cd_lobby_warn_before(1), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lobby_expire");
    TCase *t = tcase_create("lobby_expire");
    tcase_add_test(t, ttl_words);
    tcase_add_test(t, warned_a_day_before_or_half_way);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
