/*
 * test_catalog_json.c — carc_catalog_json, the tile catalog clients read (GET /v1/tiles): every tile of every
 * set with the counts the data files' lines give, everything the engine knows of a tile (written back as
 * the data format it parses into the identical catalog), part names that are exactly the ones legal figure
 * moves carry, and a rotation table that agrees with which placements the engine allows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "testutil.h"
#include "tileset.h"

static json_t *catalog_doc(void)
{
    json_t *doc = carc_catalog_json(tu_catalog());
    ck_assert_ptr_nonnull(doc);
    return doc;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    ck_assert_msg(s, "no string %s", key);
    return s;
}

static json_t *tile_entry(const json_t *doc, const char *id)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(doc, "tiles"), i, t)
        if (strcmp(str(t, "id"), id) == 0)
            return t;
    return NULL;
}

/* ---- counts against the data files' own lines ------------------------------------------------------------ */

/* The first token after `kw ` on a line, as a string, and the number after it. */
static bool line_fields(const char *line, size_t n, const char *kw, char *name, size_t namelen, int *num)
{
    size_t k = strlen(kw);
    if (n <= k || strncmp(line, kw, k) != 0 || line[k] != ' ')
        return false;
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf - 1 ? n : sizeof buf - 1), line);
    char fmt[32];
    snprintf(fmt, sizeof fmt, "%s %%%zus %%d", kw, namelen - 1);
    return sscanf(buf, fmt, name, num) == 2;
}

/* Whether `w` occurs in the line before any comment. */
static bool has_word(const char *line, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n && line[i] != '#'; i++)
        if (memcmp(line + i, w, k) == 0)
            return true;
    return false;
}

START_TEST(every_tile_with_its_count)
{
    json_t *doc = catalog_doc();
    size_t lines = 0;
    for (int b = 0; b < carc_builtin_nsets; b++) {
        const carc_builtin_set *bs = &carc_builtin_sets[b];
        char set[32] = "", name[32];
        int total = -1, sum = 0, num;
        bool set_when = false;   /* the set line says when <option>: every tile has it (the river) */
        for (const char *p = bs->text, *end = bs->text + bs->len; p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (line_fields(p, n, "set", name, sizeof name, &num)) {
                snprintf(set, sizeof set, "%s", name);
                total = num;
                set_when = has_word(p, n, " when ");
            } else if (line_fields(p, n, "tile", name, sizeof name, &num) ||
                       line_fields(p, n, "tri", name, sizeof name, &num)) {
                json_t *t = tile_entry(doc, name);
                ck_assert_msg(t, "%s: tile %s is not in the catalog document", bs->name, name);
                ck_assert_str_eq(str(t, "set"), set);
                ck_assert_int_eq(json_integer_value(json_object_get(t, "count")), num);
                bool variant = has_word(p, n, " when ");
                ck_assert_int_eq(json_object_get(t, "when") != NULL, variant || set_when);
                sum += variant ? 0 : num;
                lines++;
            }
            p = nl ? nl + 1 : end;
        }
        ck_assert_msg(total > 0, "%s has no set line", bs->name);
        ck_assert_msg(sum == total, "%s: tiles add up to %d, set line %d", bs->name, sum, total);
        size_t i;
        json_t *e;
        bool found = false;
        json_array_foreach(json_object_get(doc, "sets"), i, e)
            if (strcmp(str(e, "name"), set) == 0) {
                ck_assert_int_eq(json_integer_value(json_object_get(e, "tiles")), total);
                found = true;
            }
        ck_assert_msg(found, "set %s is not in the document's sets", set);
    }
    ck_assert_int_eq(json_array_size(json_object_get(doc, "tiles")), lines);
    ck_assert_int_eq(json_array_size(json_object_get(doc, "sets")), carc_builtin_nsets);
    /* the start tile, as the data marks it */
    json_t *d = tile_entry(doc, "D");
    ck_assert(json_is_true(json_object_get(d, "start")));
    ck_assert_str_eq(str(tile_entry(doc, "Eg"), "replaces"), "E");
    ck_assert_str_eq(str(tile_entry(doc, "Eg"), "when"), "abbot");
    /* the river: its set comes with the option river and starts with the spring; river sides say so */
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "sets"), i, e)
        if (strcmp(str(e, "name"), "river") == 0) {
            ck_assert_str_eq(str(e, "when"), "river");
            ck_assert_str_eq(str(e, "start"), "RV01");
            ck_assert_int_eq(json_integer_value(json_object_get(e, "tiles")), 12);
        }
    json_t *spring = tile_entry(doc, "RV01"), *bridge = tile_entry(doc, "RV05");
    ck_assert_str_eq(str(spring, "set"), "river");
    ck_assert_str_eq(str(spring, "when"), "river");
    ck_assert_str_eq(str(spring, "replaces"), "D");
    ck_assert(json_is_true(json_object_get(spring, "start")));
    ck_assert_str_eq(str(json_object_get(spring, "sides"), "E"), "river");
    ck_assert_str_eq(str(json_object_get(spring, "sides"), "N"), "field");
    ck_assert_str_eq(str(json_object_get(bridge, "sides"), "E"), "river");
    ck_assert_str_eq(str(json_object_get(bridge, "sides"), "N"), "road");
    int rivers = 0;
    json_array_foreach(json_object_get(bridge, "segments"), i, e)
        if (strcmp(str(e, "feature"), "river") == 0) {
            rivers++;
            ck_assert_str_eq(json_string_value(json_array_get(json_object_get(e, "places"), 0)), "E");
        }
    ck_assert_int_eq(rivers, 1);
    json_decref(doc);
}
END_TEST

