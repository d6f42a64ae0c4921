/*
 * catalog_json.c — the tile catalog as JSON, for clients (the daemon's GET /v1/tiles).
 *
 * Everything is read from the compiled catalog (carc_catalog_load's types) and the engine's own rotation
 * rule (carc_side_dir), never restated by hand, so the answer cannot drift from what the engine plays:
 * part names are the ones figure moves carry, places are derived back from the segments' intervals.
 */
#include <stdio.h>

#include "board.h"   /* carc_side_dir: the rotation rule the engine plays by */
#include "json_priv.h"

#define HALF_SIDE (CARC_SIDE_UNITS / 2)

static const char side_letter[CARC_NSIDES] = {'N', 'E', 'S', 'W', 'D'};
/* Suffix of a side's first and second half, in the side's clockwise direction (as in catalog.c). */
static const char first_half[CARC_NSIDES] = {'w', 'n', 'e', 's', 'n'};
static const char second_half[CARC_NSIDES] = {'e', 's', 'w', 'n', 's'};
static const char *const side_type_names[] = {"none", "field", "road", "city", "river"};
static const char *const cc_names[] = {"none", "club", "rake", "shield"};
static const char *const shape_names[] = {"square", "triangle"};
_Static_assert(CARC_SIDE_RIVER == 4 && CARC_CC_SHIELD == 3 && CARC_TRIANGLE == 1, "name tables follow carc.h");

static const char *side_name(int s)
{
    static const char *const names[CARC_NSIDES] = {"N", "E", "S", "W", "D"};
    return names[s];
}

static bool on_shape(int shape, int s)
{
    return shape == CARC_SQUARE ? s != CARC_D : (s == CARC_N || s == CARC_W || s == CARC_D);
}

/* The interval of a whole side, a first half and a second half, on a side of this type (FORMAT.md); a river
 * side is cut as a road side is. */
static void standard_intervals(int type, int lo[3], int hi[3])
{
    bool road = type == CARC_SIDE_ROAD || type == CARC_SIDE_RIVER;
    lo[0] = road ? CARC_ROAD_LO : 0, hi[0] = road ? CARC_ROAD_HI : CARC_SIDE_UNITS;
    lo[1] = 0, hi[1] = road ? CARC_ROAD_LO : HALF_SIDE;
    lo[2] = road ? CARC_ROAD_HI : HALF_SIDE, hi[2] = CARC_SIDE_UNITS;
}

/* The data format's name of [lo,hi) on side s: "N", "Nw", "Ne", or the exact "N@a-b". */
static void place_name(int s, int type, int lo, int hi, char out[12])
{
    int slo[3], shi[3];
    standard_intervals(type, slo, shi);
    if (lo == slo[0] && hi == shi[0])
        snprintf(out, 12, "%c", side_letter[s]);
    else if (lo == slo[1] && hi == shi[1])
        snprintf(out, 12, "%c%c", side_letter[s], first_half[s]);
    else if (lo == slo[2] && hi == shi[2])
        snprintf(out, 12, "%c%c", side_letter[s], second_half[s]);
    else
        snprintf(out, 12, "%c@%d-%d", side_letter[s], lo, hi);
}

static json_t *interval(int lo, int hi)
{
    json_t *a = carc_jb_arr();
    carc_jb_push(a, carc_jb_int(lo));
    carc_jb_push(a, carc_jb_int(hi));
    return a;
}

/* Whether every segment of the side lies on a standard place (whole side or a half). */
static bool side_is_standard(const carc_side *sd)
{
    int lo[3], hi[3];
    standard_intervals(sd->type, lo, hi);
    for (int i = 0; i < sd->nseg; i++) {
        bool std = false;
        for (int k = 0; k < 3; k++)
            std = std || (sd->seg[i].lo == lo[k] && sd->seg[i].hi == hi[k]);
        if (!std)
            return false;
    }
    return true;
}

/* ---- one tile ---------------------------------------------------------------------------------------- */

static json_t *segment_json(const carc_tile_type *t, int part)
{
    const carc_part *pt = &t->parts[part];
    json_t *o = carc_jb_obj(), *sides = carc_jb_arr(), *places = carc_jb_arr(), *ivs = carc_jb_arr();
    carc_jb_set_str(o, "part", pt->name);
    carc_jb_set_str(o, "feature", carc_j_feature_names[pt->kind]);
    for (int s = 0; s < CARC_NSIDES; s++) {
        const carc_side *sd = &t->side[s];
        bool touched = false;
        for (int i = 0; i < sd->nseg; i++) {
            if (sd->seg[i].part != part)
                continue;
            char name[12];
            place_name(s, sd->type, sd->seg[i].lo, sd->seg[i].hi, name);
            carc_jb_push(places, carc_jb_str(name));
            json_t *iv = carc_jb_obj();
            carc_jb_set_str(iv, "side", side_name(s));
            carc_jb_set_int(iv, "from", sd->seg[i].lo);
            carc_jb_set_int(iv, "to", sd->seg[i].hi);
            carc_jb_push(ivs, iv);
            touched = true;
        }
        if (touched)
            carc_jb_push(sides, carc_jb_str(side_name(s)));
    }
    carc_jb_set(o, "sides", sides);
    carc_jb_set(o, "places", places);
    carc_jb_set(o, "intervals", ivs);
    if (pt->kind == CARC_PART_CITY)
        carc_jb_set_int(o, "pennant", pt->pennants);
    if (pt->kind == CARC_PART_FIELD) {
        json_t *cities = carc_jb_arr();
        for (int c = 0; c < t->nparts; c++)
            if (pt->touches >> c & 1)
                carc_jb_push(cities, carc_jb_str(t->parts[c].name));
        carc_jb_set(o, "cities", cities);
    }
    return o;
}

