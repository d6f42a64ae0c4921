/*
 * test_fruit.c — Fruit Trees on whole random games: alone and with all four expansions, every option;
 * every listed move is accepted, refused moves change nothing, scores are the sum of score events, fruit
 * actions follow the rules' invariants; the values still on a tree never reach a seat or the public (views
 * and events rendered from two states that differ only in those values are the same text); set-up and the
 * admin's script are validated; the JSON of moves, events and snapshots is strict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "testutil.h"

static carc_setup setup_for(int game, bool all)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2 + game % 5;
    s.expansions |= 1u << CARC_SET_FRUIT_TREES;
    if (all)
        s.expansions |= 1u << CARC_SET_HILLS_SHEEP | 1u << CARC_SET_CROP_CIRCLES | 1u << CARC_SET_HALFLINGS;
    s.opt[CARC_OPT_FRUIT_ACTIONS] = (uint8_t)(game / 2 % 2);
    s.opt[CARC_OPT_FRUIT_MAX_SET] = (uint8_t)(game / 4 % 2);
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game % 3 == 0);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 17 + i * 5 + all);
    return s;
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static int tokens_in_game(const carc_state *st)
{
    int n = 0;
    for (int t = 0; t < st->fruit.ntrees; t++)
        n += st->fruit.tree_n[t];
    for (int s = 0; s < st->nplayers; s++)
        n += st->fruit.held_n[s];
    return n;
}

/* Applies mv to a copy, expecting a refusal that changes nothing. */
static void refused(const carc_state *st, int seat, const carc_move *mv)
{
    carc_state *c = malloc(sizeof *c);
    memcpy(c, st, sizeof *c);
    char err[256] = "";
    carc_events ev = {0};
    if (carc_apply(c, seat, mv, &ev, err, sizeof err) == 0)
        ck_abort_msg("a move that is not legal was accepted (kind %d)", mv->kind);
    if (memcmp(c, st, sizeof *c) != 0 || ev.n != 0 || !err[0])
        ck_abort_msg("a refused move changed the state or made events");
    carc_events_free(&ev);
    free(c);
}

typedef struct {
    int harvests, sales, passes, multi;   /* fruit moves applied; turns with two or more actions */
    int trees;
} fruit_stats;

/* Checks the fruit step's invariants for one move about to be applied at st. */
static void check_fruit_moves(const carc_state *st, const carc_moves *m)
{
    int seat = st->pending.seat;
    if (st->pending.kind != CARC_PENDING_FRUIT) {
        for (size_t i = 0; i < m->n; i++)
            if (m->v[i].kind == CARC_MV_HARVEST || m->v[i].kind == CARC_MV_SELL)
                ck_abort_msg("a fruit move outside the fruit step");
        return;
    }
    /* only after a follower on the new piece, in reach of a tree */
    ck_assert(st->tn.figure == CARC_FIG_MEEPLE || st->tn.figure == CARC_FIG_ABBOT);
    ck_assert_int_eq(m->v[0].kind, CARC_MV_PASS);
    ck_assert_uint_gt(m->n, 1);
    const carc_piece *np = &st->pieces[st->tn.piece];
    int max = carc_opt_table[CARC_OPT_FRUIT_MAX_SET].ints[st->opt[CARC_OPT_FRUIT_MAX_SET]];
    unsigned held = 0;
    for (int i = 0; i < st->fruit.held_n[seat]; i++)
        held |= 1u << (st->fruit.held[seat][i] >> 4);
    int sells = 0;
    for (size_t i = 1; i < m->n; i++) {
        const carc_move *mv = &m->v[i];
        if (mv->kind == CARC_MV_HARVEST) {
            int t = -1;
            for (int k = 0; k < st->fruit.ntrees; k++)
                if (st->fruit.tree_piece[k] == mv->piece)
                    t = k;
            ck_assert_int_ge(t, 0);
            ck_assert_uint_gt(st->fruit.tree_n[t], 0);
            ck_assert(!(st->tn.fruit_done >> t & 1));
            const carc_piece *tp = &st->pieces[mv->piece];
            ck_assert(abs(tp->x - np->x) <= 1 && abs(tp->y - np->y) <= 1);
        } else {
            ck_assert_int_eq(mv->kind, CARC_MV_SELL);
            ck_assert_uint_ne(mv->set, 0);
            ck_assert_uint_eq(mv->set & ~held, 0);
            ck_assert_int_le(popcount(mv->set), max);
            sells++;
        }
    }
    /* every non-empty subset of the held types up to the size limit */
    int want = 0;
    for (unsigned set = 1; set < 64; set++)
        want += (set & ~held) == 0 && popcount(set) <= max;
    ck_assert_int_eq(sells, want);
}

