/*
 * netaddr.h — client addresses: parsing IPv4 and IPv6 addresses and CIDR ranges, and the client of a
 * request that came through reverse proxies (X-Forwarded-For). Pure: text in, text out.
 *
 * X-Forwarded-For is believed only as far as proxies we trust wrote it: each proxy appends the address it
 * received the request from, so the list is read from the right, starting at the socket's peer. While the
 * address in hand is a trusted proxy, the entry to its left is what that proxy saw; the first address that
 * is not a trusted proxy is the client (the "right-most untrusted" rule). Whatever a client wrote into the
 * header itself lies left of that and is never used. A malformed entry ends the walk: the client is then the
 * trusted proxy that passed it on.
 */
#ifndef CD_NETADDR_H
#define CD_NETADDR_H

#include <stdbool.h>
#include <stddef.h>

#define CD_RANGES_MAX 32
#define CD_ADDR_TEXT 46   /* INET6_ADDRSTRLEN */

/* A range: IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d), prefix bits counted in the 128. */
typedef struct {
    unsigned char a[16];
    int bits;
} cd_net_range;

typedef struct {
    int n;
    cd_net_range v[CD_RANGES_MAX];
    bool unix_socket;   /* "unix" in the list: a peer on the unix socket (CARCD_LISTEN=unix:) is a trusted proxy */
} cd_net_ranges;

/* An IPv4 or IPv6 address (IPv6 may be in brackets) of n bytes, spaces around it ignored, into a[16]. */
bool cd_addr_parse(const char *s, size_t n, unsigned char a[16]);
/* a as text: IPv4-mapped addresses as dotted IPv4. */
void cd_addr_text(const unsigned char a[16], char out[CD_ADDR_TEXT]);
/* "10.0.0.0/8, 127.0.0.1, ::1, fd00::/8, unix" (an address alone is its /32 or /128); "" is none. False with
 * err naming the bad entry. */
bool cd_ranges_parse(const char *list, cd_net_ranges *out, char *err, size_t errlen);
bool cd_ranges_match(const cd_net_ranges *c, const unsigned char a[16]);

/* The client of a request: `peer` the socket's peer as text ("" or "unix" for a unix socket), `xff` the
 * X-Forwarded-For values in the order received, joined by commas (NULL: none). The peer itself unless it is
 * a trusted proxy; else the right-most untrusted address of the list (see the top). Written as text. */
void cd_client_resolve(const char *peer, const char *xff, const cd_net_ranges *trusted, char out[CD_ADDR_TEXT]);

#endif
