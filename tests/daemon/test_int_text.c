/*
 * test_int_text.c — cd_int_text (daemon/base/int_text.h) writes what snprintf's "%lld" writes: the edges
 * (0, ±1, INT_MIN, INT_MAX, LLONG_MIN, LLONG_MAX, each power of ten and its neighbours) and a fixed-seed
 * sweep, with the length.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/int_text.h"

static void same_as_printf(long long v)
{
    char want[CD_INT_TEXT + 4], got[CD_INT_TEXT];
    int n = snprintf(want, sizeof want, "%lld", v);
    memset(got, 'x', sizeof got);
    size_t k = cd_int_text(v, got);
    /* checked with if: each ck_assert writes a mark to Check's pipe, 600 000 system calls in the sweep, which
     * took it past Check's timeout under AddressSanitizer on a loaded machine */
    if (strcmp(got, want) != 0 || k != (size_t)n)
        ck_abort_msg("%lld: \"%s\" (%zu) against \"%s\"", v, got, k, want);
}

START_TEST(edges)
{
    const long long edge[] = {0, 1, -1, 9, -9, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, LLONG_MAX, LLONG_MIN,
                              LLONG_MAX - 1, LLONG_MIN + 1};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        same_as_printf(edge[i]);
    for (long long p = 10; p <= LLONG_MAX / 10; p *= 10)
        for (int d = -1; d <= 1; d++) {
            same_as_printf(p + d);
            same_as_printf(-(p + d));
        }
}
END_TEST

START_TEST(sweep)
{
    unsigned x = 0x2545f491u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        same_as_printf((int)x);
        same_as_printf((long long)((unsigned long long)x << 31 ^ x));
        same_as_printf((int)(x % 100000) - 50000);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("int_text");
    TCase *t = tcase_create("int_text");
    tcase_add_test(t, edges);
    tcase_add_test(t, sweep);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
