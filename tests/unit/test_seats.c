/*
 * test_seats.c — seats that stop playing: the default move a clock makes is always legal and declines
 * where it can; seats that leave are never waited for again; the game ends when one seat remains.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static carc_state *new_game(int players, int game, uint8_t expansions)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = players;
    s.expansions |= expansions;
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 7 + i);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err) == 0, "%s", err);
    return st;
}

START_TEST(default_moves_finish_a_game)
{
    carc_state *st = new_game(2 + _i % 5, _i, 0);
    char err[256];
    int steps = 0;
    while (st->status == CARC_ACTIVE) {
        carc_move mv;
        ck_assert_int_eq(carc_default_move(st, &mv), 0);
        if (st->pending.kind == CARC_PENDING_FIGURE)
            ck_assert_int_eq(mv.kind, CARC_MV_PASS);   /* declines where it can */
        ck_assert_msg(carc_apply(st, st->pending.seat, &mv, NULL, err, sizeof err) == 0, "%s", err);
        ck_assert_int_lt(++steps, 1000);
    }
    carc_move mv;
    ck_assert_int_eq(carc_default_move(st, &mv), -1);
    /* nobody placed a follower, so nobody scored */
    for (int s = 0; s < st->nplayers; s++)
        ck_assert_int_eq(st->players[s].score, 0);
    free(st);
}
END_TEST

START_TEST(default_move_is_the_same_every_time)
{
    carc_state *a = new_game(3, 5, 0), *b = new_game(3, 5, 0);
    carc_move ma, mb;
    ck_assert_int_eq(carc_default_move(a, &ma), 0);
    ck_assert_int_eq(carc_default_move(b, &mb), 0);
    ck_assert_int_eq(memcmp(&ma, &mb, sizeof ma), 0);
    free(a);
    free(b);
}
END_TEST

START_TEST(seats_that_leave_are_not_asked)
{
    int players = 3 + _i % 4;
    carc_state *st = new_game(players, 40 + _i, 0);
    char err[256];
    carc_rng r;
    uint8_t key[32] = {(uint8_t)_i};
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    int left = 0;
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        ck_assert_int_lt(steps, 2000);
        /* now and then someone leaves: the pending seat or another */
        if (steps % 37 == 36 && left < players - 1) {
            int seat = (int)carc_rng_below(&r, (uint32_t)players);
            if (!(st->left >> seat & 1)) {
                carc_events ev = {0};
                ck_assert_msg(carc_leave(st, seat, &ev, err, sizeof err) == 0, "%s", err);
                left++;
                ck_assert(st->left >> seat & 1);
                ck_assert_int_eq(carc_leave(st, seat, NULL, err, sizeof err),
                                 st->status == CARC_ACTIVE ? CARC_E_ILLEGAL : CARC_E_FINISHED);
                bool said = false;
                for (size_t i = 0; i < ev.n; i++)
                    said |= ev.v[i].kind == CARC_EV_SEAT_LEFT && ev.v[i].seat == seat;
                ck_assert(said);
                carc_events_free(&ev);
                continue;
            }
        }
        ck_assert_msg(!(st->left >> st->pending.seat & 1), "the game waits for seat %d, which left",
                      st->pending.seat);
        carc_legal_moves(st, st->pending.seat, &m);
        ck_assert_uint_gt(m.n, 0);
        const carc_move *mv = &m.v[carc_rng_below(&r, (uint32_t)m.n)];
        ck_assert_msg(carc_apply(st, st->pending.seat, mv, NULL, err, sizeof err) == 0, "%s", err);
    }
    carc_moves_free(&m);
    free(st);
}
END_TEST

START_TEST(last_seat_standing_ends_the_game)
{
    carc_state *st = new_game(3, 77, 0);
    char err[256];
    carc_events ev = {0};
    ck_assert_int_eq(carc_leave(st, 1, &ev, err, sizeof err), 0);
    ck_assert_int_eq(st->status, CARC_ACTIVE);
    ck_assert_int_eq(carc_leave(st, 0, &ev, err, sizeof err), 0);
    ck_assert_int_eq(st->status, CARC_FINISHED);
    ck_assert_int_eq(ev.v[ev.n - 1].kind, CARC_EV_GAME_OVER);
    ck_assert_int_eq(carc_leave(st, 2, NULL, err, sizeof err), CARC_E_FINISHED);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* Winners are chosen among the seats still in the game: a seat that left wins nothing, even with the best
 * score or a share of the best. */
START_TEST(winners_are_seats_still_in)
{
    carc_state *st = new_game(3, 78, 0);
    st->players[0].score = 20;
    st->players[1].score = 20;
    st->players[2].score = 5;
    ck_assert_uint_eq(carc_winners(st), 3u);   /* a shared win */
    st->left = 1u << 1;
    ck_assert_uint_eq(carc_winners(st), 1u);
    st->left = 3u;                             /* the two leaders left: the last seat in wins with 5 */
    ck_assert_uint_eq(carc_winners(st), 4u);
    st->players[2].score = 0;
    ck_assert_uint_eq(carc_winners(st), 4u);   /* 0 to 20: still the only one in */
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("seats");
    TCase *tc = tcase_create("leaving and timeouts");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, default_moves_finish_a_game, 0, 10);
    tcase_add_test(tc, default_move_is_the_same_every_time);
    tcase_add_loop_test(tc, seats_that_leave_are_not_asked, 0, 12);
    tcase_add_test(tc, last_seat_standing_ends_the_game);
    tcase_add_test(tc, winners_are_seats_still_in);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
