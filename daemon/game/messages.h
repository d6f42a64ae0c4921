/*
 * messages.h — table talk, the game service's part: what a message may say, posting one (the rate limit, the
 * NOTIFY that wakes the streams, the message.posted webhooks, all in one transaction), and a message as JSON.
 * POST /v1/games/{id}/messages (handlers/messages_post.c) and a `say` reply mail (mailin/) post through here.
 *
 * A message is text, and never a move: it is not in the move log, does not change the game's seq (so no
 * view's ETag), and carries nothing but its author seat, the text, its time and the seq it was written at.
 *
 * What a text may be: 1 to CD_MSG_MAX_CHARS characters (Unicode code points, not bytes) of valid UTF-8, not
 * only white space, with no control character but the line feed (a chat line may hold "\n": "away until
 * Monday\nback on Tuesday"; CR, tab, NUL, DEL and the C1 controls are refused) and none of the bidirectional
 * embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069), which would make a message
 * read differently from what it says. The text is stored and served exactly as sent; every reader escapes it
 * for where it shows it (the page uses textContent, the chat webhooks escape Markdown, the mails are plain
 * text).
 *
 * Rate limit: a seat may post CD_MSG_RATE_MAX messages within CD_MSG_RATE_WINDOW_S seconds, counted in the
 * database (every carcd process sees the same count) under a lock of the author's seat row, so parallel posts
 * cannot race past it; the next is refused with 429 and Retry-After until the oldest leaves the window.
 */
#ifndef CD_GAME_MESSAGES_H
#define CD_GAME_MESSAGES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/db.h"
#include "db/messages.h"

#define CD_MSG_MAX_CHARS 1000
#define CD_MSG_RATE_MAX 8
#define CD_MSG_RATE_WINDOW_S 60.0

/* Whether text (NUL-terminated, len bytes) may be a message; false with why (a sentence) when not. */
bool cd_msg_text_ok(const char *text, size_t len, char *why, size_t whylen);

typedef enum {
    CD_MSG_POSTED,
    CD_MSG_RATE_LIMITED,   /* *retry_s says when */
    CD_MSG_NO_SEAT,        /* the game has no such seat, or it is no longer the bearer's (it moved down) */
    CD_MSG_FAILED,         /* the database: *down says whether it is unreachable */
} cd_msg_post_result;

/* Posts text (checked with cd_msg_text_ok already) as `seat` of game_id: one transaction (cd_db_tx) that
 * locks the seat (still the seat of the bearer whose token or key hashes to bearer_hash), counts and inserts,
 * queues the NOTIFY and the message.posted webhooks. origin "api" or "mail"; now: carcd's wall clock. On
 * CD_MSG_POSTED *out (when non-NULL) is the new message's JSON. */
cd_msg_post_result cd_msg_post(cd_db *db, const char *game_id, int seat, const char *bearer_hash, const char *text,
                               const char *origin, double now, json_t **out, double *retry_s, bool *down);

/* The same inside the caller's transaction (a `say` reply mail, mailin/, under its game lock): CD_TX_COMMIT
 * with *res CD_MSG_POSTED (and *ins the new row), CD_TX_ROLLBACK with *res CD_MSG_RATE_LIMITED or
 * CD_MSG_NO_SEAT (nothing written), CD_TX_ERROR when a statement failed. */
cd_tx_result cd_msg_post_tx(cd_db *db, const char *game_id, int seat, const char *text, const char *origin,
                            double now, cd_msg_post_result *res, cd_msg_inserted *ins);

/* A message as readers get it: {"id", "seat", "name", "seq", "text", "at"}, and "hidden" for the admin. */
json_t *cd_msg_json(const cd_msg_row *m, bool admin);

#endif
