/*
 * render_svg.c — the SVG back end of the board (render.h): a canvas that writes SVG text, and
 * cd_render_svg. The board is drawn by render.c.
 */
#include "render.h"

#include "base/buf.h"

/* ---- the SVG canvas ----------------------------------------------------------------------------------- */
static void svg_style(cd_buf *b, const cd_style *s)
{
    if (s->has_fill)
        cd_buf_printf(b, " fill=\"#%06x\"", (unsigned)s->fill);
    else
        cd_buf_add(b, " fill=\"none\"", 12);
    if (s->has_fill && s->opacity > 0 && s->opacity < 1)
        cd_buf_printf(b, " fill-opacity=\"%.2f\"", s->opacity);
    if (s->width > 0)
        cd_buf_printf(b, " stroke=\"#%06x\" stroke-width=\"%.2f\" stroke-linejoin=\"round\" stroke-linecap=\"round\"",
                  (unsigned)s->stroke, s->width);
}

static void svg_begin(cd_canvas *c, double w, double h, const char *attrs)
{
    cd_buf *b = c->impl;
    cd_buf_printf(b,
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
              "role=\"img\" font-family=\"DejaVu Sans, Verdana, sans-serif\" %s>\n",
              w, h, w, h, attrs);
}

static void svg_path(cd_canvas *c, const cd_pcmd *cmd, int n, const cd_style *s)
{
    cd_buf *b = c->impl;
    cd_buf_add(b, "<path d=\"", 9);
    for (int i = 0; i < n; i++) {
        switch (cmd[i].op) {
        case 'M':
        case 'L': cd_buf_printf(b, "%c%.1f %.1f", cmd[i].op, cmd[i].x, cmd[i].y); break;
        case 'Q': cd_buf_printf(b, "Q%.1f %.1f %.1f %.1f", cmd[i].cx, cmd[i].cy, cmd[i].x, cmd[i].y); break;
        default: cd_buf_add(b, "Z", 1);
        }
    }
    cd_buf_add(b, "\"", 1);
    svg_style(b, s);
    cd_buf_add(b, "/>\n", 3);
}

static void svg_circle(cd_canvas *c, double cx, double cy, double r, const cd_style *s)
{
    cd_buf *b = c->impl;
    cd_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", cx, cy, r);
    svg_style(b, s);
    cd_buf_add(b, "/>\n", 3);
}

static void svg_text(cd_canvas *c, double x, double y, double size, uint32_t color, int anchor, int bold,
                     const char *utf8)
{
    cd_buf *b = c->impl;
    static const char *const anchors[] = {"start", "middle", "end"};
    cd_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"#%06x\" text-anchor=\"%s\"%s>", x, y, size,
              (unsigned)color, anchors[anchor], bold ? " font-weight=\"bold\"" : "");
    cd_buf_html(b, utf8);
    cd_buf_add(b, "</text>\n", 8);
}

static void svg_group(cd_canvas *c, const char *attrs, const char *title)
{
    cd_buf *b = c->impl;
    cd_buf_printf(b, "<g %s>", attrs);
    if (title) {
        cd_buf_add(b, "<title>", 7);
        cd_buf_html(b, title);
        cd_buf_add(b, "</title>", 8);
    }
    cd_buf_add(b, "\n", 1);
}

static void svg_end_group(cd_canvas *c)
{
    cd_buf_add(c->impl, "</g>\n", 5);
}

char *cd_render_svg(const carc_catalog *cat, const json_t *view, size_t *len)
{
    cd_buf b = {0};
    cd_canvas c = {svg_begin, svg_path, svg_circle, svg_text, svg_group, svg_end_group, &b};
    cd_render_board(&c, cat, view, 64);
    cd_buf_add(&b, "</svg>\n", 7);
    *len = b.len;
    return b.p;
}
