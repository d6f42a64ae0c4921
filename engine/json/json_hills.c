/*
 * json_hills.c — the JSON of the hills_sheep expansion: its member of snapshots, what views show of it, its moves'
 * and events' members (hooks declared in json_priv.h).
 *
 * A token is 1..4 (sheep on it) or "wolf", everywhere (snapshot, views, events, the admin's script.sheep).
 *
 *   snapshot  "hills_sheep": {"bag": [...], "flocks": [[...], ...], "script": [...], "script_pos": n}
 *             the bag's contents (sorted) and the script are hidden: admins only (the admin view is the
 *             snapshot); the tiles under hills are the pieces' "under" (json_state.c)
 *   view      "hills_sheep": {"bag_left": n, "flocks": [[...], ...]}: the bag's count and every seat's flock
 *   moves     {"type":"grow"}, {"type":"stable"}
 *   events    hill_covered {x, y, tile} (no seat: everyone but admins sees it without "tile", json_event.c),
 *             token_drawn {seat, token, x, y}, flock_scattered {seat, x, y} (public)
 */
#include <string.h>

#include "json_priv.h"

static const uint8_t carc_hills_full[5] = {2, 4, 5, 5, 2};   /* wolves, then 1..4 sheep */

static json_t *carc_token_json(uint8_t v)
{
    return v == CARC_WOLF ? carc_jb_str("wolf") : carc_jb_int(v);
}

static json_t *carc_tokens_json(const uint8_t *v, int n)
{
    json_t *a = carc_jb_arr();
    for (int i = 0; i < n; i++)
        carc_jb_push(a, carc_token_json(v[i]));
    return a;
}

static json_t *carc_flocks_json(const carc_state *st)
{
    json_t *a = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++)
        carc_jb_push(a, carc_tokens_json(st->hills.flock[s], st->hills.flock_n[s]));
    return a;
}

json_t *carc_jx_hills_to(const carc_state *st)
{
    const carc_hills *h = &st->hills;
    json_t *o = carc_jb_obj();
    carc_jb_set(o, "bag", carc_tokens_json(h->bag, h->bag_n));
    carc_jb_set(o, "flocks", carc_flocks_json(st));
    carc_jb_set(o, "script", carc_tokens_json(h->script, h->script_n));
    carc_jb_set_int(o, "script_pos", h->script_pos);
    return o;
}

/* One token: 1..4 or "wolf". */
static int carc_token_read(const json_t *v, const carc_jpath *p, uint8_t *out, char *err, size_t errlen)
{
    if (json_is_string(v) && strcmp(json_string_value(v), "wolf") == 0 && json_string_length(v) == 4) {
        *out = CARC_WOLF;
        return 0;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 4) {
        *out = (uint8_t)json_integer_value(v);
        return 0;
    }
    return carc_jr_fail(err, errlen, p, NULL, "expected a token: 1 to 4 or \"wolf\"");
}

/* An array of at most max tokens at path p.key. */
static int carc_tokens_read(const json_t *o, const carc_jpath *p, const char *key, size_t max, uint8_t *out,
                            uint8_t *n, char *err, size_t errlen)
{
    const json_t *a;
    CARC_TRY(carc_jr_array(o, p, key, max, &a, err, errlen));
    carc_jpath ap = {p, key, 0};
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath ip = {key ? &ap : p, NULL, i};
        CARC_TRY(carc_token_read(json_array_get(a, i), &ip, &out[i], err, errlen));
    }
    *n = (uint8_t)json_array_size(a);
    return 0;
}

