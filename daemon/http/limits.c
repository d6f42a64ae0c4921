/*
 * limits.c — the client's address and the rate limits (see limits.h).
 */
#include "limits.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "base/crypto.h"
#include "base/log.h"
#include "base/rate.h"
#include "base/timesrc.h"

static cd_net_ranges trusted;
static cd_rate_table *tables[CD_RATE_NACTIONS][2];   /* [action][0: address, 1: key] */
static unsigned char secret[16];                      /* keys the buckets' hash: collisions are not chosen */

static const char *const action_names[CD_RATE_NACTIONS] = {"games and players created", "moves", "joins",
                                                           "invitations by mail"};

void cd_limits_init(const cd_config *cfg)
{
    char err[256];
    cd_limits_free();
    if (!cd_ranges_parse(cfg->trusted_proxies, &trusted, err, sizeof err)) {
        cd_log("error", "CARCD_TRUSTED_PROXIES: %s (none trusted)", err);
        memset(&trusted, 0, sizeof trusted);
    }
    cd_random_bytes(secret, sizeof secret);
    const char *specs[CD_RATE_NACTIONS] = {cfg->rate_create, cfg->rate_moves, cfg->rate_joins,
                                           cfg->rate_invite_mails};
    for (int a = 0; a < CD_RATE_NACTIONS; a++) {
        cd_rate_spec addr, key;
        if (!cd_rate_pair_parse(specs[a], &addr, &key, err, sizeof err)) {
            cd_log("error", "rate limit of %s: %s (no limit)", action_names[a], err);
            continue;
        }
        tables[a][0] = cd_rate_table_new(addr, CD_LIMIT_SLOTS);
        tables[a][1] = cd_rate_table_new(key, CD_LIMIT_SLOTS);
    }
}

void cd_limits_free(void)
{
    for (int a = 0; a < CD_RATE_NACTIONS; a++)
        for (int k = 0; k < 2; k++) {
            cd_rate_table_free(tables[a][k]);
            tables[a][k] = NULL;
        }
}

typedef struct {
    char *p;
    size_t len, cap;
} xff_buf;

static enum MHD_Result add_xff(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    xff_buf *b = cls;
    if (!key || !value || strcasecmp(key, "X-Forwarded-For") != 0)
        return MHD_YES;
    size_t n = strlen(value);
    if (b->len + n + 2 > b->cap)   /* cannot happen below CD_HEADERS_MAX; the right-most part is what counts */
        return MHD_YES;
    if (b->len)
        b->p[b->len++] = ',';
    memcpy(b->p + b->len, value, n);
    b->len += n;
    b->p[b->len] = 0;
    return MHD_YES;
}

void cd_req_client_addr(cd_req *r, char out[CD_ADDR_TEXT])
{
    char peer[CD_ADDR_TEXT] = "unix";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    bool ipv6 = sa && sa->sa_family == AF_INET6;
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, peer, sizeof peer);
    else if (ipv6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, peer, sizeof peer);
    bool proxies = trusted.n || trusted.unix_socket;
    if (!proxies && !ipv6) {
        /* what cd_client_resolve answers, without its parse and second print: no header is read, and an IPv4
         * address's text (or "unix") is already the normal one; an IPv6 one may be a mapped IPv4 address */
        memcpy(out, peer, strlen(peer) + 1);
        return;
    }
    char xff[CD_HEADERS_MAX + 8];
    xff_buf b = {xff, 0, sizeof xff};
    xff[0] = 0;
    if (proxies)   /* no proxy trusted: the header is not even read */
        MHD_get_connection_values(r->conn, MHD_HEADER_KIND, add_xff, &b);
    cd_client_resolve(peer, b.len ? xff : NULL, &trusted, out);
}

/* The bucket's key: a keyed hash of what it counts (scope 'a' address, 'k' key): SipHash, whose key keeps a
 * client from choosing collisions (a keyed SHA-256 with a context per call cost two thirds of this check). */
static uint64_t bucket_key(int action, char scope, const char *text)
{
    unsigned char head[2] = {(unsigned char)action, (unsigned char)scope};
    return cd_siphash(secret, head, sizeof head, text, strlen(text));
}

/* The text an address's bucket is keyed by: an IPv4 address (or "unix") as it is; an IPv6 one as its /64,
 * the least a site is given (RFC 6177): one bucket per address would hand one client 2^64 of them. */
static void bucket_address(const char *addr, char out[CD_ADDR_TEXT])
{
    struct in6_addr a6;
    if (strchr(addr, ':') && inet_pton(AF_INET6, addr, &a6) == 1) {
        memset(a6.s6_addr + 8, 0, 8);
        if (inet_ntop(AF_INET6, &a6, out, CD_ADDR_TEXT))
            return;
    }
    memcpy(out, addr, strlen(addr) + 1);
}

bool cd_rate_check(cd_req *r, cd_rate_action a, const char *key)
{
    if (r->is_admin || a < 0 || a >= CD_RATE_NACTIONS || (!tables[a][0] && !tables[a][1]))
        return true;
    double now = cd_now(), wait_addr = 0, wait_key = 0;
    char addr[CD_ADDR_TEXT], counted[CD_ADDR_TEXT];
    cd_req_client_addr(r, addr);
    bucket_address(addr, counted);
    /* the address first: a request refused by its key's bucket has still spent its address's token (it was a
     * request from there), one refused by the address's does not touch the key's */
    bool ok_addr = cd_rate_take(tables[a][0], bucket_key(a, 'a', counted), now, &wait_addr);
    bool ok_key = !ok_addr || !key || !*key || cd_rate_take(tables[a][1], bucket_key(a, 'k', key), now, &wait_key);
    if (ok_addr && ok_key)
        return true;
    int after = (int)ceil(ok_addr ? wait_key : wait_addr);
    const char *who = ok_addr ? "this key" : "this client address";
    cd_log("info", "rate limit: %s for %s from %s (route %s): retry after %d s", ok_addr ? "key" : "address",
           action_names[a], addr, r->route ? r->route->name : "none", after);
    cd_reply_rate_limited(r, after, NULL, "too many %s from %s: try again in %d s", action_names[a], who, after);
    return false;
}
