/*
 * render.c — the board drawn from a game view (see render.h): the table and its grid, every piece's face
 * (tile_face.c), the figures where their parts' anchors are, and the legend (the players, the turn, the tile
 * waiting to be placed). The back ends are render_svg.c and render_cairo.c.
 */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "tile_face.h"

/* ---- colours ------------------------------------------------------------------------------------------ */
#define C_TABLE 0xf3efe4
#define C_GRID 0xdcd4c0

static const uint32_t seat_colors[CARC_MAX_PLAYERS] = {0xd62828, 0x1d4ed8, 0xf2c511, 0x1f2937, 0xc026d3, 0xf8fafc};

uint32_t cd_seat_color(int seat)
{
    return seat >= 0 && seat < CARC_MAX_PLAYERS ? seat_colors[seat] : 0x888888;
}

/* ---- figures ------------------------------------------------------------------------------------------ */
static void figure_path(cd_canvas *c, double x, double y, double s, const double *xy, int n, bool lying,
                        const cd_style *st)
{
    cd_pcmd cmd[40];
    int k = 0;
    for (int i = 0; i < n && k < 39; i++) {
        double u = xy[2 * i], v = xy[2 * i + 1];
        if (lying) {
            double w = u;
            u = -v, v = w;
        }
        cmd[k++] = (cd_pcmd){i ? 'L' : 'M', x + u * s, y + v * s, 0, 0};
    }
    cmd[k++] = (cd_pcmd){'Z', 0, 0, 0, 0};
    c->path(c, cmd, k, st);
}

static const double meeple[] = {0,    -1,   0.3,  -0.9, 0.38, -0.6, 0.3,  -0.38, 0.95, -0.22, 1,    0.05,
                                0.45, 0.12, 0.8,  1,    0.2,  1,    0,    0.6,   -0.2, 1,     -0.8, 1,
                                -0.45, 0.12, -1,  0.05, -0.95, -0.22, -0.3, -0.38, -0.38, -0.6, -0.3, -0.9};
static const double abbot[] = {0,   -1,  0.35, -0.8, 0.4, -0.45, 0.7, 1,  -0.7, 1, -0.4, -0.45, -0.35, -0.8};
static const double shepherd[] = {0, -1, 0.3, -0.8, 0.3, -0.45, 0.6, 1, -0.6, 1, -0.3, -0.45, -0.3, -0.8};

static void draw_figure(cd_canvas *c, double x, double y, double T, int seat, const char *kind, bool lying,
                        int flock)
{
    uint32_t col = cd_seat_color(seat);
    uint32_t edge = seat == 3 ? 0xf8fafc : 0x111111;
    cd_style st = cd_fill_style(col, edge, T * 0.025);
    double s = T * 0.13;
    if (strcmp(kind, "meeple") == 0) {
        figure_path(c, x, y, s, meeple, 18, lying, &st);
    } else if (strcmp(kind, "abbot") == 0) {
        figure_path(c, x, y, s, abbot, 7, false, &st);
        cd_style band = cd_fill_style(0xffffff, edge, T * 0.01);
        c->circle(c, x, y - s * 0.55, s * 0.18, &band);
    } else if (strcmp(kind, "shepherd") == 0) {
        figure_path(c, x, y, s, shepherd, 7, false, &st);
        cd_pcmd staff[3] = {{'M', x + s * 0.85, y + s, 0, 0},
                            {'L', x + s * 0.85, y - s * 1.1, 0, 0},
                            {'Q', x + s * 0.5, y - s * 0.8, x + s * 0.45, y - s * 1.2}};
        cd_style ss = cd_line_style(0x5a3b1a, T * 0.03);
        c->path(c, staff, 3, &ss);
        if (flock >= 0) {
            char n[16];
            snprintf(n, sizeof n, "%d", flock);
            cd_style badge = cd_fill_style(0xffffff, CD_INK, T * 0.015);
            c->circle(c, x - s * 1.1, y - s * 0.9, T * 0.09, &badge);
            c->text(c, x - s * 1.1, y - s * 0.9 + T * 0.045, T * 0.12, CD_INK, CD_ANCHOR_MIDDLE, 1, n);
        }
    } else {
        static const double diamond[] = {0, -1, 0.8, 0, 0, 1, -0.8, 0};
        figure_path(c, x, y, s, diamond, 4, false, &st);
        char k1[2] = {kind[0] ? kind[0] : '?', 0};
        c->text(c, x, y + T * 0.04, T * 0.12, edge, CD_ANCHOR_MIDDLE, 1, k1);
    }
}

