/*
 * feed.c — a feed's long poll and Server-Sent Events stream, held outside libmicrohttpd (feed.h).
 *
 * Long poll. When there is nothing to answer yet the handler calls cd_feed_long_poll: the request is held
 * (cd_req_hold: carcd takes the connection's socket, libmicrohttpd forgets it) and a waiter registered with
 * the notify thread for the feed's id after the cursor, until the deadline. The waiter's callback runs on
 * the notify thread for a new entry, at the deadline or when the listener reconnected; it reads the feed on
 * the notify thread's own connection and answers then (cd_hold_reply_json: a whole HTTP/1.1 message, then the
 * close), or waits on when there is still nothing new. When the held connection has closed (answered, or the
 * client hung up, which the park notices at once), the done callback cancels the waiter and frees the state;
 * cancel waits for a callback that is running, so the state is never freed under one. At shutdown the notify
 * thread fires every waiter first and they answer 503.
 *
 * Stream. `retry: 1000`, the first page and the backlog are written at once (cd_hold_stream_begin, no length:
 * the stream ends at the close); then the waiter fires for an entry, the next keepalive or the end, and the
 * callback writes the new frames (cd_hold_send) and waits again. A backlog longer than CD_FEED_MAX_PAGES
 * pages, or a wake that finds that many, ends the stream: the client comes back with Last-Event-ID.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_out.h"
#include "base/metrics.h"
#include "db/notify.h"
#include "feed.h"

void cd_feed_frame(cd_buf *b, const char *id, const char *event, const json_t *entry)
{
    char *data = cd_json_dumps(entry, JSON_COMPACT);
    if (!data)
        abort();
    cd_buf_str(b, "id: ");
    cd_buf_str(b, id);
    cd_buf_str(b, "\nevent: ");
    cd_buf_str(b, event);
    cd_buf_str(b, "\ndata: ");
    cd_buf_str(b, data);
    cd_buf_str(b, "\n\n");
    free(data);
}

bool cd_feed_wants_sse(cd_req *r)
{
    const char *accept = cd_req_header(r, MHD_HTTP_HEADER_ACCEPT);
    if (!accept)
        return false;
    char low[256];
    size_t n = 0;
    for (; accept[n] && n < sizeof low - 1; n++)
        low[n] = (char)tolower((unsigned char)accept[n]);
    low[n] = 0;
    return strstr(low, "text/event-stream") != NULL;
}

/* A problem body for a reply made from the notify thread (cd_hold_reply_json). */
static json_t *problem_body(cd_problem pr, const char *detail)
{
    char type[64];
    snprintf(type, sizeof type, "/problems/%s", cd_problems[pr].slug);
    return json_pack("{s:s, s:s, s:i, s:s}", "type", type, "title", cd_problems[pr].title, "status",
                     cd_problems[pr].status, "detail", detail);
}

static void reply_load_error(cd_hold *h, cd_load_result lr)
{
    if (lr == CD_LOAD_SEAT_GONE) {
        json_t *p = problem_body(CD_P_FORBIDDEN, "the bearer token no longer opens a seat of this game: its seat was "
                                                 "given up, removed or given a new token while this request waited");
        json_object_set_new(p, "field", json_string("Authorization"));
        cd_hold_reply_json(h, 403, p);
        return;
    }
    cd_problem pr = lr == CD_LOAD_UNAVAILABLE ? CD_P_UNAVAILABLE : CD_P_INTERNAL;
    cd_hold_reply_json(h, cd_problems[pr].status,
                       problem_body(pr, pr == CD_P_UNAVAILABLE ? "the database cannot be reached"
                                                               : "an internal error occurred; it has been logged"));
}

/* The feed's read on the notify thread's own connection. A connection that went stale (the server restarted
 * since its last use) fails once and is remade by the next call: one retry. */
