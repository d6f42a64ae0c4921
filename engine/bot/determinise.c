/*
 * determinise.c — a state a bot may think on: everything `seat` may know of the real one, and the rest
 * sampled from what that seat has not seen (bot.h: "Fairness").
 *
 * What is hidden, and what takes its place (each is rebuilt from public parts only; the hidden part of the
 * real state is overwritten, never read):
 *   - the stack's order and the tiles under hills: this game's tiles (the catalog, the expansions and the
 *     options decide them, as game.c's set-up does) minus every tile on the board, discarded or drawn,
 *     shuffled; the tiles under hills come first, then the stack, whose length is public. A scripted game
 *     whose stack is not the whole set may leave too few unseen tiles: the rest are drawn from the types of
 *     the set;
 *   - the sheep bag: the full bag minus the tokens in flocks (that is exactly what it holds), no script;
 *   - fruit on trees: each tree's tokens are a sample of the values 2..5 of its fruit that nobody holds;
 *   - other seats' triangles (random deal): a sample, of the sizes their hands have, of this game's
 *     triangles that are in no hand `seat` sees and not on the board;
 *   - the game's generator: keyed from the bot's.
 * Cost: one state copy and a pass over the catalog and the pieces, O(tiles).
 */
#include <string.h>

#include "bot/bot.h"
#include "expansions.h"

static bool type_in_game(const carc_state *st, const carc_tile_type *t)
{
    return (t->set >= CARC_NSETS || st->expansions >> t->set & 1) && (t->when < 0 || st->opt[t->when] != 0);
}

/* Copies of each type of `shape` in this game; variants replace their originals (game.c's tile_pool). */
static void pool(const carc_state *st, int shape, int count[CARC_MAX_TYPES])
{
    const carc_catalog *cat = st->cat;
    memset(count, 0, sizeof(int) * CARC_MAX_TYPES);
    for (int i = 0; i < cat->ntypes; i++)
        if (type_in_game(st, &cat->types[i]) && cat->types[i].shape == shape)
            count[i] += cat->types[i].count;
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (count[i] && t->replaces != CARC_NO_TYPE)
            count[t->replaces] -= t->count;
    }
}

/* Takes one of type t out of count (a tile seen); false when the count is already 0 (a scripted set). */
static void seen(int count[CARC_MAX_TYPES], int t)
{
    if (t < CARC_MAX_TYPES && count[t] > 0)
        count[t]--;
}

static int expand(const int count[CARC_MAX_TYPES], int ntypes, uint8_t *out, int cap)
{
    int n = 0;
    for (int t = 0; t < ntypes; t++)
        for (int k = 0; k < count[t] && n < cap; k++)
            out[n++] = (uint8_t)t;
    return n;
}

static void squares(const carc_state *st, carc_rng *r, carc_state *o)
{
    int count[CARC_MAX_TYPES];
    pool(st, CARC_SQUARE, count);
    int kinds[CARC_MAX_TYPES], nkinds = 0;   /* the set's types, for a scripted game's shortfall */
    for (int t = 0; t < st->cat->ntypes; t++)
        if (count[t] > 0)
            kinds[nkinds++] = t;
    int nunder = 0;
    for (int p = 0; p < st->npieces; p++) {
        if (st->cat->types[st->pieces[p].type].shape == CARC_SQUARE)
            seen(count, st->pieces[p].type);
        nunder += st->pieces[p].under != CARC_NO_TYPE;
    }
    for (int i = 0; i < st->ndiscarded; i++)
        seen(count, st->discarded[i]);
    if (st->pending.kind == CARC_PENDING_PLACE && st->cat->types[st->pending.tile].shape == CARC_SQUARE)
        seen(count, st->pending.tile);

    uint8_t unseen[CARC_MAX_TILES * 2];
    int n = expand(count, st->cat->ntypes, unseen, (int)sizeof unseen);
    int need = (st->stack_len - st->stack_pos) + nunder;
    while (n < need && nkinds > 0)
        unseen[n++] = (uint8_t)kinds[carc_rng_below(r, (uint32_t)nkinds)];
    carc_rng_shuffle(r, unseen, (size_t)n);
    /* the river's tiles still unseen are drawn first, the lake last of them (game.c's set-up), and none lies
     * under a hill: order them so, keeping the shuffle within each rank (without the river, a no-op) */
    uint8_t ord[CARC_MAX_TILES * 2];
    int m = 0;
    for (int rank = 0; rank < 3; rank++)
        for (int i = 0; i < n; i++)
            if (carc_river_rank(&st->cat->types[unseen[i]]) == rank)
                ord[m++] = unseen[i];
    int river = 0;
    while (river < m && carc_river_rank(&st->cat->types[ord[river]]) < 2)
        river++;
    int k = river;   /* hills take ordinary tiles, from after the river */
    for (int p = 0; p < st->npieces; p++)
        if (o->pieces[p].under != CARC_NO_TYPE)
            o->pieces[p].under = ord[k++];
    /* the tiles drawn already are history the engine never reads again; they get no real value either */
    for (int i = 0; i < o->stack_pos; i++)
        o->stack[i] = o->pieces[0].type;
    for (int i = o->stack_pos, j = 0; i < o->stack_len; i++)
        o->stack[i] = j < river ? ord[j++] : ord[k++];
}

