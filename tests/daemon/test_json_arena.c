/*
 * test_json_arena.c — the per-request jansson arena (daemon/json_arena.h): values made inside a scope count
 * as live until freed, trees larger than a chunk work, values from before a scope are freed normally inside
 * it, the scope keeps one chunk for the next, threads have their own arenas, nesting and leaks are caught.
 * Built with AddressSanitizer the arena is malloc with a pointer set, and a leak aborts; otherwise a leak
 * sets the arena's memory aside, so a value that escaped stays readable and a new scope does not reuse it.
 */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_arena.h"
#include "base/json_out.h"

#if defined(__SANITIZE_ADDRESS__)
#define CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECKED 1
#endif
#endif

/* n objects of a few members each, in an array: about 200 bytes of jansson values per element */
static json_t *tree(int n, const char *tag)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:i, s:s, s:[i,i]}", "i", i, "tag", tag, "xy", i, -i));
    return a;
}

static void check_tree(const json_t *a, int n, const char *tag)
{
    ck_assert_int_eq(json_array_size(a), n);
    for (int i = 0; i < n; i += n / 7 + 1) {
        const json_t *o = json_array_get(a, (size_t)i);
        ck_assert_int_eq(json_integer_value(json_object_get(o, "i")), i);
        ck_assert_str_eq(json_string_value(json_object_get(o, "tag")), tag);
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(o, "xy"), 1)), -i);
    }
}

START_TEST(outside_a_scope_nothing_counts)
{
    cd_json_arena_install();
    ck_assert(!cd_json_arena_active());
    json_t *t = tree(100, "out");
    ck_assert_int_eq(cd_json_arena_live(), 0);
    json_decref(t);
    ck_assert_int_eq(cd_json_arena_live(), 0);
}
END_TEST

START_TEST(a_scope_counts_its_values_until_freed)
{
    cd_json_arena_begin();
    ck_assert(cd_json_arena_active());
    json_t *t = tree(20000, "big");   /* ~4 MB of values: many chunks */
    ck_assert_int_gt(cd_json_arena_live(), 20000);
    check_tree(t, 20000, "big");
    char *text = cd_json_dumps(t, JSON_COMPACT);   /* malloc memory: free() is right for it */
    ck_assert_ptr_nonnull(text);
    json_t *back = json_loads(text, 0, NULL);
    free(text);
    ck_assert(json_equal(back, t));
    json_decref(back);
    json_decref(t);
    ck_assert_int_eq(cd_json_arena_live(), 0);
    cd_json_arena_end();
    ck_assert(!cd_json_arena_active());
    /* one chunk stays for the next scope (none under the sanitizer, where the arena is malloc) */
    ck_assert_uint_le(cd_json_arena_bytes(), 256 * 1024);
#ifndef CHECKED
    ck_assert_uint_gt(cd_json_arena_bytes(), 0);
#endif
    /* and the next scope works from it */
    cd_json_arena_begin();
    t = tree(500, "again");
    check_tree(t, 500, "again");
    json_decref(t);
    cd_json_arena_end();
}
END_TEST

START_TEST(values_from_before_are_freed_normally)
{
    cd_json_arena_install();
    json_t *before = tree(300, "before");
    cd_json_arena_begin();
    json_t *inside = tree(10, "inside");
    long live = cd_json_arena_live();
    json_decref(before);   /* malloc memory: goes to free, and does not count */
    ck_assert_int_eq(cd_json_arena_live(), live);
    json_decref(inside);
    ck_assert_int_eq(cd_json_arena_live(), 0);
    cd_json_arena_end();
}
END_TEST

START_TEST(values_are_aligned)
{
    cd_json_arena_begin();
    json_t *v[64];
    for (int i = 0; i < 64; i++) {
        v[i] = i % 3 == 0 ? json_string("x") : i % 3 == 1 ? json_integer(i) : json_object();
        ck_assert_uint_eq((uintptr_t)v[i] % 16, 0);
    }
    for (int i = 0; i < 64; i++)
        json_decref(v[i]);
    cd_json_arena_end();
}
END_TEST

static void *thread_scopes(void *arg)
{
    const char *tag = arg;
    for (int round = 0; round < 50; round++) {
        cd_json_arena_begin();
        json_t *t = tree(400, tag);
        check_tree(t, 400, tag);
        if (cd_json_arena_live() <= 400)
            return (void *)1;
        json_decref(t);
        if (cd_json_arena_live() != 0)
            return (void *)2;
        cd_json_arena_end();
    }
    return NULL;
}

START_TEST(each_thread_has_its_own_arena)
{
    cd_json_arena_install();
    pthread_t th[4];
    static const char *const tags[] = {"t0", "t1", "t2", "t3"};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, thread_scopes, (void *)tags[i]), 0);
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        ck_assert_ptr_null(ret);
    }
    ck_assert(!cd_json_arena_active());
}
END_TEST

START_TEST(nesting_aborts)
{
    cd_json_arena_begin();
    cd_json_arena_begin();
}
END_TEST

START_TEST(end_without_begin_aborts)
{
    cd_json_arena_install();
    cd_json_arena_end();
}
END_TEST

#ifdef CHECKED
START_TEST(a_leak_aborts)
{
    cd_json_arena_begin();
    json_t *t = tree(10, "leak");
    (void)t;
    cd_json_arena_end();   /* aborts */
}
END_TEST
#else
START_TEST(a_leak_sets_the_memory_aside)
{
    cd_json_arena_begin();
    json_t *escaped = tree(50, "escaped");
    cd_json_arena_end();   /* says so on stderr; the memory is not reused */
    ck_assert_int_eq(cd_json_arena_live(), 0);
    cd_json_arena_begin();
    json_t *t = tree(5000, "fresh");   /* would overwrite the escaped values if their chunk were reused */
    check_tree(escaped, 50, "escaped");
    json_decref(t);
    cd_json_arena_end();
    json_decref(escaped);   /* late: a no-op, not a free() of arena memory */
}
END_TEST
#endif

static Suite *suite(void)
{
    Suite *s = suite_create("json_arena");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, outside_a_scope_nothing_counts);
    tcase_add_test(tc, a_scope_counts_its_values_until_freed);
    tcase_add_test(tc, values_from_before_are_freed_normally);
    tcase_add_test(tc, values_are_aligned);
    tcase_add_test(tc, each_thread_has_its_own_arena);
    tcase_add_test_raise_signal(tc, nesting_aborts, SIGABRT);
    tcase_add_test_raise_signal(tc, end_without_begin_aborts, SIGABRT);
#ifdef CHECKED
    tcase_add_test_raise_signal(tc, a_leak_aborts, SIGABRT);
#else
    tcase_add_test(tc, a_leak_sets_the_memory_aside);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