/* ---- the view ----------------------------------------------------------------------------------------- */
static const json_t *view_pieces(const json_t *view)
{
    const json_t *b = json_object_get(view, "board");
    return json_is_array(b) ? b : json_object_get(view, "pieces");
}

typedef struct {
    int minx, miny, maxx, maxy;
    double T, margin, legend;
    double w, h;
} layout;

#define LEGEND_ROW 0.42   /* of a tile */

static void compute_layout(const json_t *view, double T, layout *L)
{
    const json_t *pieces = view_pieces(view);
    L->minx = L->miny = 0;
    L->maxx = L->maxy = 0;
    size_t i;
    json_t *pc;
    json_array_foreach(pieces, i, pc) {
        int x = (int)json_integer_value(json_object_get(pc, "x")), y = (int)json_integer_value(json_object_get(pc, "y"));
        if (i == 0 || x < L->minx)
            L->minx = x;
        if (i == 0 || x > L->maxx)
            L->maxx = x;
        if (i == 0 || y < L->miny)
            L->miny = y;
        if (i == 0 || y > L->maxy)
            L->maxy = y;
    }
    L->minx--, L->miny--, L->maxx++, L->maxy++;   /* the spaces round the board, where tiles may go next */
    L->T = T;
    L->margin = T * 0.45;
    size_t nplayers = json_array_size(json_object_get(view, "players"));
    L->legend = T * (0.5 + LEGEND_ROW * (double)(nplayers + 1)) + T * 0.2;
    L->w = 2 * L->margin + (L->maxx - L->minx + 1) * T;
    L->h = 2 * L->margin + (L->maxy - L->miny + 1) * T + L->legend;
    double minw = T * 5.5;
    if (L->w < minw)
        L->w = minw;
}

void cd_render_size(const carc_catalog *cat, const json_t *view, double tile_px, double *w, double *h)
{
    (void)cat;
    layout L;
    compute_layout(view, tile_px, &L);
    *w = L.w, *h = L.h;
}

static int flock_of(const json_t *view, const json_t *fig, int seat)
{
    const json_t *f = json_object_get(fig, "flock");
    if (!f)
        f = json_object_get(json_array_get(json_object_get(view, "players"), (size_t)seat), "flock");
    if (!f)   /* Hills & Sheep: {"hills_sheep":{"flocks":[[3,1],[],...]}}, sheep tokens by seat */
        f = json_array_get(json_object_get(json_object_get(view, "hills_sheep"), "flocks"), (size_t)seat);
    if (json_is_integer(f))
        return (int)json_integer_value(f);
    if (json_is_array(f)) {
        int sum = 0;
        size_t i;
        json_t *v;
        json_array_foreach(f, i, v) sum += json_is_integer(v) ? (int)json_integer_value(v) : 1;
        return sum;
    }
    return -1;
}

