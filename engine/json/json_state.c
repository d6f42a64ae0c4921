/*
 * json_state.c — the game snapshot in JSON: everything in a carc_state except the derived board, for storage
 * and admins, and its strict inverse. The decoder checks every field's presence, type and range and every
 * index against what it points into, then lets carc_state_rebuild check the board itself; it is fuzzed
 * (tests/fuzz/fuzz_state_json.c).
 */
#include <stdio.h>
#include <string.h>

#include "json_priv.h"

/* ---- encoding ----------------------------------------------------------------------------------------- */
static json_t *carc_rng_to_json(const carc_rng *r)
{
    static const char hex[] = "0123456789abcdef";
    char seed[65];
    for (int i = 0; i < 32; i++) {
        seed[2 * i] = hex[r->key[i] >> 4];
        seed[2 * i + 1] = hex[r->key[i] & 15];
    }
    seed[64] = '\0';
    json_t *o = carc_jb_obj();
    carc_jb_set_str(o, "seed", seed);
    carc_jb_set_int(o, "pos", (json_int_t)r->pos);
    return o;
}

json_t *carc_state_to_json(const carc_state *st)
{
    json_t *o = carc_jb_obj();
    carc_jb_set_int(o, "version", CARC_JSON_VERSION);
    carc_jb_set_int(o, "nplayers", st->nplayers);
    carc_jb_set(o, "expansions", carc_expansions_to_json(st->expansions));
    carc_jb_set(o, "options", carc_options_to_json(st->opt));
    carc_jb_set_str(o, "status", carc_j_status_names[st->status == CARC_FINISHED]);
    carc_jb_set_int(o, "active", st->active);
    carc_jb_set_int(o, "turn", st->turn);
    carc_jb_set(o, "players", carc_jb_players(st));
    carc_jb_set(o, "rng", carc_rng_to_json(&st->rng));
    carc_jb_set(o, "stack", carc_jb_tiles(st->cat, st->stack, st->stack_len));
    carc_jb_set_int(o, "stack_pos", st->stack_pos);
    carc_jb_set(o, "discarded", carc_jb_tiles(st->cat, st->discarded, st->ndiscarded));
    json_t *pieces = carc_jb_arr();
    for (int i = 0; i < st->npieces; i++) {
        json_t *pc = carc_jb_piece(st, &st->pieces[i]);
        if (st->pieces[i].under != CARC_NO_TYPE)
            carc_jb_set_str(pc, "under", carc_jb_tile_id(st->cat, st->pieces[i].under));
        carc_jb_push(pieces, pc);
    }
    carc_jb_set(o, "pieces", pieces);
    carc_jb_set(o, "figures", carc_jb_figures(st));
    carc_jb_set(o, "pending", carc_jb_pending(st));
    json_t *tn = carc_jb_obj();
    carc_jb_set_str(tn, "phase", st->tn.phase <= CARC_PH_DRAFT ? carc_j_phase_names[st->tn.phase] : "?");
    carc_jb_set_int(tn, "piece", st->tn.piece == CARC_NO_PIECE ? -1 : st->tn.piece);
    carc_jb_set_int(tn, "figure", st->tn.figure == 0xFF ? -1 : st->tn.figure);
    carc_jb_set_int(tn, "fruit_done", st->tn.fruit_done);
    carc_jb_set(o, "turn_state", tn);
    json_t *left = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++)
        if (st->left >> s & 1)
            carc_jb_push(left, carc_jb_int(s));
    carc_jb_set(o, "left", left);
    /* each expansion in play adds its own member, named after its set */
    json_t *(*const parts[])(const carc_state *) = {carc_jx_hills_to, carc_jx_fruit_to, carc_jx_crop_to,
                                                    carc_jx_halflings_to};
    const carc_set sets[] = {CARC_SET_HILLS_SHEEP, CARC_SET_FRUIT_TREES, CARC_SET_CROP_CIRCLES, CARC_SET_HALFLINGS};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *part = carc_has(st, sets[i]) ? parts[i](st) : NULL;
        if (part)
            carc_jb_set(o, carc_set_names[sets[i]], part);
    }
    return o;
}

