/*
 * test_slowloris.c — clients that hold connections without finishing a request, through real sockets on
 * loopback: many connections from one address trickling their headers a byte at a time (faster than any idle
 * timeout, so only the per-address limit stops them), connections that send nothing or stop half-way through
 * their headers (the header timeout closes them), while /healthz from another address is answered every
 * time; and a request waiting longer than the header timeout (suspended, as a long-poll is) still gets its
 * answer. Every attack is bounded (a fixed number of sockets, a few seconds) and stops by itself.
 *
 * The attackers connect from 127.0.0.2 and 127.0.0.3 (all of 127/8 is loopback on Linux), the checks from
 * 127.0.0.1, so the per-address limit tells them apart as it tells internet clients apart.
 */
#include <arpa/inet.h>
#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/config.h"
#include "http/http.h"

#define HEADER_TIMEOUT_S 2
#define PER_IP 16
#define MAX_CONNECTIONS 64
#define ATTACKERS 100          /* from one address: more than MAX_CONNECTIONS, so without PER_IP nothing is left */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* ---- the server: the real routes (/healthz) and one that waits longer than the header timeout ---------- */

static void *resume_later(void *arg)
{
    nap(HEADER_TIMEOUT_S + 1.5);
    cd_req_resume_reply(arg, 200, json_pack("{s:b}", "waited", 1));
    return NULL;
}

static enum MHD_Result t_wait(cd_req *r)
{
    cd_req_suspend(r);
    pthread_t t;
    pthread_create(&t, NULL, resume_later, r);
    pthread_detach(t);
    return MHD_YES;
}

static const cd_route wait_routes[] = {
    {"GET", "/wait", t_wait, "wait"},
    {NULL, NULL, NULL, NULL},
};

static cd_server *srv, *srv_wait;
static int port, port_wait;

static void start(void)
{
    cd_config c;
    char err[256];
    char *argv[] = {"carcd", NULL};
    ck_assert_int_eq(cd_config_load(&c, 1, argv, err, sizeof err), 0);
    ck_assert_int_eq(c.header_timeout_s, 10);      /* the defaults: a short header deadline, */
    ck_assert_int_eq(c.per_ip_connections, 128);   /* a per-address limit under the total */
    ck_assert_int_lt(c.per_ip_connections, c.max_connections);
    strcpy(c.listen_host, "127.0.0.1");
    c.listen_port = 0;
    c.threads = 2;
    c.header_timeout_s = HEADER_TIMEOUT_S;
    c.per_ip_connections = PER_IP;
    c.max_connections = MAX_CONNECTIONS;
    strcpy(c.database_url, "host=127.0.0.1 port=1 connect_timeout=1");
    srv = cd_server_start(&c, err, sizeof err);
    ck_assert_msg(srv, "%s", err);
    port = cd_server_port(srv);
    srv_wait = cd_server_start_routes(&c, wait_routes, err, sizeof err);
    ck_assert_msg(srv_wait, "%s", err);
    port_wait = cd_server_port(srv_wait);
}

static void stop(void)
{
    cd_server_stop(srv);
    cd_server_stop(srv_wait);
}

/* ---- clients ------------------------------------------------------------------------------------------- */

static size_t discard(char *d, size_t size, size_t n, void *arg)
{
    (void)d, (void)arg;
    return size * n;
}

/* GET path from 127.0.0.1 with a timeout: the status (0: no answer). */
static long get(int p, const char *path, long timeout_ms)
{
    CURL *h = curl_easy_init();
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", p, path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_INTERFACE, "host!127.0.0.1");
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    long status = 0;
    if (curl_easy_perform(h) == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(h);
    return status;
}

/* A TCP connection from `from` to the server that sends `first` (may be ""); -1 when connect failed. */
static int attacker(const char *from, int p, const char *first)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(s, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    inet_pton(AF_INET, from, &a.sin_addr);
    ck_assert_msg(bind(s, (struct sockaddr *)&a, sizeof a) == 0, "bind %s: %s", from, strerror(errno));
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)p)};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    if (connect(s, (struct sockaddr *)&to, sizeof to) != 0) {
        close(s);
        return -1;
    }
    if (*first && send(s, first, strlen(first), MSG_NOSIGNAL) < 0) {
        close(s);
        return -1;
    }
    return s;
}

