/*
 * tile_face.h — one tile's face drawn from its data alone (engine/tiles/FORMAT.md), onto a canvas (canvas.h):
 * the land, its cities (walls from their side intervals), roads, cloisters and gardens, pennants, and its
 * marks (hill, vineyard, tree, crop circle) as symbols placed clear of what is drawn. The board (render.c)
 * draws every piece and the tile waiting to be placed with it; a tile added to the data needs no code here.
 */
#ifndef CD_TILE_FACE_H
#define CD_TILE_FACE_H

#include <stdbool.h>

#include "carc.h"
#include "canvas.h"

typedef struct {
    double x, y;
} cd_point;

/* Draws tile type t in the T-pixel square whose north-west corner is (ox, oy), turned rot quarter turns
 * clockwise (a triangle: the corner of its right angle), with a hill under it when `hill` (or its data has
 * one). anchors (NULL: not wanted) gets, for each of t's parts, where a figure on it stands, in pixels. */
void cd_tile_face_draw(cd_canvas *c, const carc_tile_type *t, double ox, double oy, double T, int rot, bool hill,
                       cd_point anchors[CARC_MAX_PARTS]);

#endif
