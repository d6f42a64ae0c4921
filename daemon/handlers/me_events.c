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
 * moves' channel. The waiting is feed.c's, as for a game's events: a long poll or a stream holds its
 * connection outside libmicrohttpd and registers a waiter for the player's id in the notify thread's registry
 * (notify.h; player and game ids are both uuids, so they share it), whose callback answers or writes the new
 * frames.
 *
 * Parameters: after (integer >= 0, default 0: every event kept), wait (0..cfg->max_wait_s; a stream's
 * default is max_wait_s, a long poll's 0); a stream takes Last-Event-ID as `after`. Frames: `id: <n>`,
 * `event: <kind>`, `data: <entry>`; `: keepalive` every CD_FEED_KEEPALIVE_S; the end after the wait bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_out.h"
#include "db/player_events.h"
#include "db/players.h"
#include "feed.h"
#include "handlers.h"

#define EV_PAGE 100

/* Up to EV_PAGE entries of the player after `after`: *entries (new array), *last. */
static cd_load_result read_page(cd_db *db, const char *player, int after, json_t **entries, int *last)
{
    cd_player_event_rows rows;
    cd_q q = cd_player_events_after(db, player, after, EV_PAGE, &rows);
    *entries = NULL;
    *last = after;
    if (q != CD_Q_OK)
        return q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
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
    return CD_LOAD_OK;
}

static json_t *answer(const char *player, int last, json_t *entries)
{
    return json_pack("{s:s, s:i, s:o}", "player_id", player, "n", last, "entries", entries ? entries : json_array());
}

/* SSE frames: `id: <n>`, `event: <kind>`, the entry. */
static void add_frames(cd_buf *b, json_t *entries, cd_feed_cursor from)
{
    (void)from;   /* each entry carries its own number */
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) {
        char id[24];
        snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(e, "n")));
        cd_feed_frame(b, id, json_string_value(json_object_get(e, "kind")), e);
    }
}

/* ---- the player's events as a feed (feed.h) ---------------------------------------------------------- */

static cd_load_result feed_read(cd_db *db, const cd_feed_src *src, cd_feed_cursor *cur, json_t **entries)
{
    int last;
    cd_load_result lr = read_page(db, src->id, cur->after, entries, &last);
    if (lr == CD_LOAD_OK)
        cur->after = last;
    return lr;
}

static json_t *feed_answer(const cd_feed_src *src, cd_feed_cursor cur, json_t *entries)
{
    return answer(src->id, cur.after, entries);
}

static const cd_feed_kind player_events = {feed_read, add_frames, feed_answer, EV_PAGE,
                                           "the player's events could not be read"};

enum MHD_Result h_me_events(cd_req *r)
{
    if (!r->bearer || r->is_admin)
        return cd_reply_problem(r, r->is_admin ? CD_P_FORBIDDEN : CD_P_UNAUTHENTICATED, "Authorization",
                                "this needs a player key (POST /v1/players)");
    bool sse = cd_feed_wants_sse(r);
    long after = 0, wait = sse ? r->cfg->max_wait_s : 0;
    const char *a = cd_req_arg(r, "after");
    if (a && !cd_parse_long(a, 0, INT32_MAX, &after))
        return cd_reply_problem(r, CD_P_INVALID, "after",
                                "after: expected an integer >= 0 (the n of the last entry seen)");
    const char *last_id = sse ? cd_req_header(r, "Last-Event-ID") : NULL;
    if (last_id && !cd_parse_long(last_id, 0, INT32_MAX, &after))
        return cd_reply_problem(r, CD_P_INVALID, "Last-Event-ID", "Last-Event-ID: expected the id of an event");
    const char *w = cd_req_arg(r, "wait");
    if (w && !cd_parse_long(w, 0, r->cfg->max_wait_s, &wait))
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
    cd_load_result lr = read_page(db, player, (int)after, &entries, &last);
    if (lr != CD_LOAD_OK)
        return cd_reply_db_failure(r, lr == CD_LOAD_UNAVAILABLE, "the player's events could not be read");
    cd_feed_src src = {.kind = &player_events, .viewer = -1};
    memcpy(src.id, player, sizeof src.id);
    if (sse)
        return cd_feed_stream(r, db, &src, entries, (cd_feed_cursor){(int)after, -1}, (cd_feed_cursor){last, -1},
                              wait);
    if (json_array_size(entries) > 0 || wait == 0)
        return cd_reply_json(r, 200, answer(player, last, entries), NULL);
    json_decref(entries);
    return cd_feed_long_poll(r, &src, (cd_feed_cursor){(int)after, -1}, wait);
}
