/*
 * hooks.c — the e2e tests' recording webhook receiver, and the body collection it shares with test_webhooks.c's
 * own receiver (hooks.h).
 */
#include <arpa/inet.h>
#include <check.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"
#include "hooks.h"

#define MAX_HITS 4096

struct e2e_hooks {
    struct MHD_Daemon *mhd;
    int port;
    pthread_mutex_t mu;
    char *path[MAX_HITS], *body[MAX_HITS];
    int n;
};

e2e_upload *e2e_upload_take(void **ctx, const char *data, size_t *size)
{
    e2e_upload *u = *ctx;
    if (!u) {   /* the headers: the body, if any, comes in the next calls */
        *ctx = calloc(1, sizeof(e2e_upload));
        return NULL;
    }
    if (*size) {
        u->p = realloc(u->p, u->n + *size + 1);
        memcpy(u->p + u->n, data, *size);
        u->n += *size;
        u->p[u->n] = 0;
        *size = 0;
        return NULL;
    }
    return u;
}

void e2e_upload_done(void *cls, struct MHD_Connection *con, void **ctx, enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)con, (void)why;
    e2e_upload *u = *ctx;
    if (u) {
        free(u->p);
        free(u);
    }
    *ctx = NULL;
}

static enum MHD_Result on_hook(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                               const char *version, const char *data, size_t *size, void **ctx)
{
    (void)method, (void)version;
    e2e_hooks *h = cls;
    e2e_upload *u = e2e_upload_take(ctx, data, size);
    if (!u)
        return MHD_YES;
    pthread_mutex_lock(&h->mu);
    if (h->n < MAX_HITS) {
        h->path[h->n] = strdup(url);
        h->body[h->n++] = strdup(u->p ? u->p : "");
    }
    pthread_mutex_unlock(&h->mu);
    struct MHD_Response *resp = MHD_create_response_from_buffer(2, (void *)"ok", MHD_RESPMEM_PERSISTENT);
    enum MHD_Result r = MHD_queue_response(con, 200, resp);
    MHD_destroy_response(resp);
    return r;
}

e2e_hooks *e2e_hooks_start(void)
{
    e2e_hooks *h = calloc(1, sizeof *h);
    ck_assert_ptr_nonnull(h);
    pthread_mutex_init(&h->mu, NULL);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    h->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL, on_hook,
                              h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_NOTIFY_COMPLETED,
                              e2e_upload_done, h, MHD_OPTION_END);
    ck_assert_ptr_nonnull(h->mhd);
    h->port = MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_BIND_PORT)->port;
    return h;
}

int e2e_hooks_port(const e2e_hooks *h)
{
    return h->port;
}

void e2e_hooks_stop(e2e_hooks *h)
{
    MHD_stop_daemon(h->mhd);
    for (int i = 0; i < h->n; i++) {
        free(h->path[i]);
        free(h->body[i]);
    }
    pthread_mutex_destroy(&h->mu);
    free(h);
}

json_t *e2e_hooks_wait(e2e_hooks *h, const char *path, e2e_hook_match match, const void *arg, double timeout_s)
{
    for (double end = e2e_now() + timeout_s;;) {
        pthread_mutex_lock(&h->mu);
        for (int i = 0; i < h->n; i++) {
            if (path && strcmp(h->path[i], path) != 0)
                continue;
            json_t *j = json_loads(h->body[i], 0, NULL);
            if (j && match(j, arg)) {
                pthread_mutex_unlock(&h->mu);
                return j;
            }
            json_decref(j);
        }
        pthread_mutex_unlock(&h->mu);
        if (e2e_now() >= end)
            return NULL;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
