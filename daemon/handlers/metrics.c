/*
 * metrics.c — GET /metrics: the counters of base/metrics.h in the Prometheus text format 0.0.4, labelled
 * by the names of the route table.
 */
#include <stdlib.h>

#include "handlers.h"
#include "base/metrics.h"

enum MHD_Result h_metrics(cd_req *r)
{
    enum { MAX_NAMES = 64 };
    const char *names[MAX_NAMES];
    int n = 0;
    while (n < MAX_NAMES && cd_routes[n].method) {
        names[n] = cd_routes[n].name;
        n++;
    }
    size_t len;
    char *text = cd_metrics_render(names, n, &len);
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/plain; version=0.0.4; charset=utf-8", text, len, NULL);
    free(text);
    return ret;
}
