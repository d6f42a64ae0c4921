/*
 * state_cache.c — a direct-mapped cache of decoded game states (see state_cache.h). One mutex: a hit or a
 * store is one 30 KB copy, far cheaper than the JSON parse and decode it saves.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "state_cache.h"

#define CACHE_SLOTS 256   /* ~8 MB of states; games in play at once beyond that just miss */

typedef struct {
    char id[37];
    int seq;
    carc_state *st;   /* NULL = empty slot */
} slot;

static slot slots[CACHE_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned slot_of(const char *id)
{
    unsigned h = 2166136261u;   /* FNV-1a over the id, case-folded like uuid comparison */
    for (const char *p = id; *p; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p + 32) : *p;
        h = (h ^ (unsigned char)c) * 16777619u;
    }
    return h % CACHE_SLOTS;
}

bool cd_cache_get(const char *id, int seq, carc_state *out)
{
    slot *s = &slots[slot_of(id)];
    bool hit = false;
    pthread_mutex_lock(&lock);
    if (s->st && s->seq == seq && strcasecmp(s->id, id) == 0) {
        memcpy(out, s->st, sizeof *out);
        hit = true;
    }
    pthread_mutex_unlock(&lock);
    return hit;
}

void cd_cache_put(const char *id, int seq, const carc_state *st)
{
    slot *s = &slots[slot_of(id)];
    pthread_mutex_lock(&lock);
    if (!s->st)
        s->st = malloc(sizeof *s->st);
    if (s->st) {
        memcpy(s->st, st, sizeof *s->st);
        snprintf(s->id, sizeof s->id, "%s", id);
        s->seq = seq;
    }
    pthread_mutex_unlock(&lock);
}
