/*
 * test_http_core.c — carcd's HTTP layer through real sockets: a server on 127.0.0.1 (a port the kernel
 * picks), libcurl as the client.
 *
 * Two servers: one with the real route table (routing, limits, headers, problems, the OpenAPI document,
 * metrics, health), one with a route table of this file (the body parser in isolation, path parameters,
 * suspend/resume from other threads, a handler that forgets to reply or replies twice, shutdown with a
 * suspended request). Nothing here needs PostgreSQL, except /readyz's success case, which runs when
 * CARCD_TEST_DATABASE_URL is set.
 */
#include <arpa/inet.h>
#include <check.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/config.h"
#include "db/db.h"
#include "base/embedded.h"
#include "http/http.h"
#include "http/problem.h"

#define BODY_LIMIT 1024

/* ---- a small libcurl client ------------------------------------------------------------------------------ */

typedef struct {
    long status;
    char *body;
    size_t len;
    json_t *json;               /* body parsed, when it is JSON */
    char content_type[128];
    char cache_control[128];
    char nosniff[64];
    char allow[64];
    char etag[64];
    CURLcode rc;
} answer;

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    a->body = realloc(a->body, a->len + len + 1);
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
    while (vl && (*v == ' '))
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
    header_value(data, len, "X-Content-Type-Options", a->nosniff, sizeof a->nosniff);
    header_value(data, len, "Allow", a->allow, sizeof a->allow);
    header_value(data, len, "ETag", a->etag, sizeof a->etag);
    return len;
}

typedef struct {
    size_t left;
} chunk_source;

static size_t chunk_read(char *buf, size_t size, size_t n, void *arg)
{
    chunk_source *src = arg;
    size_t len = size * n;
    if (len > 700)
        len = 700;
    if (len > src->left)
        len = src->left;
    memset(buf, 'x', len);
    src->left -= len;
    return len;
}

static int port_main, port_test;

typedef struct {
    const char *method;
    const char *path;
    const char *const *headers;   /* "Name: value" strings, NULL-terminated */
    const char *body;
    long body_len;                /* 0: strlen(body) */
    size_t chunked;               /* > 0: send this many bytes as a chunked body instead */
    int port;                     /* 0: the main server */
    long timeout_ms;
    bool expect;                  /* keep curl's Expect: 100-continue */
    const char *target;           /* the request line's target as sent, instead of path's (CURLOPT_REQUEST_TARGET) */
} request;

static answer http(request q)
{
    answer a = {0};
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(c);
    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", q.port ? q.port : port_main, q.path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    if (q.target)
        curl_easy_setopt(c, CURLOPT_REQUEST_TARGET, q.target);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, q.method);
    if (strcmp(q.method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, q.timeout_ms ? q.timeout_ms : 10000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    struct curl_slist *hl = NULL;
    for (const char *const *h = q.headers; h && *h; h++)
        hl = curl_slist_append(hl, *h);
    chunk_source src = {q.chunked};
    if (q.chunked) {
        hl = curl_slist_append(hl, "Transfer-Encoding: chunked");
        hl = curl_slist_append(hl, "Content-Type: application/json");
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, chunk_read);
        curl_easy_setopt(c, CURLOPT_READDATA, &src);
    } else if (q.body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, q.body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, q.body_len > 0 ? q.body_len : (long)strlen(q.body));
    }
    if (!q.expect)
        hl = curl_slist_append(hl, "Expect:");   /* no 100-continue round trip */
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    a.rc = curl_easy_perform(c);
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

/* Every answer carries the security headers. */
static void check_headers(const answer *a)
{
    ck_assert_msg(strcmp(a->nosniff, "nosniff") == 0, "X-Content-Type-Options: '%s'", a->nosniff);
    ck_assert_msg(a->cache_control[0] != '\0', "no Cache-Control");
}

/* a is the problem `p`. */
static void check_problem(const answer *a, cd_problem p)
{
    char type[64];
    snprintf(type, sizeof type, "/problems/%s", cd_problems[p].slug);
    ck_assert_msg(a->status == cd_problems[p].status, "status %ld, want %d (%s)", a->status, cd_problems[p].status,
                  a->body ? a->body : "");
    ck_assert_str_eq(a->content_type, "application/problem+json");
    ck_assert_msg(json_is_object(a->json), "problem body not JSON: %s", a->body ? a->body : "(none)");
    ck_assert_str_eq(json_string_value(json_object_get(a->json, "type")), type);
    ck_assert_int_eq(json_integer_value(json_object_get(a->json, "status")), cd_problems[p].status);
    ck_assert_str_eq(json_string_value(json_object_get(a->json, "title")), cd_problems[p].title);
    check_headers(a);
}

/* ---- the test route table ------------------------------------------------------------------------------ */

static enum MHD_Result t_echo(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    return cd_reply_json(r, 200, body, NULL);
}

static enum MHD_Result t_params(cd_req *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->nparams; i++)
        json_array_append_new(a, json_string(r->params[i]));
    const char *q = cd_req_arg(r, "q");
    return cd_reply_json(r, 200, json_pack("{s:o, s:s?, s:b, s:s?}", "params", a, "q", q, "admin", r->is_admin,
                                           "bearer", r->bearer),
                         NULL);
}

static void *resume_later(void *arg)
{
    cd_req *r = arg;
    nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    cd_req_resume_reply(r, 200, json_pack("{s:b}", "resumed", 1));
    return NULL;
}

/* Suspends, and another thread answers 50 ms later. */
static enum MHD_Result t_suspend(cd_req *r)
{
    cd_req_suspend(r);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, resume_later, r), 0);
    pthread_detach(t);
    return MHD_YES;
}

static void *resume_bare(void *arg)
{
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    cd_req_resume(arg);
    return NULL;
}

static int ctx_freed;

static void count_free(void *ctx)
{
    free(ctx);
    __atomic_add_fetch(&ctx_freed, 1, __ATOMIC_SEQ_CST);
}

/* Suspends; the handler runs again after cd_req_resume and answers then. */
static enum MHD_Result t_rerun(cd_req *r)
{
    if (r->ctx) {
        int *calls = r->ctx;
        return cd_reply_json(r, 200, json_pack("{s:i}", "calls", ++*calls), NULL);
    }
    int *calls = malloc(sizeof *calls);
    *calls = 1;
    r->ctx = calls;
    r->ctx_free = count_free;
    cd_req_suspend(r);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, resume_bare, r), 0);
    pthread_detach(t);
    return MHD_YES;
}

/* Suspends and is resumed with a reply before it returns, as a long-poll whose move lands at once: the reply
 * is sent, and the handler does not run again. */
static enum MHD_Result t_resume_early(cd_req *r)
{
    if (r->ctx)
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "the handler ran again and the early reply was lost");
    r->ctx = malloc(1);
    r->ctx_free = free;
    cd_req_suspend(r);
    cd_req_resume_reply(r, 200, json_pack("{s:s}", "from", "early"));
    return MHD_YES;
}

