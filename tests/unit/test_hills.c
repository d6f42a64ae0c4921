/*
 * test_hills.c — Hills & Sheep on whole random games (alone and with all four expansions): every listed move
 * is accepted, refused moves change nothing, scores are the sum of score events, the bag always holds what
 * it should; hidden information (the bag's contents, the script, the tiles under hills) never reaches a seat's
 * or the public view or events; the script and its checks; the count tie-break.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expansions.h"   /* carc_hills_tiebreak, the board: the count tie-break test */
#include "json.h"
#include "testutil.h"

static const uint8_t all_sets = TU_ALL_EXPANSIONS;

static carc_setup setup_for(int game, bool all)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2 + game % 5;
    s.expansions |= all ? all_sets : 1u << CARC_SET_HILLS_SHEEP;
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game % 2);
    s.opt[CARC_OPT_HILL_TAKES_TILE] = (uint8_t)(game % 3 != 2);
    s.opt[CARC_OPT_HILL_TIEBREAK] = (uint8_t)(game / 2 % 2);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 37 + i * 3 + all);
    return s;
}

/* The bag and the flocks hold the 18 tokens exactly; a seat has a flock exactly when its shepherd is out. */
static void check_tokens(const carc_state *st)
{
    static const int full[5] = {2, 4, 5, 5, 2};
    int count[5] = {0};
    for (int i = 0; i < st->hills.bag_n; i++) {
        count[st->hills.bag[i]]++;
        if (i > 0 && st->hills.bag[i - 1] > st->hills.bag[i])
            ck_abort_msg("the bag is not sorted");
    }
    for (int s = 0; s < st->nplayers; s++) {
        for (int i = 0; i < st->hills.flock_n[s]; i++)
            count[st->hills.flock[s][i]]++;
        bool out = carc_supply(st, s, CARC_FIG_SHEPHERD) == 0;
        if (out != (st->hills.flock_n[s] > 0))
            ck_abort_msg("seat %d: shepherd out %d, flock of %d", s, out, st->hills.flock_n[s]);
    }
    for (int v = 0; v < 5; v++)
        if (count[v] != full[v])
            ck_abort_msg("%d tokens of value %d, want %d", count[v], v, full[v]);
}

/* Something no view or event for a seat or the public may contain. */
static void assert_hidden(const carc_state *st, const json_t *j, const char *what)
{
    char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_ptr_nonnull(text);
    if (strstr(text, "\"under\"") || strstr(text, "\"bag\"") || strstr(text, "\"script\"") ||
        strstr(text, "\"script_pos\"") || strstr(text, "\"stack\""))
        ck_abort_msg("%s shows hidden hills data: %s", what, text);
    free(text);
    (void)st;
}

/* Every seat's and the public view: the hills member is exactly the bag's count and the flocks. */
static void check_views(const carc_state *st)
{
    for (int v = CARC_VIEW_PUBLIC; v < st->nplayers; v++) {
        if (v == CARC_VIEW_ADMIN)
            continue;
        json_t *j = carc_view_to_json(st, v);
        assert_hidden(st, j, "a view");
        json_t *h = json_object_get(j, "hills_sheep");
        ck_assert_ptr_nonnull(h);
        if (json_object_size(h) != 2 || json_integer_value(json_object_get(h, "bag_left")) != st->hills.bag_n)
            ck_abort_msg("view hills_sheep member is not {bag_left, flocks}");
        json_t *fl = json_object_get(h, "flocks");
        for (int s = 0; s < st->nplayers; s++)
            if (json_array_size(json_array_get(fl, (size_t)s)) != st->hills.flock_n[s])
                ck_abort_msg("view flock of seat %d differs", s);
        json_decref(j);
    }
    json_t *adm = carc_view_to_json(st, CARC_VIEW_ADMIN);
    json_t *h = json_object_get(adm, "hills_sheep");
    ck_assert_uint_eq(json_array_size(json_object_get(h, "bag")), st->hills.bag_n);
    json_decref(adm);
}

