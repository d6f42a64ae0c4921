/*
 * test_log_line.c — cd_log_line (base/log.h) writes the bytes cd_log_json writes for the same members: strings
 * with quotes, backslashes, control bytes, UTF-8 and invalid UTF-8 (every byte past ASCII then '?', as the
 * request line's strings were made by http/server.c), and integers; the "ms" member (a duration in microseconds,
 * written as milliseconds with exactly three decimals, where jansson would drop trailing zeros) is a
 * placeholder string in the tree, replaced by the text "%lld.%03lld" gives. Both lines are read back from
 * stderr, redirected to a file, and compared without their "ts". The timestamp itself
 * (formatted once a second per thread) is the wall clock's UTC second with its milliseconds, across seconds.
 */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"

/* json_string of s, every byte past ASCII '?' when s is not UTF-8 (http/reply.c's string_lossy) */
static json_t *lossy(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char *c = strdup(s);
    for (unsigned char *p = (unsigned char *)c; *p; p++)
        if (*p >= 0x80)
            *p = '?';
    j = json_string(c);
    free(c);
    return j;
}

/* The two lines written for one member set, read back without their "ts" members. */
static void both(const char *str, long long n, long long us, char **tree, char **line)
{
    fflush(stderr);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(f), STDERR_FILENO);
    json_t *o = json_object();
    json_object_set_new(o, "method", lossy(str));
    json_object_set_new(o, "status", json_integer(n));
    json_object_set_new(o, "ms", json_string("MS-PLACEHOLDER"));
    json_object_set_new(o, "end", json_string("client_gone"));
    cd_log_json(o);
    cd_log_line l;
    cd_log_line_begin(&l);
    cd_log_line_str(&l, "method", str);
    cd_log_line_int(&l, "status", n);
    cd_log_line_ms(&l, "ms", us);
    cd_log_line_str(&l, "end", "client_gone");
    cd_log_line_end(&l);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(f);
    char buf[2][16384];
    for (int i = 0; i < 2; i++) {
        ck_assert_ptr_nonnull(fgets(buf[i], sizeof buf[i], f));
        char *rest = strstr(buf[i], "Z\",");   /* after the timestamp */
        ck_assert_ptr_nonnull(rest);
        memmove(buf[i], rest + 3, strlen(rest + 3) + 1);
    }
    fclose(f);
    /* the tree's placeholder becomes the milliseconds' text */
    char ms[48];
    unsigned long long mag = us < 0 ? 0ULL - (unsigned long long)us : (unsigned long long)us;
    snprintf(ms, sizeof ms, "%s%llu.%03llu", us < 0 ? "-" : "", mag / 1000, mag % 1000);
    char *ph = strstr(buf[0], "\"MS-PLACEHOLDER\"");
    ck_assert_ptr_nonnull(ph);
    char rest[16384];
    snprintf(rest, sizeof rest, "%s", ph + strlen("\"MS-PLACEHOLDER\""));
    snprintf(ph, sizeof buf[0] - (size_t)(ph - buf[0]), "%s%s", ms, rest);
    *tree = strdup(buf[0]);
    *line = strdup(buf[1]);
}

START_TEST(same_bytes_as_the_tree)
{
    static const char *const strs[] = {"GET", "", "a\"b\\c/d", "tab\there\nnl\rcr\bbs\ffeed", "\x01\x1f\x7f",
                                       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1", "bad \xff\xfe utf-8 \xc3",
                                       "\xc0\xaf overlong", "\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 past"};
    static const long long uss[] = {0, 1, 9, 10, 999, 1000, 1500, 7295, 266542, 100000, 1234567, 99999999, -1,
                                    -1500, LLONG_MAX, LLONG_MIN};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        for (size_t k = 0; k < sizeof uss / sizeof uss[0]; k++) {
            char *tree, *line;
            both(strs[i], (long long)(i * 37) - 5, uss[k], &tree, &line);
            ck_assert_msg(strcmp(tree, line) == 0, "string %zu, %lld us:\n%s%s", i, uss[k], tree, line);
            free(tree);
            free(line);
        }
}
END_TEST

START_TEST(integers_at_their_ends)
{
    /* the digits are written from the magnitude as unsigned, which LLONG_MIN has and -LLONG_MIN has not */
    static const long long ints[] = {0, 9, 10, -1, -10, 999999, 1000000, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        char *tree, *line;
        both("GET", ints[i], 1500, &tree, &line);
        ck_assert_msg(strcmp(tree, line) == 0, "integer %lld:\n%s%s", ints[i], tree, line);
        free(tree);
        free(line);
    }
}
END_TEST

/* A member past the line's buffer is left out whole, and the ones after it still go in where they fit. */
START_TEST(a_member_that_does_not_fit_is_left_out)
{
    fflush(stderr);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(f), STDERR_FILENO);
    static char big[9000];
    memset(big, 'x', sizeof big - 1);
    cd_log_line l;
    cd_log_line_begin(&l);
    cd_log_line_str(&l, "path", big);
    cd_log_line_int(&l, "status", 200);
    cd_log_line_end(&l);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(f);
    char buf[16384];
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_ptr_null(strstr(buf, "\"path\""));
    ck_assert_ptr_nonnull(strstr(buf, "Z\",\"status\":200}\n"));
}
END_TEST

/* The UTC second, as "YYYY-MM-DDTHH:MM:SS" */
static void utc_second(time_t t, char out[32])
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* the clock the log reads (time() is the coarse clock, which may lag it by a tick) */
static time_t now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec;
}

START_TEST(timestamp_is_the_utc_clock)
{
    /* calls through at least two second boundaries: each one between the clock read before and after it */
    time_t first = now_s();
    int seen_seconds = 0;
    time_t last = (time_t)-1;
    while (now_s() < first + 3) {
        char before[32], after[32], ts[40];
        time_t t0 = now_s();
        cd_log_timestamp(ts, sizeof ts);
        time_t t1 = now_s();
        utc_second(t0, before);
        utc_second(t1, after);
        ck_assert_uint_eq(strlen(ts), 24);
        ck_assert_msg(strncmp(ts, before, 19) == 0 || strncmp(ts, after, 19) == 0, "%s is neither %s nor %s", ts,
                      before, after);
        ck_assert_msg(ts[19] == '.' && ts[20] >= '0' && ts[20] <= '9' && ts[21] >= '0' && ts[21] <= '9' &&
                          ts[22] >= '0' && ts[22] <= '9' && ts[23] == 'Z',
                      "%s: no milliseconds", ts);
        if (t0 == t1 && t0 != last) {
            seen_seconds++;
            last = t0;
        }
        nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);
    }
    ck_assert_int_ge(seen_seconds, 2);
    /* too small a buffer gets an empty string, not a cut one */
    char small[10];
    cd_log_timestamp(small, sizeof small);
    ck_assert_str_eq(small, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log_line");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, same_bytes_as_the_tree);
    tcase_add_test(tc, integers_at_their_ends);
    tcase_add_test(tc, a_member_that_does_not_fit_is_left_out);
    tcase_add_test(tc, timestamp_is_the_utc_clock);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
