/*
 * test_http1_client.c — bench/http1_client.h, carcd-load's HTTP/1.1 client, against bytes written by hand
 * into a real socket: the requests it writes, the answers it takes (whole, or a byte a read) and the ones it
 * refuses rather than guesses at (chunked, no length, bytes past the end, a connection closed early).
 * e2e_load runs carcd-load itself against a carcd.
 */
#include <check.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../../bench/http1_client.h"

/* A connection whose other end the test writes: c->fd non-blocking, *peer the server's end. */
static void pair(h1_conn *c, int *peer)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    ck_assert_int_eq(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
    memset(c, 0, sizeof *c);
    c->fd = sv[0];
    *peer = sv[1];
}

static void conn_free(h1_conn *c)
{
    h1_close(c);
    free(c->out);
    free(c->in);
}

static void put(int fd, const char *s)
{
    ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

static const h1_server *server_of(const char *url)
{
    static h1_server s;
    ck_assert_msg(h1_server_init(&s, url, NULL), "%s", url);
    return &s;
}

START_TEST(request_bytes)
{
    h1_conn c = {.fd = -1};
    const h1_server *s = server_of("http://127.0.0.1:8080");
    h1_request(&c, s, "/v1/games/x/legal-moves", "tok", NULL, NULL);
    ck_assert_str_eq(c.out, "GET /v1/games/x/legal-moves HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n"
                            "Authorization: Bearer tok\r\n\r\n");
    h1_request(&c, s, "/v1/games/x/moves", "tok", "{\"a\":1}", "k-1");
    ck_assert_str_eq(c.out, "POST /v1/games/x/moves HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n"
                            "Authorization: Bearer tok\r\nIdempotency-Key: k-1\r\n"
                            "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}");
    ck_assert_uint_eq(c.out_len, strlen(c.out));
    conn_free(&c);
}
END_TEST

START_TEST(urls)
{
    h1_server s;
    ck_assert(h1_server_init(&s, "http://[::1]:9/carcd", NULL));
    ck_assert_str_eq(s.host, "[::1]:9");
    ck_assert_str_eq(s.prefix, "/carcd");
    ck_assert_int_eq(s.addr.ss_family, AF_INET6);
    ck_assert_int_eq(ntohs(((struct sockaddr_in6 *)&s.addr)->sin6_port), 9);
    ck_assert(h1_server_init(&s, "http://127.0.0.1", NULL));
    ck_assert_int_eq(ntohs(((struct sockaddr_in *)&s.addr)->sin_port), 80);
    ck_assert(h1_server_init(&s, "http://carcd.local:1", "/tmp/x.sock"));
    ck_assert_int_eq(s.addr.ss_family, AF_UNIX);
    ck_assert_str_eq(s.host, "carcd.local:1");
    ck_assert(!h1_server_init(&s, "https://127.0.0.1:1", NULL));
    ck_assert(!h1_server_init(&s, "http:///v1", NULL));
    ck_assert(!h1_server_init(&s, "127.0.0.1:1", NULL));
}
END_TEST

START_TEST(answer_whole_then_next_on_the_same_connection)
{
    h1_conn c;
    int peer;
    pair(&c, &peer);
    const char *why = NULL;
    h1_request(&c, server_of("http://127.0.0.1:1"), "/a", NULL, NULL, NULL);
    ck_assert_int_eq(h1_send(&c), H1_DONE);
    ck_assert_int_eq(h1_recv(&c, &why), H1_AGAIN);   /* nothing yet */
    put(peer, "HTTP/1.1 201 Created\r\ncontent-length:  5 \r\nContent-Type: application/json\r\n\r\n[1,2]");
    ck_assert_int_eq(h1_recv(&c, &why), H1_DONE);
    ck_assert_int_eq(c.status, 201);
    ck_assert_str_eq(c.in + c.body_off, "[1,2]");
    ck_assert(!c.close_after);
    h1_request(&c, server_of("http://127.0.0.1:1"), "/b", NULL, NULL, NULL);   /* the last answer is dropped */
    put(peer, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    ck_assert_int_eq(h1_recv(&c, &why), H1_DONE);
    ck_assert_int_eq(c.status, 404);
    ck_assert_str_eq(c.in + c.body_off, "");
    ck_assert(c.close_after);
    close(peer);
    conn_free(&c);
}
END_TEST

/* Every split of the answer: a byte a read, and a body larger than one read's room. */
START_TEST(answer_a_byte_a_read)
{
    h1_conn c;
    int peer;
    pair(&c, &peer);
    size_t body_len = 100000;
    char *body = malloc(body_len + 1);
    for (size_t i = 0; i < body_len; i++)
        body[i] = (char)('a' + i % 26);
    body[body_len] = 0;
    char head[128];
    snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n", body_len);
    const char *why = NULL;
    for (size_t i = 0; head[i]; i++) {
        ck_assert_int_eq(write(peer, head + i, 1), 1);
        ck_assert_int_eq(h1_recv(&c, &why), H1_AGAIN);
    }
    size_t sent = 0;
    h1_result r = H1_AGAIN;
    while (sent < body_len) {
        size_t n = body_len - sent < 7000 ? body_len - sent : 7000;
        ck_assert_int_eq(write(peer, body + sent, n), (ssize_t)n);
        sent += n;
        while ((r = h1_recv(&c, &why)) == H1_AGAIN && c.in_len - c.body_off < sent)
            ;
        ck_assert_int_eq(r, sent == body_len ? H1_DONE : H1_AGAIN);
    }
    ck_assert_int_eq(c.status, 200);
    ck_assert_str_eq(c.in + c.body_off, body);
    free(body);
    close(peer);
    conn_free(&c);
}
END_TEST

/* Answers this client does not take: each an error with a reason, never a guess. */
static void refused(const char *answer, bool then_close, const char *want_why)
{
    h1_conn c;
    int peer;
    pair(&c, &peer);
    put(peer, answer);
    if (then_close)
        close(peer);
    const char *why = NULL;
    h1_result r;
    while ((r = h1_recv(&c, &why)) == H1_AGAIN)
        ;
    ck_assert_int_eq(r, H1_ERROR);
    ck_assert_msg(why && strstr(why, want_why), "%s: got \"%s\"", answer, why ? why : "(null)");
    if (!then_close)
        close(peer);
    conn_free(&c);
}

START_TEST(answers_refused)
{
    refused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", false, "chunked");
    refused("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", false, "Content-Length");
    refused("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", false, "Content-Length");
    refused("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc", false, "after the answer");
    refused("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true, "closed the connection");
    refused("HTTP/1.1 200 OK\r\nContent-Len", true, "closed the connection");
    refused("SSH-2.0-OpenSSH\r\n\r\n", false, "status line");
    refused("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", false, "status code");
    refused("HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n", false, "over 64 MiB");
}
END_TEST

/* A head that never ends: refused once it passes 64 KiB, not read for ever. */
START_TEST(endless_head_refused)
{
    h1_conn c;
    int peer;
    pair(&c, &peer);
    put(peer, "HTTP/1.1 200 OK\r\n");
    char line[1024];
    memset(line, 'x', sizeof line - 3);
    memcpy(line + sizeof line - 3, "\r\n", 3);
    const char *why = NULL;
    h1_result r = H1_AGAIN;
    for (int i = 0; i < 80 && r == H1_AGAIN; i++) {
        put(peer, line);
        while ((r = h1_recv(&c, &why)) == H1_AGAIN && c.in_len < (size_t)(i + 1) * (sizeof line - 1))
            ;
    }
    ck_assert_int_eq(r, H1_ERROR);
    ck_assert_str_eq(why, "a head over 64 KiB");
    close(peer);
    conn_free(&c);
}
END_TEST

START_TEST(http10_answer_closes)
{
    h1_conn c;
    int peer;
    pair(&c, &peer);
    put(peer, "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");
    const char *why = NULL;
    ck_assert_int_eq(h1_recv(&c, &why), H1_DONE);
    ck_assert(c.close_after);
    close(peer);
    conn_free(&c);
}
END_TEST

/* A real unix-socket listener: connect, the request as the server reads it, the answer back. */
START_TEST(unix_socket_round_trip)
{
    char dir[] = "/tmp/h1test.XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s", dir);
    int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un un = {.sun_family = AF_UNIX};
    strcpy(un.sun_path, path);
    ck_assert_int_eq(bind(lfd, (struct sockaddr *)&un, sizeof un), 0);
    ck_assert_int_eq(listen(lfd, 1), 0);
    h1_server s;
    ck_assert(h1_server_init(&s, "http://carcd:7", path));
    h1_conn c = {.fd = -1};
    ck_assert(h1_connect(&c, &s));
    int afd = accept(lfd, NULL, NULL);
    ck_assert_int_ge(afd, 0);
    h1_request(&c, &s, "/healthz", NULL, NULL, NULL);
    h1_result r;
    while ((r = h1_send(&c)) == H1_AGAIN)
        ;
    ck_assert_int_eq(r, H1_DONE);
    char got[256] = "";
    ssize_t n = read(afd, got, sizeof got - 1);
    ck_assert_int_gt(n, 0);
    got[n] = 0;
    ck_assert_str_eq(got, "GET /healthz HTTP/1.1\r\nHost: carcd:7\r\nAccept: */*\r\n\r\n");
    put(afd, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n");
    const char *why = NULL;
    while ((r = h1_recv(&c, &why)) == H1_AGAIN)
        ;
    ck_assert_int_eq(r, H1_DONE);
    ck_assert_str_eq(c.in + c.body_off, "ok\n");
    close(afd);
    close(lfd);
    unlink(path);
    rmdir(dir);
    conn_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http1_client");
    TCase *tc = tcase_create("http1_client");
    tcase_add_test(tc, request_bytes);
    tcase_add_test(tc, urls);
    tcase_add_test(tc, answer_whole_then_next_on_the_same_connection);
    tcase_add_test(tc, answer_a_byte_a_read);
    tcase_add_test(tc, answers_refused);
    tcase_add_test(tc, endless_head_refused);
    tcase_add_test(tc, http10_answer_closes);
    tcase_add_test(tc, unix_socket_round_trip);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
