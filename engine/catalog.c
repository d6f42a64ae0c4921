/*
 * catalog.c — reads the tile data format (engine/tiles/FORMAT.md) into a carc_catalog and validates it.
 *
 * The text is data the engine does not control (the built-in files today, a fuzzer always), so the parser
 * trusts nothing: it reads strictly within `len`, refuses NUL and other control bytes outside comments,
 * bounds every index by the limits in carc.h, and on any error leaves the catalog as it found it.
 * Side segments are kept sorted by `lo`, and touching intervals of one part on one side are merged, so a
 * part's `nsegs` counts the separate intervals it really has on the tile's border.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "carc.h"
#include "tileset.h"

#define HALF_SIDE (CARC_SIDE_UNITS / 2)
#define MAX_TOKENS 64                     /* more than any sane line needs; longer lines are refused */
#define MAX_REFS (CARC_MAX_PARTS * 4)     /* field -> city references pending in one tile */
#define MAX_SHOWN 24                      /* longest slice of a bad token quoted in a message */
#define MAX_SET_TOTAL 9999

_Static_assert(CARC_MAX_PARTS <= 16, "carc_part.touches is a 16-bit mask of part indexes");
_Static_assert(CARC_SIDE_UNITS <= 99, "@ intervals are read with at most two digits");
_Static_assert(CARC_MAX_TILES <= 255, "a type's count is a uint8_t");

typedef struct {
    const char *s;
    size_t n;
} tok;

/* A field's "> c1" is resolved when its tile ends, so a field may name a city written after it. */
typedef struct {
    uint8_t field;
    char city[CARC_ID_LEN];
    int line;
} city_ref;

typedef struct {
    carc_catalog *cat;
    const char *file;
    char *err;
    size_t errlen;
    int line;
    int set, set_line, total, sum;   /* set: carc_set of the set line, -1 before it */
    int set_when;                    /* the set line's `when` option (every tile of the set has it), or -1 */
    carc_tile_type *t;               /* the tile being read, or NULL */
    int tile_line;
    bool has_sides;
    uint8_t gaps;                    /* bit per side that may have gaps: an @ interval was used on it */
    int nrefs;
    city_ref refs[MAX_REFS];
} parser;

static const char side_letter[CARC_NSIDES] = {'N', 'E', 'S', 'W', 'D'};
/* The letter naming the first and the second half of each side, in the side's clockwise direction. */
static const char first_half[CARC_NSIDES] = {'w', 'n', 'e', 's', 'n'};
static const char second_half[CARC_NSIDES] = {'e', 's', 'w', 'n', 's'};
static const char *const kind_name[CARC_NPART_KINDS] = {"city", "road", "field", "cloister", "garden", "river"};
static const char *const side_type_name[] = {"no", "field", "road", "city", "river"};

/* ---- messages ------------------------------------------------------------------------------------------ */

static void put_err(char *err, size_t errlen, size_t at, const char *fmt, va_list ap)
{
    if (err && at < errlen)
        vsnprintf(err + at, errlen - at, fmt, ap);
}

static void catalog_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void catalog_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_err(err, errlen, 0, fmt, ap);
    va_end(ap);
}

/* Every parse error is prefixed "file:line: " and, inside a tile, "tile ID: ". */
static int fail(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parser *p, const char *fmt, ...)
{
    if (p->err && p->errlen > 0) {
        int n = p->t ? snprintf(p->err, p->errlen, "%s:%d: tile %s: ", p->file, p->line, p->t->id)
                     : snprintf(p->err, p->errlen, "%s:%d: ", p->file, p->line);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0)
            put_err(p->err, p->errlen, (size_t)n, fmt, ap);
        va_end(ap);
    }
    return CARC_E_DATA;
}

/* printf precision for quoting a token: tokens are not NUL-terminated and may be huge. */
static int shown(tok t)
{
    return (int)(t.n < MAX_SHOWN ? t.n : MAX_SHOWN);
}

/* ---- tokens -------------------------------------------------------------------------------------------- */

static bool tok_is(tok t, const char *s)
{
    size_t n = strlen(s);
    return t.n == n && memcmp(t.s, s, n) == 0;
}

