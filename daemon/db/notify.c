/*
 * notify.c — the notify thread: LISTEN carcd_moves on a connection of its own, a registry of waiters by game,
 * a deadline timer, and the callbacks that answer long-polls and feed event streams (see notify.h).
 *
 * One thread does everything here, so the registry needs a lock only because other threads register and
 * cancel waiters. The loop:
 *   1. no listening connection?  connect (cd_db_connect), SET application_name. On failure try again a second
 *      later; deadlines are kept meanwhile.
 *   2. fire waiters whose deadline has passed (a binary heap ordered by deadline);
 *   3. run the callbacks of due waiters, without the lock;
 *   4. poll() the connection's socket and an eventfd (other threads wake us when they register a waiter),
 *      with a timeout up to the next deadline and at most 1 s, so a stop request and reconnects are timely;
 *   5. read notifications: "<game id>:<seq>" fires that game's waiters whose after_seq < seq; "<game id>:m<id>"
 *      (a message, db/messages.c) fires those that wait for messages (after_msg >= 0) with after_msg < id;
 *   6. LISTEN when a waiter waits and we do not; UNLISTEN when none has waited for CARCD_LISTEN_LINGER.
 * LISTEN only while waited on: a listening backend makes every move's NOTIFY cost PostgreSQL a signal and a
 * message, and this thread a wake-up and a read (together some 10 % of a move's CPU on both sides, measured
 * under bench/run-http-bench.sh's load, which has no waiters). Until a LISTEN is in effect a new waiter may
 * miss a notification (a move between its read and the LISTEN), so when it takes effect every waiter is fired
 * with CD_NOTIFY_RECONNECT and looks at the database itself, as after a lost connection.
 * A dead server shows as end-of-file on the socket (PQconsumeInput fails) whether we listen or not; a silent
 * one (a cut network) is caught by a ping: after 30 s without traffic the loop sends SELECT 1. One command
 * (ping, LISTEN, UNLISTEN) is outstanding at a time, and the connection is dropped if its answer does not come
 * within 10 s or is an error. Results are drained on the same connection; notifications that arrive meanwhile
 * are kept by libpq and read with PQnotifies as usual, so nothing is lost.
 *
 * Cancel against a firing callback: a waiter's state moves idle → waiting → due → idle under the lock, and
 * `firing_now` names the waiter whose callback is running. cd_notify_cancel waits on a condition variable
 * while its waiter's callback runs (unless called from that callback), then unlinks the waiter if it is
 * waiting or due — the callback may have re-armed it — so the caller may free the storage as soon as cancel
 * returns. The loop does not touch a waiter after its callback has returned.
 */
#include "notify.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "db.h"
#include "exec.h"
#include "base/log.h"
#include "base/timesrc.h"
#include "store.h"

static void (*housekeeping_fn)(void);   /* cd_notify_on_housekeeping */

#define NBUCKETS 1024
#define POLL_MAX_MS 1000
#define RECONNECT_S 1.0
#define PING_IDLE_S 30.0
#define CMD_TIMEOUT_S 10.0   /* for the answer to a ping, LISTEN or UNLISTEN */
#define HOUSEKEEP_S 5.0

enum { W_IDLE = 0, W_WAITING, W_DUE };

/* One game the registry knows: its waiters, and the newest seq notified for it lately. */
typedef struct game_node {
    char id[37];
    int last_seq;          /* -1: none seen */
    double last_t;         /* when last_seq was seen */
    long long last_msg;    /* the newest message id notified lately (messages.h); 0: none seen */
    double last_msg_t;
    cd_notify_waiter *head;
    struct game_node *next;   /* hash chain */
} game_node;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fired_cv = PTHREAD_COND_INITIALIZER;
static pthread_t thread;
static bool started;       /* the thread exists */
static bool accepting;     /* cd_notify_wait accepts waiters */
static bool stopping;      /* the thread should end */
static int wake_fd = -1;
static const cd_config *ncfg;

static game_node *buckets[NBUCKETS];
static cd_notify_waiter **heap;
static size_t heap_n, heap_cap;
static cd_notify_waiter *due_head, *due_tail;
static cd_notify_stats stats;
static _Thread_local bool tl_notify_thread;   /* this is the notify thread */
/* The waiter whose callback is running. It is tracked apart from the waiter's state: the callback may re-arm
 * its waiter (state waiting again) and still be using the memory the waiter lives in. */
