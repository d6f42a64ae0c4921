/*
 * render_cairo.c — the cairo canvas of render.h: the same drawing as the SVG, painted on an image surface
 * and encoded as PNG (for chat clients that show no SVG).
 */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static void set_rgb(cairo_t *cr, uint32_t c, double alpha)
{
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0, alpha);
}

static void paint(cairo_t *cr, const cd_style *s)
{
    if (s->has_fill) {
        set_rgb(cr, s->fill, s->opacity > 0 && s->opacity < 1 ? s->opacity : 1);
        if (s->width > 0)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (s->width > 0) {
        set_rgb(cr, s->stroke, 1);
        cairo_set_line_width(cr, s->width);
        cairo_stroke(cr);
    }
    cairo_new_path(cr);
}

static void cr_begin(cd_canvas *c, double w, double h, const char *attrs)
{
    (void)c, (void)w, (void)h, (void)attrs;
}

static void cr_path(cd_canvas *c, const cd_pcmd *cmd, int n, const cd_style *s)
{
    cairo_t *cr = c->impl;
    double x0 = 0, y0 = 0;
    for (int i = 0; i < n; i++) {
        switch (cmd[i].op) {
        case 'M': cairo_move_to(cr, cmd[i].x, cmd[i].y); break;
        case 'L': cairo_line_to(cr, cmd[i].x, cmd[i].y); break;
        case 'Q':
            /* a quadratic curve as the cubic cairo draws */
            if (cairo_has_current_point(cr))
                cairo_get_current_point(cr, &x0, &y0);
            cairo_curve_to(cr, x0 + 2.0 / 3 * (cmd[i].cx - x0), y0 + 2.0 / 3 * (cmd[i].cy - y0),
                           cmd[i].x + 2.0 / 3 * (cmd[i].cx - cmd[i].x), cmd[i].y + 2.0 / 3 * (cmd[i].cy - cmd[i].y),
                           cmd[i].x, cmd[i].y);
            break;
        default: cairo_close_path(cr);
        }
    }
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    paint(cr, s);
}

static void cr_circle(cd_canvas *c, double cx, double cy, double r, const cd_style *s)
{
    cairo_t *cr = c->impl;
    cairo_new_sub_path(cr);
    cairo_arc(cr, cx, cy, r, 0, 6.283185307179586);
    paint(cr, s);
}

static void cr_text(cd_canvas *c, double x, double y, double size, uint32_t color, int anchor, int bold,
                    const char *utf8)
{
    cairo_t *cr = c->impl;
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, utf8, &e);
    double dx = anchor == CD_ANCHOR_MIDDLE ? e.x_advance / 2 : anchor == CD_ANCHOR_END ? e.x_advance : 0;
    set_rgb(cr, color, 1);
    cairo_move_to(cr, x - dx, y);
    cairo_show_text(cr, utf8);
    cairo_new_path(cr);
}

static void cr_group(cd_canvas *c, const char *attrs, const char *title)
{
    (void)c, (void)attrs, (void)title;
}

static void cr_end_group(cd_canvas *c)
{
    (void)c;
}

typedef struct {
    unsigned char *p;
    size_t len, cap;
} png_buf;

static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int n)
{
    png_buf *b = closure;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 65536;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q)
            return CAIRO_STATUS_NO_MEMORY;
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
    return CAIRO_STATUS_SUCCESS;
}

/* cairo's text keeps font caches (cairo's and fontconfig's) for the life of the process; they are released
 * at exit, after the server has stopped every thread, so that a leak checker sees only real leaks. */
static void release_font_caches(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
static void register_at_exit(void)
{
    atexit(release_font_caches);
}

unsigned char *cd_render_png(const carc_catalog *cat, const json_t *view, int max_px, size_t *len)
{
    pthread_once(&at_exit_once, register_at_exit);
    double w, h, T = 64;
    cd_render_size(cat, view, T, &w, &h);
    double longer = w > h ? w : h;
    if (longer > max_px) {   /* the layout is linear in the tile size: scale it down to fit */
        T = T * max_px / longer;
        cd_render_size(cat, view, T, &w, &h);
    }
    int iw = (int)(w + 0.999), ih = (int)(h + 0.999);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, iw > 0 ? iw : 1, ih > 0 ? ih : 1);
    cairo_t *cr = cairo_create(surf);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
    cd_canvas c = {cr_begin, cr_path, cr_circle, cr_text, cr_group, cr_end_group, cr};
    cd_render_board(&c, cat, view, T);
    cairo_surface_flush(surf);
    png_buf b = {0};
    cairo_status_t st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png_stream(surf, png_write, &b);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    if (st != CAIRO_STATUS_SUCCESS) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}
