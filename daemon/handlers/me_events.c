/*
 * me_events.c — GET /v1/me/events?after=N&wait=S with a player key (Bearer pk_...): one stream across all the
 * player's games, by long poll or as Server-Sent Events, like lichess's /api/stream/event.
 *
 * The answer is {"player_id": "<id>", "n": last, "entries": [{"n", "kind", "game", "seq", "seat", "at"[,
 * "status"]}, ...]}: the player's events after number `after` (at most EV_PAGE, oldest first). Kinds:
 * game_started (a game with a seat linked to the key began), turn (a game waits for the player's seat),
 * invitation (a seat was offered to the player), game_over (status finished, or cancelled by the admin).
 * Entries name the game and its seq only: what happened there is the game's own view and log, as the
 * player's seat may see them, so nothing hidden is in this stream. "n" is the last entry's number, or
 * `after` when there is none: poll on with after=<n>.
 *
 * Where entries come from: db/player_events.h, written in the transaction of the move (game/move_commit.c),
 * the creation, the cancel or the invitation that caused them, each with a NOTIFY '<player id>:<n>' on the
 * moves' channel. The waiting is events.c's: a long poll or a stream holds its connection outside
 * libmicrohttpd (cd_req_hold, http.h) and registers a waiter for the player's id in the notify thread's
 * registry (notify.h; player and game ids are both uuids, so they share it), whose callback answers or
 * writes the new frames. A waiter costs this file's context (about 150 bytes, its cd_notify_waiter inside)
 * on top of the held connection's.
 *
 * Parameters: after (integer >= 0, default 0: every event kept), wait (0..cfg->max_wait_s; a stream's
 * default is max_wait_s, a long poll's 0); a stream takes Last-Event-ID as `after`. Frames: `id: <n>`,
 * `event: <kind>`, `data: <entry>`; `: keepalive` every SSE_KEEPALIVE_S; the end after the wait bound.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_out.h"
#include "base/metrics.h"
#include "db/notify.h"
#include "db/player_events.h"
#include "db/players.h"
#include "handlers.h"

#define EV_PAGE 100
#define SSE_KEEPALIVE_S 15.0
#define SSE_MAX_PAGES 20
#define SSE_MAX_BUFFER (1u << 20)

typedef enum { PE_OK, PE_DOWN, PE_ERROR } pe_result;

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Up to EV_PAGE entries of the player after `after`: *entries (new array), *last. */
static pe_result read_page(cd_db *db, const char *player, int after, json_t **entries, int *last)
{
    cd_player_event_rows rows;
    cd_q q = cd_player_events_after(db, player, after, EV_PAGE, &rows);
    *entries = NULL;
    *last = after;
    if (q != CD_Q_OK)
        return q == CD_Q_DOWN ? PE_DOWN : PE_ERROR;
    json_t *a = json_array();
    for (int i = 0; i < rows.n; i++) {
        const cd_player_event_row *e = &rows.v[i];
        json_t *o = json_pack("{s:i, s:s, s:s, s:i, s:o, s:s}", "n", e->n, "kind", e->kind, "game", e->game_id,
                              "seq", e->seq, "seat", e->has_seat ? json_integer(e->seat) : json_null(), "at", e->at);
        if (e->status)
            json_object_set_new(o, "status", json_string(e->status));
        json_array_append_new(a, o);
        *last = e->n;
    }
    cd_player_event_rows_free(&rows);
    *entries = a;
    return PE_OK;
}

/* read_page on the notify thread's connection, one retry for a connection gone stale. */
static pe_result read_page_notify(const cd_config *cfg, const char *player, int after, json_t **entries, int *last)
{
    pe_result pr = PE_DOWN;
    for (int attempt = 0; attempt < 2 && pr == PE_DOWN; attempt++) {
        char err[256];
        cd_db *db = cd_db_thread(cfg, err, sizeof err);
        pr = db ? read_page(db, player, after, entries, last) : PE_DOWN;
    }
    return pr;
}

static json_t *answer(const char *player, int last, json_t *entries)
{
    return json_pack("{s:s, s:i, s:o}", "player_id", player, "n", last, "entries", entries ? entries : json_array());
}

static json_t *problem_body(cd_problem pr, const char *detail)
{
    char type[64];
    snprintf(type, sizeof type, "/problems/%s", cd_problems[pr].slug);
    return json_pack("{s:s, s:s, s:i, s:s}", "type", type, "title", cd_problems[pr].title, "status",
                     cd_problems[pr].status, "detail", detail);
}

/* ---- long poll (as events.c's: the connection held outside libmicrohttpd, cd_req_hold) ---------------- */

