/*
 * test_json_out.c — cd_json_dumps (daemon/json_out.h) writes exactly json_dumps's bytes: random trees
 * (nested objects and arrays; keys and strings with quotes, backslashes, slashes, control bytes, UTF-8 and,
 * through json_stringn_nocheck, invalid bytes; extreme integers; reals; literals) under every flag set carcd
 * uses, and the documented fallbacks (other flags, NULL). A fixed seed: a failure is repeatable.
 */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_out.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint32_t next(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* A short string of awkward bytes; *len its length (may hold NULs and invalid UTF-8 when `raw`: object keys
 * never do in carcd, where every key is a literal or came through jansson's parser, which checks UTF-8 —
 * jansson 2.14 writes such a key half-escaped instead of failing, a quirk not worth copying). */
static char *text(size_t *len, bool raw)
{
    static const char *const bits[] = {"a", "Z", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f", "\x7f", " ",
                                       "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x90\x91", "</script>", "\xff",
                                       "\xc3", "u0041", "%p"};
    size_t n = next(8), cap = 64, k = 0;
    char *s = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        const char *b = bits[next(sizeof bits / sizeof bits[0])];
        if (!raw && (unsigned char)b[0] >= 0x80 && b[1] == 0)
            b = "b";   /* a lone lead or continuation byte */
        size_t bl = strlen(b);
        if (k + bl + 2 > cap)
            s = realloc(s, cap *= 2);
        memcpy(s + k, b, bl);
        k += bl;
        if (raw && next(10) == 0)
            s[k++] = 0;
    }
    s[k] = 0;
    *len = k;
    return s;
}

static json_t *tree(int depth)
{
    int kind = depth > 3 ? (int)next(6) : (int)next(8);
    switch (kind) {
    case 0: return json_null();
    case 1: return json_boolean(next(2));
    case 2: {
        static const json_int_t edge[] = {0, -1, 1, INT64_MAX, INT64_MIN, 1000000, -999999999999};
        return json_integer(next(2) ? edge[next(7)] : (json_int_t)next(100000) - 50000);
    }
    case 3: {
        static const double reals[] = {0.8, 0.1, -2.5, 1e300, 1e-300, 3.0, 86400.125, 0.0};
        return json_real(reals[next(8)]);
    }
    case 4: case 5: {
        size_t n;
        char *s = text(&n, true);
        json_t *j = next(3) ? json_stringn(s, n) : json_stringn_nocheck(s, n);
        free(s);
        return j ? j : json_string("");
    }
    case 6: {
        json_t *a = json_array();
        for (uint32_t i = next(5); i > 0; i--)
            json_array_append_new(a, tree(depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (uint32_t i = next(5); i > 0; i--) {
            size_t n;
            char *k = text(&n, false);
            json_object_set_new_nocheck(o, k, tree(depth + 1));
            free(k);
        }
        return o;
    }
    }
}

static void same(const json_t *j, size_t flags)
{
    char *want = json_dumps(j, flags), *got = cd_json_dumps(j, flags);
    if (!want || !got)
        ck_assert_msg(!want && !got, "one is NULL: %s / %s", want ? want : "NULL", got ? got : "NULL");
    else
        ck_assert_msg(strcmp(want, got) == 0, "flags %zx\nwant %s\ngot  %s", flags, want, got);
    free(want);
    free(got);
}

START_TEST(random_trees_same_bytes)
{
    static const size_t flags[] = {
        JSON_COMPACT,
        JSON_COMPACT | JSON_ENCODE_ANY,
        JSON_COMPACT | JSON_ESCAPE_SLASH,
        JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15),
        JSON_COMPACT | JSON_ENCODE_ANY | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(15),
        JSON_COMPACT | JSON_SORT_KEYS,   /* a move's request hash (moves_post.c) */
        JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS | JSON_ESCAPE_SLASH,
        JSON_INDENT(2),   /* not one of carcd's: the fallback */
        0,
    };
    for (int i = 0; i < 20000; i++) {
        json_t *j = tree(0);
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
            same(j, flags[f]);
        json_decref(j);
    }
}
END_TEST

START_TEST(edges)
{
    same(NULL, JSON_COMPACT);
    json_t *s = json_string("bare");
    same(s, JSON_COMPACT);   /* not an object or array, no ENCODE_ANY: NULL from both */
    same(s, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(s);
    json_t *o = json_pack("{s:[], s:{}, s:[[],{}]}", "a", "b", "c");
    same(o, JSON_COMPACT);
    json_decref(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("json_out");
    TCase *tc = tcase_create("json_out");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_trees_same_bytes);
    tcase_add_test(tc, edges);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
