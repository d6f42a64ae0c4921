/*
 * periodic.h — a thread that runs one function every interval until it is stopped: the loop the clock worker
 * and the bot worker share (clock/). The interval is counted from the end of one run to the start of the
 * next, so a slow run delays the next instead of piling runs up; a stop wakes the sleep at once.
 */
#ifndef CD_PERIODIC_H
#define CD_PERIODIC_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

typedef struct {
    /* set by the owner before cd_periodic_start */
    const char *name;            /* in the start's error: "<name>: cannot start the worker thread" */
    long interval_ms;            /* > 0 */
    void (*run)(void *arg);      /* on the thread, without the lock held */
    void (*done)(void *arg);     /* on the thread as it ends (NULL: nothing); its per-thread resources */
    void *arg;
    /* the thread's own */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, started;
} cd_periodic;

#define CD_PERIODIC_INIT {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER}

/* Starts the thread; 0, or -1 with err. A second start while it runs does nothing. */
int cd_periodic_start(cd_periodic *p, char *err, size_t errlen);
/* Asks it to stop and waits until it has (its run returns first). Nothing when it was not started. */
void cd_periodic_stop(cd_periodic *p);
/* For a run that loops: whether a stop was asked, so that it can return early. */
bool cd_periodic_stopping(cd_periodic *p);
/* Now + ms on CLOCK_REALTIME, the clock pthread_cond_timedwait measures against: the deadline of a timed wait
 * (here, and the log's flusher: log.c). */
struct timespec cd_deadline_after_ms(long ms);

#endif