static json_t *specials_json(const carc_tile_type *t)
{
    json_t *o = carc_jb_obj();
    carc_jb_set(o, "hill", json_boolean(t->marks & CARC_MARK_HILL));
    carc_jb_set(o, "vineyard", json_boolean(t->marks & CARC_MARK_VINEYARD));
    carc_jb_set(o, "fruit_tree", json_boolean(t->marks & CARC_MARK_TREE));
    if ((t->marks & CARC_MARK_CC) && t->cc <= CARC_CC_SHIELD)
        carc_jb_set_str(o, "crop_circle", cc_names[t->cc]);
    return o;
}

static json_t *tile_json(const carc_catalog *cat, const carc_tile_type *t)
{
    json_t *o = carc_jb_obj(), *sides = carc_jb_obj(), *segs = carc_jb_arr();
    carc_jb_set_str(o, "id", t->id);
    carc_jb_set_str(o, "set", t->set < CARC_NSETS_ALL ? carc_set_names[t->set] : "?");
    carc_jb_set_str(o, "shape", shape_names[t->shape == CARC_TRIANGLE]);
    carc_jb_set_int(o, "count", t->count);
    carc_jb_set(o, "start", json_boolean(t->start));
    if (t->when >= 0 && t->when < CARC_NOPTS)
        carc_jb_set_str(o, "when", carc_opt_table[t->when].name);
    if (t->replaces != CARC_NO_TYPE)
        carc_jb_set_str(o, "replaces", carc_jb_tile_id(cat, t->replaces));
    for (int s = 0; s < CARC_NSIDES; s++)
        if (on_shape(t->shape, s) && t->side[s].type != CARC_SIDE_NONE)
            carc_jb_set_str(sides, side_name(s), side_type_names[t->side[s].type]);
    carc_jb_set(o, "sides", sides);
    for (int i = 0; i < t->nparts; i++)
        carc_jb_push(segs, segment_json(t, i));
    carc_jb_set(o, "segments", segs);
    carc_jb_set(o, "specials", specials_json(t));
    return o;
}

/* ---- the conventions ------------------------------------------------------------------------------------ */

/* For each rot 0..3, the board side each local side of a shape lies on, from the engine's own rule. */
static json_t *turn_table(int shape)
{
    carc_tile_type probe = {.shape = (uint8_t)shape};
    json_t *a = carc_jb_arr();
    for (int rot = 0; rot < 4; rot++) {
        json_t *o = carc_jb_obj();
        for (int s = 0; s < CARC_NSIDES; s++) {
            int d = on_shape(shape, s) ? carc_side_dir(&probe, rot, s) : -1;
            if (d >= 0)
                carc_jb_set_str(o, side_name(s), side_name(d));
        }
        carc_jb_push(a, o);
    }
    return a;
}

/* Every standard place name with its interval on a city or field side and on a road side. */
static json_t *places_json(void)
{
    json_t *o = carc_jb_obj();
    int lo[3], hi[3], rlo[3], rhi[3];
    standard_intervals(CARC_SIDE_FIELD, lo, hi);
    standard_intervals(CARC_SIDE_ROAD, rlo, rhi);
    for (int s = 0; s < CARC_NSIDES; s++)
        for (int k = 0; k < 3; k++) {
            char name[4] = {side_letter[s], k == 1 ? first_half[s] : k == 2 ? second_half[s] : '\0', '\0'};
            json_t *p = carc_jb_obj();
            carc_jb_set_str(p, "side", side_name(s));
            carc_jb_set(p, "interval", interval(lo[k], hi[k]));
            carc_jb_set(p, "road_side_interval", interval(rlo[k], rhi[k]));
            carc_jb_set(o, name, p);
        }
    return o;
}

