/*
 * notation_read.c — a notation read back into a move (carc_notation_parse, notation.h): the text split into
 * words, the words matched against the pending decision's legal moves, and a message naming the fault for
 * anything that is not exactly one of them.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation_names.h"
#include "rules.h"

#define MAX_TOKENS 12

/* Returns from the calling function when a step fails. */
#define TRY(expr)                                                                                      \
    do {                                                                                               \
        int rc_ = (expr);                                                                              \
        if (rc_)                                                                                       \
            return rc_;                                                                                \
    } while (0)

/* ---- reading ------------------------------------------------------------------------------------------- */

typedef struct {
    const carc_state *st;
    char msg[256];                 /* the last failure's message */
    char buf[CARC_NOTATION_INPUT_MAX + 1];
    char *tok[MAX_TOKENS];
    int ntok;
    carc_moves legal;
} reader;

static int fail(reader *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return code;
}

/* Index of `word` in names[0..n) ignoring case, or -1. */
static int find_word(const char *word, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(word, names[i]) == 0)
            return i;
    return -1;
}

static int find_tile(const carc_catalog *cat, const char *word)
{
    for (int i = 0; i < cat->ntypes; i++)
        if (strcasecmp(word, cat->types[i].id) == 0)
            return i;
    return -1;
}

static bool is_int(const char *s, long *v)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (!*p || strlen(p) > 6)
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    *v = strtol(s, NULL, 10);
    return *v >= INT16_MIN && *v <= INT16_MAX;
}

/* Splits the text into tokens: letters, digits, '-', '+' and '_'; spaces, commas and brackets separate. */
static int lex(reader *r, const char *text, size_t len)
{
    if (len > CARC_NOTATION_INPUT_MAX)
        return fail(r, CARC_E_INVALID, "notation: too long (%zu bytes, at most %d)", len, CARC_NOTATION_INPUT_MAX);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f)
            return fail(r, CARC_E_INVALID, "notation: control character 0x%02x at offset %zu", c, i);
        if (c > 0x7f || !(isalnum(c) || strchr(" ,()-+_", c)))
            return fail(r, CARC_E_INVALID,
                        "notation: character 0x%02x at offset %zu is not allowed (letters, digits, spaces, commas, "
                        "brackets, '-', '+' and '_' only)",
                        c, i);
        r->buf[i] = strchr(" ,()", c) ? 0 : (char)c;
    }
    r->buf[len] = 0;
    r->ntok = 0;
    for (size_t i = 0; i < len; i++)
        if (r->buf[i] && (i == 0 || !r->buf[i - 1])) {
            if (r->ntok == MAX_TOKENS)
                return fail(r, CARC_E_INVALID, "notation: more than %d words", MAX_TOKENS);
            r->tok[r->ntok++] = &r->buf[i];
        }
    if (r->ntok == 0)
        return fail(r, CARC_E_INVALID, "notation: empty");
    return 0;
}

/* What the pending decision is, in words, and whether it takes moves of `kind`. */
static const char *decision_words(int pending)
{
    static const char *const w[CARC_NPENDING] = {
        [CARC_PENDING_NONE] = "nothing",
        [CARC_PENDING_PLACE] = "a tile placement",
        [CARC_PENDING_FIGURE] = "a figure or pass",
        [CARC_PENDING_DRAW_OR_TRIANGLE] = "draw or a triangle",
        [CARC_PENDING_FRUIT] = "harvest, sell or pass",
        [CARC_PENDING_FLOCK] = "grow or stable",
        [CARC_PENDING_CC_CHOICE] = "the crop circle choice (add or remove)",
        [CARC_PENDING_CC_ACTION] = "a crop circle action",
        [CARC_PENDING_DRAFT] = "a draft pick",
    };
    return pending >= 0 && pending < CARC_NPENDING ? w[pending] : "?";
}

static bool decision_takes(int pending, int kind)
{
    switch (pending) {
    case CARC_PENDING_PLACE: return kind == CARC_MV_PLACE;
    case CARC_PENDING_FIGURE: return kind == CARC_MV_PASS || kind == CARC_MV_FIGURE || kind == CARC_MV_ABBOT_RETURN;
    case CARC_PENDING_DRAW_OR_TRIANGLE: return kind == CARC_MV_DRAW || kind == CARC_MV_PLACE;
    case CARC_PENDING_FRUIT: return kind == CARC_MV_PASS || kind == CARC_MV_HARVEST || kind == CARC_MV_SELL;
    case CARC_PENDING_FLOCK: return kind == CARC_MV_GROW || kind == CARC_MV_STABLE;
    case CARC_PENDING_CC_CHOICE: return kind == CARC_MV_CC_ADD || kind == CARC_MV_CC_REMOVE;
    case CARC_PENDING_CC_ACTION: return kind == CARC_MV_CC_SKIP || kind == CARC_MV_CC_FIGURE;
    case CARC_PENDING_DRAFT: return kind == CARC_MV_DRAFT;
    default: return false;
    }
}

