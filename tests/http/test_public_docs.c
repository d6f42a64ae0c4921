/*
 * test_public_docs.c — carcd's public documents through a real socket (libcurl against a server on
 * 127.0.0.1 with the real route table; no database needed):
 *   - GET /v1/tiles: 200 with a strong ETag and public caching, the catalog the engine plays with, the same
 *     bytes every time, 304 for a matching If-None-Match (weak comparison, lists, "*"), 200 otherwise;
 *   - GET /problems/{name}: every problem type carcd can emit — every row of the registry and every
 *     "/problems/<slug>" written out in the daemon's sources — has a page that answers 200; an unknown name
 *     is a 404 problem.
 */
#define _XOPEN_SOURCE 700   /* nftw */
#include <check.h>
#include <ctype.h>
#include <curl/curl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/config.h"
#include "game/catalog.h"
#include "game/games.h"
#include "game/tiles_doc.h"
#include "http/http.h"
#include "http/problem.h"
#include "http/problem_pages.h"
#include "json.h"

/* ---- a small libcurl client ------------------------------------------------------------------------------ */

typedef struct {
    long status;
    char *body;
    size_t len;
    json_t *json;
    char content_type[128], cache_control[128], etag[128], csp[256];
} answer;

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    a->body = realloc(a->body, a->len + len + 1);
    ck_assert_ptr_nonnull(a->body);
    memcpy(a->body + a->len, data, len);
    a->len += len;
    a->body[a->len] = '\0';
    return len;
}

static void header_value(const char *line, size_t len, const char *name, char *out, size_t outlen)
{
    size_t n = strlen(name);
    if (len <= n + 1 || strncasecmp(line, name, n) != 0 || line[n] != ':')
        return;
    const char *v = line + n + 1;
    size_t vl = len - n - 1;
    while (vl && *v == ' ')
        v++, vl--;
    while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
        vl--;
    snprintf(out, outlen, "%.*s", (int)vl, v);
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    header_value(data, len, "Content-Type", a->content_type, sizeof a->content_type);
    header_value(data, len, "Cache-Control", a->cache_control, sizeof a->cache_control);
    header_value(data, len, "ETag", a->etag, sizeof a->etag);
    header_value(data, len, "Content-Security-Policy", a->csp, sizeof a->csp);
    return len;
}

static int port;

/* GET path with extra header lines (NULL-terminated, may be NULL). */
static answer get(const char *path, const char *const *headers)
{
    answer a = {0};
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(c);
    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    struct curl_slist *hl = NULL;
    for (const char *const *h = headers; h && *h; h++)
        hl = curl_slist_append(hl, *h);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    CURLcode rc = curl_easy_perform(c);
    ck_assert_msg(rc == CURLE_OK, "GET %s: %s", path, curl_easy_strerror(rc));
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &a.status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    if (a.body)
        a.json = json_loadb(a.body, a.len, 0, NULL);
    return a;
}

static void answer_free(answer *a)
{
    free(a->body);
    json_decref(a->json);
}

/* ---- fixture -------------------------------------------------------------------------------------------- */

static cd_server *srv;

static void start(void)
{
    cd_config c;
    char err[256];
    char *argv[] = {"carcd", NULL};
    ck_assert_int_eq(cd_config_load(&c, 1, argv, err, sizeof err), 0);
    strcpy(c.listen_host, "127.0.0.1");
    c.listen_port = 0;
    c.threads = 2;
    strcpy(c.admin_token, "admin-token-for-tests-0123456789");
    strcpy(c.database_url, "host=127.0.0.1 port=1 connect_timeout=2");   /* nothing here needs one */
    srv = cd_server_start(&c, err, sizeof err);
    ck_assert_msg(srv, "%s", err);
    port = cd_server_port(srv);
}

static void stop(void)
{
    cd_server_stop(srv);
}

/* ---- GET /v1/tiles --------------------------------------------------------------------------------------- */

static bool strong_etag(const char *e)
{
    size_t n = strlen(e);
    if (n != 34 || e[0] != '"' || e[n - 1] != '"')
        return false;
    for (size_t i = 1; i + 1 < n; i++)
        if (!isxdigit((unsigned char)e[i]))
            return false;
    return true;
}

