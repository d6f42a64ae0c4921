/*
 * clock_worker.h — the thread that applies what the turn clocks call for: a reminder when a seat has used
 * its clock's remind_at share, the timeout policy (skip or forfeit) at its deadline.
 *
 * Coordination. Every carcd process may run one; they share the work through the database. Each step is
 * one transaction that takes one game whose clock_due has passed with FOR UPDATE SKIP LOCKED (another
 * worker, or a move being made, holds it: skip it), decides again from the clock as stored, acts, and writes
 * the clock back with its next due time. A move locks the same row, so a timeout and a move never both
 * happen, and a second worker that gets the row afterwards finds nothing due: each timeout and each
 * reminder happens once.
 *
 * Time comes from timesrc.h (tests replace it); the worker looks every clock_interval_ms. After the clocks,
 * each tick also does the storage's upkeep (game/compact.h): finished games compacted, moves' answers older
 * than CARCD_IDEMPOTENCY_TTL forgotten.
 */
#ifndef CD_CLOCK_WORKER_H
#define CD_CLOCK_WORKER_H

#include <stddef.h>

#include "base/config.h"

/* Starts the worker (none when cfg->clock_interval_ms is 0). 0, or -1 with err. cfg outlives the stop. */
int cd_clock_worker_start(const cd_config *cfg, char *err, size_t errlen);
void cd_clock_worker_stop(void);

#endif
