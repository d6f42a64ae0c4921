/*
 * test_state_cache.c — the state cache (daemon/game/state_cache.h): a state put is copied back with its seq,
 * the newest seq of a game replaces the older, what is known besides stays with the game's slot, a give hands
 * back the state it replaced, and the cache holds every game while fewer are in play than half its 256 slots
 * (128 games whose ids hash unevenly over the sets: with 64 sets of 4 ways, 4 of these 128 were evicted by
 * their set's others). Each test runs in its own process (Check's fork mode): the cache starts empty.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/catalog.h"
#include "game/state_cache.h"

/* A real state, so that carc_state_copy copies a board: a new base game, its seed from `salt`. */
static carc_state *new_state(unsigned salt)
{
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_setup setup;
    carc_setup_defaults(&setup);
    for (int k = 0; k < 32; k++)
        setup.seed[k] = (uint8_t)(salt * 31u + (unsigned)k);
    carc_events ev = {0};
    char err[200];
    ck_assert_msg(carc_game_new(st, cd_catalog(), &setup, &ev, err, sizeof err) == 0, "%s", err);
    carc_events_free(&ev);
    return st;
}

/* The n-th game's id: a uuid from a fixed generator, so that the sets they fall in are the same every run. */
static void game_id(unsigned n, char out[37])
{
    unsigned long long x = 0x9e3779b97f4a7c15ull * (n + 1);
    x ^= x >> 29, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 32;
    unsigned long long y = x * 0x94d049bb133111ebull ^ (x >> 31);
    snprintf(out, 37, "%08llx-%04llx-4%03llx-8%03llx-%012llx", x >> 32, (x >> 16) & 0xffff, x & 0xfff, y >> 52,
             y & 0xffffffffffffull);
}

START_TEST(put_then_copy)
{
    carc_state *st = new_state(1), *out = malloc(sizeof *out);
    ck_assert_ptr_nonnull(out);
    char id[37];
    game_id(0, id);
    ck_assert_int_eq(cd_cache_copy(id, out, NULL), -1);   /* nothing held yet */
    cd_cache_put(id, 7, st);
    cd_cache_aux aux = {.known = true};
    ck_assert_int_eq(cd_cache_copy(id, out, &aux), 7);
    ck_assert(!aux.known);   /* a put knows nothing besides the state */
    ck_assert_int_eq(out->nplayers, st->nplayers);
    ck_assert_int_eq(out->pending.seat, st->pending.seat);
    ck_assert_int_eq(memcmp(out->rng.key, st->rng.key, sizeof st->rng.key), 0);
    /* ids compare as uuids do, whatever their case */
    for (char *p = id; *p; p++)
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 32);
    ck_assert_int_eq(cd_cache_copy(id, out, NULL), 7);
    free(st);
    free(out);
}
END_TEST

START_TEST(newest_seq_replaces_and_aux_stays)
{
    carc_state *a = new_state(2), *b = new_state(3), *out = malloc(sizeof *out);
    ck_assert_ptr_nonnull(out);
    char id[37];
    game_id(1, id);
    carc_state *given = a;
    cd_cache_aux known = {.known = true, .unclocked = true, .no_hooks = true, .no_linked = false};
    cd_cache_give(id, 3, &given, &known);
    ck_assert_ptr_null(given);   /* an empty slot: nothing replaced */
    given = b;
    cd_cache_give(id, 4, &given, NULL);   /* NULL: the slot keeps what it knew of the game */
    ck_assert_ptr_eq(given, a);           /* the state it replaced comes back to be freed */
    cd_cache_aux aux = {0};
    ck_assert_int_eq(cd_cache_copy(id, out, &aux), 4);
    ck_assert(aux.known && aux.unclocked && aux.no_hooks && !aux.no_linked);
    ck_assert_int_eq(memcmp(out->rng.key, b->rng.key, sizeof b->rng.key), 0);
    free(a);   /* b is the cache's now */
    free(out);
}
END_TEST

/* Puts games 0..n-1, game g at seq base + g. */
static void put_games(unsigned n, int base, const carc_state *st)
{
    char id[37];
    for (unsigned g = 0; g < n; g++) {
        game_id(g, id);
        cd_cache_put(id, base + (int)g, st);
    }
}

/* How many of games 0..n-1 are held at seq base + g. */
static int held_games(unsigned n, int base)
{
    carc_state *out = malloc(sizeof *out);
    ck_assert_ptr_nonnull(out);
    char id[37];
    int held = 0;
    for (unsigned g = 0; g < n; g++) {
        game_id(g, id);
        held += cd_cache_copy(id, out, NULL) == base + (int)g;
    }
    free(out);
    return held;
}

START_TEST(half_full_holds_every_game)
{
    enum { GAMES = 128 };
    carc_state *st = new_state(4);
    for (int round = 0; round < 3; round++)   /* moves cycling over the games, as players' do */
        put_games(GAMES, round * GAMES, st);
    ck_assert_int_eq(held_games(GAMES, 2 * GAMES), GAMES);
    free(st);
}
END_TEST

START_TEST(bounded_at_256)
{
    enum { GAMES = 400 };
    carc_state *st = new_state(5);
    put_games(GAMES, 0, st);
    int held = held_games(GAMES, 0);
    ck_assert_int_le(held, 256);
    ck_assert_int_ge(held, 200);   /* full sets evict their least recent, not everything */
    /* the most recent put of all is always held */
    char id[37];
    game_id(GAMES - 1, id);
    ck_assert_int_eq(cd_cache_copy(id, st, NULL), GAMES - 1);
    free(st);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("state_cache");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, put_then_copy);
    tcase_add_test(tc, newest_seq_replaces_and_aux_stays);
    tcase_add_test(tc, half_full_holds_every_game);
    tcase_add_test(tc, bounded_at_256);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_set_fork_status(sr, CK_FORK);   /* every test starts from an empty cache, even with CK_FORK=no */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