START_TEST(tiles_served_with_etag)
{
    answer a = get("/v1/tiles", NULL);   /* no token: the catalog is public */
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.content_type, "application/json");
    ck_assert_msg(strong_etag(a.etag), "ETag %s", a.etag);
    ck_assert_str_eq(a.cache_control, "public, max-age=3600");
    ck_assert_msg(json_is_object(a.json), "not JSON: %.200s", a.body ? a.body : "");
    /* the catalog the engine plays with */
    json_t *want = carc_catalog_json(cd_catalog());
    ck_assert(json_equal(a.json, want));
    json_decref(want);
    const carc_catalog *cat = cd_catalog();
    json_t *tiles = json_object_get(a.json, "tiles");
    ck_assert_int_eq(json_array_size(tiles), cat->ntypes);
    size_t i, k;
    json_t *t, *g;
    int starts = 0;
    json_array_foreach(tiles, i, t) {
        int ti = carc_catalog_find(cat, json_string_value(json_object_get(t, "id")));
        ck_assert_int_eq(ti, (int)i);
        ck_assert_int_eq(json_integer_value(json_object_get(t, "count")), cat->types[ti].count);
        ck_assert_int_eq(json_array_size(json_object_get(t, "segments")), cat->types[ti].nparts);
        json_array_foreach(json_object_get(t, "segments"), k, g)
            ck_assert_int_eq(carc_part_find(&cat->types[ti], json_string_value(json_object_get(g, "part"))),
                             (int)k);
        starts += json_is_true(json_object_get(t, "start"));
    }
    ck_assert_int_eq(starts, 2);   /* D, and the spring when the option river is on */
    ck_assert_ptr_nonnull(json_object_get(a.json, "conventions"));
    /* a bearer token, even a bad one, changes nothing */
    static const char *const token[] = {"Authorization: Bearer nobody-has-this-token", NULL};
    answer b = get("/v1/tiles", token);
    ck_assert_int_eq(b.status, 200);
    ck_assert_str_eq(b.etag, a.etag);
    ck_assert_uint_eq(b.len, a.len);
    ck_assert(memcmp(a.body, b.body, a.len) == 0);
    answer_free(&b);
    answer_free(&a);
}
END_TEST

START_TEST(tiles_not_modified)
{
    answer a = get("/v1/tiles", NULL);
    ck_assert_int_eq(a.status, 200);
    char match[4][200];
    snprintf(match[0], sizeof match[0], "If-None-Match: %s", a.etag);
    snprintf(match[1], sizeof match[1], "If-None-Match: W/%s", a.etag);
    snprintf(match[2], sizeof match[2], "If-None-Match: \"0123\", %s", a.etag);
    snprintf(match[3], sizeof match[3], "If-None-Match: *");
    for (int i = 0; i < 4; i++) {
        const char *const h[] = {match[i], NULL};
        answer b = get("/v1/tiles", h);
        ck_assert_msg(b.status == 304, "%s: %ld", match[i], b.status);
        ck_assert_uint_eq(b.len, 0);
        ck_assert_str_eq(b.etag, a.etag);
        ck_assert_str_eq(b.cache_control, "public, max-age=3600");
        answer_free(&b);
    }
    /* another tag, or this one cut short, is not a match */
    char cut[200];
    snprintf(cut, sizeof cut, "If-None-Match: %.*s\"", 20, a.etag);
    static const char *const other[] = {"If-None-Match: \"0123456789abcdef0123456789abcdef\"", NULL};
    const char *const shorter[] = {cut, NULL};
    const char *const *misses[] = {other, shorter};
    for (int i = 0; i < 2; i++) {
        answer b = get("/v1/tiles", misses[i]);
        ck_assert_msg(b.status == 200, "%s: %ld", misses[i][0], b.status);
        ck_assert_uint_eq(b.len, a.len);
        answer_free(&b);
    }
    answer_free(&a);
}
END_TEST

/* The If-None-Match parser on its own: lists, weak tags, junk. */
START_TEST(etag_lists)
{
    const char *tag = "\"ab\"";
    ck_assert(cd_etag_list_matches("\"ab\"", tag));
    ck_assert(cd_etag_list_matches("W/\"ab\"", tag));
    ck_assert(cd_etag_list_matches("\"x\",\"ab\"", tag));
    ck_assert(cd_etag_list_matches(" \"x\" ,  W/\"ab\" ", tag));
    ck_assert(cd_etag_list_matches("*", tag));
    ck_assert(!cd_etag_list_matches(NULL, tag));
    ck_assert(!cd_etag_list_matches("", tag));
    ck_assert(!cd_etag_list_matches("\"abc\"", tag));
    ck_assert(!cd_etag_list_matches("\"a\"", tag));
    ck_assert(!cd_etag_list_matches("ab", tag));
    ck_assert(!cd_etag_list_matches("\"ab", tag));
}
END_TEST

/* ---- GET /problems/{name} -------------------------------------------------------------------------------- */

/* Text as the page prints it: HTML-escaped. */
static void escaped(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 7 < n; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : *s == '\'' ? "&#39;" : NULL;
        if (e) {
            memcpy(out + k, e, strlen(e));
            k += strlen(e);
        } else {
            out[k++] = *s;
        }
    }
    out[k] = '\0';
}

