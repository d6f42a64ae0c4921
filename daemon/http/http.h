/*
 * http.h — the HTTP layer: one cd_req per request, the route table's handler type, and the reply helpers.
 *
 * Ownership: a cd_req and everything hanging off it (body, path parameters, handler context) is owned by
 * the HTTP layer and freed in one place when the request completes. A handler replies exactly once with
 * one of the cd_reply_* functions (which take ownership of the json_t they are given), or suspends the
 * request (long-poll) and replies later from another thread with cd_req_resume_reply.
 */
#ifndef CD_HTTP_H
#define CD_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "base/timesrc.h"   /* cd_now */
#include "problem.h"

#define CD_MAX_PARAMS 4
/* A request's URI (path and query) and its header block (names, values, ": " and CRLF) may be this large;
 * larger ones are answered 414 and 431 problems. libmicrohttpd answers what does not fit its per-connection
 * memory pool at all itself, before carcd sees the request, in HTML (README, "What carcd does not answer"). */
#define CD_URI_MAX 2048
#define CD_PATH_MAX 512
#define CD_HEADERS_MAX 4096

typedef enum { CD_AUTH_NONE, CD_AUTH_ADMIN, CD_AUTH_TOKEN } cd_auth_kind;

typedef struct cd_req cd_req;
typedef enum MHD_Result (*cd_handler)(cd_req *r);

typedef struct {
    const char *method;    /* "GET", "POST", "DELETE" */
    const char *pattern;   /* "/v1/games/{id}/moves": {x} matches one path segment */
    cd_handler handler;
    const char *name;      /* metric and log label, e.g. "moves.post" */
} cd_route;

struct cd_req {
    struct MHD_Connection *conn;
    const cd_config *cfg;
    const cd_route *route;
    char method[8];
    /* the path as sent, without the query; at most CD_PATH_MAX - 1 bytes (longer ones are cut and get 404).
     * Allocated to its length: 10 000 waiting long-polls each keep their request */
    char *path;
    char *params[CD_MAX_PARAMS];   /* path parameters in pattern order, NUL-terminated, decoded */
    int nparams;
    char *body;                    /* NUL-terminated; NULL when there was none */
    size_t body_len;
    bool too_large;
    /* the bearer token as sent (NULL if none); resolving it to a seat needs the game, so handlers do it */
    const char *bearer;
    bool is_admin;                 /* bearer equals the configured admin token (constant-time compare) */
    bool bearer_hashed;            /* bearer_sha256 holds the bearer's SHA-256 (cd_req_bearer_hash) */
    unsigned char bearer_sha256[32];
    int status;                    /* set by the reply, for the log and metrics */
    const char *game_id;           /* set by handlers for the log line */
    /* set by a page route (the game page) when the client asked for text/html by name (a browser): its
     * problems are answered as a page for people (problem_html.h), with the same status */
    bool html_problems;
    bool negotiated;               /* the route answers HTML or JSON by Accept: every problem says Vary: Accept */
    double t_start;
    /* a handler that suspends keeps its state here; cleanup runs when the request is freed */
    void *ctx;
    void (*ctx_free)(void *ctx);
    bool suspended;
};

/* The bearer token's SHA-256 in hex, what the database keeps of a token or key (cd_sha256_hex of r->bearer),
 * computed once per request: the admin check has it already when an admin token is configured. */
void cd_req_bearer_hash(cd_req *r, char out[65]);
/* Query-string argument, or NULL. */
const char *cd_req_arg(cd_req *r, const char *name);
/* ?limit= of a list: `def` when absent; false (after a 400 naming "limit") when not an integer 1..max. */
bool cd_req_limit(cd_req *r, long def, long max, long *out);
/* Request header, or NULL. */
const char *cd_req_header(cd_req *r, const char *name);
/* Parses the body as a JSON object. On failure replies 400/415 itself and returns NULL. */
json_t *cd_req_json_body(cd_req *r);
/* The same for an endpoint whose body is optional: no body at all is an empty object. */
json_t *cd_req_json_body_optional(cd_req *r);
/* For an action whose body may only be empty (none, or {}): true; else replies 400 (or 415, bad JSON) itself. */
bool cd_req_body_empty(cd_req *r);
/* Whether every key of object o is one of `allowed` (NULL-terminated); else replies 400 naming the first other
 * key, prefixed by `where` ("" at the top, "script." inside a member), and returns false. */