typedef struct {
    cd_hold *h;
    const cd_config *cfg;
    char player[37];
    int after;
    double deadline;
    cd_notify_waiter w;
} poll_ctx;

/* On the notify thread; c stays valid while this runs (poll_done waits for it in cd_notify_cancel). */
static void poll_fire(void *arg, cd_notify_why why)
{
    poll_ctx *c = arg;
    if (why == CD_NOTIFY_SHUTDOWN) {
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
        return;
    }
    json_t *entries = NULL;
    int last = c->after;
    pe_result pr = read_page_notify(c->cfg, c->player, c->after, &entries, &last);
    if (pr != PE_OK) {
        cd_problem p = pr == PE_DOWN ? CD_P_UNAVAILABLE : CD_P_INTERNAL;
        cd_hold_reply_json(c->h, cd_problems[p].status,
                           problem_body(p, pr == PE_DOWN ? "the database cannot be reached"
                                                         : "an internal error occurred; it has been logged"));
        return;
    }
    if (json_array_size(entries) > 0 || why == CD_NOTIFY_DEADLINE || cd_now() >= c->deadline) {
        cd_hold_reply_json(c->h, 200, answer(c->player, last, entries));
        return;
    }
    json_decref(entries);   /* woken with nothing new (the listener reconnected): wait on */
    if (cd_notify_wait(&c->w, c->player, c->after, c->deadline, poll_fire, c) != 0)
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
}

/* On the park's thread: the connection is closed (answered, or the client went away). */
static void poll_done(void *arg, bool client_gone)
{
    (void)client_gone;
    poll_ctx *c = arg;
    cd_notify_cancel(&c->w);
    free(c);
}

static enum MHD_Result long_poll(cd_req *r, const char *player, int after, long wait)
{
    poll_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "out of memory");
    c->cfg = r->cfg;
    memcpy(c->player, player, sizeof c->player);
    c->after = after;
    c->deadline = cd_now() + (double)wait;
    c->h = cd_req_hold(r, true, poll_done, c);
    if (!c->h) {
        free(c);
        return cd_reply_unavailable(r, 0, "too many waiting requests");
    }
    if (cd_notify_wait(&c->w, c->player, after, c->deadline, poll_fire, c) != 0)
        cd_hold_reply_json(c->h, 503, problem_body(CD_P_UNAVAILABLE, "the server is shutting down"));
    cd_hold_start(c->h);
    return MHD_YES;
}

/* ---- Server-Sent Events (held like a long-poll; the unsent bytes are the park's) --------------------- */

typedef struct {
    cd_hold *h;
    const cd_config *cfg;
    char player[37];
    int after;   /* the notify thread's (set before the waiter is armed) */
    double end, next_keepalive;
    cd_notify_waiter w;
} sse_stream;

static void add_frames(cd_buf *b, json_t *entries)
{
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) {
        char head[96];
        snprintf(head, sizeof head, "id: %lld\nevent: %s\ndata: ",
                 (long long)json_integer_value(json_object_get(e, "n")), json_string_value(json_object_get(e, "kind")));
        char *data = cd_json_dumps(e, JSON_COMPACT);   /* compact JSON has no newline */
        if (!data)
            abort();
        cd_buf_str(b, head);
        cd_buf_str(b, data);
        cd_buf_str(b, "\n\n");
        free(data);
    }
}

static void sse_done(void *arg, bool client_gone)
{
    (void)client_gone;
    sse_stream *s = arg;
    cd_metrics_sse_streams(-1);
    cd_notify_cancel(&s->w);
    free(s);
}

/* On the notify thread: new entries, a keepalive, or the end. */
static void sse_fire(void *arg, cd_notify_why why)
{
    sse_stream *s = arg;
    cd_buf out = {0};
    bool end = why == CD_NOTIFY_SHUTDOWN;
    if (why == CD_NOTIFY_MOVE || why == CD_NOTIFY_RECONNECT) {
        for (int page = 0; !end && page < SSE_MAX_PAGES; page++) {
            json_t *entries = NULL;
            int last = s->after;
            if (read_page_notify(s->cfg, s->player, s->after, &entries, &last) != PE_OK) {
                end = true;   /* the client comes back with Last-Event-ID */
                break;
            }
            add_frames(&out, entries);
            size_t n = json_array_size(entries);
            json_decref(entries);
            s->after = last;
            if (n < EV_PAGE)
                break;
            if (page == SSE_MAX_PAGES - 1)
                end = true;
        }
    }
    double now = cd_now();
    if (now >= s->end)
        end = true;
    if (!end && now >= s->next_keepalive)
        cd_buf_str(&out, ": keepalive\n\n");
    if (out.len > 0)
        s->next_keepalive = now + SSE_KEEPALIVE_S;
    if (!end) {
        double deadline = s->next_keepalive < s->end ? s->next_keepalive : s->end;
        if (cd_notify_wait(&s->w, s->player, s->after, deadline, sse_fire, s) != 0)
            end = true;
    }
    if (!cd_hold_send(s->h, out.p, out.len, end, SSE_MAX_BUFFER) && !end)
        cd_hold_send(s->h, NULL, 0, true, 0);   /* a client that does not read: it comes back from its last */
    free(out.p);
}