/* ---- decoding ----------------------------------------------------------------------------------------- */
/* Decoding state shared by the field readers below. */
typedef struct {
    carc_state *st;   /* st->cat is set first */
    char *err;
    size_t errlen;
} carc_sdec;

/* A tile id that also belongs to a set in play: an expansion of the game, or a set its option brings (the
 * river: the options are decoded before the tiles). */
static int carc_sdec_tile(carc_sdec *d, const json_t *obj, const carc_jpath *p, const char *key, uint8_t *out)
{
    CARC_TRY(carc_jr_tile(d->st->cat, obj, p, key, out, d->err, d->errlen));
    const carc_tile_type *t = &d->st->cat->types[*out];
    unsigned set = t->set;
    bool in_play = set < CARC_NSETS ? (d->st->expansions >> set & 1) != 0 : t->when >= 0 && d->st->opt[t->when];
    if (!in_play)
        return carc_jr_fail(d->err, d->errlen, p, key, "tile \"%s\" is not in the sets of this game",
                            d->st->cat->types[*out].id);
    return 0;
}

/* An array of tile ids into types[], at most CARC_MAX_TILES. */
static int carc_sdec_tiles(carc_sdec *d, const json_t *o, const char *key, uint8_t *types, uint8_t *n)
{
    const json_t *a;
    CARC_TRY(carc_jr_array(o, NULL, key, CARC_MAX_TILES, &a, d->err, d->errlen));
    carc_jpath ap = {NULL, key, 0};
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath p = {&ap, NULL, i};
        CARC_TRY(carc_sdec_tile(d, json_array_get(a, i), &p, NULL, &types[i]));
    }
    *n = (uint8_t)json_array_size(a);
    return 0;
}

static int carc_hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int carc_sdec_rng(carc_sdec *d, const json_t *o)
{
    static const char *const keys[] = {"seed", "pos", NULL};
    static const carc_jpath p = {NULL, "rng", 0};
    const json_t *r;
    const char *seed = NULL;
    json_int_t pos;
    CARC_TRY(carc_jr_object(o, NULL, "rng", keys, &r, d->err, d->errlen));
    CARC_TRY(carc_jr_str(r, &p, "seed", &seed, d->err, d->errlen));
    bool ok = strlen(seed) == 64;
    for (int i = 0; ok && i < 32; i++) {
        int hi = carc_hexval(seed[2 * i]), lo = carc_hexval(seed[2 * i + 1]);
        ok = hi >= 0 && lo >= 0;
        if (ok)
            d->st->rng.key[i] = (uint8_t)(hi << 4 | lo);
    }
    if (!ok)
        return carc_jr_fail(d->err, d->errlen, &p, "seed", "expected 64 lower-case hex digits");
    CARC_TRY(carc_jr_int(r, &p, "pos", 0, INT64_MAX, &pos, d->err, d->errlen));
    d->st->rng.pos = (uint64_t)pos;
    return 0;
}

static int carc_sdec_players(carc_sdec *d, const json_t *o)
{
    static const char *const keys[] = {"seat", "score", NULL};
    static const carc_jpath ap = {NULL, "players", 0};
    const json_t *a;
    CARC_TRY(carc_jr_array(o, NULL, "players", CARC_MAX_PLAYERS, &a, d->err, d->errlen));
    if (json_array_size(a) != d->st->nplayers)
        return carc_jr_fail(d->err, d->errlen, &ap, NULL, "expected %d entries, one per seat", d->st->nplayers);
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath p = {&ap, NULL, i};
        const json_t *pl;
        json_int_t seat, score;
        CARC_TRY(carc_jr_object(json_array_get(a, i), &p, NULL, keys, &pl, d->err, d->errlen));
        CARC_TRY(carc_jr_int(pl, &p, "seat", (json_int_t)i, (json_int_t)i, &seat, d->err, d->errlen));
        CARC_TRY(carc_jr_int(pl, &p, "score", INT32_MIN, INT32_MAX, &score, d->err, d->errlen));
        d->st->players[i].score = (int32_t)score;
    }
    return 0;
}

