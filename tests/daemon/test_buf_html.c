/*
 * test_buf_html.c — cd_buf_html (daemon/base/buf.h), the one escaper of the pages, the mails' HTML and the
 * SVG board: the five characters escaped, tab and newline kept, the other C0 control characters dropped,
 * plain runs and UTF-8 copied as they are, appended to what the buffer holds.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static void same(const char *in, const char *want)
{
    cd_buf b = {0};
    cd_buf_str(&b, "[");
    cd_buf_html(&b, in);
    cd_buf_str(&b, "]");
    char *w = malloc(strlen(want) + 3);
    ck_assert_ptr_nonnull(w);
    strcpy(w, "[");
    strcat(w, want);
    strcat(w, "]");
    ck_assert_str_eq(b.p, w);
    ck_assert_uint_eq(b.len, strlen(w));
    free(w);
    free(b.p);
}

START_TEST(escapes)
{
    same("", "");
    same("plain text, Zoë's ünïcode", "plain text, Zoë&#39;s ünïcode");
    same("<script>alert(\"x\")</script>", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    same("a & b && c", "a &amp; b &amp;&amp; c");
    same("&", "&amp;");
    same("'\"", "&#39;&quot;");
    same("line\none\ttab", "line\none\ttab");
    same("bell\a, escape\x1b, cr\r, del\x7f", "bell, escape, cr, del\x7f");
    same("\x01\x02", "");
    cd_buf b = {0};   /* NULL: nothing */
    cd_buf_str(&b, "x");
    cd_buf_html(&b, NULL);
    ck_assert_str_eq(b.p, "x");
    free(b.p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("buf_html");
    TCase *t = tcase_create("buf_html");
    tcase_add_test(t, escapes);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