static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_graph(unsigned char c)
{
    return c > ' ' && c < 0x7f;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Splits a line (comment already cut off) into tokens; any byte that is not printable ASCII is an error. */
static int tokenize(parser *p, const char *s, size_t n, tok *v, int *nt)
{
    size_t i = 0;
    *nt = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (is_space(c)) {
            i++;
            continue;
        }
        if (!is_graph(c))
            return fail(p, "invalid byte 0x%02x", c);
        size_t j = i;
        while (j < n && is_graph((unsigned char)s[j]))
            j++;
        if (*nt == MAX_TOKENS)
            return fail(p, "more than %d tokens on one line", MAX_TOKENS);
        v[(*nt)++] = (tok){s + i, j - i};
        i = j;
    }
    return 0;
}

/* Tile ids and part names: 1 to CARC_ID_LEN-1 letters, digits or '_'. */
static int take_name(parser *p, tok t, const char *what, char out[CARC_ID_LEN])
{
    if (t.n == 0 || t.n >= CARC_ID_LEN)
        return fail(p, "%s '%.*s' is not 1 to %d characters long", what, shown(t), t.s, CARC_ID_LEN - 1);
    for (size_t i = 0; i < t.n; i++)
        if (!is_name_char(t.s[i]))
            return fail(p, "%s '%.*s' may hold only letters, digits and '_'", what, shown(t), t.s);
    memcpy(out, t.s, t.n);
    out[t.n] = '\0';
    return 0;
}

static int take_uint(parser *p, tok t, int max, const char *what, int *out)
{
    int v = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] < '0' || t.s[i] > '9')
            return fail(p, "%s '%.*s' is not a number", what, shown(t), t.s);
        v = v * 10 + (t.s[i] - '0');
        if (v > max)
            return fail(p, "%s '%.*s' is more than %d", what, shown(t), t.s, max);
    }
    *out = v;
    return 0;
}

/* ---- the set line -------------------------------------------------------------------------------------- */

static bool set_loaded(const carc_catalog *cat, int set)
{
    for (int i = 0; i < cat->ntypes; i++)
        if (cat->types[i].set == set)
            return true;
    return false;
}

static int take_option(parser *p, tok t, int *out);

/* "set <name> <total> [when <option>]": a set that is no expansion (river) exists only with its option. */
static int parse_set(parser *p, const tok *v, int nt)
{
    if (p->set >= 0)
        return fail(p, "a second set line");
    if (nt != 3 && !(nt == 5 && tok_is(v[3], "when")))
        return fail(p, "set needs a name and a total, then perhaps when <option>");
    for (int s = 0; s < CARC_NSETS_ALL; s++) {
        if (!tok_is(v[1], carc_set_names[s]))
            continue;
        if (set_loaded(p->cat, s))
            return fail(p, "set %s is already in the catalog", carc_set_names[s]);
        int rc = nt == 5 ? take_option(p, v[4], &p->set_when) : 0;
        if (rc)
            return rc;
        if (s >= CARC_NSETS && p->set_when < 0)
            return fail(p, "set %s is no expansion: it needs when <option>", carc_set_names[s]);
        p->set = s;
        p->set_line = p->line;
        return take_uint(p, v[2], MAX_SET_TOTAL, "set total", &p->total);
    }
    return fail(p, "unknown set '%.*s'", shown(v[1]), v[1].s);
}

/* ---- tile and tri lines -------------------------------------------------------------------------------- */

static int find_earlier(parser *p, tok t, const char *what, int *out)
{
    char id[CARC_ID_LEN];
    int rc = take_name(p, t, what, id);
    if (rc)
        return rc;
    *out = carc_catalog_find(p->cat, id);
    if (*out < 0)
        return fail(p, "%s %s names no earlier tile", what, id);
    if (p->cat->types[*out].shape != p->t->shape)
        return fail(p, "%s %s is not the same shape", what, id);
    return 0;
}

/* An on/off option's index from its name. */
static int take_option(parser *p, tok t, int *out)
{
    char name[32];
    int opt = -1;
    if (t.n < sizeof name) {
        memcpy(name, t.s, t.n);
        name[t.n] = '\0';
        opt = carc_opt_find(name);
    }
    if (opt < 0)
        return fail(p, "when names no option: '%.*s'", shown(t), t.s);
    if (carc_opt_table[opt].kind != CARC_OPTK_BOOL)
        return fail(p, "when needs an on/off option, %s is not one", carc_opt_table[opt].name);
    *out = opt;
    return 0;
}

static int take_when(parser *p, tok t)
{
    int opt = -1, rc = take_option(p, t, &opt);
    if (rc == 0)
        p->t->when = (int8_t)opt;
    return rc;
}

static int take_start(parser *p)
{
    if (p->t->shape != CARC_SQUARE)
        return fail(p, "a triangle cannot be the start tile");
    p->t->start = 1;
    return 0;
}

