/*
 * test_log_buffer.c — the requests' log lines gathered (base/log.h, cd_log_buffer_start): what is gathered
 * goes out whole and in order, before a cd_log line, when 64 KiB wait, flush_ms after the first line with no
 * other call, at cd_log_buffer_stop (every line at once after it), at exit and when the process aborts. stderr
 * is redirected to a file and read back. Each test runs in Check's own child process, so the buffer, its
 * thread and the fatal-signal actions start fresh.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"

static char path[64];

/* stderr into a new file from here on */
static void stderr_to_file(void)
{
    snprintf(path, sizeof path, "/tmp/carcd-log-buffer.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    close(fd);
}

/* the file so far (malloc'd, NUL-terminated) */
static char *written(void)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void request_line(int i)
{
    cd_log_line l;
    cd_log_line_begin(&l);
    cd_log_line_str(&l, "path", "/v1/games/x/moves");
    cd_log_line_int(&l, "n", i);
    cd_log_line_end(&l);
}

static int count(const char *s, const char *needle)
{
    int k = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

START_TEST(gathered_lines_go_out_in_order_before_a_warning)
{
    stderr_to_file();
    ck_assert_int_eq(cd_log_buffer_start(60000), 0);   /* the flusher would write in a minute: never here */
    for (int i = 0; i < 3; i++)
        request_line(i);
    char *s = written();
    ck_assert_str_eq(s, "");   /* gathered, not written */
    free(s);
    cd_log("warn", "something to see at once");
    s = written();
    ck_assert_int_eq(count(s, "\n"), 4);
    const char *a = strstr(s, "\"n\":0}"), *b = strstr(s, "\"n\":1}"), *c = strstr(s, "\"n\":2}"),
               *w = strstr(s, "something to see at once");
    ck_assert(a && b && c && w);
    ck_assert(a < b && b < c && c < w);   /* the order they were made in */
    free(s);
    request_line(3);
    cd_log_flush();
    s = written();
    ck_assert_int_eq(count(s, "\n"), 5);
    ck_assert_ptr_nonnull(strstr(s, "\"n\":3}\n"));
    free(s);
    cd_log_buffer_stop();
}
END_TEST

START_TEST(a_full_buffer_is_written_whole_lines)
{
    stderr_to_file();
    ck_assert_int_eq(cd_log_buffer_start(60000), 0);
    int n = 0;
    char *s = written();
    while (s[0] == '\0' && n < 10000) {   /* a line is ~70 bytes: 64 KiB fill in under a thousand */
        free(s);
        request_line(n++);
        s = written();
    }
    size_t len = strlen(s);
    ck_assert_uint_gt(len, 60000);
    ck_assert_uint_le(len, 65536);
    ck_assert_int_eq(s[len - 1], '\n');   /* whole lines */
    ck_assert_int_eq(count(s, "\n"), n - 1);   /* all but the one that did not fit */
    free(s);
    cd_log_buffer_stop();
    s = written();
    ck_assert_int_eq(count(s, "\n"), n);
    free(s);
}
END_TEST

START_TEST(the_flusher_writes_a_line_within_flush_ms)
{
    stderr_to_file();
    ck_assert_int_eq(cd_log_buffer_start(50), 0);
    double t0 = now_s();
    request_line(7);
    char *s = written();
    while (!strstr(s, "\"n\":7}") && now_s() - t0 < 10) {   /* nothing else is called meanwhile */
        free(s);
        sleep_ms(5);
        s = written();
    }
    ck_assert_msg(strstr(s, "\"n\":7}\n") != NULL, "the line was not written in 10 s");
    double waited = now_s() - t0;
    ck_assert_msg(waited >= 0.045, "written after %.3f s: before its 50 ms", waited);
    free(s);
    /* an idle flusher writes nothing more */
    sleep_ms(150);
    s = written();
    ck_assert_int_eq(count(s, "\n"), 1);
    free(s);
    cd_log_buffer_stop();
}
END_TEST

START_TEST(after_stop_every_line_goes_out_at_once)
{
    stderr_to_file();
    ck_assert_int_eq(cd_log_buffer_start(60000), 0);
    request_line(1);
    cd_log_buffer_stop();   /* writes the gathered line */
    char *s = written();
    ck_assert_int_eq(count(s, "\n"), 1);
    free(s);
    request_line(2);
    s = written();
    ck_assert_int_eq(count(s, "\n"), 2);
    free(s);
    /* and 0 gathers nothing either */
    ck_assert_int_eq(cd_log_buffer_start(0), 0);
    request_line(3);
    s = written();
    ck_assert_int_eq(count(s, "\n"), 3);
    free(s);
}
END_TEST

/* A child gathers lines and ends as `how` says; the file holds them after. */
static void child_ends(int how)
{
    stderr_to_file();
    fflush(stdout);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (cd_log_buffer_start(60000) != 0)
            _exit(3);
        request_line(41);
        request_line(42);
        if (how == 0)
            exit(0);   /* atexit */
        if (how == 1)
            abort();   /* SIGABRT */
        kill(getpid(), SIGSEGV);   /* a SIGSEGV from outside */
        _exit(4);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    if (how == 0)
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    else   /* killed by it, or reported and ended by a sanitizer's handler */
        ck_assert_msg(WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 4),
                      "the child went on after its fatal signal (status %d)", st);
    char *s = written();
    const char *a = strstr(s, "\"n\":41}\n"), *b = strstr(s, "\"n\":42}\n");
    ck_assert_msg(a && b && a < b, "the gathered lines were lost: %s", s);
    free(s);
}

START_TEST(exit_writes_the_gathered_lines)
{
    child_ends(0);
}
END_TEST

START_TEST(abort_writes_the_gathered_lines)
{
    child_ends(1);
}
END_TEST

START_TEST(a_fatal_signal_writes_the_gathered_lines)
{
    child_ends(2);
}
END_TEST

static void remove_file(void)
{
    if (path[0])
        unlink(path);
}

static Suite *suite(void)
{
    Suite *s = suite_create("log_buffer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, remove_file);
    tcase_add_test(tc, gathered_lines_go_out_in_order_before_a_warning);
    tcase_add_test(tc, a_full_buffer_is_written_whole_lines);
    tcase_add_test(tc, the_flusher_writes_a_line_within_flush_ms);
    tcase_add_test(tc, after_stop_every_line_goes_out_at_once);
    tcase_add_test(tc, exit_writes_the_gathered_lines);
    tcase_add_test(tc, abort_writes_the_gathered_lines);
    tcase_add_test(tc, a_fatal_signal_writes_the_gathered_lines);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
