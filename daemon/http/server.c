/*
 * server.c — the HTTP layer of carcd over libmicrohttpd (MHD): the request lifecycle, routing, long-poll
 * suspend/resume and the server itself. The contract is http.h; beside this file, a path against one pattern
 * is route_match.c's, the listening socket listen.c's, the answers reply.c's, what a handler reads of its
 * request request_read.c's and the held requests hold.c's; http_priv.h is what they share.
 *
 * Lifecycle of one request, all on the MHD worker thread that owns the connection:
 *   uri_log      MHD has read the request line: the cd_req is allocated here (MHD passes our return value
 *                to every later callback as *req_cls), holding the raw path as sent (before MHD
 *                percent-decodes it, so an encoded "/" inside a path parameter stays inside it).
 *   on_request   called repeatedly. First call (headers read): method, bearer token, routing, the declared
 *                Content-Length against the limit. Calls with data: the body is appended, never past the
 *                limit; past it (or for a request already known to fail) the rest is read and dropped.
 *                Last call (no data): the 404/405/413, or the route's handler, once, with the whole body.
 *   Answering before the body is read (MHD then closes the connection without reading it) is only done
 *   when the client waits for it (Expect: 100-continue) or declared a body past DISCARD_CAP: a client
 *   still sending when the connection closes gets a broken pipe, not the answer, so a refused body up to
 *   DISCARD_CAP is read and dropped, and answered after. A chunked body is dropped up to DISCARD_CAP too
 *   (MHD 0.9.75 cannot answer in the middle of an upload); past it the client is hung up on.
 *   on_completed MHD is done with the request (answered, or the connection died): one log line, the
 *                metrics, and everything the request owns is freed — the only place a cd_req is freed.
 *
 * Suspend/resume. A handler calls cd_req_suspend and returns; MHD stops polling the connection and the
 * worker thread is free. Another thread later calls cd_req_resume_reply (the reply is stored in the
 * request) or cd_req_resume; both call MHD_resume_connection, after which MHD calls on_request again on
 * the connection's worker thread, which queues the stored reply, or runs the handler again. The server
 * lock (srv->lock) guards the suspended list and every request's suspend state, so a resume racing with
 * the handler's own return, with another resume or with shutdown is resolved once: the first resume wins,
 * later ones are no-ops. MHD must never be stopped with a suspended connection, so cd_server_stop resumes
 * every suspended request with a 503 first, and a suspend attempted during shutdown answers 503 instead.
 *
 * Held requests (cd_req_hold) are hold.c's: after_handler tells MHD to forget a request its handler held,
 * and on_completed leaves its log line and in-flight count to hold.c, for when its connection closes.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "http.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/crypto.h"
#include "base/ids.h"
#include "base/json_arena.h"
#include "base/log.h"
#include "base/metrics.h"
#include "http_priv.h"
#include "listen.h"
#include "park.h"
#include "route_match.h"

/* A body that will be refused is read and dropped (to answer after it) up to this many bytes: 64 times the
 * limit, at least 8 MiB. Past that the client is answered at once or hung up on. */
#define DISCARD_CAP(limit) ((limit) * 64 > ((size_t)8 << 20) ? (limit) * 64 : ((size_t)8 << 20))
/* cd_server_stop waits this long for requests in flight to finish before stopping MHD. */
#define DRAIN_MS 5000

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        abort();   /* out of memory: carcd's policy is to stop (docs/STYLE.md) */
    return p;
}

static void sha256(const char *s, size_t n, unsigned char out[32])
{
    unsigned int len = 32;
    if (!EVP_Digest(s, n, out, &len, EVP_sha256(), NULL))
        abort();
}

/* ---- routing ------------------------------------------------------------------------------------------ */

/* Routes r by method and path; fills r->route and r->params, or the reason it has no route. HEAD takes the
 * GET route of its path (RFC 9110 §9.3.2): the handler answers as to a GET, and libmicrohttpd sends the head
 * of that answer without its body. */