/* Plays one game uniformly over the legal moves, checking as it goes; returns every event. */
static void play(carc_state *st, const carc_setup *s, int chooser_key, carc_events *all, fruit_stats *fs)
{
    char err[256];
    carc_events ev = {0};
    ck_assert_msg(carc_game_new(st, tu_catalog(), s, &ev, err, sizeof err) == 0, "%s", err);
    uint8_t key[32] = {(uint8_t)chooser_key, 0xf7};
    carc_rng r;
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    int tokens = tokens_in_game(st), last_turn = -1, actions_this_turn = 0;
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        ck_assert_int_lt(steps, 3000);
        int seat = st->pending.seat;
        carc_legal_moves(st, seat, &m);
        ck_assert_uint_gt(m.n, 0);
        check_fruit_moves(st, &m);
        if (st->pending.kind == CARC_PENDING_FRUIT) {
            /* fruit moves the rules refuse now */
            refused(st, seat, &(carc_move){.kind = CARC_MV_SELL, .set = 0});
            refused(st, seat, &(carc_move){.kind = CARC_MV_HARVEST, .piece = 0});   /* the start tile */
            refused(st, (seat + 1) % st->nplayers, &m.v[m.n - 1]);
            unsigned held = 0;
            for (int i = 0; i < st->fruit.held_n[seat]; i++)
                held |= 1u << (st->fruit.held[seat][i] >> 4);
            if (held != 63)
                refused(st, seat, &(carc_move){.kind = CARC_MV_SELL, .set = (uint8_t)(~held & 63)});
        } else if (st->pending.kind == CARC_PENDING_FIGURE || st->pending.kind == CARC_PENDING_PLACE) {
            refused(st, seat, &(carc_move){.kind = CARC_MV_SELL, .set = 1});
        }
        const carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
        bool fruit = st->pending.kind == CARC_PENDING_FRUIT;
        int before = st->players[seat].score;
        size_t first = ev.n;
        ck_assert_msg(carc_apply(st, seat, &mv, &ev, err, sizeof err) == 0, "%s", err);
        if (fruit) {
            if (st->turn != last_turn) {
                last_turn = st->turn;
                actions_this_turn = 0;
            }
            if (mv.kind != CARC_MV_PASS && ++actions_this_turn == 2)
                fs->multi++;
            fs->harvests += mv.kind == CARC_MV_HARVEST;
            fs->sales += mv.kind == CARC_MV_SELL;
            fs->passes += mv.kind == CARC_MV_PASS;
            if (mv.kind == CARC_MV_HARVEST) {   /* the harvested event and its score come first */
                ck_assert_int_eq(ev.v[first].kind, CARC_EV_HARVESTED);
                ck_assert_int_eq(ev.v[first + 1].kind, CARC_EV_SCORE);
                ck_assert_int_eq(ev.v[first + 1].reason, CARC_REASON_HARVEST);
                ck_assert_int_eq(ev.v[first + 1].points, ev.v[first].value);
                ck_assert(ev.v[first].value >= 2 && ev.v[first].value <= 5);
                ck_assert_int_ge(st->players[seat].score, before + ev.v[first].value);
            }
            if (mv.kind == CARC_MV_SELL) {
                static const int pts[] = {0, 3, 6, 10, 15, 21, 28};
                ck_assert_int_eq(ev.v[first].kind, CARC_EV_SOLD);
                ck_assert_int_eq(ev.v[first + 1].reason, CARC_REASON_SELL);
                ck_assert_int_eq(ev.v[first + 1].points, pts[popcount(mv.set)]);
                ck_assert_int_eq(tokens_in_game(st), tokens - popcount(mv.set));
            }
            if (st->opt[CARC_OPT_FRUIT_ACTIONS] == 0)
                ck_assert_int_ne(st->pending.kind, CARC_PENDING_FRUIT);
        }
        if (!(fruit && mv.kind == CARC_MV_SELL))
            ck_assert_int_eq(tokens_in_game(st), tokens + 4 * (st->fruit.ntrees - fs->trees));
        tokens = tokens_in_game(st);
        fs->trees = st->fruit.ntrees;
    }
    *all = ev;
    carc_moves_free(&m);
}

