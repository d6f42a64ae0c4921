/*
 * test_proxy.c — docker/haproxy.cfg (Debian's HAProxy) in front of two carcd on loopback, as
 * docker/compose.yaml runs it: the file as it is, but for its `server-template` line (two `server` lines to
 * the two carcd here) and its `bind` (a free port). Checked: both carcd serve requests that came through the
 * one address; a game made through one is played through the proxy whichever carcd answers; when one carcd is
 * killed, every request still succeeds (the health check on /readyz takes it out, and a refused connection
 * is sent to the other); and a `Content-Length: -5`, which libmicrohttpd answers with its header block twice,
 * gets one clean 400 from the proxy and never reaches carcd.
 * And the client's address through it: with CARCD_TRUSTED_PROXIES naming the proxy, carcd's rate buckets and
 * audit log go by the address HAProxy appends to X-Forwarded-For (option forwardfor), never by an entry the
 * client wrote itself; clients at 127.0.0.2 and 127.0.0.3 behind the one proxy address are told apart.
 * And a game's event stream through it: a move's frame comes through while the stream is open, not held in a
 * buffer until the stream ends (the page's live updates behind the proxy).
 * Skipped (77) where Debian's haproxy is not installed (scripts/packages.txt lists it).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define HAPROXY "/usr/sbin/haproxy"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t n = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &n);
    close(fd);
    return ntohs(a.sin_port);
}

/* docker/haproxy.cfg with its servers and bind replaced; the path of the file written. */
static void write_config(const char *path, int port, int p1, int p2)
{
    FILE *in = fopen(CARC_SOURCE_DIR "/docker/haproxy.cfg", "r");
    ck_assert_msg(in != NULL, "docker/haproxy.cfg");
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    char line[512];
    int replaced = 0;
    while (fgets(line, sizeof line, in)) {
        const char *t = line + strspn(line, " ");
        if (strncmp(t, "server-template ", 16) == 0) {
            fprintf(out, "    server carcd1 127.0.0.1:%d\n    server carcd2 127.0.0.1:%d\n", p1, p2);
            replaced++;
        } else if (strncmp(t, "bind ", 5) == 0) {
            fprintf(out, "    bind 127.0.0.1:%d\n", port);
            replaced++;
        } else if (strncmp(t, "log stdout", 10) != 0) {   /* the proxy's log would go to the test's output */
            fputs(line, out);
        }
    }
    fclose(in);
    fclose(out);
    ck_assert_int_eq(replaced, 2);
}

static pid_t start_haproxy(const char *cfg)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        execl(HAPROXY, "haproxy", "-db", "-f", cfg, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* A daemon record pointing at the proxy, for e2e_client_new. */
static e2e_daemon via(const e2e_daemon *d, int port)
{
    e2e_daemon p = *d;
    p.port = port;
    snprintf(p.base, sizeof p.base, "http://127.0.0.1:%d", port);
    return p;
}

/* Requests answered by daemon d for route `route` (its own /metrics). */
static double served(e2e_client *c, const char *route)
{
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &r), 200);
    double n = 0;
    char key[120];
    snprintf(key, sizeof key, "carcd_http_requests_total{route=\"%s\",code=\"", route);
    for (const char *p = r.body; (p = strstr(p, key)); p++) {
        const char *v = strchr(p, ' ');
        n += v ? strtod(v + 1, NULL) : 0;
    }
    e2e_resp_free(&r);
    return n;
}