static void route(req_priv *p, const char *method)
{
    cd_req *r = &p->r;
    bool path_exists = false;
    p->allow[0] = '\0';
    const char *as = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 ? MHD_HTTP_METHOD_GET : method;
    for (const cd_route *rt = p->srv->routes; rt->method; rt++) {
        if (!cd_route_match(rt->pattern, r->path, NULL, 0, NULL))
            continue;
        if (strcmp(rt->method, as) == 0) {
            if (cd_route_match(rt->pattern, r->path, r->params, CD_MAX_PARAMS, &r->nparams)) {
                /* a game's or an endpoint's id in any case names the same row: answers echo it in the
                 * canonical lower case (tokens and tags are never UUID-shaped, and keep their case) */
                for (int i = 0; i < r->nparams; i++)
                    if (cd_uuid_valid(r->params[i]))
                        for (char *c = r->params[i]; *c; c++)
                            *c = (char)tolower((unsigned char)*c);
                r->route = rt;
                p->routing = RT_FOUND;
                return;
            }
            continue;   /* a malformed escape: treated as no such path */
        }
        path_exists = true;
        if (!strstr(p->allow, rt->method)) {
            size_t n = strlen(p->allow);
            snprintf(p->allow + n, sizeof p->allow - n, "%s%s%s", n ? ", " : "", rt->method,
                     strcmp(rt->method, MHD_HTTP_METHOD_GET) == 0 ? ", HEAD" : "");
        }
    }
    p->routing = path_exists ? RT_METHOD : RT_NO_PATH;
}

/* Requests between uri_log and on_completed in every server of the process, and their most since the last
 * cd_http_release_memory: a burst that has ended (10 000 long-polls woken by one move) leaves its memory free
 * in malloc's arenas but still resident until malloc_trim gives it back. */
#define CD_TRIM_BURST 512
/* libmicrohttpd's memory pool per connection (its default, 32 KiB; the most it still takes from malloc rather
 * than mmap): the request's headers and the answer's header block live there; bodies do not (carcd copies a
 * request's body out, answers are buffers of their own). Only connections in MHD keep one: waiting long-polls
 * and streams are held outside it (park.h), so this costs at most max-connections pools, of which only the
 * pages a request touches are resident. A large pool lets carcd's own limits (CD_URI_MAX, CD_HEADERS_MAX,
 * answered as problems) cover everything short of MHD's own HTML 414/431, which come past the pool. */
#define CD_CONN_MEMORY (32 * 1024)
static atomic_long all_in_flight, in_flight_peak;

/* ---- suspend / resume --------------------------------------------------------------------------------- */

static void list_add(cd_server *s, req_priv *p)
{
    p->prev = NULL;
    p->next = s->suspended;
    if (s->suspended)
        s->suspended->prev = p;
    s->suspended = p;
    p->listed = true;
}

static void list_remove(cd_server *s, req_priv *p)
{
    if (!p->listed)
        return;
    if (p->prev)
        p->prev->next = p->next;
    else
        s->suspended = p->next;
    if (p->next)
        p->next->prev = p->prev;
    p->next = p->prev = NULL;
    p->listed = false;
}

/* Stores a reply for the worker thread to send (under srv->lock). */
static void set_pending(req_priv *p, int status, json_t *body)
{
    json_decref(p->pending_body);
    p->pending_status = status;
    p->pending_body = body;
    p->has_pending = true;
}

static json_t *shutdown_problem(void)
{
    return cd_http_problem_json(CD_P_UNAVAILABLE, NULL, "the server is shutting down");
}

void cd_req_suspend(cd_req *r)
{
    req_priv *p = priv(r);
    cd_server *s = p->srv;
    if (cd_json_arena_active())
        abort();   /* a handler in a json arena suspended: its values would outlive the arena */
    pthread_mutex_lock(&s->lock);
    if (r->suspended || p->replied) {
        pthread_mutex_unlock(&s->lock);
        cd_log("error", "route %s suspended a request that is %s", r->route ? r->route->name : "none",
               r->suspended ? "already suspended" : "answered");
        return;
    }
    if (s->stopping) {
        /* never suspend during shutdown: MHD cannot stop with a suspended connection */
        set_pending(p, cd_problems[CD_P_UNAVAILABLE].status, shutdown_problem());
        pthread_mutex_unlock(&s->lock);
        return;
    }
    MHD_suspend_connection(r->conn);
    r->suspended = true;
    p->resume_requested = false;
    list_add(s, p);
    pthread_mutex_unlock(&s->lock);
    cd_metrics_suspended(1);
}

