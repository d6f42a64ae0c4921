/*
 * event_cache.c — a direct-mapped cache of rendered events (see event_cache.h). One mutex: a get or a put
 * copies a few hundred bytes under it. 4096 slots of about 400 bytes (the move key and the events of a move):
 * about 1.6 MB, the last few moves of some hundreds of games in play; older entries are overwritten.
 */
#include "event_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json_out.h"

#define SLOTS 4096

typedef struct {
    char id[37];
    int seq, seat;
    char *move_key;   /* NULL: empty */
    char *events;
} slot;

static slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned slot_of(const char *id, int seq)
{
    unsigned h = 2166136261u;   /* FNV-1a over the id, case-folded like uuid comparison, then the seq */
    for (const char *p = id; *p; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p + 32) : *p;
        h = (h ^ (unsigned char)c) * 16777619u;
    }
    h = (h ^ (unsigned)seq) * 16777619u;
    return h % SLOTS;
}

char *cd_event_cache_move_key(const json_t *move)
{
    /* a described move's notation names it (canonical: it reads back to the identical move) and costs no
     * encoding; a move without one (a leave, a row stored before moves described themselves) is its JSON */
    const char *notation = json_string_value(json_object_get(move, "notation"));
    char *k = notation ? strdup(notation)
              : move   ? cd_json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)
                       : strdup("null");
    if (!k)
        abort();   /* out of memory (docs/STYLE.md) */
    return k;
}

void cd_event_cache_put(const char *id, int seq, int seat, const char *move_key, const char *events)
{
    char *k = strdup(move_key), *e = strdup(events);
    if (!k || !e)
        abort();
    slot *s = &slots[slot_of(id, seq)];
    pthread_mutex_lock(&lock);
    char *old_k = s->move_key, *old_e = s->events;
    snprintf(s->id, sizeof s->id, "%s", id);
    s->seq = seq;
    s->seat = seat;
    s->move_key = k;
    s->events = e;
    pthread_mutex_unlock(&lock);
    free(old_k);
    free(old_e);
}

json_t *cd_event_cache_get(const char *id, int seq, int seat, const char *move_key)
{
    slot *s = &slots[slot_of(id, seq)];
    char *events = NULL;
    pthread_mutex_lock(&lock);
    if (s->move_key && s->seq == seq && s->seat == seat && strcasecmp(s->id, id) == 0 &&
        strcmp(s->move_key, move_key) == 0)
        events = strdup(s->events);
    pthread_mutex_unlock(&lock);
    if (!events)
        return NULL;
    json_t *j = json_loads(events, 0, NULL);
    free(events);
    if (!json_is_array(j)) {
        json_decref(j);
        return NULL;
    }
    return j;
}
