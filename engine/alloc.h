/*
 * alloc.h — the engine's one allocation policy: out of memory aborts (see docs/STYLE.md). Callers never
 * check for NULL.
 */
#ifndef CARC_ALLOC_H
#define CARC_ALLOC_H

#include <stddef.h>

void *carc_xrealloc(void *p, size_t n);
/* Grows *v (elements of `size` bytes, capacity *cap) to hold at least `need` elements. */
void carc_grow_to(void **v, size_t *cap, size_t need, size_t size);
/* The same; inline because nearly every call (each event, each move pushed) finds the room already there. */
static inline void carc_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need > *cap)
        carc_grow_to(v, cap, need, size);
}

#endif
