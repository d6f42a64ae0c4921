/*
 * tileset.h — the tile data compiled into libcarc (see cmake/embed_tiles.cmake and engine/tiles/FORMAT.md).
 */
#ifndef CARC_TILESET_H
#define CARC_TILESET_H

#include <stddef.h>

typedef struct {
    const char *name;   /* file name, for error messages */
    const char *text;
    size_t len;
} carc_builtin_set;

extern const carc_builtin_set carc_builtin_sets[];
extern const int carc_builtin_nsets;

#endif
