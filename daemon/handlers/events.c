/*
 * events.c — GET /v1/games/{id}/events?after=N&wait=S: the log of a game as one viewer may see it, by long
 * poll or as Server-Sent Events.
 *
 * The answer is {"game":"<id>","seq":n,"entries":[{"seq":n,"seat":s|null,"events":[...]}, ...]} ("by":
 * "clock" on the moves a turn clock made for a seat that ran out of time, "bot" on a bot's moves; "by": "admin",
 * "cancelled": true and the admin's "reason" on the last entry of a cancelled game; the move's "notation" and,
 * for a move that puts or takes a figure, its "feature", "sides" and "label", as the log names them; a decision
 * with one legal move that the engine made is a forced_move event, "by": "forced", in the entry of the move
 * before it): the moves
 * after seq `after`, at most EV_PAGE of them, oldest first, each with its events filtered for the viewer
 * (carc_events_json_filter over the admin rendering: derived by replay, game/move_log.h). "seq" is the last entry's seq,
 * or `after` when there is none: a client pages and polls with after=<seq of the previous answer>.
 *
 * Parameters
 *   after   an integer >= -1, default -1. Entry 0 holds the opening events (the start tile, the first draw),
 *           so after=-1 gives the whole log and after=0 everything since the game was created.
 *   wait    whole seconds, 0..cfg->max_wait_s, default 0 (answer at once). With wait > 0 and nothing after
 *           `after`, the answer waits until a move lands (then it holds that move) or the wait is over (then
 *           "entries" is empty, still 200).
 *   The viewer is the bearer token's (a seat or the admin) or, without one, the public.
 *
 * Messages (game/messages.h), when the request asks for them with messages_after=M (the last message id seen,
 * 0 for all; or a Last-Event-ID of the form "<seq>.<M>"): the entries then also hold the messages after id M
 * that the viewer may read (a seat: not those of seats it muted; never hidden ones but for the admin; the
 * public: only in a game created with "public_chat": true), each as {"type": "message", "seq": <the game's
 * seq when it was written>, "seat": <author>, "message": {...}}, placed after the move of that seq and before
 * the next, and the answer has "messages_last": the highest message id it passed (muted and hidden ones
 * included), the message cursor, beside "seq", the move cursor. A message is no move: it does not change
 * "seq", and a request without messages_after gets exactly the moves, as before. With messages_after a
 * long poll waiting for seq > N wakes for a message too (notify.h: the waiter waits for both), answers it,
 * and the client polls on with after=<seq>&messages_after=<messages_last>. A page holds at most EV_PAGE moves
 * and EV_PAGE messages, cut where one of them is full so that the order holds. In a stream each frame's id is
 * "<seq>.<messages_last>" then (Last-Event-ID gives both back), message frames are `event: message`.
 *
 * Waiting (wait > 0 with nothing after `after`: a long poll) and streaming (Accept: text/event-stream) are
 * feed.c's: the connection is held outside libmicrohttpd and a waiter for this game is woken by the notify
 * thread. A stream is `retry: 1000`, then one event per entry — `id: <seq>` (with messages "<seq>.<message
 * id>"), `event: move` or `event: message`, `data: <entry as JSON>` — a `: keepalive` comment every
 * CD_FEED_KEEPALIVE_S seconds, and its end after the wait bound (?wait, else cfg->max_wait_s), so that the
 * client reconnects, sending Last-Event-ID (taken as `after`; it overrides ?after).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audit.h"
#include "base/buf.h"
#include "base/json_out.h"
#include "game/games.h"
#include "feed.h"
#include "handlers.h"
#include "base/log.h"
#include "db/games_table.h"
#include "game/move_log.h"
#include "db/messages.h"
#include "game/messages.h"

#define EV_PAGE 100              /* entries per answer, and per read of a stream */

/* ---- reading the log ---------------------------------------------------------------------------------- */

/* Copies the self-description of a move (its notation and, for a move that puts or takes a figure, its
 * feature, sides and label) into its entry. A move stored before moves described themselves, a resignation or
 * the opening entry has none. Every member is public: what a move says is what its public events show. */