/* One start tile without `when`, and at most one for each option: that one starts the game when its option
 * is on (the river's spring), the other otherwise. */
static int check_start(parser *p)
{
    for (int i = 0; i < p->cat->ntypes; i++)
        if (p->cat->types[i].start && p->cat->types[i].when == p->t->when)
            return fail(p, "a second start tile (%s is one)", p->cat->types[i].id);
    return 0;
}

/* A variant cannot replace more copies than exist besides the start tile. */
static int check_replaces(parser *p)
{
    const carc_tile_type *t = p->t, *r = &p->cat->types[t->replaces];
    int used = t->count;
    if (t->when < 0)
        return fail(p, "replaces needs when: only an option's variants replace copies");
    for (int i = 0; i < p->cat->ntypes; i++)
        if (p->cat->types[i].replaces == t->replaces)
            used += p->cat->types[i].count;
    if (used > r->count - r->start)
        return fail(p, "variants replace %d copies of %s, it has %d", used, r->id, r->count - r->start);
    return 0;
}

/* One "when <option>", "replaces <id>" or "like <id>" option; each may be given once. */
static int tile_option(parser *p, tok key, tok val, int *replaces, int *like)
{
    if (tok_is(key, "when") && p->set_when >= 0) {   /* may repeat the set's when, as clients write it back */
        int opt = -1, rc = take_option(p, val, &opt);
        if (rc == 0 && opt != p->set_when)
            rc = fail(p, "the tiles of set %s exist only when %s", carc_set_names[p->set],
                      carc_opt_table[p->set_when].name);
        return rc;
    }
    if (tok_is(key, "when"))
        return p->t->when >= 0 ? fail(p, "when given twice") : take_when(p, val);
    if (tok_is(key, "replaces"))
        return *replaces >= 0 ? fail(p, "replaces given twice") : find_earlier(p, val, "replaces", replaces);
    return *like >= 0 ? fail(p, "like given twice") : find_earlier(p, val, "like", like);
}

/* Options after the count, in any order: start, when <option>, replaces <id>, like <id>. */
static int parse_tile_options(parser *p, const tok *v, int nt, int *like)
{
    int replaces = -1, rc = 0;
    for (int i = 0; i < nt && rc == 0; i++) {
        if (tok_is(v[i], "start")) {
            rc = p->t->start ? fail(p, "start given twice") : take_start(p);
        } else if (!tok_is(v[i], "when") && !tok_is(v[i], "replaces") && !tok_is(v[i], "like")) {
            rc = fail(p, "unknown tile option '%.*s'", shown(v[i]), v[i].s);
        } else if (i + 1 == nt) {
            rc = fail(p, "%.*s needs a value", shown(v[i]), v[i].s);
        } else {
            rc = tile_option(p, v[i], v[i + 1], &replaces, like);
            i++;
        }
    }
    if (rc)
        return rc;
    if (p->t->start && (rc = check_start(p)) != 0)
        return rc;
    if (replaces < 0)
        return 0;
    p->t->replaces = (uint8_t)replaces;
    return check_replaces(p);
}

static bool side_has_gap(const carc_side *sd)
{
    int pos = 0;
    if (sd->type == CARC_SIDE_NONE)
        return false;
    for (int i = 0; i < sd->nseg; i++) {
        if (sd->seg[i].lo != pos)
            return true;
        pos = sd->seg[i].hi;
    }
    return pos != CARC_SIDE_UNITS;
}

/* `like`: the earlier tile's face (sides, parts, marks); id, count, start, when and replaces stay ours. */
static void copy_like(parser *p, const carc_tile_type *src)
{
    carc_tile_type *t = p->t;
    t->marks = src->marks;
    t->cc = src->cc;
    t->nparts = src->nparts;
    memcpy(t->parts, src->parts, sizeof t->parts);
    memcpy(t->side, src->side, sizeof t->side);
    p->has_sides = true;
    for (int s = 0; s < CARC_NSIDES; s++)
        if (side_has_gap(&t->side[s]))
            p->gaps |= (uint8_t)(1u << s);
}

static int finish_tile(parser *p);