static cd_notify_waiter *firing_now;

/* ---- helpers ------------------------------------------------------------------------------------------ */

static bool on_notify_thread(void)
{
    return tl_notify_thread;
}

static void wake(void)
{
    uint64_t one = 1;
    if (wake_fd >= 0 && write(wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        cd_log("warn", "notify: cannot wake the notify thread: %s", strerror(errno));
}

/* A uuid in lower case into out[37]; false unless it has the uuid's length. */
static bool norm_id(const char *in, size_t n, char out[37])
{
    if (n != 36)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[36] = 0;
    return true;
}

static size_t bucket_of(const char *id)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (const char *p = id; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    return h % NBUCKETS;
}

static game_node *node_get(const char *id, bool create)
{
    size_t b = bucket_of(id);
    for (game_node *g = buckets[b]; g; g = g->next)
        if (strcmp(g->id, id) == 0)
            return g;
    if (!create)
        return NULL;
    game_node *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    memcpy(g->id, id, sizeof g->id);
    g->last_seq = -1;
    g->next = buckets[b];
    buckets[b] = g;
    return g;
}

/* Frees the nodes with no waiter whose last notification is older than the memory. */
static void nodes_purge(double now)
{
    for (size_t b = 0; b < NBUCKETS; b++) {
        game_node **pp = &buckets[b];
        while (*pp) {
            game_node *g = *pp;
            if (!g->head && now - g->last_t > CD_NOTIFY_MEMORY_S && now - g->last_msg_t > CD_NOTIFY_MEMORY_S) {
                *pp = g->next;
                free(g);
            } else {
                pp = &g->next;
            }
        }
    }
}

/* ---- the deadline heap -------------------------------------------------------------------------------- */

static void heap_set(size_t i, cd_notify_waiter *w)
{
    heap[i] = w;
    w->heap_idx = (long)i;
}

static void heap_up(size_t i)
{
    cd_notify_waiter *w = heap[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (heap[p]->deadline <= w->deadline)
            break;
        heap_set(i, heap[p]);
        i = p;
    }
    heap_set(i, w);
}

static void heap_down(size_t i)
{
    cd_notify_waiter *w = heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= heap_n)
            break;
        if (c + 1 < heap_n && heap[c + 1]->deadline < heap[c]->deadline)
            c++;
        if (heap[c]->deadline >= w->deadline)
            break;
        heap_set(i, heap[c]);
        i = c;
    }
    heap_set(i, w);
}

static bool heap_push(cd_notify_waiter *w)
{
    if (heap_n == heap_cap) {
        size_t cap = heap_cap ? 2 * heap_cap : 256;
        cd_notify_waiter **h = realloc(heap, cap * sizeof *h);
        if (!h)
            return false;
        heap = h;
        heap_cap = cap;
    }
    heap_set(heap_n++, w);
    heap_up(heap_n - 1);
    return true;
}

static void heap_remove(cd_notify_waiter *w)
{
    size_t i = (size_t)w->heap_idx;
    w->heap_idx = -1;
    cd_notify_waiter *last = heap[--heap_n];
    if (i == heap_n)
        return;
    heap_set(i, last);
    heap_up(i);
    heap_down((size_t)last->heap_idx);
}

/* ---- waiter lists ----------------------------------------------------------------------------------------- */

/* Takes a waiting waiter out of its game's list and the heap. */
static void unlink_waiting(cd_notify_waiter *w)
{
    game_node *g = w->node;
    if (w->prev)
        w->prev->next = w->next;
    else
        g->head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->node = NULL;
    heap_remove(w);
    stats.waiting--;
}

static void unlink_due(cd_notify_waiter *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        due_head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    else
        due_tail = w->prev;
    w->prev = w->next = NULL;
}

static void make_due(cd_notify_waiter *w, cd_notify_why why)
{
    if (w->state == W_WAITING)
        unlink_waiting(w);
    w->state = W_DUE;
    w->why = why;
    w->next = NULL;
    w->prev = due_tail;
    if (due_tail)
        due_tail->next = w;
    else
        due_head = w;
    due_tail = w;
}

static void fire_all(cd_notify_why why)
{
    while (heap_n > 0)
        make_due(heap[0], why);
}

/* ---- the public calls --------------------------------------------------------------------------------- */

int cd_notify_wait(cd_notify_waiter *w, const char *game_id, int after_seq, double deadline, cd_notify_fn fn,
                   void *arg)
{
    return cd_notify_wait_msgs(w, game_id, after_seq, -1, deadline, fn, arg);
}