/* ---- the document holds the whole catalog: written back as tile data it parses into the same types ------- */

static void put(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
        ck_assert_ptr_nonnull(*buf);
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

static void put_tile(char **buf, size_t *len, size_t *cap, const json_t *t)
{
    char line[256];
    bool tri = strcmp(str(t, "shape"), "triangle") == 0;
    snprintf(line, sizeof line, "%s %s %d%s", tri ? "tri" : "tile", str(t, "id"),
             (int)json_integer_value(json_object_get(t, "count")), json_is_true(json_object_get(t, "start")) ? " start" : "");
    put(buf, len, cap, line);
    if (json_object_get(t, "when")) {
        put(buf, len, cap, " when ");
        put(buf, len, cap, str(t, "when"));
    }
    if (json_object_get(t, "replaces")) {
        put(buf, len, cap, " replaces ");
        put(buf, len, cap, str(t, "replaces"));
    }
    put(buf, len, cap, "\n sides");
    const json_t *sides = json_object_get(t, "sides");
    static const char *const sq[] = {"N", "E", "S", "W"}, *const tr[] = {"N", "D", "W"};
    for (int i = 0; i < (tri ? 3 : 4); i++) {
        const char *type = str(sides, tri ? tr[i] : sq[i]);
        put(buf, len, cap, strcmp(type, "city") == 0    ? " C"
                           : strcmp(type, "road") == 0  ? " R"
                           : strcmp(type, "river") == 0 ? " V"
                                                        : " F");
    }
    put(buf, len, cap, "\n");
    size_t i, k;
    json_t *g, *v;
    json_array_foreach(json_object_get(t, "segments"), i, g) {
        snprintf(line, sizeof line, " %s %s", str(g, "feature"), str(g, "part"));
        put(buf, len, cap, line);
        json_array_foreach(json_object_get(g, "places"), k, v) {
            put(buf, len, cap, " ");
            put(buf, len, cap, json_string_value(v));
        }
        for (json_int_t p = 0; p < json_integer_value(json_object_get(g, "pennant")); p++)
            put(buf, len, cap, " pennant");
        json_t *cities = json_object_get(g, "cities");
        if (json_array_size(cities) > 0)
            put(buf, len, cap, " >");
        json_array_foreach(cities, k, v) {
            put(buf, len, cap, " ");
            put(buf, len, cap, json_string_value(v));
        }
        put(buf, len, cap, "\n");
    }
    const json_t *sp = json_object_get(t, "specials");
    if (json_is_true(json_object_get(sp, "hill")))
        put(buf, len, cap, " mark hill\n");
    if (json_is_true(json_object_get(sp, "vineyard")))
        put(buf, len, cap, " mark vineyard\n");
    if (json_is_true(json_object_get(sp, "fruit_tree")))
        put(buf, len, cap, " mark tree\n");
    if (json_object_get(sp, "crop_circle")) {
        snprintf(line, sizeof line, " mark cc %s\n", str(sp, "crop_circle"));
        put(buf, len, cap, line);
    }
}

START_TEST(round_trip_through_the_data_format)
{
    json_t *doc = catalog_doc();
    carc_catalog *back = calloc(1, sizeof *back);
    ck_assert_ptr_nonnull(back);
    size_t i, k;
    json_t *set = NULL, *t;
    const char *done[CARC_NSETS_ALL];   /* sets written, in the catalog's order (its types' order) */
    int ndone = 0;
    json_array_foreach(json_object_get(doc, "tiles"), i, t) {
        bool seen = false;
        for (int d = 0; d < ndone; d++)
            seen = seen || strcmp(done[d], str(t, "set")) == 0;
        if (seen)
            continue;
        ck_assert_int_lt(ndone, CARC_NSETS_ALL);
        done[ndone++] = str(t, "set");
        json_array_foreach(json_object_get(doc, "sets"), k, set)
            if (strcmp(str(set, "name"), str(t, "set")) == 0)
                break;
        ck_assert_ptr_nonnull(set);
        char *buf = NULL, line[64];
        size_t len = 0, cap = 0;
        const json_t *when = json_object_get(set, "when");   /* the river's set comes with its option */
        snprintf(line, sizeof line, "set %s %d%s%s\n", str(set, "name"),
                 (int)json_integer_value(json_object_get(set, "tiles")), when ? " when " : "",
                 when ? json_string_value(when) : "");
        put(&buf, &len, &cap, line);
        json_t *u;
        json_array_foreach(json_object_get(doc, "tiles"), k, u)
            if (strcmp(str(u, "set"), str(set, "name")) == 0)
                put_tile(&buf, &len, &cap, u);
        char err[256];
        ck_assert_msg(carc_catalog_parse(back, buf, len, str(set, "name"), err, sizeof err) == 0, "%s\n%s", err, buf);
        free(buf);
    }
    const carc_catalog *cat = tu_catalog();
    ck_assert_int_eq(back->ntypes, cat->ntypes);
    for (int j = 0; j < cat->ntypes; j++) {
        const carc_tile_type *a = &cat->types[j], *b = &back->types[j];
        ck_assert_str_eq(a->id, b->id);
        /* field by field, so a failure names what the document lost */
        ck_assert_int_eq(a->shape, b->shape);
        ck_assert_int_eq(a->set, b->set);
        ck_assert_int_eq(a->count, b->count);
        ck_assert_int_eq(a->start, b->start);
        ck_assert_int_eq(a->when, b->when);
        ck_assert_int_eq(a->replaces, b->replaces);
        ck_assert_int_eq(a->marks, b->marks);
        ck_assert_int_eq(a->cc, b->cc);
        ck_assert_int_eq(a->nparts, b->nparts);
        ck_assert_msg(memcmp(a->parts, b->parts, sizeof a->parts) == 0, "tile %s: parts differ", a->id);
        ck_assert_msg(memcmp(a->side, b->side, sizeof a->side) == 0, "tile %s: sides differ", a->id);
    }
    free(back);
    json_decref(doc);
}
END_TEST

/* Every place name of a segment means the interval listed beside it (conventions.places, or X@a-b). */
START_TEST(places_mean_their_intervals)
{
    json_t *doc = catalog_doc();
    const json_t *places = json_object_get(json_object_get(doc, "conventions"), "places");
    ck_assert_int_eq(json_object_size(places), 15);
    size_t i, k;
    json_t *t, *g;
    int split = 0;
    json_array_foreach(json_object_get(doc, "tiles"), i, t) {
        json_array_foreach(json_object_get(t, "segments"), k, g) {
            const json_t *names = json_object_get(g, "places"), *ivs = json_object_get(g, "intervals");
            ck_assert_int_eq(json_array_size(names), json_array_size(ivs));
            for (size_t p = 0; p < json_array_size(names); p++) {
                const char *name = json_string_value(json_array_get(names, p));
                const json_t *iv = json_array_get(ivs, p);
                const char *side = str(iv, "side");
                int from = (int)json_integer_value(json_object_get(iv, "from"));
                int to = (int)json_integer_value(json_object_get(iv, "to"));
                ck_assert_int_eq(name[0], side[0]);
                int lo, hi;
                if (name[1] == '@') {
                    ck_assert_int_eq(sscanf(name + 2, "%d-%d", &lo, &hi), 2);
                    split++;
                } else {
                    const json_t *pl = json_object_get(places, name);
                    ck_assert_msg(pl, "%s: place %s is not in conventions.places", str(t, "id"), name);
                    const char *type = str(json_object_get(t, "sides"), side);   /* a river side is cut so too */
                    bool road = strcmp(type, "road") == 0 || strcmp(type, "river") == 0;
                    const json_t *a = json_object_get(pl, road ? "road_side_interval" : "interval");
                    lo = (int)json_integer_value(json_array_get(a, 0));
                    hi = (int)json_integer_value(json_array_get(a, 1));
                }
                ck_assert_msg(lo == from && hi == to, "%s %s: %s is [%d,%d), listed [%d,%d)", str(t, "id"),
                              str(g, "part"), name, lo, hi, from, to);
            }
        }
    }
    ck_assert_int_gt(split, 0);   /* Hills & Sheep's split sides are named exactly */
    ck_assert_int_ge(json_array_size(json_object_get(json_object_get(doc, "conventions"), "split_sides")), 2);
    json_decref(doc);
}
END_TEST

/* ---- part names and rotation against the engine's legal moves ------------------------------------------- */

static bool has_str(const json_t *a, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (strcmp(json_string_value(v), s) == 0)
            return true;
    return false;
}

/* A game whose first decision is about type `ti`: drawn first, or (a triangle) in seat 0's hand. */
static void game_with(carc_state *st, int ti)
{
    const carc_catalog *cat = tu_catalog();
    const carc_tile_type *t = &cat->types[ti];
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2;
    s.expansions = (uint8_t)(s.expansions | 1u << t->set);
    if (t->when >= 0)
        s.opt[t->when] = 1;
    /* with the abbot option on where a copy is left (a garden variant may take every copy of its tile) */
    int left = t->count - t->start;
    for (int v = 0; v < cat->ntypes; v++)
        left -= cat->types[v].replaces == ti ? cat->types[v].count : 0;
    if (left > 0)
        s.opt[CARC_OPT_ABBOT] = 1;
    int plain = carc_catalog_find(cat, "B");
    if (t->shape == CARC_TRIANGLE) {
        s.hands_scripted = 1;
        s.hand_n[0] = 1;
        s.hand[0][0] = (uint8_t)ti;
        s.nstack = 1;
        s.stack[0] = (uint8_t)plain;
    } else {
        s.nstack = 2;   /* a second tile, for a hill to take */
        s.stack[0] = (uint8_t)ti;
        s.stack[1] = (uint8_t)plain;
    }
    char err[256];
    ck_assert_msg(carc_game_new(st, cat, &s, NULL, err, sizeof err) == 0, "%s: %s", t->id, err);
}

static int side_index(const char *name)
{
    static const char letters[] = "NESW";
    const char *p = strchr(letters, name[0]);
    ck_assert_ptr_nonnull(p);
    return (int)(p - letters);
}

/* Square `ti` on the space next to the start tile in direction d with rot: whether the document's
 * rotation table makes its side that faces the start tile match the start tile's side facing it. */
static bool doc_says_fits(const json_t *doc, const json_t *tile, const json_t *start, int d, int rot)
{
    static const char *const names[] = {"N", "E", "S", "W"};
    const json_t *turn = json_array_get(json_object_get(json_object_get(doc, "conventions"), "side_after_rot"),
                                        (size_t)rot);
    const char *facing = NULL;   /* the tile's local side that lies on board side (d + 2) % 4 */
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)turn, key, v)
        if (side_index(json_string_value(v)) == (d + 2) % 4)
            facing = key;
    ck_assert_ptr_nonnull(facing);
    return strcmp(str(json_object_get(tile, "sides"), facing), str(json_object_get(start, "sides"), names[d])) == 0;
}