/* Events of one move as every viewer sees them: a hill_covered event shows its tile to admins only. */
static void check_events(const carc_state *st, const carc_events *ev, int *covered)
{
    for (int v = CARC_VIEW_PUBLIC; v < st->nplayers; v++) {
        if (v == CARC_VIEW_ADMIN)
            continue;
        json_t *a = carc_events_to_json(st, ev, v);
        assert_hidden(st, a, "events");
        size_t i;
        json_t *e;
        json_array_foreach(a, i, e) {
            if (strcmp(json_string_value(json_object_get(e, "type")), "hill_covered") == 0 &&
                (json_object_get(e, "tile") || json_object_size(e) != 3))
                ck_abort_msg("viewer %d sees a hill_covered event with more than x, y", v);
        }
        json_decref(a);
    }
    json_t *a = carc_events_to_json(st, ev, CARC_VIEW_ADMIN);
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        if (strcmp(json_string_value(json_object_get(e, "type")), "hill_covered") == 0) {
            ck_assert(json_is_string(json_object_get(e, "tile")));
            (*covered)++;
        }
    }
    json_decref(a);
}

typedef struct {
    int grows, stables, shepherds, covered, flock_points, games;
} tally;

static void play(int game, bool all, tally *t)
{
    carc_setup s = setup_for(game, all);
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    char err[256];
    if (carc_game_new(st, tu_catalog(), &s, &ev, err, sizeof err) != 0)
        ck_abort_msg("game_new: %s", err);
    uint8_t key[32] = {(uint8_t)game, all, 0x4b};
    carc_rng r;
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    int32_t sum[CARC_MAX_PLAYERS] = {0};
    int hs_tiles = 0, under = 0;
    bool deep = game % 4 == 0;   /* views, events and refusals at every step: a quarter of the games */
    for (int steps = 0;; steps++) {
        if (steps > 2000)
            ck_abort_msg("game %d does not end", game);
        for (size_t i = 0; i < ev.n; i++) {
            const carc_event *x = &ev.v[i];
            if (x->kind == CARC_EV_SCORE) {
                for (int p = 0; p < st->nplayers; p++)
                    if (x->seats >> p & 1)
                        sum[p] += x->points;
                if (x->reason == CARC_REASON_FLOCK)
                    t->flock_points += x->points;
            }
            if (x->kind == CARC_EV_PIECE_PLACED && tu_catalog()->types[x->tile].set == CARC_SET_HILLS_SHEEP)
                hs_tiles++;
        }
        if (deep) {
            check_events(st, &ev, &t->covered);
            check_views(st);
        }
        check_tokens(st);
        if (st->status == CARC_FINISHED)
            break;
        carc_events_clear(&ev);
        int seat = st->pending.seat;
        carc_legal_moves(st, seat, &m);
        if (m.n == 0)
            ck_abort_msg("game %d: no legal move while waiting", game);
        if (deep) {
            for (size_t i = 0; i < m.n; i++)   /* every listed move is accepted */
                if (tu_apply_copy(st, seat, &m.v[i]) != 0)
                    ck_abort_msg("game %d: listed move %zu refused", game, i);
            carc_move bad[] = {{.kind = CARC_MV_GROW}, {.kind = CARC_MV_STABLE},
                               {.kind = CARC_MV_FIGURE, .fig = CARC_FIG_SHEPHERD, .part = CARC_MAX_PARTS - 1}};
            for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                bool listed = false;
                for (size_t k = 0; k < m.n; k++)
                    listed |= memcmp(&m.v[k], &bad[i], sizeof bad[i]) == 0;
                if (!listed && tu_apply_copy(st, seat, &bad[i]) == 0)
                    ck_abort_msg("game %d: an unlisted move was accepted", game);
            }
            if (tu_apply_copy(st, (seat + 1) % st->nplayers, &m.v[0]) == 0)
                ck_abort_msg("game %d: a move out of turn was accepted", game);
        }
        carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
        t->grows += mv.kind == CARC_MV_GROW;
        t->stables += mv.kind == CARC_MV_STABLE;
        t->shepherds += mv.kind == CARC_MV_FIGURE && mv.fig == CARC_FIG_SHEPHERD;
        if (carc_apply(st, seat, &mv, &ev, err, sizeof err) != 0)
            ck_abort_msg("game %d: apply: %s", game, err);
    }
    for (int p = 0; p < st->nplayers; p++)
        ck_assert_int_eq(sum[p], st->players[p].score);
    for (int p = 0; p < st->npieces; p++)
        under += st->pieces[p].under != CARC_NO_TYPE;
    if (!s.opt[CARC_OPT_HILL_TAKES_TILE])
        ck_assert_int_eq(under, 0);
    ck_assert_int_gt(hs_tiles, 0);
    t->games++;
    carc_moves_free(&m);
    carc_events_free(&ev);
    free(st);
}