static cd_load_result read_on_notify_thread(const cd_config *cfg, const cd_feed_src *src, cd_feed_cursor *cur,
                                            json_t **entries)
{
    cd_load_result lr = CD_LOAD_UNAVAILABLE;
    for (int attempt = 0; attempt < 2 && lr == CD_LOAD_UNAVAILABLE; attempt++) {
        char err[256];
        cd_db *db = cd_db_thread(cfg, err, sizeof err);
        cd_feed_cursor c = *cur;
        lr = db ? src->kind->read(db, src, &c, entries) : CD_LOAD_UNAVAILABLE;
        if (lr == CD_LOAD_OK)
            *cur = c;
    }
    return lr;
}

static int arm(cd_notify_waiter *w, const cd_feed_src *src, cd_feed_cursor cur, double deadline, cd_notify_fn fn,
               void *arg)
{
    return cd_notify_wait_msgs(w, src->id, cur.after, cur.mafter, deadline, fn, arg);
}

/* ---- long poll ---------------------------------------------------------------------------------------- */

typedef struct {
    cd_hold *h;
    const cd_config *cfg;
    cd_feed_src src;
    cd_feed_cursor cur;
    double deadline;
    cd_notify_waiter w;
} feed_poll;

/* On the notify thread. The answer is built here, at the wake. c stays valid while this runs: poll_done (the
 * connection closed) waits for it in cd_notify_cancel. */
static void poll_fire(void *arg, cd_notify_why why)
{
    feed_poll *c = arg;
    if (why == CD_NOTIFY_SHUTDOWN) {
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
        return;
    }
    json_t *entries = NULL;
    cd_feed_cursor cur = c->cur;
    cd_load_result lr = read_on_notify_thread(c->cfg, &c->src, &cur, &entries);
    if (lr != CD_LOAD_OK) {
        reply_load_error(c->h, lr);
        return;
    }
    if (json_array_size(entries) > 0 || why == CD_NOTIFY_DEADLINE || cd_now() >= c->deadline) {
        cd_hold_reply_json(c->h, 200, c->src.kind->answer(&c->src, cur, entries));
        return;
    }
    /* woken with nothing new (the listener reconnected, or a message this viewer does not read: the cursor
     * passes it, so that it does not wake us again): wait on */
    json_decref(entries);
    c->cur = cur;
    if (arm(&c->w, &c->src, c->cur, c->deadline, poll_fire, c) != 0)
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
}

/* On the park's thread: the connection is closed (answered, or the client went away). */
static void poll_done(void *arg, bool client_gone)
{
    (void)client_gone;
    feed_poll *c = arg;
    cd_notify_cancel(&c->w);
    free(c);
}

enum MHD_Result cd_feed_long_poll(cd_req *r, const cd_feed_src *src, cd_feed_cursor cur, long wait)
{
    feed_poll *c = calloc(1, sizeof *c);
    if (!c)
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "out of memory");
    c->cfg = r->cfg;
    c->src = *src;
    c->cur = cur;
    c->deadline = cd_now() + (double)wait;
    c->h = cd_req_hold(r, true, poll_done, c);
    if (!c->h) {
        free(c);
        return cd_reply_unavailable(r, 0, "too many waiting requests");
    }
    if (arm(&c->w, &c->src, c->cur, c->deadline, poll_fire, c) != 0)
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
    cd_hold_start(c->h);
    return MHD_YES;
}

/* ---- Server-Sent Events ------------------------------------------------------------------------------- */

typedef struct {
    cd_hold *h;
    const cd_config *cfg;
    cd_feed_src src;
    cd_feed_cursor cur;   /* the notify thread's (set before the waiter is armed) */
    double end, next_keepalive;
    cd_notify_waiter w;
} feed_stream;

/* On the park's thread: the connection is closed (the stream ended, or the client went away). */
static void stream_done(void *arg, bool client_gone)
{
    (void)client_gone;
    feed_stream *s = arg;
    cd_metrics_sse_streams(-1);
    cd_notify_cancel(&s->w);
    free(s);
}

/* Reads up to `pages` pages after s->cur (on db, or on the notify thread's connection when db is NULL) and
 * frames them into out. *full: the last page read was full, so more may be behind it. */