static const char *const kind_words[CARC_NMOVE_KINDS] = {
    [CARC_MV_PLACE] = "a placement",      [CARC_MV_FIGURE] = "a figure move", [CARC_MV_PASS] = "a pass",
    [CARC_MV_ABBOT_RETURN] = "the abbot's return", [CARC_MV_DRAW] = "a draw", [CARC_MV_HARVEST] = "a harvest",
    [CARC_MV_SELL] = "a sale",            [CARC_MV_GROW] = "a flock move",    [CARC_MV_STABLE] = "a flock move",
    [CARC_MV_CC_ADD] = "a crop circle choice", [CARC_MV_CC_REMOVE] = "a crop circle choice",
    [CARC_MV_CC_FIGURE] = "a crop circle action", [CARC_MV_CC_SKIP] = "a crop circle skip",
    [CARC_MV_DRAFT] = "a draft pick",
};

/* The one legal move equal to *m, or an error. */
static int take_legal(reader *r, const carc_move *m, carc_move *out, const char *what)
{
    for (size_t i = 0; i < r->legal.n; i++)
        if (carc_move_equal(&r->legal.v[i], m)) {
            *out = r->legal.v[i];
            return 0;
        }
    return fail(r, CARC_E_ILLEGAL, "%s is not a legal move now", what);
}

/* Tokens from `from` on name one segment of piece `piece`: [feature] place... | part-name. *part = it. */
static int read_segment(reader *r, int from, int piece, int *part)
{
    const carc_state *st = r->st;
    const carc_piece *pc = &st->pieces[piece];
    const carc_tile_type *t = &st->cat->types[pc->type];
    int feature = -1;
    uint16_t want = 0;
    if (from >= r->ntok)
        return fail(r, CARC_E_INVALID, "notation: name the segment: a feature (city, road, field, cloister, garden) "
                                        "and a side like N or a half-edge like Nw");
    int named = -1;
    for (int i = 0; i < t->nparts; i++)
        if (strcasecmp(r->tok[from], t->parts[i].name) == 0)
            named = i;
    if (from + 1 == r->ntok && named >= 0 && find_word(r->tok[from], carc_place_words, CARC_MAX_PLACES) < 0 &&
        find_word(r->tok[from], carc_feature_words, CARC_NPART_KINDS) < 0) {
        *part = named;
        return 0;
    }
    int i = from;
    feature = find_word(r->tok[i], carc_feature_words, CARC_NPART_KINDS);
    if (feature < 0)
        return fail(r, CARC_E_INVALID, "notation: \"%s\" is no feature (city, road, field, cloister, garden)",
                    r->tok[i]);
    for (i++; i < r->ntok; i++) {
        int p = find_word(r->tok[i], carc_place_words, CARC_MAX_PLACES);
        if (p < 0)
            return fail(r, CARC_E_INVALID, "notation: \"%s\" is no side (N E S W D) or half-edge (Nw Ne En Es Se Sw "
                                            "Ws Wn Dn Ds)", r->tok[i]);
        want |= (uint16_t)(1u << p);
    }
    int n = 0, found = -1, nkind = 0;
    char have[96] = "", names[96] = "";
    for (int k = 0; k < t->nparts; k++) {
        if (t->parts[k].kind != feature)
            continue;
        uint16_t on, touch;
        carc_part_places(t, pc->rot, k, &on, &touch);
        size_t hl = strlen(have);
        snprintf(have + hl, sizeof have - hl, "%s", nkind ? " |" : "");
        for (int p = 0; p < CARC_MAX_PLACES; p++)
            if (on >> p & 1) {
                hl = strlen(have);
                snprintf(have + hl, sizeof have - hl, " %s", carc_place_words[p]);
            }
        nkind++;
        if ((touch & want) == want) {
            char seg[CARC_NOTATION_MAX];
            carc_segment_name(t, pc->rot, k, seg, sizeof seg);
            size_t nl = strlen(names);
            snprintf(names + nl, sizeof names - nl, "%s\"%s\"", n ? ", " : "", seg);
            found = k;
            n++;
        }
    }
    char where[48] = "";
    for (int p = 0; p < CARC_MAX_PLACES; p++)
        if (want >> p & 1) {
            size_t wl = strlen(where);
            snprintf(where + wl, sizeof where - wl, " %s", carc_place_words[p]);
        }
    if (nkind == 0)
        return fail(r, CARC_E_ILLEGAL, "tile %s at %d,%d has no %s", t->id, pc->x, pc->y, carc_feature_words[feature]);
    if (n == 0)
        return fail(r, CARC_E_ILLEGAL, "no %s of tile %s at %d,%d touches%s (its %s:%s)", carc_feature_words[feature],
                    t->id, pc->x, pc->y, where, carc_feature_words[feature], have);
    if (n > 1)
        return fail(r, CARC_E_INVALID, "notation: %d segments match \"%s%s\"; say which: %s", n,
                    carc_feature_words[feature], where, names);
    *part = found;
    return 0;
}

