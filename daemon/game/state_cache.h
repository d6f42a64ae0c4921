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

#include <stdbool.h>

#include "base/crypto.h"
#include "carc.h"

/* What a seat's move read of its game besides the state (or what the game's creation stored:
 * handlers/games_create.c), kept with it: a move sent in one round trip (handlers/moves_post.c) assumes it and
 * has the database check it under the lock (db/game_reads.h: cd_move_guard_deferred), so a stale one costs a
 * retry, never a wrong move. Properties of the game, not of a
 * seq: they stay with the game's slot when a state without them (a bot's move) replaces its state. */
typedef struct {
    bool known;       /* read under a seat's move lock, or stored by the creation; false: nothing known, the
                       * move takes the long way */
    bool unclocked;   /* the game has no turn clock */
    bool no_hooks;    /* it has no enabled webhook endpoint */
    bool no_linked;   /* no seat of it is linked to a player */
    /* each seat's token hash as its creation or a request under it showed it to be the seat's ("": not known).
     * A move goes in one round trip only under the pending seat's: the engine must not work on a move before its
     * token is known to be that seat's, or the answer's time (and /metrics' count of guards refused) tells
     * anyone whether the move is legal for that seat, which with hidden hands says what the hand holds. Kept
     * across the slot's states like the rest; a stale one (a token renewed by another carcd) fails the guard. */
    char seat_token[CARC_MAX_PLAYERS][CD_HEX256_LEN];
} cd_cache_aux;

/* Remembers token_hash as seat's token of game id (NULL: forgets the seat's), when the cache holds the game. */
void cd_cache_seat_token(const char *id, int seat, const char *token_hash);

/* Copies the state held for id into *out and returns its seq; -1 when none is held (*out untouched). *aux (may
 * be NULL) gets what is known of the game besides. */
int cd_cache_copy(const char *id, carc_state *out, cd_cache_aux *aux);
/* Remembers st as the state of (id, seq), replacing whatever shared its slot (what is known besides stays when
 * the slot was the game's). */
void cd_cache_put(const char *id, int seq, const carc_state *st);
/* cd_cache_put without the copy: the cache keeps *st (malloc memory) and *st becomes the state it replaced
 * (or NULL), for the caller to free outside the lock; aux (NULL: keep what the slot knew of the game) is what
 * the move read besides: its flags replace the slot's, its seat tokens are added to those the slot knew. */
void cd_cache_give(const char *id, int seq, carc_state **st, const cd_cache_aux *aux);

#endif
