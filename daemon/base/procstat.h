/*
 * procstat.h — the process metrics every Prometheus exporter gives (process_*), read from /proc/self when
 * GET /metrics asks: resident memory, CPU seconds, open file descriptors and their limit, start time.
 */
#ifndef CD_PROCSTAT_H
#define CD_PROCSTAT_H

#include <stdio.h>

/* Writes the process_* metrics in the Prometheus text format to f. A value /proc does not give is left out. */
void cd_procstat_render(FILE *f);

#endif
