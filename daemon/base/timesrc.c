/*
 * timesrc.c — see timesrc.h.
 */
#include "timesrc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static char time_file[512];   /* set once at start-up, read-only afterwards */

void cd_time_source(const char *path)
{
    snprintf(time_file, sizeof time_file, "%s", path ? path : "");
}

static double real_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double cd_wall_now(void)
{
    if (!time_file[0])
        return real_now();
    FILE *f = fopen(time_file, "r");
    double t = -1;
    if (f) {
        if (fscanf(f, "%lf", &t) != 1)
            t = -1;
        fclose(f);
    }
    if (!(t > 0) || !isfinite(t)) {
        fprintf(stderr, "carcd: time file %s holds no time; using the real clock\n", time_file);
        return real_now();
    }
    return t;
}

double cd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
