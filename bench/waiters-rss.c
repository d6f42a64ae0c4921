/*
 * waiters-rss — carcd's resident memory (VmRSS) while it holds many waiting clients, at their wake and after:
 * the figures of issue 17's "memory with many waiters" (goal: at most 64 MB held for 10 000 waiters of either
 * kind, given back to the system after the burst).
 *
 *   waiters-rss --host 127.0.0.1 --port PORT --pid CARCD_PID [--waiters N] [--sse] [--settle SECONDS]
 *
 * carcd must allow N connections from one address (CARCD_PER_IP_CONNECTIONS=0, CARCD_MAX_CONNECTIONS above N,
 * and its open-files limit). One game is created; N connections each ask GET /v1/games/{id}/events?after=0
 * &wait=60 (a long-poll) or, with --sse, the same as an event stream (Accept: text/event-stream); when all are
 * waiting (the suspended gauge of /metrics says N, or every stream has its headers), RSS is "held". Then one
 * move wakes them all: every connection reads its answer (a stream its first frame, then it is closed);
 * RSS's peak over the wake is "wake_peak" (VmHWM, reset before the move through /proc/PID/clear_refs), and
 * RSS once all are answered and `settle` seconds (default 5) later is "after". Before any of it, carcd's RSS
 * is "idle". Prints `name: value` lines, in MB; besides VmRSS, the held figure split into anonymous memory
 * (malloc's, the part that grows with the waiters) and file pages (the program and its libraries), and the
 * held minus idle per waiter in KB.
 *
 * Both ends need a descriptor per waiter: waiters-rss raises its own open-files limit to the hard limit and
 * stops at once, naming the figures, when that is still too low for --waiters; carcd raises its own the same
 * way at start (and logs a warning when CARCD_MAX_CONNECTIONS does not fit), so a shell's `ulimit -n` of 1024
 * is not what limits either.
 *
 * One thread, non-blocking sockets and epoll; everything through loopback. It stops by itself: every wait has
 * a bound (the long-polls' own 60 s at worst).
 */
#define _GNU_SOURCE   /* memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench_clock.h"

static char host[64] = "127.0.0.1";
static int port = 8080;
static int pid;

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static void die(const char *what)
{
    fprintf(stderr, "waiters-rss: %s\n", what);
    exit(1);
}

/* A field of /proc/PID/status in MB (VmRSS, VmHWM). */
static double proc_mb(const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read carcd's /proc status (--pid)");
    double mb = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            mb = atof(line + n + 1) / 1024.0;
    fclose(f);
    return mb;
}

/* The open-files limit raised to the hard one; 0 when `need` descriptors do not fit in it. */
static int raise_nofile(long need)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < need) {
        fprintf(stderr, "waiters-rss: %ld descriptors needed, the open-files limit is %ld (ulimit -Hn)\n", need,
                (long)rl.rlim_cur);
        return 0;
    }
    return 1;
}

static void reset_peak(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/clear_refs", pid);
    FILE *f = fopen(path, "w");
    if (!f || fputs("5", f) < 0 || fclose(f) != 0)
        die("cannot reset carcd's peak RSS (/proc/PID/clear_refs)");
}

static int connect_to(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        die("socket: out of file descriptors? (ulimit -n)");
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
        die("--host: an IPv4 address");
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0)
        die("connect failed");
    return s;
}

/* One blocking request on a connection of its own (Connection: close): the status; the body into *out. */
static int call(const char *method, const char *path, const char *token, const char *body, char **out)
{
    int s = connect_to();
    char req[4096], auth[200] = "";
    if (token)
        snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s%s%zu\r\n\r\n%s", method, path, host,
                     auth, body ? "Content-Type: application/json\r\nContent-Length: " : "Content-Length: ",
                     body ? strlen(body) : 0, body ? body : "");
    if (n >= (int)sizeof req || send(s, req, (size_t)n, MSG_NOSIGNAL) != n)
        die("send failed");
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t k;
    while ((k = recv(s, buf + len, cap - len - 1, 0)) > 0) {
        len += (size_t)k;
        if (cap - len < 4096)
            buf = realloc(buf, cap *= 2);
    }
    close(s);
    buf[len] = 0;
    int status = 0;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    char *b = strstr(buf, "\r\n\r\n");
    *out = strdup(b ? b + 4 : "");
    free(buf);
    return status;
}

static long suspended_gauge(void)
{
    char *m;
    if (call("GET", "/metrics", NULL, NULL, &m) != 200)
        die("GET /metrics failed");
    char *g = strstr(m, "\ncarcd_http_requests_suspended ");
    long v = g ? atol(g + strlen("\ncarcd_http_requests_suspended ")) : -1;
    free(m);
    return v;
}

typedef struct {
    int fd;
    size_t got;          /* bytes read */
    bool headers, done;
} waiter;