/* Suspends and waits for nobody: only shutdown answers it. */
static enum MHD_Result t_hang(cd_req *r)
{
    cd_req_suspend(r);
    return MHD_YES;
}

static enum MHD_Result t_noreply(cd_req *r)
{
    (void)r;
    return MHD_YES;
}

static enum MHD_Result t_twice(cd_req *r)
{
    cd_reply_json(r, 200, json_pack("{s:i}", "n", 1), NULL);
    return cd_reply_json(r, 201, json_pack("{s:i}", "n", 2), NULL);
}

static enum MHD_Result t_internal(cd_req *r)
{
    return cd_reply_problem(r, CD_P_INTERNAL, NULL, "secret detail %d", 42);
}

static enum MHD_Result t_cache(cd_req *r)
{
    static const char *const h[] = {"Cache-Control", "max-age=60", "ETag", "\"7\"", NULL};
    return cd_reply_empty(r, 304, h);
}

static const cd_route test_routes[] = {
    {"POST", "/echo", t_echo, "echo"},
    {"GET", "/p/{a}/x/{b}", t_params, "params"},
    {"GET", "/suspend", t_suspend, "suspend"},
    {"GET", "/rerun", t_rerun, "rerun"},
    {"GET", "/resume-early", t_resume_early, "resume_early"},
    {"GET", "/hang", t_hang, "hang"},
    {"GET", "/noreply", t_noreply, "noreply"},
    {"GET", "/twice", t_twice, "twice"},
    {"GET", "/internal", t_internal, "internal"},
    {"GET", "/cache", t_cache, "cache"},
    {NULL, NULL, NULL, NULL},
};

/* ---- fixtures ----------------------------------------------------------------------------------------- */

static cd_server *srv_main, *srv_test;

static void config(cd_config *c)
{
    char err[256];
    char *argv[] = {"carcd", NULL};
    ck_assert_int_eq(cd_config_load(c, 1, argv, err, sizeof err), 0);
    strcpy(c->listen_host, "127.0.0.1");
    c->listen_port = 0;
    c->threads = 3;
    c->body_limit = BODY_LIMIT;
    strcpy(c->admin_token, "admin-token-for-tests-0123456789");
    /* nothing listens on port 1: /readyz must answer 503 */
    strcpy(c->database_url, "host=127.0.0.1 port=1 connect_timeout=2");
}

static void start(void)
{
    cd_config c;
    config(&c);
    char err[256];
    srv_main = cd_server_start(&c, err, sizeof err);
    ck_assert_msg(srv_main, "%s", err);
    port_main = cd_server_port(srv_main);
    srv_test = cd_server_start_routes(&c, test_routes, err, sizeof err);
    ck_assert_msg(srv_test, "%s", err);
    port_test = cd_server_port(srv_test);
    ck_assert_int_gt(port_main, 0);
    ck_assert_int_ne(port_main, port_test);
}

static void stop(void)
{
    cd_server_stop(srv_main);
    cd_server_stop(srv_test);
}

/* ---- the real route table ------------------------------------------------------------------------------ */

START_TEST(healthz)
{
    answer a = http((request){.method = "GET", .path = "/healthz"});
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.content_type, "application/json");
    ck_assert_str_eq(a.cache_control, "no-store");
    check_headers(&a);
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "status")), "ok");
    answer_free(&a);
}
END_TEST

START_TEST(no_route)
{
    static const char *const paths[] = {"/", "/nope", "/healthz/", "/v1/games/x/y/z", "/v1//games", "/v1/games/%zz",
                                        NULL};
    for (int i = 0; paths[i]; i++) {
        answer a = http((request){.method = "GET", .path = paths[i]});
        check_problem(&a, CD_P_NO_ROUTE);
        answer_free(&a);
    }
    /* a path longer than the request path buffer is no route either */
    char longpath[2048] = "/v1/games/";
    memset(longpath + 10, 'a', 1500);
    answer a = http((request){.method = "GET", .path = longpath});
    check_problem(&a, CD_P_NO_ROUTE);
    answer_free(&a);
}
END_TEST

START_TEST(wrong_method)
{
    struct {
        const char *method, *path, *allow;
    } cases[] = {
        {"DELETE", "/healthz", "GET, HEAD"},
        {"POST", "/healthz", "GET, HEAD"},
        {"GET", "/v1/games", "POST"},
        {"PUT", "/v1/games/00000000-0000-0000-0000-000000000000", "GET, HEAD"},
        {"GET", "/v1/games/00000000-0000-0000-0000-000000000000/moves", "POST"},
        {"HEAD", "/v1/games", "POST"},   /* HEAD is a GET's: a path without one has none */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        answer a = http((request){.method = cases[i].method, .path = cases[i].path});
        ck_assert_msg(a.status == 405, "%s %s: %ld", cases[i].method, cases[i].path, a.status);
        ck_assert_str_eq(a.allow, cases[i].allow);
        if (strcmp(cases[i].method, "HEAD") != 0)
            check_problem(&a, CD_P_METHOD);
        answer_free(&a);
    }
    /* with a body on its way, answered before the body is read */
    answer a = http((request){.method = "PUT", .path = "/v1/games", .body = "{\"a\":1}"});
    check_problem(&a, CD_P_METHOD);
    ck_assert_str_eq(a.allow, "POST");
    answer_free(&a);
}
END_TEST

/* HEAD is answered as the path's GET is, without the body (RFC 9110 §9.3.2): the same status and headers, a
 * problem's too. */
START_TEST(head_as_get)
{
    static const char *const paths[] = {"/healthz", "/v1/tiles", "/v1/openapi.json",
                                        "/v1/games/00000000-0000-0000-0000-000000000000"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        answer g = http((request){.method = "GET", .path = paths[i]});
        answer h = http((request){.method = "HEAD", .path = paths[i]});
        ck_assert_msg(h.status == g.status, "HEAD %s: %ld, GET %ld", paths[i], h.status, g.status);
        ck_assert_msg(h.len == 0 && g.len > 0, "HEAD %s: %zu bytes of body", paths[i], h.len);
        ck_assert_str_eq(h.content_type, g.content_type);
        answer_free(&g);
        answer_free(&h);
    }
}
END_TEST

