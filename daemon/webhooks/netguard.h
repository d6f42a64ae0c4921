/*
 * netguard.h — where webhook deliveries may connect: the guard against server-side request forgery.
 *
 * A webhook URL is chosen by a client, so without a guard carcd could be made to POST to itself, to the
 * database's host, to a cloud metadata service or to anything on the private network it runs in. The rule:
 * an address is refused when it is loopback, private, link-local, shared (CGNAT), multicast, reserved or
 * otherwise not a public unicast address (the table in netguard.c), unless it lies in one of the ranges the
 * operator opened (CARCD_WEBHOOK_ALLOW, e.g. "127.0.0.1/32,10.1.0.0/16"). IPv4 addresses inside IPv6
 * (::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they carry.
 *
 * The rule is applied to addresses, never to names, and after resolution: at creation to every address the
 * URL's host resolves to (a refusal is a 400), and at every delivery to the very address curl is about to
 * connect to (deliver.c's CURLOPT_OPENSOCKETFUNCTION), so a name that resolves elsewhere later gains nothing.
 *
 * Pure functions over a parsed allowlist; no globals, no locking; thread-safe.
 */
#ifndef CD_NETGUARD_H
#define CD_NETGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define CD_NETGUARD_MAX_RANGES 32
#define CD_WEBHOOK_URL_MAX 2000

/* One range, IPv4 kept as IPv4-mapped IPv6 (::ffff:a.b.c.d/96+n) so one comparison serves both. */
typedef struct {
    uint8_t addr[16];
    int prefix;   /* 0..128 */
} cd_cidr;

typedef struct {
    int n;
    cd_cidr allow[CD_NETGUARD_MAX_RANGES];
} cd_netguard;

/* Parses a comma-separated list of CIDR ranges ("127.0.0.1/32, ::1/128"; a bare address is a single host;
 * empty = none). 0, or -1 with err naming the bad entry. */
int cd_netguard_parse(cd_netguard *g, const char *list, char *err, size_t errlen);

/* Whether a delivery may connect to this address (AF_INET or AF_INET6; anything else is refused). When
 * not, `why` (may be NULL) gets e.g. "127.0.0.1 is a loopback address". */
bool cd_netguard_allows(const cd_netguard *g, const struct sockaddr *sa, char *why, size_t whylen);

/* The same for a 16-byte IPv6 (or IPv4-mapped) address. */
bool cd_netguard_allows16(const cd_netguard *g, const uint8_t a[16], char *why, size_t whylen);

/* Checks a webhook URL for creation: at most CD_WEBHOOK_URL_MAX characters, http or https, a host, no
 * fragment; then resolves the host (blocking, getaddrinfo) and requires every address to be allowed.
 * 0, or -1 with a message for the client in msg ("url: ..."). */
int cd_netguard_check_url(const cd_netguard *g, const char *url, char *msg, size_t msglen);

#endif
