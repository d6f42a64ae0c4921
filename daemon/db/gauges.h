/*
 * gauges.h — the values GET /metrics reads from the database rather than counts (ST_GAUGES): what the whole
 * installation holds, whichever carcd process did it.
 */
#ifndef CD_GAUGES_H
#define CD_GAUGES_H

#include <stdbool.h>

#include "db.h"

typedef struct {
    long long games_active, games_finished, games_waiting, games_cancelled;
    long long outbox_pending;       /* webhook messages not yet delivered nor given up on */
    double outbox_oldest_age_s;     /* the oldest of them, seconds since it was written; 0 when none */
    long long clocks_overdue;       /* active games whose reminder or timeout is due (clock_due passed) */
    double clocks_overdue_max_s;    /* the most overdue of them, seconds; 0 when none */
} cd_db_gauges;

/* One statement; false when it failed (*out is then zeroed). */
bool cd_db_gauges_read(cd_db *db, cd_db_gauges *out);

#endif
