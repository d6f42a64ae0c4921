/*
 * test_problem_html.c — a problem as a page for people (daemon/http/problem_html.h): which Accept headers get
 * the page (browsers' navigations, as Chromium, Firefox and Safari send them) and which keep the problem+json
 * document (curl, API clients, a JSON client that also takes HTML); and that the page escapes what it prints.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "http/problem_html.h"

START_TEST(browsers_get_the_page)
{
    static const char *const html[] = {
        /* Chromium 120, Firefox 120, Safari 17 navigating */
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
        "application/signed-exchange;v=b3;q=0.7",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "TEXT/HTML",
        "application/json;q=0.5, text/html",
        "text/html; q=0.9, application/problem+json; q=0.1",
    };
    for (size_t i = 0; i < sizeof html / sizeof *html; i++)
        ck_assert_msg(cd_accept_prefers_html(html[i]), "%s: not taken for a browser", html[i]);
}
END_TEST

START_TEST(programs_get_the_document)
{
    static const char *const json[] = {
        NULL, "", "*/*", "application/json", "application/problem+json", "text/*",
        "application/json, text/html",               /* equal: the document */
        "text/html;q=0.5, application/json",
        "text/html;q=0, */*",
        "text/html;q=0.8, */*",                      /* any type at 1 beats HTML at 0.8 */
        "text/htmlx, */*;q=0.1",
        "text/event-stream",
    };
    for (size_t i = 0; i < sizeof json / sizeof *json; i++)
        ck_assert_msg(!cd_accept_prefers_html(json[i]), "%s: taken for a browser", json[i] ? json[i] : "(none)");
}
END_TEST

START_TEST(page_escapes_the_detail)
{
    cd_buf b = {0};
    cd_problem_html(&b, CD_P_NOT_FOUND, "no game \"<script>alert(1)</script>\" & more");
    ck_assert_ptr_nonnull(strstr(b.p, "<title>Not found — carcd</title>"));
    ck_assert_ptr_nonnull(strstr(b.p, "no game &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; more"));
    ck_assert_ptr_null(strstr(b.p, "<script"));
    ck_assert_ptr_nonnull(strstr(b.p, "<a href=\"/problems/not-found\">"));
    ck_assert_ptr_nonnull(strstr(b.p, "What to do"));
    free(b.p);
    cd_buf c = {0};   /* the type's own page: no detail, no link to itself */
    cd_problem_html(&c, CD_P_NOT_FOUND, NULL);
    ck_assert_ptr_null(strstr(c.p, "id=\"detail\""));
    ck_assert_ptr_null(strstr(c.p, "<a href=\"/problems/not-found\">"));
    free(c.p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("problem_html");
    TCase *t = tcase_create("problem_html");
    tcase_add_test(t, browsers_get_the_page);
    tcase_add_test(t, programs_get_the_document);
    tcase_add_test(t, page_escapes_the_detail);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