static int parse_tile(parser *p, const tok *v, int nt, carc_shape shape)
{
    int rc = finish_tile(p), count = 0, like = -1;   /* count: gcc -O3 cannot see take_uint sets it */
    if (rc)
        return rc;
    if (p->set < 0)
        return fail(p, "%.*s before the set line", shown(v[0]), v[0].s);
    if (nt < 3)
        return fail(p, "%.*s needs an id and a count", shown(v[0]), v[0].s);
    if (p->cat->ntypes >= CARC_MAX_TYPES)
        return fail(p, "more than %d tile types", CARC_MAX_TYPES);
    carc_tile_type *t = &p->cat->types[p->cat->ntypes];
    memset(t, 0, sizeof *t);
    if ((rc = take_name(p, v[1], "tile id", t->id)) != 0)
        return rc;
    p->t = t;   /* from here on messages name the tile */
    p->tile_line = p->line;
    p->has_sides = false;
    p->gaps = 0;
    p->nrefs = 0;
    if (carc_catalog_find(p->cat, t->id) >= 0)
        return fail(p, "duplicate tile id");
    if ((rc = take_uint(p, v[2], CARC_MAX_TILES, "count", &count)) != 0)
        return rc;
    if (count == 0)
        return fail(p, "count must be at least 1");
    t->shape = (uint8_t)shape;
    t->set = (uint8_t)p->set;
    t->count = (uint8_t)count;
    t->when = (int8_t)p->set_when;   /* a set's `when` is its every tile's */
    t->replaces = CARC_NO_TYPE;
    if ((rc = parse_tile_options(p, v + 3, nt - 3, &like)) != 0)
        return rc;
    if (like >= 0)
        copy_like(p, &p->cat->types[like]);
    p->cat->ntypes++;
    return 0;
}

/* ---- the sides line ------------------------------------------------------------------------------------ */

static int side_type(tok t)
{
    if (tok_is(t, "C"))
        return CARC_SIDE_CITY;
    if (tok_is(t, "R"))
        return CARC_SIDE_ROAD;
    if (tok_is(t, "F"))
        return CARC_SIDE_FIELD;
    if (tok_is(t, "V"))
        return CARC_SIDE_RIVER;
    return -1;
}

static int parse_sides(parser *p, const tok *v, int nt)
{
    static const uint8_t square[] = {CARC_N, CARC_E, CARC_S, CARC_W};
    static const uint8_t triangle[] = {CARC_N, CARC_D, CARC_W};
    bool sq = p->t->shape == CARC_SQUARE;
    const uint8_t *order = sq ? square : triangle;
    int want = sq ? 4 : 3;
    if (p->has_sides)
        return fail(p, "sides given twice (a like tile has its sides already)");
    if (nt != want + 1)
        return fail(p, "a %s has %d sides: %s", sq ? "tile" : "triangle", want, sq ? "N E S W" : "N D W");
    for (int i = 0; i < want; i++) {
        int type = side_type(v[i + 1]);
        if (type < 0)
            return fail(p, "side type '%.*s' is not C, R, F or V", shown(v[i + 1]), v[i + 1].s);
        p->t->side[order[i]].type = (uint8_t)type;
    }
    p->has_sides = true;
    return 0;
}

/* ---- places and segments ------------------------------------------------------------------------------- */

static bool side_on_shape(int shape, int s)
{
    if (shape == CARC_SQUARE)
        return s != CARC_D;
    return s == CARC_N || s == CARC_W || s == CARC_D;
}

/* Two digits at most: the side scale is below 100 units. */
static bool read_unit(const char **q, const char *end, int *out)
{
    int v = 0, digits = 0;
    while (*q < end && **q >= '0' && **q <= '9' && digits < 3) {
        v = v * 10 + (**q - '0');
        (*q)++;
        digits++;
    }
    *out = v;
    return digits > 0 && digits <= 2;
}

/* "X@a-b" with 0 <= a < b <= CARC_SIDE_UNITS. */
static int parse_interval(parser *p, tok t, int *lo, int *hi)
{
    const char *q = t.s + 2, *end = t.s + t.n;
    bool ok = read_unit(&q, end, lo) && q < end && *q++ == '-' && read_unit(&q, end, hi) && q == end;
    if (!ok || *lo >= *hi || *hi > CARC_SIDE_UNITS)
        return fail(p, "place '%.*s' is not X@a-b with 0 <= a < b <= %d", shown(t), t.s, CARC_SIDE_UNITS);
    return 0;
}

/* A river side is cut like a road side: the river on [5,7), fields on either side of it. */
static bool narrow_middle(int type)
{
    return type == CARC_SIDE_ROAD || type == CARC_SIDE_RIVER;
}

