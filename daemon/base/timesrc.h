/*
 * timesrc.h — the time the turn clocks go by. The real clock, or — for tests — a file holding the current
 * time as seconds since the epoch (CARCD_TIME_FILE), read at every use so a test moves time by rewriting it,
 * and several carcd processes sharing the file agree.
 */
#ifndef CD_TIMESRC_H
#define CD_TIMESRC_H

/* path: the time file, or NULL / "" for the real clock. Call once before the server starts. */
void cd_time_source(const char *path);
/* Seconds since the epoch. A time file that cannot be read gives the real clock (and a log line). */
double cd_wall_now(void);

/* Monotonic seconds (durations, timeouts): never the wall clock. */
double cd_now(void);

#endif