/* Resumes r (under srv->lock) unless it is not suspended or already being resumed. */
static bool resume_locked(req_priv *p)
{
    if (!p->r.suspended || p->resume_requested)
        return false;
    p->resume_requested = true;
    MHD_resume_connection(p->r.conn);
    return true;
}

void cd_req_resume_reply(cd_req *r, int status, json_t *body)
{
    req_priv *p = priv(r);
    pthread_mutex_lock(&p->srv->lock);
    if (p->r.suspended && !p->resume_requested) {
        set_pending(p, status, body);
        body = NULL;
        resume_locked(p);
    }
    pthread_mutex_unlock(&p->srv->lock);
    json_decref(body);
}

void cd_req_resume(cd_req *r)
{
    req_priv *p = priv(r);
    pthread_mutex_lock(&p->srv->lock);
    resume_locked(p);
    pthread_mutex_unlock(&p->srv->lock);
}

/* ---- the request lifecycle ---------------------------------------------------------------------------- */

/* The origin-form's path of a request target. RFC 9112 §3.2.2: a server must accept the absolute-form
 * ("GET http://host/v1/lobby"), which clients send to proxies and a few send anyway; carcd answers whatever host
 * it is asked for (as with Host), so the scheme and authority go and the rest routes as usual. "http://host" and
 * "http://host?q" have the path "/": *root says so (the answer points into uri). */
static const char *origin_form(const char *uri, bool *root)
{
    size_t scheme = strncasecmp(uri, "http://", 7) == 0 ? 7 : strncasecmp(uri, "https://", 8) == 0 ? 8 : 0;
    const char *path = uri + scheme + (scheme ? strcspn(uri + scheme, "/?") : 0);
    *root = scheme && *path != '/';
    return path;
}

static void *uri_log(void *cls, const char *uri, struct MHD_Connection *con)
{
    cd_server *s = cls;
    req_priv *p = xcalloc(1, sizeof *p);
    p->srv = s;
    p->r.conn = con;
    p->r.cfg = &s->cfg;
    p->r.t_start = cd_now();
    bool root = false;
    const char *path = uri ? origin_form(uri, &root) : NULL;
    size_t n = path && !root ? strcspn(path, "?") : 0;
    if (n >= CD_PATH_MAX) {
        p->routing = RT_TOO_LONG;   /* no route is this long */
        n = CD_PATH_MAX - 1;
    }
    if (uri && strlen(uri) > CD_URI_MAX)
        p->routing = RT_URI;
    p->r.path = xcalloc(n + 2, 1);
    if (root)
        p->r.path[0] = '/';
    else if (path)
        memcpy(p->r.path, path, n);
    atomic_fetch_add(&s->in_flight, 1);
    long open = atomic_fetch_add(&all_in_flight, 1) + 1, peak = atomic_load(&in_flight_peak);
    while (open > peak && !atomic_compare_exchange_weak(&in_flight_peak, &peak, open)) {
    }
    cd_metrics_request_begin();
    return p;
}

static bool body_expected(cd_req *r)
{
    const char *cl = cd_req_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH);
    return cd_req_header(r, MHD_HTTP_HEADER_TRANSFER_ENCODING) || (cl && strcmp(cl, "0") != 0);
}

/* Whether a request to be refused may be answered before its body is read (see the top of the file). */
static bool answer_at_once(cd_req *r)
{
    const char *expect = cd_req_header(r, MHD_HTTP_HEADER_EXPECT);
    if (expect && strcasecmp(expect, "100-continue") == 0)
        return true;
    const char *cl = cd_req_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH);
    unsigned long long n = cl ? strtoull(cl, NULL, 10) : 0;
    return n > DISCARD_CAP(r->cfg->body_limit);
}

