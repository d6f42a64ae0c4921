/*
 * notify.h — waking long-polls and event streams when a move lands.
 *
 * Every committed move runs pg_notify('carcd_moves', '<game id>:<seq>') inside its transaction (ST_NOTIFY_MOVE),
 * so PostgreSQL delivers the notification exactly when the move becomes visible. One thread of carcd, the
 * notify thread, LISTENs on a connection of its own — while a waiter waits, and CARCD_LISTEN_LINGER seconds
 * after the last one went: a NOTIFY nobody listens to costs PostgreSQL little — and keeps a registry of
 * waiters keyed by game id. A waiter is fired — its callback runs, once, on the notify thread — when
 *   - a notification for its game carries a seq greater than the waiter's after_seq   (CD_NOTIFY_MOVE),
 *     or, for a waiter that also waits for messages (cd_notify_wait_msgs), a message id greater than its
 *     after_msg: a message ('<game id>:m<id>', db/messages.c) is no move and has no seq of its own, so it
 *     wakes only the waiters that asked for messages, with CD_NOTIFY_MOVE too ("look again"),
 *   - its deadline passes                                                            (CD_NOTIFY_DEADLINE),
 *   - a LISTEN took effect (the first waiter after a quiet spell, or the connection was lost and made again),
 *     so notifications may have been missed: every waiter is fired then, and its callback looks at the
 *     database itself                                                                 (CD_NOTIFY_RECONNECT),
 *   - carcd stops (cd_notify_stop): every waiter is fired and none is accepted after    (CD_NOTIFY_SHUTDOWN).
 * A waiter registered just after a notification for its game went by (the window between a handler's query
 * and its cd_notify_wait) is fired at once: the registry remembers each game's newest notified seq for a
 * while (CD_NOTIFY_MEMORY_S).
 *
 * Callbacks run one after another on the notify thread, with no lock held; they may call cd_notify_wait
 * (re-arm the same waiter, e.g. a stream waiting for its next move) and cd_db_thread, which on this thread is
 * the notify thread's own second connection — never the LISTENing one, so queries made for woken requests
 * cannot swallow notifications. They must be short: one indexed read and a resume.
 *
 * Waiter storage belongs to the caller (embed a cd_notify_waiter in the request's context); it must stay
 * valid until the callback has run, or until cd_notify_cancel has returned. cd_notify_cancel may be called
 * from any thread at any time — before, during or after the callback — and when it returns, the callback
 * is not running and will not run, so the storage may be freed.
 */
#ifndef CD_NOTIFY_H
#define CD_NOTIFY_H

#include <stdbool.h>

#include "base/config.h"

#define CD_NOTIFY_CHANNEL "carcd_moves"
#define CD_NOTIFY_MEMORY_S 30.0   /* how long a game's newest notified seq is remembered */

typedef enum {
    CD_NOTIFY_MOVE,        /* a move after after_seq was committed in the game */
    CD_NOTIFY_DEADLINE,    /* the deadline passed */
    CD_NOTIFY_RECONNECT,   /* the listener reconnected: moves may have been missed, look */
    CD_NOTIFY_SHUTDOWN,    /* carcd is stopping: answer now, do not re-arm */
} cd_notify_why;

typedef void (*cd_notify_fn)(void *arg, cd_notify_why why);

/* Caller-owned storage of one waiter. The members are the registry's: zero it once (or let
 * cd_notify_wait initialise it) and touch nothing else. */
typedef struct cd_notify_waiter {
    char game[37];                 /* lower-case uuid */
    int after_seq;
    long long after_msg;           /* -1: moves only */
    double deadline;               /* cd_now() seconds */
    cd_notify_fn fn;
    void *arg;
    int state;                     /* idle, waiting, due */
    cd_notify_why why;             /* when due */
    struct cd_notify_waiter *prev, *next;   /* in its game's list, or in the due queue */
    void *node;                    /* its game's registry entry while waiting */
    long heap_idx;                 /* position in the deadline heap while waiting */
} cd_notify_waiter;

/* Starts the notify thread (it connects, and keeps reconnecting, by itself: a database that is down now is
 * not an error). 0, or -1 when the thread cannot be started. cfg must outlive cd_notify_stop. */
int cd_notify_start(const cd_config *cfg);
/* fn runs on the notify thread every few seconds, no lock held (main gives it cd_http_release_memory); set it
 * before cd_notify_start. */
void cd_notify_on_housekeeping(void (*fn)(void));
/* Fires every waiter with CD_NOTIFY_SHUTDOWN, refuses new ones, and joins the thread. Call it before the HTTP
 * server stops: the callbacks resume suspended requests, and MHD must not stop with any suspended. */
void cd_notify_stop(void);
bool cd_notify_running(void);

/* Registers (or re-arms, from its own callback) waiter w for moves of game_id after after_seq, until
 * `deadline` (cd_now() seconds). 0, or -1 when the notify thread is not running (then fn will not be called).
 * From any thread. */
int cd_notify_wait(cd_notify_waiter *w, const char *game_id, int after_seq, double deadline, cd_notify_fn fn,
                   void *arg);
/* cd_notify_wait that also fires for a message of the game with an id above after_msg (>= 0). */
int cd_notify_wait_msgs(cd_notify_waiter *w, const char *game_id, int after_seq, long long after_msg,
                        double deadline, cd_notify_fn fn, void *arg);
/* Unregisters w. Returns true when the callback had not run and now never will; false when it already ran,
 * or was running and has returned by now (from the callback itself: is still running). Safe on a zeroed
 * waiter that was never registered. */
bool cd_notify_cancel(cd_notify_waiter *w);

/* Counters for tests and metrics. */
typedef struct {
    long waiting;          /* waiters registered now */
    long notifications;    /* notifications received */
    long fired;            /* callbacks run */
    long reconnects;       /* times the listener connected after having lost its connection */
    bool connected;        /* the listening connection is up (it LISTENs only while waited on) */
    bool listening;        /* LISTEN is in effect now */
} cd_notify_stats;
void cd_notify_get_stats(cd_notify_stats *s);

#endif