START_TEST(too_large)
{
    static const char *const json[] = {"Content-Type: application/json", NULL};
    char *big = malloc(BODY_LIMIT * 4);
    memset(big, ' ', BODY_LIMIT * 4);
    big[0] = '{';
    big[BODY_LIMIT * 4 - 1] = '}';
    /* declared by Content-Length: refused at once */
    answer a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = big,
                              .body_len = BODY_LIMIT + 1});
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = big,
                       .body_len = BODY_LIMIT * 4});
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    /* chunked: found out while reading */
    a = http((request){.method = "POST", .path = "/v1/games", .chunked = BODY_LIMIT + 1});
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/v1/games", .chunked = BODY_LIMIT * 20});
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    /* exactly the limit is not too large: it reaches the handler (and is not JSON) */
    a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = big + 1,
                       .body_len = BODY_LIMIT});
    check_problem(&a, CD_P_BAD_JSON);
    answer_free(&a);
    free(big);
    /* a client that sends a large body without waiting gets its 413 after the body, not a broken pipe */
    size_t n = 3u << 20;
    big = malloc(n);
    memset(big, ' ', n);
    a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = big, .body_len = (long)n});
    ck_assert_msg(a.rc == CURLE_OK, "curl: %s", curl_easy_strerror(a.rc));
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    a = http((request){.method = "PUT", .path = "/v1/games", .headers = json, .body = big, .body_len = (long)n});
    ck_assert_msg(a.rc == CURLE_OK, "curl: %s", curl_easy_strerror(a.rc));
    check_problem(&a, CD_P_METHOD);
    answer_free(&a);
    /* one that waits for 100 Continue gets the 413 before sending anything */
    static const char *const expect[] = {"Content-Type: application/json", "Expect: 100-continue", NULL};
    a = http((request){.method = "POST", .path = "/v1/games", .headers = expect, .body = big, .body_len = (long)n,
                       .expect = true});
    ck_assert_msg(a.rc == CURLE_OK, "curl: %s", curl_easy_strerror(a.rc));
    check_problem(&a, CD_P_TOO_LARGE);
    answer_free(&a);
    free(big);
    /* a body far past the limit, chunked: the server hangs up rather than read it all */
    a = http((request){.method = "POST", .path = "/v1/games", .chunked = 64u << 20, .timeout_ms = 20000});
    ck_assert_msg(a.rc != CURLE_OK || a.status == 413, "rc %d status %ld", a.rc, a.status);
    answer_free(&a);
}
END_TEST

START_TEST(bad_json_real_route)
{
    static const char *const json[] = {"Content-Type: application/json", NULL};
    static const char *const text[] = {"Content-Type: text/plain", NULL};
    answer a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = "{\"players\": ["});
    check_problem(&a, CD_P_BAD_JSON);
    const char *detail = json_string_value(json_object_get(a.json, "detail"));
    ck_assert_ptr_nonnull(detail);
    ck_assert_msg(strstr(detail, "line 1"), "detail without the position: %s", detail);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/v1/games", .headers = text, .body = "{}"});
    check_problem(&a, CD_P_UNSUPPORTED_TYPE);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/v1/games", .headers = json, .body = "[1, 2]"});
    check_problem(&a, CD_P_INVALID);
    answer_free(&a);
}
END_TEST

START_TEST(path_params_decoded)
{
    /* an encoded '/' stays inside its segment: games.get answers (no such game), not "no route" */
    answer a = http((request){.method = "GET", .path = "/v1/games/a%2Fb"});
    check_problem(&a, CD_P_NOT_FOUND);
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/p/h%C3%A9llo/x/a%2Fb?q=%3D%20x", .port = port_test});
    ck_assert_int_eq(a.status, 200);
    json_t *params = json_object_get(a.json, "params");
    ck_assert_int_eq(json_array_size(params), 2);
    ck_assert_str_eq(json_string_value(json_array_get(params, 0)), "h\xc3\xa9llo");
    ck_assert_str_eq(json_string_value(json_array_get(params, 1)), "a/b");
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "q")), "= x");
    answer_free(&a);
    /* %00 cannot be a parameter */
    a = http((request){.method = "GET", .path = "/p/a%00/x/b", .port = port_test});
    check_problem(&a, CD_P_NO_ROUTE);
    answer_free(&a);
}
END_TEST

/* RFC 9112 §3.2.2: the absolute-form of a request target routes as its path does; its query is still read */
START_TEST(absolute_form_target)
{
    static const char *const targets[] = {"http://t/healthz", "HTTP://t:80/healthz", "https://t/healthz?x=1"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        answer a = http((request){.method = "GET", .path = "/", .target = targets[i]});
        ck_assert_msg(a.status == 200, "%s: %ld", targets[i], a.status);
        answer_free(&a);
    }
    answer a = http((request){.method = "GET", .path = "/", .target = "http://t/p/h%C3%A9llo/x/a%2Fb?q=%3D%20x",
                              .port = port_test});
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(a.json, "params"), 1)), "a/b");
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "q")), "= x");
    answer_free(&a);
    /* no path at all is the root, which no route has; a scheme alone is no absolute-form */
    static const char *const rootless[] = {"http://t", "http://t?x=1", "http:/healthz"};
    for (size_t i = 0; i < sizeof rootless / sizeof rootless[0]; i++) {
        answer b = http((request){.method = "GET", .path = "/", .target = rootless[i]});
        ck_assert_msg(b.status == 404, "%s: %ld", rootless[i], b.status);
        answer_free(&b);
    }
}
END_TEST

START_TEST(bearer_and_admin)
{
    static const char *const admin[] = {"Authorization: Bearer admin-token-for-tests-0123456789", NULL};
    static const char *const other[] = {"Authorization: bearer admin-token-for-tests-012345678", NULL};
    static const char *const basic[] = {"Authorization: Basic YTpi", NULL};
    answer a = http((request){.method = "GET", .path = "/p/1/x/2", .port = port_test, .headers = admin});
    ck_assert(json_is_true(json_object_get(a.json, "admin")));
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "bearer")), "admin-token-for-tests-0123456789");
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/p/1/x/2", .port = port_test, .headers = other});
    ck_assert(json_is_false(json_object_get(a.json, "admin")));
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "bearer")), "admin-token-for-tests-012345678");
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/p/1/x/2", .port = port_test, .headers = basic});
    ck_assert(json_is_false(json_object_get(a.json, "admin")));
    ck_assert(json_is_null(json_object_get(a.json, "bearer")));
    answer_free(&a);
}
END_TEST

START_TEST(openapi_served_verbatim)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/api-docs/openapi.json", CARC_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *file = malloc((size_t)n);
    ck_assert_int_eq(fread(file, 1, (size_t)n, f), (size_t)n);
    fclose(f);

    answer a = http((request){.method = "GET", .path = "/v1/openapi.json"});
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.content_type, "application/json");
    check_headers(&a);
    ck_assert_int_eq(a.len, (size_t)n);
    ck_assert(memcmp(a.body, file, (size_t)n) == 0);
    ck_assert_ptr_nonnull(a.json);
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "openapi")), "3.1.0");
    answer_free(&a);
    free(file);
}
END_TEST

/* Every route of cd_routes is in the document with its method and its name as operationId, and every
 * operation of the document is a route. */
