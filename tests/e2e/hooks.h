/*
 * hooks.h — a webhook receiver for the e2e tests that only need to see what carcd sent: a libmicrohttpd server
 * on 127.0.0.1 (a free port) that answers 200 "ok" to every request and keeps each body with its path.
 * (test_webhooks.c has its own, which also answers with failures, redirects and delays by path.)
 */
#ifndef E2E_HOOKS_H
#define E2E_HOOKS_H

#include <jansson.h>
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

#endif
