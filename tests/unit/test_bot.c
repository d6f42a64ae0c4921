/*
 * test_bot.c — the engine's bots (engine/bot/): they read no hidden state (a state whose stack order, tiles
 * under hills, fruit on trees, other seats' triangles, sheep script and generator are scrambled gives the
 * same move), a determinisation holds exactly what the seat cannot tell apart from the real state (the
 * unseen tiles of an unscripted game are the stack's and the hills' tiles), the same generator gives the
 * same move, and bots of every kind finish games of every expansion with legal moves only.
 */
#include <stdlib.h>
#include <string.h>

#include "bot/bot.h"
#include "testutil.h"

static const uint8_t ALL = (1u << CARC_NSETS) - 1;

/* A game of `sets` played by random moves (from key `k`) until `turns` turns have begun. */
static carc_state *midgame(uint8_t sets, int players, int k, int turns)
{
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = players;
    s.expansions |= sets;
    s.seed[0] = (uint8_t)k;
    s.seed[1] = sets;
    char err[200];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    carc_rng r;
    carc_bot_rng(&r, s.seed, 99);
    carc_moves m = {0};
    while (st->status == CARC_ACTIVE && st->turn < turns) {
        carc_legal_moves(st, st->pending.seat, &m);
        ck_assert_uint_gt(m.n, 0);
        ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[carc_rng_below(&r, (uint32_t)m.n)], NULL, err, sizeof err), 0);
    }
    carc_moves_free(&m);
    return st;
}

/* Changes every hidden part of st that `seat` may not see, keeping what it may. */
static void scramble(carc_state *st, int seat, carc_rng *r)
{
    /* the stack's order, and the tiles under hills traded with tiles of the stack */
    carc_rng_shuffle(r, st->stack + st->stack_pos, (size_t)(st->stack_len - st->stack_pos));
    for (int p = 0; p < st->npieces; p++)
        if (st->pieces[p].under != CARC_NO_TYPE && st->stack_pos < st->stack_len) {
            int i = st->stack_pos + (int)carc_rng_below(r, (uint32_t)(st->stack_len - st->stack_pos));
            uint8_t t = st->stack[i];
            st->stack[i] = st->pieces[p].under;
            st->pieces[p].under = t;
        }
    for (int i = 0; i < st->stack_pos; i++)   /* the tiles drawn before */
        st->stack[i] = (uint8_t)carc_rng_below(r, (uint32_t)st->cat->ntypes);
    /* fruit on the trees */
    for (int t = 0; t < CARC_FRUIT_TYPES; t++)
        carc_rng_shuffle(r, st->fruit.stack[t], CARC_FRUIT_STACK);
    /* the other seats' triangles traded among them */
    for (int a = 0; a < st->nplayers; a++)
        for (int b = a + 1; b < st->nplayers; b++)
            if (a != seat && b != seat && st->half.hand_n[a] == st->half.hand_n[b] && carc_rng_below(r, 2)) {
                uint8_t tmp[CARC_MAX_HAND];
                memcpy(tmp, st->half.hand[a], CARC_MAX_HAND);
                memcpy(st->half.hand[a], st->half.hand[b], CARC_MAX_HAND);
                memcpy(st->half.hand[b], tmp, CARC_MAX_HAND);
            }
    /* a sheep script, and another generator */
    st->hills.script_n = 3;
    st->hills.script_pos = 0;
    st->hills.script[0] = 4;
    st->hills.script[1] = 0;
    st->hills.script[2] = 1;
    uint8_t key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)carc_rng_u32(r);
    carc_rng_seed(&st->rng, key);
    st->rng.pos = carc_rng_below(r, 1000);
}

static const uint8_t sets_of[] = {0, 1u << CARC_SET_HILLS_SHEEP, 1u << CARC_SET_CROP_CIRCLES,
                                  1u << CARC_SET_FRUIT_TREES, 1u << CARC_SET_HALFLINGS, ALL};

START_TEST(scrambled_hidden_state_same_move)
{
    uint8_t sets = sets_of[_i % 6];
    int turns = 4 + 9 * (_i / 6);
    carc_state *st = midgame(sets, 3, _i, turns);
    if (st->status != CARC_ACTIVE) {
        free(st);
        return;
    }
    int seat = st->pending.seat;
    carc_state *sc = malloc(sizeof *sc);
    ck_assert_ptr_nonnull(sc);
    *sc = *st;
    carc_rng scr;
    uint8_t k[32] = {7, (uint8_t)_i};
    carc_rng_seed(&scr, k);
    scramble(sc, seat, &scr);
    ck_assert(memcmp(sc->stack, st->stack, sizeof st->stack) != 0 || st->stack_len - st->stack_pos < 2);
    for (int kind = 0; kind < CARC_NBOT_KINDS; kind++) {
        uint8_t seed[32] = {1, 2, 3};
        carc_rng r1, r2;
        carc_bot_rng(&r1, seed, (uint64_t)_i);
        carc_bot_rng(&r2, seed, (uint64_t)_i);
        carc_move a, b;
        ck_assert_int_eq(carc_bot_move(st, seat, kind, 40, &r1, &a), 0);
        ck_assert_int_eq(carc_bot_move(sc, seat, kind, 40, &r2, &b), 0);
        ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "%s: the move changed with the hidden state",
                      carc_bot_names[kind]);
        ck_assert_int_eq(tu_apply_copy(st, seat, &a), 0);
    }
    free(sc);
    free(st);
}
END_TEST

