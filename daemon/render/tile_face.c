/*
 * tile_face.c — one tile's face drawn from its data (see tile_face.h).
 *
 * Local frame of a piece: (0,0) its north-west corner, (1,1) the south-east one, y growing south. A square's
 * sides run clockwise N (0,0)->(1,0), E, S, W; a triangle (right angle at the north-west) has N, D from
 * (1,0) to (0,1) and W. Unit t of a side is the point t/12 of the way along it (FORMAT.md). A piece with
 * rotation r is its local frame turned r quarter turns clockwise about the middle of its space, which is
 * also what a triangle's rotation (the corner of its right angle) means.
 */
#include "tile_face.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define U CARC_SIDE_UNITS
#define PI 3.14159265358979323846

/* ---- the land's colours ------------------------------------------------------------------------------- */
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
#define C_HILL 0xa88a5a
#define C_GRAPE 0x6a2c8a
#define C_TRUNK 0x6b4423
#define C_LEAVES 0x2f6b2a
#define C_FRUIT 0xe0432b
#define C_CROP 0xf1e3a0
#define C_RIVER 0x4f8fd0
#define C_RIVER_EDGE 0x2c5f91

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
    cd_style s = cd_fill_style(C_CITY, C_WALL, p->T * 0.035);
    p->c->path(p->c, pa.c, pa.n, &s);
}

/* A band from the ends of segment part's sides to the tile's middle, as roads and the river run: a curve
 * through the middle when it has two ends, straight spokes to it otherwise. Its ends into ends; how many. */
static int band_path(piece_ctx *p, int part, pt ends[8], path_t *pa)
{
    int n = part_ends(p, part, ends);
    if (n == 2) {
        pmove(pa, p, ends[0]);
        pquad(pa, p, p->mid, ends[1]);
    } else {
        for (int i = 0; i < n; i++) {
            pmove(pa, p, ends[i]);
            pline(pa, p, p->mid);
        }
    }
    return n;
}

static void draw_road(piece_ctx *p, int part)
{
    pt ends[8];
    path_t pa = {.n = 0};
    int n = band_path(p, part, ends, &pa);
    if (n == 2) {   /* the curve in four pieces, for the houses along it */
        p->anchor[part] = lerp(lerp(ends[0], p->mid, 0.5), lerp(p->mid, ends[1], 0.5), 0.5);
        for (int s = 0; s < 4; s++) {
            double t0 = s / 4.0, t1 = (s + 1) / 4.0;
            pt a = lerp(lerp(ends[0], p->mid, t0), lerp(p->mid, ends[1], t0), t0);
            pt b = lerp(lerp(ends[0], p->mid, t1), lerp(p->mid, ends[1], t1), t1);
            if (p->nroad < CARC_MAX_PARTS * 3)
                p->road[p->nroad][0] = a, p->road[p->nroad++][1] = b;
        }
    } else {
        for (int i = 0; i < n; i++)
            if (p->nroad < CARC_MAX_PARTS * 3)
                p->road[p->nroad][0] = ends[i], p->road[p->nroad++][1] = p->mid;
        p->anchor[part] = n ? lerp(ends[0], p->mid, 0.5) : p->mid;
    }
    cd_style edge = cd_line_style(C_ROAD_EDGE, p->T * 0.15), fill = cd_line_style(C_ROAD, p->T * 0.1);
    p->c->path(p->c, pa.c, pa.n, &edge);
    p->c->path(p->c, pa.c, pa.n, &fill);
}

static void dot(piece_ctx *p, pt at, double r, const cd_style *s);

/* The river (option river): drawn as a road is, wider and blue, under everything else; where it has one
 * end on the tile (the spring, the lake) a pond in the middle. No figure stands on it: its anchor is unused. */
static void draw_river(piece_ctx *p, int part)
{
    pt ends[8];
    path_t pa = {.n = 0};
    int n = band_path(p, part, ends, &pa);
    cd_style edge = cd_line_style(C_RIVER_EDGE, p->T * 0.24), fill = cd_line_style(C_RIVER, p->T * 0.19);
    p->c->path(p->c, pa.c, pa.n, &edge);
    p->c->path(p->c, pa.c, pa.n, &fill);
    if (n == 1) {
        cd_style pond = cd_fill_style(C_RIVER, C_RIVER_EDGE, p->T * 0.025);
        dot(p, p->mid, 0.2, &pond);
    }
    p->anchor[part] = p->mid;
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
    cd_style s = cd_fill_style(C_CLOISTER, C_ROOF, p->T * 0.02);
    draw_shape(p, at, 0.12, body, 5, &s);
    static const double cross[] = {-0.15, -0.75, 0.15, -0.75, 0.15, -0.45, 0.45, -0.45, 0.45, -0.15, 0.15, -0.15,
                                   0.15, 0.6,   -0.15, 0.6,   -0.15, -0.15, -0.45, -0.15, -0.45, -0.45, -0.15,
                                   -0.45};
    cd_style w = cd_fill_style(0xfff6e0, 0xfff6e0, 0);
    draw_shape(p, at, 0.1, cross, 12, &w);
}

