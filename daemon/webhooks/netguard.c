/*
 * netguard.c — which addresses webhook deliveries may reach (netguard.h): the operator's allowlist, the
 * table of ranges that are never public, and the URL check made when an endpoint is created.
 */
#include "netguard.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <curl/curl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges that are not public unicast, and what to call an address in them. Checked in order, so a
 * narrower range comes before a wider one that holds it. IPv4 ranges apply to IPv4-mapped addresses too
 * (and, through embedded_v4, to NAT64 and 6to4 addresses). Every IPv6 address outside 2000::/3 that is
 * not in the table is refused as well ("not a global unicast address"). */
static const struct {
    const char *range;
    const char *what;
} blocked_table[] = {
    {"0.0.0.0/8", "a 'this network' address"},
    {"10.0.0.0/8", "a private address"},
    {"100.64.0.0/10", "a shared (carrier-grade NAT) address"},
    {"127.0.0.0/8", "a loopback address"},
    {"169.254.0.0/16", "a link-local address"},
    {"172.16.0.0/12", "a private address"},
    {"192.0.0.0/24", "a reserved address"},
    {"192.0.2.0/24", "a documentation address"},
    {"192.88.99.0/24", "a reserved address"},
    {"192.168.0.0/16", "a private address"},
    {"198.18.0.0/15", "a reserved (benchmarking) address"},
    {"198.51.100.0/24", "a documentation address"},
    {"203.0.113.0/24", "a documentation address"},
    {"224.0.0.0/4", "a multicast address"},
    {"240.0.0.0/4", "a reserved address"},
    {"::/128", "the unspecified address"},
    {"::1/128", "a loopback address"},
    {"::/96", "a reserved (IPv4-compatible) address"},
    {"64:ff9b:1::/48", "a reserved (local NAT64) address"},
    {"100::/64", "a reserved (discard) address"},
    {"2001:db8::/32", "a documentation address"},
    {"2001::/23", "a reserved (IETF protocol) address"},
    {"3fff::/20", "a documentation address"},
    {"fc00::/7", "a private (unique local) address"},
    {"fe80::/10", "a link-local address"},
    {"fec0::/10", "a site-local address"},
    {"ff00::/8", "a multicast address"},
};
#define NBLOCKED (sizeof blocked_table / sizeof blocked_table[0])

static cd_cidr blocked[NBLOCKED];
static pthread_once_t blocked_once = PTHREAD_ONCE_INIT;

static const uint8_t v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
static const uint8_t nat64_prefix[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};

/* "a.b.c.d[/n]" or "v6[/n]" into c. 0 or -1. */
static int parse_cidr(const char *s, size_t len, cd_cidr *c)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *slash = strchr(buf, '/');
    long prefix = -1;
    if (slash) {
        *slash = 0;
        char *end;
        if (!isdigit((unsigned char)slash[1]))
            return -1;
        prefix = strtol(slash + 1, &end, 10);
        if (*end)
            return -1;
    }
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        if (prefix > 32)
            return -1;
        memcpy(c->addr, v4_mapped_prefix, 12);
        memcpy(c->addr + 12, &v4, 4);
        c->prefix = 96 + (int)(prefix < 0 ? 32 : prefix);
    } else if (inet_pton(AF_INET6, buf, &v6) == 1) {
        if (prefix > 128)
            return -1;
        memcpy(c->addr, &v6, 16);
        c->prefix = (int)(prefix < 0 ? 128 : prefix);
    } else {
        return -1;
    }
    /* the host bits must be zero: "10.0.0.1/8" is more likely a typing mistake than a range */
    for (int bit = c->prefix; bit < 128; bit++)
        if (c->addr[bit / 8] & (0x80 >> (bit % 8)))
            return -1;
    return 0;
}

static void blocked_init(void)
{
    for (size_t i = 0; i < NBLOCKED; i++)
        if (parse_cidr(blocked_table[i].range, strlen(blocked_table[i].range), &blocked[i]) != 0)
            abort();   /* the table above is wrong: a bug, caught by the first test */
}

static bool in_range(const cd_cidr *c, const uint8_t a[16])
{
    int full = c->prefix / 8, rest = c->prefix % 8;
    if (memcmp(c->addr, a, (size_t)full) != 0)
        return false;
    if (rest == 0)
        return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (c->addr[full] & mask) == (a[full] & mask);
}

int cd_netguard_parse(cd_netguard *g, const char *list, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    const char *p = list ? list : "";
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *end = p;
        while (*end && *end != ',' && *end != ' ')
            end++;
        if (g->n == CD_NETGUARD_MAX_RANGES) {
            snprintf(err, errlen, "more than %d ranges", CD_NETGUARD_MAX_RANGES);
            return -1;
        }
        if (parse_cidr(p, (size_t)(end - p), &g->allow[g->n]) != 0) {
            snprintf(err, errlen, "\"%.*s\" is not an address range such as 127.0.0.1/32 or fd00::/8",
                     (int)(end - p > 60 ? 60 : end - p), p);
            return -1;
        }
        g->n++;
        p = end;
    }
    return 0;
}

/* The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64 or 6to4), as IPv4-mapped; false if none. */
static bool embedded_v4(const uint8_t a[16], uint8_t out[16])
{
    memcpy(out, v4_mapped_prefix, 12);
    if (memcmp(a, nat64_prefix, 12) == 0) {
        memcpy(out + 12, a + 12, 4);
        return true;
    }
    if (a[0] == 0x20 && a[1] == 0x02) {
        memcpy(out + 12, a + 2, 4);
        return true;
    }
    return false;
}

