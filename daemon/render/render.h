/*
 * render.h — pictures of a board: SVG text and PNG bytes, drawn from a game *view* (the JSON a viewer may
 * see: cd_game_view or carc_view_to_json) and the tile data of the catalog.
 *
 * The renderer never sees a carc_state: whatever the view leaves out (the stack order, tiles under hills,
 * another seat's hand) cannot reach a picture. Tile faces are drawn from the data alone (engine/tiles/
 * FORMAT.md): a part's places on the sides give its shape (cities: the wall from its side intervals, closed
 * by curves towards the middle; roads: from the middle of each road place towards the other places or the
 * middle), cloisters and gardens stand in the middle, and marks (hill, vineyard, tree, crop circle with its
 * kind) become symbols. A tile, triangle or mark added to the data needs no code here.
 *
 * One drawing, two back ends: render.c draws the board, and tile_face.c each tile's face, through a small
 * canvas interface (canvas.h); the SVG canvas writes text (render_svg.c), the cairo canvas paints an image
 * surface (render_cairo.c).
 */
#ifndef CD_RENDER_H
#define CD_RENDER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "carc.h"
#include "canvas.h"

/* Draws the board of `view` (a game view as cd_game_view gives it: "board" or "pieces", "figures",
 * "players", "pending", "status", "turn", "seq") onto `c`, tiles `tile_px` pixels wide. */
void cd_render_board(cd_canvas *c, const carc_catalog *cat, const json_t *view, double tile_px);

/* The size the board of `view` takes at tile_px (so a raster back end can pick its surface first). */
void cd_render_size(const carc_catalog *cat, const json_t *view, double tile_px, double *w, double *h);

/* The SVG document of the board (malloc'd, NUL-terminated; *len without the NUL). */
char *cd_render_svg(const carc_catalog *cat, const json_t *view, size_t *len);

/* The PNG of the board (malloc'd bytes, *len of them), at most `max_px` pixels on its longer side; NULL when
 * cairo fails (out of memory). render_cairo.c. */
unsigned char *cd_render_png(const carc_catalog *cat, const json_t *view, int max_px, size_t *len);

/* Seat colours, shared by the pictures and the game page. */
uint32_t cd_seat_color(int seat);

#endif