/* Two tokens from `i` as x, y. Both are written on every path, a failure's too (0, 0): the compiler cannot
 * see that fail() never returns 0, and callers' x, y would otherwise look unset to it. */
static int read_xy(reader *r, int i, int *x, int *y)
{
    long a, b;
    *x = *y = 0; /* set on failure too: -O3 cannot see that fail() returns non-zero, and -Werror stops it */
    if (i + 1 >= r->ntok || !is_int(r->tok[i], &a) || !is_int(r->tok[i + 1], &b))
        return fail(r, CARC_E_INVALID, "notation: expected a position x,y like 0,-1");
    *x = (int)a;
    *y = (int)b;
    return 0;
}

/* Why no legal placement matched, as precisely as the state tells. */
static int place_refused(reader *r, int tile, int x, int y, int rot)
{
    const carc_catalog *cat = r->st->cat;
    char rots[32] = "";
    for (size_t i = 0; i < r->legal.n; i++) {
        const carc_move *m = &r->legal.v[i];
        if (m->kind == CARC_MV_PLACE && (tile < 0 || m->tile == tile) && m->x == x && m->y == y) {
            size_t l = strlen(rots);
            if (cat->types[m->tile].shape == CARC_TRIANGLE)
                snprintf(rots + l, sizeof rots - l, " %s", carc_corner_words[m->rot]);
            else
                snprintf(rots + l, sizeof rots - l, " r%d", m->rot);
        }
    }
    const char *id = tile >= 0 ? cat->types[tile].id : "the tile";
    if (!rots[0])
        return fail(r, CARC_E_ILLEGAL, "%s does not fit at %d,%d", id, x, y);
    (void)rot;
    return fail(r, CARC_E_ILLEGAL, "%s does not fit at %d,%d that way; it fits there as:%s", id, x, y, rots);
}

static int read_place(reader *r, carc_move *out)
{
    const carc_state *st = r->st;
    int i = 0, tile = -1, x, y, rot = -1;
    long v;
    if (!is_int(r->tok[0], &v)) {
        tile = find_tile(st->cat, r->tok[0]);
        i = 1;
    }
    TRY(read_xy(r, i, &x, &y));
    i += 2;
    if (i < r->ntok) {
        const char *w = r->tok[i];
        int c = find_word(w, carc_corner_words, 4);
        if (c >= 0)
            rot = c;
        else if ((w[0] == 'r' || w[0] == 'R') && w[1] >= '0' && w[1] <= '3' && !w[2])
            rot = w[1] - '0';
        else if (w[0] >= '0' && w[0] <= '3' && !w[1])
            rot = w[0] - '0';
        else
            return fail(r, CARC_E_INVALID, "notation: \"%s\" is no rotation (r0..r3) or corner (nw ne se sw)", w);
        int shown = tile >= 0 ? tile : st->pending.kind == CARC_PENDING_PLACE ? st->pending.tile : -1;
        if (c >= 0 && shown >= 0 && st->cat->types[shown].shape != CARC_TRIANGLE)
            return fail(r, CARC_E_INVALID, "notation: %s is a square tile: give its rotation r0..r3",
                        st->cat->types[shown].id);
        i++;
    }
    if (i < r->ntok)
        return fail(r, CARC_E_INVALID, "notation: unexpected \"%s\" after the placement", r->tok[i]);
    if (st->pending.kind == CARC_PENDING_PLACE && tile >= 0 && tile != st->pending.tile)
        return fail(r, CARC_E_ILLEGAL, "the tile to place is %s, not %s", st->cat->types[st->pending.tile].id,
                    st->cat->types[tile].id);
    int n = 0;
    for (size_t k = 0; k < r->legal.n; k++) {
        const carc_move *m = &r->legal.v[k];
        if (m->kind == CARC_MV_PLACE && (tile < 0 || m->tile == tile) && m->x == x && m->y == y &&
            (rot < 0 || m->rot == rot)) {
            if (n++ == 0)
                *out = *m;
        }
    }
    if (n == 1)
        return 0;
    if (n > 1)
        return fail(r, CARC_E_INVALID, "notation: %d placements match; add the %s", n,
                    tile < 0 && st->pending.kind != CARC_PENDING_PLACE ? "triangle's id and corner" : "rotation r0..r3");
    if (st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE && tile >= 0) {
        bool held = false;
        for (int k = 0; k < st->half.hand_n[st->pending.seat]; k++)
            held |= st->half.hand[st->pending.seat][k] == tile;
        if (!held)
            return fail(r, CARC_E_ILLEGAL, "%s is not in your hand", st->cat->types[tile].id);
    }
    return place_refused(r, tile, x, y, rot);
}