/* The sides whose segments are not whole sides or halves (Hills & Sheep's split sides), from the data. */
static json_t *split_sides_json(const carc_catalog *cat)
{
    json_t *a = carc_jb_arr();
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        for (int s = 0; s < CARC_NSIDES; s++) {
            const carc_side *sd = &t->side[s];
            if (sd->type == CARC_SIDE_NONE || side_is_standard(sd))
                continue;
            json_t *o = carc_jb_obj(), *segs = carc_jb_arr();
            carc_jb_set_str(o, "tile", t->id);
            carc_jb_set_str(o, "side", side_name(s));
            for (int k = 0; k < sd->nseg; k++) {
                json_t *g = carc_jb_obj();
                carc_jb_set_str(g, "part", t->parts[sd->seg[k].part].name);
                carc_jb_set(g, "interval", interval(sd->seg[k].lo, sd->seg[k].hi));
                carc_jb_push(segs, g);
            }
            carc_jb_set(o, "segments", segs);
            carc_jb_push(a, o);
        }
    }
    return a;
}

static json_t *conventions_json(const carc_catalog *cat)
{
    json_t *o = carc_jb_obj();
    carc_jb_set_str(o, "axes", "x grows eastwards, y grows southwards (N is y-1); the start tile lies at (0,0) "
                               "with rot 0");
    carc_jb_set_str(o, "rotation", "a square tile's rot is the number of clockwise quarter turns (0..3) from the "
                                   "orientation described here: local side N lies on board side N, E, S, W for "
                                   "rot 0, 1, 2, 3, and each side moves on the same way (N -> E -> S -> W)");
    carc_jb_set(o, "side_after_rot", turn_table(CARC_SQUARE));
    carc_jb_set_str(o, "triangle_rotation", "triangles are described with the right angle at the NW corner (short "
                                            "sides N and W, long side D); a triangle's rot names the corner of its "
                                            "right angle: 0 NW, 1 NE, 2 SE, 3 SW");
    carc_jb_set(o, "triangle_side_after_rot", turn_table(CARC_TRIANGLE));
    carc_jb_set_int(o, "side_units", CARC_SIDE_UNITS);
    carc_jb_set_str(o, "units", "each side is cut into side_units units running clockwise round the piece: N west "
                                "to east, E north to south, S east to west, W south to north, a triangle's D from "
                                "its NE to its SW corner; unit t of a side meets unit side_units-t of the side "
                                "facing it, and two segments join when their intervals overlap");
    carc_jb_set_str(o, "place_names", "a place names a side and an interval [from,to) of it: the side letter alone "
                                      "is the whole side (on a road side, for the road: [5,7)); the letter with "
                                      "the compass point it starts from is its first half (Nw En Se Ws Dn), with "
                                      "the point it ends at its second half (Ne Es Sw Wn Ds), stopping at the "
                                      "road on a road side (and at the river on a river side, which is cut as a "
                                      "road side is); X@a-b is exactly [a,b) of side X");
    carc_jb_set_str(o, "river", "a river side (option river) carries the river on [5,7) and fields on either "
                                "side of it; it matches only a river side, so a tile goes against the river's "
                                "open end only when it is a river tile continuing it; no figure stands on the "
                                "river and it never scores");
    carc_jb_set(o, "places", places_json());
    carc_jb_set(o, "split_sides", split_sides_json(cat));
    carc_jb_set_str(o, "parts", "a segment's part is the name figure moves carry (\"part\": \"c1\"); parts are "
                                "named on the tile, so they do not change with rot");
    return o;
}

/* ---- the catalog --------------------------------------------------------------------------------------- */

json_t *carc_catalog_json(const carc_catalog *cat)
{
    json_t *o = carc_jb_obj(), *sets = carc_jb_arr(), *tiles = carc_jb_arr();
    carc_jb_set(o, "conventions", conventions_json(cat));
    for (int s = 0; s < CARC_NSETS_ALL; s++) {
        int total = 0, start = -1, when = -1;
        bool present = false;
        for (int i = 0; i < cat->ntypes; i++) {
            const carc_tile_type *t = &cat->types[i];
            if (t->set != s)
                continue;
            if (!present && s >= CARC_NSETS)   /* an option's set: its every tile names the option */
                when = t->when;
            present = true;
            total += t->when == when ? t->count : 0;   /* option variants replace copies (FORMAT.md) */
            if (t->start)
                start = i;
        }
        if (!present)
            continue;
        json_t *e = carc_jb_obj();
        carc_jb_set_str(e, "name", carc_set_names[s]);
        carc_jb_set_int(e, "tiles", total);
        if (when >= 0 && when < CARC_NOPTS)
            carc_jb_set_str(e, "when", carc_opt_table[when].name);
        if (start >= 0)
            carc_jb_set_str(e, "start", cat->types[start].id);
        carc_jb_push(sets, e);
    }
    carc_jb_set(o, "sets", sets);
    for (int i = 0; i < cat->ntypes; i++)
        carc_jb_push(tiles, tile_json(cat, &cat->types[i]));
    carc_jb_set(o, "tiles", tiles);
    return o;
}