int cd_notify_wait_msgs(cd_notify_waiter *w, const char *game_id, int after_seq, long long after_msg,
                        double deadline, cd_notify_fn fn, void *arg)
{
    char id[37];
    if (!norm_id(game_id, strlen(game_id), id))
        return -1;
    bool self = on_notify_thread();
    pthread_mutex_lock(&mu);
    if (!accepting) {
        pthread_mutex_unlock(&mu);
        return -1;
    }
    if (w->state == W_WAITING)
        unlink_waiting(w);
    else if (w->state == W_DUE)
        unlink_due(w);
    w->state = W_IDLE;
    memcpy(w->game, id, sizeof id);
    w->after_seq = after_seq;
    w->after_msg = after_msg;
    w->deadline = deadline;
    w->fn = fn;
    w->arg = arg;
    double now = cd_now();
    game_node *g = node_get(id, true);
    int rc = 0;
    if ((g && g->last_seq > after_seq && now - g->last_t <= CD_NOTIFY_MEMORY_S) ||
        (g && after_msg >= 0 && g->last_msg > after_msg && now - g->last_msg_t <= CD_NOTIFY_MEMORY_S)) {
        make_due(w, CD_NOTIFY_MOVE);   /* it went by just before we were asked */
    } else if (deadline <= now) {
        make_due(w, CD_NOTIFY_DEADLINE);
    } else if (g && heap_push(w)) {
        w->state = W_WAITING;
        w->node = g;
        w->prev = NULL;
        w->next = g->head;
        if (g->head)
            g->head->prev = w;
        g->head = w;
        stats.waiting++;
    } else {
        rc = -1;   /* out of memory */
    }
    pthread_mutex_unlock(&mu);
    if (rc == 0 && !self)
        wake();
    return rc;
}

bool cd_notify_cancel(cd_notify_waiter *w)
{
    bool self = on_notify_thread();
    bool removed = false;
    pthread_mutex_lock(&mu);
    while (firing_now == w && !self)
        pthread_cond_wait(&fired_cv, &mu);
    if (w->state == W_WAITING) {
        unlink_waiting(w);
        w->state = W_IDLE;
        removed = true;
    } else if (w->state == W_DUE) {
        unlink_due(w);
        w->state = W_IDLE;
        removed = true;
    }
    pthread_mutex_unlock(&mu);
    return removed;
}

void cd_notify_get_stats(cd_notify_stats *s)
{
    pthread_mutex_lock(&mu);
    *s = stats;
    pthread_mutex_unlock(&mu);
}

bool cd_notify_running(void)
{
    pthread_mutex_lock(&mu);
    bool r = accepting;
    pthread_mutex_unlock(&mu);
    return r;
}

/* ---- the thread ----------------------------------------------------------------------------------------- */

/* Runs every due callback; called and returns with the lock held. */
static void run_due(void)
{
    while (due_head) {
        cd_notify_waiter *w = due_head;
        unlink_due(w);
        w->state = W_IDLE;
        firing_now = w;
        cd_notify_fn fn = w->fn;
        void *arg = w->arg;
        cd_notify_why why = w->why;
        pthread_mutex_unlock(&mu);
        fn(arg, why);   /* may re-arm w; w's memory is not touched again after this returns */
        pthread_mutex_lock(&mu);
        firing_now = NULL;
        stats.fired++;
        pthread_cond_broadcast(&fired_cv);
    }
}

static void expire(double now)
{
    while (heap_n > 0 && heap[0]->deadline <= now)
        make_due(heap[0], CD_NOTIFY_DEADLINE);
}

/* "<uuid>:m<message id>": wakes the game's waiters that want messages. */
static void on_message(const char *id, const char *num, double now)
{
    char *end;
    errno = 0;
    long long mid = strtoll(num, &end, 10);
    if (end == num || *end || errno || mid <= 0)
        return;
    pthread_mutex_lock(&mu);
    stats.notifications++;
    game_node *g = node_get(id, true);
    if (g) {
        if (mid > g->last_msg || now - g->last_msg_t > CD_NOTIFY_MEMORY_S)
            g->last_msg = mid;
        g->last_msg_t = now;
        cd_notify_waiter *w = g->head;
        while (w) {
            cd_notify_waiter *next = w->next;
            if (w->after_msg >= 0 && w->after_msg < mid)
                make_due(w, CD_NOTIFY_MOVE);
            w = next;
        }
    }
    pthread_mutex_unlock(&mu);
}

