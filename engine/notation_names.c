/*
 * notation_names.c — the words of the notation (notation.h) and a segment's name on its piece, shared by the
 * writer (notation_write.c) and the reader (notation_read.c).
 *
 * Segments are named by board-absolute places. A place is a whole side (N E S W, and D, a triangle's long
 * side) or a half-edge: the half of a side met first going clockwise round the piece (Nw En Se Ws) or second
 * (Ne Es Sw Wn); a long side runs between a northern and a southern corner at every rotation, so its halves
 * are Dn and Ds. A segment "touches" a place when its interval on the side overlaps it (parsing), and "lies
 * on" the places that hold most of it (the `sides` of a description): on the split sides of Hills & Sheep a
 * city over [0,7) lies on Nw while still touching Ne. The canonical name of a segment is its feature and the
 * first place it lies on that no other segment of that feature on the tile touches (whole sides before
 * half-edges), so parsing the canonical name finds exactly that segment; a segment with no such place (none
 * in the data) falls back to its part name from the tile file.
 */
#include "board.h"
#include "notation_names.h"

const char *const carc_place_words[CARC_MAX_PLACES] = {"N", "Nw", "Ne", "E",  "En", "Es", "S", "Se",
                                                       "Sw", "W", "Ws", "Wn", "D", "Dn", "Ds"};
const char *const carc_feature_words[CARC_NPART_KINDS] = {"city", "road", "field", "cloister", "garden", "river"};
const char *const carc_fig_words[CARC_NFIG_KINDS] = {"meeple", "abbot", "shepherd"};
const char *const carc_corner_words[4] = {"nw", "ne", "se", "sw"};
const char *const carc_side_words[4] = {"north", "east", "south", "west"};
_Static_assert(CARC_NPART_KINDS == 6 && CARC_NFIG_KINDS == 3, "the name tables follow carc.h");

const char *carc_feature_name(int kind)
{
    return kind >= 0 && kind < CARC_NPART_KINDS ? carc_feature_words[kind] : "?";
}

const char *carc_place_name(int place)
{
    return place >= 0 && place < CARC_MAX_PLACES ? carc_place_words[place] : "?";
}

/* ---- where a segment lies ----------------------------------------------------------------------------- */

static int overlap(int lo, int hi, int a, int b)
{
    int l = lo > a ? lo : a, h = hi < b ? hi : b;
    return h > l ? h - l : 0;
}

/* Bits of the places a part of type t at rot lies on (*on) and touches (*touch). */
void carc_part_places(const carc_tile_type *t, int rot, int part, uint16_t *on, uint16_t *touch)
{
    *on = *touch = 0;
    int nsides = t->shape == CARC_SQUARE ? 4 : CARC_NSIDES;
    for (int s = 0; s < nsides; s++) {
        const carc_side *sd = &t->side[s];
        if (sd->type == CARC_SIDE_NONE)
            continue;
        int base;
        bool flip = false;
        if (s == CARC_D) {
            base = CARC_PLACE_D;
            flip = !(rot == 0 || rot == 3);   /* the local first half starts at the NE corner, turned */
        } else {
            int dir = carc_side_dir(t, rot, s);
            if (dir < 0)
                continue;
            base = 3 * dir;
        }
        bool road = sd->type == CARC_SIDE_ROAD || sd->type == CARC_SIDE_RIVER;   /* cut alike (FORMAT.md) */
        int h1 = road ? CARC_ROAD_LO : CARC_SIDE_UNITS / 2, h2 = road ? CARC_ROAD_HI : CARC_SIDE_UNITS / 2;
        int first = base + 1 + flip, second = base + 2 - flip;
        for (int k = 0; k < sd->nseg; k++) {
            const carc_seg *g = &sd->seg[k];
            if (g->part != part)
                continue;
            int ov1 = overlap(g->lo, g->hi, 0, h1), ov2 = overlap(g->lo, g->hi, h2, CARC_SIDE_UNITS);
            *touch |= (uint16_t)(1u << base | (ov1 ? 1u << first : 0) | (ov2 ? 1u << second : 0));
            if (t->parts[part].kind == CARC_PART_ROAD || t->parts[part].kind == CARC_PART_RIVER) {
                /* a road (the river) meets a side in its middle */
                *on |= (uint16_t)(1u << base);
                continue;
            }
            bool a = ov1 * 2 > h1, b = ov2 * 2 > CARC_SIDE_UNITS - h2;
            if (!a && !b) {
                a = ov1 > 0 && ov1 >= ov2;
                b = ov2 > 0 && ov2 >= ov1;
            }
            if (a && b)
                *on |= (uint16_t)(1u << base);
            else if (a || b)
                *on |= (uint16_t)(1u << (a ? first : second));
        }
    }
}

/* The place that names part `part` of t at rot (its first place no other part of its feature touches), or
 * -1 when it needs none (the only one of its feature, with no places), or -2 when only the part name can
 * name it. */
int carc_naming_place(const carc_tile_type *t, int rot, int part)
{
    uint16_t on, touch, others = 0;
    int same = 0;
    carc_part_places(t, rot, part, &on, &touch);
    for (int i = 0; i < t->nparts; i++)
        if (i != part && t->parts[i].kind == t->parts[part].kind) {
            uint16_t o, tt;
            carc_part_places(t, rot, i, &o, &tt);
            others |= tt;
            same++;
        }
    if (same == 0)
        return -1;
    for (int halves = 0; halves < 2; halves++)   /* a whole side reads better than a half-edge */
        for (int p = 0; p < CARC_MAX_PLACES; p++)
            if ((p % 3 != 0) == halves && (on >> p & 1) && !(others >> p & 1))
                return p;
    return -2;
}

/* "city N", "cloister", "c1": the segment's name on its piece. */
int carc_segment_name(const carc_tile_type *t, int rot, int part, char *buf, size_t len)
{
    int p = carc_naming_place(t, rot, part);
    size_t at = 0;
    if (len)
        buf[0] = 0;
    if (p == -2) {
        carc_text_cat(buf, len, &at, t->parts[part].name);
    } else {
        carc_text_cat(buf, len, &at, carc_feature_words[t->parts[part].kind]);
        if (p >= 0) {
            carc_text_cat(buf, len, &at, " ");
            carc_text_cat(buf, len, &at, carc_place_words[p]);
        }
    }
    return (int)at;
}

/* ---- the state ---------------------------------------------------------------------------------------- */

int carc_tree_of(const carc_state *st, int piece)
{
    for (int t = 0; t < st->fruit.ntrees && t < CARC_FRUIT_TYPES; t++)
        if (st->fruit.tree_piece[t] == piece)
            return t;
    return -1;
}
