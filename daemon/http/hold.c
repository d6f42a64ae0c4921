/*
 * hold.c — held requests (http.h: cd_req_hold): a request that waits long, a long-poll or an event stream, is
 * not kept in libmicrohttpd (MHD), whose per-connection memory is ~6-10 KB. The handler holds it: a copy of
 * the socket goes to the park (park.h), the handler returns, and server.c's after_handler answers MHD_NO, so
 * MHD closes its side of the connection (MHD_USE_TURBO: without shutdown(), which would end the copy too)
 * and forgets it. From then on the owner writes whole HTTP/1.1 messages (Connection: close) through the
 * hold, from any thread; the request's log line, metrics and in-flight count end when the park has closed
 * the connection (hold_closed), not in server.c's on_completed.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/json_out.h"
#include "base/log.h"
#include "base/metrics.h"
#include "http_priv.h"
#include "park.h"

struct cd_hold {
    cd_server *srv;
    cd_parked *c;
    atomic_bool begun;          /* the status line has been sent (a reply or a stream's head) */
    bool waiting;               /* in the suspended gauge */
    int status;
    const cd_route *route;
    double t_start;
    char method[8];
    char *path;
    char game[40];
    cd_hold_done done;
    void *arg;
};

/* The park's `done`: the request's log line, its metrics, then the owner's. */
static void hold_closed(void *arg, bool client_gone)
{
    cd_hold *h = arg;
    cd_http_log_request(h->srv, h->method, h->path, h->route, h->status, cd_now() - h->t_start, h->game[0] ? h->game : NULL,
                client_gone ? "client_gone" : NULL);
    if (h->waiting)
        cd_metrics_suspended(-1);
    h->done(h->arg, client_gone);
    cd_http_request_gone(h->srv);
    free(h->path);
    free(h);
}

cd_hold *cd_req_hold(cd_req *r, bool waiting, cd_hold_done done, void *arg)
{
    req_priv *p = priv(r);
    if (p->replied || r->suspended || p->held)
        return NULL;
    const union MHD_ConnectionInfo *fdi = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!fdi)
        return NULL;
    int fd = fcntl(fdi->connect_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        cd_log("warn", "cannot hold a request: %s", strerror(errno));
        return NULL;
    }
    const struct sockaddr *peer = ai ? ai->client_addr : NULL;
    socklen_t plen = !peer ? 0 : peer->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                              : sizeof(struct sockaddr_in);
    cd_hold *h = calloc(1, sizeof *h);
    if (!h)
        abort();   /* out of memory: carcd's policy is to stop (docs/STYLE.md) */
    h->srv = p->srv;
    h->waiting = waiting;
    h->status = 200;
    h->route = r->route;
    h->t_start = r->t_start;
    snprintf(h->method, sizeof h->method, "%s", r->method);
    h->path = strdup(r->path);
    if (!h->path)
        abort();
    if (r->game_id)
        snprintf(h->game, sizeof h->game, "%s", r->game_id);
    h->done = done;
    h->arg = arg;
    h->c = cd_park_add(p->srv->park, fd, peer, plen, hold_closed, h);
    if (!h->c) {
        close(fd);
        free(h->path);
        free(h);
        return NULL;
    }
    p->held = true;
    p->replied = true;   /* nothing more goes through MHD */
    if (waiting)
        cd_metrics_suspended(1);
    return h;
}

void cd_hold_start(cd_hold *h)
{
    cd_parked_arm(h->c);
}

/* "HTTP/1.1 <status> <reason>" and the headers every held answer has, into b. */
static void hold_head(cd_buf *b, int status, const char *content_type, const char *const *headers)
{
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    const char *reason = MHD_get_reason_phrase_for((unsigned)status);
    cd_buf_printf(b, "HTTP/1.1 %d %s\r\nDate: %s\r\nConnection: close\r\nContent-Type: %s\r\n", status,
                  reason && *reason ? reason : "Unknown", date, content_type);
    bool cache_control = false;
    for (const char *const *hd = headers; hd && hd[0]; hd += 2) {
        cd_buf_printf(b, "%s: %s\r\n", hd[0], hd[1]);
        cache_control |= strcasecmp(hd[0], MHD_HTTP_HEADER_CACHE_CONTROL) == 0;
    }
    if (!cache_control)
        cd_buf_str(b, "Cache-Control: no-store\r\n");
    cd_buf_str(b, "X-Content-Type-Options: nosniff\r\n");
}

bool cd_hold_reply_json(cd_hold *h, int status, json_t *body)
{
    char *text = body ? cd_json_dumps(body, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) : NULL;
    json_decref(body);
    if (!text) {
        cd_log("error", "a held %s answer has no encodable body", h->route ? h->route->name : "request");
        status = 500;
        text = strdup("{\"type\":\"/problems/internal\",\"title\":\"Internal error\",\"status\":500}");
        if (!text)
            abort();
    }
    bool first = !atomic_exchange(&h->begun, true);
    bool ok = false;
    if (first) {
        char after[16];
        snprintf(after, sizeof after, "%d", CD_RETRY_AFTER_S);
        const char *const retry[] = {MHD_HTTP_HEADER_RETRY_AFTER, after, NULL};
        cd_buf b = {0};
        hold_head(&b, status, status >= 400 ? "application/problem+json" : "application/json",
                  status == 503 ? retry : NULL);
        cd_buf_printf(&b, "Content-Length: %zu\r\n\r\n", strlen(text));
        cd_buf_str(&b, text);
        h->status = status;
        ok = cd_parked_send(h->c, b.p, b.len, true, 0);
        free(b.p);
    }
    free(text);
    return ok;
}

bool cd_hold_stream_begin(cd_hold *h, const char *content_type, const char *const *headers, const char *data,
                          size_t n, bool last)
{
    if (atomic_exchange(&h->begun, true))
        return false;
    cd_buf b = {0};
    hold_head(&b, 200, content_type, headers);
    cd_buf_str(&b, "\r\n");   /* no length: the body ends with the connection */
    if (n)
        cd_buf_add(&b, data, n);
    h->status = 200;
    bool ok = cd_parked_send(h->c, b.p, b.len, last, 0);
    free(b.p);
    return ok;
}

bool cd_hold_send(cd_hold *h, const char *data, size_t n, bool last, size_t max_unsent)
{
    return cd_parked_send(h->c, data, n, last, max_unsent);
}