int main(int argc, char **argv)
{
    int nwait = 10000;
    bool sse = false;
    double settle = 5;
    static const struct option lo[] = {{"host", 1, 0, 'h'}, {"port", 1, 0, 'p'}, {"pid", 1, 0, 'P'},
                                       {"waiters", 1, 0, 'n'}, {"sse", 0, 0, 's'}, {"settle", 1, 0, 't'},
                                       {0, 0, 0, 0}};
    int o;
    while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (o) {
        case 'h': snprintf(host, sizeof host, "%s", optarg); break;
        case 'p': port = atoi(optarg); break;
        case 'P': pid = atoi(optarg); break;
        case 'n': nwait = atoi(optarg); break;
        case 's': sse = true; break;
        case 't': settle = atof(optarg); break;
        default:
            fprintf(stderr, "usage: waiters-rss --host H --port P --pid CARCD_PID [--waiters N] [--sse] "
                            "[--settle S]\n");
            return 2;
        }
    }
    if (pid <= 0 || nwait <= 0)
        die("--pid and a positive --waiters are needed");
    setvbuf(stdout, NULL, _IOLBF, 0);   /* each figure as it comes, also into a file or a pipe */
    if (!raise_nofile((long)nwait + 32))
        return 1;
    printf("waiters: %d\nkind: %s\n", nwait, sse ? "sse" : "long-poll");
    double idle = proc_mb("VmRSS");
    printf("idle_mb: %.1f\n", idle);

    char *ans;
    if (call("POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"a\"},{\"name\":\"b\"}]}", &ans) != 201)
        die("POST /v1/games failed");
    json_t *game = json_loads(ans, 0, NULL);
    free(ans);
    const char *id = json_string_value(json_object_get(game, "id"));
    if (!id)
        die("no game id in the answer");

    int ep = epoll_create1(0);
    waiter *w = calloc((size_t)nwait, sizeof *w);
    char req[512];
    int rn = snprintf(req, sizeof req, "GET /v1/games/%s/events?after=0&wait=60 HTTP/1.1\r\nHost: %s\r\n%s\r\n", id,
                      host, sse ? "Accept: text/event-stream\r\n" : "");
    double t0 = bench_now_s();
    for (int i = 0; i < nwait; i++) {
        w[i].fd = connect_to();
        if (send(w[i].fd, req, (size_t)rn, MSG_NOSIGNAL) != rn)
            die("send of a waiter failed");
        fcntl(w[i].fd, F_SETFL, O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, w[i].fd, &e);
    }
    /* all waiting: the gauge (long-polls), or every stream's headers read (SSE) */
    int ready = 0;
    char buf[8192];
    struct epoll_event ev[256];
    while (bench_now_s() - t0 < 60) {
        if (!sse && suspended_gauge() >= nwait)
            break;
        int k = epoll_wait(ep, ev, 256, 100);
        for (int j = 0; j < k; j++) {
            waiter *x = &w[ev[j].data.u32];
            ssize_t got = recv(x->fd, buf, sizeof buf, 0);
            if (got > 0 && !x->headers && memmem(buf, (size_t)got, "\r\n\r\n", 4)) {
                x->headers = true;
                ready++;
            }
            if (got == 0)
                die("a waiter was closed before the move (connection limits?)");
        }
        if (sse && ready >= nwait)
            break;
    }
    printf("setup_s: %.1f\n", bench_now_s() - t0);
    nap(1);
    double held = proc_mb("VmRSS");
    printf("held_mb: %.1f\nheld_anon_mb: %.1f\nheld_file_mb: %.1f\nper_waiter_kb: %.2f\n", held,
           proc_mb("RssAnon"), proc_mb("RssFile"), (held - idle) * 1024.0 / nwait);

    /* one move wakes them all */
    reset_peak();
    const char *tok0 = json_string_value(json_object_get(json_array_get(json_object_get(game, "players"), 0), "token"));
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    if (call("GET", path, tok0, NULL, &ans) != 200)
        die("legal-moves failed");
    json_t *lm = json_loads(ans, 0, NULL);
    free(ans);
    json_t *mb = json_pack("{s:i, s:O}", "expected_seq", 0, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *body = json_dumps(mb, JSON_COMPACT);
    snprintf(path, sizeof path, "/v1/games/%s/moves", id);
    double t_move = bench_now_s();
    if (call("POST", path, tok0, body, &ans) != 200)
        die("the move failed");
    free(ans);
    int answered = 0;
    while (answered < nwait && bench_now_s() - t_move < 70) {
        int k = epoll_wait(ep, ev, 256, 200);
        for (int j = 0; j < k; j++) {
            waiter *x = &w[ev[j].data.u32];
            if (x->done)
                continue;
            ssize_t got = recv(x->fd, buf, sizeof buf, 0);
            if (got > 0)
                x->got += (size_t)got;
            /* a long-poll's whole answer (or its end), a stream's first frame after its headers */
            bool end = got == 0 || (got > 0 && (!sse || memmem(buf, (size_t)got, "\nid: ", 5) ||
                                                memmem(buf, (size_t)got, "id: 1", 5)));
            if (end || (got < 0 && errno != EAGAIN)) {
                x->done = true;
                answered++;
                epoll_ctl(ep, EPOLL_CTL_DEL, x->fd, NULL);
                close(x->fd);
            }
        }
    }
    printf("wake_s: %.2f\nanswered: %d\n", bench_now_s() - t_move, answered);
    printf("wake_peak_mb: %.1f\n", proc_mb("VmHWM"));
    printf("after_mb: %.1f\n", proc_mb("VmRSS"));
    nap(settle);
    printf("after_%.0fs_mb: %.1f\n", settle, proc_mb("VmRSS"));
    for (int i = 0; i < nwait; i++)
        if (!w[i].done)
            close(w[i].fd);
    free(w);
    free(body);
    json_decref(mb);
    json_decref(lm);
    json_decref(game);
    return answered == nwait ? 0 : 1;
}
