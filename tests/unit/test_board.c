/*
 * test_board.c — side-interval geometry: which segments join across facing sides (the split sides of
 * HS01 and HS02, triangles sharing a space), what fits where, and that a space counts once per feature;
 * that the legal placements are exactly what fits, in space order; and that a state copied with
 * carc_state_copy (the board's live part only) plays exactly as a whole copy.
 */
#include <stdlib.h>
#include <string.h>

#include "bot/bot.h"
#include "json.h"
#include "rules.h"
#include "testutil.h"

/* A state whose board is exactly these pieces (type id, x, y, rot), rebuilt through carc_state_rebuild. */
typedef struct { const char *id; int x, y, rot; } placed;

static carc_state *board_of(const placed *p, int n)
{
    carc_state *st = calloc(1, sizeof *st);
    st->cat = tu_catalog();
    st->nplayers = 2;
    st->expansions = (1u << CARC_NSETS) - 1;
    for (int i = 0; i < n; i++) {
        int t = carc_catalog_find(st->cat, p[i].id);
        ck_assert_msg(t >= 0, "tile %s", p[i].id);
        st->pieces[i] = (carc_piece){.x = (int16_t)p[i].x, .y = (int16_t)p[i].y, .type = (uint8_t)t,
                                     .rot = (uint8_t)p[i].rot, .under = CARC_NO_TYPE};
    }
    st->npieces = (uint16_t)n;
    char err[256];
    ck_assert_msg(carc_state_rebuild(st, err, sizeof err) == 0, "rebuild: %s", err);
    return st;
}

static int root_of(const carc_state *st, int piece, const char *part)
{
    int i = carc_part_find(carc_type_of(st, piece), part);
    ck_assert_msg(i >= 0, "part %s", part);
    return carc_find(&st->board, carc_node(piece, i));
}

START_TEST(hs02_face_to_face_joins_all_four)
{
    /* the split N sides of two HS02 face each other: c1 [0,7) and c2 [7,12) meet 12-t, so all overlap */
    placed p[] = {{"HS02", 0, 0, 0}, {"HS02", 0, -1, 2}};
    carc_state *st = board_of(p, 2);
    int r = root_of(st, 0, "c1");
    ck_assert_int_eq(root_of(st, 0, "c2"), r);
    ck_assert_int_eq(root_of(st, 1, "c1"), r);
    ck_assert_int_eq(root_of(st, 1, "c2"), r);
    carc_feature f;
    carc_feature_collect(st, r, &f);
    ck_assert_int_eq(f.nspaces, 2);
    free(st);
}
END_TEST

START_TEST(hs02_against_whole_city_side_joins_both)
{
    /* the start tile's whole N city side under HS02's split side */
    placed p[] = {{"D", 0, 0, 0}, {"HS02", 0, -1, 2}};
    carc_state *st = board_of(p, 2);
    ck_assert_int_eq(root_of(st, 1, "c1"), root_of(st, 1, "c2"));
    ck_assert_int_eq(root_of(st, 1, "c1"), root_of(st, 0, "c1"));
    free(st);
}
END_TEST

START_TEST(hs02_segments_apart_when_alone)
{
    placed p[] = {{"HS02", 0, 0, 0}};
    carc_state *st = board_of(p, 1);
    ck_assert_int_ne(root_of(st, 0, "c1"), root_of(st, 0, "c2"));
    /* c1: W + [0,7) of N = 2 open segments; c2 likewise */
    ck_assert_int_eq(st->board.open[root_of(st, 0, "c1")], 2);
    free(st);
}
END_TEST

START_TEST(hs01_face_to_face_joins_pairwise)
{
    /* S sides face to face: [0,5) meets [7,12) of the other, the walls [5,7) meet each other */
    placed p[] = {{"HS01", 0, 0, 0}, {"HS01", 0, 1, 2}};
    carc_state *st = board_of(p, 2);
    int a1 = root_of(st, 0, "f1"), a2 = root_of(st, 0, "f2");
    int b1 = root_of(st, 1, "f1"), b2 = root_of(st, 1, "f2");
    ck_assert_int_ne(a1, a2);
    ck_assert_int_eq(a1, b2);
    ck_assert_int_eq(a2, b1);
    ck_assert_int_ne(root_of(st, 0, "c1"), root_of(st, 1, "c1"));
    free(st);
}
END_TEST

