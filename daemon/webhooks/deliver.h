/*
 * deliver.h — the webhook delivery worker: one thread per carcd process that sends the outbox's due rows.
 *
 * Claiming. The worker takes due rows with one statement (ST_WH_CLAIM): FOR UPDATE SKIP LOCKED picks rows
 * no other worker is claiming right now, and the same statement leases them — due_at moves to the end of
 * the lease (the attempt's timeout plus a margin) and `lease` gets a fresh id — and writes the attempt's
 * row; it commits at once, so no lock is held while sending. Another carcd sees the rows as not due until
 * the lease ends; the outcome is recorded only if it presents the lease id (ST_WH_OUTBOX_DONE). So several
 * processes on one database share the work and send each message once, and a process that dies mid-send
 * leaves its rows to come due again when their leases end: delivery is at least once, and exactly once
 * unless a process dies (or the database goes away) between the receiver's answer and its record. A repeat
 * carries the same webhook-id, which receivers use to drop it. That window is kept short: the attempt is
 * recorded before sending (in the claim), and a 2xx is marked delivered by one autocommitted statement
 * (ST_WH_DELIVERED) as soon as curl reports it, before the worker claims or records anything else.
 *
 * Sending. libcurl multi, up to `concurrency` requests at once, so a slow receiver delays no one else (and
 * no move: moves only write rows). Every request: POST of the stored body, the Standard Webhooks headers
 * (webhook-id stable across attempts, webhook-timestamp of this attempt, webhook-signature), a connect and
 * a total timeout, http and https only, no redirects, no proxy, and every address curl would connect to
 * checked by netguard.h in CURLOPT_OPENSOCKETFUNCTION, after resolution, where it cannot be re-resolved.
 *
 * Outcomes. 2xx: delivered. 410: the endpoint is disabled and its pending messages failed. Anything else
 * (other statuses, 3xx included, timeouts, refused addresses): the next attempt after the next delay of the
 * schedule (CARCD_WEBHOOK_BACKOFF) with ±10 % jitter, or later if the answer's Retry-After asks for more;
 * after the last one the message has failed (POST .../redeliver starts a new round).
 *
 * Waking. The worker LISTENs on carcd_webhooks (outbox.c NOTIFYs it in the event's transaction) on a
 * connection of its own, and otherwise looks again when the next row is due, at least every second.
 */
#ifndef CD_DELIVER_H
#define CD_DELIVER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

/* Starts the worker (none when cfg->webhook_concurrency is 0). cd_webhooks_configure must have run.
 * 0, or -1 with err. cfg must outlive cd_deliver_stop. */
int cd_deliver_start(const cd_config *cfg, char *err, size_t errlen);
/* Stops claiming, gives the rows in flight back (due at once, the attempt not counted) and joins. */
void cd_deliver_stop(void);

#endif
