/*
 * test_game.c — the turn machine on whole random games: same seed + same moves = same state and events;
 * every listed move is accepted; refused moves change nothing; final scores are the sum of score events; a
 * seat is only asked when it has a choice;
 * set-up and scripted stacks are validated.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static carc_setup setup_for(int players, int game)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = players;
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 31 + i);
    return s;
}

/* Plays one game choosing uniformly with `chooser`; returns the events of the whole game. */
static void play(carc_state *st, const carc_setup *s, uint8_t chooser_key, carc_events *all)
{
    char err[256];
    carc_events ev = {0};
    ck_assert_msg(carc_game_new(st, tu_catalog(), s, &ev, err, sizeof err) == 0, "%s", err);
    uint8_t key[32] = {chooser_key};
    carc_rng r;
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        ck_assert_int_lt(steps, 1000);
        carc_legal_moves(st, st->pending.seat, &m);
        ck_assert_uint_gt(m.n, 0);
        if (!st->opt[CARC_OPT_ASK_FORCED])   /* a decision with one legal move is never asked (RULES.md §6.8) */
            ck_assert_uint_gt(m.n, 1);
        /* every other seat has nothing to do */
        carc_moves other = {0};
        carc_legal_moves(st, (st->pending.seat + 1) % st->nplayers, &other);
        ck_assert_uint_eq(other.n, 0);
        carc_moves_free(&other);
        const carc_move *mv = &m.v[carc_rng_below(&r, (uint32_t)m.n)];
        ck_assert_msg(carc_apply(st, st->pending.seat, mv, &ev, err, sizeof err) == 0, "%s", err);
    }
    *all = ev;
    carc_moves_free(&m);
}

START_TEST(same_seed_same_game)
{
    carc_setup s = setup_for(2 + _i % 5, _i);
    carc_state *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    carc_events ea, eb;
    play(a, &s, 7, &ea);
    play(b, &s, 7, &eb);
    ck_assert_int_eq(memcmp(a, b, sizeof *a), 0);
    ck_assert_uint_eq(ea.n, eb.n);
    ck_assert_int_eq(memcmp(ea.v, eb.v, ea.n * sizeof *ea.v), 0);
    ck_assert_int_eq(memcmp(ea.xy, eb.xy, ea.nxy * sizeof *ea.xy), 0);
    carc_events_free(&ea);
    carc_events_free(&eb);
    free(a);
    free(b);
}
END_TEST

START_TEST(different_seed_different_stack)
{
    carc_setup s1 = setup_for(2, 1), s2 = setup_for(2, 2);
    carc_state *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    char err[256];
    ck_assert_int_eq(carc_game_new(a, tu_catalog(), &s1, NULL, err, sizeof err), 0);
    ck_assert_int_eq(carc_game_new(b, tu_catalog(), &s2, NULL, err, sizeof err), 0);
    ck_assert_int_eq(a->stack_len, 71);
    ck_assert_int_ne(memcmp(a->stack, b->stack, a->stack_len), 0);
    free(a);
    free(b);
}
END_TEST

START_TEST(scores_are_the_sum_of_score_events)
{
    carc_setup s = setup_for(2 + _i % 5, 100 + _i);
    if (_i % 2)
        s.opt[CARC_OPT_ABBOT] = 1;
    carc_state *st = malloc(sizeof *st);
    carc_events ev;
    play(st, &s, (uint8_t)_i, &ev);
    int32_t sum[CARC_MAX_PLAYERS] = {0};
    int tiles = 0;
    for (size_t i = 0; i < ev.n; i++) {
        const carc_event *x = &ev.v[i];
        if (x->kind == CARC_EV_SCORE)
            for (int p = 0; p < st->nplayers; p++)
                if (x->seats >> p & 1)
                    sum[p] += x->points;
        tiles += x->kind == CARC_EV_PIECE_PLACED || x->kind == CARC_EV_TILE_DISCARDED;
    }
    for (int p = 0; p < st->nplayers; p++)
        ck_assert_int_eq(sum[p], st->players[p].score);
    ck_assert_int_eq(tiles, 71);   /* every tile of the stack was placed or discarded */
    ck_assert_int_eq(ev.v[ev.n - 1].kind, CARC_EV_GAME_OVER);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_NONE);
    carc_events_free(&ev);
    free(st);
}
END_TEST