static int carc_sdec_pieces(carc_sdec *d, const json_t *o)
{
    static const char *const keys[] = {"tile", "x", "y", "rot", "under", NULL};
    static const carc_jpath ap = {NULL, "pieces", 0};
    const json_t *a;
    CARC_TRY(carc_jr_array(o, NULL, "pieces", CARC_MAX_PIECES, &a, d->err, d->errlen));
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath p = {&ap, NULL, i};
        carc_piece *pc = &d->st->pieces[i];
        const json_t *po;
        json_int_t x, y, rot;
        CARC_TRY(carc_jr_object(json_array_get(a, i), &p, NULL, keys, &po, d->err, d->errlen));
        CARC_TRY(carc_sdec_tile(d, po, &p, "tile", &pc->type));
        CARC_TRY(carc_jr_int(po, &p, "x", INT16_MIN, INT16_MAX, &x, d->err, d->errlen));
        CARC_TRY(carc_jr_int(po, &p, "y", INT16_MIN, INT16_MAX, &y, d->err, d->errlen));
        CARC_TRY(carc_jr_int(po, &p, "rot", 0, 3, &rot, d->err, d->errlen));
        pc->x = (int16_t)x;
        pc->y = (int16_t)y;
        pc->rot = (uint8_t)rot;
        pc->under = CARC_NO_TYPE;
        if (json_object_get(po, "under"))
            CARC_TRY(carc_sdec_tile(d, po, &p, "under", &pc->under));
    }
    d->st->npieces = (uint16_t)json_array_size(a);
    return 0;
}

/* Most figures of a kind one seat owns, given the game's options and sets. */
static int carc_figure_limit(const carc_state *st, int kind)
{
    switch (kind) {
    case CARC_FIG_MEEPLE:
        return CARC_MEEPLES;
    case CARC_FIG_ABBOT:
        return st->opt[CARC_OPT_ABBOT] ? 1 : 0;
    default:
        return st->expansions & (1u << CARC_SET_HILLS_SHEEP) ? 1 : 0;
    }
}

static int carc_sdec_figures(carc_sdec *d, const json_t *o)
{
    static const char *const keys[] = {"seat", "figure", "piece", "part", NULL};
    static const carc_jpath ap = {NULL, "figures", 0};
    const json_t *a;
    int count[CARC_MAX_PLAYERS][CARC_NFIG_KINDS] = {{0}};
    carc_state *st = d->st;
    CARC_TRY(carc_jr_array(o, NULL, "figures", CARC_MAX_FIGURES, &a, d->err, d->errlen));
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath p = {&ap, NULL, i};
        carc_figure *f = &st->figures[i];
        const json_t *fo;
        json_int_t seat, piece;
        int kind;
        CARC_TRY(carc_jr_object(json_array_get(a, i), &p, NULL, keys, &fo, d->err, d->errlen));
        CARC_TRY(carc_jr_int(fo, &p, "seat", 0, st->nplayers - 1, &seat, d->err, d->errlen));
        CARC_TRY(carc_jr_enum(fo, &p, "figure", carc_j_fig_names, CARC_NFIG_KINDS, &kind, d->err, d->errlen));
        if (++count[seat][kind] > carc_figure_limit(st, kind))
            return carc_jr_fail(d->err, d->errlen, &p, "figure", "seat %d has only %d %s%s in this game",
                                (int)seat, carc_figure_limit(st, kind), carc_j_fig_names[kind],
                                carc_figure_limit(st, kind) == 1 ? "" : "s");
        if (st->npieces == 0)
            return carc_jr_fail(d->err, d->errlen, &p, "piece", "no pieces to stand on");
        CARC_TRY(carc_jr_int(fo, &p, "piece", 0, st->npieces - 1, &piece, d->err, d->errlen));
        CARC_TRY(carc_jr_part(d->st->cat, st->pieces[piece].type, fo, &p, "part", &f->part, d->err, d->errlen));
        f->seat = (uint8_t)seat;
        f->kind = (uint8_t)kind;
        f->piece = (uint8_t)piece;
    }
    st->nfigures = (uint8_t)json_array_size(a);
    return 0;
}