/* In an unscripted game the tiles a seat has not seen are exactly those in the stack and under hills. */
START_TEST(determinisation_holds_the_unseen_tiles)
{
    carc_state *st = midgame(sets_of[_i % 6], 2, 40 + _i, 10 + 7 * _i);
    carc_state *d = malloc(sizeof *d);
    ck_assert_ptr_nonnull(d);
    uint8_t seed[32] = {9};
    carc_rng r;
    carc_bot_rng(&r, seed, 1);
    carc_bot_determinise(st, st->pending.seat, &r, d);
    int real[CARC_MAX_TYPES] = {0}, det[CARC_MAX_TYPES] = {0};
    for (int i = st->stack_pos; i < st->stack_len; i++) {
        real[st->stack[i]]++;
        det[d->stack[i]]++;
    }
    for (int p = 0; p < st->npieces; p++)
        if (st->pieces[p].under != CARC_NO_TYPE) {
            real[st->pieces[p].under]++;
            det[d->pieces[p].under]++;
        }
    ck_assert_mem_eq(real, det, sizeof real);
    ck_assert_int_eq(d->stack_len, st->stack_len);
    ck_assert_int_eq(d->hills.bag_n, st->hills.bag_n);
    if (st->hills.bag_n)   /* the bag is public arithmetic (slots past bag_n mean nothing) */
        ck_assert_mem_eq(d->hills.bag, st->hills.bag, st->hills.bag_n);
    for (int s = 0; s < st->nplayers; s++)
        ck_assert_int_eq(d->half.hand_n[s], st->half.hand_n[s]);
    ck_assert_mem_eq(d->half.hand[st->pending.seat], st->half.hand[st->pending.seat], CARC_MAX_HAND);
    free(d);
    free(st);
}
END_TEST

START_TEST(same_generator_same_move)
{
    carc_state *st = midgame(ALL, 2, 3, 12);
    uint8_t seed[32] = {5};
    carc_move a, b;
    carc_rng r;
    carc_bot_rng(&r, seed, 12);
    ck_assert_int_eq(carc_bot_move(st, st->pending.seat, CARC_BOT_MCTS, 60, &r, &a), 0);
    carc_bot_rng(&r, seed, 12);
    ck_assert_int_eq(carc_bot_move(st, st->pending.seat, CARC_BOT_MCTS, 60, &r, &b), 0);
    ck_assert_mem_eq(&a, &b, sizeof a);
    ck_assert_int_eq(carc_bot_move(st, (st->pending.seat + 1) % 2, CARC_BOT_GREEDY, 0, &r, &a), -1);
    free(st);
}
END_TEST

/* The bot's stream is not the game's: the same seed keys different words. */
START_TEST(bot_stream_apart_from_game_stream)
{
    uint8_t seed[32] = {1, 2, 3, 4};
    carc_rng game, bot;
    carc_rng_seed(&game, seed);
    carc_bot_rng(&bot, seed, 0);
    int same = 0;
    for (int i = 0; i < 64; i++)
        same += carc_rng_u32(&game) == carc_rng_u32(&bot);
    ck_assert_int_lt(same, 2);
    ck_assert_uint_eq(carc_bot_playouts(1000), CARC_BOT_PLAYOUTS_PER_S);
    ck_assert_uint_eq(carc_bot_playouts(CARC_BOT_THINK_MAX_MS * 2),
                      CARC_BOT_THINK_MAX_MS / 1000 * CARC_BOT_PLAYOUTS_PER_S);   /* capped */
    ck_assert_uint_eq(carc_bot_playouts(0), 1);
    ck_assert_int_eq(carc_bot_find("mcts"), CARC_BOT_MCTS);
    ck_assert_int_eq(carc_bot_find("deep"), -1);
}
END_TEST

/* Every kind of bot plays whole games of every expansion (with ask_forced too: the one-move decisions). */
START_TEST(bots_finish_games)
{
    uint8_t sets = sets_of[_i % 6];
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 3;
    s.expansions |= sets;
    s.seed[0] = (uint8_t)(100 + _i);
    if (_i >= 6)
        s.opt[CARC_OPT_ASK_FORCED] = 1;
    char err[200];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    uint64_t seq = 0;
    while (st->status == CARC_ACTIVE) {
        int seat = st->pending.seat;
        carc_rng r;
        carc_bot_rng(&r, s.seed, ++seq);
        carc_move mv;
        ck_assert_int_eq(carc_bot_move(st, seat, (carc_bot_kind)seat, 20, &r, &mv), 0);
        ck_assert_msg(carc_apply(st, seat, &mv, NULL, err, sizeof err) == 0, "%s", err);
        ck_assert_uint_lt(seq, 2000);
    }
    free(st);
}
END_TEST

static Suite *bot_suite(void)
{
    Suite *s = suite_create("bot");
    TCase *tc = tcase_create("fair");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, scrambled_hidden_state_same_move, 0, 24);
    tcase_add_loop_test(tc, determinisation_holds_the_unseen_tiles, 0, 6);
    tcase_add_test(tc, same_generator_same_move);
    tcase_add_test(tc, bot_stream_apart_from_game_stream);
    suite_add_tcase(s, tc);
    tc = tcase_create("play");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, bots_finish_games, 0, 12);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(bot_suite()); }
