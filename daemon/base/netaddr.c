/*
 * netaddr.c — addresses, ranges and X-Forwarded-For (see netaddr.h).
 */
#include "netaddr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t'))
        (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

bool cd_addr_parse(const char *s, size_t n, unsigned char a[16])
{
    trim(&s, &n);
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']')
        s++, n -= 2;
    char buf[CD_ADDR_TEXT];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    unsigned char v4[4];
    if (inet_pton(AF_INET, buf, v4) == 1) {
        memset(a, 0, 10);
        a[10] = a[11] = 0xff;
        memcpy(a + 12, v4, 4);
        return true;
    }
    return inet_pton(AF_INET6, buf, a) == 1;
}

static bool is_mapped(const unsigned char a[16])
{
    static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(a, prefix, 12) == 0;
}

void cd_addr_text(const unsigned char a[16], char out[CD_ADDR_TEXT])
{
    if (is_mapped(a))
        inet_ntop(AF_INET, a + 12, out, CD_ADDR_TEXT);
    else
        inet_ntop(AF_INET6, a, out, CD_ADDR_TEXT);
}

bool cd_ranges_parse(const char *list, cd_net_ranges *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        const char *e = p;
        size_t en = n;
        p += n + (p[n] == ',');
        trim(&e, &en);
        if (en == 0)
            continue;
        if (en == 4 && memcmp(e, "unix", 4) == 0) {
            out->unix_socket = true;
            continue;
        }
        const char *slash = memchr(e, '/', en);
        size_t an = slash ? (size_t)(slash - e) : en;
        cd_net_range c;
        long bits = -1;
        bool ok = cd_addr_parse(e, an, c.a);
        if (ok && slash) {
            char num[8];
            size_t bn = en - an - 1;
            char *end;
            ok = bn > 0 && bn < sizeof num;
            if (ok) {
                memcpy(num, slash + 1, bn);
                num[bn] = 0;
                bits = strtol(num, &end, 10);
                ok = *end == 0 && num[0] >= '0' && num[0] <= '9';
            }
        }
        bool v4 = ok && is_mapped(c.a) && memchr(e, ':', an) == NULL;
        if (ok && bits >= 0 && bits > (v4 ? 32 : 128))
            ok = false;
        if (!ok || out->n == CD_RANGES_MAX) {
            snprintf(err, errlen, "%s\"%.*s\": expected an IPv4 or IPv6 address, a CIDR range (10.0.0.0/8, fd00::/8) "
                     "or unix, at most %d of them", ok ? "too many entries at " : "", (int)en, e, CD_RANGES_MAX);
            return false;
        }
        c.bits = bits < 0 ? 128 : (int)bits + (v4 ? 96 : 0);
        out->v[out->n++] = c;
    }
    return true;
}

bool cd_ranges_match(const cd_net_ranges *c, const unsigned char a[16])
{
    for (int i = 0; i < c->n; i++) {
        int bits = c->v[i].bits, full = bits / 8, rest = bits % 8;
        if (memcmp(a, c->v[i].a, (size_t)full) != 0)
            continue;
        if (rest && ((a[full] ^ c->v[i].a[full]) & (0xff << (8 - rest)) & 0xff))
            continue;
        return true;
    }
    return false;
}

void cd_client_resolve(const char *peer, const char *xff, const cd_net_ranges *trusted, char out[CD_ADDR_TEXT])
{
    unsigned char a[16];
    bool is_unix = peer[0] == 0 || strcmp(peer, "unix") == 0;
    bool have = !is_unix && cd_addr_parse(peer, strlen(peer), a);
    snprintf(out, CD_ADDR_TEXT, "%s", is_unix ? "unix" : peer);
    if (have)
        cd_addr_text(a, out);   /* the peer's text normalised */
    bool trusted_hop = is_unix ? trusted->unix_socket : have && cd_ranges_match(trusted, a);
    if (!xff || !trusted_hop)
        return;
    /* right to left: while the address in hand is a trusted proxy, take the one it saw */
    size_t end = strlen(xff);
    while (trusted_hop && end > 0) {
        size_t start = end;
        while (start > 0 && xff[start - 1] != ',')
            start--;
        const char *e = xff + start;
        size_t en = end - start;
        end = start > 0 ? start - 1 : 0;
        trim(&e, &en);
        if (en == 0) {
            if (start == 0)
                break;
            continue;   /* an empty element ("a, , b") is no hop */
        }
        if (!cd_addr_parse(e, en, a))
            return;   /* malformed: the client is the trusted proxy that passed it on */
        cd_addr_text(a, out);
        trusted_hop = cd_ranges_match(trusted, a);
        if (start == 0)
            break;
    }
}
