/*
 * test_messages.c — what a message may say (game/messages.h cd_msg_text_ok), both ways at every boundary:
 * the length in characters (not bytes), UTF-8 that is not (overlong, surrogates, past U+10FFFF, cut short),
 * the control characters (the line feed alone allowed), the bidirectional controls, noncharacters, white space
 * alone; and a player's name (base/ids.h cd_name_ok), which the same rules judge on one line of 64 characters.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/ids.h"
#include "game/messages.h"

static bool ok(const char *s)
{
    char why[200];
    return cd_msg_text_ok(s, strlen(s), why, sizeof why);
}

/* n copies of the character c (UTF-8), malloc'd */
static char *rep(const char *c, int n)
{
    size_t l = strlen(c);
    char *s = malloc(l * (size_t)n + 1);
    for (int i = 0; i < n; i++)
        memcpy(s + l * (size_t)i, c, l);
    s[l * (size_t)n] = 0;
    return s;
}

START_TEST(length_in_characters)
{
    static const char *const chars[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x82\xa1"};
    for (int k = 0; k < 4; k++) {
        char *s = rep(chars[k], CD_MSG_MAX_CHARS);
        ck_assert_msg(ok(s), "1000 characters of %zu bytes", strlen(chars[k]));
        free(s);
        s = rep(chars[k], CD_MSG_MAX_CHARS + 1);
        ck_assert_msg(!ok(s), "1001 characters of %zu bytes", strlen(chars[k]));
        free(s);
    }
    ck_assert(ok("a"));
    ck_assert(!ok(""));
    char why[200];
    ck_assert(!cd_msg_text_ok("a\0b", 3, why, sizeof why));   /* a NUL inside (the length says so) */
    ck_assert_msg(strstr(why, "control"), "%s", why);
}
END_TEST

START_TEST(only_valid_utf8)
{
    static const char *const bad[] = {
        "\xff", "\xfe\xff", "\x80", "a\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf",   /* overlong */
        "\xed\xa0\x80", "\xed\xbf\xbf",                                                                      /* surrogates */
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",                                                             /* past U+10FFFF */
        "\xc3", "\xe2\x82", "\xf0\x9f\x82", "ab\xe2\x82",                                                   /* cut short */
        "\xc3\x28", NULL};
    for (int i = 0; bad[i]; i++) {
        char why[200];
        ck_assert_msg(!cd_msg_text_ok(bad[i], strlen(bad[i]), why, sizeof why), "bad UTF-8 %d accepted", i);
        ck_assert_msg(strstr(why, "UTF-8"), "%s", why);
    }
    ck_assert(ok("\xed\x9f\xbf"));       /* U+D7FF, just below the surrogates */
    ck_assert(ok("\xee\x80\x80"));       /* U+E000, just above */
    ck_assert(ok("\xf4\x8f\xbf\xbd"));   /* U+10FFFD, the last character that is not a noncharacter */
}
END_TEST

START_TEST(controls_and_white_space)
{
    ck_assert(ok("away until Monday\nback on Tuesday"));
    ck_assert(ok("<script>alert(1)</script> **bold** @everyone"));   /* markup is text: the readers escape it */
    ck_assert(ok("\xe2\x80\x8f" "rtl mark"));                       /* U+200F marks a direction, does not override */
    static const char *const refused[] = {"a\tb", "a\rb", "a\x01", "\x1b[31mred", "del\x7f", "c1\xc2\x85",
                                          "\xc2\x9f", "\xe2\x80\xaa" "x", "\xe2\x80\xae" "x", "\xe2\x81\xa6" "x",
                                          "\xe2\x81\xa9" "x", " ", "\n\n", " \n ", "\xc2\xa0", "\xe3\x80\x80",
                                          "\xe2\x80\x8b", NULL};
    for (int i = 0; refused[i]; i++)
        ck_assert_msg(!ok(refused[i]), "refused %d accepted", i);
    /* noncharacters (U+FDD0, U+FDEF, U+FFFE, U+FFFF, U+1FFFF, U+10FFFF): XML and cairo refuse them */
    static const char *const nonchars[] = {"A\xef\xb7\x90", "A\xef\xb7\xaf", "A\xef\xbf\xbe", "A\xef\xbf\xbf",
                                           "A\xf0\x9f\xbf\xbf", "A\xf4\x8f\xbf\xbf", NULL};
    for (int i = 0; nonchars[i]; i++) {
        char why[200];
        ck_assert_msg(!cd_msg_text_ok(nonchars[i], strlen(nonchars[i]), why, sizeof why), "noncharacter %d", i);
        ck_assert_msg(strstr(why, "text: character 2 is a noncharacter"), "%s", why);
    }
    ck_assert(ok("\xef\xb7\x8f\xef\xb7\xb0\xef\xbf\xbd"));   /* U+FDCF, U+FDF0, U+FFFD around them */
}
END_TEST

static bool name_ok(const char *s)
{
    char why[200];
    return cd_name_ok(s, "name", why, sizeof why);
}

START_TEST(names)
{
    char *s = rep("\xc3\xa9", CD_NAME_MAX);   /* 64 characters of two bytes: more than 64 bytes */
    ck_assert(name_ok(s));
    free(s);
    s = rep("\xf0\x9f\x82\xa1", CD_NAME_MAX);
    ck_assert(name_ok(s) && strlen(s) == CD_NAME_BYTES);
    free(s);
    s = rep("a", CD_NAME_MAX + 1);
    ck_assert(!name_ok(s));
    free(s);
    ck_assert(name_ok("J\xc3\xbcrgen") && name_ok("Ann & Bob <3") && name_ok("\xe5\xb1\xb1\xe7\x94\xb0"));
    static const char *const refused[] = {"", "   ", "a\nb", "a\tb", "Mallory\xe2\x80\xae (you)", "x\xc2\x85y",
                                          "A\xef\xbf\xbf", "A\xef\xb7\x90", "\xc3", "\xe2\x80\x8b", NULL};
    for (int i = 0; refused[i]; i++)
        ck_assert_msg(!name_ok(refused[i]), "name %d accepted", i);
    char why[200];
    ck_assert(!cd_name_ok("Cy\xe2\x80\xae" "evil", "players[1].name", why, sizeof why));
    ck_assert_str_eq(why, "players[1].name: character 3 is a bidirectional control (U+202E)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("messages");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, length_in_characters);
    tcase_add_test(tc, only_valid_utf8);
    tcase_add_test(tc, controls_and_white_space);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
