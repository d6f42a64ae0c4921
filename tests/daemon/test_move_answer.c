/*
 * test_move_answer.c — a seat's POST answer as text (daemon/game/move_log.h: cd_move_answer_text) is, byte
 * for byte, what cd_reply_json writes for the tree of cd_move_answer: at every move of random games of the
 * base game (whose events every seat sees whole, so the answer reuses the events' admin text) and of each
 * expansion and all four (Hills & Sheep's hill_covered hides its tile from the mover, so those answers take
 * the tree's way), with and without the mover's legal moves.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_out.h"
#include "game/catalog.h"
#include "game/move_log.h"
#include "json.h"

/* The bytes cd_reply_json writes for the tree of the answer (CD_REPLY_JSON_FLAGS): a repeated
 * Idempotency-Key's answer (cd_log_answer), which must be the POST's own. */
static char *tree_answer(const carc_state *st, int seq, const carc_events *ev, int seat, bool legal)
{
    json_t *ans = cd_move_answer(st, seq, ev, seat, legal);
    char *text = cd_json_dumps(ans, CD_REPLY_JSON_FLAGS);
    json_decref(ans);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* Plays one random game of `expansions` with `nplayers` seats; checks every move's answer both ways; returns
 * how many answers reused the events' admin text (the seat saw every event whole). */
static int play(uint8_t expansions, int nplayers, unsigned salt, int *hidden)
{
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_setup setup;
    carc_setup_defaults(&setup);
    setup.nplayers = nplayers;
    setup.expansions = expansions;
    for (int k = 0; k < 32; k++)
        setup.seed[k] = (uint8_t)(salt * 131u + (unsigned)k * 7u);
    carc_events ev = {0};
    char err[200];
    ck_assert_msg(carc_game_new(st, cd_catalog(), &setup, &ev, err, sizeof err) == 0, "%s", err);
    carc_events_free(&ev);
    unsigned pick = salt;
    int whole = 0;
    for (int seq = 1; st->status != CARC_FINISHED && seq < 2000; seq++) {
        int seat = st->pending.seat;
        carc_moves legal = {0};
        carc_legal_moves(st, seat, &legal);
        ck_assert_uint_gt(legal.n, 0);
        pick = pick * 1103515245u + 12345u;
        carc_move mv = legal.v[(pick >> 8) % legal.n];
        carc_moves_free(&legal);
        carc_events mev = {0};
        ck_assert_msg(carc_apply(st, seat, &mv, &mev, err, sizeof err) == 0, "%s", err);

        json_t *admin = carc_events_to_json(st, &mev, CARC_VIEW_ADMIN);
        char *admin_text = cd_json_dumps(admin, JSON_COMPACT);
        json_t *seen = carc_events_to_json(st, &mev, seat);
        if (json_equal(seen, admin))
            whole++;
        else
            ++*hidden;
        json_decref(seen);
        for (int legal_too = 0; legal_too < 2; legal_too++) {
            char *text = cd_move_answer_text(st, seq, &mev, admin, admin_text, seat, legal_too);
            char *want = tree_answer(st, seq, &mev, seat, legal_too);
            ck_assert_msg(strcmp(text, want) == 0, "seq %d, seat %d, expansions %u:\n%s\n%s", seq, seat,
                          (unsigned)expansions, text, want);
            free(text);
            free(want);
        }
        free(admin_text);
        json_decref(admin);
        carc_events_free(&mev);
    }
    ck_assert_int_eq(st->status, CARC_FINISHED);
    free(st);
    return whole;
}

START_TEST(base_answers_reuse_the_admin_text)
{
    int hidden = 0, whole = 0;
    for (unsigned g = 0; g < 3; g++)
        whole += play(0, 2 + (int)g, g + 1, &hidden);
    ck_assert_int_eq(hidden, 0);   /* the base game hides nothing from the mover */
    ck_assert_int_gt(whole, 100);
}
END_TEST

START_TEST(every_expansion_answers_the_same_bytes)
{
    int hidden = 0;
    for (int set = CARC_SET_HILLS_SHEEP; set <= CARC_SET_HALFLINGS; set++)
        play((uint8_t)(1u << set), 3, (unsigned)set * 17u, &hidden);
    uint8_t all = (uint8_t)(1u << CARC_SET_HILLS_SHEEP | 1u << CARC_SET_CROP_CIRCLES | 1u << CARC_SET_FRUIT_TREES |
                            1u << CARC_SET_HALFLINGS);
    play(all, 2, 99, &hidden);
    play(all, 6, 100, &hidden);
    ck_assert_int_gt(hidden, 0);   /* some answers took the tree's way (a covered hill's tile) */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("move_answer");
    TCase *t = tcase_create("answer");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, base_answers_reuse_the_admin_text);
    tcase_add_test(t, every_expansion_answers_the_same_bytes);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
