/*
 * switch-cost — what this machine charges for a system call and for waking a sleeping thread, the two costs
 * under every carcd request (docs/PERFORMANCE.md §17): no carcd, no HTTP, no PostgreSQL. Prints one
 * `name: value` line per figure.
 *
 *   switch-cost [--hops N]
 *
 * syscall_ns: a getppid(), the cheapest system call, in a loop (wall time a call).
 * pipe_hop_*: two threads pass one byte back and forth through two pipes, N hops; a hop is one thread's
 * write that wakes the other, blocked in its read. `same_core` pins both threads to one core, so that every
 * hop is a thread switch on that core, as when a carcd worker's send wakes the PostgreSQL backend that takes
 * its core; `two_cores` pins them to different cores, so that every hop wakes an idle core, as when a worker
 * sleeping in poll is woken by the backend's answer. For each, the wall time a hop and the process's CPU time
 * (user + system) a hop, and the thread switches a hop (voluntary + involuntary, all threads).
 * On a machine with one core the two_cores figures are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench_clock.h"

typedef struct {
    int in, out;     /* this thread reads `in`, writes `out` */
    long hops;       /* the byte passes on this many times after reading it */
    int cpu;
} side;

static long switches(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (rc != 0) {
        fprintf(stderr, "switch-cost: cannot pin to cpu %d: %s\n", cpu, strerror(rc));
        exit(1);
    }
}

static void io(int fd, char *c, int write_it)
{
    ssize_t n;
    do
        n = write_it ? write(fd, c, 1) : read(fd, c, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) {
        fprintf(stderr, "switch-cost: pipe %s failed\n", write_it ? "write" : "read");
        exit(1);
    }
}

static void *echo(void *arg)
{
    side *s = arg;
    pin(s->cpu);
    char c;
    for (long i = 0; i < s->hops; i++) {
        io(s->in, &c, 0);
        io(s->out, &c, 1);
    }
    return NULL;
}

/* One series: the main thread on cpu_a starts the byte, the echo thread on cpu_b sends it back. */
static void pipe_hops(const char *name, long hops, int cpu_a, int cpu_b)
{
    int ab[2], ba[2];
    if (pipe(ab) || pipe(ba)) {
        perror("switch-cost: pipe");
        exit(1);
    }
    long rounds = hops / 2;
    side other = {.in = ab[0], .out = ba[1], .hops = rounds, .cpu = cpu_b};
    pin(cpu_a);
    pthread_t t;
    if (pthread_create(&t, NULL, echo, &other) != 0) {
        fprintf(stderr, "switch-cost: pthread_create failed\n");
        exit(1);
    }
    char c = 'x';
    /* a first round trip so that the other thread is pinned and waiting before the clock starts */
    other.hops = rounds + 1;
    io(ab[1], &c, 1);
    io(ba[0], &c, 0);
    double t0 = bench_now_s(), c0 = bench_cpu_s();
    long s0 = switches();
    for (long i = 0; i < rounds; i++) {
        io(ab[1], &c, 1);
        io(ba[0], &c, 0);
    }
    double wall = bench_now_s() - t0, cpu = bench_cpu_s() - c0;
    long sw = switches() - s0;
    pthread_join(t, NULL);
    close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]);
    double n = (double)(2 * rounds);
    printf("pipe_hop_%s_wall_us: %.2f\n", name, wall * 1e6 / n);
    printf("pipe_hop_%s_cpu_us: %.2f\n", name, cpu * 1e6 / n);
    printf("pipe_hop_%s_switches: %.2f\n", name, (double)sw / n);
}

int main(int argc, char **argv)
{
    long hops = 200000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--hops") == 0 && i + 1 < argc) {
            hops = strtol(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: switch-cost [--hops N]\n");
            return 2;
        }
    }
    if (hops < 2) {
        fprintf(stderr, "switch-cost: --hops must be at least 2\n");
        return 2;
    }
    long calls = hops * 10;
    double t0 = bench_now_s();
    for (long i = 0; i < calls; i++)
        (void)getppid();
    printf("syscall_ns: %.0f\n", (bench_now_s() - t0) * 1e9 / (double)calls);
    printf("hops: %ld\n", hops);
    pipe_hops("same_core", hops, 0, 0);
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
        pipe_hops("two_cores", hops, 0, 1);
    return 0;
}
