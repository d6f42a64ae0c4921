/*
 * json_arena.c — a per-thread bump arena for jansson, one request long (json_arena.h).
 *
 * Normal builds: chunks of ARENA_CHUNK bytes (or one allocation's size, when larger); an allocation takes the
 * next 16-aligned bytes of the newest chunk; a free of a pointer into this thread's chunks is a count. The
 * end keeps the first chunk for the next scope and frees the others. Frees test chunk ranges, so values
 * made before the scope (by malloc) are still freed by free.
 *
 * AddressSanitizer builds: every allocation is malloc's, and the scope's live ones are kept in a per-thread
 * pointer set, so the sanitizer sees each value's life exactly and the end can name a leak or escape.
 */
#include "json_arena.h"

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_CHECKED 1
#endif
#endif

#define ARENA_ALIGN 16
#define ARENA_CHUNK ((size_t)256 * 1024)   /* a move's values, snapshot and all, fit in one (bench/move-cpu) */

typedef struct chunk {
    struct chunk *next;   /* older */
    size_t cap, used;
} chunk;
#define CHUNK_HEAD ((sizeof(chunk) + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN)

typedef struct {
    bool active;
    long live;            /* values allocated in this scope and not yet freed */
    chunk *head;          /* newest first; the oldest is kept between scopes */
    chunk *abandoned;     /* chunks of scopes that ended with values live: never reused or freed */
    void **set;           /* ARENA_CHECKED: the scope's live values (open addressing; NULL = empty) */
    size_t set_cap;
} arena;

static _Thread_local arena me;

#ifdef ARENA_CHECKED
static void oom(void)
{
    fputs("carcd: out of memory\n", stderr);
    abort();   /* docs/STYLE.md: out of memory stops the process */
}

/* ---- the checked variant: malloc, and a set of the scope's pointers --------------------------------------- */
static size_t slot_of(const void *p, size_t cap)
{
    return (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull) & (cap - 1);
}

static void set_add(void *p)
{
    if ((size_t)(me.live + 1) * 2 > me.set_cap) {   /* keep it at most half full */
        size_t cap = me.set_cap ? me.set_cap * 2 : 1024;
        void **set = calloc(cap, sizeof *set);
        if (!set)
            oom();
        for (size_t i = 0; i < me.set_cap; i++)
            if (me.set[i]) {
                size_t j = slot_of(me.set[i], cap);
                while (set[j])
                    j = (j + 1) & (cap - 1);
                set[j] = me.set[i];
            }
        free(me.set);
        me.set = set;
        me.set_cap = cap;
    }
    size_t j = slot_of(p, me.set_cap);
    while (me.set[j])
        j = (j + 1) & (me.set_cap - 1);
    me.set[j] = p;
    me.live++;
}

/* Removes p if the scope made it (backward-shift deletion keeps the probe chains whole). */
static bool set_remove(void *p)
{
    if (!me.set_cap)
        return false;
    size_t mask = me.set_cap - 1, j = slot_of(p, me.set_cap);
    while (me.set[j] && me.set[j] != p)
        j = (j + 1) & mask;
    if (!me.set[j])
        return false;
    me.set[j] = NULL;
    for (size_t k = (j + 1) & mask; me.set[k]; k = (k + 1) & mask) {
        size_t home = slot_of(me.set[k], me.set_cap);
        if (((k - home) & mask) >= ((k - j) & mask)) {   /* the hole lies on its probe path: move it back */
            me.set[j] = me.set[k];
            me.set[k] = NULL;
            j = k;
        }
    }
    me.live--;
    return true;
}

static void *arena_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p && me.active)
        set_add(p);
    return p;
}

static void arena_free(void *p)
{
    if (!p)
        return;
    if (me.active)
        set_remove(p);
    free(p);
}

static void scope_end(void)
{
    if (me.live != 0) {
        fprintf(stderr, "carcd: json arena: %ld jansson values outlived their request\n", me.live);
        abort();   /* a leak or an escape: either is a bug the tests must see */
    }
    free(me.set);
    me.set = NULL;
    me.set_cap = 0;
}

size_t cd_json_arena_bytes(void)
{
    return 0;
}
#else
/* ---- the bump arena ------------------------------------------------------------------------------------- */
static bool in_chunks(const chunk *c, const void *p)
{
    for (; c; c = c->next)
        if ((const char *)p >= (const char *)c + CHUNK_HEAD && (const char *)p < (const char *)c + CHUNK_HEAD + c->cap)
            return true;
    return false;
}

static void *arena_malloc(size_t n)
{
    if (!me.active)
        return malloc(n);
    n = n ? (n + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN : ARENA_ALIGN;
    chunk *c = me.head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
        c = malloc(CHUNK_HEAD + cap);
        if (!c)
            return NULL;   /* jansson reports it; its callers abort (carc_jb_check, cd_json_dumps users) */
        c->cap = cap;
        c->used = 0;
        c->next = me.head;
        me.head = c;
    }
    void *p = (char *)c + CHUNK_HEAD + c->used;
    c->used += n;
    me.live++;
    return p;
}

static void arena_free(void *p)
{
    if (!p)
        return;
    if (me.active && in_chunks(me.head, p)) {
        me.live--;
        return;
    }
    if (in_chunks(me.head, p) || in_chunks(me.abandoned, p))
        return;   /* an escaped value, freed late: its memory is abandoned or already reused; leave it */
    free(p);
}

static void scope_end(void)
{
    if (me.live != 0) {   /* something may still point into these chunks: never reuse them */
        static atomic_flag said = ATOMIC_FLAG_INIT;
        if (!atomic_flag_test_and_set(&said))
            fprintf(stderr, "carcd: json arena: %ld jansson values outlived their request (a bug); their memory "
                            "is set aside\n",
                    me.live);
        chunk *c = me.head;
        while (c) {
            chunk *next = c->next;
            c->next = me.abandoned;
            me.abandoned = c;
            c = next;
        }
        me.head = NULL;
        me.live = 0;
        return;
    }
    while (me.head && me.head->next) {   /* keep the oldest: the next scope starts in it */
        chunk *next = me.head->next;
        free(me.head);
        me.head = next;
    }
    if (me.head)
        me.head->used = 0;
}

size_t cd_json_arena_bytes(void)
{
    size_t n = 0;
    for (const chunk *c = me.head; c; c = c->next)
        n += c->cap;
    return n;
}
#endif

static void install_once(void)
{
    json_set_alloc_funcs(arena_malloc, arena_free);
}

void cd_json_arena_install(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_once);
}

void cd_json_arena_begin(void)
{
    if (me.active)
        abort();   /* not nested: the inner end would take back the outer scope's values */
    cd_json_arena_install();
    me.active = true;
    me.live = 0;
}

void cd_json_arena_end(void)
{
    if (!me.active)
        abort();
    me.active = false;
    scope_end();
}

bool cd_json_arena_active(void)
{
    return me.active;
}

long cd_json_arena_live(void)
{
    return me.live;
}