/* Whether the server closed (or reset) the connection: end of file or an error waiting to be read. */
static bool closed_by_server(int s)
{
    struct pollfd pf = {.fd = s, .events = POLLIN};
    if (poll(&pf, 1, 0) <= 0)
        return false;
    char b[64];
    ssize_t k = recv(s, b, sizeof b, MSG_DONTWAIT);
    return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || (pf.revents & (POLLHUP | POLLERR));
}

/* ---- tests -------------------------------------------------------------------------------------------- */

/* ATTACKERS connections from one address, each sending one more header byte every 0.5 s (never idle long
 * enough for any timeout) for 4 s: at most PER_IP of them are kept, and /healthz answers every time. */
START_TEST(trickling_headers_from_one_address)
{
    int fd[ATTACKERS];
    for (int i = 0; i < ATTACKERS; i++)
        fd[i] = attacker("127.0.0.2", port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    nap(0.3);
    int asked = 0, answered = 0;
    double end = now_s() + 4.0;
    while (now_s() < end) {
        for (int i = 0; i < ATTACKERS; i++)
            if (fd[i] >= 0 && (closed_by_server(fd[i]) || send(fd[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)) {
                close(fd[i]);
                fd[i] = -1;
            }
        for (int k = 0; k < 3; k++) {
            asked++;
            answered += get(port, "/healthz", 2000) == 200;
        }
        nap(0.5);
    }
    int held = 0;
    for (int i = 0; i < ATTACKERS; i++)
        if (fd[i] >= 0) {
            held += !closed_by_server(fd[i]);
            close(fd[i]);
        }
    fprintf(stderr, "http slowloris: %d connections from one address trickling headers: %d held by the server "
                    "after 4 s; /healthz from another address answered %d of %d\n",
            ATTACKERS, held, answered, asked);
    ck_assert_int_le(held, PER_IP);
    ck_assert_int_eq(answered, asked);
}
END_TEST

/* Connections that send nothing, or half a request line and then nothing, lose their slot after the header
 * timeout, not after the longer idle timeout of a request being handled (CARCD_CONN_TIMEOUT, 90 s). */
START_TEST(silent_connections_closed_after_header_timeout)
{
    enum { N = PER_IP };
    int fd[N];
    for (int i = 0; i < N; i++)
        fd[i] = attacker("127.0.0.3", port, i % 2 ? "GET /hea" : "");
    for (int i = 0; i < N; i++)
        ck_assert_int_ge(fd[i], 0);
    double t0 = now_s();
    int open = N;
    double last_close = 0;
    while (open > 0 && now_s() - t0 < HEADER_TIMEOUT_S + 3.0) {
        for (int i = 0; i < N; i++)
            if (fd[i] >= 0 && closed_by_server(fd[i])) {
                close(fd[i]);
                fd[i] = -1;
                open--;
                last_close = now_s() - t0;
            }
        ck_assert_int_eq(get(port, "/healthz", 2000), 200);
        nap(0.1);
    }
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    fprintf(stderr, "http slowloris: %d silent connections, the last closed %.1f s after connecting (header "
                    "timeout %d s)\n", N, last_close, HEADER_TIMEOUT_S);
    ck_assert_msg(open == 0, "%d of %d silent connections still open %.0f s after connecting", open, N,
                  HEADER_TIMEOUT_S + 3.0);
    ck_assert(last_close >= HEADER_TIMEOUT_S - 0.5);
}
END_TEST

/* A request suspended longer than the header timeout (a long-poll's wait) is answered, not cut. */
START_TEST(waiting_request_outlives_header_timeout)
{
    double t0 = now_s();
    ck_assert_int_eq(get(port_wait, "/wait", 10000), 200);
    ck_assert(now_s() - t0 >= HEADER_TIMEOUT_S + 1.0);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("http_slowloris");
    TCase *tc = tcase_create("slowloris");
    tcase_add_checked_fixture(tc, start, stop);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, trickling_headers_from_one_address);
    tcase_add_test(tc, silent_connections_closed_after_header_timeout);
    tcase_add_test(tc, waiting_request_outlives_header_timeout);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? 1 : 0;
}