static void check_page(const char *slug)
{
    int p = cd_problem_by_slug(slug);
    ck_assert_msg(p >= 0, "/problems/%s: no such problem in problem.c", slug);
    ck_assert_msg(cd_problem_pages[p].meaning && cd_problem_pages[p].meaning[0] && cd_problem_pages[p].todo &&
                      cd_problem_pages[p].todo[0],
                  "/problems/%s has no page: add its row to daemon/http/problem_pages.c", slug);
    char path[128], type[128];
    snprintf(path, sizeof path, "/problems/%s", slug);
    answer a = get(path, NULL);
    ck_assert_msg(a.status == 200, "%s: %ld", path, a.status);
    ck_assert_str_eq(a.content_type, "text/html; charset=utf-8");
    ck_assert_str_eq(a.cache_control, "public, max-age=3600");
    ck_assert_msg(strncmp(a.csp, "default-src 'none'", 18) == 0, "%s: CSP %s", path, a.csp);
    char text[2048];
    escaped(cd_problems[p].title, text, sizeof text);
    ck_assert_msg(strstr(a.body, text), "%s: no title", path);
    escaped(cd_problem_pages[p].meaning, text, sizeof text);
    ck_assert_msg(strstr(a.body, text), "%s: no meaning", path);
    escaped(cd_problem_pages[p].todo, text, sizeof text);
    ck_assert_msg(strstr(a.body, text), "%s: no advice", path);
    snprintf(type, sizeof type, "<code>/problems/%s</code>", slug);
    ck_assert_msg(strstr(a.body, type), "%s: does not name its type", path);
    answer_free(&a);
}

START_TEST(every_registered_problem_has_a_page)
{
    for (int p = 0; p < CD_NPROBLEMS; p++) {
        ck_assert_msg(cd_problems[p].slug, "problem %d has no slug", p);
        for (int q = 0; q < p; q++)
            ck_assert_msg(strcmp(cd_problems[p].slug, cd_problems[q].slug) != 0, "slug %s twice", cd_problems[p].slug);
        check_page(cd_problems[p].slug);
    }
}
END_TEST

/* Types written out literally in the daemon's sources ("/problems/internal" in a canned body) besides the
 * registry's "/problems/%s": each must be a registered problem with a page. */
static char found[64][48];
static int nfound, nfiles;

static int scan_file(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (flag != FTW_F || n < 2 || (strcmp(path + n - 2, ".c") != 0 && strcmp(path + n - 2, ".h") != 0))
        return 0;
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot read %s", path);
    char line[4096];
    while (fgets(line, sizeof line, f))
        for (char *p = strstr(line, "/problems/"); p; p = strstr(p + 1, "/problems/")) {
            const char *s = p + strlen("/problems/");
            size_t k = 0;
            while ((islower((unsigned char)s[k]) || s[k] == '-') && k + 1 < sizeof found[0])
                k++;
            if (k == 0 || nfound == 64)   /* "/problems/%s", "/problems/<slug>" in comments */
                continue;
            snprintf(found[nfound++], sizeof found[0], "%.*s", (int)k, s);
        }
    fclose(f);
    nfiles++;
    return 0;
}

START_TEST(problem_types_in_the_sources_have_pages)
{
    ck_assert_int_eq(nftw(CARC_SOURCE_DIR "/daemon", scan_file, 16, FTW_PHYS), 0);
    ck_assert_int_gt(nfiles, 20);
    ck_assert_int_gt(nfound, 0);   /* at least reply.c's canned "/problems/internal" */
    for (int i = 0; i < nfound; i++)
        check_page(found[i]);
}
END_TEST

START_TEST(unknown_problem_is_404)
{
    static const char *const paths[] = {"/problems/no-such-problem", "/problems/BAD-JSON", "/problems/%00",
                                        "/problems/bad-json/x", "/problems/"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        answer a = get(paths[i], NULL);
        ck_assert_msg(a.status == 404, "%s: %ld", paths[i], a.status);
        ck_assert_str_eq(a.content_type, "application/problem+json");
        ck_assert_str_eq(json_string_value(json_object_get(a.json, "type")), "/problems/no-route");
        answer_free(&a);
    }
    answer a = get("/problems/no-such-problem", NULL);
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "field")), "name");
    answer_free(&a);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("public_docs");
    TCase *tc = tcase_create("docs");
    tcase_add_checked_fixture(tc, start, stop);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tiles_served_with_etag);
    tcase_add_test(tc, tiles_not_modified);
    tcase_add_test(tc, etag_lists);
    tcase_add_test(tc, every_registered_problem_has_a_page);
    tcase_add_test(tc, problem_types_in_the_sources_have_pages);
    tcase_add_test(tc, unknown_problem_is_404);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