bool cd_req_only_keys(cd_req *r, const json_t *o, const char *const *allowed, const char *where);
/* Runs handler h with the request's jansson values in this thread's arena (json_arena.h); for handlers that
 * answer before they return and never suspend. */
enum MHD_Result cd_in_json_arena(cd_req *r, cd_handler h);

/* For a page route, which answers HTML or JSON by Accept: its problems become a page for a browser that asked for
 * text/html by name, and every problem it answers says Vary: Accept. */
void cd_req_negotiate_problems(cd_req *r);

/* ---- replies (each queues exactly one response) ---- */
/* JSON body (stolen); extra headers as NULL-terminated name, value pairs (may be NULL). */
enum MHD_Result cd_reply_json(cd_req *r, int status, json_t *body, const char *const *headers);
/* The same with the body already written as compact JSON text (malloc memory, stolen; NULL: a 500), for an
 * answer written without a tree. */
enum MHD_Result cd_reply_json_text(cd_req *r, int status, char *text, const char *const *headers);
/* RFC 9457 problem; `field` names the offending input (NULL when none); detail is printf-style. */
enum MHD_Result cd_reply_problem(cd_req *r, cd_problem p, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Every 503 problem carries Retry-After: this many seconds unless the caller says (cd_reply_unavailable). */
#define CD_RETRY_AFTER_S 5
/* A 503 /problems/unavailable with Retry-After: retry_after_s (a state the client can wait out). */
enum MHD_Result cd_reply_unavailable(cd_req *r, int retry_after_s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A 429 /problems/rate-limited with Retry-After: retry_after_s (at least 1), ext as cd_reply_problem_ext's. */
enum MHD_Result cd_reply_rate_limited(cd_req *r, int retry_after_s, json_t *ext, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A 429 problem p with Retry-After: retry_after_s (at least 1). */
enum MHD_Result cd_reply_too_many(cd_req *r, cd_problem p, int retry_after_s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* cd_reply_problem plus extension members (RFC 9457 §3.2): the members of `ext` (stolen; NULL for none) join
 * the problem object, never replacing a standard member. */
enum MHD_Result cd_reply_problem_ext(cd_req *r, cd_problem p, const char *field, json_t *ext, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A body that is not JSON (OpenAPI document is JSON too, but served verbatim; metrics are text). */
enum MHD_Result cd_reply_raw(cd_req *r, int status, const char *content_type, const char *data, size_t len,
                             const char *const *headers);
enum MHD_Result cd_reply_empty(cd_req *r, int status, const char *const *headers);
/* A body of unknown length produced by `reader` (MHD's content reader contract: bytes written, 0 for none
 * yet, MHD_CONTENT_READER_END_OF_STREAM); MHD calls free_cb(cls) when it is done with the response, also
 * when it was never sent. For streams such as Server-Sent Events. */
enum MHD_Result cd_reply_stream(cd_req *r, int status, const char *content_type, MHD_ContentReaderCallback reader,
                                void *cls, MHD_ContentReaderFreeCallback free_cb, const char *const *headers);

/* ---- suspend / resume (long-poll) ----
 * A handler calls cd_req_suspend and returns MHD_YES without replying: the worker thread is free and the
 * connection waits. Later, from any thread, exactly one resume counts: cd_req_resume_reply answers with
 * `body` (stolen; sent as application/problem+json when status >= 400, else application/json), while
 * cd_req_resume calls the route's handler again on its worker thread (r->ctx still set), which then
 * replies — any cd_reply_* — or suspends again. A resume of a request that is not suspended, or is already
 * being resumed, does nothing (the body is released). While suspended a request is never freed, but once
 * resumed it may be at any time: callers keep track of it under a lock that r->ctx_free also takes, and
 * never resume it after ctx_free ran. Shutdown answers every suspended request with 503 itself; a suspend
 * during shutdown does not suspend and the request is answered 503 when the handler returns. */
void cd_req_suspend(cd_req *r);
/* From any thread: resumes a suspended request and answers it. */
void cd_req_resume_reply(cd_req *r, int status, json_t *body);
/* From any thread: resumes a suspended request; its handler runs again and answers. */
void cd_req_resume(cd_req *r);

/* ---- the server ---- */
typedef struct cd_server cd_server;
cd_server *cd_server_start(const cd_config *cfg, char *err, size_t errlen);
/* The same with another route table (same shape, NULL-terminated, outliving the server): for tests. */
cd_server *cd_server_start_routes(const cd_config *cfg, const cd_route *routes, char *err, size_t errlen);
/* Resumes every suspended request with a 503, lets requests in flight finish (up to 5 s), then stops. */
void cd_server_stop(cd_server *s);
/* The port the server listens on (useful with listen_port 0: the kernel picked one). */
int cd_server_port(const cd_server *s);
/* Gives memory freed by a burst of requests that has ended (at least 512 fewer in flight than at the most
 * since the last call) back to the system (malloc_trim). The notify thread calls it every few seconds. */
void cd_http_release_memory(void);
/* Raises the open-files limit to the hard limit (cd_server_start does, before listening) and logs a warning
 * when max_connections twice (MHD's, and held requests) and carcd's other descriptors do not fit in it;
 * returns the limit now (-1: unknown). */
long cd_http_raise_nofile(int max_connections);

/* ---- holding a waiting request outside libmicrohttpd (park.h) ----
 * A handler that will answer later (a long-poll) or stream (an event stream) holds its request: carcd takes
 * the connection's socket and libmicrohttpd forgets the connection, so that a waiting client costs a socket
 * and some 200 bytes (not libmicrohttpd's ~6-10 KB). Answers are then whole HTTP/1.1 messages with
 * `Connection: close` (the client reconnects for its next request; a stream ends at the close). The request's
 * log line and metrics come when the held connection closes. */
typedef struct cd_hold cd_hold;
/* Runs once, on the park's thread, when the held connection has closed (client_gone: before all was sent);
 * the owner cancels what could still send (its notify waiter) and frees its state. */
typedef void (*cd_hold_done)(void *arg, bool client_gone);
/* Takes r's connection (the handler then returns MHD_YES and must not reply). waiting: counts in the
 * suspended gauge until it closes. NULL when the limits of held connections are reached (the handler answers
 * as usual, e.g. 503); `done` does not run before cd_hold_start. */
cd_hold *cd_req_hold(cd_req *r, bool waiting, cd_hold_done done, void *arg);
/* Set-up is over: the connection may close and `done` run from now on. */
void cd_hold_start(cd_hold *h);
/* The whole answer (body: its reference is taken; a status >= 400 is application/problem+json, 503 has
 * Retry-After), then the close. False when it was already answered or the client is gone. Any thread. */
bool cd_hold_reply_json(cd_hold *h, int status, json_t *body);
/* A stream's status and headers with its first bytes (last: and its end). */
bool cd_hold_stream_begin(cd_hold *h, const char *content_type, const char *const *headers, const char *data,
                          size_t n, bool last);
/* More of a stream (last: its end). False when the client is gone or the unsent bytes would pass max_unsent. */
bool cd_hold_send(cd_hold *h, const char *data, size_t n, bool last, size_t max_unsent);

/* The route table (routes.c), terminated by a NULL method. */
extern const cd_route cd_routes[];


#endif
