/*
 * state_cache.c — a 16-way set-associative cache of decoded game states (see state_cache.h), least recently
 * used out. One mutex: a hit is one copy of the state's live part (carc_state_copy: the board's spaces and
 * pieces in use, 8-12 KB of a mid-game base game's 31 KB), far cheaper than the JSON parse and decode it saves;
 * a move's new state goes in without one (cd_cache_give).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "state_cache.h"

/* A game may sit in any of its set's ways, so games whose ids share a set do not evict each other until the
 * set is full. 256 slots direct-mapped left ~40 % of 128 games colliding; 64 sets of 4 still missed 4-7 % of
 * reads with 128 games in play, half the capacity: sets of 4 overflow when ids fall unevenly (6 or 7 games in
 * a set now and then), and the least recent of a cycling set is always the next one wanted. Sets of 16 hold
 * 128 games without overflowing (tests/daemon/test_state_cache.c); a lookup compares each way's id hash
 * first, so 16 ways cost a few integer compares. */
#define CACHE_WAYS 16
#define CACHE_SETS 16      /* 256 states, ~8 MB; games in play at once beyond that just miss */

typedef struct {
    char id[37];
    unsigned hash;        /* id_hash(id): compared before the id */
    int seq;
    unsigned long used;   /* when it was last read or written (a tick of `clock`): the least recent goes */
    carc_state *st;       /* NULL = empty slot */
    cd_cache_aux aux;     /* what is known of the game besides (state_cache.h) */
} slot;

static slot slots[CACHE_SETS][CACHE_WAYS];
static unsigned long clock_ticks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned id_hash(const char *id)
{
    unsigned h = 2166136261u;   /* FNV-1a over the id, case-folded like uuid comparison */
    for (const char *p = id; *p; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p + 32) : *p;
        h = (h ^ (unsigned char)c) * 16777619u;
    }
    return h;
}

static bool holds(const slot *s, const char *id, unsigned hash)
{
    return s->st && s->hash == hash && strcasecmp(s->id, id) == 0;
}

int cd_cache_copy(const char *id, carc_state *out, cd_cache_aux *aux)
{
    unsigned hash = id_hash(id);
    slot *set = slots[hash % CACHE_SETS];
    int seq = -1;
    pthread_mutex_lock(&lock);
    for (int w = 0; w < CACHE_WAYS; w++) {
        slot *s = &set[w];
        if (holds(s, id, hash)) {
            carc_state_copy(out, s->st);
            s->used = ++clock_ticks;
            seq = s->seq;
            if (aux)
                *aux = s->aux;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return seq;
}

/* The slot for id: the game's own (one state per game: the newest), else an empty one, else the least recent.
 * Under the lock. */
static slot *slot_for(const char *id, unsigned hash)
{
    slot *set = slots[hash % CACHE_SETS];
    slot *s = NULL;
    for (int w = 0; w < CACHE_WAYS && !s; w++)
        if (holds(&set[w], id, hash))
            s = &set[w];
    for (int w = 0; w < CACHE_WAYS && !s; w++)
        if (!set[w].st)
            s = &set[w];
    if (!s) {
        s = &set[0];
        for (int w = 1; w < CACHE_WAYS; w++)
            if (set[w].used < s->used)
                s = &set[w];
    }
    return s;
}

static void name_slot(slot *s, const char *id, unsigned hash, int seq)
{
    if (s->hash != hash || strcasecmp(s->id, id) != 0) {   /* another game's slot: nothing known of this one */
        s->aux = (cd_cache_aux){0};
        snprintf(s->id, sizeof s->id, "%s", id);
        s->hash = hash;
    }
    s->seq = seq;
    s->used = ++clock_ticks;
}

void cd_cache_put(const char *id, int seq, const carc_state *st)
{
    unsigned hash = id_hash(id);
    pthread_mutex_lock(&lock);
    slot *s = slot_for(id, hash);
    if (!s->st)
        s->st = malloc(sizeof *s->st);
    if (s->st) {
        carc_state_copy(s->st, st);
        name_slot(s, id, hash, seq);
    }
    pthread_mutex_unlock(&lock);
}

/* aux's flags, and the seat tokens it knows added to the slot's (a move knows its own seat's, the creation all) */
static void merge_aux(cd_cache_aux *into, const cd_cache_aux *aux)
{
    into->known = aux->known;
    into->unclocked = aux->unclocked;
    into->no_hooks = aux->no_hooks;
    into->no_linked = aux->no_linked;
    for (int i = 0; i < CARC_MAX_PLAYERS; i++)
        if (aux->seat_token[i][0])
            memcpy(into->seat_token[i], aux->seat_token[i], CD_HEX256_LEN);
}

void cd_cache_give(const char *id, int seq, carc_state **st, const cd_cache_aux *aux)
{
    unsigned hash = id_hash(id);
    pthread_mutex_lock(&lock);
    slot *s = slot_for(id, hash);
    carc_state *old = s->st;
    s->st = *st;
    name_slot(s, id, hash, seq);
    if (aux)
        merge_aux(&s->aux, aux);
    pthread_mutex_unlock(&lock);
    *st = old;
}

void cd_cache_seat_token(const char *id, int seat, const char *token_hash)
{
    if (seat < 0 || seat >= CARC_MAX_PLAYERS)
        return;
    unsigned hash = id_hash(id);
    slot *set = slots[hash % CACHE_SETS];
    pthread_mutex_lock(&lock);
    for (int w = 0; w < CACHE_WAYS; w++)
        if (holds(&set[w], id, hash)) {
            char *t = set[w].aux.seat_token[seat];
            if (token_hash)
                snprintf(t, CD_HEX256_LEN, "%s", token_hash);
            else
                t[0] = '\0';
            break;
        }
    pthread_mutex_unlock(&lock);
}