static int whole_side(parser *p, tok t, int kind, int type, int *lo, int *hi)
{
    *lo = 0, *hi = CARC_SIDE_UNITS;
    if (!narrow_middle(type))
        return 0;
    if (kind == CARC_PART_FIELD)
        return fail(p, "a field on %s side %.*s takes a half or an @ interval", side_type_name[type], shown(t), t.s);
    *lo = CARC_ROAD_LO, *hi = CARC_ROAD_HI;
    return 0;
}

static void half_side(int type, bool first, int *lo, int *hi)
{
    bool road = narrow_middle(type);
    *lo = first ? 0 : road ? CARC_ROAD_HI : HALF_SIDE;
    *hi = !first ? CARC_SIDE_UNITS : road ? CARC_ROAD_LO : HALF_SIDE;
}

/* A place names a side and an interval on it: "N", "Nw", "N@0-7". */
static int parse_place(parser *p, tok t, int kind, int *side, int *lo, int *hi, bool *at)
{
    const char *q = memchr(side_letter, t.s[0], CARC_NSIDES);
    if (!q)
        return fail(p, "place '%.*s' does not start with a side letter", shown(t), t.s);
    int s = (int)(q - side_letter);
    if (!side_on_shape(p->t->shape, s))
        return fail(p, "a %s has no side %c", p->t->shape == CARC_SQUARE ? "tile" : "triangle", side_letter[s]);
    int type = p->t->side[s].type;
    *side = s;
    *at = false;
    if (t.n == 1)
        return whole_side(p, t, kind, type, lo, hi);
    if (t.n == 2 && (t.s[1] == first_half[s] || t.s[1] == second_half[s])) {
        half_side(type, t.s[1] == first_half[s], lo, hi);
        return 0;
    }
    if (t.s[1] != '@')
        return fail(p, "unknown place '%.*s'", shown(t), t.s);
    *at = true;
    return parse_interval(p, t, lo, hi);
}

/* City segments lie on city sides, fields on field and road sides, a road on [5,7) of a road side. */
static int check_kind(parser *p, int s, int lo, int hi, int kind)
{
    int type = p->t->side[s].type;
    bool ok = (type == CARC_SIDE_CITY && kind == CARC_PART_CITY) ||
              (type == CARC_SIDE_FIELD && kind == CARC_PART_FIELD) ||
              (type == CARC_SIDE_ROAD && (kind == CARC_PART_FIELD || kind == CARC_PART_ROAD)) ||
              (type == CARC_SIDE_RIVER && (kind == CARC_PART_FIELD || kind == CARC_PART_RIVER));
    if (!ok)
        return fail(p, "a %s segment cannot lie on %s side %c", kind_name[kind], side_type_name[type],
                    side_letter[s]);
    if ((kind == CARC_PART_ROAD || kind == CARC_PART_RIVER) && (lo != CARC_ROAD_LO || hi != CARC_ROAD_HI))
        return fail(p, "a %s lies on [%d,%d) of side %c, not [%d,%d)", kind_name[kind], CARC_ROAD_LO, CARC_ROAD_HI,
                    side_letter[s], lo, hi);
    return 0;
}

/* Joins neighbouring intervals of one part, so each separate stretch of border is one segment. */
static int merge_segs(carc_seg *v, int n)
{
    int out = 0;
    for (int i = 0; i < n; i++) {
        if (out > 0 && v[out - 1].part == v[i].part && v[out - 1].hi == v[i].lo)
            v[out - 1].hi = v[i].hi;
        else
            v[out++] = v[i];
    }
    return out;
}

static int insert_seg(parser *p, int s, int lo, int hi, int part)
{
    carc_side *sd = &p->t->side[s];
    carc_seg tmp[CARC_MAX_SEGS + 1], add = {(uint8_t)lo, (uint8_t)hi, (uint8_t)part};
    int n = 0;
    bool placed = false;
    for (int i = 0; i < sd->nseg; i++) {
        const carc_seg *g = &sd->seg[i];
        if (lo < g->hi && g->lo < hi)
            return fail(p, "side %c: [%d,%d) of %s overlaps [%d,%d) of %s", side_letter[s], lo, hi,
                        p->t->parts[part].name, g->lo, g->hi, p->t->parts[g->part].name);
        if (!placed && lo < g->lo) {
            tmp[n++] = add;
            placed = true;
        }
        tmp[n++] = *g;
    }
    if (!placed)
        tmp[n++] = add;
    n = merge_segs(tmp, n);
    if (n > CARC_MAX_SEGS)
        return fail(p, "side %c: more than %d segments", side_letter[s], CARC_MAX_SEGS);
    memcpy(sd->seg, tmp, (size_t)n * sizeof *tmp);
    sd->nseg = (uint8_t)n;
    return 0;
}

