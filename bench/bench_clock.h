/*
 * bench_clock.h — the two clocks every benchmark in bench/ reads: wall time and this process's CPU time.
 * A header of static inline functions, since every C file in bench/ is a program of its own (CMakeLists.txt).
 */
#ifndef CARC_BENCH_CLOCK_H
#define CARC_BENCH_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock (only differences mean anything). */
static inline double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds (user + system) this process has used, all its threads: the machine is shared, so a rate per
 * CPU-second says more than one per wall second. */
static inline double bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