static void draw_garden(piece_ctx *p, pt at)
{
    cd_style hedge = cd_fill_style(C_GARDEN, 0x244d1a, p->T * 0.02);
    dot(p, at, 0.13, &hedge);
    cd_style flower = cd_fill_style(0xf7d6e0, 0xb23a6a, p->T * 0.01);
    for (int i = 0; i < 5; i++) {
        double a = i * 2 * PI / 5;
        dot_off(p, at, 0.065 * cos(a), 0.065 * sin(a), 0.025, &flower);
    }
}

static void draw_house(piece_ctx *p, pt at)
{
    static const double house[] = {-1, -0.2, 0, -1, 1, -0.2, 1, 0.8, -1, 0.8};
    cd_style s = cd_fill_style(0xe8e0d0, CD_INK, p->T * 0.015);
    draw_shape(p, at, 0.06, house, 5, &s);
}

static void draw_pennant(piece_ctx *p, pt at)
{
    static const double shield[] = {-0.8, -1, 0.8, -1, 0.8, 0.1, 0, 1, -0.8, 0.1};
    cd_style s = cd_fill_style(C_PENNANT, 0xffffff, p->T * 0.015);
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
    cd_style s = cd_fill_style(C_HILL, 0x6e5630, T * 0.02);
    p->c->path(p->c, cmd, 3, &s);
}

static void draw_vineyard(piece_ctx *p, pt at)
{
    cd_style s = cd_fill_style(C_GRAPE, 0x3b1450, p->T * 0.01);
    static const double g[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-0.5, 0}, {0.5, 0}, {0, 1}};
    for (int i = 0; i < 6; i++)
        dot_off(p, at, g[i][0] * 0.06, g[i][1] * 0.06, 0.04, &s);
    cd_style leaf = cd_fill_style(0x4f8f2f, 0x2e5a1b, p->T * 0.01);
    dot_off(p, at, 0.08, -0.12, 0.04, &leaf);
}

static void draw_tree(piece_ctx *p, pt at)
{
    static const double trunk[] = {-0.2, 0, 0.2, 0, 0.2, 1, -0.2, 1};
    cd_style t = cd_fill_style(C_TRUNK, C_TRUNK, 0);
    draw_shape(p, at, 0.13, trunk, 4, &t);
    cd_style leaves = cd_fill_style(C_LEAVES, 0x1d4219, p->T * 0.015);
    dot_off(p, at, 0, -0.04, 0.13, &leaves);
    cd_style fruit = cd_fill_style(C_FRUIT, 0x8c1c0c, p->T * 0.008);
    dot_off(p, at, -0.05, -0.06, 0.028, &fruit);
    dot_off(p, at, 0.06, -0.01, 0.028, &fruit);
    dot_off(p, at, 0.005, -0.12, 0.028, &fruit);
}

static void draw_crop_circle(piece_ctx *p, pt at, int kind)
{
    cd_style ring = cd_fill_style(C_CROP, 0x9c8a3a, p->T * 0.015);
    dot(p, at, 0.15, &ring);
    cd_style inner = cd_line_style(0x9c8a3a, p->T * 0.01);
    dot(p, at, 0.1, &inner);
    cd_style sym = cd_fill_style(0x5b4a14, 0x5b4a14, p->T * 0.01);
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
    cd_style bg = cd_fill_style(C_FIELD, C_FIELD_EDGE, T * 0.02);
    c->path(c, pa.c, pa.n, &bg);

    bool centre_taken = false;
    int one_ended = 0;
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == CARC_PART_RIVER) {
            pt ends[8];
            centre_taken |= part_ends(p, i, ends) == 1;   /* the spring's or the lake's pond */
            draw_river(p, i);
        }
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
    if (one_ended > 0 && !centre_taken && !t->river) {   /* on a river tile a road ends at the bank */
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

void cd_tile_face_draw(cd_canvas *c, const carc_tile_type *t, double ox, double oy, double T, int rot, bool hill,
                       cd_point anchors[CARC_MAX_PARTS])
{
    piece_ctx p;
    draw_piece(c, t, ox, oy, T, rot, hill, &p);
    if (anchors)
        for (int k = 0; k < t->nparts; k++) {
            pt a = to_px(&p, p.anchor[k]);
            anchors[k] = (cd_point){a.x, a.y};
        }
}
