/*
 * state_cache.h — decoded game states by (game id, seq), kept by this process so that a move, and the
 * reads that follow it, skip parsing and decoding the stored snapshot (half of a move's CPU otherwise).
 *
 * Entries are keyed by seq, which the database hands out under the game row's lock, so a stale entry is
 * never used: a state is taken only when its seq is the one just read from the database. Several carcd
 * processes each keep their own cache; that is safe for the same reason. Cached states carry the seed
 * (they come from moves), so only code that renders through the engine's views may read them.
 */
#ifndef CD_STATE_CACHE_H
#define CD_STATE_CACHE_H

#include <stdbool.h>

#include "carc.h"

/* Copies the cached state of (id, seq) into *out; false when there is none. */
bool cd_cache_get(const char *id, int seq, carc_state *out);
/* The seq of the state held for id, or -1: a read may then leave the snapshot in the database (store.c), and
 * take the state from cd_cache_get, which can still miss if another thread replaced the entry meanwhile. */
int cd_cache_seq(const char *id);
/* Remembers st as the state of (id, seq), replacing whatever shared its slot. */
void cd_cache_put(const char *id, int seq, const carc_state *st);
/* cd_cache_get's answers since the process started, for /metrics. */
void cd_cache_stats(unsigned long long *hits, unsigned long long *misses);

#endif
