/*
 * metrics.h — carcd's counters, rendered by GET /metrics in the Prometheus text format (0.0.4).
 *
 * Every counter is a C11 atomic updated with relaxed ordering: cheap enough to touch on every request from
 * every worker thread, and exact (no sampling). Nothing needs initialising; the counters start at zero with
 * the process.
 *
 *   carcd_http_requests_total{route,code}           answers by route name (cd_route.name; "none" when no
 *                                                   route matched) and HTTP status
 *   carcd_http_requests_unanswered_total{route}     requests that ended with no answer from carcd (the
 *                                                   client went away, a timeout, shutdown)
 *   carcd_http_request_duration_seconds{route}      histogram, 1 ms .. 10 s, request start to completion
 *   carcd_http_requests_in_flight                   requests begun and not yet completed
 *   carcd_http_requests_suspended                   of those, long-polls waiting (suspended)
 *   carcd_moves_applied_total                       moves committed (the moves handler calls
 *                                                   cd_metrics_move_applied after COMMIT)
 *   carcd_db_errors_total                           failed statements, connects and commits (db/db.c)
 *   carcd_webhook_attempts_total{outcome}           webhook attempts of this process's delivery worker,
 *                                                   delivered or failed (webhooks/deliver.c)
 *   carcd_webhook_attempts_in_flight                of its attempts, those under way
 *   carcd_webhook_endpoints_disabled_total          endpoints it disabled after a 410 Gone
 *   carcd_state_cache_reads_total{result}           reads of a decoded game state from this process's state
 *                                                   cache (game/state_cache.h), hit or miss
 */
#ifndef CD_METRICS_H
#define CD_METRICS_H

#include <stdbool.h>
#include <stddef.h>

/* Pushed counters: the layers above call these and the counters depend on nothing of theirs. */

/* The HTTP layer's hooks: a request begins; it ends (route: its index in cd_routes, -1 when none matched;
 * status 0 when it was never answered) after `seconds`; a request is suspended (+1) or resumed (-1). */
void cd_metrics_request_begin(void);
void cd_metrics_request_end(int route, int status, double seconds);
void cd_metrics_suspended(int delta);

/* A move was applied and committed. */
void cd_metrics_move_applied(void);
/* A database statement, connect or commit failed. */
void cd_metrics_db_error(void);
/* The webhook delivery worker: an attempt started; it delivered (2xx) or failed; an endpoint was disabled. */
void cd_metrics_webhook_attempt(void);
void cd_metrics_webhook_delivered(void);
void cd_metrics_webhook_failed(void);
void cd_metrics_webhook_gone(void);
/* A read of the state cache: hit or miss. */
void cd_metrics_state_cache_read(bool hit);

/* The current values in the Prometheus text format, requests labelled by route_names (the route table's
 * names in order, nroutes of them); *len gets the length. The caller frees. */
char *cd_metrics_render(const char *const *route_names, int nroutes, size_t *len);

#endif