/* A TCP connection to 127.0.0.1:port (asserts). */
static int connect_loopback(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

static char *raw_exchange(int port, const char *req)
{
    int fd = connect_loopback(port);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    send(fd, req, strlen(req), MSG_NOSIGNAL);
    size_t cap = 1 << 16, got = 0;
    char *out = malloc(cap);
    ssize_t k;
    while (got < cap - 1 && (k = recv(fd, out + got, cap - 1 - got, 0)) > 0)
        got += (size_t)k;
    out[got] = 0;
    close(fd);
    return out;
}

static void need_haproxy(void)
{
    if (access(HAPROXY, X_OK) != 0) {
        fprintf(stderr, "e2e proxy: %s is not installed (scripts/packages.txt lists haproxy): skipped\n", HAPROXY);
        exit(77);
    }
}

/* HAProxy run from docker/haproxy.cfg on a free port in front of the carcd on ports p1 and p2 (d's scratch dir
 * holds its config), and a daemon record pointing at it for e2e_client_new; up once /readyz answers 200
 * through it (the proxy has seen a healthy carcd). */
typedef struct {
    int port;
    pid_t pid;
    e2e_daemon via;
} proxy;

static void proxy_start(proxy *p, const e2e_daemon *d, int p1, int p2)
{
    p->port = free_port();
    char cfg[400];
    snprintf(cfg, sizeof cfg, "%s/haproxy.cfg", d->dir);
    write_config(cfg, p->port, p1, p2);
    p->pid = start_haproxy(cfg);
    p->via = via(d, p->port);
    e2e_client *c = e2e_client_new(&p->via);
    e2e_resp r;
    long st = 0;
    for (int i = 0; i < 100 && st != 200; i++) {
        nap_ms(50);
        st = e2e_req(c, "GET", "/readyz", NULL, NULL, NULL, &r);
        e2e_resp_free(&r);
    }
    e2e_client_free(c);
    ck_assert_int_eq(st, 200);
}

static void proxy_stop(proxy *p)
{
    kill(p->pid, SIGTERM);
    int status;
    waitpid(p->pid, &status, 0);
}

START_TEST(two_carcd_behind_haproxy)
{
    need_haproxy();
    e2e_daemon *d1 = e2e_daemon_up(NULL);
    e2e_daemon *d2 = calloc(1, sizeof *d2);
    *d2 = *d1;
    d2->pid = 0;
    d2->port = 0;
    e2e_daemon_start(d2);
    proxy P;
    proxy_start(&P, d1, d1->port, d2->port);
    e2e_client *c = e2e_client_new(&P.via), *c1 = e2e_client_new(d1), *c2 = e2e_client_new(d2);

    /* games made and played through the one address: both carcd answer some of it */
    double before1 = served(c1, "games.create"), before2 = served(c2, "games.create");
    e2e_game g[8];
    e2e_rng rng = {0x9a0};
    for (int i = 0; i < 8; i++) {
        e2e_game_create(c, 2, NULL, &g[i]);
        for (int k = 0; k < 6; k++) {
            e2e_play p;
            ck_assert_int_eq(e2e_play_random(c, &g[i], &rng, NULL, &p), 200);
            e2e_play_free(&p);
        }
    }
    double by1 = served(c1, "games.create") - before1, by2 = served(c2, "games.create") - before2;
    ck_assert_msg(by1 >= 1 && by2 >= 1 && by1 + by2 == 8, "games made by carcd 1: %.0f, carcd 2: %.0f", by1, by2);
    double moves1 = served(c1, "games.moves"), moves2 = served(c2, "games.moves");
    ck_assert_msg(moves1 >= 1 && moves2 >= 1, "moves: %.0f and %.0f", moves1, moves2);

    /* one carcd killed: every request through the proxy still succeeds */
    e2e_daemon_kill9(d2);
    int ok = 0, total = 0;
    double t0 = e2e_now();
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++, total++) {
            e2e_play p;
            long s = e2e_play_random(c, &g[i], &rng, NULL, &p);
            e2e_play_free(&p);
            ok += s == 200 || s == E2E_FINISHED;
        }
    ck_assert_msg(ok == total, "%d of %d moves through the proxy failed after a carcd died", total - ok, total);
    fprintf(stderr, "e2e proxy: 8 games through HAProxy, made by the two carcd %.0f + %.0f; after one was killed, "
                    "%d of %d moves succeeded (%.2f s)\n",
            by1, by2, ok, total, e2e_now() - t0);
    for (int i = 0; i < 8; i++)
        ck_assert_int_ge(e2e_verify_ok(c, &P.via, g[i].id), 6);

    /* the malformed Content-Length stays at the proxy: one status line */
    char *wire = raw_exchange(P.port, "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n");
    ck_assert_msg(strncmp(wire, "HTTP/1.1 400 ", 13) == 0, "%.300s", wire);
    ck_assert_msg(!strstr(wire + 1, "HTTP/1.1 "), "two status lines: %.600s", wire);
    free(wire);

    proxy_stop(&P);
    e2e_client_free(c);
    e2e_client_free(c1);
    e2e_client_free(c2);
    free(d2);
    e2e_daemon_down(d1);
}
END_TEST

/* The client address of the newest audit row of an admin game view. */
static void newest_audit_addr(e2e_client *c, const e2e_daemon *d, char out[64])
{
    json_t *a = e2e_get_ok(c, "/v1/admin/audit?action=admin.games.get&limit=1", d->admin, 200);
    snprintf(out, 64, "%s", e2e_jstr(json_array_get(json_object_get(a, "entries"), 0), "actor.address"));
    json_decref(a);
}

