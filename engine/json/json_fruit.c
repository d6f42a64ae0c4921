/*
 * json_fruit.c — the JSON of the fruit_trees expansion: its member of snapshots, what views show of it, its
 * moves' and events' members (hooks declared in json_priv.h), and the admin's "script.fruit".
 *
 *   snapshot  "fruit_trees": {"trees": [{"fruit": "quince", "piece": 7}, ...],
 *                             "stacks": [[5, 2], [4, 2, 5, 3], ...],
 *                             "held": [[{"fruit": "apple", "value": 3}, ...], ...one array per seat]}
 *             tree i carries fruit i; "stacks" has one entry per fruit type, top first: what is still on
 *             its tree, or all four tokens while no tree carries it yet (hidden: admins only)
 *   view      "fruit_trees": {"trees": [{"fruit", "x", "y", "left"}], "held": [[{"fruit", "value"}], ...]}
 *             the count left per tree and every seat's tokens (harvested values are public), never a
 *             value still on a tree
 *   moves     {"type": "harvest", "x", "y"} (the tree's space) · {"type": "sell", "fruits": ["apple", ...]}
 *   events    tree_stocked {seat, x, y, fruit} · harvested {seat, fruit, value, x, y} ·
 *             sold {seat, fruits, points}
 */
#include <stdio.h>
#include <string.h>

#include "expansions.h"
#include "json_priv.h"

static const char *fruit_name(unsigned t)
{
    return t < CARC_FRUIT_TYPES ? carc_fruit_names[t] : "?";
}

static json_t *fruit_list(unsigned set)
{
    json_t *a = carc_jb_arr();
    for (unsigned t = 0; t < CARC_FRUIT_TYPES; t++)
        if (set >> t & 1)
            carc_jb_push(a, carc_jb_str(carc_fruit_names[t]));
    return a;
}

/* Every seat's held tokens: [[{"fruit","value"}, ...], ...] (public). */
static json_t *held_to_json(const carc_state *st)
{
    json_t *a = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++) {
        json_t *h = carc_jb_arr();
        for (int i = 0; i < st->fruit.held_n[s]; i++) {
            json_t *tok = carc_jb_obj();
            carc_jb_set_str(tok, "fruit", fruit_name(st->fruit.held[s][i] >> 4));
            carc_jb_set_int(tok, "value", st->fruit.held[s][i] & 15);
            carc_jb_push(h, tok);
        }
        carc_jb_push(a, h);
    }
    return a;
}

/* ---- snapshot ----------------------------------------------------------------------------------------- */
/* Tokens in fruit t's stack: on its tree once placed, all four before. */
static int stack_len(const carc_fruit *f, int t)
{
    if (t >= f->ntrees)
        return CARC_FRUIT_STACK;
    return f->tree_n[t] <= CARC_FRUIT_STACK ? f->tree_n[t] : CARC_FRUIT_STACK;
}

json_t *carc_jx_fruit_to(const carc_state *st)
{
    const carc_fruit *f = &st->fruit;
    json_t *o = carc_jb_obj(), *trees = carc_jb_arr(), *stacks = carc_jb_arr();
    for (int t = 0; t < f->ntrees && t < CARC_FRUIT_TYPES; t++) {
        json_t *tree = carc_jb_obj();
        carc_jb_set_str(tree, "fruit", carc_fruit_names[t]);
        carc_jb_set_int(tree, "piece", f->tree_piece[t]);
        carc_jb_push(trees, tree);
    }
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        json_t *stack = carc_jb_arr();
        for (int k = stack_len(f, t) - 1; k >= 0; k--)
            carc_jb_push(stack, carc_jb_int(f->stack[t][k]));
        carc_jb_push(stacks, stack);
    }
    carc_jb_set(o, "trees", trees);
    carc_jb_set(o, "stacks", stacks);
    carc_jb_set(o, "held", held_to_json(st));
    return o;
}

/* A token value 2..5 of fruit t not seen yet (seen[t] has a bit per value on the tree or held). */
static int fruit_value(const json_t *obj, const carc_jpath *p, const char *key, int t, unsigned seen[],
                       uint8_t *out, char *err, size_t errlen)
{
    json_int_t v;
    CARC_TRY(carc_jr_int(obj, p, key, 2, 5, &v, err, errlen));
    if (seen[t] >> v & 1)
        return carc_jr_fail(err, errlen, p, key, "a second %s token of value %d", carc_fruit_names[t], (int)v);
    seen[t] |= 1u << v;
    *out = (uint8_t)v;
    return 0;
}

