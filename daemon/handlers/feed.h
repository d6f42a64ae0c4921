/*
 * feed.h — the waiting half of a feed of entries read by cursor: a long poll or a Server-Sent Events stream,
 * held outside libmicrohttpd (cd_req_hold, http.h) and woken by the notify thread (db/notify.h).
 *
 * Two endpoints are feeds: a game's log (events.c: moves, and messages with messages_after) and a player's
 * events (me_events.c). Each says how to read a page after a cursor, how to frame a page as SSE and how to
 * answer a long poll (cd_feed_kind); the parts they share — the held request, the waiter armed on the notify
 * thread, the read there with one retry for a stale connection, the stream's backlog, keepalives, end and
 * buffer bound — are here, once.
 *
 * Costs. A waiting long poll keeps a feed_poll (about 200 bytes with its waiter) and the held socket; a
 * stream a feed_stream (the same) and the bytes a slow client has not taken yet, up to CD_FEED_MAX_BUFFER,
 * past which the stream ends and the client comes back with Last-Event-ID.
 */
#ifndef CD_HANDLERS_FEED_H
#define CD_HANDLERS_FEED_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/crypto.h"
#include "handlers.h"

#define CD_FEED_KEEPALIVE_S 15.0
#define CD_FEED_MAX_PAGES 20              /* a stream's backlog: more and it ends early (the client comes back) */
#define CD_FEED_MAX_BUFFER (1u << 20)     /* unsent bytes of a stream: more and it ends (the client comes back) */

/* Where a reader is: after entry (or move seq) `after`, and after message id `mafter` (-1: no messages). */
typedef struct {
    int after;
    long long mafter;
} cd_feed_cursor;

struct cd_feed_kind;

/* What is read: the game's or the player's id (a lower-case uuid: the notify registry's key) and, for a
 * game, the viewer whose view of the log is read. A seat's feed also keeps its token's hash: a wait outlives
 * the seat's number (a leave before the start renumbers the seats after it) and its token (a new one given),
 * so every read asks again which seat the token is (events.c). */
typedef struct {
    const struct cd_feed_kind *kind;
    char id[37];
    int viewer;
    char seat_token_hash[CD_HEX256_LEN];   /* "" but for a seat (viewer >= 0) */
} cd_feed_src;

typedef struct cd_feed_kind {
    /* Reads the page after *cur into *entries (a new array) and moves *cur past it; the cursor is left as it
     * was on a failure. */
    cd_load_result (*read)(cd_db *db, const cd_feed_src *src, cd_feed_cursor *cur, json_t **entries);
    /* Appends one SSE frame per entry of a page read from cursor `from`. */
    void (*frames)(cd_buf *b, json_t *entries, cd_feed_cursor from);
    /* The long poll's 200 body for a page read up to cursor `cur` (takes entries). */
    json_t *(*answer)(const cd_feed_src *src, cd_feed_cursor cur, json_t *entries);
    /* A page of this many entries or more may have more behind it. */
    size_t page;
    /* What a failed read of the stream's backlog is said to be (cd_reply_db_failure's `what`). */
    const char *unreadable;
} cd_feed_kind;

/* Appends one SSE frame: `id: <id>`, `event: <event>`, `data: <entry as compact JSON>` (it has no newline). */
void cd_feed_frame(cd_buf *b, const char *id, const char *event, const json_t *entry);

/* Whether the request asks for a stream (Accept: text/event-stream). */
bool cd_feed_wants_sse(cd_req *r);

/* Holds the request until the feed has entries after `cur`, or for `wait` seconds (then 200 with none). */
enum MHD_Result cd_feed_long_poll(cd_req *r, const cd_feed_src *src, cd_feed_cursor cur, long wait);

/* Answers with a stream: `retry`, the frames of `entries` (the first page, read from `from` up to `to`, taken)
 * and the backlog after it, read on r's connection, then the frames of what comes for `wait` seconds. */
enum MHD_Result cd_feed_stream(cd_req *r, cd_db *db, const cd_feed_src *src, json_t *entries, cd_feed_cursor from,
                               cd_feed_cursor to, long wait);

#endif
