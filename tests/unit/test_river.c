/*
 * test_river.c — the option river (the River of the 2nd-edition base box) on real shuffles and whole random
 * games: the spring starts at (0,0), the river tiles are drawn first and the lake last of them, then the
 * ordinary tiles; every river tile goes on the river's open end and the river never takes two curves the
 * same way in a row; ordinary tiles and triangles never touch an open river edge; the state survives its
 * JSON; a bot's guessed stack keeps the river's order, and the bots play river games to the end. The
 * exact rules and scores: tests/scenarios/river.
 */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "bot/bot.h"
#include "json.h"
#include "testutil.h"

static const uint8_t ALL_SETS = TU_ALL_EXPANSIONS;

static carc_setup river_setup(int game, uint8_t sets)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2 + game % 4;
    s.expansions = (uint8_t)(s.expansions | sets);
    s.opt[CARC_OPT_RIVER] = 1;
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game / 2 % 2);
    s.opt[CARC_OPT_HALFLINGS_DEAL] = (uint8_t)(game / 4 % 2);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 31 + i * 7 + 3);
    return s;
}

static int river_sides(const carc_state *st, int type)
{
    return __builtin_popcount(st->cat->types[type].river);
}

/* The draw order with the real shuffle over many seeds, alone and with every expansion. */
START_TEST(draw_order)
{
    const carc_catalog *cat = tu_catalog();
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    int spring = carc_catalog_find(cat, "RV01"), lake = carc_catalog_find(cat, "RV10");
    int d = carc_catalog_find(cat, "D");
    bool first_seen[CARC_MAX_TYPES] = {false};
    int distinct_first = 0;
    for (int g = 0; g < 400; g++) {
        carc_setup s = river_setup(g, g % 2 ? ALL_SETS : 0);
        char err[256];
        carc_events ev = {0};
        ck_assert_msg(carc_game_new(st, cat, &s, &ev, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(ev.v[0].kind, CARC_EV_GAME_STARTED);
        ck_assert_int_eq(ev.v[0].tile, spring);
        carc_events_free(&ev);
        ck_assert_int_eq(st->pieces[0].type, spring);
        ck_assert(st->pieces[0].x == 0 && st->pieces[0].y == 0 && st->pieces[0].rot == 0);
        /* the 10 that carry the river on, the lake, then no river tile at all */
        for (int i = 0; i < 10; i++)
            ck_assert_int_eq(river_sides(st, st->stack[i]), 2);
        ck_assert_int_eq(st->stack[10], lake);
        int ds = 0, squares = 0;
        for (int i = 11; i < st->stack_len; i++) {
            ck_assert_int_eq(st->cat->types[st->stack[i]].river, 0);
            ds += st->stack[i] == d;
        }
        for (int i = 0; i < st->stack_len; i++)
            squares += st->cat->types[st->stack[i]].shape == CARC_SQUARE;
        ck_assert_int_eq(squares, st->stack_len);
        ck_assert_int_eq(ds, 3);   /* 4 copies of D, the one that would have started left the game */
        /* base: 71 + the river's 11 besides the spring; the expansions add 18 + 6 + 6 squares */
        ck_assert_int_eq(st->stack_len, g % 2 ? 82 + 30 : 82);
        if (!first_seen[st->stack[0]]) {
            first_seen[st->stack[0]] = true;
            distinct_first++;
        }
    }
    ck_assert_int_ge(distinct_first, 6);   /* the river tiles are shuffled, not dealt in a fixed order */
    /* without the option: no river tile, D starts, one shuffle as before */
    carc_setup s = river_setup(1, ALL_SETS);
    s.opt[CARC_OPT_RIVER] = 0;
    char err[256];
    ck_assert_msg(carc_game_new(st, cat, &s, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(st->pieces[0].type, d);
    for (int i = 0; i < st->stack_len; i++)
        ck_assert_int_eq(st->cat->types[st->stack[i]].river, 0);
    ck_assert_int_eq(st->board.river_end, 0);
    free(st);
}
END_TEST

/* The board direction from piece a's space to piece b's (they are neighbours). */
static int dir_between(const carc_piece *a, const carc_piece *b)
{
    for (int d = 0; d < 4; d++)
        if (a->x + carc_dx[d] == b->x && a->y + carc_dy[d] == b->y)
            return d;
    return -1;
}

/* The river as laid, recomputed from the pieces alone: every river piece after the spring lies against the
 * one before it, with a river side there; curves alternate left and right, straights between them or not. */
static void check_river_course(const carc_state *st, int *nriver)
{
    int prev = -1, last_turn = 0, n = 0, flow = -1;
    for (int p = 0; p < st->npieces; p++) {
        const carc_piece *pc = &st->pieces[p];
        const carc_tile_type *t = &st->cat->types[pc->type];
        if (!t->river)
            continue;
        n++;
        int entry = -1;
        if (prev >= 0) {
            entry = dir_between(pc, &st->pieces[prev]);
            ck_assert_msg(entry >= 0, "river piece %d does not touch the one before it", p);
            ck_assert_int_eq(entry, (flow + 2) & 3);
            int side = carc_dir_side(t, pc->rot, entry);
            ck_assert_int_eq(t->side[side].type, CARC_SIDE_RIVER);
        }
        int exit = -1;
        for (int s = 0; s < 4; s++)
            if (t->river >> s & 1 && carc_side_dir(t, pc->rot, s) != entry)
                exit = carc_side_dir(t, pc->rot, s);
        if (prev >= 0 && exit >= 0 && exit != flow) {
            int turn = exit == ((flow + 1) & 3) ? 2 : 1;
            ck_assert_msg(turn != last_turn, "piece %d: a second curve the same way", p);
            last_turn = turn;
        }
        flow = exit;
        prev = p;
    }
    *nriver = n;
}

static void check_json_round_trip(const carc_state *st)
{
    json_t *j = carc_state_to_json(st);
    carc_state *back = malloc(sizeof *back);
    ck_assert_ptr_nonnull(back);
    char err[256];
    ck_assert_msg(carc_state_from_json(back, st->cat, j, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(back->opt[CARC_OPT_RIVER], 1);
    ck_assert_int_eq(back->board.river_end, st->board.river_end);
    ck_assert_int_eq(back->board.river_dir, st->board.river_dir);
    ck_assert_int_eq(back->board.river_turn, st->board.river_turn);
    carc_moves a = {0}, b = {0};
    carc_legal_moves(st, st->pending.seat, &a);
    carc_legal_moves(back, st->pending.seat, &b);
    ck_assert_uint_eq(a.n, b.n);
    ck_assert(a.n == 0 || memcmp(a.v, b.v, a.n * sizeof *a.v) == 0);
    carc_moves_free(&a);
    carc_moves_free(&b);
    json_decref(j);
    free(back);
}

/* Whole random games, uniform over the legal moves: river alone, and with every expansion. */
static void random_games(uint8_t sets, int first, int games)
{
    const carc_catalog *cat = tu_catalog();
    carc_state *st = malloc(sizeof *st), *guess = malloc(sizeof *guess);
    ck_assert(st && guess);
    carc_moves m = {0};
    carc_events ev = {0};
    char err[256];
    for (int g = first; g < first + games; g++) {
        carc_setup s = river_setup(g, sets);
        ck_assert_msg(carc_game_new(st, cat, &s, NULL, err, sizeof err) == 0, "%s", err);
        carc_rng chooser;
        carc_rng_seed(&chooser, s.seed);
        chooser.key[0] ^= 0x5a;
        int moves = 0;
        while (st->status == CARC_ACTIVE) {
            int seat = st->pending.seat;
            carc_legal_moves(st, seat, &m);
            ck_assert_msg(m.n > 0, "game %d: nothing legal", g);
            bool open = st->board.river_end != 0;
            if (st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE)
                ck_assert_msg(!open, "game %d: a triangle offered while the river is open", g);
            for (size_t i = 0; i < m.n; i++) {
                const carc_move *mv = &m.v[i];
                if (mv->kind != CARC_MV_PLACE)
                    continue;
                const carc_tile_type *t = &cat->types[mv->tile];
                int si = carc_space_find(&st->board, mv->x, mv->y);
                ck_assert(si >= 0);
                /* river tiles on the open end only, nothing else there */
                ck_assert_int_eq(t->river != 0, si + 1 == st->board.river_end);
            }
            if (moves % 17 == 5 && open)
                check_json_round_trip(st);
            if (moves % 23 == 3) {   /* the bots' guess keeps the river's order */
                carc_rng r;
                carc_bot_rng(&r, s.seed, (uint64_t)moves);
                carc_bot_determinise(st, seat, &r, guess);
                int rank = 0;
                for (int i = guess->stack_pos; i < guess->stack_len; i++) {
                    int sides = __builtin_popcount(cat->types[guess->stack[i]].river);
                    int k = sides == 2 ? 0 : sides == 1 ? 1 : 2;
                    ck_assert_msg(k >= rank, "game %d: a guessed stack out of the river's order", g);
                    rank = k;
                }
            }
            const carc_move *mv = &m.v[carc_rng_below(&chooser, (uint32_t)m.n)];
            carc_events_clear(&ev);
            ck_assert_msg(carc_apply(st, seat, mv, &ev, err, sizeof err) == 0, "game %d: %s", g, err);
            moves++;
        }
        int nriver = 0;
        check_river_course(st, &nriver);
        ck_assert_int_eq(nriver, 12);   /* every river tile fits: the river can never block itself */
        ck_assert_int_eq(st->board.river_end, 0);
        for (int p = 1; p < 12; p++)   /* the river was laid first, the lake last of it */
            ck_assert_int_ne(cat->types[st->pieces[p].type].river, 0);
        ck_assert_int_eq(__builtin_popcount(cat->types[st->pieces[11].type].river), 1);
        for (int i = 0; i < st->ndiscarded; i++)
            ck_assert_int_eq(cat->types[st->discarded[i]].river, 0);
    }
    carc_moves_free(&m);
    carc_events_free(&ev);
    free(st);
    free(guess);
}

START_TEST(random_games_river)
{
    random_games(0, 0, 80);
}
END_TEST

START_TEST(random_games_all_expansions)
{
    random_games(ALL_SETS, 1000, 40);
}
END_TEST

/* The bots play river games to the end (they think on guessed stacks that keep the river's order). */
START_TEST(bots_play_river_games)
{
    const carc_catalog *cat = tu_catalog();
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    char err[256];
    for (int g = 0; g < 2; g++) {
        carc_setup s = river_setup(g, g ? ALL_SETS : 0);
        ck_assert_msg(carc_game_new(st, cat, &s, NULL, err, sizeof err) == 0, "%s", err);
        carc_rng r;
        carc_bot_rng(&r, s.seed, 7);
        for (int n = 0; st->status == CARC_ACTIVE; n++) {
            int seat = st->pending.seat;
            carc_move mv;
            carc_bot_kind kind = seat % 2 ? CARC_BOT_MCTS : CARC_BOT_GREEDY;
            ck_assert_int_eq(carc_bot_move(st, seat, kind, 20, &r, &mv), 0);
            ck_assert_msg(carc_apply(st, seat, &mv, NULL, err, sizeof err) == 0, "game %d move %d: %s", g, n, err);
        }
        int nriver = 0;
        check_river_course(st, &nriver);
        ck_assert_int_eq(nriver, 12);
    }
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("river");
    TCase *tc = tcase_create("river");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, draw_order);
    tcase_add_test(tc, random_games_river);
    tcase_add_test(tc, random_games_all_expansions);
    tcase_add_test(tc, bots_play_river_games);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
