/*
 * main.c — the carcd program: `carcd [serve]`, `carcd migrate`, `carcd mail-in`, `carcd --help`.
 *
 * serve: checks the database schema, starts the notify thread and the HTTP server and waits for SIGINT, SIGTERM
 * or SIGHUP (a closed terminal, or a supervisor's "reload": carcd has nothing to reload), then stops cleanly
 * (long-polls answered, event streams ended, requests in flight finished) and exits 0. The signals are blocked
 * in every thread (the mask is set before any thread starts, so MHD's workers inherit it) and taken with sigwait
 * here: no handler for them, so nothing async-signal-unsafe can happen (the one handler carcd has, for a crash,
 * only writes the gathered log lines: base/log.h). SIGPIPE is ignored: a client that went away is an error on
 * one socket, not a reason to die. Any fatal error is one line on stderr and exit status 1.
 */
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "db/db.h"
#include "http/http.h"
#include "http/limits.h"
#include "base/log.h"
#include "db/notify.h"
#include "clock/bot_worker.h"
#include "clock/clock_worker.h"
#include "webhooks/deliver.h"
#include "game/move_commit.h"
#include "game/tiles_doc.h"
#include "base/timesrc.h"
#include "webhooks/webhooks.h"
#include "mailin/imap_poll.h"
#include "mail/mail.h"
#include "mailin/mail_in.h"
#include "mail/send.h"

/* One line on stderr, whatever msg holds (libpq's messages span lines), and the exit status 1. */
static int fatal(const char *msg)
{
    char line[1024];
    size_t n = 0;
    for (const char *c = msg; *c && n + 1 < sizeof line; c++) {
        bool space = *c == '\n' || *c == '\t' || *c == '\r';
        if (space && (n == 0 || line[n - 1] == ' '))
            continue;
        line[n++] = space ? ' ' : *c;
    }
    while (n > 0 && line[n - 1] == ' ')
        n--;
    line[n] = '\0';
    fprintf(stderr, "carcd: %s\n", line);
    return 1;
}