START_TEST(whole_games_alone)
{
    tally t = {0};
    for (int g = 0; g < 24; g++)
        play(g, false, &t);
    ck_assert_int_gt(t.shepherds, 0);
    ck_assert_int_gt(t.grows, 0);
    ck_assert_int_gt(t.stables, 0);
    ck_assert_int_gt(t.flock_points, 0);
    ck_assert_int_gt(t.covered, 0);
}
END_TEST

START_TEST(whole_games_all_four)
{
    tally t = {0};
    for (int g = 0; g < 24; g++)
        play(g, true, &t);
    ck_assert_int_gt(t.shepherds, 0);
    ck_assert_int_gt(t.flock_points, 0);
}
END_TEST

/* The stack: 71 base tiles + 18 = 89 to draw; every one placed, discarded or put under a hill. */
START_TEST(tiles_all_accounted)
{
    carc_setup s = setup_for(1, false);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    ck_assert_int_eq(st->stack_len, 71 + 18);
    ck_assert_int_eq(st->hills.bag_n, 18);
    carc_rng r;
    uint8_t key[32] = {9};
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    while (st->status == CARC_ACTIVE) {
        carc_legal_moves(st, st->pending.seat, &m);
        ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[carc_rng_below(&r, (uint32_t)m.n)], NULL, err,
                                    sizeof err), 0);
    }
    int under = 0;
    for (int p = 0; p < st->npieces; p++)
        under += st->pieces[p].under != CARC_NO_TYPE;
    ck_assert_int_gt(under, 0);
    ck_assert_int_eq(st->npieces - 1 + st->ndiscarded + under, 71 + 18);
    carc_moves_free(&m);
    free(st);
}
END_TEST

/* Script checks at creation: values 0..4 only, hills_sheep in play, at most CARC_MAX_SCRIPT. */
START_TEST(script_validated)
{
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_setup s = setup_for(0, false);
    s.nsheep = 2;
    s.sheep[0] = 2;
    s.sheep[1] = 5;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "script.sheep[1]: a token is 1 to 4 sheep or \"wolf\"");
    s.sheep[1] = CARC_WOLF;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    ck_assert_int_eq(st->hills.script_n, 2);
    s.expansions = 1u << CARC_SET_BASE;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "script.sheep: hills_sheep is not in play");
    s = setup_for(0, false);
    s.nsheep = CARC_MAX_SCRIPT + 1;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    free(st);
}
END_TEST

/* Plays the first legal move of the kind wanted (shepherd / grow / stable / place ...) until done. */
static bool play_kind(carc_state *st, int kind, int fig, carc_events *ev)
{
    carc_moves m = {0};
    char err[256];
    carc_legal_moves(st, st->pending.seat, &m);
    for (size_t i = 0; i < m.n; i++)
        if (m.v[i].kind == kind && (kind != CARC_MV_FIGURE || m.v[i].fig == fig)) {
            ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[i], ev, err, sizeof err), 0);
            carc_moves_free(&m);
            return true;
        }
    carc_moves_free(&m);
    return false;
}

/* A scripted draw the bag cannot give (a third 4 while both 4s lie in flocks) is a uniform draw; the next
 * entries still apply to the next draws. Scripted draws use no randomness. */
START_TEST(script_impossible_draw_is_uniform)
{
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_setup s = setup_for(3, false);
    s.nplayers = 3;
    const uint8_t script[] = {4, 4, 4, 1};
    s.nsheep = 4;
    memcpy(s.sheep, script, sizeof script);
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    int drawn[8], nd = 0;
    uint64_t rng_before = 0;
    carc_events ev = {0};
    while (st->status == CARC_ACTIVE && nd < 4) {
        carc_events_clear(&ev);
        if (st->pending.kind == CARC_PENDING_FIGURE) {
            rng_before = st->rng.pos;
            if (!play_kind(st, CARC_MV_FIGURE, CARC_FIG_SHEPHERD, &ev))
                play_kind(st, CARC_MV_PASS, 0, &ev);
        } else if (st->pending.kind == CARC_PENDING_FLOCK) {
            rng_before = st->rng.pos;
            play_kind(st, CARC_MV_GROW, 0, &ev);
        } else {
            carc_moves m = {0};
            carc_legal_moves(st, st->pending.seat, &m);
            ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[0], &ev, err, sizeof err), 0);
            carc_moves_free(&m);
        }
        for (size_t i = 0; i < ev.n; i++)
            if (ev.v[i].kind == CARC_EV_TOKEN_DRAWN) {
                drawn[nd] = ev.v[i].value;
                if (nd != 2)   /* scripted: no randomness used by the draw */
                    ck_assert_uint_eq(st->rng.pos, rng_before);
                nd++;
                if (nd == 2) {   /* keep both 4s out of the bag until the third draw */
                    ck_assert_int_eq(st->hills.script_pos, 2);
                }
            }
    }
    ck_assert_int_eq(nd, 4);
    ck_assert_int_eq(drawn[0], 4);
    ck_assert_int_eq(drawn[1], 4);
    ck_assert_int_ne(drawn[2], 4);   /* no 4 left (unless the field was stabled in between: not here) */
    ck_assert_int_eq(drawn[3], 1);
    ck_assert_int_eq(st->hills.script_pos, 4);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* Option hill_tiebreak: with seats tied 2-2, seat 0 with both followers on hills, seat 1 with one, at_least_one
 * keeps the tie (both have one) and count gives it to seat 0. Built directly on a board. */
