/*
 * test_route_match.c — http/route_match.h and http/listen.h on their own: a path against a route pattern
 * (literal segments, "{x}" parameters percent-decoded one by one, malformed escapes and %00 as no match,
 * nothing left allocated on a miss, the parameters' room), and the listening sockets (TCP on port 0 tells the
 * kernel's port and takes a connection; a unix socket replaces a stale socket file and refuses to replace
 * anything else). tests/http/ drives the same code through a running server.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <unistd.h>

#include "http/listen.h"
#include "http/route_match.h"

static void free_params(char **params, int n)
{
    for (int i = 0; i < n; i++)
        free(params[i]);
}

START_TEST(literal_segments_match_exactly)
{
    ck_assert(cd_route_match("/healthz", "/healthz", NULL, 0, NULL));
    ck_assert(cd_route_match("/v1/lobby", "/v1/lobby", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/lobby", "/v1/lobb", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/lobby", "/v1/lobbyx", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/lobby", "/v1/lobby/", NULL, 0, NULL));   /* a trailing slash is a segment */
    ck_assert(!cd_route_match("/v1/lobby", "/v1", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/lobby", "v1/lobby", NULL, 0, NULL));     /* no leading slash */
    ck_assert(!cd_route_match("/v1/Lobby", "/v1/lobby", NULL, 0, NULL));    /* case counts */
    ck_assert(cd_route_match("/", "/", NULL, 0, NULL));
    ck_assert(!cd_route_match("/", "/x", NULL, 0, NULL));
}
END_TEST

START_TEST(parameters_in_pattern_order)
{
    char *params[4] = {0};
    int n = -1;
    ck_assert(cd_route_match("/v1/games/{id}/seats/{seat}/token", "/v1/games/abc/seats/2/token", params, 4, &n));
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(params[0], "abc");
    ck_assert_str_eq(params[1], "2");
    free_params(params, n);

    /* without room for them, the shape alone */
    ck_assert(cd_route_match("/v1/games/{id}", "/v1/games/abc", NULL, 0, NULL));
    /* a parameter is one non-empty segment */
    ck_assert(!cd_route_match("/v1/games/{id}", "/v1/games/", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/games/{id}", "/v1/games//", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/games/{id}", "/v1/games/a/b", NULL, 0, NULL));
    ck_assert(!cd_route_match("/v1/games/{id}/moves", "/v1/games/abc", NULL, 0, NULL));
    /* a segment in braces is a parameter whatever its name, "{}" too; a lone brace is literal */
    ck_assert(cd_route_match("/x/{}", "/x/y", NULL, 0, NULL));
    ck_assert(cd_route_match("/x/{", "/x/{", NULL, 0, NULL));
    ck_assert(!cd_route_match("/x/{", "/x/y", NULL, 0, NULL));
}
END_TEST

START_TEST(parameters_are_percent_decoded_one_by_one)
{
    char *params[4] = {0};
    int n = 0;
    /* an encoded slash stays inside its parameter; both cases of hex digits */
    ck_assert(cd_route_match("/a/{x}/{y}", "/a/p%2Fq/%41%62c%20d", params, 4, &n));
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(params[0], "p/q");
    ck_assert_str_eq(params[1], "Abc d");
    free_params(params, n);
    /* a literal segment is compared as sent, not decoded */
    ck_assert(!cd_route_match("/a/b", "/a/%62", NULL, 0, NULL));
}
END_TEST

START_TEST(malformed_escapes_do_not_match)
{
    static const char *const bad[] = {"/a/%", "/a/x%4", "/a/%zz", "/a/%4g", "/a/%00", "/a/ab%0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *params[4] = {0};
        int n = -1;
        ck_assert_msg(!cd_route_match("/a/{x}", bad[i], params, 4, &n), "%s matched", bad[i]);
        ck_assert_int_eq(n, -1);
        ck_assert_ptr_null(params[0]);
        /* the shape alone does not decode: it fits */
        ck_assert_msg(cd_route_match("/a/{x}", bad[i], NULL, 0, NULL), "%s: no shape", bad[i]);
    }
    /* an earlier parameter already decoded is freed and cleared when a later one is malformed (ASan's leak
     * check holds the freeing) */
    char *params[4] = {0};
    int n = -1;
    ck_assert(!cd_route_match("/a/{x}/{y}", "/a/fine/%zz", params, 4, &n));
    ck_assert_ptr_null(params[0]);
    ck_assert_ptr_null(params[1]);
    ck_assert_int_eq(n, -1);
}
END_TEST

START_TEST(more_parameters_than_room_do_not_match)
{
    char *params[2] = {0};
    int n = -1;
    ck_assert(!cd_route_match("/{a}/{b}/{c}", "/x/y/z", params, 2, &n));
    ck_assert_ptr_null(params[0]);
    ck_assert_ptr_null(params[1]);
    ck_assert(cd_route_match("/{a}/{b}", "/x/y", params, 2, &n));
    ck_assert_int_eq(n, 2);
    free_params(params, n);
}
END_TEST

START_TEST(tcp_on_port_zero_tells_its_port)
{
    char err[200] = "";
    bool ipv6 = true;
    int port = 0;
    int fd = cd_listen_tcp("127.0.0.1", 0, &ipv6, &port, err, sizeof err);
    ck_assert_msg(fd >= 0, "%s", err);
    ck_assert(!ipv6);
    ck_assert_int_gt(port, 0);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    ck_assert_int_eq(connect(c, (struct sockaddr *)&sa, sizeof sa), 0);
    int a = accept(fd, NULL, NULL);
    ck_assert_int_ge(a, 0);
    close(a);
    close(c);
    /* the same port again, while it listens: refused with the address and the reason */
    int again = cd_listen_tcp("127.0.0.1", port, &ipv6, &port, err, sizeof err);
    ck_assert_int_eq(again, -1);
    ck_assert_msg(strstr(err, "cannot listen on 127.0.0.1:") && strstr(err, "in use"), "%s", err);
    close(fd);
}
END_TEST

START_TEST(unix_socket_replaces_a_stale_socket_only)
{
    char dir[] = "/tmp/carcd-listen.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64], err[200] = "";
    snprintf(path, sizeof path, "%s/s", dir);
    int fd = cd_listen_unix(path, err, sizeof err);
    ck_assert_msg(fd >= 0, "%s", err);
    close(fd);   /* the socket file stays, as after a crash */
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISSOCK(st.st_mode));
    fd = cd_listen_unix(path, err, sizeof err);   /* a previous run's socket file: replaced */
    ck_assert_msg(fd >= 0, "%s", err);
    close(fd);
    unlink(path);
    FILE *f = fopen(path, "w");   /* any other file is not */
    ck_assert_ptr_nonnull(f);
    fputs("keep me", f);
    fclose(f);
    ck_assert_int_eq(cd_listen_unix(path, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot listen on unix:"), "%s", err);
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    unlink(path);
    char longpath[200];
    memset(longpath, 'x', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = '\0';
    ck_assert_int_eq(cd_listen_unix(longpath, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "unix socket path too long"), "%s", err);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("route_match");
    TCase *tc = tcase_create("route_match");
    tcase_add_test(tc, literal_segments_match_exactly);
    tcase_add_test(tc, parameters_in_pattern_order);
    tcase_add_test(tc, parameters_are_percent_decoded_one_by_one);
    tcase_add_test(tc, malformed_escapes_do_not_match);
    tcase_add_test(tc, more_parameters_than_room_do_not_match);
    suite_add_tcase(s, tc);
    tc = tcase_create("listen");
    tcase_add_test(tc, tcp_on_port_zero_tells_its_port);
    tcase_add_test(tc, unix_socket_replaces_a_stale_socket_only);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