START_TEST(hs01_against_whole_field_side_joins_both)
{
    placed p[] = {{"HS01", 0, 0, 0}, {"B", 0, 1, 0}};
    carc_state *st = board_of(p, 2);
    ck_assert_int_eq(root_of(st, 0, "f1"), root_of(st, 0, "f2"));
    ck_assert_int_eq(root_of(st, 0, "f1"), root_of(st, 1, "f1"));
    free(st);
}
END_TEST

START_TEST(road_side_fields_join_across_the_road)
{
    /* D's road E: field [0,5) (north, f1) meets the U's north field, [7,12) the south one */
    placed p[] = {{"D", 0, 0, 0}, {"U", 1, 0, 1}};
    carc_state *st = board_of(p, 2);
    ck_assert_int_eq(root_of(st, 0, "r1"), root_of(st, 1, "r1"));
    /* U rot 1: its local W field (f1) lies north, its local E field (f2) south */
    ck_assert_int_eq(root_of(st, 0, "f1"), root_of(st, 1, "f1"));
    ck_assert_int_eq(root_of(st, 0, "f2"), root_of(st, 1, "f2"));
    ck_assert_int_ne(root_of(st, 0, "f1"), root_of(st, 0, "f2"));
    free(st);
}
END_TEST

START_TEST(two_triangles_share_a_space)
{
    /* HW08 (all field, cloister) at the nw and se corners of (0,1), under the start tile's S field */
    placed p[] = {{"D", 0, 0, 0}, {"HW08", 0, 1, 0}, {"HW08", 0, 1, 2}};
    carc_state *st = board_of(p, 3);
    int r = root_of(st, 1, "f1");
    ck_assert_int_eq(root_of(st, 2, "f1"), r);   /* joined along the long side */
    ck_assert_int_eq(root_of(st, 0, "f2"), r);   /* and to the start tile's south field */
    carc_feature f;
    carc_feature_collect(st, r, &f);
    ck_assert_int_eq(f.nspaces, 2);              /* (0,0) and (0,1), the half-tiles count once */
    int si = carc_space_find(&st->board, 0, 1);
    ck_assert_int_eq(st->board.spaces[si].npieces, 2);
    free(st);
}
END_TEST

START_TEST(what_fits_on_a_half_filled_space)
{
    placed p[] = {{"D", 0, 0, 0}, {"HW08", 0, 1, 0}};
    carc_state *st = board_of(p, 2);
    int b = carc_catalog_find(st->cat, "B"), hw08 = carc_catalog_find(st->cat, "HW08");
    int hw01 = carc_catalog_find(st->cat, "HW01"), hw05 = carc_catalog_find(st->cat, "HW05");
    ck_assert(!carc_fits(st, b, 0, 1, 0));         /* a square never goes on a half-filled space */
    ck_assert(!carc_fits(st, hw08, 0, 1, 0));      /* the same corner is taken */
    ck_assert(!carc_fits(st, hw08, 0, 1, 1));      /* only the complementary corner is free */
    ck_assert(carc_fits(st, hw08, 0, 1, 2));
    ck_assert(carc_fits(st, hw01, 0, 1, 2));       /* its city faces empty (0,2); its long side is field */
    ck_assert(!carc_fits(st, hw05, 0, 1, 2));      /* a road long side against the partner's field one */
    free(st);
}
END_TEST

START_TEST(fits_needs_contact_and_matching_sides)
{
    placed p[] = {{"D", 0, 0, 0}};
    carc_state *st = board_of(p, 1);
    int e = carc_catalog_find(st->cat, "E"), c = carc_catalog_find(st->cat, "C");
    ck_assert(carc_fits(st, e, 0, -1, 2));     /* city faces city */
    ck_assert(!carc_fits(st, e, 0, -1, 0));    /* field faces city */
    ck_assert(!carc_fits(st, e, 5, 5, 0));     /* touches nothing */
    ck_assert(!carc_fits(st, e, 0, 0, 0));     /* taken */
    ck_assert(carc_fits(st, c, 0, -1, 0));
    ck_assert(!carc_fits(st, c, 1, 0, 0));     /* city against the start tile's road */
    free(st);
}
END_TEST

