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
 *   carcd_moves_one_round_trip_total{outcome}       seats' moves sent without a read first, from the state
 *                                                   cache (handlers/moves_post.c: one round trip, two with play
 *                                                   by e-mail on): committed so, or run again the long way (the
 *                                                   guard found the game otherwise, or the attempt failed)
 *   carcd_db_errors_total                           failed statements, connects and commits (db/db.c)
 *   carcd_webhook_attempts_total{outcome}           webhook attempts of this process's delivery worker,
 *                                                   delivered or failed (webhooks/deliver.c)
 *   carcd_webhook_attempts_in_flight                of its attempts, those under way
 *   carcd_webhook_endpoints_disabled_total          endpoints it disabled after a 410 Gone
 *   carcd_state_cache_reads_total{result}           reads of a decoded game state from this process's state
 *                                                   cache (game/state_cache.h), hit or miss
 *   carcd_sse_streams_open                          event streams (text/event-stream) open now; long-polls
 *                                                   are carcd_http_requests_suspended
 *   carcd_db_roundtrip_seconds                      histogram, 0.1 ms .. 1 s: one statement, or one pipeline
 *                                                   sync (a transaction's batch), there and back (db.c)
 *   carcd_db_retries_total{sqlstate}                statements and transactions run again after 40001
 *                                                   (serialization) or 40P01 (deadlock)
 *   carcd_webhook_attempt_duration_seconds          histogram: one webhook attempt, sent to answered
 *   carcd_webhook_delivery_latency_seconds          histogram: a message's writing (with its move) to the 2xx
 *                                                   that delivered it, retries included
 *   carcd_webhook_deliveries_exhausted_total        messages given up on: every attempt of the schedule failed
 *   carcd_clock_actions_total{action}               reminders sent and timeouts applied by the clock worker
 *   carcd_clock_lag_seconds                         histogram: how late after its due time the clock worker
 *                                                   acted on a reminder or timeout
 *
 * Every one of them is pushed here by the module that sees the event; nothing here reads another module.
 * Values that need the database (games by status, the webhook backlog, overdue clocks) and the process's own
 * (process_*) are added by the /metrics handler (handlers/metrics.c).
 */
#ifndef CD_METRICS_H
#define CD_METRICS_H

#include <stdbool.h>
#include <stddef.h>

/* Route table rows counted separately (metrics.c; the route table checks that it fits, handlers/routes.c). */
#define CD_METRICS_ROUTES 96

/* Pushed counters: the layers above call these and the counters depend on nothing of theirs. */

/* The HTTP layer's hooks: a request begins; it ends (route: its index in cd_routes, -1 when none matched;
 * status 0 when it was never answered) after `seconds`; a request is suspended (+1) or resumed (-1). */
void cd_metrics_request_begin(void);
void cd_metrics_request_end(int route, int status, double seconds);
void cd_metrics_suspended(int delta);

/* A move was applied and committed. */
void cd_metrics_move_applied(void);
/* A move sent in one round trip committed so (true), or was run again the long way (false). */
void cd_metrics_move_one_round_trip(bool committed);
/* A database statement, connect or commit failed. */
void cd_metrics_db_error(void);
/* The webhook delivery worker: an attempt started; it delivered (2xx) or failed; an endpoint was disabled. */
void cd_metrics_webhook_attempt(void);
void cd_metrics_webhook_delivered(void);
void cd_metrics_webhook_failed(void);
void cd_metrics_webhook_gone(void);
/* A read of the state cache: hit or miss. */
void cd_metrics_state_cache_read(bool hit);

/* An event stream opened (+1) or closed (-1). */
void cd_metrics_sse_streams(int delta);
/* A database round trip took `seconds`; a statement or transaction is run again after SQLSTATE `sqlstate`
 * (40001 or 40P01). */
void cd_metrics_db_roundtrip(double seconds);
void cd_metrics_db_retry(const char *sqlstate);
/* A webhook attempt took `seconds`; a message was given up on. */
void cd_metrics_webhook_attempt_seconds(double seconds);
void cd_metrics_webhook_exhausted(void);
/* A message was delivered `seconds` after it was written. */
void cd_metrics_webhook_delivery_latency(double seconds);
/* The clock worker sent a reminder (timeout false) or applied a timeout, `lag_s` after it was due. */
void cd_metrics_clock_action(bool timeout, double lag_s);

/* The current values in the Prometheus text format, requests labelled by route_names (the route table's
 * names in order, nroutes of them); *len gets the length. The caller frees. */
char *cd_metrics_render(const char *const *route_names, int nroutes, size_t *len);

#endif