START_TEST(routes_match_openapi)
{
    json_error_t e;
    json_t *doc = json_loadb(cd_openapi_json, cd_openapi_json_len, JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(doc, "openapi.json: line %d: %s", e.line, e.text);
    json_t *paths = json_object_get(doc, "paths");
    ck_assert(json_is_object(paths));
    int nroutes = 0;
    for (const cd_route *rt = cd_routes; rt->method; rt++, nroutes++) {
        char method[8];
        size_t i;
        for (i = 0; rt->method[i] && i + 1 < sizeof method; i++)
            method[i] = (char)(rt->method[i] | 0x20);
        method[i] = '\0';
        json_t *op = json_object_get(json_object_get(paths, rt->pattern), method);
        ck_assert_msg(op, "%s %s (%s) is not in api-docs/openapi.json", rt->method, rt->pattern, rt->name);
        const char *id = json_string_value(json_object_get(op, "operationId"));
        ck_assert_msg(id && strcmp(id, rt->name) == 0, "%s %s: operationId %s, route name %s", rt->method,
                      rt->pattern, id ? id : "(none)", rt->name);
        ck_assert_msg(json_object_get(op, "responses"), "%s %s has no responses", rt->method, rt->pattern);
    }
    static const char *const methods[] = {"get", "put", "post", "delete", "options", "head", "patch", "trace", NULL};
    int nops = 0;
    const char *path;
    json_t *item;
    json_object_foreach(paths, path, item) {
        for (int m = 0; methods[m]; m++) {
            if (!json_object_get(item, methods[m]))
                continue;
            nops++;
            bool found = false;
            for (const cd_route *rt = cd_routes; rt->method && !found; rt++)
                found = strcmp(rt->pattern, path) == 0 && strcasecmp(rt->method, methods[m]) == 0;
            ck_assert_msg(found, "the document has %s %s, the route table does not", methods[m], path);
        }
    }
    ck_assert_int_eq(nops, nroutes);
    json_decref(doc);
}
END_TEST

START_TEST(problem_registry)
{
    for (int i = 0; i < CD_NPROBLEMS; i++) {
        const cd_problem_info *p = &cd_problems[i];
        ck_assert_msg(p->slug && p->title, "problem %d has no row", i);
        ck_assert_msg(p->status >= 400 && p->status <= 599, "problem %s: status %d", p->slug, p->status);
        for (const char *c = p->slug; *c; c++)
            ck_assert_msg((*c >= 'a' && *c <= 'z') || *c == '-', "problem slug %s", p->slug);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(p->slug, cd_problems[j].slug) != 0, "slug %s twice", p->slug);
    }
}
END_TEST

START_TEST(metrics_text)
{
    answer a = http((request){.method = "GET", .path = "/healthz"});
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/nope"});
    answer_free(&a);
    static const char *const want[] = {
        "# TYPE carcd_http_requests_total counter\n",
        "carcd_http_requests_total{route=\"healthz\",code=\"200\"} ",
        "carcd_http_requests_total{route=\"none\",code=\"404\"} ",
        "# TYPE carcd_http_request_duration_seconds histogram\n",
        "carcd_http_request_duration_seconds_bucket{route=\"healthz\",le=\"0.001\"} ",
        "carcd_http_request_duration_seconds_bucket{route=\"healthz\",le=\"+Inf\"} ",
        "carcd_http_request_duration_seconds_count{route=\"games.moves\"} ",
        "# TYPE carcd_moves_applied_total counter\n",
        "# TYPE carcd_db_errors_total counter\n",
        "# TYPE carcd_state_cache_reads_total counter\ncarcd_state_cache_reads_total{result=\"hit\"} ",
        "# TYPE carcd_http_requests_in_flight gauge\ncarcd_http_requests_in_flight 1\n",
        "# TYPE carcd_notify_listening gauge\ncarcd_notify_listening 0\n",   /* nobody waits */
        "# TYPE carcd_notify_notifications_total counter\ncarcd_notify_notifications_total ",
        NULL};
    /* a request is counted when it completes, just after its answer went out: poll until the two above
     * have landed rather than race them */
    int missing = -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        a = http((request){.method = "GET", .path = "/metrics"});
        ck_assert_int_eq(a.status, 200);
        missing = -1;
        for (int i = 0; want[i] && missing < 0; i++)
            if (!strstr(a.body, want[i]))
                missing = i;
        if (missing < 0)
            break;
        answer_free(&a);
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ck_assert_msg(missing < 0, "metrics without '%s'", missing >= 0 ? want[missing] : "");
    ck_assert_str_eq(a.content_type, "text/plain; version=0.0.4; charset=utf-8");
    check_headers(&a);
    /* every sample's metric has HELP and TYPE lines (histogram samples: their base name) */
    char *text = strdup(a.body), *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char name[128], help[160], type[160];
        ck_assert_msg(sscanf(line, "%127[a-z_]", name) == 1, "line '%s'", line);
        snprintf(type, sizeof type, "# TYPE %s ", name);
        static const char *const suffix[] = {"_bucket", "_sum", "_count", NULL};
        for (int k = 0; suffix[k] && !strstr(a.body, type); k++) {
            size_t n = strlen(name), sl = strlen(suffix[k]);
            if (n > sl && strcmp(name + n - sl, suffix[k]) == 0) {
                name[n - sl] = '\0';
                snprintf(type, sizeof type, "# TYPE %s histogram", name);
            }
        }
        snprintf(help, sizeof help, "# HELP %s ", name);
        ck_assert_msg(strstr(a.body, type) && strstr(a.body, help), "no HELP/TYPE for '%s'", line);
    }
    free(text);
    answer_free(&a);
}
END_TEST

START_TEST(readyz_without_database)
{
    answer a = http((request){.method = "GET", .path = "/readyz", .timeout_ms = 15000});
    check_problem(&a, CD_P_UNAVAILABLE);
    answer_free(&a);
}
END_TEST

START_TEST(readyz_with_database)
{
    const char *url = getenv("CARCD_TEST_DATABASE_URL");
    if (!url || !*url)
        return;   /* scripts/test.sh provides one */
    cd_config c;
    config(&c);
    snprintf(c.database_url, sizeof c.database_url, "%s", url);
    char err[512];
    ck_assert_msg(cd_migrate(&c, err, sizeof err) == 0, "%s", err);
    cd_server *s = cd_server_start(&c, err, sizeof err);
    ck_assert_msg(s, "%s", err);
    answer a = http((request){.method = "GET", .path = "/readyz", .port = cd_server_port(s)});
    ck_assert_msg(a.status == 200, "readyz %ld: %s", a.status, a.body ? a.body : "");
    ck_assert_str_eq(json_string_value(json_object_get(a.json, "status")), "ready");
    answer_free(&a);
    cd_server_stop(s);
}
END_TEST

/* ---- request framing through a raw socket ---------------------------------------------------------------- */

/* Sends `req` as is on a new connection and reads until the server closes it (or 5 s pass): what came back,
 * NUL-terminated (malloc'd); *closed says whether the server closed the connection. */
static char *raw_exchange(const char *req, bool *closed)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port_main)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    size_t n = strlen(req);
    ck_assert_int_eq(send(fd, req, n, 0), (ssize_t)n);
    char *out = calloc(1, 1);
    size_t len = 0;
    *closed = false;
    double until = cd_now() + 5;
    while (cd_now() < until) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        char buf[4096];
        ssize_t k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0) {
            *closed = true;   /* EOF (or a reset): the server hung up */
            break;
        }
        out = realloc(out, len + (size_t)k + 1);
        memcpy(out + len, buf, (size_t)k);
        len += (size_t)k;
        out[len] = '\0';
    }
    close(fd);
    return out;
}