START_TEST(rebuild_rejects_a_piece_that_does_not_fit)
{
    carc_state *st = calloc(1, sizeof *st);
    st->cat = tu_catalog();
    st->nplayers = 2;
    st->pieces[0] = (carc_piece){.x = 0, .y = 0, .type = (uint8_t)carc_catalog_find(st->cat, "D")};
    st->pieces[1] = (carc_piece){.x = 0, .y = -1, .type = (uint8_t)carc_catalog_find(st->cat, "E"), .rot = 0};
    st->npieces = 2;
    char err[256] = "";
    ck_assert_int_eq(carc_state_rebuild(st, err, sizeof err), CARC_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "does not fit"));
    free(st);
}
END_TEST

/* The placement list is the fit table's answer on the frontier (board.h); here it is held to the slow
 * answer, carc_fits_space at every space and rotation, in the same order, at every placement of random
 * games with and without the expansions (triangles take the slow path in both). */
START_TEST(placements_are_every_fit_in_space_order)
{
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    carc_moves got = {0};
    char err[256];
    long checked = 0;
    for (int g = 0; g < 60; g++) {
        carc_setup setup;
        carc_setup_defaults(&setup);
        setup.nplayers = 2 + g % 5;
        setup.expansions = g % 2 ? (uint8_t)((1u << CARC_NSETS) - 1) : 0;
        setup.seed[0] = (uint8_t)g;
        carc_rng pick;
        uint8_t key[32] = {(uint8_t)g, 1};
        carc_rng_seed(&pick, key);
        ck_assert_msg(carc_game_new(st, tu_catalog(), &setup, &ev, err, sizeof err) == 0, "%s", err);
        while (st->status == CARC_ACTIVE) {
            carc_legal_moves(st, st->pending.seat, &got);
            ck_assert_uint_gt(got.n, 0);
            if (st->pending.kind == CARC_PENDING_PLACE) {
                size_t n = 0;
                for (int si = 0; si < st->board.nspaces; si++)
                    for (int rot = 0; rot < 4; rot++) {
                        if (!carc_fits_space(st, st->pending.tile, si, rot))
                            continue;
                        const carc_space *sp = &st->board.spaces[si];
                        carc_move want = {.kind = CARC_MV_PLACE, .tile = st->pending.tile, .rot = (uint8_t)rot,
                                          .x = sp->x, .y = sp->y};
                        ck_assert_msg(n < got.n && carc_move_equal(&got.v[n], &want),
                                      "game %d turn %d: placement %zu is not (%d,%d) rot %d", g, st->turn, n,
                                      sp->x, sp->y, rot);
                        n++;
                    }
                ck_assert_uint_eq(n, got.n);
                checked++;
            }
            carc_events_clear(&ev);
            const carc_move *m = &got.v[carc_rng_below(&pick, (uint32_t)got.n)];
            ck_assert_msg(carc_apply(st, st->pending.seat, m, &ev, err, sizeof err) == 0, "%s", err);
        }
    }
    ck_assert_int_gt(checked, 60 * 40);
    carc_moves_free(&got);
    carc_events_free(&ev);
    free(st);
}
END_TEST

static char *events_text(const carc_state *st, const carc_events *ev)
{
    json_t *j = carc_events_to_json(st, ev, CARC_VIEW_ADMIN);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* A game of each expansion set and 2 to 6 seats, played by random moves twice in lockstep: on whole
 * copies (*a = *b) and on carc_state_copy's copies, each made into memory full of garbage (a fresh pattern
 * every move, so nothing stale past the live part can pass for the truth). Every move gives the same legal
 * moves, the same worth for the bots, the same events and the same state: no rule reads past the live
 * part of the board. */
