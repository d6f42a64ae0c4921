/*
 * render.c — the board drawn from a game view and the tile data (see render.h), and the SVG canvas.
 *
 * Local frame of a piece: (0,0) its north-west corner, (1,1) the south-east one, y growing south. A square's
 * sides run clockwise N (0,0)->(1,0), E, S, W; a triangle (right angle at the north-west) has N, D from
 * (1,0) to (0,1) and W. Unit t of a side is the point t/12 of the way along it (FORMAT.md). A piece with
 * rotation r is its local frame turned r quarter turns clockwise about the middle of its space, which is
 * also what a triangle's rotation (the corner of its right angle) means.
 */
#include "base/buf.h"
#include "render.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U CARC_SIDE_UNITS
#define PI 3.14159265358979323846

/* ---- colours ------------------------------------------------------------------------------------------ */
#define C_TABLE 0xf3efe4
#define C_GRID 0xdcd4c0
#define C_FIELD 0x8cc063
#define C_FIELD_EDGE 0x5f8f3e
#define C_CITY 0xd8b26e
#define C_WALL 0x7a5228
#define C_ROAD 0xf6f0e0
#define C_ROAD_EDGE 0x6d6657
#define C_CLOISTER 0xb5452f
#define C_ROOF 0x7d2a1c
#define C_GARDEN 0x3f7d2e
#define C_PENNANT 0x2b59c3
#define C_INK 0x2b2b2b
#define C_HILL 0xa88a5a
#define C_GRAPE 0x6a2c8a
#define C_TRUNK 0x6b4423
#define C_LEAVES 0x2f6b2a
#define C_FRUIT 0xe0432b
#define C_CROP 0xf1e3a0

static const uint32_t seat_colors[CARC_MAX_PLAYERS] = {0xd62828, 0x1d4ed8, 0xf2c511, 0x1f2937, 0xc026d3, 0xf8fafc};

uint32_t cd_seat_color(int seat)
{
    return seat >= 0 && seat < CARC_MAX_PLAYERS ? seat_colors[seat] : 0x888888;
}

/* ---- geometry ----------------------------------------------------------------------------------------- */
typedef struct {
    double x, y;
} pt;

