/*
 * json_halflings.c — the JSON of the halflings expansion: its member of snapshots, what views show of it, its moves'
 * and events' members (hooks declared in json_priv.h), and the admin's script.hands.
 *
 *   snapshot  "halflings": {"hands": [["HW01","HW08"], ...one per seat], "pool": ["HW03", ...], "draft_step": 0}
 *   views     "halflings": {"hand_sizes": [2, 2], "pool": [...]} plus "hands" when the option is `draft`
 *             (everyone saw the picks); a seat's own hand is in its "you" object: "you": {"hand": [...]}
 *   moves     {"type": "draw"}, {"type": "draft", "tile": "HW03"}; a triangle is a "place" with rot = corner
 *   events    triangle_dealt / triangle_drafted {"seat", "tile"} (who sees them: json_event.c)
 *
 * A hand dealt at random is private: no view but its owner's and the admin's, and no event but the
 * owner's and the admin's, ever names its triangles; only its size is public.
 */
#include <stdio.h>
#include <string.h>

#include "json_priv.h"

/* Whether hands are public: in a draft everyone saw every pick. */
static bool hands_public(const carc_state *st) { return st->opt[CARC_OPT_HALFLINGS_DEAL] == 1; }

json_t *carc_jx_halflings_to(const carc_state *st)
{
    json_t *o = carc_jb_obj();
    json_t *hands = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++)
        carc_jb_push(hands, carc_jb_tiles(st->cat, st->half.hand[s], st->half.hand_n[s]));
    carc_jb_set(o, "hands", hands);
    carc_jb_set(o, "pool", carc_jb_tiles(st->cat, st->half.pool, st->half.pool_n));
    carc_jb_set_int(o, "draft_step", st->half.draft_step);
    return o;
}

/* A triangle of this game's sets; counts its copies in used[] against the catalog's count. */
static int read_triangle(carc_state *st, const json_t *v, const carc_jpath *p, int used[CARC_MAX_TYPES], uint8_t *out,
                         char *err, size_t errlen)
{
    CARC_TRY(carc_jr_tile(st->cat, v, p, NULL, out, err, errlen));
    const carc_tile_type *t = &st->cat->types[*out];
    if (t->shape != CARC_TRIANGLE || !carc_has(st, (carc_set)t->set))
        return carc_jr_fail(err, errlen, p, NULL, "\"%s\" is not a triangle of this game", t->id);
    if (++used[*out] > t->count)
        return carc_jr_fail(err, errlen, p, NULL, "triangle \"%s\" is already elsewhere", t->id);
    return 0;
}

int carc_jx_halflings_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen)
{
    static const char *const keys[] = {"hands", "pool", "draft_step", NULL};
    static const carc_jpath root = {NULL, "halflings", 0};
    static const carc_jpath hp = {&root, "hands", 0}, pp = {&root, "pool", 0};
    carc_halflings *h = &st->half;
    const json_t *o, *hands, *pool;
    json_int_t step;
    int used[CARC_MAX_TYPES] = {0};
    memset(h, 0, sizeof *h);
    for (int i = 0; i < st->npieces; i++)   /* a triangle on the board is in no hand */
        if (st->pieces[i].type < st->cat->ntypes)
            used[st->pieces[i].type]++;
    CARC_TRY(carc_jr_object(snapshot, NULL, "halflings", keys, &o, err, errlen));
    CARC_TRY(carc_jr_array(o, &root, "hands", CARC_MAX_PLAYERS, &hands, err, errlen));
    if (json_array_size(hands) != st->nplayers)
        return carc_jr_fail(err, errlen, &hp, NULL, "expected %d entries, one per seat", st->nplayers);
    for (size_t s = 0; s < json_array_size(hands); s++) {
        carc_jpath sp = {&hp, NULL, s};
        const json_t *hand;
        CARC_TRY(carc_jr_array(json_array_get(hands, s), &sp, NULL, CARC_MAX_HAND, &hand, err, errlen));
        for (size_t i = 0; i < json_array_size(hand); i++) {
            carc_jpath ip = {&sp, NULL, i};
            CARC_TRY(read_triangle(st, json_array_get(hand, i), &ip, used, &h->hand[s][i], err, errlen));
        }
        h->hand_n[s] = (uint8_t)json_array_size(hand);
    }
    CARC_TRY(carc_jr_array(o, &root, "pool", CARC_MAX_HAND, &pool, err, errlen));
    if (json_array_size(pool) > 0 && !hands_public(st))
        return carc_jr_fail(err, errlen, &pp, NULL, "must be empty unless halflings_deal is draft");
    for (size_t i = 0; i < json_array_size(pool); i++) {
        carc_jpath ip = {&pp, NULL, i};
        CARC_TRY(read_triangle(st, json_array_get(pool, i), &ip, used, &h->pool[i], err, errlen));
    }
    h->pool_n = (uint8_t)json_array_size(pool);
    CARC_TRY(carc_jr_int(o, &root, "draft_step", 0, 2 * st->nplayers, &step, err, errlen));
    h->draft_step = (uint8_t)step;
    return 0;
}