static int read_figure(reader *r, int fig, carc_move *out)
{
    const carc_state *st = r->st;
    int part;
    TRY(read_segment(r, 1, st->pending.piece, &part));
    carc_move m = {.kind = CARC_MV_FIGURE, .fig = (uint8_t)fig, .part = (uint8_t)part};
    if (take_legal(r, &m, out, "") == 0)
        return 0;
    const carc_piece *pc = &st->pieces[st->pending.piece];
    const carc_tile_type *t = &st->cat->types[pc->type];
    char seg[CARC_NOTATION_MAX];
    carc_segment_name(t, pc->rot, part, seg, sizeof seg);
    int kind = t->parts[part].kind;
    const char *why = "the feature is taken";
    if (carc_supply(st, st->pending.seat, fig) <= 0)
        why = "none is left in your supply";
    else if (fig == CARC_FIG_MEEPLE && kind == CARC_PART_GARDEN)
        why = "only an abbot stands in a garden";
    else if (fig == CARC_FIG_ABBOT && kind != CARC_PART_CLOISTER && kind != CARC_PART_GARDEN)
        why = "an abbot stands only in a cloister or a garden";
    else if (fig == CARC_FIG_SHEPHERD && kind != CARC_PART_FIELD)
        why = "a shepherd stands only on a field";
    else if (fig == CARC_FIG_SHEPHERD)
        why = "a shepherd already stands on that field, or yours is on the board";
    return fail(r, CARC_E_ILLEGAL, "%s %s is not a legal move now: %s", carc_fig_words[fig], seg, why);
}

static int read_cc_figure(reader *r, int mode, carc_move *out)
{
    const carc_state *st = r->st;
    int x, y, corner = -1;
    TRY(read_xy(r, 1, &x, &y));
    int i = 3;
    if (i < r->ntok && (corner = find_word(r->tok[i], carc_corner_words, 4)) >= 0)
        i++;
    if (st->crop.mode != mode)
        return fail(r, CARC_E_ILLEGAL, "this crop circle action %ss followers, it does not %s them",
                    st->crop.mode ? "remove" : "add", mode ? "remove" : "add");
    int si = carc_space_find(&st->board, x, y);
    const carc_space *sp = si >= 0 ? &st->board.spaces[si] : NULL;
    if (!sp || sp->npieces == 0)
        return fail(r, CARC_E_ILLEGAL, "no piece at %d,%d", x, y);
    int found = 0, rc = 0;
    char firsterr[sizeof r->msg] = "";
    for (int k = 0; k < sp->npieces; k++) {
        int piece = sp->piece[k];
        bool tri = carc_type_of(st, piece)->shape == CARC_TRIANGLE;
        if (tri && corner >= 0 && st->pieces[piece].rot != corner)
            continue;
        if (!tri && corner >= 0)
            return fail(r, CARC_E_INVALID, "notation: %d,%d holds a square tile: no corner", x, y);
        int part;
        int e = read_segment(r, i, piece, &part);
        if (e) {
            if (!firsterr[0]) {
                rc = e;
                snprintf(firsterr, sizeof firsterr, "%s", r->msg);
            }
            continue;
        }
        carc_move m = {.kind = CARC_MV_CC_FIGURE, .piece = (uint8_t)piece, .part = (uint8_t)part};
        for (size_t j = 0; j < r->legal.n; j++)
            if (carc_move_equal(&r->legal.v[j], &m)) {
                if (found++ == 0)
                    *out = m;
            }
    }
    if (found == 1)
        return 0;
    if (found > 1)
        return fail(r, CARC_E_INVALID, "notation: both triangles at %d,%d match: add the corner (nw ne se sw)", x, y);
    if (firsterr[0])
        return fail(r, rc, "%s", firsterr);
    return fail(r, CARC_E_ILLEGAL, "you cannot %s a meeple there now", mode ? "remove" : "add");
}