START_TEST(live_copy_plays_as_a_whole_copy)
{
    static const uint8_t sets[] = {0, 1u << CARC_SET_HILLS_SHEEP, 1u << CARC_SET_CROP_CIRCLES,
                                   1u << CARC_SET_FRUIT_TREES, 1u << CARC_SET_HALFLINGS,
                                   (1u << CARC_NSETS) - 1};
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2 + _i % 5;
    s.expansions |= sets[_i % 6];
    s.seed[0] = (uint8_t)_i;
    carc_state *whole = malloc(sizeof *whole), *prev = malloc(sizeof *prev);
    carc_state *live[2] = {malloc(sizeof *live[0]), malloc(sizeof *live[1])};
    ck_assert(whole && prev && live[0] && live[1]);
    char err[200];
    ck_assert_int_eq(carc_game_new(whole, tu_catalog(), &s, NULL, err, sizeof err), 0);
    memset(live[0], 0xA5, sizeof *live[0]);
    carc_state_copy(live[0], whole);
    carc_rng r;
    carc_bot_rng(&r, s.seed, 7);
    carc_moves ma = {0}, mb = {0};
    carc_events ea = {0}, eb = {0};
    int moves = 0;
    for (int k = 0; whole->status == CARC_ACTIVE; k++, moves++) {
        carc_state *cur = live[k & 1], *next = live[(k + 1) & 1];
        int seat = whole->pending.seat;
        carc_legal_moves(whole, seat, &ma);
        carc_legal_moves(cur, seat, &mb);
        char *ta = carc_moves_to_json_text(whole, &ma), *tb = carc_moves_to_json_text(cur, &mb);
        ck_assert_str_eq(ta, tb);
        free(ta);
        free(tb);
        double wa[CARC_MAX_PLAYERS], wb[CARC_MAX_PLAYERS];
        carc_bot_worth(whole, wa);
        carc_bot_worth(cur, wb);
        ck_assert_mem_eq(wa, wb, whole->nplayers * sizeof wa[0]);
        const carc_move *mv = &ma.v[carc_rng_below(&r, (uint32_t)ma.n)];
        *prev = *whole;
        carc_events_clear(&ea);
        carc_events_clear(&eb);
        ck_assert_int_eq(carc_apply(prev, seat, mv, &ea, err, sizeof err), 0);
        memset(next, 0x5A ^ k, sizeof *next);
        carc_state_copy(next, cur);
        ck_assert_int_eq(carc_apply(next, seat, mv, &eb, err, sizeof err), 0);
        ta = events_text(prev, &ea);
        tb = events_text(next, &eb);
        ck_assert_str_eq(ta, tb);
        free(ta);
        free(tb);
        ta = carc_state_to_json_text(prev, true);
        tb = carc_state_to_json_text(next, true);
        ck_assert_str_eq(ta, tb);
        free(ta);
        free(tb);
        *whole = *prev;
    }
    ck_assert_int_gt(moves, 50);
    carc_moves_free(&ma);
    carc_moves_free(&mb);
    carc_events_free(&ea);
    carc_events_free(&eb);
    free(whole);
    free(prev);
    free(live[0]);
    free(live[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("geometry");
    tcase_add_test(tc, hs02_face_to_face_joins_all_four);
    tcase_add_test(tc, hs02_against_whole_city_side_joins_both);
    tcase_add_test(tc, hs02_segments_apart_when_alone);
    tcase_add_test(tc, hs01_face_to_face_joins_pairwise);
    tcase_add_test(tc, hs01_against_whole_field_side_joins_both);
    tcase_add_test(tc, road_side_fields_join_across_the_road);
    tcase_add_test(tc, two_triangles_share_a_space);
    tcase_add_test(tc, what_fits_on_a_half_filled_space);
    tcase_add_test(tc, fits_needs_contact_and_matching_sides);
    tcase_add_test(tc, rebuild_rejects_a_piece_that_does_not_fit);
    tcase_add_test(tc, placements_are_every_fit_in_space_order);
    tcase_add_loop_test(tc, live_copy_plays_as_a_whole_copy, 0, 30);
    /* Check's default is 4 s a test; placements_are_every_fit_in_space_order takes about 1 s under
     * ASan+UBSan on a quiet machine, and ran out of the 4 s once beside the e2e tests in test.sh. */
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
