/*
 * buf.c — a growing text buffer (buf.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void cd_buf_add(cd_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            abort();
        b->p = q;
        b->cap = cap;
    }
    if (n > 0)   /* an empty piece may come as (NULL, 0): an unwritten cd_buf's */
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void cd_buf_str(cd_buf *b, const char *s)
{
    cd_buf_add(b, s, strlen(s));
}

void cd_buf_printf(cd_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        cd_buf_add(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big)
        abort();
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cd_buf_add(b, big, (size_t)n);
    free(big);
}

void cd_buf_html(cd_buf *b, const char *s)
{
    if (!s)   /* nothing, as the escapers it replaced wrote for NULL */
        return;
    for (const char *run = s;; s++) {   /* runs of plain bytes are copied whole */
        unsigned char c = (unsigned char)*s;
        const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                        : c == '\'' ? "&#39;" : NULL;
        bool drop = c && c < 0x20 && c != '\t' && c != '\n';
        if (!e && !drop && c)
            continue;
        cd_buf_add(b, run, (size_t)(s - run));
        if (!c)
            return;
        if (e)
            cd_buf_str(b, e);
        run = s + 1;
    }
}