int carc_jx_hills_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen)
{
    static const char *const keys[] = {"bag", "flocks", "script", "script_pos", NULL};
    static const carc_jpath root = {NULL, "hills_sheep", 0};
    carc_hills *h = &st->hills;
    const json_t *o, *flocks;
    json_int_t pos;
    memset(h, 0, sizeof *h);
    CARC_TRY(carc_jr_object(snapshot, NULL, "hills_sheep", keys, &o, err, errlen));
    CARC_TRY(carc_tokens_read(o, &root, "bag", CARC_BAG_TOKENS, h->bag, &h->bag_n, err, errlen));
    /* one bag, one representation: sorted, as the engine keeps it */
    for (int i = 1; i < h->bag_n; i++)
        for (int k = i; k > 0 && h->bag[k - 1] > h->bag[k]; k--) {
            uint8_t t = h->bag[k];
            h->bag[k] = h->bag[k - 1];
            h->bag[k - 1] = t;
        }
    CARC_TRY(carc_jr_array(o, &root, "flocks", CARC_MAX_PLAYERS, &flocks, err, errlen));
    carc_jpath fp = {&root, "flocks", 0};
    if (json_array_size(flocks) != st->nplayers)
        return carc_jr_fail(err, errlen, &fp, NULL, "expected %d entries, one per seat", st->nplayers);
    int count[5] = {0};
    for (int i = 0; i < h->bag_n; i++)
        count[h->bag[i]]++;
    for (int s = 0; s < st->nplayers; s++) {
        carc_jpath sp = {&fp, NULL, (size_t)s};
        CARC_TRY(carc_tokens_read(json_array_get(flocks, (size_t)s), &sp, NULL, CARC_BAG_TOKENS, h->flock[s],
                                  &h->flock_n[s], err, errlen));
        bool shepherd = false;
        for (int i = 0; i < st->nfigures; i++)
            shepherd |= st->figures[i].seat == s && st->figures[i].kind == CARC_FIG_SHEPHERD;
        if (shepherd != (h->flock_n[s] > 0))
            return carc_jr_fail(err, errlen, &sp, NULL, "a seat has a flock exactly when its shepherd is on the board");
        for (int i = 0; i < h->flock_n[s]; i++) {
            if (h->flock[s][i] == CARC_WOLF) {
                carc_jpath tp = {&sp, NULL, (size_t)i};
                return carc_jr_fail(err, errlen, &tp, NULL, "a wolf never stays in a flock");
            }
            count[h->flock[s][i]]++;
        }
    }
    for (int v = 0; v < 5; v++)
        if (count[v] != carc_hills_full[v])
            return carc_jr_fail(err, errlen, &root, "bag",
                                "the bag and the flocks must hold the 18 tokens exactly (4x1, 5x2, 5x3, 2x4, 2 wolves)");
    CARC_TRY(carc_tokens_read(o, &root, "script", CARC_MAX_SCRIPT, h->script, &h->script_n, err, errlen));
    CARC_TRY(carc_jr_int(o, &root, "script_pos", 0, h->script_n, &pos, err, errlen));
    h->script_pos = (uint8_t)pos;
    return 0;
}

void carc_jv_hills(json_t *view, const carc_state *st, int viewer)
{
    (void)viewer;   /* the same for every seat and the public: the bag's count and the flocks */
    if (!carc_has(st, CARC_SET_HILLS_SHEEP))
        return;
    json_t *o = carc_jb_obj();
    carc_jb_set_int(o, "bag_left", st->hills.bag_n);
    carc_jb_set(o, "flocks", carc_flocks_json(st));
    carc_jb_set(view, "hills_sheep", o);
}

bool carc_jm_hills_to(const carc_state *st, const carc_move *m, json_t *o)
{
    (void)st, (void)o;
    return m->kind == CARC_MV_GROW || m->kind == CARC_MV_STABLE;   /* "type" says it all */
}

int carc_jm_hills_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen)
{
    static const char *const keys[] = {"type", NULL};
    const json_t *checked;
    (void)st, (void)m;
    return carc_jr_object(o, NULL, NULL, keys, &checked, err, errlen);
}

void carc_je_hills(const carc_state *st, const carc_event *e, json_t *o)
{
    switch (e->kind) {
    case CARC_EV_HILL_COVERED:
        /* no "seat": json_event.c's row then hides "tile" from every seat, the placing one included */
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, e->tile));
        break;
    case CARC_EV_TOKEN_DRAWN:
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set(o, "token", carc_token_json((uint8_t)e->value));
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        break;
    default:   /* CARC_EV_FLOCK_SCATTERED */
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        break;
    }
}

int carc_script_sheep_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen)
{
    static const carc_jpath root = {NULL, "script", 0};
    static const carc_jpath sp = {&root, "sheep", 0};
    uint8_t n = 0;
    CARC_TRY(carc_tokens_read(j, &sp, NULL, CARC_MAX_SCRIPT, s->sheep, &n, err, errlen));
    s->nsheep = n;
    return 0;
}
