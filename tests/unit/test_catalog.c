/*
 * test_catalog.c — the tile catalog: the built-in sets load with the compositions of tiles-reference.md,
 * the geometry of the tricky tiles is what the data format promises, and every malformed text is refused
 * with a message naming file, line and tile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tileset.h"

static const carc_tile_type *type_of(const carc_catalog *cat, const char *id)
{
    int i = carc_catalog_find(cat, id);
    ck_assert_msg(i >= 0, "no tile %s", id);
    return &cat->types[i];
}

static int part_of(const carc_tile_type *t, const char *name)
{
    int i = carc_part_find(t, name);
    ck_assert_msg(i >= 0, "tile %s has no part %s", t->id, name);
    return i;
}

/* Asserts side `s` of `t` is exactly the listed segments: triples lo, hi, part name. */
static void expect_side(const carc_tile_type *t, int s, int type, int nseg, const int *lohi, const char **parts)
{
    const carc_side *sd = &t->side[s];
    ck_assert_int_eq(sd->type, type);
    ck_assert_int_eq(sd->nseg, nseg);
    for (int i = 0; i < nseg; i++) {
        ck_assert_int_eq(sd->seg[i].lo, lohi[2 * i]);
        ck_assert_int_eq(sd->seg[i].hi, lohi[2 * i + 1]);
        ck_assert_int_eq(sd->seg[i].part, part_of(t, parts[i]));
    }
}

/* ---- the built-in catalog ------------------------------------------------------------------------------ */

typedef struct {
    int tiles, pennants, cloisters, triangles, types;
} set_totals;

static set_totals totals(const carc_catalog *cat, int set)
{
    set_totals s = {0};
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (t->set != set || t->when >= 0)
            continue;
        s.types++;
        s.tiles += t->count;
        s.triangles += t->shape == CARC_TRIANGLE ? t->count : 0;
        for (int p = 0; p < t->nparts; p++) {
            s.pennants += t->parts[p].pennants * t->count;
            s.cloisters += t->parts[p].kind == CARC_PART_CLOISTER ? t->count : 0;
        }
    }
    return s;
}

START_TEST(builtin_loads)
{
    carc_catalog *cat = malloc(sizeof *cat);
    char err[256] = "";
    ck_assert_ptr_nonnull(cat);
    ck_assert_msg(carc_catalog_load(cat, err, sizeof err) == 0, "%s", err);
    /* 24 + 8 gardens, 16 + 1 garden, 6, 6, 12, the river's 10 */
    ck_assert_int_eq(cat->ntypes, 32 + 17 + 6 + 6 + 12 + 10);
    /* loading again starts from an empty catalog */
    ck_assert_int_eq(carc_catalog_load(cat, err, sizeof err), 0);
    ck_assert_int_eq(cat->ntypes, 83);
    free(cat);
}
END_TEST

START_TEST(set_counts)
{
    const carc_catalog *cat = tu_catalog();
    set_totals b = totals(cat, CARC_SET_BASE);
    ck_assert_int_eq(b.tiles, 72);
    ck_assert_int_eq(b.types, 24);
    ck_assert_int_eq(b.pennants, 10);
    ck_assert_int_eq(b.cloisters, 6);
    ck_assert_int_eq(totals(cat, CARC_SET_HILLS_SHEEP).tiles, 18);
    ck_assert_int_eq(totals(cat, CARC_SET_CROP_CIRCLES).tiles, 6);
    ck_assert_int_eq(totals(cat, CARC_SET_FRUIT_TREES).tiles, 6);
    set_totals hw = totals(cat, CARC_SET_HALFLINGS);
    ck_assert_int_eq(hw.tiles, 12);
    ck_assert_int_eq(hw.triangles, 12);
    ck_assert_int_eq(totals(cat, CARC_SET_BASE).triangles + totals(cat, CARC_SET_HILLS_SHEEP).triangles, 0);
}
END_TEST

START_TEST(start_tile)
{
    const carc_catalog *cat = tu_catalog();
    int starts = 0, plain = 0;
    for (int i = 0; i < cat->ntypes; i++) {
        starts += cat->types[i].start;
        plain += cat->types[i].start && cat->types[i].when < 0;
    }
    ck_assert_int_eq(starts, 2);   /* D, and the river's spring when the option river is on */
    ck_assert_int_eq(plain, 1);
    const carc_tile_type *d = type_of(cat, "D");
    ck_assert_int_eq(d->start, 1);
    ck_assert_int_eq(d->count, 4);
    ck_assert_int_eq(d->set, CARC_SET_BASE);
}
END_TEST