START_TEST(parts_are_what_figure_moves_name)
{
    const carc_catalog *cat = tu_catalog();
    json_t *doc = catalog_doc();
    const json_t *start = tile_entry(doc, "D");
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_moves ms = {0};
    int checked = 0, rots_checked = 0, river = 0;
    for (int ti = 0; ti < cat->ntypes; ti++) {
        const carc_tile_type *t = &cat->types[ti];
        const json_t *tile = tile_entry(doc, t->id);
        ck_assert_ptr_nonnull(tile);
        if (t->river) {   /* a river tile goes only on the river's open end: tests/scenarios/river */
            river++;
            continue;
        }
        game_with(st, ti);
        carc_legal_moves(st, 0, &ms);
        const carc_move *place = NULL;
        for (size_t i = 0; i < ms.n && !place; i++)
            if (ms.v[i].kind == CARC_MV_PLACE && ms.v[i].tile == ti)
                place = &ms.v[i];
        ck_assert_msg(place, "%s: no placement next to the start tile", t->id);
        if (t->shape == CARC_SQUARE) {
            /* every rotation on every space beside the start tile: legal exactly when the table says the
             * facing sides match */
            static const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};
            for (int d = 0; d < 4; d++)
                for (int rot = 0; rot < 4; rot++) {
                    bool legal = false;
                    for (size_t i = 0; i < ms.n; i++)
                        legal = legal || (ms.v[i].kind == CARC_MV_PLACE && ms.v[i].x == dx[d] &&
                                          ms.v[i].y == dy[d] && ms.v[i].rot == rot);
                    ck_assert_msg(legal == doc_says_fits(doc, tile, start, d, rot), "%s at (%d,%d) rot %d: legal %d",
                                  t->id, dx[d], dy[d], rot, legal);
                    rots_checked++;
                }
        }
        carc_move mv = *place;
        char err[256];
        carc_events ev = {0};
        ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s: %s", t->id, err);
        carc_events_free(&ev);
        ck_assert_int_eq(st->pending.kind, CARC_PENDING_FIGURE);
        carc_legal_moves(st, 0, &ms);
        /* the parts of each figure kind, as the API names them in the moves */
        json_t *meeple = json_array(), *abbot = json_array(), *shepherd = json_array();
        for (size_t i = 0; i < ms.n; i++) {
            if (ms.v[i].kind != CARC_MV_FIGURE)
                continue;
            json_t *j = carc_move_to_json(st, &ms.v[i]);
            const char *fig = str(j, "figure");
            json_t *to = strcmp(fig, "meeple") == 0 ? meeple : strcmp(fig, "abbot") == 0 ? abbot : shepherd;
            json_array_append_new(to, json_string(str(j, "part")));
            json_decref(j);
        }
        /* nothing stands on the board yet: a meeple may go on every part but a garden, an abbot on every
         * cloister and garden, a shepherd (Hills & Sheep) on every field */
        size_t i, nm = 0, na = 0, ns = 0;
        json_t *g;
        bool hills = t->set == CARC_SET_HILLS_SHEEP, abbots = st->opt[CARC_OPT_ABBOT] != 0;
        json_array_foreach(json_object_get(tile, "segments"), i, g) {
            const char *part = str(g, "part"), *feature = str(g, "feature");
            bool monastic = strcmp(feature, "cloister") == 0 || strcmp(feature, "garden") == 0;
            bool field = strcmp(feature, "field") == 0;
            ck_assert_msg(has_str(meeple, part) == (strcmp(feature, "garden") != 0), "%s %s: meeple", t->id, part);
            ck_assert_msg(has_str(abbot, part) == (abbots && monastic), "%s %s: abbot", t->id, part);
            ck_assert_msg(has_str(shepherd, part) == (hills && field), "%s %s: shepherd", t->id, part);
            nm += strcmp(feature, "garden") != 0;
            na += abbots && monastic;
            ns += hills && field;
        }
        /* and no move names a part the document does not list */
        ck_assert_int_eq(json_array_size(meeple), nm);
        ck_assert_int_eq(json_array_size(abbot), na);
        ck_assert_int_eq(json_array_size(shepherd), ns);
        json_decref(meeple);
        json_decref(abbot);
        json_decref(shepherd);
        checked++;
    }
    ck_assert_int_eq(checked + river, cat->ntypes);
    ck_assert_int_gt(rots_checked, 0);
    carc_moves_free(&ms);
    free(st);
    json_decref(doc);
}
END_TEST

