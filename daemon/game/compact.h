/*
 * compact.h — what a game stops keeping once it no longer needs it (sql/010_compact_log.sql): a finished
 * game's move rows become one text in its games row (move_log.h has the form), and a move's stored answer
 * goes once the idempotency window (CARCD_IDEMPOTENCY_TTL) is over. The clock worker runs both every tick
 * (clock/clock_worker.c); each is batched and bounded, so a backlog is worked off over several ticks.
 *
 * Crash safety: a game's compaction is one transaction that writes the text and deletes the rows (a crash
 * leaves the rows, and the next tick compacts again); the text is written only after a replay of it gave the
 * same state as the replay of the rows, so a game is never compacted into a log that does not replay.
 */
#ifndef CD_COMPACT_H
#define CD_COMPACT_H

#include <stdbool.h>

#include "db/db.h"

/* Compacts up to `max` games finished more than ttl_s seconds before `now` (epoch s), one transaction each;
 * *done gets how many. A game waits out the idempotency window first: its move rows hold the answers that a
 * retry of its last moves gets (the compact log keeps no keys). False when the database failed (try again
 * later). A game that does not replay is logged and left as it is (and skipped by this process from then on). */
bool cd_compact_games(cd_db *db, double now, int ttl_s, int max, int *done);
/* Forgets the key, answer and request hash of moves stored more than ttl_s seconds before `now` (epoch s),
 * in batches, at most `max` rows; *n gets how many. False when the database failed. */
bool cd_idempotency_expire(cd_db *db, double now, int ttl_s, int max, int *n);

#endif