/* RFC 9112 §6.3: Content-Length given twice with different values (or as a list of them) is a 400, and the
 * connection is closed, so what a proxy honouring the other length would forward as the next request (here a
 * GET /healthz after a 2-byte body) is never answered. */
START_TEST(conflicting_content_length)
{
    static const char *const lengths[] = {
        "Content-Length: 2\r\nContent-Length: 40\r\n",
        "Content-Length: 40\r\nContent-Length: 2\r\n",
        "Content-Length: 2\r\nContent-Length: 2\r\nContent-Length: 3\r\n",
    };   /* a list in one line ("2, 40") MHD 0.9.75 refuses itself before carcd sees it (issue 17, item 9) */
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        char req[512];
        snprintf(req, sizeof req,
                 "POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n%s\r\n{}"
                 "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
                 lengths[i]);
        bool closed;
        char *got = raw_exchange(req, &closed);
        ck_assert_msg(strncmp(got, "HTTP/1.1 400 ", 13) == 0, "case %zu: %.200s", i, got);
        ck_assert_msg(strstr(got, "\r\nConnection: close\r\n"), "case %zu: no Connection: close", i);
        ck_assert_msg(strstr(got, "application/problem+json") && strstr(got, "\"field\":\"Content-Length\""),
                      "case %zu: not a problem naming Content-Length: %s", i, got);
        ck_assert_msg(strstr(got, "\"type\":\"/problems/invalid\""), "case %zu: %s", i, got);
        ck_assert_msg(!strstr(got + 1, "HTTP/1.1 "), "case %zu: a second answer: %s", i, got);
        ck_assert_msg(closed, "case %zu: the connection stays open", i);
        free(got);
    }
    /* the same value twice is one length: not a framing error */
    bool closed;
    char *got = raw_exchange("GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nContent-Length: 0\r\n"
                             "Connection: close\r\n\r\n",
                             &closed);
    ck_assert_msg(strncmp(got, "HTTP/1.1 200 ", 13) == 0, "%.200s", got);
    free(got);
}
END_TEST

/* RFC 9112 §6.1, §6.3: Transfer-Encoding beside Content-Length (the request smuggling pair: a proxy reading
 * the length forwards what the chunked body left as a second request), or a coding other than exactly
 * "chunked", is a 400 naming Transfer-Encoding, and the connection is closed: the GET behind is never answered.
 * A chunked body alone is read. */
START_TEST(transfer_encoding_framing)
{
    static const char *const framings[] = {
        "Content-Length: 45\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
        "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "Transfer-Encoding: identity\r\nContent-Length: 2\r\n\r\n{}",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof framings / sizeof framings[0]; i++) {
        char req[512];
        snprintf(req, sizeof req,
                 "POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n%s"
                 "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
                 framings[i]);
        bool closed;
        char *got = raw_exchange(req, &closed);
        ck_assert_msg(strncmp(got, "HTTP/1.1 400 ", 13) == 0, "case %zu: %.200s", i, got);
        ck_assert_msg(strstr(got, "\r\nConnection: close\r\n"), "case %zu: no Connection: close", i);
        ck_assert_msg(strstr(got, "\"field\":\"Transfer-Encoding\""), "case %zu: not naming Transfer-Encoding: %s", i,
                      got);
        ck_assert_msg(!strstr(got + 1, "HTTP/1.1 "), "case %zu: a second answer: %s", i, got);
        ck_assert_msg(closed, "case %zu: the connection stays open", i);
        free(got);
    }
    bool closed;
    char *got = raw_exchange("POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
                             &closed);
    ck_assert_msg(strncmp(got, "HTTP/1.1 400 ", 13) == 0 && strstr(got, "\"field\":\"players\""),
                  "a chunked body is read: %.300s", got);
    free(got);
}
END_TEST

/* ---- the test route table ------------------------------------------------------------------------------ */

START_TEST(json_body)
{
    static const char *const json[] = {"Content-Type: application/json", NULL};
    static const char *const utf8[] = {"Content-Type: application/json; charset=utf-8", NULL};
    static const char *const utf8q[] = {"Content-Type: Application/JSON;charset=\"UTF-8\"", NULL};
    static const char *const latin[] = {"Content-Type: application/json; charset=latin1", NULL};
    static const char *const jsonp[] = {"Content-Type: application/jsonp", NULL};
    answer a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = json,
                              .body = "{\"a\": [1, 2, {\"b\": null}]}"});
    ck_assert_msg(a.status == 200, "%ld %s", a.status, a.body);
    ck_assert_str_eq(a.body, "{\"a\":[1,2,{\"b\":null}]}");
    check_headers(&a);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = utf8, .body = "{}"});
    ck_assert_int_eq(a.status, 200);
    answer_free(&a);
    a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = utf8q, .body = "{}"});
    ck_assert_int_eq(a.status, 200);
    answer_free(&a);
    const char *const *refused[] = {latin, jsonp, NULL};
    for (int i = 0; refused[i]; i++) {
        a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = refused[i], .body = "{}"});
        check_problem(&a, CD_P_UNSUPPORTED_TYPE);
        answer_free(&a);
    }
    a = http((request){.method = "POST", .path = "/echo", .port = port_test, .body = "{}"});   /* curl: form type */
    check_problem(&a, CD_P_UNSUPPORTED_TYPE);
    answer_free(&a);
    static const char *const bad[] = {"", "{", "{\"a\":1,\"a\":2}", "{\"a\":01}", "{\"a\":\"\\u0000\"}", "nul",
                                      "{} {}", "\"just a string\"", NULL};
    for (int i = 0; bad[i]; i++) {
        a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = json, .body = bad[i]});
        check_problem(&a, CD_P_BAD_JSON);
        ck_assert_msg(strstr(json_string_value(json_object_get(a.json, "detail")), "column"), "%s", a.body);
        answer_free(&a);
    }
    a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = json, .body = "[{}]"});
    check_problem(&a, CD_P_INVALID);
    answer_free(&a);
    /* a NUL inside the body is malformed JSON, not a shorter body */
    a = http((request){.method = "POST", .path = "/echo", .port = port_test, .headers = json, .body = "{}\0{}",
                       .body_len = 5});
    check_problem(&a, CD_P_BAD_JSON);
    answer_free(&a);
}
END_TEST

START_TEST(suspend_resume_reply)
{
    double t0 = cd_now();
    answer a = http((request){.method = "GET", .path = "/suspend", .port = port_test});
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.content_type, "application/json");
    check_headers(&a);
    ck_assert(json_is_true(json_object_get(a.json, "resumed")));
    ck_assert(cd_now() - t0 >= 0.045);
    answer_free(&a);
}
END_TEST

/* A reply stored before the handler returned (another thread resumed it at once) is the answer; it was
 * dropped, and leaked, and the handler ran again, until after_handler left it for the resume. */
START_TEST(suspend_resume_before_return)
{
    for (int i = 0; i < 20; i++) {
        answer a = http((request){.method = "GET", .path = "/resume-early", .port = port_test});
        ck_assert_msg(a.status == 200, "%ld %s", a.status, a.body ? a.body : "");
        ck_assert_str_eq(json_string_value(json_object_get(a.json, "from")), "early");
        answer_free(&a);
    }
}
END_TEST