static enum MHD_Result reply_routing_error(req_priv *p)
{
    cd_req *r = &p->r;
    if (p->routing == RT_URI)
        return cd_reply_problem(r, CD_P_URI_TOO_LONG, NULL, "the URI is longer than %d bytes", CD_URI_MAX);
    if (p->routing == RT_HEADERS)
        return cd_reply_problem(r, CD_P_HEADERS_TOO_LARGE, NULL, "the header fields are larger than %d bytes",
                                CD_HEADERS_MAX);
    if (p->routing == RT_BAD_FRAMING) {
        /* RFC 9112 §6.3: 400, then close, so bytes a proxy may read as another request are never read */
        static const char *const close_hdr[] = {MHD_HTTP_HEADER_CONNECTION, "close", NULL};
        return cd_http_reply_json_as(r, 400, cd_http_problem_json(CD_P_INVALID, p->framing_field, p->framing_why),
                                     "application/problem+json", close_hdr);
    }
    if (p->routing == RT_METHOD)
        return cd_reply_problem(r, CD_P_METHOD, NULL, "%s is not allowed here; allowed: %s", r->method, p->allow);
    return cd_reply_problem(r, CD_P_NO_ROUTE, NULL, "no such path");
}

static enum MHD_Result reply_too_large(req_priv *p)
{
    return cd_reply_problem(&p->r, CD_P_TOO_LARGE, NULL, "the body is larger than %zu bytes",
                            p->r.cfg->body_limit);
}

static enum MHD_Result add_header_size(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 4;   /* ": " and CRLF */
    return MHD_YES;
}

typedef struct {
    const char *first;          /* the first Content-Length */
    const char *te;             /* the first Transfer-Encoding */
    int te_lines;
    bool conflict;              /* Content-Length values that differ */
} length_scan;

/* MHD keeps every header line; it reads the body by the first Content-Length. Any other value (in another
 * line, or a list "5, 6" in one) makes the framing ambiguous: a proxy in front may have used that one. */
static enum MHD_Result scan_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    length_scan *ls = cls;
    const char *v = value ? value : "";
    if (key && strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        ls->te = ls->te ? ls->te : v;
        ls->te_lines++;
    }
    if (!key || strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) != 0)
        return MHD_YES;
    if (strchr(v, ','))
        ls->conflict = true;
    else if (!ls->first)
        ls->first = v;
    else if (strcmp(ls->first, v) != 0)
        ls->conflict = true;
    return MHD_YES;
}

/* Whether where the body ends is in doubt, and so a proxy in front may have ended it elsewhere (RFC 9112 §6.1,
 * §6.3): Content-Length values that differ; Transfer-Encoding beside Content-Length (the request smuggling
 * pair); a Transfer-Encoding other than exactly "chunked" (the only coding carcd reads). *field and *why say
 * which, for the 400. */
static bool length_ambiguous(struct MHD_Connection *conn, const char **field, const char **why)
{
    length_scan ls = {0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_length, &ls);
    *field = MHD_HTTP_HEADER_TRANSFER_ENCODING;
    if (ls.conflict) {
        *field = MHD_HTTP_HEADER_CONTENT_LENGTH;
        *why = "Content-Length is given more than once with different values";
    } else if (ls.te && ls.first) {
        *why = "Transfer-Encoding and Content-Length are both given: send one of them";
    } else if (ls.te && (ls.te_lines > 1 || strcasecmp(ls.te, "chunked") != 0)) {
        *why = "Transfer-Encoding: only \"chunked\" is read, alone";
    } else {
        return false;
    }
    return true;
}

/* The first call: the headers are in. */
static enum MHD_Result begin(req_priv *p, const char *method)
{
    /* libmicrohttpd answers a header block past its memory pool itself, in HTML: below that, ours is the
     * limit, answered as a problem */
    size_t header_bytes = 0;
    MHD_get_connection_values(p->r.conn, MHD_HEADER_KIND, add_header_size, &header_bytes);
    if (header_bytes > CD_HEADERS_MAX && p->routing != RT_URI)
        p->routing = RT_HEADERS;