static bool allowlisted(const cd_netguard *g, const uint8_t a[16])
{
    for (int i = 0; g && i < g->n; i++)
        if (in_range(&g->allow[i], a))
            return true;
    return false;
}

static const char *blocked_what(const uint8_t a[16])
{
    for (size_t i = 0; i < NBLOCKED; i++)
        if (in_range(&blocked[i], a))
            return blocked_table[i].what;
    bool carries_v4 = memcmp(a, v4_mapped_prefix, 12) == 0 || memcmp(a, nat64_prefix, 12) == 0;
    if (!carries_v4 && (a[0] & 0xe0) != 0x20)
        return "not a global unicast address";
    return NULL;
}

static void addr_text(const uint8_t a[16], char *buf, size_t len)
{
    if (memcmp(a, v4_mapped_prefix, 12) == 0)
        inet_ntop(AF_INET, a + 12, buf, (socklen_t)len);
    else
        inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

bool cd_netguard_allows16(const cd_netguard *g, const uint8_t a[16], char *why, size_t whylen)
{
    pthread_once(&blocked_once, blocked_init);
    uint8_t inner[16];
    bool has_inner = embedded_v4(a, inner);
    if (allowlisted(g, a) || (has_inner && allowlisted(g, inner)))
        return true;
    const char *what = blocked_what(a);
    if (!what && has_inner)
        what = blocked_what(inner);
    if (!what)
        return true;
    if (why && whylen) {
        char text[INET6_ADDRSTRLEN];
        addr_text(a, text, sizeof text);
        snprintf(why, whylen, "%s is %s", text, what);
    }
    return false;
}

bool cd_netguard_allows(const cd_netguard *g, const struct sockaddr *sa, char *why, size_t whylen)
{
    uint8_t a[16];
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        memcpy(a, v4_mapped_prefix, 12);
        memcpy(a + 12, &in->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        memcpy(a, &in6->sin6_addr, 16);
    } else {
        if (why && whylen)
            snprintf(why, whylen, "not an internet address");
        return false;
    }
    return cd_netguard_allows16(g, a, why, whylen);
}

/* The URL's scheme, host (without IPv6 brackets) and port; -1 with msg when it is not a usable URL. */
static int split_url(const char *url, char *host, size_t hostlen, char *port, size_t portlen, char *msg,
                     size_t msglen)
{
    if (strlen(url) > CD_WEBHOOK_URL_MAX) {
        snprintf(msg, msglen, "url: longer than %d characters", CD_WEBHOOK_URL_MAX);
        return -1;
    }
    for (const char *c = url; *c; c++)
        if ((unsigned char)*c <= 0x20 || *c == 0x7f) {
            snprintf(msg, msglen, "url: spaces and control characters must be percent-encoded");
            return -1;
        }
    CURLU *u = curl_url();
    if (!u)
        abort();
    char *scheme = NULL, *h = NULL, *p = NULL, *frag = NULL;
    int rc = -1;
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
        snprintf(msg, msglen, "url: not an absolute http or https URL");
        goto out;
    }
    if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
        snprintf(msg, msglen, "url: the scheme must be http or https");
        goto out;
    }
    if (curl_url_get(u, CURLUPART_FRAGMENT, &frag, 0) == CURLUE_OK) {
        snprintf(msg, msglen, "url: a webhook URL has no #fragment");
        goto out;
    }
    if (curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK || !h[0] ||
        curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) != CURLUE_OK) {
        snprintf(msg, msglen, "url: no host");
        goto out;
    }
    size_t n = strlen(h);
    const char *hs = h;
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        hs = h + 1;
        n -= 2;
        const char *zone = memchr(hs, '%', n);
        if (zone)
            n = (size_t)(zone - hs);   /* a zone id only makes sense for link-local, which is refused anyway */
    }
    if (n >= hostlen || strlen(p) >= portlen) {
        snprintf(msg, msglen, "url: host name too long");
        goto out;
    }
    memcpy(host, hs, n);
    host[n] = 0;
    snprintf(port, portlen, "%s", p);
    rc = 0;
out:
    curl_free(scheme);
    curl_free(h);
    curl_free(p);
    curl_free(frag);
    curl_url_cleanup(u);
    return rc;
}

int cd_netguard_check_url(const cd_netguard *g, const char *url, char *msg, size_t msglen)
{
    char host[300], port[16];
    if (split_url(url, host, sizeof host, port, sizeof port, msg, msglen) != 0)
        return -1;
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int e = getaddrinfo(host, port, &hints, &res);
    if (e != 0 || !res) {
        snprintf(msg, msglen, "url: the host %s does not resolve (%s)", host, e ? gai_strerror(e) : "no address");
        if (res)
            freeaddrinfo(res);
        return -1;
    }
    int rc = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        char why[160];
        if (!cd_netguard_allows(g, ai->ai_addr, why, sizeof why)) {
            snprintf(msg, msglen, "url: %s (the address of %s); webhooks are not delivered there unless "
                                  "CARCD_WEBHOOK_ALLOW opens it", why, host);
            rc = -1;
            break;
        }
    }
    freeaddrinfo(res);
    return rc;
}