START_TEST(refused_moves_change_nothing)
{
    carc_setup s = setup_for(3, 9);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    carc_moves m = {0};
    carc_rng r;
    uint8_t key[32] = {3};
    carc_rng_seed(&r, key);
    for (int step = 0; st->status == CARC_ACTIVE; step++) {
        int seat = st->pending.seat;
        carc_legal_moves(st, seat, &m);
        ck_assert_int_eq(tu_apply_copy(st, (seat + 1) % 3, &m.v[0]), CARC_E_NOT_TURN);
        if (st->pending.kind == CARC_PENDING_PLACE) {
            carc_move bad = m.v[0];
            bad.x = (int16_t)(bad.x + 50);   /* far from everything */
            ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
            bad = m.v[0];
            bad.tile = (uint8_t)((bad.tile + 1) % tu_catalog()->ntypes);
            ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
            carc_move fig = {.kind = CARC_MV_PASS};
            ck_assert_int_eq(tu_apply_copy(st, seat, &fig), CARC_E_ILLEGAL);
        } else {
            carc_move bad = {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = CARC_MAX_PARTS - 1};
            ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
            ck_assert_int_eq(tu_apply_copy(st, seat, &(carc_move){.kind = CARC_MV_ABBOT_RETURN}), CARC_E_ILLEGAL);
        }
        const carc_move *mv = &m.v[carc_rng_below(&r, (uint32_t)m.n)];
        ck_assert_int_eq(carc_apply(st, seat, mv, NULL, err, sizeof err), 0);
    }
    carc_move pass = {.kind = CARC_MV_PASS};
    ck_assert_int_eq(tu_apply_copy(st, st->pending.seat, &pass), CARC_E_FINISHED);
    carc_legal_moves(st, st->pending.seat, &m);
    ck_assert_uint_eq(m.n, 0);
    carc_moves_free(&m);
    free(st);
}
END_TEST

START_TEST(setup_is_validated)
{
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_setup s = setup_for(1, 0);
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    s = setup_for(7, 0);
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    s = setup_for(2, 0);
    s.opt[CARC_OPT_HILL_TIEBREAK] = 9;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "hill_tiebreak"));
    /* a scripted stack may not hold more copies than the game has: C exists once */
    s = setup_for(2, 0);
    int c = carc_catalog_find(tu_catalog(), "C");
    s.nstack = 2;
    s.stack[0] = s.stack[1] = (uint8_t)c;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "script.stack[1]"));
    /* nor tiles of an expansion that is not in play */
    s.nstack = 1;
    s.stack[0] = (uint8_t)carc_catalog_find(tu_catalog(), "HS01");
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    /* gardens only with the abbot option */
    s.stack[0] = (uint8_t)carc_catalog_find(tu_catalog(), "Eg");
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    s.opt[CARC_OPT_ABBOT] = 1;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    free(st);
}
END_TEST

START_TEST(abbot_option_swaps_in_gardens)
{
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_setup s = setup_for(2, 5);
    s.opt[CARC_OPT_ABBOT] = 1;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    ck_assert_int_eq(st->stack_len, 71);
    int gardens = 0, e = 0;
    for (int i = 0; i < st->stack_len; i++) {
        const carc_tile_type *t = &tu_catalog()->types[st->stack[i]];
        gardens += t->nparts > 0 && carc_part_find(t, "g") >= 0;
        e += strcmp(t->id, "E") == 0;
    }
    ck_assert_int_eq(gardens, 8);
    ck_assert_int_eq(e, 4);
    ck_assert_int_eq(carc_supply(st, 0, CARC_FIG_ABBOT), 1);
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("random games");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, same_seed_same_game, 0, 10);
    tcase_add_loop_test(tc, scores_are_the_sum_of_score_events, 0, 20);
    tcase_add_test(tc, different_seed_different_stack);
    tcase_add_test(tc, refused_moves_change_nothing);
    tcase_add_test(tc, setup_is_validated);
    tcase_add_test(tc, abbot_option_swaps_in_gardens);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