    cd_req *r = &p->r;
    snprintf(r->method, sizeof r->method, "%s", method);

    const char *auth = cd_req_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        const char *t = auth + 7;
        while (*t == ' ')
            t++;
        if (*t && !strchr(t, ' ')) {
            r->bearer = t;
            if (p->srv->has_admin) {   /* the digest is kept: the seat or key lookup needs it too */
                cd_sha256_bytes((const uint8_t *)t, strlen(t), r->bearer_sha256);
                r->bearer_hashed = true;
                r->is_admin = CRYPTO_memcmp(r->bearer_sha256, p->srv->admin_hash, 32) == 0;
            }
        }
    }

    if (length_ambiguous(r->conn, &p->framing_field, &p->framing_why))
        p->routing = RT_BAD_FRAMING;
    else if (p->routing == RT_FOUND)   /* not yet refused: uri_log starts every request at RT_FOUND (0) */
        route(p, method);
    if (p->routing == RT_BAD_FRAMING)
        return reply_routing_error(p);   /* at once: where the body ends is what is unknown */
    if (p->routing != RT_FOUND)
        /* without a body, answered at the last call (the connection stays open); with one, see the top */
        return body_expected(r) && answer_at_once(r) ? reply_routing_error(p) : MHD_YES;

    const char *cl = cd_req_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        if (errno || end == cl || *end || n > r->cfg->body_limit) {
            r->too_large = true;
            return answer_at_once(r) ? reply_too_large(p) : MHD_YES;
        }
        if (n > 0) {
            p->body_cap = (size_t)n + 1;
            r->body = xcalloc(p->body_cap, 1);
        }
    }
    return MHD_YES;
}

/* A piece of the body. MHD_NO hangs up on the client. */
static enum MHD_Result body_append(req_priv *p, const char *data, size_t n)
{
    cd_req *r = &p->r;
    size_t limit = r->cfg->body_limit;
    if (p->routing != RT_FOUND || r->too_large || r->body_len + n > limit) {
        if (p->routing == RT_FOUND && !r->too_large) {
            r->too_large = true;
            p->discarded = r->body_len;
            free(r->body);
            r->body = NULL;
            r->body_len = 0;
        }
        p->discarded += n;
        return p->discarded > DISCARD_CAP(limit) ? MHD_NO : MHD_YES;
    }
    if (r->body_len + n + 1 > p->body_cap) {
        size_t cap = p->body_cap ? p->body_cap : 1024;
        while (cap < r->body_len + n + 1)
            cap *= 2;
        if (cap > limit + 1)
            cap = limit + 1;
        char *b = realloc(r->body, cap);
        if (!b)
            abort();
        r->body = b;
        p->body_cap = cap;
    }
    memcpy(r->body + r->body_len, data, n);
    r->body_len += n;
    r->body[r->body_len] = '\0';
    return MHD_YES;
}

/* After a handler returned: it replied, suspended, or left a reply to send (suspend during shutdown). */
/* Set while MHD closes a held request's connection: its "internal error" log line is ours, not a fault. */
static _Thread_local bool forgetting_held;

static enum MHD_Result after_handler(req_priv *p, enum MHD_Result ret)
{
    cd_req *r = &p->r;
    if (p->held) {
        /* MHD closes its side without a byte sent (MHD_USE_TURBO: no shutdown of the socket, which the held
         * copy of the descriptor still serves) and forgets the connection */
        forgetting_held = true;
        return MHD_NO;
    }
    if (ret != MHD_YES || p->replied)
        return ret;
    pthread_mutex_lock(&p->srv->lock);
    /* suspended: a reply another thread stored already (it resumed the request before this handler
     * returned) stays for `resumed` to send; taking it here lost it, and leaked it */
    bool suspended = r->suspended, pending = !suspended && p->has_pending;
    int status = p->pending_status;
    json_t *body = pending ? p->pending_body : NULL;
    if (pending) {
        p->has_pending = false;
        p->pending_body = NULL;
    }
    pthread_mutex_unlock(&p->srv->lock);
    if (suspended)
        return MHD_YES;
    if (pending)
        return cd_http_reply_json_as(r, status, body, status >= 400 ? "application/problem+json" : "application/json",
                             NULL);
    return cd_reply_problem(r, CD_P_INTERNAL, NULL, "route %s returned without an answer", r->route->name);
}

