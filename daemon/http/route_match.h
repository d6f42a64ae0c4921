/*
 * route_match.h — whether a request's path has a route's shape, and the path's parameters, percent-decoded.
 *
 * A pattern is segments after '/', each literal or "{name}" (one non-empty segment of the path). The path is
 * the raw one, as sent (server.c keeps it before libmicrohttpd decodes it), so that an encoded "/" inside a
 * parameter stays inside it; each parameter is decoded on its own. No state: routing (server.c) calls it for
 * every route until one fits.
 */
#ifndef CD_ROUTE_MATCH_H
#define CD_ROUTE_MATCH_H

#include <stdbool.h>

/* Whether `path` has the shape of `pattern`. With `params` (room for maxparams), fills it with the decoded
 * parameters in pattern order (the caller frees them) and sets *nparams; then a malformed escape, one that
 * decodes to NUL, or more than maxparams parameters is no match, and nothing is left allocated. */
bool cd_route_match(const char *pattern, const char *path, char **params, int maxparams, int *nparams);

#endif