static void draw_legend(cd_canvas *c, const carc_catalog *cat, const json_t *view, const layout *L)
{
    double T = L->T, top = L->h - L->legend + T * 0.25;
    const json_t *players = json_object_get(view, "players"), *pending = json_object_get(view, "pending");
    const char *status = json_string_value(json_object_get(view, "status"));
    int pseat = json_is_integer(json_object_get(pending, "seat")) ? (int)json_integer_value(json_object_get(pending, "seat")) : -1;
    bool finished = status && strcmp(status, "finished") == 0;
    char line[200];
    snprintf(line, sizeof line, "seq %lld \xc2\xb7 turn %lld \xc2\xb7 %lld tiles left%s",
             (long long)json_integer_value(json_object_get(view, "seq")),
             (long long)json_integer_value(json_object_get(view, "turn")),
             (long long)json_integer_value(json_object_get(view, "stack_left")), finished ? " \xc2\xb7 game over" : "");
    c->text(c, L->margin, top + T * 0.18, T * 0.2, CD_INK, CD_ANCHOR_START, 1, line);
    size_t i;
    json_t *pl;
    json_array_foreach(players, i, pl) {
        double y = top + T * (0.5 + LEGEND_ROW * (double)i);
        cd_style chip = cd_fill_style(cd_seat_color((int)i), 0x111111, T * 0.02);
        c->circle(c, L->margin + T * 0.12, y, T * 0.12, &chip);
        const char *name = json_string_value(json_object_get(pl, "name"));
        if (!name)
            name = "";
        char row[200];
        snprintf(row, sizeof row, "%s%.*s  %lld", !finished && (int)i == pseat ? "\xe2\x96\xb6 " : "",
                 (int)cd_utf8_cut(name, strlen(name), 60), name,
                 (long long)json_integer_value(json_object_get(pl, "score")));
        c->text(c, L->margin + T * 0.35, y + T * 0.07, T * 0.2, CD_INK, CD_ANCHOR_START, (int)i == pseat, row);
    }
    /* the tile drawn and waiting to be placed (public) */
    const char *tile = json_string_value(json_object_get(pending, "tile"));
    int ti = tile ? carc_catalog_find(cat, tile) : -1;
    const char *kind = json_string_value(json_object_get(pending, "kind"));
    if (ti >= 0 && kind && strcmp(kind, "place") == 0) {
        double s = T * 0.9, x = L->w - L->margin - s, y = top + T * 0.35;
        c->text(c, x + s / 2, y - T * 0.08, T * 0.16, CD_INK, CD_ANCHOR_MIDDLE, 0, "to place");
        char attrs[64];
        snprintf(attrs, sizeof attrs, "class=\"drawn\" data-tile=\"%s\"", cat->types[ti].id);
        c->group(c, attrs, NULL);
        cd_tile_face_draw(c, &cat->types[ti], x, y, s, 0, false, NULL);
        c->end_group(c);
    }
}