static int trees_from(carc_state *st, const json_t *o, const carc_jpath *fp, char *err, size_t errlen)
{
    static const char *const keys[] = {"fruit", "piece", NULL};
    const carc_jpath ap = {fp, "trees", 0};
    carc_fruit *f = &st->fruit;
    const json_t *a;
    CARC_TRY(carc_jr_array(o, fp, "trees", CARC_FRUIT_TYPES, &a, err, errlen));
    int ntrees = 0;   /* tree pieces on the board, in the order they were placed */
    uint8_t pieces[CARC_FRUIT_TYPES];
    for (int p = 0; p < st->npieces && ntrees < CARC_FRUIT_TYPES; p++)
        if (carc_mark_active(st, st->pieces[p].type, CARC_MARK_TREE))
            pieces[ntrees++] = (uint8_t)p;
    if ((int)json_array_size(a) != ntrees)
        return carc_jr_fail(err, errlen, &ap, NULL, "expected %d entries, one per tree on the board", ntrees);
    for (size_t i = 0; i < json_array_size(a); i++) {
        const carc_jpath p = {&ap, NULL, i};
        const json_t *to;
        int fruit;
        json_int_t piece;
        CARC_TRY(carc_jr_object(json_array_get(a, i), &p, NULL, keys, &to, err, errlen));
        CARC_TRY(carc_jr_enum(to, &p, "fruit", carc_fruit_names, CARC_FRUIT_TYPES, &fruit, err, errlen));
        if (fruit != (int)i)
            return carc_jr_fail(err, errlen, &p, "fruit", "tree %zu carries \"%s\"", i, carc_fruit_names[i]);
        CARC_TRY(carc_jr_int(to, &p, "piece", 0, st->npieces - 1, &piece, err, errlen));
        if (piece != pieces[i])
            return carc_jr_fail(err, errlen, &p, "piece", "tree %zu is piece %d", i, pieces[i]);
        f->tree_piece[i] = (uint8_t)piece;
    }
    f->ntrees = (uint8_t)ntrees;
    return 0;
}

/* The six stacks, top first: what is left on each placed tree, all four tokens of the others. */
static int stacks_from(carc_state *st, const json_t *o, const carc_jpath *fp, unsigned seen[], char *err,
                       size_t errlen)
{
    const carc_jpath ap = {fp, "stacks", 0};
    carc_fruit *f = &st->fruit;
    const json_t *a;
    CARC_TRY(carc_jr_array(o, fp, "stacks", CARC_FRUIT_TYPES, &a, err, errlen));
    if (json_array_size(a) != CARC_FRUIT_TYPES)
        return carc_jr_fail(err, errlen, &ap, NULL, "expected %d entries, one per fruit", CARC_FRUIT_TYPES);
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        const carc_jpath p = {&ap, NULL, (size_t)t};
        const json_t *stack;
        CARC_TRY(carc_jr_array(json_array_get(a, (size_t)t), &p, NULL, CARC_FRUIT_STACK, &stack, err, errlen));
        size_t n = json_array_size(stack);
        if (t >= f->ntrees && n != CARC_FRUIT_STACK)
            return carc_jr_fail(err, errlen, &p, NULL, "no %s tree is on the board yet: expected its %d tokens",
                                carc_fruit_names[t], CARC_FRUIT_STACK);
        for (size_t k = 0; k < n; k++) {
            const carc_jpath kp = {&p, NULL, k};
            CARC_TRY(fruit_value(json_array_get(stack, k), &kp, NULL, t, seen, &f->stack[t][n - 1 - k], err,
                                 errlen));
        }
        if (t < f->ntrees)
            f->tree_n[t] = (uint8_t)n;
    }
    return 0;
}

