/*
 * canvas.h — what drawing a board needs from a back end: paths, circles, text and groups in pixels, with a
 * fill and an outline. The board (render.c) and a tile's face (tile_face.c) draw through it; the back ends
 * are the SVG text of render_svg.c and the cairo surface of render_cairo.c.
 */
#ifndef CD_CANVAS_H
#define CD_CANVAS_H

#include <stdint.h>

typedef struct {
    char op;              /* 'M' move, 'L' line, 'Q' quadratic curve (cx, cy control), 'Z' close */
    double x, y, cx, cy;
} cd_pcmd;

typedef struct {
    uint32_t fill, stroke;   /* 0xRRGGBB */
    double width;            /* stroke width in pixels; 0 = no stroke */
    double opacity;          /* of the fill, 0..1 (0 is taken as 1) */
    int has_fill;
} cd_style;

/* a filled shape with an outline (width 0: none), and a line */
static inline cd_style cd_fill_style(uint32_t fill, uint32_t stroke, double width)
{
    return (cd_style){.fill = fill, .stroke = stroke, .width = width, .opacity = 1, .has_fill = 1};
}

static inline cd_style cd_line_style(uint32_t stroke, double width)
{
    return (cd_style){.stroke = stroke, .width = width, .opacity = 1, .has_fill = 0};
}

#define CD_INK 0x2b2b2b   /* text, and the outlines of small symbols */

enum { CD_ANCHOR_START, CD_ANCHOR_MIDDLE, CD_ANCHOR_END };

typedef struct cd_canvas cd_canvas;
struct cd_canvas {
    void (*begin)(cd_canvas *c, double w, double h, const char *attrs);
    void (*path)(cd_canvas *c, const cd_pcmd *cmd, int n, const cd_style *s);
    void (*circle)(cd_canvas *c, double cx, double cy, double r, const cd_style *s);
    void (*text)(cd_canvas *c, double x, double y, double size, uint32_t color, int anchor, int bold,
                 const char *utf8);
    /* a group with extra attributes (SVG: data-* and a <title>); end_group closes it */
    void (*group)(cd_canvas *c, const char *attrs, const char *title);
    void (*end_group)(cd_canvas *c);
    void *impl;
};

#endif