static void check_game(int game, bool all, fruit_stats *fs)
{
    carc_setup s = setup_for(game, all);
    carc_state *st = malloc(sizeof *st);
    carc_events ev;
    fs->trees = 0;
    play(st, &s, game, &ev, fs);
    int32_t sum[CARC_MAX_PLAYERS] = {0}, final[CARC_MAX_PLAYERS] = {0};
    int stocked = 0;
    for (size_t i = 0; i < ev.n; i++) {
        const carc_event *x = &ev.v[i];
        if (x->kind == CARC_EV_SCORE)
            for (int p = 0; p < st->nplayers; p++)
                if (x->seats >> p & 1) {
                    sum[p] += x->points;
                    if (x->reason == CARC_REASON_FRUIT_FINAL)
                        final[p] += x->points;
                }
        if (x->kind == CARC_EV_TREE_STOCKED)
            ck_assert_int_eq(x->aux, stocked++);
    }
    for (int p = 0; p < st->nplayers; p++) {
        ck_assert_int_eq(sum[p], st->players[p].score);
        ck_assert_int_eq(final[p], st->fruit.held_n[p]);   /* 1 per token still held */
    }
    ck_assert_int_eq(stocked, st->fruit.ntrees);
    ck_assert_int_eq(ev.v[ev.n - 1].kind, CARC_EV_GAME_OVER);
    carc_events_free(&ev);
    free(st);
}

START_TEST(whole_games_fruit_alone)
{
    fruit_stats fs = {0};
    for (int g = 0; g < 24; g++)
        check_game(g, false, &fs);
    ck_assert_int_gt(fs.harvests, 20);
    ck_assert_int_gt(fs.sales, 5);
    ck_assert_int_gt(fs.passes, 5);
    ck_assert_int_gt(fs.multi, 0);   /* per_tree gave someone a second action */
}
END_TEST

START_TEST(whole_games_all_expansions)
{
    fruit_stats fs = {0};
    for (int g = 0; g < 16; g++)
        check_game(g, true, &fs);
    ck_assert_int_gt(fs.harvests, 10);
}
END_TEST

/* ---- hidden information ------------------------------------------------------------------------------- */
static char *text(json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* Rotates the values still hidden (on every tree, and the stacks of trees not placed yet), `keep_top`
 * leaving each placed tree's top token where it is. */
static bool shuffle_hidden(carc_state *st, bool keep_top)
{
    bool changed = false;
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        int n = t >= st->fruit.ntrees ? CARC_FRUIT_STACK : st->fruit.tree_n[t] - (keep_top ? 1 : 0);
        if (n < 2)
            continue;
        uint8_t first = st->fruit.stack[t][0];
        memmove(&st->fruit.stack[t][0], &st->fruit.stack[t][1], (size_t)(n - 1));
        st->fruit.stack[t][n - 1] = first;
        changed = true;
    }
    return changed;
}

static void same_views(const carc_state *a, const carc_state *b)
{
    for (int v = CARC_VIEW_PUBLIC; v < a->nplayers; v++) {
        if (v == CARC_VIEW_ADMIN)
            continue;
        char *x = text(carc_view_to_json(a, v)), *y = text(carc_view_to_json(b, v));
        if (strcmp(x, y) != 0)
            ck_abort_msg("viewer %d sees the hidden fruit:\n%s\n%s", v, x, y);
        ck_assert_ptr_null(strstr(x, "\"stack\""));
        free(x);
        free(y);
    }
}

/* Two states that differ only in the values still on the trees: every seat and the public see the same
 * views and the same events, move after move, to the end of the game. Admins see the difference. */
