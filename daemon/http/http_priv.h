/*
 * http_priv.h — what the files of http/ share and nothing above them sees: the server and a request as
 * server.c keeps them (a cd_req is the first member of its req_priv), the reply primitives that the
 * request lifecycle (server.c) and the replies (reply.c) both use, and the request's end that server.c and
 * the held requests (hold.c) share. http.h is the contract for handlers.
 */
#ifndef CD_HTTP_PRIV_H
#define CD_HTTP_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "http.h"
#include "park.h"

typedef struct req_priv req_priv;

struct cd_server {
    struct MHD_Daemon *mhd;
    cd_config cfg;              /* a copy: every cd_req's cfg points here */
    const cd_route *routes;     /* cd_routes, or a test's table */
    int port;
    bool has_admin;
    unsigned char admin_hash[32];
    atomic_int in_flight;       /* requests between uri_log and on_completed */
    pthread_mutex_t lock;       /* guards what follows and the suspend fields of every request */
    bool stopping;
    req_priv *suspended;        /* doubly linked list of suspended requests */
    cd_park *park;              /* held requests (cd_req_hold) */
};

/* RT_TOO_LONG: a path longer than any route (404); RT_URI: the URI is over CD_URI_MAX (414); RT_HEADERS: the
 * header block is over CD_HEADERS_MAX (431). RT_BAD_FRAMING: the request's length is ambiguous (conflicting
 * Content-Length headers, Transfer-Encoding beside one, a coding other than chunked), so nothing after its
 * headers can be trusted: it is refused like a routing error, and the connection closed after. */
typedef enum { RT_FOUND, RT_NO_PATH, RT_METHOD, RT_TOO_LONG, RT_URI, RT_HEADERS, RT_BAD_FRAMING } route_result;

struct req_priv {
    cd_req r;                   /* first: a cd_req * is a req_priv * */
    cd_server *srv;
    bool started;               /* the first on_request call has happened */
    bool dispatched;            /* the handler has been called (later calls are resumes) */
    bool replied;
    bool held;                  /* cd_req_hold took the connection: MHD is told to forget it */
    route_result routing;
    const char *framing_field, *framing_why;   /* RT_BAD_FRAMING: what its 400 names (static strings) */
    char allow[48];             /* for a 405 */
    size_t body_cap;
    size_t discarded;           /* bytes dropped after the body went over the limit */
    /* suspend state, guarded by srv->lock (r.suspended too) */
    bool resume_requested;
    bool has_pending;
    int pending_status;
    json_t *pending_body;
    req_priv *next, *prev;      /* in srv->suspended while r.suspended */
    bool listed;
};

static inline req_priv *priv(cd_req *r)
{
    return (req_priv *)r;
}

/* Queues body (stolen; NULL: a 500, logged) as the answer with status, content_type and headers, with the
 * headers every answer has (reply.c). The caller checked that r may reply. */
enum MHD_Result cd_http_reply_json_as(cd_req *r, int status, json_t *body, const char *content_type,
                                      const char *const *headers);

/* An RFC 9457 problem object: type, title and status of pr, the detail and field when given. */
json_t *cd_http_problem_json(cd_problem pr, const char *field, const char *detail);

/* The request's log line and its metrics (server.c): on_completed's, and a held request's when its
 * connection closes (hold.c). */
void cd_http_log_request(const cd_server *s, const char *method, const char *rpath, const cd_route *route,
                         int status, double seconds, const char *game, const char *end);

/* A request of s is no longer in flight (server.c's counts, which cd_server_stop drains and
 * cd_http_release_memory reads): at on_completed, or for a held request when its connection closes. */
void cd_http_request_gone(cd_server *s);

#endif
