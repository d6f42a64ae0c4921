/*
 * alloc.h — the engine's one allocation policy: out of memory aborts (see docs/STYLE.md). Callers never
 * check for NULL.
 */
#ifndef CARC_ALLOC_H
#define CARC_ALLOC_H

#include <stddef.h>

void *carc_xrealloc(void *p, size_t n);
/* Grows *v (elements of `size` bytes, capacity *cap) to hold at least `need` elements. */
void carc_grow(void **v, size_t *cap, size_t need, size_t size);

#endif