START_TEST(hidden_values_never_shown)
{
    int admin_differs = 0, checked = 0;
    for (int game = 0; game < 12; game++) {
        carc_setup s = setup_for(game, game % 3 == 2);
        carc_state *a = malloc(sizeof *a), *b = malloc(sizeof *b);
        char err[256];
        ck_assert_int_eq(carc_game_new(a, tu_catalog(), &s, NULL, err, sizeof err), 0);
        uint8_t key[32] = {(uint8_t)game, 0x5e};
        carc_rng r;
        carc_rng_seed(&r, key);
        carc_moves m = {0};
        carc_events ea = {0}, eb = {0};
        while (a->status == CARC_ACTIVE) {
            memcpy(b, a, sizeof *b);
            if (shuffle_hidden(b, false)) {
                same_views(a, b);
                char *x = text(carc_view_to_json(a, CARC_VIEW_ADMIN)), *y = text(carc_view_to_json(b, CARC_VIEW_ADMIN));
                admin_differs += strcmp(x, y) != 0;
                free(x);
                free(y);
            }
            /* the move's events, with only the values below each top token differing */
            memcpy(b, a, sizeof *b);
            bool differs = shuffle_hidden(b, true);
            int seat = a->pending.seat;
            carc_legal_moves(a, seat, &m);
            carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
            carc_events_clear(&ea);
            carc_events_clear(&eb);
            ck_assert_int_eq(carc_apply(a, seat, &mv, &ea, err, sizeof err), 0);
            ck_assert_int_eq(carc_apply(b, seat, &mv, &eb, err, sizeof err), 0);
            if (differs) {
                for (int v = CARC_VIEW_PUBLIC; v < a->nplayers; v++) {
                    if (v == CARC_VIEW_ADMIN)
                        continue;
                    char *x = text(carc_events_to_json(a, &ea, v)), *y = text(carc_events_to_json(b, &eb, v));
                    if (strcmp(x, y) != 0)
                        ck_abort_msg("viewer %d's events show the hidden fruit:\n%s\n%s", v, x, y);
                    free(x);
                    free(y);
                }
                same_views(a, b);
                checked++;
            }
        }
        carc_moves_free(&m);
        carc_events_free(&ea);
        carc_events_free(&eb);
        free(a);
        free(b);
    }
    ck_assert_int_gt(admin_differs, 100);   /* the test has teeth: admins do see the stacks */
    ck_assert_int_gt(checked, 100);
}
END_TEST

/* The view's fruit member holds exactly the public fields. */
START_TEST(view_shape)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.expansions |= 1u << CARC_SET_FRUIT_TREES;
    s.nstack = 2;
    s.stack[0] = (uint8_t)carc_catalog_find(tu_catalog(), "FT04");
    s.stack[1] = (uint8_t)carc_catalog_find(tu_catalog(), "FT01");
    json_t *script = json_pack("{s:[iiii]}", "quince", 5, 2, 4, 3);
    ck_assert_int_eq(carc_script_fruit_from_json(script, &s, NULL, 0), 0);
    json_decref(script);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    carc_move place = {.kind = CARC_MV_PLACE, .tile = s.stack[0], .x = 0, .y = -1, .rot = 2};
    ck_assert_msg(carc_apply(st, 0, &place, NULL, err, sizeof err) == 0, "%s", err);
    carc_move fig = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 1};   /* f1 */
    ck_assert_msg(carc_apply(st, 0, &fig, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_FRUIT);
    carc_move h = {.kind = CARC_MV_HARVEST, .piece = 1};
    ck_assert_msg(carc_apply(st, 0, &h, NULL, err, sizeof err) == 0, "%s", err);
    char *pub = text(carc_view_to_json(st, CARC_VIEW_PUBLIC));
    ck_assert_ptr_nonnull(strstr(pub, "\"fruit_trees\":{\"held\":[[{\"fruit\":\"quince\",\"value\":5}],[]],"
                                      "\"trees\":[{\"fruit\":\"quince\",\"left\":3,\"x\":0,\"y\":-1}]}"));
    char *adm = text(carc_view_to_json(st, CARC_VIEW_ADMIN));
    ck_assert_ptr_nonnull(strstr(adm, "\"fruit_trees\":{\"held\":[[{\"fruit\":\"quince\",\"value\":5}],[]],"
                                      "\"stacks\":[[2,4,3],"));
    free(pub);
    free(adm);
    free(st);
}
END_TEST