static enum MHD_Result run_handler(req_priv *p)
{
    return after_handler(p, p->r.route->handler(&p->r));
}

/* on_request after a resume: the stored reply, or the handler again. */
static enum MHD_Result resumed(req_priv *p)
{
    cd_req *r = &p->r;
    pthread_mutex_lock(&p->srv->lock);
    bool was_suspended = r->suspended;
    r->suspended = false;
    p->resume_requested = false;
    list_remove(p->srv, p);
    bool pending = p->has_pending;
    int status = p->pending_status;
    json_t *body = p->pending_body;
    p->has_pending = false;
    p->pending_body = NULL;
    pthread_mutex_unlock(&p->srv->lock);
    if (was_suspended)
        cd_metrics_suspended(-1);
    if (pending)
        return cd_http_reply_json_as(r, status, body, status >= 400 ? "application/problem+json" : "application/json",
                             NULL);
    if (p->replied)
        return MHD_YES;
    return run_handler(p);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **req_cls)
{
    (void)version;
    req_priv *p = *req_cls;
    if (!p) {   /* MHD always calls uri_log first; this keeps a surprise from being a crash */
        p = uri_log(cls, url, con);
        *req_cls = p;
    }
    if (!p->started) {
        p->started = true;
        return begin(p, method);
    }
    if (*upload_data_size) {
        enum MHD_Result ret = body_append(p, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return ret;
    }
    if (p->dispatched)
        return resumed(p);
    p->dispatched = true;
    /* the request is in: the longer idle timeout while it is handled and answered (on_completed gives the
     * connection the header timeout back for the next request) */
    MHD_set_connection_option(con, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)p->srv->cfg.conn_timeout_s);
    if (p->replied)
        return MHD_YES;
    if (p->routing != RT_FOUND)
        return reply_routing_error(p);
    if (p->r.too_large)
        return reply_too_large(p);
    return run_handler(p);
}

static const char *termination_name(enum MHD_RequestTerminationCode toe)
{
    switch (toe) {
    case MHD_REQUEST_TERMINATED_COMPLETED_OK:
        return NULL;
    case MHD_REQUEST_TERMINATED_TIMEOUT_REACHED:
        return "timeout";
    case MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN:
        return "shutdown";
    case MHD_REQUEST_TERMINATED_CLIENT_ABORT:
    case MHD_REQUEST_TERMINATED_READ_ERROR:
        return "client_gone";
    default:
        return "error";
    }
}

/* The path for the log: printable ASCII kept, every other byte as %XX, so the line stays valid JSON. */
static void log_path(const char *path, char *out, size_t outlen)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)path; *c && o + 4 < outlen; c++) {
        if (*c > 0x20 && *c < 0x7f) {
            out[o++] = (char)*c;
        } else {
            out[o++] = '%';
            out[o++] = hex[*c >> 4];
            out[o++] = hex[*c & 15];
        }
    }
    out[o] = '\0';
}

void cd_http_log_request(const cd_server *s, const char *method, const char *rpath, const cd_route *route,
                         int status, double seconds, const char *game, const char *end)
{
    /* written member by member (log.h: cd_log_line): a tree and its dump for every request were a tenth of a
     * move's CPU */
    cd_log_line line;
    char path[3 * CD_PATH_MAX], shown[CD_PATH_MAX];
    /* a path ending in a link's secret (a mail's unsubscribe {tag}, an invitation's stop {token}) is logged with
     * the pattern's name in its place: whoever reads the log must not be able to follow the link */
    const char *name = route ? strrchr(route->pattern, '/') : NULL, *cut = strrchr(rpath, '/');
    if (name && cut && (strcmp(name, "/{tag}") == 0 || strcmp(name, "/{token}") == 0)) {
        snprintf(shown, sizeof shown, "%.*s%s", (int)(cut - rpath), rpath, name);
        rpath = shown;
    }
    log_path(rpath, path, sizeof path);
    cd_log_line_begin(&line);
    if (method[0])
        cd_log_line_str(&line, "method", method);
    cd_log_line_str(&line, "path", path);
    cd_log_line_str(&line, "route", route ? route->name : "none");
    cd_log_line_int(&line, "status", status);
    cd_log_line_ms(&line, "ms", (long long)(seconds * 1e6));
    if (game)
        cd_log_line_str(&line, "game", game);
    if (end)
        cd_log_line_str(&line, "end", end);
    cd_log_line_end(&line);
    /* counted by the route's index in cd_routes (a test's own table counts as no route) */
    cd_metrics_request_end(route && s->routes == cd_routes ? (int)(route - cd_routes) : -1, status, seconds);
}

