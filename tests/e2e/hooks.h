/*
 * hooks.h — a webhook receiver for the e2e tests that only need to see what carcd sent: a libmicrohttpd server
 * on 127.0.0.1 (a free port) that answers 200 "ok" to every request and keeps each body with its path.
 * (test_webhooks.c has its own, which also answers with failures, redirects and delays by path; it shares
 * the body collection below.)
 */
#ifndef E2E_HOOKS_H
#define E2E_HOOKS_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>

typedef struct e2e_hooks e2e_hooks;

e2e_hooks *e2e_hooks_start(void);
int e2e_hooks_port(const e2e_hooks *h);
void e2e_hooks_stop(e2e_hooks *h);   /* stops the server and frees what it kept */

/* Whether a received body (parsed) is the one looked for. */
typedef bool (*e2e_hook_match)(const json_t *body, const void *arg);
/* The first body sent to `path` (NULL: any) that `match` accepts, parsed (a new reference), waiting up to
 * timeout_s seconds for it; NULL when none came. */
json_t *e2e_hooks_wait(e2e_hooks *h, const char *path, e2e_hook_match match, const void *arg, double timeout_s);

/* A request body as libmicrohttpd hands it over, NUL-terminated (p is NULL while empty). */
typedef struct {
    char *p;
    size_t n;
} e2e_upload;
/* For an access handler: keeps the pieces of the body in *ctx. The whole body once it is all in; NULL while
 * MHD is still passing it (the handler then answers MHD_YES). */
e2e_upload *e2e_upload_take(void **ctx, const char *data, size_t *size);
/* MHD_OPTION_NOTIFY_COMPLETED callback freeing what e2e_upload_take kept. */
void e2e_upload_done(void *cls, struct MHD_Connection *con, void **ctx, enum MHD_RequestTerminationCode why);

#endif