static int serve(const cd_config *cfg)
{
    char err[1024];
#ifdef M_MXFAST
    /* no fastbins (glibc): a request frees many small jansson blocks and then asks for libpq's result
     * blocks (1 KiB and more), and each such request consolidates the fastbins first (malloc_consolidate was
     * ~9 % of carcd's CPU under bench/run-http-bench.sh); the per-thread tcache still serves small sizes.
     * Measured: 6-9 % less carcd CPU per move in two A/B pairs */
    mallopt(M_MXFAST, 0);
#endif
    if (cd_schema_check(cfg, err, sizeof err) != 0)
        return fatal(err);
    if (cd_webhooks_configure(cfg, err, sizeof err) != 0)
        return fatal(err);
    if (cd_mail_configure(cfg, err, sizeof err) != 0)
        return fatal(err);
    cd_snapshot_every(cfg->snapshot_every);   /* before any thread that moves: HTTP, mail in, clock, bots */

    /* a shell starting carcd in the background hands it SIGINT ignored, and an ignored signal is dropped
     * rather than left pending for sigwait: take both back to their default first. SIGHUP stops carcd cleanly
     * too, where it killed it on the spot, unless it came ignored: nohup's whole point is to outlive the
     * terminal */
    struct sigaction dfl = {0}, hup;
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
        sigaddset(&stop, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &stop, NULL) != 0)
        return fatal("cannot block SIGINT, SIGTERM and SIGHUP");

    /* the notify thread wakes long-polls and event streams when moves land (notify.h) */
    cd_notify_on_housekeeping(cd_http_release_memory);   /* a wake-up burst's memory goes back to the system */
    if (cd_notify_start(cfg) != 0)
        return fatal("cannot start the notify thread");
    /* the webhook delivery worker sends what moves leave in the outbox (deliver.h) */
    if (cd_deliver_start(cfg, err, sizeof err) != 0) {
        cd_notify_stop();
        return fatal(err);
    }
    /* the mail sender sends what moves leave in the mail outbox, the IMAP poller reads replies (mail/) */
    if (cd_mail_send_start(cfg, err, sizeof err) != 0 || cd_imap_poll_start(cfg, err, sizeof err) != 0) {
        cd_mail_send_stop();
        cd_deliver_stop();
        cd_notify_stop();
        return fatal(err);
    }
    /* the clock worker sends reminders and applies timeouts (clock_worker.h) */
    cd_time_source(cfg->time_file);
    if (cd_clock_worker_start(cfg, err, sizeof err) != 0) {
        cd_imap_poll_stop();
        cd_mail_send_stop();
        cd_deliver_stop();
        cd_notify_stop();
        return fatal(err);
    }
    /* the bot worker plays the bot seats' moves and the "bot" timeouts (bot_worker.h) */
    if (cd_bot_worker_start(cfg, err, sizeof err) != 0) {
        cd_clock_worker_stop();
        cd_imap_poll_stop();
        cd_mail_send_stop();
        cd_deliver_stop();
        cd_notify_stop();
        return fatal(err);
    }
    if (cd_log_buffer_start(cfg->log_flush_ms) != 0)
        cd_log("warn", "cannot start the log's flusher thread: every log line is written at once");
    cd_tiles_document();   /* GET /v1/tiles serves these bytes; build them before the first request */
    cd_limits_init(cfg);   /* trusted proxies and rate limits (http/limits.h) */
    cd_server *srv = cd_server_start(cfg, err, sizeof err);
    if (!srv) {
        cd_bot_worker_stop();
        cd_clock_worker_stop();
        cd_imap_poll_stop();
        cd_mail_send_stop();
        cd_deliver_stop();
        cd_notify_stop();
        cd_limits_free();
        cd_log_buffer_stop();
        return fatal(err);
    }
    if (cfg->admin_token[0] && strlen(cfg->admin_token) < 16)
        cd_log("warn", "the admin token is shorter than 16 characters");
    if (cfg->listen_unix[0])
        cd_log("info", "listening on unix:%s with %d threads", cfg->listen_unix, cfg->threads);
    else
        cd_log("info", "listening on %s%s%s:%d with %d threads", strchr(cfg->listen_host, ':') ? "[" : "",
               cfg->listen_host, strchr(cfg->listen_host, ':') ? "]" : "", cd_server_port(srv), cfg->threads);

    int sig = 0;
    if (sigwait(&stop, &sig) != 0)
        sig = SIGTERM;
    cd_log("info", "%s: stopping", sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM");
    /* first the waiters (they answer their long-polls and end their streams), then the server */
    cd_notify_stop();
    cd_server_stop(srv);
    cd_bot_worker_stop();
    cd_clock_worker_stop();
    cd_imap_poll_stop();
    cd_mail_send_stop();
    cd_deliver_stop();
    cd_db_thread_close();
    cd_limits_free();
    cd_log_buffer_stop();
    cd_log("info", "stopped");
    return 0;
}

int main(int argc, char **argv)
{
    char err[1024];
    cd_config cfg;
    if (cd_config_load(&cfg, argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "carcd: %s (carcd --help lists the flags)\n", err);
        return 1;
    }
    struct sigaction ign = {0};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, NULL);

    switch (cfg.command) {
    case CD_CMD_HELP:
        cd_config_usage(stdout);
        return 0;
    case CD_CMD_MIGRATE:
        if (cd_migrate(&cfg, err, sizeof err) != 0)
            return fatal(err);
        return 0;
    case CD_CMD_SERVE:
        return serve(&cfg);
    case CD_CMD_MAIL_IN:   /* one mail on stdin, for an MTA's pipe transport (mail/mail_in.h) */
        /* a setting to mend, or a database not migrated yet (said as serve says it): the MTA keeps the mail */
        if (cd_mail_configure(&cfg, err, sizeof err) != 0 || cd_schema_check(&cfg, err, sizeof err) != 0) {
            fatal(err);
            return CD_MAIL_IN_TEMPFAIL;
        }
        return cd_mail_in_main(&cfg);
    }
    return fatal("unknown command");
}