static void on_completed(void *cls, struct MHD_Connection *con, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    cd_server *s = cls;
    req_priv *p = *req_cls;
    /* answered in full, the connection may wait for another request: as long as a request's headers may take
     * (only then: a connection that is closing is leaving MHD's timeout lists) */
    if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
        MHD_set_connection_option(con, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)s->cfg.header_timeout_s);
    if (!p)
        return;
    *req_cls = NULL;
    cd_req *r = &p->r;
    if (!p->held)   /* a held request logs when its connection closes (hold_closed) */
        cd_http_log_request(s, r->method, r->path, r->route, r->status, cd_now() - r->t_start, r->game_id,
                    termination_name(toe));

    /* a connection resumed during MHD's own shutdown is closed without calling on_request again */
    pthread_mutex_lock(&s->lock);
    bool was_listed = p->listed;
    list_remove(s, p);
    pthread_mutex_unlock(&s->lock);
    if (was_listed)
        cd_metrics_suspended(-1);

    if (r->ctx_free && r->ctx)
        r->ctx_free(r->ctx);
    for (int i = 0; i < CD_MAX_PARAMS; i++)
        free(r->params[i]);
    free(r->body);
    free(r->path);
    json_decref(p->pending_body);
    bool held = p->held;
    free(p);
    if (!held)   /* a held request is in flight until its connection closes */
        cd_http_request_gone(s);
}

void cd_http_request_gone(cd_server *s)
{
    atomic_fetch_sub(&s->in_flight, 1);
    atomic_fetch_sub(&all_in_flight, 1);
}

void cd_http_release_memory(void)
{
    long now = atomic_load(&all_in_flight), peak = atomic_exchange(&in_flight_peak, now);
    if (peak - now >= CD_TRIM_BURST)
        malloc_trim(0);
}

/* ---- the server --------------------------------------------------------------------------------------- */

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    if (forgetting_held && strstr(msg, "Application reported internal error")) {
        forgetting_held = false;   /* a held request's connection, closed on purpose (after_handler) */
        return;
    }
    cd_log("warn", "libmicrohttpd: %s", msg);
}

/* Descriptors carcd needs besides its connections: the listening socket, a database connection per thread,
 * the notify thread's, webhook and mail workers, logs, MHD's epoll and inter-thread pipes. */
#define CD_FD_RESERVE 64

long cd_http_raise_nofile(int max_connections)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    /* the soft limit is often 1024 while the hard one is far above: every waiting long-poll and stream is a
     * descriptor, so the hard one is taken (nothing else of carcd counts on a low limit) */
    if (rl.rlim_cur < rl.rlim_max) {
        struct rlimit up = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &up) == 0)
            rl = up;
    }
    long limit = rl.rlim_cur == RLIM_INFINITY ? LONG_MAX : (long)rl.rlim_cur;
    /* libmicrohttpd's connections, and as many held requests besides (park.h) */
    if (2L * max_connections + CD_FD_RESERVE > limit)
        cd_log("warn", "max-connections %d (twice: connections, and waiting requests besides) does not fit in "
                       "the open-files limit %ld (with %d for the rest of carcd): raise the hard limit (ulimit "
                       "-Hn, LimitNOFILE=) or lower CARCD_MAX_CONNECTIONS",
               max_connections, limit, CD_FD_RESERVE);
    return limit;
}