static cd_load_result frame_pages(cd_db *db, feed_stream *s, cd_buf *out, int pages, bool *full)
{
    *full = false;
    for (int page = 0; page < pages; page++) {
        json_t *entries = NULL;
        cd_feed_cursor from = s->cur;
        cd_load_result lr = db ? s->src.kind->read(db, &s->src, &s->cur, &entries)
                               : read_on_notify_thread(s->cfg, &s->src, &s->cur, &entries);
        if (lr != CD_LOAD_OK)
            return lr;
        s->src.kind->frames(out, entries, from);
        size_t n = json_array_size(entries);
        json_decref(entries);
        *full = n >= s->src.kind->page;
        if (!*full)
            break;
    }
    return CD_LOAD_OK;
}

/* On the notify thread: new entries, a keepalive, or the end. */
static void stream_fire(void *arg, cd_notify_why why)
{
    feed_stream *s = arg;
    cd_buf out = {0};
    bool end = why == CD_NOTIFY_SHUTDOWN;
    if (why == CD_NOTIFY_MOVE || why == CD_NOTIFY_RECONNECT) {
        bool full;   /* more than one wake can carry: the client comes back for the rest */
        /* a failed read ends the stream: the client comes back with Last-Event-ID */
        end = frame_pages(NULL, s, &out, CD_FEED_MAX_PAGES, &full) != CD_LOAD_OK || full;
    }
    double now = cd_now();
    if (now >= s->end)
        end = true;
    if (!end && now >= s->next_keepalive)
        cd_buf_str(&out, ": keepalive\n\n");
    if (out.len > 0)
        s->next_keepalive = now + CD_FEED_KEEPALIVE_S;   /* anything sent keeps the connection warm */
    if (!end) {
        double deadline = s->next_keepalive < s->end ? s->next_keepalive : s->end;
        if (arm(&s->w, &s->src, s->cur, deadline, stream_fire, s) != 0)
            end = true;
    }
    /* a client that does not read past CD_FEED_MAX_BUFFER: the stream ends, it comes back from its last event */
    if (!cd_hold_send(s->h, out.p, out.len, end, CD_FEED_MAX_BUFFER) && !end)
        cd_hold_send(s->h, NULL, 0, true, 0);
    free(out.p);
}

enum MHD_Result cd_feed_stream(cd_req *r, cd_db *db, const cd_feed_src *src, json_t *entries, cd_feed_cursor from,
                               cd_feed_cursor to, long wait)
{
    feed_stream *s = calloc(1, sizeof *s);
    if (!s) {
        json_decref(entries);
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "out of memory");
    }
    s->cfg = r->cfg;
    s->src = *src;
    s->cur = to;
    cd_buf out = {0};
    cd_buf_str(&out, "retry: 1000\n\n");
    src->kind->frames(&out, entries, from);
    size_t n = json_array_size(entries);
    json_decref(entries);
    /* the backlog, on this worker's connection; a read that fails here is this request's error */
    bool full = n >= src->kind->page;
    cd_load_result lr = full ? frame_pages(db, s, &out, CD_FEED_MAX_PAGES - 1, &full) : CD_LOAD_OK;
    if (lr != CD_LOAD_OK) {
        free(out.p);
        free(s);
        return cd_reply_db_failure(r, lr == CD_LOAD_UNAVAILABLE, src->kind->unreadable);
    }
    s->h = cd_req_hold(r, false, stream_done, s);
    if (!s->h) {
        free(out.p);
        free(s);
        return cd_reply_unavailable(r, 0, "too many waiting requests");
    }
    cd_metrics_sse_streams(1);   /* until stream_done */
    double now = cd_now();
    s->end = now + (double)wait;
    s->next_keepalive = now + CD_FEED_KEEPALIVE_S;
    bool ended = full || wait == 0;   /* a backlog too long for one stream: the client comes back */
    static const char *const headers[] = {"Cache-Control", "no-cache", "X-Accel-Buffering", "no", NULL};
    cd_hold_stream_begin(s->h, "text/event-stream", headers, out.p, out.len, ended);
    free(out.p);
    if (!ended) {
        double deadline = s->next_keepalive < s->end ? s->next_keepalive : s->end;
        if (arm(&s->w, &s->src, s->cur, deadline, stream_fire, s) != 0)
            cd_hold_send(s->h, NULL, 0, true, 0);
    }
    cd_hold_start(s->h);
    return MHD_YES;
}