static void bag(const carc_state *st, carc_state *o)
{
    if (!carc_has(st, CARC_SET_HILLS_SHEEP))
        return;
    static const uint8_t full[5] = {2, 4, 5, 5, 2};   /* wolves, then 1..4 sheep (check.c) */
    int count[5];
    for (int v = 0; v < 5; v++)
        count[v] = full[v];
    for (int s = 0; s < st->nplayers; s++)
        for (int i = 0; i < st->hills.flock_n[s]; i++)
            if (st->hills.flock[s][i] <= 4 && count[st->hills.flock[s][i]] > 0)
                count[st->hills.flock[s][i]]--;
    carc_hills *h = &o->hills;
    memset(h->bag, 0, sizeof h->bag);
    h->bag_n = 0;
    for (int v = 0; v < 5; v++)
        for (int k = 0; k < count[v]; k++)
            h->bag[h->bag_n++] = (uint8_t)v;
    h->script_n = h->script_pos = 0;
    memset(h->script, 0, sizeof h->script);
}

static void fruit(const carc_state *st, carc_rng *r, carc_state *o)
{
    const carc_fruit *f = &st->fruit;
    memset(o->fruit.stack, 0, sizeof o->fruit.stack);
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        unsigned gone = 0;   /* values of fruit t somebody holds */
        for (int s = 0; s < st->nplayers; s++)
            for (int i = 0; i < f->held_n[s]; i++)
                if (f->held[s][i] >> 4 == t)
                    gone |= 1u << (f->held[s][i] & 15);
        uint8_t vals[CARC_FRUIT_STACK];
        int n = 0;
        for (int v = 2; v < 2 + CARC_FRUIT_STACK; v++)
            if (!(gone >> v & 1))
                vals[n++] = (uint8_t)v;
        carc_rng_shuffle(r, vals, (size_t)n);
        int want = t < f->ntrees ? f->tree_n[t] : CARC_FRUIT_STACK;
        for (int k = 0; k < want && k < CARC_FRUIT_STACK; k++)
            o->fruit.stack[t][k] = k < n ? vals[k] : (uint8_t)(2 + carc_rng_below(r, CARC_FRUIT_STACK));
    }
}

static void hands(const carc_state *st, int seat, carc_rng *r, carc_state *o)
{
    /* a draft deals face up: every hand is public */
    if (!carc_has(st, CARC_SET_HALFLINGS) || st->opt[CARC_OPT_HALFLINGS_DEAL] == 1)
        return;
    int count[CARC_MAX_TYPES];
    pool(st, CARC_TRIANGLE, count);
    for (int p = 0; p < st->npieces; p++)
        if (st->cat->types[st->pieces[p].type].shape == CARC_TRIANGLE)
            seen(count, st->pieces[p].type);
    for (int i = 0; i < st->half.hand_n[seat]; i++)
        seen(count, st->half.hand[seat][i]);
    uint8_t unseen[CARC_MAX_TILES];
    int n = expand(count, st->cat->ntypes, unseen, (int)sizeof unseen);
    carc_rng_shuffle(r, unseen, (size_t)n);
    int k = 0;
    for (int s = 0; s < st->nplayers; s++) {
        if (s == seat)
            continue;
        uint8_t *h = o->half.hand[s];
        int hn = st->half.hand_n[s];
        memset(h, 0, CARC_MAX_HAND);
        int got = 0;
        for (; got < hn && k < n; got++)
            h[got] = unseen[k++];
        o->half.hand_n[s] = (uint8_t)got;   /* fewer only when the deal was scripted past the set */
    }
}

void carc_bot_determinise(const carc_state *st, int seat, carc_rng *r, carc_state *out)
{
    *out = *st;
    uint8_t key[32];
    for (int i = 0; i < 8; i++) {
        uint32_t w = carc_rng_u32(r);
        memcpy(key + 4 * i, &w, 4);
    }
    carc_rng_seed(&out->rng, key);
    squares(st, r, out);
    bag(st, out);
    fruit(st, r, out);
    hands(st, seat, r, out);
}