static int held_from(carc_state *st, const json_t *o, const carc_jpath *fp, unsigned seen[], char *err,
                     size_t errlen)
{
    static const char *const keys[] = {"fruit", "value", NULL};
    const carc_jpath ap = {fp, "held", 0};
    carc_fruit *f = &st->fruit;
    const json_t *a;
    CARC_TRY(carc_jr_array(o, fp, "held", CARC_MAX_PLAYERS, &a, err, errlen));
    if (json_array_size(a) != st->nplayers)
        return carc_jr_fail(err, errlen, &ap, NULL, "expected %d entries, one per seat", st->nplayers);
    for (size_t s = 0; s < json_array_size(a); s++) {
        const carc_jpath p = {&ap, NULL, s};
        const json_t *h;
        CARC_TRY(carc_jr_array(json_array_get(a, s), &p, NULL, CARC_FRUIT_TYPES * CARC_FRUIT_STACK, &h, err,
                               errlen));
        for (size_t i = 0; i < json_array_size(h); i++) {
            const carc_jpath tp = {&p, NULL, i};
            const json_t *tok;
            int fruit;
            uint8_t v = 0;
            CARC_TRY(carc_jr_object(json_array_get(h, i), &tp, NULL, keys, &tok, err, errlen));
            CARC_TRY(carc_jr_enum(tok, &tp, "fruit", carc_fruit_names, CARC_FRUIT_TYPES, &fruit, err, errlen));
            if (fruit >= f->ntrees)
                return carc_jr_fail(err, errlen, &tp, "fruit", "no %s tree is on the board", carc_fruit_names[fruit]);
            CARC_TRY(fruit_value(tok, &tp, "value", fruit, seen, &v, err, errlen));
            f->held[s][i] = (uint8_t)(fruit << 4 | v);
        }
        f->held_n[s] = (uint8_t)json_array_size(h);
    }
    return 0;
}

int carc_jx_fruit_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen)
{
    static const char *const keys[] = {"trees", "stacks", "held", NULL};
    static const carc_jpath fp = {NULL, "fruit_trees", 0};
    const json_t *o;
    unsigned seen[CARC_FRUIT_TYPES] = {0};
    memset(&st->fruit, 0, sizeof st->fruit);
    CARC_TRY(carc_jr_object(snapshot, NULL, "fruit_trees", keys, &o, err, errlen));
    CARC_TRY(trees_from(st, o, &fp, err, errlen));
    CARC_TRY(stacks_from(st, o, &fp, seen, err, errlen));
    CARC_TRY(held_from(st, o, &fp, seen, err, errlen));
    if (st->tn.fruit_done >> st->fruit.ntrees) {
        static const carc_jpath tp = {NULL, "turn_state", 0};
        return carc_jr_fail(err, errlen, &tp, "fruit_done", "names a tree that is not on the board");
    }
    return 0;
}

/* ---- views -------------------------------------------------------------------------------------------- */
void carc_jv_fruit(json_t *view, const carc_state *st, int viewer)
{
    (void)viewer;   /* seats and the public see the same: nothing of the fruit is private to one seat */
    if (!carc_has(st, CARC_SET_FRUIT_TREES))
        return;
    const carc_fruit *f = &st->fruit;
    json_t *o = carc_jb_obj(), *trees = carc_jb_arr();
    for (int t = 0; t < f->ntrees && t < CARC_FRUIT_TYPES; t++) {
        const carc_piece *pc = &st->pieces[f->tree_piece[t]];
        json_t *tree = carc_jb_obj();
        carc_jb_set_str(tree, "fruit", carc_fruit_names[t]);
        carc_jb_set_int(tree, "x", pc->x);
        carc_jb_set_int(tree, "y", pc->y);
        carc_jb_set_int(tree, "left", f->tree_n[t]);
        carc_jb_push(trees, tree);
    }
    carc_jb_set(o, "trees", trees);
    carc_jb_set(o, "held", held_to_json(st));
    carc_jb_set(view, "fruit_trees", o);
}

/* ---- moves -------------------------------------------------------------------------------------------- */
bool carc_jm_fruit_to(const carc_state *st, const carc_move *m, json_t *o)
{
    if (m->kind == CARC_MV_SELL) {
        if (m->set == 0 || m->set >> CARC_FRUIT_TYPES)
            return false;
        carc_jb_set(o, "fruits", fruit_list(m->set));
        return true;
    }
    for (int t = 0; t < st->fruit.ntrees && t < CARC_FRUIT_TYPES; t++)
        if (st->fruit.tree_piece[t] == m->piece && m->piece < st->npieces) {
            carc_jb_set_int(o, "x", st->pieces[m->piece].x);
            carc_jb_set_int(o, "y", st->pieces[m->piece].y);
            return true;
        }
    return false;
}

