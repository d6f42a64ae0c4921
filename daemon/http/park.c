/*
 * park.c — connections taken out of libmicrohttpd while they wait: a thread, an epoll set, a small struct per
 * connection. The contract is park.h.
 *
 * Locks: pk->mu guards the connection list, the counts, the per-address table and the finish queue; c->mu
 * guards a connection's buffer and flags. Order: c->mu before pk->mu (a send that ends a connection queues it
 * while holding c->mu); the park thread takes c->mu only with pk->mu released. A connection is marked
 * `closing` once, under c->mu, and queued to finish: after that no send touches its socket, and the park
 * thread (alone) takes it out of the epoll set, closes it, calls `done`, and frees it.
 */
#include "park.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define ADDR_BUCKETS 1024
#define READ_SCRATCH 4096

typedef struct addr_count {
    unsigned char key[17];   /* family, then the address bytes */
    size_t len;
    long n;
    struct addr_count *next;
} addr_count;

struct cd_parked {
    cd_park *pk;
    int fd;
    pthread_mutex_t mu;
    char *out;               /* unsent bytes: out[off..len) */
    size_t len, off, cap;
    bool last, closing, gone, want_out;
    bool armed;              /* cd_parked_arm was called: it may finish (and `done` run) */
    addr_count *addr;        /* its address's count (NULL: not counted) */
    cd_parked_done done;
    void *arg;
    cd_parked *next, *prev;  /* pk->all */
    cd_parked *next_finish;
};

struct cd_park {
    pthread_t thread;
    int ep, wake;
    pthread_mutex_t mu;
    long max_total, max_per_address, n;
    cd_parked *all, *finish;
    addr_count *addrs[ADDR_BUCKETS];
    bool stopping;
    double drain_until;
};

static atomic_long parked_now, deferred_sends;

long cd_park_deferred(void)
{
    return atomic_load(&deferred_sends);
}

long cd_park_count(void)
{
    return atomic_load(&parked_now);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void wake(cd_park *pk)
{
    uint64_t one = 1;
    ssize_t w = write(pk->wake, &one, sizeof one);
    (void)w;   /* a full counter still wakes the thread */
}

/* ---- the per-address counts (under pk->mu) ----------------------------------------------------------- */

static size_t addr_key(const struct sockaddr *sa, socklen_t len, unsigned char key[17])
{
    if (sa && sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        key[0] = 4;
        memcpy(key + 1, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return 5;
    }
    if (sa && sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        key[0] = 6;
        memcpy(key + 1, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return 17;
    }
    return 0;   /* a unix socket: a proxy on the same machine, not counted per address */
}

static addr_count **addr_slot(cd_park *pk, const unsigned char *key, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ key[i]) * 16777619u;
    addr_count **a = &pk->addrs[h % ADDR_BUCKETS];
    while (*a && ((*a)->len != len || memcmp((*a)->key, key, len) != 0))
        a = &(*a)->next;
    return a;
}

static void addr_release(cd_park *pk, addr_count *ac)
{
    if (!ac || --ac->n > 0)
        return;
    addr_count **a = addr_slot(pk, ac->key, ac->len);
    *a = ac->next;
    free(ac);
}

/* ---- sending (under c->mu) ---------------------------------------------------------------------------- */

/* Sends what the socket takes now; marks the client gone on an error. */
static void flush_locked(cd_parked *c)
{
    while (c->off < c->len && !c->gone) {
        ssize_t k = send(c->fd, c->out + c->off, c->len - c->off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            c->off += (size_t)k;
        } else if (k < 0 && errno == EINTR) {
            continue;
        } else if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            c->gone = true;
        }
    }
    if (c->off == c->len) {   /* all sent: a waiting connection keeps no buffer */
        free(c->out);
        c->out = NULL;
        c->off = c->len = c->cap = 0;
    }
}

/* After a send or an event: queue the connection to finish, or (un)watch writability. True if queued. */
static bool settle_locked(cd_parked *c)
{
    cd_park *pk = c->pk;
    if (c->closing)
        return false;
    if (c->armed && (c->gone || (c->last && c->off == c->len))) {
        c->closing = true;
        pthread_mutex_lock(&pk->mu);
        c->next_finish = pk->finish;
        pk->finish = c;
        pthread_mutex_unlock(&pk->mu);
        return true;
    }
    bool want = c->off < c->len;
    if (want != c->want_out) {
        struct epoll_event e = {.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0u), .data.ptr = c};
        epoll_ctl(pk->ep, EPOLL_CTL_MOD, c->fd, &e);
        c->want_out = want;
    }
    return false;
}

