/*
 * state_cache.h — decoded game states by (game id, seq), kept by this process so that a move, and the
 * reads that follow it, skip parsing and decoding the stored snapshot (half of a move's CPU otherwise).
 *
 * Entries are keyed by seq, which the database hands out under the game row's lock, so a stale entry is
 * never used: a reader copies the held state out before it reads the game (cd_cache_copy), names its seq to
 * the database (which then leaves the stored snapshot out: db/game_reads.c), and keeps the copy only when that seq is
 * the one just read. A copy taken first cannot be replaced under the read. Several carcd
 * processes each keep their own cache; that is safe for the same reason. Cached states carry the seed
 * (they come from moves), so only code that renders through the engine's views may read them.
 */
#ifndef CD_STATE_CACHE_H
#define CD_STATE_CACHE_H

#include "carc.h"

/* Copies the state held for id into *out and returns its seq; -1 when none is held (*out untouched). */
int cd_cache_copy(const char *id, carc_state *out);
/* Remembers st as the state of (id, seq), replacing whatever shared its slot. */
void cd_cache_put(const char *id, int seq, const carc_state *st);
/* cd_cache_put without the copy: the cache keeps *st (malloc memory) and *st becomes the state it replaced
 * (or NULL), for the caller to free outside the lock. */
void cd_cache_give(const char *id, int seq, carc_state **st);

#endif