/* "<uuid>:<seq>", or "<uuid>:m<message id>" */
static void on_notification(const char *payload, double now)
{
    const char *colon = strchr(payload, ':');
    char id[37];
    if (!colon || !norm_id(payload, (size_t)(colon - payload), id))
        return;
    if (colon[1] == 'm') {
        on_message(id, colon + 2, now);
        return;
    }
    char *end;
    errno = 0;
    long seq = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || errno || seq < 0 || seq > INT32_MAX)
        return;
    pthread_mutex_lock(&mu);
    stats.notifications++;
    game_node *g = node_get(id, true);
    if (g) {
        if (seq > g->last_seq || now - g->last_t > CD_NOTIFY_MEMORY_S)
            g->last_seq = (int)seq;
        g->last_t = now;
        cd_notify_waiter *w = g->head;
        while (w) {
            cd_notify_waiter *next = w->next;
            if (w->after_seq < seq)
                make_due(w, CD_NOTIFY_MOVE);
            w = next;
        }
    }
    pthread_mutex_unlock(&mu);
}

/* What the server says outside a query (the FATAL that ends a terminated backend): a log line, not stderr. */
static void on_notice(void *arg, const char *message)
{
    (void)arg;
    char msg[256];
    snprintf(msg, sizeof msg, "%s", message);
    msg[strcspn(msg, "\n")] = 0;
    cd_log("info", "notify: the server says: %s", msg);
}

static PGconn *listen_connect(bool *logged_down)
{
    PGconn *c = cd_db_connect(ncfg->database_url);
    if (PQstatus(c) == CONNECTION_OK) {
        PQsetNoticeProcessor(c, on_notice, NULL);
        PGresult *res = PQexec(c, "SET application_name = 'carcd-notify'");
        bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
        if (ok) {
            if (*logged_down)
                cd_log("info", "notify: connected again");
            *logged_down = false;
            return c;
        }
    }
    if (!*logged_down) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", PQerrorMessage(c));
        msg[strcspn(msg, "\n")] = 0;
        cd_log("warn", "notify: cannot listen for moves (retrying every %.0f s): %s", RECONNECT_S, msg);
        *logged_down = true;
    }
    PQfinish(c);
    return NULL;
}

/* What the listening connection has outstanding: one command at a time, so the results read are its. */
enum { CMD_NONE = 0, CMD_PING, CMD_LISTEN, CMD_UNLISTEN };
static const char *const cmd_sql[] = {NULL, "SELECT 1", "LISTEN " CD_NOTIFY_CHANNEL, "UNLISTEN " CD_NOTIFY_CHANNEL};

typedef struct {
    PGconn *conn;
    bool ever;            /* it was connected once */
    bool logged_down;
    bool listening;       /* a LISTEN is in effect on conn */
    int cmd;              /* CMD_*: sent, its results not all read */
    bool cmd_failed;      /* one of its results was an error */
    double cmd_sent;
    double next_connect;
    double last_traffic;
    double last_waited;   /* when a waiter last waited (for CARCD_LISTEN_LINGER) */
    double listen_retry;  /* a refused LISTEN (a standby in recovery) is tried again from then */
    bool listen_refused_logged;
} listener;

static void listener_drop(listener *l, const char *why, double now)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s", PQerrorMessage(l->conn));
    msg[strcspn(msg, "\n")] = 0;
    cd_log("warn", "notify: lost the listening connection (%s): %s", why, msg);
    cd_db_suspect_all();   /* the workers' idle connections are likely as dead: checked before their next use */
    l->logged_down = true;
    PQfinish(l->conn);
    l->conn = NULL;
    l->listening = false;
    l->cmd = CMD_NONE;
    l->cmd_failed = false;
    l->next_connect = now;   /* one attempt at once: a restarted server is usually back */
    pthread_mutex_lock(&mu);
    stats.listening = false;
    stats.connected = false;
    pthread_mutex_unlock(&mu);
}

/* The outstanding command's results are all read: a LISTEN in effect wakes every waiter (one registered
 * before it may have missed a move), an UNLISTEN ends the listening. False: the connection was dropped. */
