/*
 * alloc.c — the engine's allocation policy (alloc.h): out of memory aborts, and buffers grow by doubling.
 * The event and move lists (events.c) are the only heap memory the engine hands out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"

void *carc_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("libcarc: out of memory\n", stderr);
        abort();
    }
    return q;
}

void carc_grow_to(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    *v = carc_xrealloc(*v, c * size);
    *cap = c;
}