START_TEST(suspend_resume_rerun)
{
    int before = __atomic_load_n(&ctx_freed, __ATOMIC_SEQ_CST);
    answer a = http((request){.method = "GET", .path = "/rerun", .port = port_test});
    ck_assert_int_eq(a.status, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(a.json, "calls")), 2);
    answer_free(&a);
    /* the context is freed when the request completes, which may be just after the client has its answer */
    for (int i = 0; i < 100 && __atomic_load_n(&ctx_freed, __ATOMIC_SEQ_CST) == before; i++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    ck_assert_int_eq(__atomic_load_n(&ctx_freed, __ATOMIC_SEQ_CST), before + 1);
}
END_TEST

static void *client_suspend(void *arg)
{
    answer *a = arg;
    *a = http((request){.method = "GET", .path = "/suspend", .port = port_test});
    return NULL;
}

/* More long-polls at once than there are worker threads: suspended requests hold no thread. */
START_TEST(many_suspended)
{
    enum { N = 24 };
    pthread_t t[N];
    answer a[N];
    double t0 = cd_now();
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, client_suspend, &a[i]), 0);
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        ck_assert_msg(a[i].status == 200, "client %d: %ld (curl %d)", i, a[i].status, a[i].rc);
        answer_free(&a[i]);
    }
    /* 24 waits of 50 ms on 3 threads would take 400 ms if each held its thread */
    ck_assert_msg(cd_now() - t0 < 0.35, "took %.3f s", cd_now() - t0);
}
END_TEST

START_TEST(handler_bugs)
{
    answer a = http((request){.method = "GET", .path = "/noreply", .port = port_test});
    check_problem(&a, CD_P_INTERNAL);
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/twice", .port = port_test});
    ck_assert_int_eq(a.status, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(a.json, "n")), 1);
    answer_free(&a);
    a = http((request){.method = "GET", .path = "/internal", .port = port_test});
    check_problem(&a, CD_P_INTERNAL);
    ck_assert_msg(!strstr(a.body, "secret"), "internal details reached the client: %s", a.body);
    answer_free(&a);
}
END_TEST

START_TEST(handler_headers)
{
    answer a = http((request){.method = "GET", .path = "/cache", .port = port_test});
    ck_assert_int_eq(a.status, 304);
    ck_assert_str_eq(a.cache_control, "max-age=60");
    ck_assert_str_eq(a.etag, "\"7\"");
    ck_assert_str_eq(a.nosniff, "nosniff");
    ck_assert_int_eq(a.len, 0);
    answer_free(&a);
}
END_TEST

static void *client_hang(void *arg)
{
    answer *a = arg;
    *a = http((request){.method = "GET", .path = "/hang", .port = port_test, .timeout_ms = 10000});
    return NULL;
}

/* Stopping the server answers a suspended request 503 (MHD itself must never stop with one suspended). */
START_TEST(shutdown_answers_suspended)
{
    pthread_t t;
    answer a;
    ck_assert_int_eq(pthread_create(&t, NULL, client_hang, &a), 0);
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    double t0 = cd_now();
    cd_server_stop(srv_test);
    srv_test = NULL;
    pthread_join(t, NULL);
    ck_assert_msg(cd_now() - t0 < 3, "stop took %.3f s", cd_now() - t0);
    check_problem(&a, CD_P_UNAVAILABLE);
    answer_free(&a);
}
END_TEST

/* ---- configuration ------------------------------------------------------------------------------------- */