static int add_place(parser *p, tok t, int part)
{
    int kind = p->t->parts[part].kind, s = 0, lo = 0, hi = 0, rc;   /* set by parse_place on success */
    bool at = false;
    if (!p->has_sides)
        return fail(p, "place '%.*s' before the sides line", shown(t), t.s);
    if ((rc = parse_place(p, t, kind, &s, &lo, &hi, &at)) != 0 || (rc = check_kind(p, s, lo, hi, kind)) != 0)
        return rc;
    if (at)
        p->gaps |= (uint8_t)(1u << s);
    return insert_seg(p, s, lo, hi, part);
}

/* ---- part lines ---------------------------------------------------------------------------------------- */

static int add_ref(parser *p, tok t, int field)
{
    if (p->nrefs == MAX_REFS)
        return fail(p, "more than %d city references in one tile", MAX_REFS);
    city_ref *r = &p->refs[p->nrefs];
    int rc = take_name(p, t, "city name", r->city);
    if (rc)
        return rc;
    r->field = (uint8_t)field;
    r->line = p->line;
    p->nrefs++;
    return 0;
}

/* The tokens after a part's name: places, then "pennant" (cities) or "> city..." (fields). */
static int parse_places(parser *p, const tok *v, int nt, int part)
{
    carc_part *pt = &p->t->parts[part];
    int nplaces = 0, ncities = 0, rc = 0;
    bool cities = false;
    for (int i = 0; i < nt && rc == 0; i++) {
        if (cities) {
            rc = add_ref(p, v[i], part);
            ncities++;
        } else if (pt->kind == CARC_PART_CITY && tok_is(v[i], "pennant")) {
            rc = pt->pennants == UINT8_MAX ? fail(p, "too many pennants") : 0;
            pt->pennants++;
        } else if (pt->kind == CARC_PART_FIELD && tok_is(v[i], ">")) {
            cities = true;
        } else {
            rc = add_place(p, v[i], part);
            nplaces++;
        }
    }
    if (rc)
        return rc;
    if (nplaces == 0)
        return fail(p, "%s %s has no place on a side", kind_name[pt->kind], pt->name);
    if (cities && ncities == 0)
        return fail(p, "field %s: '>' names no city", pt->name);
    return 0;
}

static int parse_part(parser *p, const tok *v, int nt, carc_part_kind kind)
{
    if (!p->t)
        return fail(p, "%s outside a tile", kind_name[kind]);
    if (nt < 2)
        return fail(p, "%s needs a name", kind_name[kind]);
    carc_tile_type *t = p->t;
    if (t->nparts >= CARC_MAX_PARTS)
        return fail(p, "more than %d parts", CARC_MAX_PARTS);
    carc_part *pt = &t->parts[t->nparts];
    memset(pt, 0, sizeof *pt);
    int rc = take_name(p, v[1], "part name", pt->name);
    if (rc)
        return rc;
    if (carc_part_find(t, pt->name) >= 0)
        return fail(p, "duplicate part name %s", pt->name);
    pt->kind = (uint8_t)kind;
    int part = t->nparts++;
    if (kind == CARC_PART_CLOISTER || kind == CARC_PART_GARDEN)
        return nt == 2 ? 0 : fail(p, "%s takes only a name", kind_name[kind]);
    return parse_places(p, v + 2, nt - 2, part);
}

static int parse_mark(parser *p, const tok *v, int nt)
{
    static const struct { const char *name; uint8_t bit; } simple[] = {
        {"hill", CARC_MARK_HILL}, {"vineyard", CARC_MARK_VINEYARD}, {"tree", CARC_MARK_TREE},
    };
    static const char *const cc[] = {[CARC_CC_CLUB] = "club", [CARC_CC_RAKE] = "rake", [CARC_CC_SHIELD] = "shield"};
    if (!p->t)
        return fail(p, "mark outside a tile");
    for (size_t i = 0; nt == 2 && i < sizeof simple / sizeof simple[0]; i++)
        if (tok_is(v[1], simple[i].name)) {
            p->t->marks |= simple[i].bit;
            return 0;
        }
    for (int k = CARC_CC_CLUB; nt == 3 && tok_is(v[1], "cc") && k <= CARC_CC_SHIELD; k++)
        if (tok_is(v[2], cc[k])) {
            if (p->t->cc != CARC_CC_NONE && p->t->cc != k)
                return fail(p, "a second crop circle");
            p->t->marks |= CARC_MARK_CC;
            p->t->cc = (uint8_t)k;
            return 0;
        }
    return fail(p, "mark is hill, vineyard, tree or cc club|rake|shield");
}