static int read_fruit(reader *r, int kind, carc_move *out)
{
    const carc_state *st = r->st;
    if (kind == CARC_MV_SELL) {
        unsigned set = 0;
        if (r->ntok < 2)
            return fail(r, CARC_E_INVALID, "notation: name the fruits to sell, like \"sell apple cherry\"");
        for (int i = 1; i < r->ntok; i++) {
            int f = find_word(r->tok[i], carc_fruit_names, CARC_FRUIT_TYPES);
            if (f < 0)
                return fail(r, CARC_E_INVALID, "notation: \"%s\" is no fruit (quince apple apricot cherry plum "
                                                "elderberry)", r->tok[i]);
            if (set >> f & 1)
                return fail(r, CARC_E_INVALID, "notation: %s named twice", carc_fruit_names[f]);
            set |= 1u << f;
        }
        carc_move m = {.kind = CARC_MV_SELL, .set = (uint8_t)set};
        return take_legal(r, &m, out, "that sale (you need a token of each fruit, at most the largest set)");
    }
    int tree = -1;
    if (r->ntok == 2) {
        tree = find_word(r->tok[1], carc_fruit_names, CARC_FRUIT_TYPES);
        if (tree < 0)
            return fail(r, CARC_E_INVALID, "notation: \"%s\" is no fruit (quince apple apricot cherry plum "
                                            "elderberry)", r->tok[1]);
    } else if (r->ntok == 3) {
        int x, y;
        TRY(read_xy(r, 1, &x, &y));
        for (int t = 0; t < st->fruit.ntrees; t++)
            if (st->pieces[st->fruit.tree_piece[t]].x == x && st->pieces[st->fruit.tree_piece[t]].y == y)
                tree = t;
        if (tree < 0)
            return fail(r, CARC_E_ILLEGAL, "no fruit tree at %d,%d", x, y);
    } else if (r->ntok > 3) {
        return fail(r, CARC_E_INVALID, "notation: harvest takes one fruit or one position");
    }
    int n = 0;
    for (size_t k = 0; k < r->legal.n; k++) {
        const carc_move *m = &r->legal.v[k];
        if (m->kind == CARC_MV_HARVEST && (tree < 0 || carc_tree_of(st, m->piece) == tree) && n++ == 0)
            *out = *m;
    }
    if (n == 1)
        return 0;
    if (n > 1)
        return fail(r, CARC_E_INVALID, "notation: %d trees can be harvested: name the fruit", n);
    if (tree >= 0 && tree >= st->fruit.ntrees)
        return fail(r, CARC_E_ILLEGAL, "no %s tree is on the board", carc_fruit_names[tree]);
    return fail(r, CARC_E_ILLEGAL, "no tree in reach can be harvested%s%s", tree >= 0 ? ": " : "",
                tree >= 0 ? carc_fruit_names[tree] : "");
}