START_TEST(tiebreak_count)
{
    const carc_catalog *cat = tu_catalog();
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_setup s;
    carc_setup_defaults(&s);
    s.expansions |= 1u << CARC_SET_HILLS_SHEEP;
    s.nstack = 3;
    s.stack[0] = (uint8_t)carc_catalog_find(cat, "HS13");   /* hill; roads N>end, S>end */
    s.stack[1] = (uint8_t)carc_catalog_find(cat, "HS15");   /* hill */
    s.stack[2] = (uint8_t)carc_catalog_find(cat, "U");
    s.opt[CARC_OPT_HILL_TAKES_TILE] = 0;
    ck_assert_int_eq(carc_game_new(st, cat, &s, NULL, err, sizeof err), 0);
    /* three pieces far apart: the tie-break reads only figures, pieces, spaces and marks, not fits */
    st->pieces[1] = (carc_piece){.x = 5, .y = 5, .type = s.stack[0], .rot = 0, .under = CARC_NO_TYPE};
    st->pieces[2] = (carc_piece){.x = 7, .y = 7, .type = s.stack[1], .rot = 0, .under = CARC_NO_TYPE};
    st->pieces[3] = (carc_piece){.x = 9, .y = 9, .type = s.stack[2], .rot = 0, .under = CARC_NO_TYPE};
    st->npieces = 4;
    /* rebuild would check fits; the board only needs its spaces for carc_hills_on_hill */
    carc_board_clear(&st->board);
    for (int p = 0; p < st->npieces; p++)
        ck_assert_int_eq(carc_board_add(st, p), 0);
    st->nfigures = 4;
    st->figures[0] = (carc_figure){.seat = 0, .kind = CARC_FIG_MEEPLE, .piece = 1, .part = 0};
    st->figures[1] = (carc_figure){.seat = 0, .kind = CARC_FIG_MEEPLE, .piece = 2, .part = 0};
    st->figures[2] = (carc_figure){.seat = 1, .kind = CARC_FIG_MEEPLE, .piece = 1, .part = 1};
    st->figures[3] = (carc_figure){.seat = 1, .kind = CARC_FIG_MEEPLE, .piece = 3, .part = 0};
    carc_feature f;
    memset(&f, 0, sizeof f);
    f.kind = CARC_PART_ROAD;
    f.nfigs = 4;
    for (int i = 0; i < 4; i++)
        f.figs[i] = (uint8_t)i;
    f.followers[0] = f.followers[1] = 2;
    st->opt[CARC_OPT_HILL_TIEBREAK] = 0;
    ck_assert_uint_eq(carc_hills_tiebreak(st, &f, 3), 3);
    st->opt[CARC_OPT_HILL_TIEBREAK] = 1;
    ck_assert_uint_eq(carc_hills_tiebreak(st, &f, 3), 1);
    /* seat 1's hill follower moved off the hill: at_least_one gives it to seat 0 too */
    st->figures[2].piece = 3;
    st->opt[CARC_OPT_HILL_TIEBREAK] = 0;
    ck_assert_uint_eq(carc_hills_tiebreak(st, &f, 3), 1);
    /* cloisters never: the tie-break is for roads, cities and fields */
    f.kind = CARC_PART_CLOISTER;
    ck_assert_uint_eq(carc_hills_tiebreak(st, &f, 3), 3);
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hills");
    TCase *tc = tcase_create("hills");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, whole_games_alone);
    tcase_add_test(tc, whole_games_all_four);
    tcase_add_test(tc, tiles_all_accounted);
    tcase_add_test(tc, script_validated);
    tcase_add_test(tc, script_impossible_draw_is_uniform);
    tcase_add_test(tc, tiebreak_count);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