static bool command_done(listener *l, double now)
{
    int cmd = l->cmd;
    bool failed = l->cmd_failed;
    l->cmd = CMD_NONE;
    l->cmd_failed = false;
    if (failed && cmd == CMD_LISTEN && PQstatus(l->conn) == CONNECTION_OK) {
        /* refused by a live server (a standby in recovery refuses LISTEN): the connection is fine, so keep it
         * and ask again a second later, saying so once; the waiters meanwhile wait for their deadlines */
        if (!l->listen_refused_logged) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", PQerrorMessage(l->conn));
            msg[strcspn(msg, "\n")] = 0;
            cd_log("warn", "notify: cannot listen for moves (retrying every %.0f s): %s", RECONNECT_S, msg);
            l->listen_refused_logged = true;
        }
        l->listen_retry = now + RECONNECT_S;
        return true;
    }
    if (failed) {
        listener_drop(l, cmd == CMD_PING ? "the ping failed" : cmd == CMD_LISTEN ? "LISTEN failed" : "UNLISTEN failed",
                      now);
        return false;
    }
    if (cmd == CMD_LISTEN && l->listen_refused_logged) {
        cd_log("info", "notify: listening again");
        l->listen_refused_logged = false;
    }
    if (cmd == CMD_LISTEN || cmd == CMD_UNLISTEN) {
        l->listening = cmd == CMD_LISTEN;
        pthread_mutex_lock(&mu);
        stats.listening = l->listening;
        if (l->listening)
            fire_all(CD_NOTIFY_RECONNECT);
        pthread_mutex_unlock(&mu);
    }
    return true;
}

/* Step 6 and the ping: sends what the connection needs next, when nothing is outstanding. */
static void listener_command(listener *l, bool waited, double now)
{
    if (waited)
        l->last_waited = now;
    if (l->cmd != CMD_NONE) {
        if (now - l->cmd_sent > CMD_TIMEOUT_S)
            listener_drop(l, "no answer to a command", now);
        return;
    }
    bool want = waited || now - l->last_waited < (double)ncfg->listen_linger_s;
    int cmd = want && !l->listening && now >= l->listen_retry ? CMD_LISTEN
              : !want && l->listening ? CMD_UNLISTEN
              : now - l->last_traffic > PING_IDLE_S ? CMD_PING
                                                    : CMD_NONE;
    if (cmd == CMD_NONE)
        return;
    if (!PQsendQuery(l->conn, cmd_sql[cmd])) {
        listener_drop(l, "a command could not be sent", now);
        return;
    }
    l->cmd = cmd;
    l->cmd_sent = now;
}

/* Reads what the socket has: notifications and the outstanding command's results. */
static void listener_read(listener *l, double now)
{
    if (!PQconsumeInput(l->conn)) {
        listener_drop(l, "read failed", now);
        return;
    }
    l->last_traffic = now;
    while (l->cmd != CMD_NONE && !PQisBusy(l->conn)) {
        PGresult *res = PQgetResult(l->conn);
        if (!res) {
            if (!command_done(l, now))
                return;
            break;
        }
        ExecStatusType st = PQresultStatus(res);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
            l->cmd_failed = true;
        PQclear(res);
    }
    PGnotify *n;
    while ((n = PQnotifies(l->conn))) {
        if (strcmp(n->relname, CD_NOTIFY_CHANNEL) == 0)
            on_notification(n->extra, now);
        PQfreemem(n);
    }
    if (PQstatus(l->conn) == CONNECTION_BAD)
        listener_drop(l, "connection bad", now);
}