static int carc_sdec_pending(carc_sdec *d, const json_t *o)
{
    /* the members each kind uses; any other is an error, so that one state has one encoding */
    static const char *const any[] = {"kind", "seat", "tile", "piece", NULL};
    static const char *const none_keys[] = {"kind", NULL};
    static const char *const place_keys[] = {"kind", "seat", "tile", NULL};
    static const char *const figure_keys[] = {"kind", "seat", "piece", NULL};
    static const char *const seat_only[] = {"kind", "seat", NULL};
    const char *const *const keys[CARC_NPENDING] = {
        [CARC_PENDING_NONE] = none_keys,
        [CARC_PENDING_PLACE] = place_keys,
        [CARC_PENDING_FIGURE] = figure_keys,
        [CARC_PENDING_DRAW_OR_TRIANGLE] = seat_only, [CARC_PENDING_FRUIT] = seat_only,
        [CARC_PENDING_FLOCK] = seat_only, [CARC_PENDING_CC_CHOICE] = seat_only,
        [CARC_PENDING_CC_ACTION] = seat_only, [CARC_PENDING_DRAFT] = seat_only,
    };
    static const carc_jpath p = {NULL, "pending", 0};
    carc_state *st = d->st;
    carc_pending *pd = &st->pending;
    const json_t *po;
    json_int_t seat, piece;
    int kind;
    CARC_TRY(carc_jr_object(o, NULL, "pending", any, &po, d->err, d->errlen));
    CARC_TRY(carc_jr_enum(po, &p, "kind", carc_j_pending_names, CARC_NPENDING, &kind, d->err, d->errlen));
    CARC_TRY(carc_jr_object(o, NULL, "pending", keys[kind], &po, d->err, d->errlen));
    pd->kind = (uint8_t)kind;
    pd->seat = 0;
    pd->tile = CARC_NO_TYPE;
    pd->piece = CARC_NO_PIECE;
    if ((kind == CARC_PENDING_NONE) != (st->status == CARC_FINISHED))
        return carc_jr_fail(d->err, d->errlen, &p, "kind", "must be \"none\" exactly when the game is finished");
    if (kind == CARC_PENDING_NONE)
        return 0;
    CARC_TRY(carc_jr_int(po, &p, "seat", 0, st->nplayers - 1, &seat, d->err, d->errlen));
    pd->seat = (uint8_t)seat;
    if (kind == CARC_PENDING_PLACE)
        return carc_sdec_tile(d, po, &p, "tile", &pd->tile);
    if (kind != CARC_PENDING_FIGURE)
        return 0;
    if (st->npieces == 0)
        return carc_jr_fail(d->err, d->errlen, &p, "piece", "no piece was placed");
    CARC_TRY(carc_jr_int(po, &p, "piece", 0, st->npieces - 1, &piece, d->err, d->errlen));
    pd->piece = (uint8_t)piece;
    return 0;
}

static int carc_sdec_turn_state(carc_sdec *d, const json_t *o)
{
    static const char *const keys[] = {"phase", "piece", "figure", "fruit_done", NULL};
    static const carc_jpath p = {NULL, "turn_state", 0};
    carc_state *st = d->st;
    const json_t *to;
    int phase;
    json_int_t piece, figure, fruit;
    CARC_TRY(carc_jr_object(o, NULL, "turn_state", keys, &to, d->err, d->errlen));
    CARC_TRY(carc_jr_enum(to, &p, "phase", carc_j_phase_names, CARC_PH_DRAFT + 1, &phase, d->err, d->errlen));
    CARC_TRY(carc_jr_int(to, &p, "piece", -1, st->npieces - 1, &piece, d->err, d->errlen));
    CARC_TRY(carc_jr_int(to, &p, "figure", -1, CARC_NFIG_KINDS - 1, &figure, d->err, d->errlen));
    CARC_TRY(carc_jr_int(to, &p, "fruit_done", 0, (1 << CARC_FRUIT_TYPES) - 1, &fruit, d->err, d->errlen));
    st->tn.phase = (uint8_t)phase;
    st->tn.piece = piece < 0 ? CARC_NO_PIECE : (uint8_t)piece;
    st->tn.figure = figure < 0 ? 0xFF : (uint8_t)figure;
    st->tn.fruit_done = (uint8_t)fruit;
    return 0;
}

