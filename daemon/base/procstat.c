/*
 * procstat.c — see procstat.h. Linux only: /proc/self/stat (CPU ticks, start time in ticks since boot, RSS in
 * pages), /proc/stat (the boot time), /proc/self/fd and /proc/self/limits.
 */
#include "procstat.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The numeric fields of /proc/self/stat after the command name (which may hold spaces) and the state: fields
 * 4.. into v[0..]; how many were read. */
static int self_stat(unsigned long long *v, int n)
{
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return 0;
    char line[1024];
    size_t len = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[len] = 0;
    char *p = strrchr(line, ')');
    if (!p)
        return 0;
    p += 2;   /* ") " then the state */
    while (*p && *p != ' ')
        p++;
    int k = 0;
    while (k < n && *p) {
        char *end;
        v[k++] = strtoull(p, &end, 10);
        if (end == p)
            break;
        p = end;
    }
    return k;
}

static double boot_time(void)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    char line[256];
    double t = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "btime ", 6) == 0) {
            t = strtod(line + 6, NULL);
            break;
        }
    fclose(f);
    return t;
}

static long open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1;   /* the directory's own descriptor */
}

static long max_fds(void)
{
    FILE *f = fopen("/proc/self/limits", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Max open files", 14) == 0) {
            v = strtol(line + 14, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

void cd_procstat_render(FILE *f)
{
    /* utime is field 14, stime 15, starttime 22, rss 24 (man 5 proc); v[0] is field 4 */
    unsigned long long v[21];
    double tick = (double)sysconf(_SC_CLK_TCK), page = (double)sysconf(_SC_PAGESIZE);
    if (self_stat(v, 21) == 21 && tick > 0) {
        fprintf(f,
                "# HELP process_cpu_seconds_total User and system CPU time spent, in seconds.\n"
                "# TYPE process_cpu_seconds_total counter\n"
                "process_cpu_seconds_total %.2f\n"
                "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
                "# TYPE process_resident_memory_bytes gauge\n"
                "process_resident_memory_bytes %.0f\n",
                (double)(v[14 - 4] + v[15 - 4]) / tick, (double)v[24 - 4] * page);
        double boot = boot_time();
        if (boot > 0)
            fprintf(f,
                    "# HELP process_start_time_seconds Start time of the process since the epoch, in seconds.\n"
                    "# TYPE process_start_time_seconds gauge\n"
                    "process_start_time_seconds %.2f\n",
                    boot + (double)v[22 - 4] / tick);
    }
    long fds = open_fds(), maxfds = max_fds();
    if (fds >= 0)
        fprintf(f,
                "# HELP process_open_fds Open file descriptors.\n"
                "# TYPE process_open_fds gauge\n"
                "process_open_fds %ld\n",
                fds);
    if (maxfds > 0)
        fprintf(f,
                "# HELP process_max_fds The limit of open file descriptors.\n"
                "# TYPE process_max_fds gauge\n"
                "process_max_fds %ld\n",
                maxfds);
}