START_TEST(config_flags_env_defaults)
{
    cd_config c;
    char err[256];
    unsetenv("CARCD_LISTEN");
    unsetenv("CARCD_THREADS");
    setenv("CARCD_BODY_LIMIT", "1000", 1);
    setenv("CARCD_ADMIN_TOKEN", "from-env", 1);
    char *argv[] = {"carcd", "migrate", "--body-limit=2000", "--listen", "[::1]:0", "--threads", "7", NULL};
    ck_assert_int_eq(cd_config_load(&c, 7, argv, err, sizeof err), 0);
    ck_assert_int_eq(c.command, CD_CMD_MIGRATE);
    ck_assert_uint_eq(c.body_limit, 2000);
    ck_assert_str_eq(c.listen_host, "::1");
    ck_assert_int_eq(c.listen_port, 0);
    ck_assert_int_eq(c.threads, 7);
    ck_assert_str_eq(c.admin_token, "from-env");
    ck_assert_int_eq(c.max_wait_s, 60);
    ck_assert_int_eq(c.conn_timeout_s, 90);
    ck_assert_int_eq(c.max_connections, 1024);
    unsetenv("CARCD_BODY_LIMIT");
    unsetenv("CARCD_ADMIN_TOKEN");

    char *plain[] = {"carcd", NULL};
    ck_assert_int_eq(cd_config_load(&c, 1, plain, err, sizeof err), 0);
    ck_assert_int_eq(c.command, CD_CMD_SERVE);
    ck_assert_str_eq(c.listen_host, "127.0.0.1");
    ck_assert_int_eq(c.listen_port, 8080);
    ck_assert_uint_eq(c.body_limit, 65536);
    ck_assert_int_eq(c.threads, 4);

    char *help[] = {"carcd", "--help", NULL};
    ck_assert_int_eq(cd_config_load(&c, 2, help, err, sizeof err), 0);
    ck_assert_int_eq(c.command, CD_CMD_HELP);

    static const char *const bad[][3] = {
        {"--nope", NULL}, {"-x", NULL}, {"--threads", "0"}, {"--threads", "4x"}, {"--threads", NULL},
        {"--listen", "8080"}, {"--listen", "::1:8080"}, {"--listen", "host:99999"}, {"frobnicate", NULL},
        {"--body-limit", "-1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *v[] = {"carcd", (char *)bad[i][0], (char *)bad[i][1], NULL};
        err[0] = '\0';
        ck_assert_msg(cd_config_load(&c, bad[i][1] ? 3 : 2, v, err, sizeof err) == -1, "%s %s accepted", bad[i][0],
                      bad[i][1] ? bad[i][1] : "");
        ck_assert_msg(err[0], "no message for %s", bad[i][0]);
    }
    setenv("CARCD_THREADS", "lots", 1);
    ck_assert_int_eq(cd_config_load(&c, 1, plain, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CARCD_THREADS"), "%s", err);
    unsetenv("CARCD_THREADS");

    FILE *f = tmpfile();
    cd_config_usage(f);
    long n = ftell(f);
    rewind(f);
    char *usage = calloc(1, (size_t)n + 1);
    ck_assert_int_eq(fread(usage, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    static const char *const names[] = {"--database-url", "CARCD_DATABASE_URL", "--listen", "CARCD_LISTEN",
                                        "--admin-token", "CARCD_ADMIN_TOKEN", "--body-limit", "--threads",
                                        "--max-wait", "--conn-timeout", "--max-connections", "migrate", NULL};
    for (int i = 0; names[i]; i++)
        ck_assert_msg(strstr(usage, names[i]), "usage without %s", names[i]);
    free(usage);
}
END_TEST

START_TEST(listen_ipv6_and_busy_port)
{
    cd_config c;
    config(&c);
    char err[256];
    strcpy(c.listen_host, "::1");
    cd_server *s = cd_server_start(&c, err, sizeof err);
    if (s) {   /* hosts without IPv6 loopback cannot run this half */
        CURL *h = curl_easy_init();
        char url[64];
        snprintf(url, sizeof url, "http://[::1]:%d/healthz", cd_server_port(s));
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
        answer a = {0};
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
        ck_assert_int_eq(curl_easy_perform(h), CURLE_OK);
        long status;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        ck_assert_int_eq(status, 200);
        curl_easy_cleanup(h);
        free(a.body);
        cd_server_stop(s);
    }
    /* the main server's port is taken */
    strcpy(c.listen_host, "127.0.0.1");
    c.listen_port = port_main;
    s = cd_server_start(&c, err, sizeof err);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err, "cannot listen"), "%s", err);
}
END_TEST

/* unix:PATH: the same server on a unix socket; a stale socket file is replaced, any other file is not */
START_TEST(listen_unix_socket)
{
    char dir[] = "/tmp/carcd-unix-XXXXXX", path[64], url_err[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/carcd.sock", dir);
    cd_config c;
    char *argv[] = {"carcd", "--listen", NULL, NULL};
    char listen[160];
    snprintf(listen, sizeof listen, "unix:%s", path);
    argv[2] = listen;
    char err[256];
    ck_assert_int_eq(cd_config_load(&c, 3, argv, err, sizeof err), 0);
    ck_assert_str_eq(c.listen_unix, path);
    config(&c);   /* the test's settings; the socket path again after them */
    snprintf(c.listen_unix, sizeof c.listen_unix, "%s", path);
    for (int round = 0; round < 2; round++) {   /* the second finds the first's socket file and replaces it */
        cd_server *s = cd_server_start(&c, err, sizeof err);
        ck_assert_msg(s != NULL, "%s", err);
        CURL *h = curl_easy_init();
        curl_easy_setopt(h, CURLOPT_URL, "http://localhost/healthz");
        curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, path);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
        answer a = {0};
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, url_err);
        ck_assert_msg(curl_easy_perform(h) == CURLE_OK, "%s", url_err);
        long status;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        ck_assert_int_eq(status, 200);
        curl_easy_cleanup(h);
        free(a.body);
        cd_server_stop(s);
    }
    unlink(path);
    FILE *f = fopen(path, "w");   /* a regular file is not a stale socket: left alone, and an error */
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_ptr_null(cd_server_start(&c, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot listen on unix:"), "%s", err);
    unlink(path);
    rmdir(dir);
    /* too long, or empty */
    char longer[300];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    memcpy(longer, "unix:/", 6);
    argv[2] = longer;
    ck_assert_int_eq(cd_config_load(&c, 3, argv, err, sizeof err), -1);
    argv[2] = "unix:";
    ck_assert_int_eq(cd_config_load(&c, 3, argv, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "unix:PATH"), "%s", err);
}
END_TEST

/* ---- limits through a raw socket ------------------------------------------------------------------------ */
static int count_of(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* One answer: one status line `status`, application/problem+json, the body a problem of that status. */
static void check_raw_problem(const char *wire, int status, const char *slug)
{
    char line[64];
    snprintf(line, sizeof line, "HTTP/1.1 %d ", status);
    ck_assert_msg(strncmp(wire, line, strlen(line)) == 0, "not a %d: %.200s", status, wire);
    ck_assert_msg(count_of(wire, "HTTP/1.1 ") == 1, "more than one status line: %.600s", wire);
    ck_assert_msg(strstr(wire, "\r\nContent-Type: application/problem+json\r\n"), "%.400s", wire);
    const char *body = strstr(wire, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    json_t *j = json_loads(body + 4, 0, NULL);
    ck_assert_msg(j != NULL, "the body is not JSON: %.300s", body + 4);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), status);
    char type[64];
    snprintf(type, sizeof type, "/problems/%s", slug);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), type);
    json_decref(j);
}

/* A URI over CD_URI_MAX and a header block over CD_HEADERS_MAX (both within what libmicrohttpd's memory pool
 * holds) are answered by carcd as 414 and 431 problems, once, whatever the route; the limits themselves pass. */
START_TEST(uri_and_header_limits)
{
    char *req = malloc(64 * 1024);
    /* a path past the limit */
    int n = snprintf(req, 64 * 1024, "GET /v1/games/%0*d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", CD_URI_MAX, 7);
    bool closed;
    char *wire = raw_exchange(req, &closed);
    check_raw_problem(wire, 414, "uri-too-long");
    free(wire);
    /* far past it (12 000 bytes: within the connection pool, so still carcd's answer) */
    n = snprintf(req, 64 * 1024, "GET /healthz?x=%0*d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 12000, 7);
    wire = raw_exchange(req, &closed);
    check_raw_problem(wire, 414, "uri-too-long");
    free(wire);
    /* a short path with a long query */
    n = snprintf(req, 64 * 1024, "GET /healthz?x=%0*d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", CD_URI_MAX, 7);
    wire = raw_exchange(req, &closed);
    check_raw_problem(wire, 414, "uri-too-long");
    free(wire);
    /* headers past the limit: one big one, or many small ones; also with a body, which is then not read */
    n = snprintf(req, 64 * 1024, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: %0*d\r\n\r\n",
                 CD_HEADERS_MAX, 7);
    wire = raw_exchange(req, &closed);
    check_raw_problem(wire, 431, "headers-too-large");
    free(wire);
    n = snprintf(req, 64 * 1024, "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                 "Connection: close\r\nContent-Length: 2\r\n");
    /* 100 lines of 210 bytes: past CD_HEADERS_MAX, within the 32 KiB connection pool (CD_CONN_MEMORY), where
     * each header also costs libmicrohttpd a struct: past the pool it answers with its own HTML 431 */
    for (int i = 0; i < 100; i++)
        n += snprintf(req + n, 64 * 1024 - (size_t)n, "X-H%03d: %0200d\r\n", i, i);
    n += snprintf(req + n, 64 * 1024 - (size_t)n, "\r\n{}");
    wire = raw_exchange(req, &closed);
    check_raw_problem(wire, 431, "headers-too-large");
    free(wire);
    /* at the limits: answered as usual */
    char uri[CD_URI_MAX + 1];
    int k = snprintf(uri, sizeof uri, "/healthz?x=");
    memset(uri + k, '7', (size_t)(CD_URI_MAX - k));
    uri[CD_URI_MAX] = 0;
    n = snprintf(req, 64 * 1024, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", uri);
    wire = raw_exchange(req, &closed);
    ck_assert_msg(strncmp(wire, "HTTP/1.1 200 ", 13) == 0, "%.200s", wire);
    free(wire);
    /* Host: x\r\n (9) + Connection: close\r\n (19) + X-Big: v\r\n (4 + 5 + v) fills CD_HEADERS_MAX exactly */
    n = snprintf(req, 64 * 1024, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: %0*d\r\n\r\n",
                 CD_HEADERS_MAX - 9 - 19 - 9, 7);
    wire = raw_exchange(req, &closed);
    ck_assert_msg(strncmp(wire, "HTTP/1.1 200 ", 13) == 0, "%.200s", wire);
    free(wire);
    free(req);
}
END_TEST


/* What libmicrohttpd 0.9.75 answers itself, before (or instead of) any callback of carcd's: pinned exactly as
 * the client gets it, so that a libmicrohttpd that changes any of it (a problem+json hook, the end of the
 * doubled header block) fails here and daemon/README.md ("What libmicrohttpd answers itself") is revisited. */
typedef struct {
    const char *what;
    const char *head;     /* the request's head up to its headers' end; the rest is `tail` */
    int status;
    int status_lines;     /* 2: MHD sends its status line and header block twice (the body once) */
} mhd_case;

START_TEST(libmicrohttpd_own_answers)
{
    static const mhd_case cases[] = {
        {"HTTP/2.0", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505, 1},
        {"Content-Length: -5", "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400, 2},
        {"Content-Length: 1e3", "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n", 400, 2},
        {"Content-Length of 20 digits",
         "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 413, 2},
        {"a chunk size that is not hex",
         "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
         "\r\nzz\r\n{}\r\n0\r\n\r\n", 400, 1},
        {"headers past the pool", NULL, 431, 1},
        {"a URI past the pool", NULL, 414, 1},
    };
    char *req = malloc(64 * 1024);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const mhd_case *k = &cases[c];
        if (k->head) {
            snprintf(req, 64 * 1024, "%s", k->head);
        } else if (k->status == 431) {   /* 1 000 lines of 41 bytes: each also costs MHD a struct in the pool */
            int n = snprintf(req, 64 * 1024, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
            for (int i = 0; i < 1000; i++)
                n += snprintf(req + n, 64 * 1024 - (size_t)n, "X-H%03d: %032d\r\n", i, i);
            snprintf(req + n, 64 * 1024 - (size_t)n, "\r\n");
        } else {
            snprintf(req, 64 * 1024, "GET /healthz?x=%0*d HTTP/1.1\r\nHost: x\r\n\r\n", 40000, 7);
        }
        bool closed;
        char *wire = raw_exchange(req, &closed);
        char line[64];
        snprintf(line, sizeof line, "HTTP/1.1 %d ", k->status);
        ck_assert_msg(strncmp(wire, line, strlen(line)) == 0, "%s: not a %d: %.300s", k->what, k->status, wire);
        ck_assert_msg(count_of(wire, "HTTP/1.1 ") == k->status_lines && count_of(wire, line) == k->status_lines,
                      "%s: %d status lines expected: %.900s", k->what, k->status_lines, wire);
        /* MHD's own answer: HTML without a Content-Type, the connection closed after it */
        ck_assert_msg(!strstr(wire, "Content-Type:") && !strstr(wire, "problem+json"), "%s: %.600s", k->what, wire);
        ck_assert_msg(count_of(wire, "\r\nConnection: close\r\n") == k->status_lines, "%s: %.600s", k->what, wire);
        ck_assert_msg(closed, "%s: the connection stayed open", k->what);
        const char *head_end = strstr(wire, "\r\n\r\n");
        ck_assert_ptr_nonnull(head_end);
        size_t head_len = (size_t)(head_end - wire) + 4;
        const char *body = wire + head_len * (size_t)k->status_lines;
        if (k->status_lines == 2)   /* the block twice (same status line), then the body once */
            ck_assert_msg(strncmp(wire + head_len, line, strlen(line)) == 0, "%s: %.900s", k->what, wire);
        ck_assert_msg(strncmp(body, "<html>", 6) == 0 && count_of(wire, "<html>") == 1, "%s: %.900s", k->what,
                      wire);
        const char *cl = strstr(wire, "\r\nContent-Length: ");
        ck_assert_ptr_nonnull(cl);
        ck_assert_uint_eq(strtoul(cl + 18, NULL, 10), strlen(body));
        free(wire);
    }
    free(req);
}
END_TEST


/* Every waiting long-poll and stream is a descriptor: the server takes the hard open-files limit when the soft
 * one is below it, and still runs (with a warning) when max-connections does not fit. */
START_TEST(open_files_limit_raised)
{
    struct rlimit rl, low;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max < 512)
        return;   /* nothing to raise to here */
    low = (struct rlimit){256, rl.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
    long got = cd_http_raise_nofile(100);
    struct rlimit now;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &now), 0);
    ck_assert_uint_eq(now.rlim_cur, rl.rlim_max);
    ck_assert_int_eq(got, (long)rl.rlim_max);
    /* more connections than descriptors: the limit is what it is, carcd says so in its log */
    ck_assert_int_eq(cd_http_raise_nofile((int)(rl.rlim_max > 1000000 ? 1000000 : rl.rlim_max)), (long)rl.rlim_max);
    setrlimit(RLIMIT_NOFILE, &rl);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("http_core");
    TCase *tc = tcase_create("http");
    tcase_add_checked_fixture(tc, start, stop);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, healthz);
    tcase_add_test(tc, no_route);
    tcase_add_test(tc, wrong_method);
    tcase_add_test(tc, head_as_get);
    tcase_add_test(tc, too_large);
    tcase_add_test(tc, bad_json_real_route);
    tcase_add_test(tc, conflicting_content_length);
    tcase_add_test(tc, transfer_encoding_framing);
    tcase_add_test(tc, path_params_decoded);
    tcase_add_test(tc, absolute_form_target);
    tcase_add_test(tc, bearer_and_admin);
    tcase_add_test(tc, openapi_served_verbatim);
    tcase_add_test(tc, metrics_text);
    tcase_add_test(tc, readyz_without_database);
    tcase_add_test(tc, readyz_with_database);
    tcase_add_test(tc, json_body);
    tcase_add_test(tc, suspend_resume_reply);
    tcase_add_test(tc, suspend_resume_before_return);
    tcase_add_test(tc, suspend_resume_rerun);
    tcase_add_test(tc, many_suspended);
    tcase_add_test(tc, handler_bugs);
    tcase_add_test(tc, handler_headers);
    tcase_add_test(tc, shutdown_answers_suspended);
    tcase_add_test(tc, listen_ipv6_and_busy_port);
    tcase_add_test(tc, listen_unix_socket);
    tcase_add_test(tc, uri_and_header_limits);
    tcase_add_test(tc, libmicrohttpd_own_answers);
    suite_add_tcase(s, tc);
    TCase *tc2 = tcase_create("static");
    tcase_add_test(tc2, routes_match_openapi);
    tcase_add_test(tc2, problem_registry);
    tcase_add_test(tc2, config_flags_env_defaults);
    tcase_add_test(tc2, open_files_limit_raised);
    suite_add_tcase(s, tc2);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