static int carc_sdec_left(carc_sdec *d, const json_t *o)
{
    static const carc_jpath p = {NULL, "left", 0};
    const json_t *a;
    CARC_TRY(carc_jr_array(o, NULL, "left", CARC_MAX_PLAYERS, &a, d->err, d->errlen));
    for (size_t i = 0; i < json_array_size(a); i++) {
        const carc_jpath pi = {&p, NULL, i};
        json_int_t seat;
        CARC_TRY(carc_jr_int(json_array_get(a, i), &pi, NULL, 0, d->st->nplayers - 1, &seat, d->err, d->errlen));
        d->st->left |= (uint8_t)(1u << seat);
    }
    return 0;
}

int carc_state_from_json(carc_state *st, const carc_catalog *cat, const json_t *j, char *err, size_t errlen)
{
    static const char *const keys[] = {
        "version", "nplayers", "expansions", "options", "status", "active", "turn", "players", "rng",
        "stack", "stack_pos", "discarded", "pieces", "figures", "pending", "turn_state", "left",
        "hills_sheep", "fruit_trees", "crop_circles", "halflings", NULL,
    };
    carc_sdec d = {st, err, errlen};
    const json_t *o;
    json_int_t v;
    int status;

    memset(st, 0, sizeof *st);
    st->cat = cat;
    CARC_TRY(carc_jr_object(j, NULL, NULL, keys, &o, err, errlen));
    CARC_TRY(carc_jr_int(o, NULL, "version", CARC_JSON_VERSION, CARC_JSON_VERSION, &v, err, errlen));
    CARC_TRY(carc_jr_int(o, NULL, "nplayers", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS, &v, err, errlen));
    st->nplayers = (uint8_t)v;
    if (!json_object_get(o, "expansions"))
        return carc_jr_fail(err, errlen, NULL, "expansions", "missing field");
    CARC_TRY(carc_expansions_from_json(&st->expansions, json_object_get(o, "expansions"), err, errlen));
    if (!json_object_get(o, "options"))
        return carc_jr_fail(err, errlen, NULL, "options", "missing field");
    CARC_TRY(carc_options_from_json(st->opt, json_object_get(o, "options"), false, err, errlen));
    CARC_TRY(carc_jr_enum(o, NULL, "status", carc_j_status_names, 2, &status, err, errlen));
    st->status = (uint8_t)status;
    CARC_TRY(carc_jr_int(o, NULL, "active", 0, st->nplayers - 1, &v, err, errlen));
    st->active = (uint8_t)v;
    CARC_TRY(carc_jr_int(o, NULL, "turn", 0, UINT16_MAX, &v, err, errlen));
    st->turn = (uint16_t)v;
    CARC_TRY(carc_sdec_players(&d, o));
    CARC_TRY(carc_sdec_rng(&d, o));
    CARC_TRY(carc_sdec_tiles(&d, o, "stack", st->stack, &st->stack_len));
    CARC_TRY(carc_jr_int(o, NULL, "stack_pos", 0, st->stack_len, &v, err, errlen));
    st->stack_pos = (uint8_t)v;
    CARC_TRY(carc_sdec_tiles(&d, o, "discarded", st->discarded, &st->ndiscarded));
    CARC_TRY(carc_sdec_pieces(&d, o));
    CARC_TRY(carc_sdec_figures(&d, o));
    CARC_TRY(carc_sdec_pending(&d, o));
    CARC_TRY(carc_sdec_turn_state(&d, o));
    CARC_TRY(carc_sdec_left(&d, o));
    int (*const parts[])(carc_state *, const json_t *, char *, size_t) = {
        carc_jx_hills_from, carc_jx_fruit_from, carc_jx_crop_from, carc_jx_halflings_from};
    const carc_set sets[] = {CARC_SET_HILLS_SHEEP, CARC_SET_FRUIT_TREES, CARC_SET_CROP_CIRCLES, CARC_SET_HALFLINGS};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const char *name = carc_set_names[sets[i]];
        if (!carc_has(st, sets[i]) && json_object_get(o, name))
            return carc_jr_fail(err, errlen, NULL, name, "present but the expansion is not in play");
        if (carc_has(st, sets[i]))
            CARC_TRY(parts[i](st, o, err, errlen));
    }
    return carc_state_rebuild(st, err, errlen);
}