/* ---- end of a tile ------------------------------------------------------------------------------------- */

static int resolve_refs(parser *p)
{
    carc_tile_type *t = p->t;
    for (int i = 0; i < p->nrefs; i++) {
        const city_ref *r = &p->refs[i];
        int c = carc_part_find(t, r->city);
        if (c < 0 || t->parts[c].kind != CARC_PART_CITY) {
            p->line = r->line;
            return fail(p, "field %s: %s is not a city of this tile", t->parts[r->field].name, r->city);
        }
        t->parts[r->field].touches |= (uint16_t)(1u << c);
    }
    return 0;
}

/* Covered exactly: no gap unless the side used an @ interval; a road side carries its one road. */
static int check_side(parser *p, int s)
{
    const carc_side *sd = &p->t->side[s];
    bool gaps_ok = p->gaps & (1u << s);
    int pos = 0, roads = 0, rivers = 0;
    if (sd->type == CARC_SIDE_NONE)
        return 0;
    for (int i = 0; i <= sd->nseg; i++) {
        int lo = i < sd->nseg ? sd->seg[i].lo : CARC_SIDE_UNITS;
        if (lo > pos && !gaps_ok)
            return fail(p, "side %c: [%d,%d) is covered by no segment", side_letter[s], pos, lo);
        if (i == sd->nseg)
            break;
        pos = sd->seg[i].hi;
        roads += p->t->parts[sd->seg[i].part].kind == CARC_PART_ROAD;
        rivers += p->t->parts[sd->seg[i].part].kind == CARC_PART_RIVER;
    }
    if (sd->type == CARC_SIDE_ROAD && roads != 1)
        return fail(p, "road side %c has no road", side_letter[s]);
    if (sd->type == CARC_SIDE_RIVER && rivers != 1)
        return fail(p, "river side %c has no river", side_letter[s]);
    return 0;
}

static void count_segs(carc_tile_type *t)
{
    for (int i = 0; i < t->nparts; i++)
        t->parts[i].nsegs = 0;
    for (int s = 0; s < CARC_NSIDES; s++)
        for (int i = 0; i < t->side[s].nseg; i++)
            t->parts[t->side[s].seg[i].part].nsegs++;
}

/* carc_tile_type.fit: for every pattern of neighbour sides (2 bits a direction, N lowest, 0 = none) the
 * rotations at which the square matches all of them. */
static void fill_fit(carc_tile_type *t)
{
    memset(t->fit, 0, sizeof t->fit);
    if (t->shape != CARC_SQUARE || t->river)   /* a river tile goes only on the river's open end (board.c) */
        return;
    for (unsigned pat = 1; pat < 256; pat++)
        for (int rot = 0; rot < 4; rot++) {
            bool ok = true;
            for (int d = 0; d < 4 && ok; d++) {
                unsigned nb = pat >> 2 * d & 3;
                ok = nb == CARC_SIDE_NONE || nb == t->side[(d - rot) & 3].type;   /* board.c: carc_dir_side */
            }
            t->fit[pat] = (uint8_t)(t->fit[pat] | (unsigned)ok << rot);
        }
}

/* carc_tile_type.river. The river never forks (each tile continues it at most once: one river side is a
 * spring or a lake, two carry it on), so its open end is always one space; a triangle never carries it. */
static int find_river(parser *p)
{
    carc_tile_type *t = p->t;
    t->river = 0;
    for (int s = 0; s < CARC_NSIDES; s++)
        if (t->side[s].type == CARC_SIDE_RIVER)
            t->river = (uint8_t)(t->river | 1u << s);
    if (t->river && t->shape != CARC_SQUARE)
        return fail(p, "a triangle cannot carry the river");
    if (__builtin_popcount(t->river) > 2)
        return fail(p, "more than 2 river sides: the river does not fork");
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == CARC_PART_RIVER && !t->river)
            return fail(p, "river %s lies on no river side", t->parts[i].name);
    return 0;
}