static void *notify_main(void *unused)
{
    (void)unused;
    tl_notify_thread = true;
    listener l = {0};
    double last_housekeep = cd_now();
    pthread_mutex_lock(&mu);
    while (!stopping) {
        double now = cd_now();
        if (!l.conn && now >= l.next_connect) {
            pthread_mutex_unlock(&mu);
            PGconn *c = listen_connect(&l.logged_down);
            pthread_mutex_lock(&mu);
            now = cd_now();
            if (c) {   /* not listening yet: step 6 LISTENs if a waiter waits, and then wakes them all */
                l.conn = c;
                l.last_traffic = now;
                stats.connected = true;
                if (l.ever)
                    stats.reconnects++;
                l.ever = true;
                cd_db_suspect_all();   /* a connection checked while the server was still away is checked again */
                /* the callbacks' connection (cd_db_thread on this thread): made now rather than by the
                 * first woken request, which would wait for the connect and the statements' PREPARE */
                pthread_mutex_unlock(&mu);
                char err[256];
                cd_db *db = cd_db_thread(ncfg, err, sizeof err);
                if (db)   /* after a server restart it is stale: a failed ping marks it for reconnecting */
                    PQclear(cd_db_exec(db, ST_PING, 0, NULL));
                pthread_mutex_lock(&mu);
            } else {
                l.next_connect = now + RECONNECT_S;
            }
        }
        expire(now);
        run_due();
        if (stopping)
            break;
        now = cd_now();
        if (now - last_housekeep >= HOUSEKEEP_S) {
            nodes_purge(now);
            pthread_mutex_unlock(&mu);
            if (housekeeping_fn)
                housekeeping_fn();   /* main's: after a wake-up burst, what its answers freed goes back */
            pthread_mutex_lock(&mu);
            last_housekeep = now;
        }
        /* how long to sleep: the next deadline, a reconnect, a ping, at most POLL_MAX_MS */
        double until = now + POLL_MAX_MS / 1000.0;
        if (heap_n > 0 && heap[0]->deadline < until)
            until = heap[0]->deadline;
        if (!l.conn && l.next_connect < until)
            until = l.next_connect;
        int timeout = due_head ? 0 : (int)((until - now) * 1000.0 + 0.999);
        if (timeout < 0)
            timeout = 0;
        pthread_mutex_unlock(&mu);

        struct pollfd fds[2] = {{.fd = wake_fd, .events = POLLIN}, {.fd = -1}};
        if (l.conn) {
            fds[1].fd = PQsocket(l.conn);
            fds[1].events = POLLIN;
        }
        int n = poll(fds, l.conn ? 2 : 1, timeout);
        now = cd_now();
        if (n < 0 && errno != EINTR)
            cd_log("error", "notify: poll: %s", strerror(errno));
        if (n > 0 && (fds[0].revents & POLLIN)) {
            uint64_t v;
            if (read(wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
                cd_log("warn", "notify: reading the wake fd: %s", strerror(errno));
        }
        if (l.conn && n > 0 && (fds[1].revents & (POLLIN | POLLERR | POLLHUP)))
            listener_read(&l, now);
        pthread_mutex_lock(&mu);
        bool waited = stats.waiting > 0 || due_head;
        pthread_mutex_unlock(&mu);
        if (l.conn)
            listener_command(&l, waited, now);
        pthread_mutex_lock(&mu);
    }
    /* stopping: every waiter left is answered now; none is accepted any more */
    fire_all(CD_NOTIFY_SHUTDOWN);
    for (cd_notify_waiter *w = due_head; w; w = w->next)
        w->why = CD_NOTIFY_SHUTDOWN;
    run_due();
    stats.listening = false;
    stats.connected = false;
    pthread_mutex_unlock(&mu);
    if (l.conn)
        PQfinish(l.conn);
    cd_db_thread_close();
    return NULL;
}

void cd_notify_on_housekeeping(void (*fn)(void))
{
    housekeeping_fn = fn;
}

int cd_notify_start(const cd_config *cfg)
{
    pthread_mutex_lock(&mu);
    if (started) {
        pthread_mutex_unlock(&mu);
        return 0;
    }
    wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_fd < 0) {
        pthread_mutex_unlock(&mu);
        cd_log("error", "notify: eventfd: %s", strerror(errno));
        return -1;
    }
    ncfg = cfg;
    stopping = false;
    accepting = true;
    memset(&stats, 0, sizeof stats);
    int rc = pthread_create(&thread, NULL, notify_main, NULL);
    if (rc != 0) {
        accepting = false;
        close(wake_fd);
        wake_fd = -1;
        pthread_mutex_unlock(&mu);
        cd_log("error", "notify: cannot start the thread: %s", strerror(rc));
        return -1;
    }
    started = true;
    pthread_mutex_unlock(&mu);
    return 0;
}

void cd_notify_stop(void)
{
    pthread_mutex_lock(&mu);
    if (!started) {
        pthread_mutex_unlock(&mu);
        return;
    }
    accepting = false;
    stopping = true;
    pthread_mutex_unlock(&mu);
    wake();
    pthread_join(thread, NULL);
    pthread_mutex_lock(&mu);
    started = false;
    close(wake_fd);
    wake_fd = -1;
    nodes_purge(1e300);   /* no waiter is left: frees every node */
    free(heap);
    heap = NULL;
    heap_n = heap_cap = 0;
    pthread_mutex_unlock(&mu);
}