static void describe_entry(json_t *entry, const json_t *move)
{
    static const char *const keys[] = {"notation", "feature", "sides", "label"};
    if (!json_object_get(move, "notation"))
        return;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *v = json_object_get(move, keys[k]);
        if (v)
            json_object_set(entry, keys[k], v);
    }
}

/* The entry of the admin's cancel (admin_cancel.c): "by": "admin", "cancelled": true and the reason given. */
static void cancel_entry(json_t *entry, const json_t *move)
{
    json_object_set_new(entry, "by", json_string("admin"));
    json_object_set_new(entry, "cancelled", json_true());
    json_t *reason = json_object_get(move, "reason");
    if (json_is_string(reason))
        json_object_set(entry, "reason", reason);
}

/* A message as an entry of the log. */
static json_t *message_entry(const cd_msg_row *m, bool admin)
{
    return json_pack("{s:s, s:i, s:i, s:o}", "type", "message", "seq", m->seq, "seat", m->seat, "message",
                     cd_msg_json(m, admin));
}

/* Up to EV_PAGE entries after `after` as `viewer` sees them: *entries (new array) and *last (the last seq,
 * or `after` when there is none); with *mlast >= 0 the messages after it too, merged in order, *mlast moved
 * to the last one passed. The entries' events are the stored ones of rows written before
 * sql/010_compact_log.sql, else derived (game/move_log.h: from the event cache, or by replay). Messages cost
 * one more indexed read, of game_messages (game_id, id), with the reader's mutes looked up per row by their
 * primary key; a reader without messages_after pays nothing for them. */
static cd_load_result read_page(cd_db *db, const char *id, int after, int viewer, json_t **entries, int *last,
                                long long *mlast)
{
    cd_log_page page;
    cd_load_result lr = cd_log_page_read(db, id, after, EV_PAGE, &page);
    *entries = NULL;
    *last = after;
    if (lr != CD_LOAD_OK) {
        cd_log_page_free(&page);
        return lr;
    }
    cd_msg_rows msgs = {0};
    if (*mlast >= 0) {
        cd_q q = cd_msgs_after(db, id, *mlast, viewer >= 0 ? viewer : -1, viewer == CARC_VIEW_ADMIN, EV_PAGE, &msgs);
        if (q != CD_Q_OK) {
            cd_log_page_free(&page);
            return q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
        }
    }
    /* a full page of one kind ends where the other may go on: moves up to the last message's seq, messages up
     * to the last move's seq (a message written at seq s follows the move s) */
    int move_cap = msgs.n == EV_PAGE ? msgs.v[msgs.n - 1].seq : INT32_MAX;
    int msg_cap = page.n == EV_PAGE ? page.v[page.n - 1].seq : INT32_MAX;
    int k = 0;   /* the next message */
    json_t *a = json_array();
    for (int i = 0; i <= page.n; i++) {
        int upto = i < page.n ? page.v[i].seq - 1 : msg_cap;   /* the messages before this move */
        if (i < page.n && page.v[i].seq > move_cap)
            upto = move_cap < msg_cap ? move_cap : msg_cap;
        for (; k < msgs.n && msgs.v[k].seq <= upto; k++) {
            if (msgs.v[k].visible)
                json_array_append_new(a, message_entry(&msgs.v[k], viewer == CARC_VIEW_ADMIN));
            *mlast = msgs.v[k].id;
        }
        if (i == page.n || page.v[i].seq > move_cap)
            break;
        const cd_log_entry *m = &page.v[i];
        json_t *e = json_object();
        json_object_set_new(e, "seq", json_integer(m->seq));
        json_object_set_new(e, "seat", m->has_seat ? json_integer(m->seat) : json_null());
        describe_entry(e, m->move);
        json_object_set_new(e, "events", carc_events_json_filter(m->events, viewer));
        /* the turn clock moved for a seat out of time, or a bot moved (clock/bot_worker.h) */
        if (m->clock || m->bot)
            json_object_set_new(e, "by", json_string(m->clock ? "clock" : "bot"));
        else if (m->cancel)   /* the admin cancelled the game: its last entry */
            cancel_entry(e, m->move);
        json_array_append_new(a, e);
        *last = m->seq;
    }
    cd_log_page_free(&page);
    cd_msg_rows_free(&msgs);
    *entries = a;
    return CD_LOAD_OK;
}