int carc_jm_fruit_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen)
{
    static const char *const harvest_keys[] = {"type", "x", "y", NULL};
    static const char *const sell_keys[] = {"type", "fruits", NULL};
    const json_t *checked;
    if (m->kind == CARC_MV_SELL) {
        static const carc_jpath fp = {NULL, "fruits", 0};
        const json_t *a;
        CARC_TRY(carc_jr_object(o, NULL, NULL, sell_keys, &checked, err, errlen));
        CARC_TRY(carc_jr_array(checked, NULL, "fruits", CARC_FRUIT_TYPES, &a, err, errlen));
        if (json_array_size(a) == 0)
            return carc_jr_fail(err, errlen, &fp, NULL, "expected 1 to %d distinct fruit names", CARC_FRUIT_TYPES);
        unsigned set = 0;
        for (size_t i = 0; i < json_array_size(a); i++) {
            const carc_jpath p = {&fp, NULL, i};
            int t;
            CARC_TRY(carc_jr_enum(json_array_get(a, i), &p, NULL, carc_fruit_names, CARC_FRUIT_TYPES, &t, err,
                                  errlen));
            if (set >> t & 1)
                return carc_jr_fail(err, errlen, &p, NULL, "\"%s\" listed twice", carc_fruit_names[t]);
            set |= 1u << t;
        }
        m->set = (uint8_t)set;
        return 0;
    }
    json_int_t x, y;
    CARC_TRY(carc_jr_object(o, NULL, NULL, harvest_keys, &checked, err, errlen));
    CARC_TRY(carc_jr_int(checked, NULL, "x", INT16_MIN, INT16_MAX, &x, err, errlen));
    CARC_TRY(carc_jr_int(checked, NULL, "y", INT16_MIN, INT16_MAX, &y, err, errlen));
    if (st->status == CARC_FINISHED) {
        snprintf(err, errlen, "the game is over");
        return CARC_E_FINISHED;
    }
    for (int t = 0; t < st->fruit.ntrees && t < CARC_FRUIT_TYPES; t++) {
        int p = st->fruit.tree_piece[t];
        if (p < st->npieces && st->pieces[p].x == x && st->pieces[p].y == y) {
            m->piece = (uint8_t)p;
            return 0;
        }
    }
    snprintf(err, errlen, "x: no fruit tree at (%d,%d)", (int)x, (int)y);
    return CARC_E_ILLEGAL;
}

/* ---- events ------------------------------------------------------------------------------------------- */
void carc_je_fruit(const carc_state *st, const carc_event *e, json_t *o)
{
    (void)st;
    carc_jb_set_int(o, "seat", e->seat);
    switch (e->kind) {
    case CARC_EV_TREE_STOCKED:
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        carc_jb_set_str(o, "fruit", fruit_name(e->aux));
        break;
    case CARC_EV_HARVESTED:
        carc_jb_set_str(o, "fruit", fruit_name(e->aux));
        carc_jb_set_int(o, "value", e->value);
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        break;
    default:   /* CARC_EV_SOLD */
        carc_jb_set(o, "fruits", fruit_list(e->aux));
        carc_jb_set_int(o, "points", e->points);
        break;
    }
}

/* ---- the admin's script ------------------------------------------------------------------------------- */
int carc_script_fruit_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen)
{
    static const carc_jpath sp = {NULL, "script", 0}, fp = {&sp, "fruit", 0};
    if (!json_is_object(j))
        return carc_jr_fail(err, errlen, &fp, NULL, "expected an object");
    if (json_object_size(j) == 0)
        return carc_jr_fail(err, errlen, &fp, NULL, "expected at least one fruit");
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
        int t = -1;
        for (int i = 0; i < CARC_FRUIT_TYPES; i++)
            if (strcmp(k, carc_fruit_names[i]) == 0)
                t = i;
        if (t < 0)
            return carc_jr_fail(err, errlen, &fp, k, "unknown fruit (expected quince, apple, apricot, cherry, plum "
                                                     "or elderberry)");
        const carc_jpath tp = {&fp, k, 0};
        if (!json_is_array(v) || json_array_size(v) != CARC_FRUIT_STACK)
            return carc_jr_fail(err, errlen, &tp, NULL, "expected the values 2, 3, 4, 5 in some order, top first");
        unsigned seen = 0;
        for (size_t i = 0; i < CARC_FRUIT_STACK; i++) {
            const carc_jpath ip = {&tp, NULL, i};
            json_int_t val;
            CARC_TRY(carc_jr_int(json_array_get(v, i), &ip, NULL, 2, 5, &val, err, errlen));
            if (seen >> val & 1)
                return carc_jr_fail(err, errlen, &ip, NULL, "value %d listed twice", (int)val);
            seen |= 1u << val;
            s->fruit[t][i] = (uint8_t)val;
        }
    }
    s->fruit_scripted = 1;
    return 0;
}