/* The move kind the first words say, or -1 (unknown word) with *fig for figure moves. */
static int kind_of(reader *r, int *fig)
{
    const char *w = r->tok[0];
    static const struct { const char *word; int kind; } simple[] = {
        {"pass", CARC_MV_PASS}, {"draw", CARC_MV_DRAW}, {"grow", CARC_MV_GROW}, {"stable", CARC_MV_STABLE},
        {"harvest", CARC_MV_HARVEST}, {"sell", CARC_MV_SELL}, {"skip", CARC_MV_CC_SKIP},
        {"draft", CARC_MV_DRAFT}, {"take", CARC_MV_DRAFT}, {"pick", CARC_MV_DRAFT},
        {"abbot_return", CARC_MV_ABBOT_RETURN},
    };
    long v;
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (strcasecmp(w, simple[i].word) == 0)
            return simple[i].kind;
    if (strcasecmp(w, "add") == 0 || strcasecmp(w, "remove") == 0)
        return r->ntok == 1 ? (tolower((unsigned char)w[0]) == 'a' ? CARC_MV_CC_ADD : CARC_MV_CC_REMOVE)
                            : CARC_MV_CC_FIGURE;
    if (strcasecmp(w, "return") == 0 && r->ntok >= 2 && strcasecmp(r->tok[1], "abbot") == 0)
        return CARC_MV_ABBOT_RETURN;
    *fig = find_word(w, carc_fig_words, CARC_NFIG_KINDS);
    if (*fig == CARC_FIG_ABBOT && r->ntok >= 2 && strcasecmp(r->tok[1], "return") == 0)
        return CARC_MV_ABBOT_RETURN;
    if (*fig >= 0)
        return CARC_MV_FIGURE;
    if (is_int(w, &v))
        return CARC_MV_PLACE;
    int tile = find_tile(r->st->cat, w);
    if (tile >= 0)   /* a lone tile id in a draft is the pick */
        return r->ntok == 1 && r->st->pending.kind == CARC_PENDING_DRAFT ? CARC_MV_DRAFT : CARC_MV_PLACE;
    return -1;
}

static int words_expected(reader *r, int n, const char *what)
{
    if (r->ntok == n)
        return 0;
    return fail(r, CARC_E_INVALID, "notation: unexpected \"%s\" after %s", r->tok[n < r->ntok ? n : 0], what);
}

static int parse(reader *r, const char *text, size_t len, carc_move *out)
{
    const carc_state *st = r->st;
    TRY(lex(r, text, len));
    int fig = -1, kind = kind_of(r, &fig);
    if (kind < 0)
        return fail(r, CARC_E_INVALID,
                    "notation: unknown word \"%s\" (a move starts with a tile id, a position x,y, pass, meeple, "
                    "abbot, shepherd, draw, harvest, sell, grow, stable, add, remove, skip or draft)",
                    r->tok[0]);
    if (st->status != CARC_ACTIVE)
        return fail(r, CARC_E_FINISHED, "the game is over");
    if (!decision_takes(st->pending.kind, kind))
        return fail(r, CARC_E_ILLEGAL, "\"%s\" is %s, but the game waits for %s", r->tok[0], kind_words[kind],
                    decision_words(st->pending.kind));
    carc_legal_moves(st, st->pending.seat, &r->legal);
    carc_move m = {.kind = (uint8_t)kind};
    switch (kind) {
    case CARC_MV_PLACE: return read_place(r, out);
    case CARC_MV_FIGURE: return read_figure(r, fig, out);
    case CARC_MV_ABBOT_RETURN:
        TRY(words_expected(r, strcasecmp(r->tok[0], "abbot_return") == 0 ? 1 : 2, "the abbot's return"));
        return take_legal(r, &m, out, "the abbot's return (no abbot of yours is on the board)");
    case CARC_MV_HARVEST:
    case CARC_MV_SELL: return read_fruit(r, kind, out);
    case CARC_MV_CC_FIGURE:
        return read_cc_figure(r, tolower((unsigned char)r->tok[0][0]) == 'r', out);
    case CARC_MV_DRAFT: {
        int t = r->ntok == 1 ? find_tile(st->cat, r->tok[0]) : -1;
        if (r->ntok == 2)
            t = find_tile(st->cat, r->tok[1]);
        else if (r->ntok != 1)
            return fail(r, CARC_E_INVALID, "notation: a draft pick is \"draft <triangle id>\"");
        if (t < 0)
            return fail(r, CARC_E_INVALID, "notation: \"%s\" is no tile id", r->tok[r->ntok - 1]);
        m.tile = (uint8_t)t;
        return take_legal(r, &m, out, "that pick (the triangle is not face up)");
    }
    default:
        TRY(words_expected(r, 1, r->tok[0]));
        return take_legal(r, &m, out, r->tok[0]);
    }
}

int carc_notation_parse(const carc_state *st, const char *text, size_t len, carc_move *out, char *err,
                        size_t errlen)
{
    reader *r = calloc(1, sizeof *r);
    if (!r)
        abort();   /* the engine's policy: out of memory aborts */
    r->st = st;
    memset(out, 0, sizeof *out);
    int rc = parse(r, text ? text : "", text ? len : 0, out);
    if (rc)
        memset(out, 0, sizeof *out);
    if (errlen)
        snprintf(err, errlen, "%s", rc ? r->msg : "");
    carc_moves_free(&r->legal);
    free(r);
    return rc;
}