static pt lerp(pt a, pt b, double t)
{
    return (pt){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

static double dist(pt a, pt b)
{
    return hypot(a.x - b.x, a.y - b.y);
}

/* The sides of a shape in clockwise order. */
static int side_order(const carc_tile_type *t, int order[4])
{
    if (t->shape == CARC_TRIANGLE) {
        order[0] = CARC_N, order[1] = CARC_D, order[2] = CARC_W;
        return 3;
    }
    for (int i = 0; i < 4; i++)
        order[i] = i;
    return 4;
}

static void side_ends(int side, pt *a, pt *b)
{
    static const pt corner[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    if (side == CARC_D) {
        *a = (pt){1, 0}, *b = (pt){0, 1};
        return;
    }
    *a = corner[side & 3], *b = corner[(side + 1) & 3];
}

static pt side_point(int side, double units)
{
    pt a, b;
    side_ends(side, &a, &b);
    return lerp(a, b, units / U);
}

static pt middle_of(const carc_tile_type *t)
{
    return t->shape == CARC_TRIANGLE ? (pt){1.0 / 3, 1.0 / 3} : (pt){0.5, 0.5};
}

/* ---- a piece being drawn ------------------------------------------------------------------------------ */
#define MAX_CMDS 96
#define MAX_POLY 96

typedef struct {
    cd_canvas *c;
    const carc_tile_type *t;
    double ox, oy, T;   /* pixel origin of the space and its size */
    int rot;
    int order[4], nsides;
    pt mid;
    /* what is drawn already, in the local frame: for placing symbols clear of it */
    int npoly;
    pt poly[CARC_MAX_PARTS][MAX_POLY];
    int polyn[CARC_MAX_PARTS];
    int nroad;
    pt road[CARC_MAX_PARTS * 3][2];
    pt anchor[CARC_MAX_PARTS];
} piece_ctx;

static pt to_px(const piece_ctx *p, pt l)
{
    for (int i = 0; i < (p->rot & 3); i++)
        l = (pt){1 - l.y, l.x};
    return (pt){p->ox + l.x * p->T, p->oy + l.y * p->T};
}

typedef struct {
    cd_pcmd c[MAX_CMDS];
    int n;
} path_t;

static void pmove(path_t *pa, const piece_ctx *p, pt l)
{
    if (pa->n < MAX_CMDS) {
        pt q = to_px(p, l);
        pa->c[pa->n++] = (cd_pcmd){'M', q.x, q.y, 0, 0};
    }
}

static void pline(path_t *pa, const piece_ctx *p, pt l)
{
    if (pa->n < MAX_CMDS) {
        pt q = to_px(p, l);
        pa->c[pa->n++] = (cd_pcmd){'L', q.x, q.y, 0, 0};
    }
}

static void pquad(path_t *pa, const piece_ctx *p, pt ctl, pt l)
{
    if (pa->n < MAX_CMDS) {
        pt q = to_px(p, l), k = to_px(p, ctl);
        pa->c[pa->n++] = (cd_pcmd){'Q', q.x, q.y, k.x, k.y};
    }
}

static void pend(path_t *pa)
{
    if (pa->n < MAX_CMDS)
        pa->c[pa->n++] = (cd_pcmd){'Z', 0, 0, 0, 0};
}

static cd_style fill_style(uint32_t fill, uint32_t stroke, double width)
{
    return (cd_style){.fill = fill, .stroke = stroke, .width = width, .opacity = 1, .has_fill = 1};
}

static cd_style line_style(uint32_t stroke, double width)
{
    return (cd_style){.stroke = stroke, .width = width, .opacity = 1, .has_fill = 0};
}

/* Perimeter parameter q (0 .. 12 * nsides, clockwise from the start of the first side) to a local point. */
static pt perim_point(const piece_ctx *p, double q)
{
    double total = U * p->nsides;
    while (q < 0)
        q += total;
    while (q > total)
        q -= total;
    int k = (int)(q / U);
    if (k >= p->nsides)
        k = p->nsides - 1;
    return side_point(p->order[k], q - k * U);
}

/* ---- the parts' places on the sides ------------------------------------------------------------------- */
typedef struct {
    double a, b;   /* perimeter interval [a, b) */
} run_t;

static int cmp_run(const void *x, const void *y)
{
    const run_t *r = x, *s = y;
    return (r->a > s->a) - (r->a < s->a);
}

/* The part's intervals along the perimeter, sorted, touching ones merged (also across the start). */
static int part_runs(const piece_ctx *p, int part, run_t *runs)
{
    int n = 0;
    for (int k = 0; k < p->nsides; k++) {
        const carc_side *sd = &p->t->side[p->order[k]];
        for (int i = 0; i < sd->nseg; i++)
            if (sd->seg[i].part == part)
                runs[n++] = (run_t){k * U + sd->seg[i].lo, k * U + sd->seg[i].hi};
    }
    qsort(runs, (size_t)n, sizeof *runs, cmp_run);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && runs[i].a <= runs[m - 1].b + 1e-9) {
            if (runs[i].b > runs[m - 1].b)
                runs[m - 1].b = runs[i].b;
        } else {
            runs[m++] = runs[i];
        }
    }
    double total = U * p->nsides;
    if (m > 1 && runs[m - 1].b >= total - 1e-9 && runs[0].a <= 1e-9) {
        runs[0].a = runs[m - 1].a - total;
        m--;
    }
    return m;
}

/* The midpoints of a part's places, one per segment (roads: where they leave the piece). */
static int part_ends(const piece_ctx *p, int part, pt *ends)
{
    int n = 0;
    for (int k = 0; k < p->nsides; k++) {
        const carc_side *sd = &p->t->side[p->order[k]];
        for (int i = 0; i < sd->nseg; i++)
            if (sd->seg[i].part == part && n < 8)
                ends[n++] = side_point(p->order[k], (sd->seg[i].lo + sd->seg[i].hi) / 2.0);
    }
    return n;
}

/* ---- obstacles: where symbols and figures should not go ----------------------------------------------- */
static bool in_poly(const pt *poly, int n, pt q)
{
    bool in = false;
    for (int i = 0, j = n - 1; i < n; j = i++)
        if ((poly[i].y > q.y) != (poly[j].y > q.y) &&
            q.x < (poly[j].x - poly[i].x) * (q.y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x)
            in = !in;
    return in;
}

static double seg_dist(pt a, pt b, pt q)
{
    double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((q.x - a.x) * dx + (q.y - a.y) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return dist(q, (pt){a.x + t * dx, a.y + t * dy});
}

static bool in_city(const piece_ctx *p, pt q)
{
    for (int i = 0; i < p->npoly; i++)
        if (in_poly(p->poly[i], p->polyn[i], q))
            return true;
    return false;
}

static double road_dist(const piece_ctx *p, pt q)
{
    double d = 9;
    for (int i = 0; i < p->nroad; i++) {
        double e = seg_dist(p->road[i][0], p->road[i][1], q);
        if (e < d)
            d = e;
    }
    return d;
}

static bool inside_shape(const piece_ctx *p, pt q)
{
    if (p->t->shape == CARC_TRIANGLE)
        return q.x + q.y < 0.9 && q.x > 0.08 && q.y > 0.08;
    return q.x > 0.08 && q.x < 0.92 && q.y > 0.08 && q.y < 0.92;
}

/* ---- drawing the parts -------------------------------------------------------------------------------- */
/* A city: along the sides for each run, then a curve towards the middle to the next run (or back). */
static void draw_city(piece_ctx *p, int part)
{
    run_t runs[CARC_NSIDES * CARC_MAX_SEGS];
    int n = part_runs(p, part, runs);
    if (n == 0)
        return;
    double total = U * p->nsides;
    path_t pa = {.n = 0};
    pt *poly = p->poly[p->npoly];
    int np = 0;
    pt sum = {0, 0};
    if (n == 1 && runs[0].b - runs[0].a >= total - 1e-9) {
        for (int k = 0; k < p->nsides; k++) {
            pt a = side_point(p->order[k], 0);
            if (k == 0)
                pmove(&pa, p, a);
            else
                pline(&pa, p, a);
            if (np < MAX_POLY)
                poly[np++] = a;
        }
        pend(&pa);
        p->anchor[part] = p->mid;
    } else {
        for (int r = 0; r < n; r++) {
            pt a = perim_point(p, runs[r].a);
            if (r == 0)
                pmove(&pa, p, a);
            else
                pline(&pa, p, a);
            if (np < MAX_POLY)
                poly[np++] = a;
            /* the corners inside the run, then its end */
            for (double q = floor(runs[r].a / U + 1) * U; q < runs[r].b - 1e-9; q += U) {
                pt c = perim_point(p, q);
                pline(&pa, p, c);
                if (np < MAX_POLY)
                    poly[np++] = c;
            }
            pt b = perim_point(p, runs[r].b);
            pline(&pa, p, b);
            if (np < MAX_POLY)
                poly[np++] = b;
            sum.x += perim_point(p, (runs[r].a + runs[r].b) / 2).x;
            sum.y += perim_point(p, (runs[r].a + runs[r].b) / 2).y;
            pt next = perim_point(p, runs[(r + 1) % n].a);
            /* one run: the wall bends towards the middle, and past it for a city over several sides (so
             * that it is a curve, not the diagonal); several runs: the city joins them through the middle */
            pt ctl = p->mid;
            if (n == 1) {
                double sides = (runs[0].b - runs[0].a) / U;
                ctl = lerp(perim_point(p, (runs[0].a + runs[0].b) / 2), p->mid, sides <= 1 ? 1.0 : 1.0 + 0.3 * (sides - 1));
            }
            pquad(&pa, p, ctl, next);
            for (int s = 1; s < 8 && np < MAX_POLY; s++) {   /* the curve, flattened for hit tests */
                double t = s / 8.0;
                pt q1 = lerp(lerp(b, ctl, t), lerp(ctl, next, t), t);
                poly[np++] = q1;
            }
        }
        pend(&pa);
        /* a knight stands inside the wall, or where several stretches of wall meet (the middle) */
        pt edge = {sum.x / n, sum.y / n};
        p->anchor[part] = n == 1 ? lerp(edge, p->mid, 0.42) : p->mid;
    }
    p->polyn[p->npoly++] = np;
    cd_style s = fill_style(C_CITY, C_WALL, p->T * 0.035);
    p->c->path(p->c, pa.c, pa.n, &s);
}

static void draw_road(piece_ctx *p, int part)
{
    pt ends[8];
    int n = part_ends(p, part, ends);
    path_t pa = {.n = 0};
    if (n == 2) {
        pmove(&pa, p, ends[0]);
        pquad(&pa, p, p->mid, ends[1]);
        p->anchor[part] = lerp(lerp(ends[0], p->mid, 0.5), lerp(p->mid, ends[1], 0.5), 0.5);
        for (int s = 0; s < 4; s++) {
            double t0 = s / 4.0, t1 = (s + 1) / 4.0;
            pt a = lerp(lerp(ends[0], p->mid, t0), lerp(p->mid, ends[1], t0), t0);
            pt b = lerp(lerp(ends[0], p->mid, t1), lerp(p->mid, ends[1], t1), t1);
            if (p->nroad < CARC_MAX_PARTS * 3)
                p->road[p->nroad][0] = a, p->road[p->nroad++][1] = b;
        }
    } else {
        for (int i = 0; i < n; i++) {
            pmove(&pa, p, ends[i]);
            pline(&pa, p, p->mid);
            if (p->nroad < CARC_MAX_PARTS * 3)
                p->road[p->nroad][0] = ends[i], p->road[p->nroad++][1] = p->mid;
        }
        p->anchor[part] = n ? lerp(ends[0], p->mid, 0.5) : p->mid;
    }
    cd_style edge = line_style(C_ROAD_EDGE, p->T * 0.15), fill = line_style(C_ROAD, p->T * 0.1);
    p->c->path(p->c, pa.c, pa.n, &edge);
    p->c->path(p->c, pa.c, pa.n, &fill);
}

/* Symbols stand upright whatever the piece's rotation: only their place `at` (local frame) turns with the
 * piece; their shape is drawn in screen directions, in units of the tile. */

/* A polygon given as flat coordinates round `at`, `scale` of the tile. */
static void draw_shape(piece_ctx *p, pt at, double scale, const double *xy, int n, const cd_style *s)
{
    pt c = to_px(p, at);
    cd_pcmd cmd[40];
    int k = 0;
    for (int i = 0; i < n && k < 39; i++)
        cmd[k++] = (cd_pcmd){i ? 'L' : 'M', c.x + xy[2 * i] * scale * p->T, c.y + xy[2 * i + 1] * scale * p->T, 0, 0};
    cmd[k++] = (cd_pcmd){'Z', 0, 0, 0, 0};
    p->c->path(p->c, cmd, k, s);
}

/* A disc of radius r at `at` moved by (dx, dy) on the screen (tile units). */
static void dot_off(piece_ctx *p, pt at, double dx, double dy, double r, const cd_style *s)
{
    pt q = to_px(p, at);
    p->c->circle(p->c, q.x + dx * p->T, q.y + dy * p->T, r * p->T, s);
}

static void dot(piece_ctx *p, pt at, double r, const cd_style *s)
{
    dot_off(p, at, 0, 0, r, s);
}

static void draw_cloister(piece_ctx *p, pt at)
{
    static const double body[] = {-1, -0.4, 0, -1, 1, -0.4, 1, 1, -1, 1};
    cd_style s = fill_style(C_CLOISTER, C_ROOF, p->T * 0.02);
    draw_shape(p, at, 0.12, body, 5, &s);
    static const double cross[] = {-0.15, -0.75, 0.15, -0.75, 0.15, -0.45, 0.45, -0.45, 0.45, -0.15, 0.15, -0.15,
                                   0.15, 0.6,   -0.15, 0.6,   -0.15, -0.15, -0.45, -0.15, -0.45, -0.45, -0.15,
                                   -0.45};
    cd_style w = fill_style(0xfff6e0, 0xfff6e0, 0);
    draw_shape(p, at, 0.1, cross, 12, &w);
}

static void draw_garden(piece_ctx *p, pt at)
{
    cd_style hedge = fill_style(C_GARDEN, 0x244d1a, p->T * 0.02);
    dot(p, at, 0.13, &hedge);
    cd_style flower = fill_style(0xf7d6e0, 0xb23a6a, p->T * 0.01);
    for (int i = 0; i < 5; i++) {
        double a = i * 2 * PI / 5;
        dot_off(p, at, 0.065 * cos(a), 0.065 * sin(a), 0.025, &flower);
    }
}

static void draw_house(piece_ctx *p, pt at)
{
    static const double house[] = {-1, -0.2, 0, -1, 1, -0.2, 1, 0.8, -1, 0.8};
    cd_style s = fill_style(0xe8e0d0, C_INK, p->T * 0.015);
    draw_shape(p, at, 0.06, house, 5, &s);
}

static void draw_pennant(piece_ctx *p, pt at)
{
    static const double shield[] = {-0.8, -1, 0.8, -1, 0.8, 0.1, 0, 1, -0.8, 0.1};
    cd_style s = fill_style(C_PENNANT, 0xffffff, p->T * 0.015);
    draw_shape(p, at, 0.07, shield, 5, &s);
}

/* ---- marks -------------------------------------------------------------------------------------------- */
static void draw_hill(piece_ctx *p, pt at)
{
    pt c = to_px(p, at);
    double T = p->T;
    cd_pcmd cmd[3] = {{'M', c.x - 0.22 * T, c.y + 0.1 * T, 0, 0},
                      {'Q', c.x + 0.22 * T, c.y + 0.1 * T, c.x, c.y - 0.3 * T},
                      {'Z', 0, 0, 0, 0}};
    cd_style s = fill_style(C_HILL, 0x6e5630, T * 0.02);
    p->c->path(p->c, cmd, 3, &s);
}

static void draw_vineyard(piece_ctx *p, pt at)
{
    cd_style s = fill_style(C_GRAPE, 0x3b1450, p->T * 0.01);
    static const double g[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-0.5, 0}, {0.5, 0}, {0, 1}};
    for (int i = 0; i < 6; i++)
        dot_off(p, at, g[i][0] * 0.06, g[i][1] * 0.06, 0.04, &s);
    cd_style leaf = fill_style(0x4f8f2f, 0x2e5a1b, p->T * 0.01);
    dot_off(p, at, 0.08, -0.12, 0.04, &leaf);
}

static void draw_tree(piece_ctx *p, pt at)
{
    static const double trunk[] = {-0.2, 0, 0.2, 0, 0.2, 1, -0.2, 1};
    cd_style t = fill_style(C_TRUNK, C_TRUNK, 0);
    draw_shape(p, at, 0.13, trunk, 4, &t);
    cd_style leaves = fill_style(C_LEAVES, 0x1d4219, p->T * 0.015);
    dot_off(p, at, 0, -0.04, 0.13, &leaves);
    cd_style fruit = fill_style(C_FRUIT, 0x8c1c0c, p->T * 0.008);
    dot_off(p, at, -0.05, -0.06, 0.028, &fruit);
    dot_off(p, at, 0.06, -0.01, 0.028, &fruit);
    dot_off(p, at, 0.005, -0.12, 0.028, &fruit);
}

static void draw_crop_circle(piece_ctx *p, pt at, int kind)
{
    cd_style ring = fill_style(C_CROP, 0x9c8a3a, p->T * 0.015);
    dot(p, at, 0.15, &ring);
    cd_style inner = line_style(0x9c8a3a, p->T * 0.01);
    dot(p, at, 0.1, &inner);
    cd_style sym = fill_style(0x5b4a14, 0x5b4a14, p->T * 0.01);
    if (kind == CARC_CC_CLUB) {
        static const double club[] = {-0.25, -1, 0.25, -1, 0.35, 0.2, 0.15, 1, -0.15, 1, -0.35, 0.2};
        draw_shape(p, at, 0.07, club, 6, &sym);
    } else if (kind == CARC_CC_RAKE) {
        static const double rake[] = {-1, -0.9, -0.7, -0.9, -0.7, -0.3, -0.15, -0.3, -0.15, -0.9, 0.15, -0.9,
                                      0.15, -0.3, 0.7,  -0.3, 0.7,  -0.9, 1,     -0.9, 1,     0,    0.15, 0,
                                      0.15, 1,    -0.15, 1,   -0.15, 0,   -1,    0};
        draw_shape(p, at, 0.07, rake, 16, &sym);
    } else {
        static const double shield[] = {-0.8, -1, 0.8, -1, 0.8, 0.1, 0, 1, -0.8, 0.1};
        draw_shape(p, at, 0.07, shield, 5, &sym);
    }
}

/* The spot of the piece farthest from cities, roads and the anchors already taken. */
static pt free_spot(const piece_ctx *p, const pt *taken, int ntaken)
{
    static const double grid[] = {0.18, 0.34, 0.5, 0.66, 0.82};
    pt best = p->mid;
    double best_d = -1;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            pt q = {grid[j], grid[i]};
            if (!inside_shape(p, q) || in_city(p, q))
                continue;
            double d = road_dist(p, q);
            for (int k = 0; k < ntaken; k++)
                if (dist(q, taken[k]) < d)
                    d = dist(q, taken[k]);
            if (d > best_d + 1e-9) {
                best_d = d;
                best = q;
            }
        }
    return best;
}

/* ---- a whole piece ------------------------------------------------------------------------------------ */
static void piece_outline(piece_ctx *p, path_t *pa)
{
    for (int k = 0; k < p->nsides; k++) {
        pt a = side_point(p->order[k], 0);
        if (k == 0)
            pmove(pa, p, a);
        else
            pline(pa, p, a);
    }
    pend(pa);
}

/* Field anchors: the middle of the field's places, pulled in towards the middle of the piece, moved to a
 * free spot when that lands on a city or a road. */
static void field_anchor(piece_ctx *p, int part)
{
    pt ends[8];
    int n = part_ends(p, part, ends);
    pt sum = {0, 0};
    for (int i = 0; i < n; i++)
        sum.x += ends[i].x / n, sum.y += ends[i].y / n;
    static const double pulls[] = {0.3, 0.18, 0.42, 0.08, 0.55};
    for (int i = 0; i < 5; i++) {
        pt q = lerp(sum, p->mid, pulls[i]);
        if (!in_city(p, q) && road_dist(p, q) > 0.1 && dist(q, p->mid) > 0.12 && inside_shape(p, q)) {
            p->anchor[part] = q;
            return;
        }
    }
    p->anchor[part] = free_spot(p, NULL, 0);
}

static void draw_piece(cd_canvas *c, const carc_tile_type *t, double ox, double oy, double T, int rot,
                       bool hill, piece_ctx *p)
{
    memset(p, 0, sizeof *p);
    p->c = c, p->t = t, p->ox = ox, p->oy = oy, p->T = T, p->rot = rot;
    p->nsides = side_order(t, p->order);
    p->mid = middle_of(t);
    path_t pa = {.n = 0};
    piece_outline(p, &pa);
    cd_style bg = fill_style(C_FIELD, C_FIELD_EDGE, T * 0.02);
    c->path(c, pa.c, pa.n, &bg);

    bool centre_taken = false;
    int one_ended = 0;
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == CARC_PART_CITY)
            draw_city(p, i);
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == CARC_PART_ROAD) {
            pt ends[8];
            one_ended += part_ends(p, i, ends) == 1;
            draw_road(p, i);
        }
    pt taken[CARC_MAX_PARTS + 4];
    int ntaken = 0;
    for (int i = 0; i < t->nparts; i++) {
        int k = t->parts[i].kind;
        if (k == CARC_PART_CLOISTER || k == CARC_PART_GARDEN) {
            pt at = centre_taken ? lerp(p->mid, (pt){0.8, 0.8}, 0.6) : p->mid;
            centre_taken = true;
            p->anchor[i] = at;
            if (k == CARC_PART_CLOISTER)
                draw_cloister(p, at);
            else
                draw_garden(p, at);
        }
    }
    if (t->marks & CARC_MARK_CC) {
        draw_crop_circle(p, p->mid, t->cc);
        centre_taken = true;
    }
    if (one_ended > 0 && !centre_taken) {
        draw_house(p, p->mid);
        centre_taken = true;
    }
    if (centre_taken)
        taken[ntaken++] = p->mid;
    for (int i = 0; i < t->nparts; i++) {
        if (t->parts[i].kind == CARC_PART_FIELD)
            field_anchor(p, i);
        if (t->parts[i].kind != CARC_PART_CITY || !t->parts[i].pennants)
            continue;
        /* the pennant between the city's anchor (where a knight stands) and its wall */
        pt at = p->anchor[i];
        at = lerp(at, p->mid, -0.35);
        if (!inside_shape(p, at))
            at = lerp(p->anchor[i], p->mid, 0.25);
        draw_pennant(p, (pt){at.x + 0.12, at.y});
    }
    for (int i = 0; i < t->nparts; i++)
        taken[ntaken++] = p->anchor[i];
    if ((t->marks & CARC_MARK_HILL) || hill) {
        pt at = free_spot(p, taken, ntaken);
        draw_hill(p, at);
        taken[ntaken++] = at;
    }
    if (t->marks & CARC_MARK_VINEYARD) {
        pt at = free_spot(p, taken, ntaken);
        draw_vineyard(p, at);
        taken[ntaken++] = at;
    }
    if (t->marks & CARC_MARK_TREE) {
        pt at = free_spot(p, taken, ntaken);
        draw_tree(p, at);
    }
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
    cd_style st = fill_style(col, edge, T * 0.025);
    double s = T * 0.13;
    if (strcmp(kind, "meeple") == 0) {
        figure_path(c, x, y, s, meeple, 18, lying, &st);
    } else if (strcmp(kind, "abbot") == 0) {
        figure_path(c, x, y, s, abbot, 7, false, &st);
        cd_style band = fill_style(0xffffff, edge, T * 0.01);
        c->circle(c, x, y - s * 0.55, s * 0.18, &band);
    } else if (strcmp(kind, "shepherd") == 0) {
        figure_path(c, x, y, s, shepherd, 7, false, &st);
        cd_pcmd staff[3] = {{'M', x + s * 0.85, y + s, 0, 0},
                            {'L', x + s * 0.85, y - s * 1.1, 0, 0},
                            {'Q', x + s * 0.5, y - s * 0.8, x + s * 0.45, y - s * 1.2}};
        cd_style ss = line_style(0x5a3b1a, T * 0.03);
        c->path(c, staff, 3, &ss);
        if (flock >= 0) {
            char n[16];
            snprintf(n, sizeof n, "%d", flock);
            cd_style badge = fill_style(0xffffff, C_INK, T * 0.015);
            c->circle(c, x - s * 1.1, y - s * 0.9, T * 0.09, &badge);
            c->text(c, x - s * 1.1, y - s * 0.9 + T * 0.045, T * 0.12, C_INK, CD_ANCHOR_MIDDLE, 1, n);
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

/* The length of s cut to at most max bytes without splitting a UTF-8 character: the cut moves back over
 * continuation bytes (10xxxxxx), so the text drawn stays UTF-8 (cairo and XML refuse anything else). */
static int utf8_cut(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    return (int)n;
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
    c->text(c, L->margin, top + T * 0.18, T * 0.2, C_INK, CD_ANCHOR_START, 1, line);
    size_t i;
    json_t *pl;
    json_array_foreach(players, i, pl) {
        double y = top + T * (0.5 + LEGEND_ROW * (double)i);
        cd_style chip = fill_style(cd_seat_color((int)i), 0x111111, T * 0.02);
        c->circle(c, L->margin + T * 0.12, y, T * 0.12, &chip);
        const char *name = json_string_value(json_object_get(pl, "name"));
        if (!name)
            name = "";
        char row[200];
        snprintf(row, sizeof row, "%s%.*s  %lld", !finished && (int)i == pseat ? "\xe2\x96\xb6 " : "",
                 utf8_cut(name, 60), name, (long long)json_integer_value(json_object_get(pl, "score")));
        c->text(c, L->margin + T * 0.35, y + T * 0.07, T * 0.2, C_INK, CD_ANCHOR_START, (int)i == pseat, row);
    }
    /* the tile drawn and waiting to be placed (public) */
    const char *tile = json_string_value(json_object_get(pending, "tile"));
    int ti = tile ? carc_catalog_find(cat, tile) : -1;
    const char *kind = json_string_value(json_object_get(pending, "kind"));
    if (ti >= 0 && kind && strcmp(kind, "place") == 0) {
        double s = T * 0.9, x = L->w - L->margin - s, y = top + T * 0.35;
        c->text(c, x + s / 2, y - T * 0.08, T * 0.16, C_INK, CD_ANCHOR_MIDDLE, 0, "to place");
        char attrs[64];
        snprintf(attrs, sizeof attrs, "class=\"drawn\" data-tile=\"%s\"", cat->types[ti].id);
        c->group(c, attrs, NULL);
        piece_ctx p;
        draw_piece(c, &cat->types[ti], x, y, s, 0, false, &p);
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
    cd_style table = fill_style(C_TABLE, C_TABLE, 0);
    cd_pcmd bg[5] = {{'M', 0, 0, 0, 0}, {'L', L.w, 0, 0, 0}, {'L', L.w, L.h, 0, 0}, {'L', 0, L.h, 0, 0}, {'Z', 0, 0, 0, 0}};
    c->path(c, bg, 5, &table);

    /* the grid and the coordinates on the margin */
    double gx = L.margin, gy = L.margin;
    int ncol = L.maxx - L.minx + 1, nrow = L.maxy - L.miny + 1;
    cd_style grid = line_style(C_GRID, 1);
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
    pt(*anchors)[CARC_MAX_PARTS] = calloc(npieces ? npieces : 1, sizeof *anchors);
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
        piece_ctx p;
        double ox = gx + (x - L.minx) * T, oy = gy + (y - L.miny) * T;
        draw_piece(c, &cat->types[ti], ox, oy, T, rot, json_is_true(json_object_get(pc, "hill")), &p);
        for (int k = 0; k < cat->types[ti].nparts; k++)
            anchors[i][k] = to_px(&p, p.anchor[k]);
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

/* ---- the SVG canvas ----------------------------------------------------------------------------------- */
/* Text as XML character data / attribute value: & < > " ' escaped, control characters dropped. */
static void sb_escaped(cd_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': cd_buf_add(b, "&amp;", 5); break;
        case '<': cd_buf_add(b, "&lt;", 4); break;
        case '>': cd_buf_add(b, "&gt;", 4); break;
        case '"': cd_buf_add(b, "&quot;", 6); break;
        case '\'': cd_buf_add(b, "&#39;", 5); break;
        default:
            if ((unsigned char)*s >= 0x20)
                cd_buf_add(b, s, 1);
        }
    }
}

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
    sb_escaped(b, utf8);
    cd_buf_add(b, "</text>\n", 8);
}

static void svg_group(cd_canvas *c, const char *attrs, const char *title)
{
    cd_buf *b = c->impl;
    cd_buf_printf(b, "<g %s>", attrs);
    if (title) {
        cd_buf_add(b, "<title>", 7);
        sb_escaped(b, title);
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