void carc_jv_halflings(json_t *view, const carc_state *st, int viewer)
{
    if (!carc_has(st, CARC_SET_HALFLINGS))
        return;
    json_t *o = carc_jb_obj();
    json_t *sizes = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++)
        carc_jb_push(sizes, carc_jb_int(st->half.hand_n[s]));
    carc_jb_set(o, "hand_sizes", sizes);
    carc_jb_set(o, "pool", carc_jb_tiles(st->cat, st->half.pool, st->half.pool_n));
    if (hands_public(st)) {
        json_t *hands = carc_jb_arr();
        for (int s = 0; s < st->nplayers; s++)
            carc_jb_push(hands, carc_jb_tiles(st->cat, st->half.hand[s], st->half.hand_n[s]));
        carc_jb_set(o, "hands", hands);
    }
    carc_jb_set(view, "halflings", o);
    if (viewer >= 0 && viewer < st->nplayers) {   /* the seat's own hand, in its "you" object */
        json_t *you = json_object_get(view, "you");
        if (!you) {
            you = carc_jb_obj();
            carc_jb_set(view, "you", you);
        }
        carc_jb_set(you, "hand", carc_jb_tiles(st->cat, st->half.hand[viewer], st->half.hand_n[viewer]));
    }
}

bool carc_jm_halflings_to(const carc_state *st, const carc_move *m, json_t *o)
{
    if (m->kind == CARC_MV_DRAW)
        return true;
    if (m->kind != CARC_MV_DRAFT || m->tile >= st->cat->ntypes)
        return false;
    carc_jb_set_str(o, "tile", st->cat->types[m->tile].id);
    return true;
}

int carc_jm_halflings_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen)
{
    static const char *const draw_keys[] = {"type", NULL};
    static const char *const draft_keys[] = {"type", "tile", NULL};
    const json_t *checked;
    CARC_TRY(carc_jr_object(o, NULL, NULL, m->kind == CARC_MV_DRAW ? draw_keys : draft_keys, &checked, err, errlen));
    if (m->kind == CARC_MV_DRAFT)
        CARC_TRY(carc_jr_tile(st->cat, checked, NULL, "tile", &m->tile, err, errlen));
    return 0;
}

void carc_je_halflings(const carc_state *st, const carc_event *e, json_t *o)
{
    carc_jb_set_int(o, "seat", e->seat);
    carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, e->tile));
}

int carc_script_hands_from_json(const carc_catalog *cat, const json_t *j, carc_setup *s, char *err, size_t errlen)
{
    static const carc_jpath root = {NULL, "script", 0};
    static const carc_jpath hp = {&root, "hands", 0};
    const json_t *hands;
    CARC_TRY(carc_jr_array(j, &hp, NULL, CARC_MAX_PLAYERS, &hands, err, errlen));
    if (json_array_size(hands) != (size_t)s->nplayers)
        return carc_jr_fail(err, errlen, &hp, NULL, "expected %d entries, one per seat", s->nplayers);
    for (size_t seat = 0; seat < json_array_size(hands); seat++) {
        carc_jpath sp = {&hp, NULL, seat};
        const json_t *hand;
        CARC_TRY(carc_jr_array(json_array_get(hands, seat), &sp, NULL, CARC_MAX_HAND, &hand, err, errlen));
        for (size_t i = 0; i < json_array_size(hand); i++) {
            carc_jpath ip = {&sp, NULL, i};
            CARC_TRY(carc_jr_tile(cat, json_array_get(hand, i), &ip, NULL, &s->hand[seat][i], err, errlen));
        }
        s->hand_n[seat] = (uint8_t)json_array_size(hand);
    }
    s->hands_scripted = 1;
    return 0;
}
