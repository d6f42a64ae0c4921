/*
 * metrics.c — GET /metrics in the Prometheus text format 0.0.4: the counters this process pushed
 * (base/metrics.h, labelled by the names of the route table), carcd_build_info, the process_* metrics (base/procstat.h),
 * the notify thread's listening and notifications (db/notify.h), and the gauges only the database
 * knows (db/gauges.h: games by status, the webhook backlog, overdue clocks) — those for the whole installation,
 * and left out (carcd_db_gauges_up 0) when the database cannot be read, so a scrape never fails for it.
 * With a metrics token configured (CARCD_METRICS_TOKEN) the scraper must send it as a bearer token; anyone
 * else gets 401. The tokens are compared as SHA-256 digests in constant time, as the admin token is.
 */
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/build_info.h"
#include "base/metrics.h"
#include "base/procstat.h"
#include "db/gauges.h"
#include "db/notify.h"
#include "handlers.h"

static bool scraper_allowed(cd_req *r)
{
    const char *want = r->cfg->metrics_token;
    if (!want[0])
        return true;
    if (!r->bearer)
        return false;
    unsigned char a[SHA256_DIGEST_LENGTH], b[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)want, strlen(want), a);
    SHA256((const unsigned char *)r->bearer, strlen(r->bearer), b);
    return CRYPTO_memcmp(a, b, sizeof a) == 0;
}

static void render_gauges(FILE *f, cd_db *db)
{
    cd_db_gauges g;
    bool ok = db && cd_db_gauges_read(db, &g);
    fprintf(f,
            "# HELP carcd_db_gauges_up Whether the database gauges below could be read for this scrape.\n"
            "# TYPE carcd_db_gauges_up gauge\n"
            "carcd_db_gauges_up %d\n",
            ok);
    if (!ok)
        return;
    fprintf(f,
            "# HELP carcd_games Games in the database, by status.\n"
            "# TYPE carcd_games gauge\n"
            "carcd_games{status=\"waiting\"} %lld\n"
            "carcd_games{status=\"active\"} %lld\n"
            "carcd_games{status=\"finished\"} %lld\n"
            "carcd_games{status=\"cancelled\"} %lld\n"
            "# HELP carcd_webhook_outbox_pending Webhook messages waiting to be delivered (every carcd).\n"
            "# TYPE carcd_webhook_outbox_pending gauge\n"
            "carcd_webhook_outbox_pending %lld\n"
            "# HELP carcd_webhook_outbox_oldest_age_seconds Age of the oldest webhook message waiting, 0 when none.\n"
            "# TYPE carcd_webhook_outbox_oldest_age_seconds gauge\n"
            "carcd_webhook_outbox_oldest_age_seconds %.3f\n"
            "# HELP carcd_clocks_overdue Active games whose reminder or timeout is due and not yet handled.\n"
            "# TYPE carcd_clocks_overdue gauge\n"
            "carcd_clocks_overdue %lld\n"
            "# HELP carcd_clocks_overdue_max_seconds How long the most overdue clock has been due, 0 when none.\n"
            "# TYPE carcd_clocks_overdue_max_seconds gauge\n"
            "carcd_clocks_overdue_max_seconds %.3f\n",
            g.games_waiting, g.games_active, g.games_finished, g.games_cancelled, g.outbox_pending,
            g.outbox_oldest_age_s, g.clocks_overdue, g.clocks_overdue_max_s);
}

enum MHD_Result h_metrics(cd_req *r)
{
    if (!scraper_allowed(r))
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization",
                                "/metrics needs the metrics token: Authorization: Bearer <CARCD_METRICS_TOKEN>");
    enum { MAX_NAMES = 64 };
    const char *names[MAX_NAMES];
    int n = 0;
    while (n < MAX_NAMES && cd_routes[n].method) {
        names[n] = cd_routes[n].name;
        n++;
    }
    size_t len;
    char *counters = cd_metrics_render(names, n, &len);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        abort();
    fwrite(counters, 1, len, f);
    free(counters);
    fprintf(f,
            "# HELP carcd_build_info The version of this carcd and the git commit it was built from.\n"
            "# TYPE carcd_build_info gauge\n"
            "carcd_build_info{version=\"%s\",commit=\"%s\"} 1\n",
            cd_build_version(), cd_build_commit());
    cd_procstat_render(f);
    cd_notify_stats ns;
    cd_notify_get_stats(&ns);
    fprintf(f,
            "# HELP carcd_notify_listening Whether this carcd LISTENs for moves now: only while a long-poll or "
            "event stream waits, and CARCD_LISTEN_LINGER seconds after.\n"
            "# TYPE carcd_notify_listening gauge\n"
            "carcd_notify_listening %d\n"
            "# HELP carcd_notify_notifications_total Notifications of moves and messages this carcd received.\n"
            "# TYPE carcd_notify_notifications_total counter\n"
            "carcd_notify_notifications_total %ld\n",
            ns.listening ? 1 : 0, ns.notifications);
    char err[256];
    render_gauges(f, cd_db_thread(r->cfg, err, sizeof err));   /* no database: the gauges are left out */
    if (fclose(f) != 0)
        abort();
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/plain; version=0.0.4; charset=utf-8", text, size, NULL);
    free(text);
    return ret;
}