/* mlast < 0: the reader does not read messages, and the answer has no "messages_last" */
static json_t *answer(const char *id, int last, json_t *entries, long long mlast)
{
    json_t *o = json_pack("{s:s, s:i, s:o}", "game", id, "seq", last, "entries", entries ? entries : json_array());
    if (mlast >= 0)
        json_object_set_new(o, "messages_last", json_integer((json_int_t)mlast));
    return o;
}

/* Whether the game exists (its seats: every game has at least two). 1, 0, or -1 with *lr. */
static int game_exists(cd_db *db, const char *id, cd_load_result *lr)
{
    int n = 0;
    cd_q q = cd_seats_count(db, id, &n);
    if (q != CD_Q_OK) {
        *lr = q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
        return -1;
    }
    return n > 0;
}

/* One SSE event per entry; its id is the cursor after it: the seq of the last move sent ("<seq>"), and with
 * messages (m_before >= 0) the id of the last message sent too ("<seq>.<message id>"), starting from the
 * cursors before these entries. A reconnect with any frame's id misses nothing and repeats nothing. */
static void add_frames(cd_buf *b, json_t *entries, int seq_before, long long m_before)
{
    size_t i;
    json_t *e;
    int seq = seq_before;
    long long mid = m_before;
    json_array_foreach(entries, i, e) {
        char id[48];
        json_t *msg = json_object_get(e, "message");
        if (msg)
            mid = (long long)json_integer_value(json_object_get(msg, "id"));
        else
            seq = (int)json_integer_value(json_object_get(e, "seq"));
        if (m_before < 0)
            snprintf(id, sizeof id, "%d", seq);
        else
            snprintf(id, sizeof id, "%d.%lld", seq, mid);
        cd_feed_frame(b, id, msg ? "message" : "move", e);
    }
}

/* ---- the log as a feed (feed.h) ---------------------------------------------------------------------- */

/* A seat's wait reads as the seat its token is now: a leave before the start renumbers the seats after it, and
 * the events of the start deal each seat its own hidden tiles (one statement more a read, for seats only). */
static cd_load_result feed_read(cd_db *db, const cd_feed_src *src, cd_feed_cursor *cur, json_t **entries)
{
    int viewer = src->viewer;
    if (src->seat_token_hash[0]) {
        cd_token_seat token;
        cd_q q = cd_token_lookup(db, src->seat_token_hash, src->id, &token);
        if (q != CD_Q_OK)
            return q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
        if (!token.found || !token.same_game)
            return CD_LOAD_SEAT_GONE;
        viewer = token.seat;
    }
    int last;
    long long mlast = cur->mafter;
    cd_load_result lr = read_page(db, src->id, cur->after, viewer, entries, &last, &mlast);
    if (lr == CD_LOAD_OK)
        *cur = (cd_feed_cursor){last, mlast};
    return lr;
}

static void feed_frames(cd_buf *b, json_t *entries, cd_feed_cursor from)
{
    add_frames(b, entries, from.after, from.mafter);
}

static json_t *feed_answer(const cd_feed_src *src, cd_feed_cursor cur, json_t *entries)
{
    return answer(src->id, cur.after, entries, cur.mafter);
}

/* with messages a page holds up to 2 * EV_PAGE entries: EV_PAGE or more means either kind may go on */
static const cd_feed_kind game_log = {feed_read, feed_frames, feed_answer, EV_PAGE, "the game could not be loaded"};

/* ---- the handler -------------------------------------------------------------------------------------- */

