/*
 * metrics.c — GET /metrics: the counters of daemon/metrics.h in the Prometheus text format 0.0.4.
 */
#include <stdlib.h>

#include "handlers.h"
#include "base/metrics.h"

enum MHD_Result h_metrics(cd_req *r)
{
    size_t len;
    char *text = cd_metrics_render(&len);
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/plain; version=0.0.4; charset=utf-8", text, len, NULL);
    free(text);
    return ret;
}