START_TEST(client_address_through_haproxy)
{
    need_haproxy();
    static const char *const env[] = {"CARCD_TRUSTED_PROXIES=127.0.0.1", "CARCD_RATE_CREATE=1/1", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    proxy P;
    proxy_start(&P, d, d->port, d->port);
    e2e_client *a = e2e_client_new(&P.via), *b = e2e_client_new(&P.via);
    e2e_client_source(a, "127.0.0.2");
    e2e_client_source(b, "127.0.0.3");
    e2e_resp r;
    const char *body = "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}";
    const char *forged1[] = {"X-Forwarded-For: 198.51.100.1", NULL}, *forged2[] = {"X-Forwarded-For: 198.51.100.2", NULL};
    /* 127.0.0.2's one creation a minute, whatever it writes in the header itself */
    ck_assert_int_eq(e2e_req(a, "POST", "/v1/games", NULL, body, forged1, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(a, "POST", "/v1/games", NULL, body, forged2, &r), 429);
    e2e_assert_problem(&r, 429, NULL, "the second creation from 127.0.0.2 through the proxy");
    e2e_resp_free(&r);
    /* 127.0.0.3 behind the same proxy is another client */
    ck_assert_int_eq(e2e_req(b, "POST", "/v1/games", NULL, body, forged1, &r), 201);
    char path[96];
    snprintf(path, sizeof path, "/v1/admin/games/%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(b, "GET", path, d->admin, NULL, forged2, &r), 200);
    e2e_resp_free(&r);
    char addr[64];
    newest_audit_addr(b, d, addr);
    ck_assert_str_eq(addr, "127.0.0.3");
    fprintf(stderr, "e2e proxy: through HAProxy, carcd told 127.0.0.2 and 127.0.0.3 apart by X-Forwarded-For\n");
    proxy_stop(&P);
    e2e_client_free(a);
    e2e_client_free(b);
    e2e_daemon_down(d);
}
END_TEST

/* Reads from fd into buf (NUL-terminated, *got bytes so far) until `needle` is in it or `seconds` pass. */
static bool read_until(int fd, char *buf, size_t cap, size_t *got, const char *needle, double seconds)
{
    double t0 = e2e_now();
    while (!strstr(buf, needle)) {
        double left = seconds - (e2e_now() - t0);
        if (left <= 0 || *got >= cap - 1)
            return false;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        ssize_t k = recv(fd, buf + *got, cap - 1 - *got, 0);
        if (k <= 0)
            return false;
        *got += (size_t)k;
        buf[*got] = 0;
    }
    return true;
}

/* A page follows its game on an event stream (text/event-stream, kept open up to CARCD_MAX_WAIT); through the
 * proxy it must come as carcd writes it, not when a buffer fills or the stream ends: a move's frame reaches a
 * client reading through HAProxy while the stream is still open, long before the stream's 15 s keep-alive
 * would have pushed anything along. */
START_TEST(event_stream_through_haproxy)
{
    need_haproxy();
    e2e_daemon *d = e2e_daemon_up(NULL);
    proxy P;
    proxy_start(&P, d, d->port, d->port);
    e2e_client *c = e2e_client_new(&P.via);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);

    int fd = connect_loopback(P.port);
    char req[600];
    snprintf(req, sizeof req,
             "GET /v1/games/%s/events?after=0 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
             "Authorization: Bearer %s\r\n\r\n", g.id, g.token[0]);
    ck_assert_int_eq(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
    static char buf[1 << 16];
    size_t got = 0;
    buf[0] = 0;
    ck_assert_msg(read_until(fd, buf, sizeof buf, &got, "\r\n\r\n", 10), "no answer's head through the proxy: %.300s", buf);
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0 && strstr(buf, "text/event-stream"), "%.400s", buf);

    e2e_rng rng = {3};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    double t0 = e2e_now();
    bool came = read_until(fd, buf, sizeof buf, &got, "event: move", 5);
    ck_assert_msg(came, "the move's frame did not come through the proxy within 5 s; read: %.600s", buf);
    ck_assert_msg(strstr(buf, "\nid: 1") || strstr(buf, "\nid:1"), "the frame has no id 1: %.600s", buf);
    fprintf(stderr, "e2e proxy: a move's event-stream frame came through HAProxy %.3f s after its answer\n",
            e2e_now() - t0);
    close(fd);
    proxy_stop(&P);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_proxy");
    TCase *tc = e2e_tcase("proxy", 120);
    tcase_add_test(tc, two_carcd_behind_haproxy);
    tcase_add_test(tc, client_address_through_haproxy);
    tcase_add_test(tc, event_stream_through_haproxy);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
