/*
 * notation_write.c — a move's canonical notation (carc_move_notation) and its description for people and bots
 * (carc_move_describe): notation.h. The words and a segment's name are notation_names.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "notation_names.h"
#include "rules.h"

/* ---- writing ------------------------------------------------------------------------------------------- */

static bool part_ok(const carc_state *st, int piece, int part)
{
    return piece < st->npieces && st->pieces[piece].type < st->cat->ntypes &&
           part < st->cat->types[st->pieces[piece].type].nparts;
}

static int put(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* Appends the decimal digits of v at p; returns the end. */
static char *put_int(char *p, int v)
{
    char tmp[8];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    if (v < 0)
        *p++ = '-';
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* "E 0,-1 r2" / "HW04 1,0 ne": built by hand, not by snprintf, because every legal placement of every
 * legal-moves answer is named (the hot path of GET legal-moves). */
static int place_notation(const carc_tile_type *t, const carc_move *m, char *buf, size_t len)
{
    char tmp[CARC_ID_LEN + 24], *p = tmp;
    size_t id = strnlen(t->id, CARC_ID_LEN - 1);
    memcpy(p, t->id, id);
    p += id;
    *p++ = ' ';
    p = put_int(p, m->x);
    *p++ = ',';
    p = put_int(p, m->y);
    *p++ = ' ';
    if (t->shape == CARC_TRIANGLE) {
        memcpy(p, carc_corner_words[m->rot], 2);
        p += 2;
    } else {
        *p++ = 'r';
        *p++ = (char)('0' + m->rot);
    }
    size_t n = (size_t)(p - tmp);
    if (n >= len)
        return -1;
    memcpy(buf, tmp, n);
    buf[n] = 0;
    return (int)n;
}

int carc_move_notation(const carc_state *st, const carc_move *m, char *buf, size_t len)
{
    char seg[CARC_NOTATION_MAX];
    if (len)
        buf[0] = 0;
    switch (m->kind) {
    case CARC_MV_PLACE:
        if (m->tile >= st->cat->ntypes || m->rot > 3)
            return -1;
        return place_notation(&st->cat->types[m->tile], m, buf, len);
    case CARC_MV_FIGURE: {
        int piece = st->pending.piece;
        if (st->pending.kind != CARC_PENDING_FIGURE || m->fig >= CARC_NFIG_KINDS || !part_ok(st, piece, m->part))
            return -1;
        const carc_piece *pc = &st->pieces[piece];
        carc_segment_name(&st->cat->types[pc->type], pc->rot, m->part, seg, sizeof seg);
        size_t at = 0;
        carc_text_cat(buf, len, &at, carc_fig_words[m->fig]);
        carc_text_cat(buf, len, &at, " ");
        carc_text_cat(buf, len, &at, seg);
        return at >= len ? -1 : (int)at;
    }
    case CARC_MV_PASS: return put(buf, len, "pass");
    case CARC_MV_ABBOT_RETURN: return put(buf, len, "return abbot");
    case CARC_MV_DRAW: return put(buf, len, "draw");
    case CARC_MV_HARVEST: {
        int t = carc_tree_of(st, m->piece);
        return t < 0 ? -1 : put(buf, len, "harvest %s", carc_fruit_names[t]);
    }
    case CARC_MV_SELL: {
        if (m->set == 0 || m->set >> CARC_FRUIT_TYPES)
            return -1;
        int n = put(buf, len, "sell");
        for (int t = 0; t < CARC_FRUIT_TYPES && n >= 0; t++)
            if (m->set >> t & 1) {
                int k = put(buf + n, len - (size_t)n, " %s", carc_fruit_names[t]);
                n = k < 0 ? -1 : n + k;
            }
        return n;
    }
    case CARC_MV_GROW: return put(buf, len, "grow");
    case CARC_MV_STABLE: return put(buf, len, "stable");
    case CARC_MV_CC_ADD: return put(buf, len, "add");
    case CARC_MV_CC_REMOVE: return put(buf, len, "remove");
    case CARC_MV_CC_SKIP: return put(buf, len, "skip");
    case CARC_MV_CC_FIGURE: {
        if (!part_ok(st, m->piece, m->part))
            return -1;
        const carc_piece *pc = &st->pieces[m->piece];
        const carc_tile_type *t = &st->cat->types[pc->type];
        carc_segment_name(t, pc->rot, m->part, seg, sizeof seg);
        const char *mode = st->crop.mode ? "remove" : "add";
        if (t->shape == CARC_TRIANGLE)
            return put(buf, len, "%s %d,%d %s %s", mode, pc->x, pc->y, carc_corner_words[pc->rot & 3], seg);
        return put(buf, len, "%s %d,%d %s", mode, pc->x, pc->y, seg);
    }
    case CARC_MV_DRAFT:
        if (m->tile >= st->cat->ntypes)
            return -1;
        return put(buf, len, "draft %s", st->cat->types[m->tile].id);
    default: return -1;
    }
}

/* ---- describing ---------------------------------------------------------------------------------------- */

/* Appends " to the north", " to the east, north half", " on the long side" or nothing (p < 0) to buf. */
static void cat_place_phrase(int p, char *buf, size_t len, size_t *at)
{
    static const char *const half_words[4][2] = {
        {"west", "east"}, {"north", "south"}, {"east", "west"}, {"south", "north"}};
    if (p >= CARC_PLACE_D) {
        carc_text_cat(buf, len, at, " on the long side");
        carc_text_cat(buf, len, at, p == CARC_PLACE_D ? "" : p == CARC_PLACE_D + 1 ? ", north half" : ", south half");
    } else if (p >= 0) {
        carc_text_cat(buf, len, at, " to the ");
        carc_text_cat(buf, len, at, carc_side_words[p / 3]);
        if (p % 3 != 0) {
            carc_text_cat(buf, len, at, ", ");
            carc_text_cat(buf, len, at, half_words[p / 3][p % 3 - 1]);
            carc_text_cat(buf, len, at, " half");
        }
    }
}

/* feature, sides and "the city to the north" (or "the city (c2)") for (piece, part). */
static void describe_segment(const carc_state *st, int piece, int part, carc_move_desc *d, char *what, size_t len)
{
    const carc_piece *pc = &st->pieces[piece];
    const carc_tile_type *t = &st->cat->types[pc->type];
    uint16_t on, touch;
    carc_part_places(t, pc->rot, part, &on, &touch);
    d->figure = true;
    d->feature = t->parts[part].kind;
    d->nsides = 0;
    for (int p = 0; p < CARC_MAX_PLACES; p++)
        if (on >> p & 1) {
            size_t at = 0;
            carc_text_cat(d->sides[d->nsides++], CARC_PLACE_NAME_LEN, &at, carc_place_words[p]);
        }
    int np = carc_naming_place(t, pc->rot, part);
    size_t at = 0;
    what[0] = 0;
    carc_text_cat(what, len, &at, "the ");
    carc_text_cat(what, len, &at, carc_feature_words[d->feature]);
    if (np == -2) {   /* no place names it alone: its name on the piece */
        carc_text_cat(what, len, &at, " (");
        carc_text_cat(what, len, &at, t->parts[part].name);
        carc_text_cat(what, len, &at, ")");
    } else {
        cat_place_phrase(np, what, len, &at);
    }
}

void carc_move_describe(const carc_state *st, const carc_move *m, carc_move_desc *d)
{
    char what[64];
    memset(d, 0, sizeof *d);
    switch (m->kind) {
    case CARC_MV_FIGURE: {
        int piece = st->pending.piece;
        if (st->pending.kind != CARC_PENDING_FIGURE || m->fig >= CARC_NFIG_KINDS || !part_ok(st, piece, m->part))
            return;
        describe_segment(st, piece, m->part, d, what, sizeof what);
        size_t at = 0;
        carc_text_cat(d->label, sizeof d->label, &at, carc_fig_words[m->fig]);
        carc_text_cat(d->label, sizeof d->label, &at, " on ");
        carc_text_cat(d->label, sizeof d->label, &at, what);
        return;
    }
    case CARC_MV_ABBOT_RETURN: {
        int f = carc_figure_find(st, st->pending.seat, CARC_FIG_ABBOT);
        if (f < 0 || !part_ok(st, st->figures[f].piece, st->figures[f].part))
            return;
        const carc_figure *g = &st->figures[f];
        describe_segment(st, g->piece, g->part, d, what, sizeof what);
        snprintf(d->label, sizeof d->label, "abbot back from %s at %d,%d", what, st->pieces[g->piece].x,
                 st->pieces[g->piece].y);
        return;
    }
    case CARC_MV_CC_FIGURE: {
        if (!part_ok(st, m->piece, m->part))
            return;
        describe_segment(st, m->piece, m->part, d, what, sizeof what);
        const carc_piece *pc = &st->pieces[m->piece];
        char corner[4] = "";
        if (st->cat->types[pc->type].shape == CARC_TRIANGLE)
            snprintf(corner, sizeof corner, "%s", carc_corner_words[pc->rot & 3]);
        snprintf(d->label, sizeof d->label, "%s %s at %d,%d%s%s",
                 st->crop.mode ? "remove your meeple from" : "add a meeple to", what, pc->x, pc->y,
                 corner[0] ? " " : "", corner);
        return;
    }
    default: return;
    }
}