cd_server *cd_server_start(const cd_config *cfg, char *err, size_t errlen)
{
    return cd_server_start_routes(cfg, cd_routes, err, errlen);
}

cd_server *cd_server_start_routes(const cd_config *cfg, const cd_route *routes, char *err, size_t errlen)
{
    cd_json_arena_install();   /* before the worker threads: they all allocate through it */
    cd_http_raise_nofile(cfg->max_connections);
    cd_server *s = xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->routes = routes;
    s->has_admin = cfg->admin_token[0] != '\0';
    if (s->has_admin)
        sha256(cfg->admin_token, strlen(cfg->admin_token), s->admin_hash);
    atomic_init(&s->in_flight, 0);
    pthread_mutex_init(&s->lock, NULL);

    bool ipv6 = false;
    int fd = cfg->listen_unix[0] ? cd_listen_unix(cfg->listen_unix, err, errlen)
                                 : cd_listen_tcp(cfg->listen_host, cfg->listen_port, &ipv6, &s->port, err, errlen);
    if (fd < 0)
        goto fail;

    /* held requests (cd_req_hold): up to max_connections besides MHD's own, per address as MHD counts */
    s->park = cd_park_start(cfg->max_connections, cfg->per_ip_connections);
    if (!s->park) {
        snprintf(err, errlen, "cannot start the thread of held connections");
        close(fd);
        goto fail;
    }
    /* MHD_USE_TURBO: MHD closes a connection without shutdown(), which a held request's socket needs */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG |
                         MHD_USE_TURBO;
    flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES ? MHD_USE_EPOLL : MHD_USE_POLL;
    if (ipv6)
        flags |= MHD_USE_IPv6;
    /* MHD closes fd itself if it fails to start */
    s->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s,
                              MHD_OPTION_EXTERNAL_LOGGER, mhd_log, (void *)s,
                              MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
                              MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(cfg->threads > 1 ? cfg->threads : 0),
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned int)cfg->max_connections,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)cfg->per_ip_connections,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CD_CONN_MEMORY,
                              /* until a request is complete: a client trickling its headers (slowloris) or
                               * holding a connection it sends nothing on loses it soon; dispatch() gives a
                               * request being handled conn_timeout_s, and a suspended one has none */
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->header_timeout_s,
                              MHD_OPTION_URI_LOG_CALLBACK, uri_log, (void *)s,
                              MHD_OPTION_NOTIFY_COMPLETED, on_completed, (void *)s,
                              MHD_OPTION_END);
    if (!s->mhd) {
        snprintf(err, errlen, "cannot start the HTTP server on %s:%d (see the libmicrohttpd message above)",
                 cfg->listen_host, cfg->listen_port);
        goto fail;
    }
    return s;
fail:
    cd_park_stop(s->park, 0);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return NULL;
}

int cd_server_port(const cd_server *s)
{
    return s->port;
}

void cd_server_stop(cd_server *s)
{
    if (!s)
        return;
    /* no new connections; the listening socket is ours again */
    MHD_socket lfd = MHD_quiesce_daemon(s->mhd);

    /* answer every long-poll (MHD must not be stopped with a suspended connection) and refuse new ones */
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    for (req_priv *p = s->suspended; p; p = p->next)
        if (!p->resume_requested) {
            set_pending(p, cd_problems[CD_P_UNAVAILABLE].status, shutdown_problem());
            resume_locked(p);
        }
    pthread_mutex_unlock(&s->lock);

    /* let requests in flight finish, for a while */
    int waited = 0;   /* held requests count in in_flight too: their owners end them at shutdown */
    for (; waited < DRAIN_MS && atomic_load(&s->in_flight) > 0; waited += 10)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);

    MHD_stop_daemon(s->mhd);
    if (lfd != MHD_INVALID_SOCKET)
        close(lfd);
    /* held requests were told to end by their owners' shutdown (the notify thread's, first in main) */
    cd_park_stop(s->park, DRAIN_MS - waited);   /* what is still held after the drain is closed */
    pthread_mutex_destroy(&s->lock);
    free(s);
}