void cd_render_board(cd_canvas *c, const carc_catalog *cat, const json_t *view, double T)
{
    layout L;
    compute_layout(view, T, &L);
    const json_t *pieces = view_pieces(view);
    char attrs[160];
    snprintf(attrs, sizeof attrs, "data-seq=\"%lld\" data-pieces=\"%zu\"",
             (long long)json_integer_value(json_object_get(view, "seq")), json_array_size(pieces));
    c->begin(c, L.w, L.h, attrs);
    cd_style table = cd_fill_style(C_TABLE, C_TABLE, 0);
    cd_pcmd bg[5] = {{'M', 0, 0, 0, 0}, {'L', L.w, 0, 0, 0}, {'L', L.w, L.h, 0, 0}, {'L', 0, L.h, 0, 0}, {'Z', 0, 0, 0, 0}};
    c->path(c, bg, 5, &table);

    /* the grid and the coordinates on the margin */
    double gx = L.margin, gy = L.margin;
    int ncol = L.maxx - L.minx + 1, nrow = L.maxy - L.miny + 1;
    cd_style grid = cd_line_style(C_GRID, 1);
    for (int i = 0; i <= ncol; i++) {
        cd_pcmd ln[2] = {{'M', gx + i * T, gy, 0, 0}, {'L', gx + i * T, gy + nrow * T, 0, 0}};
        c->path(c, ln, 2, &grid);
    }
    for (int j = 0; j <= nrow; j++) {
        cd_pcmd ln[2] = {{'M', gx, gy + j * T, 0, 0}, {'L', gx + ncol * T, gy + j * T, 0, 0}};
        c->path(c, ln, 2, &grid);
    }
    c->group(c, "class=\"coords\"", NULL);
    for (int i = 0; i < ncol; i++) {
        char n[16];
        snprintf(n, sizeof n, "%d", L.minx + i);
        c->text(c, gx + (i + 0.5) * T, gy - T * 0.12, T * 0.22, 0x6b6458, CD_ANCHOR_MIDDLE, 0, n);
        c->text(c, gx + (i + 0.5) * T, gy + nrow * T + T * 0.3, T * 0.22, 0x6b6458, CD_ANCHOR_MIDDLE, 0, n);
    }
    for (int j = 0; j < nrow; j++) {
        char n[16];
        snprintf(n, sizeof n, "%d", L.miny + j);
        c->text(c, gx - T * 0.08, gy + (j + 0.5) * T + T * 0.08, T * 0.22, 0x6b6458, CD_ANCHOR_END, 0, n);
        c->text(c, gx + ncol * T + T * 0.08, gy + (j + 0.5) * T + T * 0.08, T * 0.22, 0x6b6458, CD_ANCHOR_START, 0, n);
    }
    c->end_group(c);

    /* the pieces, remembering where each part's figure would stand */
    size_t npieces = json_array_size(pieces);
    cd_point(*anchors)[CARC_MAX_PARTS] = calloc(npieces ? npieces : 1, sizeof *anchors);
    int *types = calloc(npieces ? npieces : 1, sizeof *types);
    if (!anchors || !types)
        abort();
    size_t i;
    json_t *pc;
    json_array_foreach(pieces, i, pc) {
        const char *id = json_string_value(json_object_get(pc, "tile"));
        int ti = id ? carc_catalog_find(cat, id) : -1;
        types[i] = ti;
        if (ti < 0)
            continue;
        int x = (int)json_integer_value(json_object_get(pc, "x")), y = (int)json_integer_value(json_object_get(pc, "y"));
        int rot = (int)json_integer_value(json_object_get(pc, "rot"));
        char a[96], title[96];
        snprintf(a, sizeof a, "class=\"piece\" data-tile=\"%s\" data-x=\"%d\" data-y=\"%d\" data-rot=\"%d\"",
                 cat->types[ti].id, x, y, rot);
        snprintf(title, sizeof title, "%s at (%d, %d), rotation %d", cat->types[ti].id, x, y, rot);
        c->group(c, a, title);
        double ox = gx + (x - L.minx) * T, oy = gy + (y - L.miny) * T;
        cd_tile_face_draw(c, &cat->types[ti], ox, oy, T, rot, json_is_true(json_object_get(pc, "hill")), anchors[i]);
        c->end_group(c);
    }

    /* figures on top */
    json_t *fig;
    json_array_foreach(json_object_get(view, "figures"), i, fig) {
        json_int_t pi = json_integer_value(json_object_get(fig, "piece"));
        int seat = (int)json_integer_value(json_object_get(fig, "seat"));
        const char *kind = json_string_value(json_object_get(fig, "figure"));
        const char *part = json_string_value(json_object_get(fig, "part"));
        if (pi < 0 || (size_t)pi >= npieces || types[pi] < 0 || !kind || !part)
            continue;
        int k = carc_part_find(&cat->types[types[pi]], part);
        if (k < 0)
            continue;
        char a[120];
        snprintf(a, sizeof a, "class=\"figure\" data-seat=\"%d\" data-figure=\"%.20s\" data-part=\"%.8s\"", seat, kind,
                 part);
        c->group(c, a, NULL);
        bool lying = cat->types[types[pi]].parts[k].kind == CARC_PART_FIELD && strcmp(kind, "meeple") == 0;
        draw_figure(c, anchors[pi][k].x, anchors[pi][k].y, T, seat, kind, lying,
                    strcmp(kind, "shepherd") == 0 ? flock_of(view, fig, seat) : -1);
        c->end_group(c);
    }
    free(anchors);
    free(types);
    draw_legend(c, cat, view, &L);
}
