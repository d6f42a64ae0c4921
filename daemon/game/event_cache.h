/*
 * event_cache.h — the rendered events (admin view) of the moves this process made or derived lately, by
 * (game id, seq), so that the events endpoint, a long-poll's wake and an event stream's catch-up need no
 * replay for the last moves of a game in play (moves no longer store their events: sql/010_compact_log.sql).
 *
 * An entry is put when a move is committed (game/move_commit.c: before the COMMIT is known to succeed) and
 * when a replay derived it, and is used only when the log's row at that seq holds the same seat and the same
 * move: the events of a move are a function of the state before it, which the committed log up to seq - 1
 * fixes, and of the move, so an entry put by a move whose commit failed is still right for the same move at
 * that seq, and is never used for another. Several carcd processes each keep their own.
 */
#ifndef CD_EVENT_CACHE_H
#define CD_EVENT_CACHE_H

#include <jansson.h>

/* The cache's key for a move as logged, malloc'd: its notation, or (none) its compact JSON with sorted keys;
 * "null" for the opening's none. A notation and a JSON text never look alike. */
char *cd_event_cache_move_key(const json_t *move);
/* Remembers the admin events (JSON text) of (id, seq), made by seat (-1: the opening) with move_key. */
void cd_event_cache_put(const char *id, int seq, int seat, const char *move_key, const char *events);
/* The events held for (id, seq) when they were made by seat with move_key: a new array; NULL otherwise. */
json_t *cd_event_cache_get(const char *id, int seq, int seat, const char *move_key);

#endif