enum MHD_Result h_events(cd_req *r)
{
    const char *raw_id = r->params[0];
    if (!cd_uuid_valid(raw_id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = raw_id;
    char id[37];
    for (int i = 0; i < 37; i++)
        id[i] = (char)tolower((unsigned char)raw_id[i]);

    bool sse = cd_feed_wants_sse(r);
    long after = -1, wait = sse ? r->cfg->max_wait_s : 0;
    const char *a = cd_req_arg(r, "after");
    if (a && !cd_parse_long(a, -1, INT32_MAX, &after))
        return cd_reply_problem(r, CD_P_INVALID, "after",
                                "after: expected an integer >= -1 (the seq of the last entry seen; -1 for all)");
    long long mafter = -1;   /* -1: moves only */
    const char *ma = cd_req_arg(r, "messages_after");
    long mv;
    if (ma && !cd_parse_long(ma, 0, LONG_MAX, &mv))
        return cd_reply_problem(r, CD_P_INVALID, "messages_after",
                                "messages_after: expected an integer >= 0 (the id of the last message seen; 0 for all)");
    if (ma)
        mafter = mv;
    const char *last_id = sse ? cd_req_header(r, "Last-Event-ID") : NULL;
    if (last_id) {   /* "<seq>" or "<seq>.<message id>" */
        char seq_part[24];
        const char *dot = strchr(last_id, '.');
        size_t k = dot ? (size_t)(dot - last_id) : strlen(last_id);
        snprintf(seq_part, sizeof seq_part, "%.*s", (int)(k < sizeof seq_part ? k : sizeof seq_part - 1), last_id);
        if (k >= sizeof seq_part || !cd_parse_long(seq_part, -1, INT32_MAX, &after) ||
            (dot && !cd_parse_long(dot + 1, 0, LONG_MAX, &mv)))
            return cd_reply_problem(r, CD_P_INVALID, "Last-Event-ID", "Last-Event-ID: expected the id of an event");
        if (dot)
            mafter = mv;
    }
    const char *w = cd_req_arg(r, "wait");
    if (w && !cd_parse_long(w, 0, r->cfg->max_wait_s, &wait))
        return cd_reply_problem(r, CD_P_INVALID, "wait", "wait: expected whole seconds from 0 to %d",
                                r->cfg->max_wait_s);

    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    int viewer;
    cd_feed_src src = {.kind = &game_log};
    if (!cd_viewer_shown(r, db, id, &viewer, src.seat_token_hash))
        return MHD_YES;
    if (viewer == CARC_VIEW_ADMIN && !cd_audit(r, db, NULL, id, json_pack("{s:i}", "after", (int)after)))
        return MHD_YES;
    long long mread = mafter;   /* what read_page is given: -1 also for a spectator of a closed chat */
    if (mafter >= 0 && viewer == CARC_VIEW_PUBLIC) {
        bool found = false, open = false;
        cd_q q = cd_msg_game_chat(db, id, &found, &open);
        if (q != CD_Q_OK)
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
        if (!open)
            mread = -1;   /* spectators see no message of a game without public_chat (and the game may not exist) */
    }
    json_t *entries;
    int last;
    long long mlast = mread;
    cd_load_result lr = read_page(db, id, (int)after, viewer, &entries, &last, &mlast);
    if (mafter >= 0 && mread < 0)
        mlast = mafter;   /* the cursor as given: nothing was read */
    if (lr != CD_LOAD_OK)
        return cd_reply_load_error(r, lr);
    if (json_array_size(entries) == 0 && viewer < 0) {   /* a seat's token already proved the game exists */
        int e = game_exists(db, id, &lr);
        if (e <= 0) {
            json_decref(entries);
            return cd_reply_load_error(r, e < 0 ? lr : CD_LOAD_NOT_FOUND);
        }
    }
    src.viewer = viewer;
    memcpy(src.id, id, sizeof src.id);
    long long mwait = mread < 0 ? -1 : mlast;   /* the message cursor a wait goes on from: none when none read */
    if (sse)
        return cd_feed_stream(r, db, &src, entries, (cd_feed_cursor){(int)after, mread},
                              (cd_feed_cursor){last, mwait}, wait);
    if (json_array_size(entries) > 0 || wait == 0)
        return cd_reply_json(r, 200, answer(id, last, entries, mlast), NULL);
    json_decref(entries);
    return cd_feed_long_poll(r, &src, (cd_feed_cursor){(int)after, mwait}, wait);
}