bool cd_parked_send(cd_parked *c, const char *data, size_t n, bool last, size_t max_unsent)
{
    pthread_mutex_lock(&c->mu);
    if (c->closing || c->gone || c->last || (max_unsent && c->len - c->off + n > max_unsent)) {
        pthread_mutex_unlock(&c->mu);
        return false;
    }
    if (n > 0) {
        if (c->off > 0) {
            memmove(c->out, c->out + c->off, c->len - c->off);
            c->len -= c->off;
            c->off = 0;
        }
        if (c->len + n > c->cap) {
            size_t cap = c->cap ? c->cap : 1024;
            while (cap < c->len + n)
                cap *= 2;
            char *p = realloc(c->out, cap);
            if (!p)
                abort();   /* out of memory: carcd stops (docs/STYLE.md) */
            c->out = p;
            c->cap = cap;
        }
        memcpy(c->out + c->len, data, n);
        c->len += n;
    }
    c->last = last;
    flush_locked(c);
    if (c->off < c->len && !c->gone)
        atomic_fetch_add(&deferred_sends, 1);
    bool queued = settle_locked(c);
    pthread_mutex_unlock(&c->mu);
    if (queued)
        wake(c->pk);
    return true;
}

void cd_parked_arm(cd_parked *c)
{
    pthread_mutex_lock(&c->mu);
    c->armed = true;
    bool queued = settle_locked(c);
    pthread_mutex_unlock(&c->mu);
    if (queued)
        wake(c->pk);
}

/* ---- the thread --------------------------------------------------------------------------------------- */

/* A readable socket: bytes are dropped, an end of file or an error is a client gone. */
static void on_readable(cd_parked *c)
{
    char scratch[READ_SCRATCH];
    for (;;) {
        ssize_t k = recv(c->fd, scratch, sizeof scratch, MSG_DONTWAIT);
        if (k > 0)
            continue;
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            c->gone = true;
        return;
    }
}

static void finish(cd_park *pk, cd_parked *c)
{
    epoll_ctl(pk->ep, EPOLL_CTL_DEL, c->fd, NULL);
    if (!c->gone)
        shutdown(c->fd, SHUT_WR);   /* the answer's end, for a client reading to the close */
    close(c->fd);
    c->fd = -1;
    c->done(c->arg, c->gone || c->off < c->len);
    pthread_mutex_lock(&pk->mu);
    if (c->prev)
        c->prev->next = c->next;
    else
        pk->all = c->next;
    if (c->next)
        c->next->prev = c->prev;
    addr_release(pk, c->addr);
    pk->n--;
    pthread_mutex_unlock(&pk->mu);
    atomic_fetch_sub(&parked_now, 1);
    pthread_mutex_destroy(&c->mu);
    free(c->out);
    free(c);
}