/* Every field side and road side of every tile is covered with nothing left over (a wall aside). */
START_TEST(every_side_covered)
{
    const carc_catalog *cat = tu_catalog();
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        for (int s = 0; s < CARC_NSIDES; s++) {
            const carc_side *sd = &t->side[s];
            bool tri_side = s == CARC_N || s == CARC_W || s == CARC_D;
            bool present = t->shape == CARC_SQUARE ? s != CARC_D : tri_side;
            ck_assert_int_eq(sd->type != CARC_SIDE_NONE, present);
            int covered = 0;
            for (int k = 0; k < sd->nseg; k++) {
                ck_assert_int_lt(sd->seg[k].lo, sd->seg[k].hi);
                ck_assert(k == 0 || sd->seg[k - 1].hi <= sd->seg[k].lo);
                ck_assert_int_lt(sd->seg[k].part, t->nparts);
                covered += sd->seg[k].hi - sd->seg[k].lo;
            }
            bool wall = strcmp(t->id, "HS01") == 0 && s == CARC_S;
            ck_assert_int_eq(covered, present ? CARC_SIDE_UNITS - (wall ? 2 : 0) : 0);
        }
    }
}
END_TEST

START_TEST(geometry_d)
{
    const carc_tile_type *d = type_of(tu_catalog(), "D");
    const int lohi[] = {0, 5, 5, 7, 7, 12};
    expect_side(d, CARC_E, CARC_SIDE_ROAD, 3, lohi, (const char *[]){"f1", "r1", "f2"});
    expect_side(d, CARC_W, CARC_SIDE_ROAD, 3, lohi, (const char *[]){"f2", "r1", "f1"});
    expect_side(d, CARC_N, CARC_SIDE_CITY, 1, (const int[]){0, 12}, (const char *[]){"c1"});
    expect_side(d, CARC_S, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f2"});
    int c1 = part_of(d, "c1"), f1 = part_of(d, "f1"), f2 = part_of(d, "f2"), r1 = part_of(d, "r1");
    ck_assert_int_eq(d->parts[f1].touches, 1u << c1);
    ck_assert_int_eq(d->parts[f2].touches, 0);
    ck_assert_int_eq(d->parts[f1].nsegs, 2);
    ck_assert_int_eq(d->parts[f2].nsegs, 3);
    ck_assert_int_eq(d->parts[r1].nsegs, 2);
    ck_assert_int_eq(d->parts[c1].nsegs, 1);
    ck_assert_int_eq(d->parts[r1].kind, CARC_PART_ROAD);
    ck_assert_int_eq(d->nparts, 4);
}
END_TEST

START_TEST(geometry_u)
{
    const carc_tile_type *u = type_of(tu_catalog(), "U");
    /* N runs west->east, S east->west: the west field is first on N and last on S */
    const int lohi[] = {0, 5, 5, 7, 7, 12};
    expect_side(u, CARC_N, CARC_SIDE_ROAD, 3, lohi, (const char *[]){"f1", "r1", "f2"});
    expect_side(u, CARC_S, CARC_SIDE_ROAD, 3, lohi, (const char *[]){"f2", "r1", "f1"});
    expect_side(u, CARC_W, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f1"});
    expect_side(u, CARC_E, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f2"});
}
END_TEST

START_TEST(geometry_pennants_and_cloisters)
{
    const carc_catalog *cat = tu_catalog();
    const carc_tile_type *c = type_of(cat, "C"), *a = type_of(cat, "A");
    ck_assert_int_eq(c->parts[part_of(c, "c1")].pennants, 1);
    ck_assert_int_eq(c->parts[part_of(c, "c1")].nsegs, 4);
    ck_assert_int_eq(a->parts[part_of(a, "cl")].kind, CARC_PART_CLOISTER);
    ck_assert_int_eq(a->parts[part_of(a, "cl")].nsegs, 0);
    ck_assert_int_eq(a->parts[part_of(a, "r1")].nsegs, 1);
    /* the field of A meets S on both sides of the road */
    expect_side(a, CARC_S, CARC_SIDE_ROAD, 3, (const int[]){0, 5, 5, 7, 7, 12},
                (const char *[]){"f1", "r1", "f1"});
}
END_TEST

START_TEST(geometry_hs01_split_field)
{
    const carc_tile_type *t = type_of(tu_catalog(), "HS01");
    /* f2 = {En,Es,Se} on [0,5), the wall [5,7), f1 = {Sw,Ws,Wn} on [7,12) */
    expect_side(t, CARC_S, CARC_SIDE_FIELD, 2, (const int[]){0, 5, 7, 12}, (const char *[]){"f2", "f1"});
    expect_side(t, CARC_E, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f2"});
    expect_side(t, CARC_W, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f1"});
    int c1 = part_of(t, "c1");
    ck_assert_int_eq(t->parts[part_of(t, "f1")].touches, 1u << c1);
    ck_assert_int_eq(t->parts[part_of(t, "f2")].touches, 1u << c1);
    ck_assert(t->marks & CARC_MARK_VINEYARD);
    ck_assert_int_eq(t->count, 2);
}
END_TEST

START_TEST(geometry_hs02_split_city)
{
    const carc_tile_type *t = type_of(tu_catalog(), "HS02");
    expect_side(t, CARC_N, CARC_SIDE_CITY, 2, (const int[]){0, 7, 7, 12}, (const char *[]){"c1", "c2"});
    expect_side(t, CARC_W, CARC_SIDE_CITY, 1, (const int[]){0, 12}, (const char *[]){"c1"});
    expect_side(t, CARC_E, CARC_SIDE_CITY, 1, (const int[]){0, 12}, (const char *[]){"c2"});
    int c1 = part_of(t, "c1"), c2 = part_of(t, "c2");
    ck_assert_int_eq(t->parts[c1].nsegs, 2);
    ck_assert_int_eq(t->parts[part_of(t, "f1")].touches, (1u << c1) | (1u << c2));
}
END_TEST

START_TEST(geometry_triangles)
{
    const carc_catalog *cat = tu_catalog();
    const carc_tile_type *t = type_of(cat, "HW05");
    ck_assert_int_eq(t->shape, CARC_TRIANGLE);
    ck_assert_int_eq(t->side[CARC_E].type, CARC_SIDE_NONE);
    ck_assert_int_eq(t->side[CARC_S].type, CARC_SIDE_NONE);
    /* D runs from the NE corner (Dn) to the SW corner (Ds) */
    expect_side(t, CARC_D, CARC_SIDE_ROAD, 3, (const int[]){0, 5, 5, 7, 7, 12},
                (const char *[]){"f2", "r1", "f1"});
    expect_side(t, CARC_N, CARC_SIDE_ROAD, 3, (const int[]){0, 5, 5, 7, 7, 12},
                (const char *[]){"f1", "r1", "f2"});
    expect_side(t, CARC_W, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f1"});

    const carc_tile_type *h = type_of(cat, "HW06");
    expect_side(h, CARC_D, CARC_SIDE_ROAD, 3, (const int[]){0, 5, 5, 7, 7, 12},
                (const char *[]){"f1", "r1", "f2"});
    expect_side(h, CARC_W, CARC_SIDE_ROAD, 3, (const int[]){0, 5, 5, 7, 7, 12},
                (const char *[]){"f2", "r1", "f1"});

    const carc_tile_type *p = type_of(cat, "HW02");
    ck_assert_int_eq(p->parts[part_of(p, "c1")].pennants, 1);
    expect_side(p, CARC_D, CARC_SIDE_FIELD, 1, (const int[]){0, 12}, (const char *[]){"f1"});
    ck_assert_int_eq(type_of(cat, "HW12")->cc, CARC_CC_CLUB);
    ck_assert(type_of(cat, "HW09")->marks & CARC_MARK_HILL);
}
END_TEST

START_TEST(marks)
{
    const carc_catalog *cat = tu_catalog();
    ck_assert_int_eq(type_of(cat, "CC03")->cc, CARC_CC_RAKE);
    ck_assert(type_of(cat, "CC03")->marks & CARC_MARK_CC);
    ck_assert_int_eq(type_of(cat, "CC05")->cc, CARC_CC_SHIELD);
    ck_assert_int_eq(type_of(cat, "CC01")->cc, CARC_CC_CLUB);
    ck_assert_int_eq(type_of(cat, "FT03")->marks, CARC_MARK_TREE);
    ck_assert_int_eq(type_of(cat, "HS03")->marks, CARC_MARK_HILL);
    ck_assert_int_eq(type_of(cat, "D")->marks, 0);
    ck_assert_int_eq(type_of(cat, "D")->cc, CARC_CC_NONE);
    const carc_tile_type *cc6 = type_of(cat, "CC06");
    expect_side(cc6, CARC_N, CARC_SIDE_CITY, 1, (const int[]){0, 12}, (const char *[]){"c1"});
    expect_side(cc6, CARC_S, CARC_SIDE_CITY, 1, (const int[]){0, 12}, (const char *[]){"c2"});
}
END_TEST

START_TEST(garden_variants)
{
    const carc_catalog *cat = tu_catalog();
    const char *with[] = {"E", "H", "I", "M", "N", "R", "U", "V", "HS14"};
    int gardens = 0;
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        bool has = false;
        for (int p = 0; p < t->nparts; p++)
            has |= t->parts[p].kind == CARC_PART_GARDEN;
        if (t->set == CARC_SET_RIVER)   /* the option river's own set, no variants */
            continue;
        ck_assert_int_eq(has, t->when >= 0);   /* a garden exists only as an option's variant */
        if (t->when < 0) {
            ck_assert_int_eq(t->replaces, CARC_NO_TYPE);
            continue;
        }
        ck_assert_int_eq(t->when, CARC_OPT_ABBOT);
        ck_assert_int_eq(t->count, 1);
        gardens++;
    }
    ck_assert_int_eq(gardens, 9);
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++) {
        char id[CARC_ID_LEN];
        snprintf(id, sizeof id, "%sg", with[i]);
        const carc_tile_type *g = type_of(cat, id), *b = type_of(cat, with[i]);
        ck_assert_int_eq(g->replaces, carc_catalog_find(cat, with[i]));
        ck_assert_int_eq(g->set, b->set);
        ck_assert_int_eq(g->nparts, b->nparts + 1);
        ck_assert_mem_eq(g->side, b->side, sizeof g->side);
        ck_assert_int_eq(g->marks, b->marks);
        ck_assert_int_eq(g->parts[part_of(g, "g")].nsegs, 0);
    }
    ck_assert(type_of(cat, "HS14g")->marks & CARC_MARK_HILL);
}
END_TEST

/* The river (engine/tiles/river.tiles): 12 tiles of the option river, the spring starting instead of D. */
START_TEST(river_set)
{
    const carc_catalog *cat = tu_catalog();
    int tiles = 0, types = 0, springs = 0, lakes = 0, curves = 0, cloisters = 0;
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (t->set != CARC_SET_RIVER) {
            ck_assert_int_eq(t->river, 0);   /* no other set carries the river */
            continue;
        }
        ck_assert_int_eq(t->when, CARC_OPT_RIVER);
        ck_assert_int_eq(t->shape, CARC_SQUARE);
        types++;
        tiles += t->count;
        int sides = __builtin_popcount(t->river);
        ck_assert(sides == 1 || sides == 2);
        springs += sides == 1 && t->start;
        lakes += sides == 1 && !t->start;
        /* a curve: two river sides next to each other */
        curves += sides == 2 && t->river != (1u << CARC_N | 1u << CARC_S) && t->river != (1u << CARC_E | 1u << CARC_W)
                      ? t->count : 0;
        for (int p = 0; p < t->nparts; p++)
            cloisters += t->parts[p].kind == CARC_PART_CLOISTER;
        for (int s = 0; s < 4; s++)
            if (t->river >> s & 1) {   /* fields on both banks, the river between them on [5,7) */
                const carc_side *sd = &t->side[s];
                ck_assert_int_eq(sd->type, CARC_SIDE_RIVER);
                ck_assert_int_eq(sd->nseg, 3);
                ck_assert_int_eq(t->parts[sd->seg[1].part].kind, CARC_PART_RIVER);
                ck_assert_int_eq(sd->seg[1].lo, CARC_ROAD_LO);
                ck_assert_int_eq(sd->seg[1].hi, CARC_ROAD_HI);
                ck_assert_int_eq(t->parts[sd->seg[0].part].kind, CARC_PART_FIELD);
                ck_assert_int_eq(t->parts[sd->seg[2].part].kind, CARC_PART_FIELD);
            }
    }
    ck_assert_int_eq(tiles, 12);
    ck_assert_int_eq(types, 10);
    ck_assert_int_eq(springs, 1);
    ck_assert_int_eq(lakes, 1);
    ck_assert_int_eq(curves, 4);
    ck_assert_int_eq(cloisters, 1);
    const carc_tile_type *spring = type_of(cat, "RV01"), *lake = type_of(cat, "RV10");
    ck_assert_int_eq(spring->replaces, carc_catalog_find(cat, "D"));   /* the spring takes D's start copy */
    /* the field goes round the spring and the lake: one field on both sides of the river's end */
    ck_assert_int_eq(spring->nparts, 2);
    ck_assert_int_eq(lake->nparts, 2);
    ck_assert_int_eq(spring->parts[part_of(spring, "f1")].nsegs, 5);   /* N, both halves of E, S, W */
    /* the bridge: four fields, none under the road or the river */
    const carc_tile_type *bridge = type_of(cat, "RV05");
    int fields = 0;
    for (int p = 0; p < bridge->nparts; p++)
        fields += bridge->parts[p].kind == CARC_PART_FIELD;
    ck_assert_int_eq(fields, 4);
}
END_TEST

START_TEST(find)
{
    const carc_catalog *cat = tu_catalog();
    ck_assert_int_eq(carc_catalog_find(cat, "HS99"), -1);
    ck_assert_int_eq(carc_catalog_find(cat, ""), -1);
    ck_assert_int_eq(carc_catalog_find(cat, "Dxxxxxxxxxx"), -1);
    ck_assert_int_eq(carc_catalog_find(cat, NULL), -1);
    ck_assert_int_eq(carc_part_find(type_of(cat, "D"), "f9"), -1);
    ck_assert_int_eq(carc_part_find(type_of(cat, "D"), NULL), -1);
}
END_TEST

/* ---- parsing ------------------------------------------------------------------------------------------- */

static int parse(carc_catalog *cat, const char *text, char *err, size_t errlen)
{
    return carc_catalog_parse(cat, text, strlen(text), "t.tiles", err, errlen);
}

START_TEST(parse_minimal)
{
    carc_catalog cat = {0};
    char err[256] = "";
    /* no trailing newline, tabs, CRLF, comments with bytes that are not ASCII */
    const char *text = "# d\xc3\xa9j\xc3\xa0 vu\r\nset base 3\r\n"
                       "tile Z 2 start\n\tsides C R F R # x\n  city c1 N\n  road r1 W E\n"
                       "  field f1 Wn En > c1\n  field f2 Es S Ws\n"
                       "tri T1 1\n  sides C F F\n  field f1 D W > c1\n  city c1 N";
    ck_assert_msg(parse(&cat, text, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(cat.ntypes, 2);
    const carc_tile_type *t = &cat.types[1];
    ck_assert_int_eq(t->parts[0].touches, 1u << 1);   /* a field may name a city written after it */
    ck_assert_int_eq(t->shape, CARC_TRIANGLE);
}
END_TEST

START_TEST(parse_merges_halves)
{
    carc_catalog cat = {0};
    char err[256] = "";
    const char *text = "set fruit_trees 1\ntile Y 1\n sides F F F F\n field f1 Nw Ne E Se Sw W@0-6 W@6-12\n";
    ck_assert_msg(parse(&cat, text, err, sizeof err) == 0, "%s", err);
    for (int s = 0; s < 4; s++) {
        ck_assert_int_eq(cat.types[0].side[s].nseg, 1);
        ck_assert_int_eq(cat.types[0].side[s].seg[0].hi, CARC_SIDE_UNITS);
    }
    ck_assert_int_eq(cat.types[0].parts[0].nsegs, 4);
}
END_TEST

START_TEST(parse_nul_in_comment)
{
    carc_catalog cat = {0};
    char err[256] = "";
    const char text[] = "set base 0 # a\0b\n";
    ck_assert_msg(carc_catalog_parse(&cat, text, sizeof text - 1, "n", err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(parse_respects_len)
{
    carc_catalog cat = {0};
    char err[256] = "";
    /* the line after `len` would make the text invalid */
    const char *text = "set base 0\nbogus\n";
    ck_assert_int_eq(carc_catalog_parse(&cat, text, 11, "n", err, sizeof err), 0);
    ck_assert_int_eq(carc_catalog_parse(&cat, text, 0, "n", err, sizeof err), CARC_E_DATA);
    ck_assert_ptr_nonnull(strstr(err, "no set line"));
    /* no error buffer at all is fine too */
    ck_assert_int_eq(carc_catalog_parse(&cat, text, strlen(text), "n", NULL, 0), CARC_E_DATA);
    ck_assert_int_eq(carc_catalog_parse(NULL, text, strlen(text), "n", err, sizeof err), CARC_E_INVALID);
}
END_TEST

/* Every prefix of every built-in file: parsed or refused, never a crash (the sanitizer build checks). */
START_TEST(parse_prefixes)
{
    carc_catalog *cat = malloc(sizeof *cat);
    char err[64];
    ck_assert_ptr_nonnull(cat);
    for (int i = 0; i < carc_builtin_nsets; i++) {
        const carc_builtin_set *b = &carc_builtin_sets[i];
        for (size_t n = 0; n <= b->len; n += 3) {
            cat->ntypes = 0;
            err[0] = '\0';
            int rc = carc_catalog_parse(cat, b->text, n, b->name, err, sizeof err);
            ck_assert(rc == 0 || rc == CARC_E_DATA);
            ck_assert(rc == 0 || cat->ntypes == 0);
            ck_assert_int_le(strlen(err), sizeof err - 1);
        }
    }
    free(cat);
}
END_TEST

/* Each bad text is refused, names the file, its line and (inside a tile) the tile, and adds no types. */
typedef struct {
    const char *text;
    const char *want;   /* a piece of the message */
} bad_case;

#define HEAD "set base 1\n"
#define E_TILE "tile E 1\n sides C F F F\n city c1 N\n"
static const bad_case bad[] = {
    {"", "no set line"},
    {"tile E 1\n", "t.tiles:1: tile before the set line"},
    {"set base\n", "set needs a name and a total"},
    {"set nope 1\n", "unknown set 'nope'"},
    {"set base x1\n", "set total 'x1' is not a number"},
    {"set base 99999\n", "is more than"},
    {"set base 1\nset base 1\n", "t.tiles:2: a second set line"},
    {"set base 2\n" E_TILE " field f1 E S W > c1\n", "t.tiles:1: set base: the tiles add up to 1, the set line says 2"},
    {HEAD "frobnicate\n", "t.tiles:2: unknown keyword 'frobnicate'"},
    {HEAD "city c1 N\n", "city outside a tile"},
    {HEAD "sides F F F F\n", "sides outside a tile"},
    {HEAD "mark hill\n", "mark outside a tile"},
    {HEAD "tile E\n", "tile needs an id and a count"},
    {HEAD "tile E 0\n", "count must be at least 1"},
    {HEAD "tile E 200\n", "count '200' is more than"},
    {HEAD "tile TOOLONGID 1\n", "tile id 'TOOLONGID' is not 1 to 7 characters long"},
    {HEAD "tile E-1 1\n", "may hold only letters"},
    {HEAD "tile E 1 sideways\n", "t.tiles:2: tile E: unknown tile option 'sideways'"},
    {HEAD "tile E 1 like\n", "like needs a value"},
    {HEAD "tile E 1 like Q\n", "like Q names no earlier tile"},
    {HEAD "tile E 1 when nope\n", "when names no option: 'nope'"},
    {HEAD "tile E 1 when hill_tiebreak\n", "when needs an on/off option"},
    {HEAD "tile E 1 when abbot when abbot\n", "when given twice"},
    {HEAD "tile E 1 start start\n", "start given twice"},
    {HEAD E_TILE " field f1 E S W > c1\ntile F 1 start when abbot\n sides F F F F\n field f1 N E S W\n"
          "tile G 1 start when abbot\n", "a second start tile (F is one)"},
    {"set river 1\n", "set river is no expansion: it needs when <option>"},
    {"set river 1 when\n", "set needs a name and a total, then perhaps when <option>"},
    {"set river 1 when hill_tiebreak\n", "when needs an on/off option"},
    {"set river 1 when river\ntile R 1 when abbot\n", "the tiles of set river exist only when river"},
    {HEAD "tile R 1\n sides V V V F\n river v1 N E S\n field f1 Nw Ne En Es Se Sw W\n",
     "more than 2 river sides: the river does not fork"},
    {HEAD "tile R 1\n sides V F V F\n river v1 Nw S\n field f1 Ne E Se Sw W\n",
     "a river lies on [5,7) of side N, not [0,5)"},
    {HEAD "tile R 1\n sides V F V F\n river v1 N S E\n", "a river segment cannot lie on field side E"},
    {HEAD "tile R 1\n sides V F V F\n river v1 N\n field f1 Nw Ne E S@0-12 W\n", "river side S has no river"},
    {HEAD "tile R 1\n sides V F V F\n river v1 N S\n field f1 N E Se Sw W\n",
     "a field on river side N takes a half"},
    {HEAD "tri T 1\n sides V F F\n river v1 N\n field f1 Nw Ne D W\n", "a triangle cannot carry the river"},
    {HEAD "tri E 1 start\n", "a triangle cannot be the start tile"},
    {HEAD E_TILE " field f1 E S W > c1\ntile E 1\n", "t.tiles:6: tile E: duplicate tile id"},
    {"set base 2\n" E_TILE " field f1 E S W > c1\ntile F 1 start\n sides F F F F\n field f1 N E S W\n"
     "tile G 1 replaces F\n",
     "replaces needs when"},
    {"set base 1\n" E_TILE " field f1 E S W > c1\ntile Eg 2 when abbot replaces E like E\n",
     "variants replace 2 copies of E, it has 1"},
    {"set base 1\n" E_TILE " field f1 E S W > c1\ntri T 1 like E\n", "like E is not the same shape"},
    {HEAD "tile E 1\n city c1 N\n", "place 'N' before the sides line"},
    {HEAD "tile E 1\n", "t.tiles:2: tile E: no sides line"},
    {HEAD "tile E 1\n sides C F F\n", "a tile has 4 sides: N E S W"},
    {HEAD "tri E 1\n sides C F F F\n", "a triangle has 3 sides: N D W"},
    {HEAD "tile E 1\n sides C F F X\n", "side type 'X' is not C, R, F or V"},
    {HEAD E_TILE " sides C F F F\n", "sides given twice"},
    {"set base 1\n" E_TILE " field f1 E S W > c1\ntile Eg 1 when abbot replaces E like E\n sides C F F F\n",
     "sides given twice"},
    {HEAD E_TILE " field f1 E S > c1\n", "t.tiles:2: tile E: side W: [0,12) is covered by no segment"},
    {HEAD E_TILE " field f1 E S Ws > c1\n", "side W: [6,12) is covered by no segment"},
    {HEAD E_TILE " field f1 E S W W > c1\n", "side W: [0,12) of f1 overlaps [0,12) of f1"},
    {HEAD E_TILE " field f1 E S W > c1\n field f2 Ws\n", "overlaps"},
    {HEAD E_TILE " field f1 E S W > c2\n", "t.tiles:5: tile E: field f1: c2 is not a city of this tile"},
    {HEAD E_TILE " field f1 E S W > f1\n", "f1 is not a city"},
    {HEAD E_TILE " field f1 E S W >\n", "'>' names no city"},
    {HEAD E_TILE " field f1 > c1\n", "field f1 has no place on a side"},
    {HEAD E_TILE " field c1 E S W\n", "duplicate part name c1"},
    {HEAD E_TILE " road r1 E\n", "a road segment cannot lie on field side E"},
    {HEAD E_TILE " city c2 E\n", "a city segment cannot lie on field side E"},
    {HEAD "tile E 1\n sides C F F F\n field f1 N E S W\n", "a field segment cannot lie on city side N"},
    {HEAD E_TILE " field f1 E S W > c1\n garden g extra\n", "garden takes only a name"},
    {HEAD E_TILE " field f1 E S W > c1\n cloister\n", "cloister needs a name"},
    {HEAD E_TILE " field f1 Q > c1\n", "place 'Q' does not start with a side letter"},
    {HEAD E_TILE " field f1 Ex > c1\n", "unknown place 'Ex'"},
    {HEAD E_TILE " field f1 D > c1\n", "a tile has no side D"},
    {HEAD "tri T 1\n sides C F F\n city c1 N\n field f1 E > c1\n", "a triangle has no side E"},
    {HEAD E_TILE " field f1 E@0-13 > c1\n", "place 'E@0-13' is not X@a-b"},
    {HEAD E_TILE " field f1 E@6-6 > c1\n", "is not X@a-b"},
    {HEAD E_TILE " field f1 E@1-\n", "is not X@a-b"},
    {HEAD E_TILE " field f1 E@001-5\n", "is not X@a-b"},
    {HEAD "tile U 1\n sides R F R F\n road r1 N S\n field f1 N W Sw\n", "a field on road side N takes a half"},
    {HEAD "tile U 1\n sides R F R F\n road r1 Nw S\n", "a road lies on [5,7) of side N, not [0,5)"},
    {HEAD "tile U 1\n sides R F R F\n road r1 N@4-7 S\n", "a road lies on [5,7)"},
    {HEAD "tile U 1\n sides R F R F\n field f1 Nw Ne W Sw Se E\n", "side N: [5,7) is covered by no segment"},
    {HEAD "tile U 1\n sides R F R F\n field f1 N@0-12 W S@0-12 E\n", "road side N has no road"},
    {HEAD E_TILE " field f1 E S@0-5 W > c1\n field f2 S@4-12\n", "side S: [4,12) of f2 overlaps [0,5) of f1"},
    {HEAD E_TILE " field f1 E S@0-1 S@2-3 S@4-5 S@6-7 S@8-9 W > c1\n", "side S: more than 4 segments"},
    {HEAD E_TILE " field f1 E S W pennant\n", "place 'pennant' does not start with a side letter"},
    {HEAD E_TILE " mark fog\n", "mark is hill, vineyard, tree or cc"},
    {HEAD E_TILE " mark cc spoon\n", "mark is hill"},
    {HEAD E_TILE " mark cc club\n mark cc rake\n", "a second crop circle"},
    {HEAD E_TILE " field f1 E S W > c1\x01\n", "t.tiles:5: tile E: invalid byte 0x01"},
    {HEAD E_TILE " field f1 E S W > c\xc3\xa9\n", "invalid byte 0xc3"},
    {HEAD E_TILE " field f1 E S W > c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1"
                 " c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1 c1"
                 " c1 c1 c1 c1 c1 c1 c1 c1 c1\n",
     "more than 64 tokens on one line"},
    {HEAD "tile E 1\n sides F F F F\n field f1 N E S W\n garden a\n garden b\n garden c\n garden d\n garden e\n"
          " garden f\n garden g\n garden h\n garden i\n garden j\n garden k\n garden l\n",
     "more than 12 parts"},
};

START_TEST(bad_texts)
{
    carc_catalog *cat = malloc(sizeof *cat);
    ck_assert_ptr_nonnull(cat);
    cat->ntypes = 0;
    char err[256];
    const bad_case *c = &bad[_i];
    err[0] = '\0';
    ck_assert_int_eq(parse(cat, c->text, err, sizeof err), CARC_E_DATA);
    ck_assert_msg(strstr(err, c->want) != NULL, "case %d: got \"%s\", want \"%s\"", _i, err, c->want);
    ck_assert_msg(strncmp(err, "t.tiles:", 8) == 0, "case %d: \"%s\" names no file", _i, err);
    ck_assert_int_eq(cat->ntypes, 0);
    free(cat);
}
END_TEST

START_TEST(bad_keeps_catalog)
{
    carc_catalog *cat = malloc(sizeof *cat);
    char err[256];
    ck_assert_ptr_nonnull(cat);
    ck_assert_int_eq(carc_catalog_load(cat, err, sizeof err), 0);
    int n = cat->ntypes;
    /* a set already loaded is refused whole: none of its types are added */
    ck_assert_int_eq(parse(cat, HEAD E_TILE, err, sizeof err), CARC_E_DATA);
    ck_assert_ptr_nonnull(strstr(err, "set base is already in the catalog"));
    ck_assert_int_eq(cat->ntypes, n);
    /* ids are unique across sets, and there is one start tile in a catalog */
    cat->ntypes = 0;
    ck_assert_int_eq(parse(cat, "set base 1\ntile Z 1 start\n sides F F F F\n field f1 N E S W\n", err, sizeof err),
                     0);
    ck_assert_int_eq(parse(cat, "set fruit_trees 1\ntile Z 1\n sides F F F F\n field f1 N E S W\n", err,
                           sizeof err),
                     CARC_E_DATA);
    ck_assert_ptr_nonnull(strstr(err, "tile Z: duplicate tile id"));
    ck_assert_int_eq(parse(cat, "set fruit_trees 1\ntile Y 1 start\n", err, sizeof err), CARC_E_DATA);
    ck_assert_ptr_nonnull(strstr(err, "a second start tile (Z is one)"));
    ck_assert_int_eq(cat->ntypes, 1);
    free(cat);
}
END_TEST

START_TEST(errors_fit_the_buffer)
{
    carc_catalog cat = {0};
    char err[12];
    memset(err, 'x', sizeof err);
    ck_assert_int_eq(parse(&cat, "set nope 1\n", err, sizeof err), CARC_E_DATA);
    ck_assert_int_eq(strlen(err), sizeof err - 1);
    ck_assert_int_eq(parse(&cat, "set nope 1\n", err, 0), CARC_E_DATA);
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("builtin");
    tcase_add_test(tc, builtin_loads);
    tcase_add_test(tc, set_counts);
    tcase_add_test(tc, start_tile);
    tcase_add_test(tc, every_side_covered);
    tcase_add_test(tc, geometry_d);
    tcase_add_test(tc, geometry_u);
    tcase_add_test(tc, geometry_pennants_and_cloisters);
    tcase_add_test(tc, geometry_hs01_split_field);
    tcase_add_test(tc, geometry_hs02_split_city);
    tcase_add_test(tc, geometry_triangles);
    tcase_add_test(tc, marks);
    tcase_add_test(tc, garden_variants);
    tcase_add_test(tc, river_set);
    tcase_add_test(tc, find);
    suite_add_tcase(s, tc);

    TCase *tp = tcase_create("parse");
    tcase_add_test(tp, parse_minimal);
    tcase_add_test(tp, parse_merges_halves);
    tcase_add_test(tp, parse_nul_in_comment);
    tcase_add_test(tp, parse_respects_len);
    tcase_add_test(tp, parse_prefixes);
    tcase_add_loop_test(tp, bad_texts, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tp, bad_keeps_catalog);
    tcase_add_test(tp, errors_fit_the_buffer);
    suite_add_tcase(s, tp);
    return s;
}

int main(void)
{
    return tu_run(catalog_suite());
}
