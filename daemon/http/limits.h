/*
 * limits.h — limits for a public server at the HTTP layer: who the client is (its address, X-Forwarded-For
 * believed only from CARCD_TRUSTED_PROXIES) and the rate limits on creating games, moves, joins and
 * creations that mail invitations (CARCD_RATE_*), each a token bucket per client address and one per key
 * (base/rate.h).
 *
 * The buckets are this process's, in memory: several carcd behind one proxy each keep their own, so a client
 * spread over N of them gets up to N times the rate (README, "Limits"). The admin token is never limited.
 * Memory is fixed at start: CD_LIMIT_SLOTS buckets per table, two tables (address, key) per action.
 */
#ifndef CD_LIMITS_H
#define CD_LIMITS_H

#include <stdbool.h>

#include "base/config.h"
#include "base/netaddr.h"
#include "http.h"

/* 8192 buckets of 24 bytes: 192 KiB a table, 1.5 MB for the eight */
#define CD_LIMIT_SLOTS 8192

typedef enum { CD_RATE_CREATE, CD_RATE_MOVE, CD_RATE_JOIN, CD_RATE_INVITE_MAIL, CD_RATE_NACTIONS } cd_rate_action;

/* Reads the trusted proxies and the rates from cfg (cd_config_load checked them). Before the server starts;
 * without it nothing is limited and the socket's peer is every request's client. */
void cd_limits_init(const cd_config *cfg);
void cd_limits_free(void);

/* The client address of r as text: the socket's peer ("unix" on the unix socket), or, when the peer is a
 * trusted proxy, the right-most untrusted address of X-Forwarded-For (every such header, in order). */
void cd_req_client_addr(cd_req *r, char out[CD_ADDR_TEXT]);

/* One action of kind a by r: a token from the client address's bucket and, with key (a seat token or player
 * key as sent; NULL: none), from the key's. True when both had one (or the bearer is the admin); else it has
 * answered 429 /problems/rate-limited with Retry-After (whole seconds, rounded up) and returns false. */
bool cd_rate_check(cd_req *r, cd_rate_action a, const char *key);

#endif