/* ---- set-up and script -------------------------------------------------------------------------------- */
static void script_error(const char *json, const char *want)
{
    carc_setup s;
    carc_setup_defaults(&s);
    char err[256] = "";
    json_t *j = json_loads(json, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(carc_script_fruit_from_json(j, &s, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, want);
    json_decref(j);
}

START_TEST(script_is_validated)
{
    script_error("[]", "script.fruit: expected an object");
    script_error("{}", "script.fruit: expected at least one fruit");
    script_error("{\"pear\":[2,3,4,5]}",
                 "script.fruit.pear: unknown fruit (expected quince, apple, apricot, cherry, plum or elderberry)");
    script_error("{\"apple\":[2,3,4]}", "script.fruit.apple: expected the values 2, 3, 4, 5 in some order, top first");
    script_error("{\"apple\":[2,3,4,6]}", "script.fruit.apple[3]: expected an integer 2..5");
    script_error("{\"apple\":[2,3,3,5]}", "script.fruit.apple[2]: value 3 listed twice");
    script_error("{\"apple\":[2,3,4,\"5\"]}", "script.fruit.apple[3]: expected an integer 2..5");

    /* scripted types take the script (top first), the others are shuffled permutations of 2..5 */
    carc_setup s;
    carc_setup_defaults(&s);
    s.expansions |= 1u << CARC_SET_FRUIT_TREES;
    json_t *j = json_pack("{s:[iiii], s:[iiii]}", "apple", 5, 2, 4, 3, "elderberry", 2, 3, 4, 5);
    char err[256];
    ck_assert_int_eq(carc_script_fruit_from_json(j, &s, err, sizeof err), 0);
    json_decref(j);
    carc_state *st = malloc(sizeof *st);
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err) == 0, "%s", err);
    static const uint8_t apple[4] = {3, 4, 2, 5}, elder[4] = {5, 4, 3, 2};   /* bottom first */
    ck_assert_int_eq(memcmp(st->fruit.stack[1], apple, 4), 0);
    ck_assert_int_eq(memcmp(st->fruit.stack[5], elder, 4), 0);
    for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
        unsigned seen = 0;
        for (int k = 0; k < 4; k++)
            seen |= 1u << st->fruit.stack[t][k];
        ck_assert_uint_eq(seen, 0x3c);
    }
    /* a script without the expansion, or not a permutation, is refused by the engine too */
    s.expansions = 1u << CARC_SET_BASE;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "script.fruit: fruit_trees is not in play");
    s.expansions |= 1u << CARC_SET_FRUIT_TREES;
    s.fruit[2][0] = 5, s.fruit[2][1] = 5, s.fruit[2][2] = 2, s.fruit[2][3] = 3;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    /* different seeds stack differently */
    carc_setup a = setup_for(0, false), b = setup_for(1, false);
    carc_state *sb = malloc(sizeof *sb);
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &a, NULL, err, sizeof err), 0);
    ck_assert_int_eq(carc_game_new(sb, tu_catalog(), &b, NULL, err, sizeof err), 0);
    ck_assert_int_ne(memcmp(st->fruit.stack, sb->fruit.stack, sizeof st->fruit.stack), 0);
    free(sb);
    free(st);
}
END_TEST

/* ---- JSON moves, events, snapshot ----------------------------------------------------------------------- */
static carc_state *fruit_mid_game(void)
{
    /* a game played until some seat holds tokens of three types and a fruit step is pending */
    for (int game = 0; game < 200; game++) {
        carc_setup s = setup_for(game, false);
        carc_state *st = malloc(sizeof *st);
        char err[256];
        ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
        uint8_t key[32] = {(uint8_t)game, 0x33};
        carc_rng r;
        carc_rng_seed(&r, key);
        carc_moves m = {0};
        while (st->status == CARC_ACTIVE) {
            if (st->pending.kind == CARC_PENDING_FRUIT && st->fruit.held_n[st->pending.seat] >= 3) {
                carc_moves_free(&m);
                return st;
            }
            carc_legal_moves(st, st->pending.seat, &m);
            /* prefer harvests so that tokens pile up */
            size_t pick = carc_rng_below(&r, (uint32_t)m.n);
            for (size_t i = 0; i < m.n; i++)
                if (m.v[i].kind == CARC_MV_HARVEST)
                    pick = i;
            ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[pick], NULL, err, sizeof err), 0);
        }
        carc_moves_free(&m);
        free(st);
    }
    ck_abort_msg("no game reached a fruit step with three held tokens");
    return NULL;
}

