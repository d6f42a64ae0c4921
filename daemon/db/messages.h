/*
 * messages.h — the game_messages and message_mutes tables (sql/012): table talk between the seats of a game,
 * written by POST /v1/games/{id}/messages or a `say` reply mail, read by GET .../messages, the events
 * stream, the turn mails; mutes a seat set for itself; the admin's hide.
 */
#ifndef CD_DB_MESSAGES_H
#define CD_DB_MESSAGES_H

#include <stdbool.h>

#include "base/ids.h"   /* CD_NAME_BYTES */
#include "db.h"

struct pg_result;

/* ST_MSG_SEAT_LOCK, inside cd_db_tx: locks the author's seat row, so that one seat's posts are counted one
 * after another (the rate limit cannot be raced past by posting in parallel). *found false: no such seat, or it
 * is no longer the seat of the bearer whose token or player key hashes to bearer_hash (NULL: not asked; an earlier
 * seat left the waiting game and this one moved down, db/games_table.h's cd_seat_hold). */
cd_q cd_msg_seat_lock(cd_db *db, const char *game_id, int seat, const char *bearer_hash, bool *found);

/* What ST_MSG_INSERT did: the message's id, the game's seq it was written at, its time (ISO 8601) and the
 * author's name; or,
 * when the seat had `max` messages in the window already, inserted false and retry_s the seconds until the
 * oldest of them leaves it. */
typedef struct {
    bool inserted;
    long long id;
    int seq;
    char at[32];
    char name[CD_NAME_BYTES + 1];   /* the author's seat name */
    double retry_s;
} cd_msg_inserted;

/* ST_MSG_INSERT: the message, unless seat wrote `max` messages in the `window_s` seconds before `now` (epoch
 * seconds, carcd's clock). origin "api" or "mail". Run after cd_msg_seat_lock in the same transaction. */
cd_q cd_msg_insert(cd_db *db, const char *game_id, int seat, const char *text, const char *origin, double now,
                   double window_s, int max, cd_msg_inserted *out);

/* Queues (cd_db_defer) the NOTIFY "<game id>:m<id>" that wakes the game's streams waiting for messages. */
bool cd_msg_notify_deferred(cd_db *db, const char *game_id, long long id);

/* One message as a reader gets it (ST_MSG_AFTER); the strings live as long as the rows. */
typedef struct {
    long long id;
    int seat;
    const char *name;      /* the author's seat name */
    int seq;               /* the game's seq when it was written */
    const char *text;
    const char *at;        /* ISO 8601 UTC */
    bool hidden;           /* the admin hid it (only the admin's reading holds such rows visibly) */
    bool visible;          /* false: muted by the reader or hidden; the row only moves the cursor */
} cd_msg_row;

typedef struct {
    int n;
    cd_msg_row *v;
    struct pg_result *res;
} cd_msg_rows;

/* ST_MSG_AFTER: up to `limit` messages of the game after id `after`, in order. reader_seat >= 0: that seat's
 * mutes make rows invisible; with_hidden: the admin, for whom hidden rows stay visible (hidden true). */
cd_q cd_msgs_after(cd_db *db, const char *game_id, long long after, int reader_seat, bool with_hidden, int limit,
                   cd_msg_rows *out);
/* ST_MSG_FOR_MAIL: the last `limit` messages of the other seats since seat's previous turn mail (written
 * at that mail's seq or later; all, with no such mail), oldest first, without the hidden ones and those of
 * seats it muted (every row visible). */
cd_q cd_msgs_for_mail(cd_db *db, const char *game_id, int seat, int limit, cd_msg_rows *out);
void cd_msg_rows_free(cd_msg_rows *rows);

/* ST_MSG_GAME_CHAT: whether the game exists (*found) and was created with public_chat. */
cd_q cd_msg_game_chat(cd_db *db, const char *game_id, bool *found, bool *public_chat);
/* ST_MSG_PUBLIC_CHAT_SET: the new game's public_chat (games_create.c, in its transaction). */
cd_q cd_msg_public_chat_set(cd_db *db, const char *game_id);

/* ST_MSG_HIDE: hides message id of the game (at `now`, epoch seconds; a hidden one stays as it was).
 * *found false: the game has no such message; *seat its author, *was_hidden whether it was already. */
cd_q cd_msg_hide(cd_db *db, const char *game_id, long long id, double now, bool *found, int *seat, bool *was_hidden);

/* ST_MUTE_PUT / ST_MUTE_DELETE: seat mutes (unmutes) muted for itself. */
cd_q cd_mute_put(cd_db *db, const char *game_id, int seat, int muted);
cd_q cd_mute_delete(cd_db *db, const char *game_id, int seat, int muted);
/* ST_MUTES_OF: the seats `seat` muted, as a bit set (bit i: seat i). */
cd_q cd_mutes_of(cd_db *db, const char *game_id, int seat, unsigned *bits);

#endif