static int finish_tile(parser *p)
{
    int line = p->line, rc;
    if (!p->t)
        return 0;
    p->line = p->tile_line;
    if (!p->has_sides)
        return fail(p, "no sides line");
    if ((rc = resolve_refs(p)) != 0)
        return rc;
    for (int s = 0; s < CARC_NSIDES; s++)
        if ((rc = check_side(p, s)) != 0)
            return rc;
    count_segs(p->t);
    if ((rc = find_river(p)) != 0)
        return rc;
    fill_fit(p->t);
    if (p->t->when == p->set_when)   /* an option's variants (gardens) replace copies: they add none */
        p->sum += p->t->count;
    p->t = NULL;
    p->line = line;
    return 0;
}

/* ---- driver -------------------------------------------------------------------------------------------- */

static int parse_line(parser *p, const char *s, size_t n)
{
    tok v[MAX_TOKENS];
    int nt, rc = tokenize(p, s, n, v, &nt);
    if (rc || nt == 0)
        return rc;
    if (tok_is(v[0], "set"))
        return parse_set(p, v, nt);
    if (tok_is(v[0], "tile"))
        return parse_tile(p, v, nt, CARC_SQUARE);
    if (tok_is(v[0], "tri"))
        return parse_tile(p, v, nt, CARC_TRIANGLE);
    if (tok_is(v[0], "mark"))
        return parse_mark(p, v, nt);
    if (tok_is(v[0], "sides"))
        return p->t ? parse_sides(p, v, nt) : fail(p, "sides outside a tile");
    for (int k = 0; k < CARC_NPART_KINDS; k++)
        if (tok_is(v[0], kind_name[k]))
            return parse_part(p, v, nt, (carc_part_kind)k);
    return fail(p, "unknown keyword '%.*s'", shown(v[0]), v[0].s);
}

static int parse_text(parser *p, const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *hash = memchr(text + pos, '#', end - pos);
        size_t cut = hash ? (size_t)(hash - text) : end;
        p->line++;
        int rc = parse_line(p, text + pos, cut - pos);
        if (rc)
            return rc;
        pos = nl ? end + 1 : len;
    }
    int rc = finish_tile(p);
    if (rc)
        return rc;
    if (p->set < 0) {
        p->line = p->line > 0 ? p->line : 1;   /* an empty text still has a first line to blame */
        return fail(p, "no set line");
    }
    if (p->sum != p->total) {
        p->line = p->set_line;
        return fail(p, "set %s: the tiles add up to %d, the set line says %d", carc_set_names[p->set], p->sum,
                    p->total);
    }
    return 0;
}

int carc_catalog_parse(carc_catalog *cat, const char *text, size_t len, const char *name, char *err,
                       size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.cat = cat;
    p.file = name ? name : "tiles";
    p.err = errlen > 0 ? err : NULL;
    p.errlen = errlen;
    p.set = -1;
    p.set_when = -1;
    if (!cat || (!text && len > 0) || cat->ntypes < 0 || cat->ntypes > CARC_MAX_TYPES) {
        catalog_err(p.err, errlen, "%s: no catalog or no text", p.file);
        return CARC_E_INVALID;
    }
    int first = cat->ntypes;
    int rc = parse_text(&p, text, len);
    if (rc)
        cat->ntypes = first;   /* all or nothing: a failed set adds no types */
    return rc;
}

int carc_catalog_load(carc_catalog *cat, char *err, size_t errlen)
{
    if (!cat)
        return CARC_E_INVALID;
    cat->ntypes = 0;
    for (int i = 0; i < carc_builtin_nsets; i++) {
        const carc_builtin_set *b = &carc_builtin_sets[i];
        int rc = carc_catalog_parse(cat, b->text, b->len, b->name, err, errlen);
        if (rc)
            return rc;
    }
    for (int i = 0; i < cat->ntypes; i++)
        if (cat->types[i].start)
            return 0;
    catalog_err(errlen > 0 ? err : NULL, errlen, "catalog: no start tile");
    return CARC_E_DATA;
}

int carc_catalog_find(const carc_catalog *cat, const char *id)
{
    if (!cat || !id)
        return -1;
    for (int i = 0; i < cat->ntypes && i < CARC_MAX_TYPES; i++)
        if (strncmp(cat->types[i].id, id, CARC_ID_LEN) == 0)
            return i;
    return -1;
}

int carc_part_find(const carc_tile_type *t, const char *name)
{
    if (!t || !name)
        return -1;
    for (int i = 0; i < t->nparts && i < CARC_MAX_PARTS; i++)
        if (strncmp(t->parts[i].name, name, CARC_ID_LEN) == 0)
            return i;
    return -1;
}