static void *park_thread(void *arg)
{
    cd_park *pk = arg;
    struct epoll_event ev[64];
    for (;;) {
        int k = epoll_wait(pk->ep, ev, 64, 200);
        for (int i = 0; i < k; i++) {
            if (ev[i].data.ptr == NULL) {
                uint64_t v;
                ssize_t r = read(pk->wake, &v, sizeof v);
                (void)r;
                continue;
            }
            cd_parked *c = ev[i].data.ptr;
            pthread_mutex_lock(&c->mu);
            if (!c->closing) {
                if (ev[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
                    on_readable(c);
                if (ev[i].events & (EPOLLOUT | EPOLLERR))
                    flush_locked(c);
                settle_locked(c);
            }
            pthread_mutex_unlock(&c->mu);
        }
        pthread_mutex_lock(&pk->mu);
        bool stopping = pk->stopping;
        if (stopping && mono_s() >= pk->drain_until) {
            /* the drain is over: whatever is left is closed as it is */
            for (cd_parked *c = pk->all; c; c = c->next) {
                pthread_mutex_unlock(&pk->mu);
                pthread_mutex_lock(&c->mu);
                if (!c->closing)
                    c->gone = true;
                c->armed = true;   /* an owner still setting up at the end of the drain is not waited for */
                settle_locked(c);
                pthread_mutex_unlock(&c->mu);
                pthread_mutex_lock(&pk->mu);
            }
        }
        cd_parked *todo = pk->finish;
        pk->finish = NULL;
        pthread_mutex_unlock(&pk->mu);
        while (todo) {
            cd_parked *next = todo->next_finish;
            finish(pk, todo);
            todo = next;
        }
        pthread_mutex_lock(&pk->mu);
        bool over = pk->stopping && pk->n == 0;
        pthread_mutex_unlock(&pk->mu);
        if (over)
            return NULL;
    }
}

cd_park *cd_park_start(long max_total, long max_per_address)
{
    cd_park *pk = calloc(1, sizeof *pk);
    if (!pk)
        return NULL;
    pk->max_total = max_total;
    pk->max_per_address = max_per_address;
    pthread_mutex_init(&pk->mu, NULL);
    pk->ep = epoll_create1(EPOLL_CLOEXEC);
    pk->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event e = {.events = EPOLLIN, .data.ptr = NULL};
    if (pk->ep < 0 || pk->wake < 0 || epoll_ctl(pk->ep, EPOLL_CTL_ADD, pk->wake, &e) != 0 ||
        pthread_create(&pk->thread, NULL, park_thread, pk) != 0) {
        if (pk->ep >= 0)
            close(pk->ep);
        if (pk->wake >= 0)
            close(pk->wake);
        pthread_mutex_destroy(&pk->mu);
        free(pk);
        return NULL;
    }
    return pk;
}

void cd_park_stop(cd_park *pk, int drain_ms)
{
    if (!pk)
        return;
    pthread_mutex_lock(&pk->mu);
    pk->stopping = true;
    pk->drain_until = mono_s() + drain_ms / 1000.0;
    pthread_mutex_unlock(&pk->mu);
    wake(pk);
    pthread_join(pk->thread, NULL);
    close(pk->ep);
    close(pk->wake);
    pthread_mutex_destroy(&pk->mu);
    free(pk);
}

cd_parked *cd_park_add(cd_park *pk, int fd, const struct sockaddr *peer, socklen_t peer_len, cd_parked_done done,
                       void *arg)
{
    cd_parked *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->pk = pk;
    c->fd = fd;
    c->done = done;
    c->arg = arg;
    pthread_mutex_init(&c->mu, NULL);
    unsigned char key[17];
    size_t klen = addr_key(peer, peer_len, key);

    pthread_mutex_lock(&pk->mu);
    addr_count **slot = klen ? addr_slot(pk, key, klen) : NULL;
    bool refused = pk->stopping || (pk->max_total > 0 && pk->n >= pk->max_total) ||
                   (slot && *slot && pk->max_per_address > 0 && (*slot)->n >= pk->max_per_address);
    if (!refused && slot) {
        if (!*slot) {
            addr_count *ac = calloc(1, sizeof *ac);
            if (!ac)
                abort();
            memcpy(ac->key, key, klen);
            ac->len = klen;
            *slot = ac;
        }
        (*slot)->n++;
        c->addr = *slot;
    }
    struct epoll_event e = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
    if (!refused && epoll_ctl(pk->ep, EPOLL_CTL_ADD, fd, &e) != 0) {
        addr_release(pk, c->addr);
        refused = true;
    }
    if (refused) {
        pthread_mutex_unlock(&pk->mu);
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    c->next = pk->all;
    if (pk->all)
        pk->all->prev = c;
    pk->all = c;
    pk->n++;
    pthread_mutex_unlock(&pk->mu);
    atomic_fetch_add(&parked_now, 1);
    return c;
}
