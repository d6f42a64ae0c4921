/*
 * periodic.c — see periodic.h.
 */
#include "periodic.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

struct timespec cd_deadline_after_ms(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void *periodic_main(void *arg)
{
    cd_periodic *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        pthread_mutex_unlock(&p->mu);
        p->run(p->arg);
        pthread_mutex_lock(&p->mu);
        struct timespec until = cd_deadline_after_ms(p->interval_ms);
        while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &until) != ETIMEDOUT) {
        }
    }
    pthread_mutex_unlock(&p->mu);
    if (p->done)
        p->done(p->arg);
    return NULL;
}

int cd_periodic_start(cd_periodic *p, char *err, size_t errlen)
{
    if (p->started)
        return 0;
    p->stop = false;
    if (pthread_create(&p->thread, NULL, periodic_main, p) != 0) {
        snprintf(err, errlen, "%s: cannot start the worker thread", p->name);
        return -1;
    }
    p->started = true;
    return 0;
}

void cd_periodic_stop(cd_periodic *p)
{
    if (!p->started)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    p->started = false;
}

bool cd_periodic_stopping(cd_periodic *p)
{
    pthread_mutex_lock(&p->mu);
    bool stop = p->stop;
    pthread_mutex_unlock(&p->mu);
    return stop;
}