static void move_error(const carc_state *st, const char *json, int code, const char *want)
{
    carc_move m;
    char err[256] = "";
    json_t *j = json_loads(json, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(carc_move_from_json(st, j, &m, err, sizeof err), code);
    ck_assert_str_eq(err, want);
    json_decref(j);
}

START_TEST(moves_json)
{
    carc_state *st = fruit_mid_game();
    carc_moves m = {0};
    carc_legal_moves(st, st->pending.seat, &m);
    char err[256];
    bool harvest = false, sell = false;
    for (size_t i = 0; i < m.n; i++) {
        json_t *j = carc_move_to_json(st, &m.v[i]);
        ck_assert_ptr_nonnull(j);
        carc_move back;
        ck_assert_msg(carc_move_from_json(st, j, &back, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(memcmp(&back, &m.v[i], sizeof back), 0);
        char *t = json_dumps(j, JSON_COMPACT);
        if (m.v[i].kind == CARC_MV_HARVEST) {
            harvest = true;
            ck_assert_ptr_nonnull(strstr(t, "\"type\":\"harvest\",\"x\":"));
        }
        if (m.v[i].kind == CARC_MV_SELL)
            sell = true;
        free(t);
        json_decref(j);
    }
    ck_assert(harvest || sell);
    carc_move back;
    json_t *j = json_loads("{\"type\":\"sell\",\"fruits\":[\"plum\",\"quince\"]}", 0, NULL);
    ck_assert_int_eq(carc_move_from_json(st, j, &back, err, sizeof err), 0);
    ck_assert_uint_eq(back.set, 1u << 0 | 1u << 4);
    json_decref(j);
    move_error(st, "{\"type\":\"sell\"}", CARC_E_INVALID, "fruits: missing field");
    move_error(st, "{\"type\":\"sell\",\"fruits\":[]}", CARC_E_INVALID, "fruits: expected 1 to 6 distinct fruit names");
    move_error(st, "{\"type\":\"sell\",\"fruits\":[\"apple\",\"apple\"]}", CARC_E_INVALID,
               "fruits[1]: \"apple\" listed twice");
    move_error(st, "{\"type\":\"sell\",\"fruits\":[\"pear\"]}", CARC_E_INVALID,
               "fruits[0]: expected one of \"quince\", \"apple\", \"apricot\", \"cherry\", \"plum\", \"elderberry\"");
    move_error(st, "{\"type\":\"sell\",\"fruits\":[\"apple\"],\"x\":1}", CARC_E_INVALID, "x: unknown field");
    move_error(st, "{\"type\":\"harvest\",\"x\":1}", CARC_E_INVALID, "y: missing field");
    move_error(st, "{\"type\":\"harvest\",\"x\":1,\"y\":2,\"fruits\":[]}", CARC_E_INVALID, "fruits: unknown field");
    move_error(st, "{\"type\":\"harvest\",\"x\":\"1\",\"y\":2}", CARC_E_INVALID, "x: expected an integer -32768..32767");
    move_error(st, "{\"type\":\"harvest\",\"x\":900,\"y\":900}", CARC_E_ILLEGAL, "x: no fruit tree at (900,900)");
    carc_moves_free(&m);
    free(st);
}
END_TEST

START_TEST(events_json)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.expansions |= 1u << CARC_SET_FRUIT_TREES;
    s.nstack = 3;
    s.stack[0] = (uint8_t)carc_catalog_find(tu_catalog(), "FT04");
    s.stack[1] = (uint8_t)carc_catalog_find(tu_catalog(), "E");
    s.stack[2] = (uint8_t)carc_catalog_find(tu_catalog(), "E");
    json_t *sj = json_pack("{s:[iiii]}", "quince", 4, 2, 5, 3);
    ck_assert_int_eq(carc_script_fruit_from_json(sj, &s, NULL, 0), 0);
    json_decref(sj);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_events ev = {0};
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    carc_move mv = {.kind = CARC_MV_PLACE, .tile = s.stack[0], .x = 0, .y = -1, .rot = 2};
    ck_assert_int_eq(carc_apply(st, 0, &mv, &ev, err, sizeof err), 0);
    mv = (carc_move){.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 1};
    ck_assert_int_eq(carc_apply(st, 0, &mv, &ev, err, sizeof err), 0);
    mv = (carc_move){.kind = CARC_MV_HARVEST, .piece = 1};
    ck_assert_int_eq(carc_apply(st, 0, &mv, &ev, err, sizeof err), 0);
    /* seat 1: E north-east of the tree (its field meets the tree's), a meeple on its city, harvests */
    mv = (carc_move){.kind = CARC_MV_PLACE, .tile = s.stack[1], .x = 1, .y = -1, .rot = 0};
    ck_assert_msg(carc_apply(st, 1, &mv, &ev, err, sizeof err) == 0, "%s", err);
    mv = (carc_move){.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 0};
    ck_assert_msg(carc_apply(st, 1, &mv, &ev, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_FRUIT);
    mv = (carc_move){.kind = CARC_MV_HARVEST, .piece = 1};
    ck_assert_int_eq(carc_apply(st, 1, &mv, &ev, err, sizeof err), 0);
    /* seat 0: E north-west of the tree, a meeple on its city, sells its quince */
    mv = (carc_move){.kind = CARC_MV_PLACE, .tile = s.stack[2], .x = -1, .y = -1, .rot = 0};
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    mv = (carc_move){.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 0};
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    mv = (carc_move){.kind = CARC_MV_SELL, .set = 1};
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    char *all = text(carc_events_to_json(st, &ev, CARC_VIEW_PUBLIC));
    ck_assert_ptr_nonnull(strstr(all, "{\"fruit\":\"quince\",\"seat\":0,\"type\":\"tree_stocked\",\"x\":0,\"y\":-1}"));
    ck_assert_ptr_nonnull(strstr(all, "{\"fruit\":\"quince\",\"seat\":0,\"type\":\"harvested\",\"value\":4,\"x\":0,"
                                      "\"y\":-1},{\"feature\":\"fruit\",\"points\":4,\"reason\":\"harvest\","
                                      "\"seats\":[0],\"spaces\":[[0,-1]],\"type\":\"score\"}"));
    ck_assert_ptr_nonnull(strstr(all, "{\"fruit\":\"quince\",\"seat\":1,\"type\":\"harvested\",\"value\":2,"));
    ck_assert_ptr_nonnull(strstr(all, "{\"fruits\":[\"quince\"],\"points\":3,\"seat\":0,\"type\":\"sold\"},"
                                      "{\"feature\":\"fruit\",\"points\":3,\"reason\":\"sell\",\"seats\":[0],"
                                      "\"spaces\":[],\"type\":\"score\"}"));
    free(all);
    /* the game ends. Seat 0: harvest 4 + sale 3 + farmer on FT04's field next to the completed city
     * D+FT04 3 + its incomplete one-tile city 1 = 11. Seat 1: harvest 2 + its one-tile city 1 + the quince
     * it still holds 1 = 4. */
    ck_assert_int_eq(st->status, CARC_FINISHED);
    ck_assert_int_eq(st->players[0].score, 11);
    ck_assert_int_eq(st->players[1].score, 4);
    ck_assert_int_eq(ev.v[ev.n - 2].kind, CARC_EV_SCORE);
    ck_assert_int_eq(ev.v[ev.n - 2].reason, CARC_REASON_FRUIT_FINAL);
    ck_assert_int_eq(ev.v[ev.n - 2].seats, 2);
    ck_assert_int_eq(ev.v[ev.n - 2].points, 1);
    carc_events_free(&ev);
    free(st);
}
END_TEST

static void snapshot_error(const carc_state *st, const char *path_in_fruit, json_t *value, const char *want)
{
    json_t *j = carc_state_to_json(st);
    json_t *f = json_object_get(j, "fruit_trees");
    if (strcmp(path_in_fruit, "trees0.stack") == 0)
        json_object_set_new(json_array_get(json_object_get(f, "trees"), 0), "stack", value);
    else if (strcmp(path_in_fruit, "trees0.fruit") == 0)
        json_object_set_new(json_array_get(json_object_get(f, "trees"), 0), "fruit", value);
    else if (strcmp(path_in_fruit, "trees0.piece") == 0)
        json_object_set_new(json_array_get(json_object_get(f, "trees"), 0), "piece", value);
    else if (strcmp(path_in_fruit, "fruit_trees") == 0)
        json_object_set_new(j, "fruit_trees", value);
    else
        json_object_set_new(f, path_in_fruit, value);
    carc_state *out = malloc(sizeof *out);
    char err[256] = "";
    ck_assert_int_eq(carc_state_from_json(out, st->cat, j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, want);
    json_decref(j);
    free(out);
}

START_TEST(snapshot_is_strict)
{
    carc_state *st = fruit_mid_game();
    carc_state *out = malloc(sizeof *out);
    char err[256];
    json_t *j = carc_state_to_json(st);
    ck_assert_msg(carc_state_from_json(out, st->cat, j, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(memcmp(&out->fruit, &st->fruit, sizeof st->fruit), 0);
    json_decref(j);
    free(out);
    snapshot_error(st, "fruit_trees", json_pack("{s:[]}", "held"), "fruit_trees.trees: missing field");
    snapshot_error(st, "extra", json_true(), "fruit_trees.extra: unknown field");
    snapshot_error(st, "trees0.fruit", json_string("plum"), "fruit_trees.trees[0].fruit: tree 0 carries \"quince\"");
    char want[128];
    snprintf(want, sizeof want, "fruit_trees.trees[0].piece: tree 0 is piece %d", st->fruit.tree_piece[0]);
    snapshot_error(st, "trees0.piece", json_integer(0), want);
    snapshot_error(st, "stacks", json_pack("[[i,i,i,i,i],[],[],[],[],[]]", 2, 3, 4, 5, 2),
                   "fruit_trees.stacks[0]: expected an array of at most 4 entries");
    snapshot_error(st, "stacks", json_pack("[[i],[],[],[],[],[]]", 6), "fruit_trees.stacks[0][0]: expected an integer 2..5");
    if (st->fruit.ntrees < CARC_FRUIT_TYPES) {
        snprintf(want, sizeof want, "fruit_trees.stacks[%d]: no %s tree is on the board yet: expected its 4 tokens",
                 st->fruit.ntrees, carc_fruit_names[st->fruit.ntrees]);
        snapshot_error(st, "stacks", json_pack("[[],[],[],[],[],[]]"), want);
    }
    snprintf(want, sizeof want, "fruit_trees.held: expected %d entries, one per seat", st->nplayers);
    snapshot_error(st, "held", json_pack("[]"), want);
    /* a token twice (held by the seat to move and once more at the end of its tokens) */
    int seat = st->pending.seat, n = st->fruit.held_n[seat];
    json_t *snap = carc_state_to_json(st);
    json_t *held = json_deep_copy(json_object_get(json_object_get(snap, "fruit_trees"), "held"));
    json_decref(snap);
    json_t *mine = json_array_get(held, (size_t)seat);
    json_array_append(mine, json_array_get(mine, 0));
    snprintf(want, sizeof want, "fruit_trees.held[%d][%d].value: a second %s token of value %d", seat, n,
             carc_fruit_names[st->fruit.held[seat][0] >> 4], st->fruit.held[seat][0] & 15);
    snapshot_error(st, "held", held, want);
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fruit");
    TCase *tc = tcase_create("fruit");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, whole_games_fruit_alone);
    tcase_add_test(tc, whole_games_all_expansions);
    tcase_add_test(tc, hidden_values_never_shown);
    tcase_add_test(tc, view_shape);
    tcase_add_test(tc, script_is_validated);
    tcase_add_test(tc, moves_json);
    tcase_add_test(tc, events_json);
    tcase_add_test(tc, snapshot_is_strict);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