static enum MHD_Result stream(cd_req *r, cd_db *db, const char *player, json_t *entries, int last, long wait)
{
    cd_buf out = {0};
    cd_buf_str(&out, "retry: 1000\n\n");
    int after = last;
    size_t n = json_array_size(entries);
    add_frames(&out, entries);
    json_decref(entries);
    pe_result pr = PE_OK;
    for (int pages = 1; n == EV_PAGE && pages < SSE_MAX_PAGES && pr == PE_OK; pages++) {   /* the backlog */
        pr = read_page(db, player, after, &entries, &after);
        if (pr == PE_OK) {
            n = json_array_size(entries);
            add_frames(&out, entries);
            json_decref(entries);
        }
    }
    if (pr != PE_OK) {
        free(out.p);
        return cd_reply_db_failure(r, pr == PE_DOWN, "the player's events could not be read");
    }
    sse_stream *s = calloc(1, sizeof *s);
    if (!s) {
        free(out.p);
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "out of memory");
    }
    s->cfg = r->cfg;
    memcpy(s->player, player, sizeof s->player);
    s->after = after;
    s->h = cd_req_hold(r, false, sse_done, s);
    if (!s->h) {
        free(out.p);
        free(s);
        return cd_reply_unavailable(r, 0, "too many waiting requests");
    }
    cd_metrics_sse_streams(1);   /* until sse_done */
    double now = cd_now();
    s->end = now + (double)wait;
    s->next_keepalive = now + SSE_KEEPALIVE_S;
    bool ended = wait == 0 || n == EV_PAGE;   /* a backlog too long for one stream: the client comes back */
    static const char *const headers[] = {"Cache-Control", "no-cache", "X-Accel-Buffering", "no", NULL};
    cd_hold_stream_begin(s->h, "text/event-stream", headers, out.p, out.len, ended);
    free(out.p);
    if (!ended) {
        double deadline = s->next_keepalive < s->end ? s->next_keepalive : s->end;
        if (cd_notify_wait(&s->w, s->player, s->after, deadline, sse_fire, s) != 0)
            cd_hold_send(s->h, NULL, 0, true, 0);
    }
    cd_hold_start(s->h);
    return MHD_YES;
}

static bool wants_sse(cd_req *r)
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

enum MHD_Result h_me_events(cd_req *r)
{
    if (!r->bearer || r->is_admin)
        return cd_reply_problem(r, r->is_admin ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs a player key (POST /v1/players)");
    bool sse = wants_sse(r);
    long after = 0, wait = sse ? r->cfg->max_wait_s : 0;
    const char *a = cd_req_arg(r, "after");
    if (a && !parse_int(a, 0, INT32_MAX, &after))
        return cd_reply_problem(r, CD_P_INVALID, "after",
                                "after: expected an integer >= 0 (the n of the last entry seen)");
    const char *last_id = sse ? cd_req_header(r, "Last-Event-ID") : NULL;
    if (last_id && !parse_int(last_id, 0, INT32_MAX, &after))
        return cd_reply_problem(r, CD_P_INVALID, "Last-Event-ID", "Last-Event-ID: expected the id of an event");
    const char *w = cd_req_arg(r, "wait");
    if (w && !parse_int(w, 0, r->cfg->max_wait_s, &wait))
        return cd_reply_problem(r, CD_P_INVALID, "wait", "wait: expected whole seconds from 0 to %d",
                                r->cfg->max_wait_s);
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char hash[CD_HEX256_LEN], player[37];
    cd_req_bearer_hash(r, hash);
    bool found = false;
    cd_q q = cd_player_by_key(db, hash, &found, player);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the player could not be read");
    if (!found)
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token is no player key");
    json_t *entries;
    int last;
    pe_result pr = read_page(db, player, (int)after, &entries, &last);
    if (pr != PE_OK)
        return cd_reply_db_failure(r, pr == PE_DOWN, "the player's events could not be read");
    if (sse)
        return stream(r, db, player, entries, last, wait);
    if (json_array_size(entries) > 0 || wait == 0)
        return cd_reply_json(r, 200, answer(player, last, entries), NULL);
    json_decref(entries);
    return long_poll(r, player, (int)after, wait);
}