/* The rotation rule the document states: N -> E -> S -> W, one step per clockwise quarter turn. */
START_TEST(rotation_table_is_clockwise)
{
    json_t *doc = catalog_doc();
    const json_t *c = json_object_get(doc, "conventions");
    static const char *const names[] = {"N", "E", "S", "W"};
    for (int rot = 0; rot < 4; rot++) {
        const json_t *row = json_array_get(json_object_get(c, "side_after_rot"), (size_t)rot);
        ck_assert_int_eq(json_object_size(row), 4);
        for (int s = 0; s < 4; s++)
            ck_assert_str_eq(str(row, names[s]), names[(s + rot) % 4]);
        /* a triangle's right angle sits at corner rot (0 NW .. 3 SW): its N on board side rot, W before it */
        const json_t *tri = json_array_get(json_object_get(c, "triangle_side_after_rot"), (size_t)rot);
        ck_assert_int_eq(json_object_size(tri), 2);
        ck_assert_str_eq(str(tri, "N"), names[rot]);
        ck_assert_str_eq(str(tri, "W"), names[(rot + 3) % 4]);
    }
    ck_assert_int_eq(json_integer_value(json_object_get(c, "side_units")), CARC_SIDE_UNITS);
    /* the same catalog gives the same bytes (the daemon's ETag relies on it) */
    char *a = json_dumps(doc, JSON_COMPACT), *b;
    json_t *again = catalog_doc();
    b = json_dumps(again, JSON_COMPACT);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    json_decref(again);
    json_decref(doc);
}
END_TEST

static Suite *catalog_json_suite(void)
{
    Suite *s = suite_create("catalog_json");
    TCase *tc = tcase_create("document");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_tile_with_its_count);
    tcase_add_test(tc, round_trip_through_the_data_format);
    tcase_add_test(tc, places_mean_their_intervals);
    tcase_add_test(tc, parts_are_what_figure_moves_name);
    tcase_add_test(tc, rotation_table_is_clockwise);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(catalog_json_suite());
}
