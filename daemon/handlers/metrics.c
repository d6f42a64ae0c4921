/*
 * metrics.c — GET /metrics: the counters of daemon/metrics.h in the Prometheus text format 0.0.4.
 * With a metrics token configured (CARCD_METRICS_TOKEN) the scraper must send it as a bearer token; anyone
 * else gets 401. The tokens are compared as SHA-256 digests in constant time, as the admin token is.
 */
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "base/metrics.h"

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

enum MHD_Result h_metrics(cd_req *r)
{
    if (!scraper_allowed(r))
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization",
                                "/metrics needs the metrics token: Authorization: Bearer <CARCD_METRICS_TOKEN>");
    size_t len;
    char *text = cd_metrics_render(&len);
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/plain; version=0.0.4; charset=utf-8", text, len, NULL);
    free(text);
    return ret;
}
