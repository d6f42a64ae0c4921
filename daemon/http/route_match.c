/*
 * route_match.c — a request path against a route pattern (see route_match.h).
 *
 * Cost: two strcspn a segment (glibc's SSE 4.2 one beats a byte loop here: docs/PERFORMANCE.md §15), and a
 * malloc a parameter only once method and path both fit.
 */
#include "route_match.h"

#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"

/* Percent-decodes s[0..n) into a new string; NULL when an escape is malformed or decodes to NUL. */
static char *decode_segment(const char *s, size_t n)
{
    char *out = calloc(n + 1, 1);
    if (!out)
        abort();   /* out of memory: carcd's policy is to stop (docs/STYLE.md) */
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            out[o++] = s[i];
            continue;
        }
        int hi = i + 2 < n ? cd_hex_digit(s[i + 1]) : -1, lo = i + 2 < n ? cd_hex_digit(s[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi | lo) == 0) {
            free(out);
            return NULL;
        }
        out[o++] = (char)(hi * 16 + lo);
        i += 2;
    }
    out[o] = '\0';
    return out;
}

bool cd_route_match(const char *pattern, const char *path, char **params, int maxparams, int *nparams)
{
    int np = 0;
    const char *p = pattern, *s = path;
    bool ok = true;
    while (ok) {
        if (*p != '/' || *s != '/') {
            ok = *p == '\0' && *s == '\0';
            break;
        }
        p++, s++;
        size_t pl = strcspn(p, "/"), sl = strcspn(s, "/");
        if (pl >= 2 && p[0] == '{' && p[pl - 1] == '}') {
            if (sl == 0)
                ok = false;
            else if (params) {
                char *v = np < maxparams ? decode_segment(s, sl) : NULL;
                if (!v)
                    ok = false;
                else
                    params[np++] = v;
            }
        } else if (pl != sl || memcmp(p, s, pl) != 0) {
            ok = false;
        }
        p += pl, s += sl;
    }
    if (!ok && params)
        for (int i = 0; i < np; i++) {
            free(params[i]);
            params[i] = NULL;
        }
    if (ok && nparams)
        *nparams = np;
    return ok;
}
