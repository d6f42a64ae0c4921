/*
 * test_halflings.c — Halb so wild II on whole random games: alone (random deal and draft) and with all four
 * expansions. Played uniformly over carc_legal_moves: every listed move is accepted, refused moves change
 * nothing, scores are the sum of score events, every triangle is placed or still in a hand. Hidden
 * information: no seat or public view and no event another seat or the public sees names a triangle of a
 * privately dealt hand; hand sizes are public; a seat sees its own hand.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "rules.h"
#include "testutil.h"

static carc_setup setup_for(int players, int game, uint8_t sets, int draft)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = players;
    s.expansions = (uint8_t)(s.expansions | sets | 1u << CARC_SET_HALFLINGS);
    s.opt[CARC_OPT_HALFLINGS_DEAL] = (uint8_t)draft;
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game % 2);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 17 + i * 3 + 5);
    return s;
}

static const uint8_t ALL_SETS = TU_ALL_EXPANSIONS;

static bool listed(const carc_moves *m, const carc_move *mv)
{
    for (size_t i = 0; i < m->n; i++)
        if (!memcmp(&m->v[i], mv, sizeof *mv))
            return true;
    return false;
}

/* A few moves that must be refused now (when they are not in the legal list). */
static void check_refusals(const carc_state *st, const carc_moves *m)
{
    int seat = st->pending.seat;
    carc_move bad;
    if (st->nplayers > 1)
        ck_assert_int_eq(tu_apply_copy(st, (seat + 1) % st->nplayers, &m->v[0]), CARC_E_NOT_TURN);
    bad = (carc_move){.kind = CARC_MV_DRAW};
    if (!listed(m, &bad))
        ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
    for (int t = 0; t < st->cat->ntypes; t++) {   /* a triangle nobody may place or pick now */
        if (st->cat->types[t].shape != CARC_TRIANGLE)
            continue;
        bad = (carc_move){.kind = CARC_MV_DRAFT, .tile = (uint8_t)t};
        if (!listed(m, &bad))
            ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
        bad = (carc_move){.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .x = 1, .y = 0, .rot = 0};
        if (!listed(m, &bad))
            ck_assert_int_ne(tu_apply_copy(st, seat, &bad), 0);
    }
    for (size_t i = 0; i < m->n; i++)   /* a listed triangle placement moved far away */
        if (m->v[i].kind == CARC_MV_PLACE && st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE) {
            bad = m->v[i];
            bad.x = (int16_t)(bad.x + 60);
            ck_assert_int_eq(tu_apply_copy(st, seat, &bad), CARC_E_ILLEGAL);
            break;
        }
}

typedef struct {
    int games, turns, triangles_placed, draws_chosen, drafts, squares_on_half;
    int corner_listed[4];   /* triangle placements listed per corner (the right angle's) */
    bool prefer_triangles;  /* choose a triangle over a draw 3 times in 4 */
} stats;

/* The triangle placements the active seat could make now, by enumeration: each distinct triangle of the
 * hand (hand order) at every space (board order) and corner 0..3 where carc_fits_space holds. */
static void enumerate_triangles(const carc_state *st, carc_moves *out)
{
    int seat = st->active;
    out->n = 0;
    for (int i = 0; i < st->half.hand_n[seat]; i++) {
        int t = st->half.hand[seat][i];
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= st->half.hand[seat][j] == t;
        for (int si = 0; si < st->board.nspaces && !dup; si++)
            for (int rot = 0; rot < 4; rot++)
                if (carc_fits_space(st, t, si, rot)) {
                    carc_move mv = {.kind = CARC_MV_PLACE, .tile = (uint8_t)t, .rot = (uint8_t)rot,
                                    .x = st->board.spaces[si].x, .y = st->board.spaces[si].y};
                    carc_moves_push(out, &mv);
                }
    }
}

/* At a draw-or-triangle choice the legal list is "draw" and then exactly the enumeration; a turn that
 * starts with a drawn tile (pending PLACE not after a chosen draw) had no triangle that fits. */
static void check_triangle_list(const carc_state *st, const carc_moves *m, bool after_draw, stats *sx)
{
    bool choice = st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE;
    if (!choice && (st->pending.kind != CARC_PENDING_PLACE || after_draw))
        return;
    carc_moves want = {0};
    enumerate_triangles(st, &want);
    if (!choice) {
        ck_assert_msg(want.n == 0, "turn %d: seat %d was not asked, but %zu triangle placements fit", st->turn,
                      st->active, want.n);
    } else {
        ck_assert_uint_eq(m->n, want.n + 1);
        ck_assert_int_eq(m->v[0].kind, CARC_MV_DRAW);
        for (size_t i = 0; i < want.n; i++) {
            ck_assert_msg(carc_move_equal(&m->v[i + 1], &want.v[i]), "turn %d: legal move %zu differs", st->turn,
                          i + 1);
            sx->corner_listed[want.v[i].rot]++;
        }
    }
    carc_moves_free(&want);
}

/* Plays one game to the end; checks every step; returns its events. */
static void play(carc_state *st, const carc_setup *s, uint8_t chooser, carc_events *all, stats *sx)
{
    char err[256];
    carc_events ev = {0};
    ck_assert_msg(carc_game_new(st, tu_catalog(), s, &ev, err, sizeof err) == 0, "%s", err);
    int dealt = 0;
    for (int p = 0; p < st->nplayers; p++)
        dealt += st->half.hand_n[p];
    if (s->opt[CARC_OPT_HALFLINGS_DEAL] == 0 && !s->hands_scripted)
        ck_assert_int_eq(dealt, 2 * st->nplayers);
    uint8_t key[32] = {chooser, 0x4b};
    carc_rng r;
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    bool after_draw = false;   /* the last move was a chosen draw */
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        ck_assert_int_lt(steps, 3000);
        int seat = st->pending.seat;
        carc_legal_moves(st, seat, &m);
        ck_assert_uint_gt(m.n, 0);
        carc_moves other = {0};
        carc_legal_moves(st, (seat + 1) % st->nplayers, &other);
        ck_assert_uint_eq(other.n, 0);
        carc_moves_free(&other);
        if (st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE) {
            ck_assert_int_eq(m.v[0].kind, CARC_MV_DRAW);
            ck_assert_uint_gt(m.n, 1);   /* asked only when a triangle fits */
            for (size_t i = 1; i < m.n; i++) {   /* only triangles of the seat's own hand */
                bool held = false;
                for (int k = 0; k < st->half.hand_n[seat]; k++)
                    held |= st->half.hand[seat][k] == m.v[i].tile;
                ck_assert(held && m.v[i].kind == CARC_MV_PLACE);
            }
        }
        if (st->pending.kind == CARC_PENDING_PLACE)
            for (size_t i = 0; i < m.n; i++) {   /* a square never on a half-filled space */
                int si = -1;
                for (int k = 0; k < st->board.nspaces && si < 0; k++)
                    if (st->board.spaces[k].x == m.v[i].x && st->board.spaces[k].y == m.v[i].y)
                        si = k;
                ck_assert_int_ge(si, 0);
                sx->squares_on_half += st->board.spaces[si].npieces != 0;
            }
        if (steps % 3 == 0)
            check_refusals(st, &m);
        check_triangle_list(st, &m, after_draw, sx);
        carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
        if (sx->prefer_triangles && mv.kind == CARC_MV_DRAW && m.n > 1 && carc_rng_below(&r, 4) != 0)
            mv = m.v[1 + carc_rng_below(&r, (uint32_t)m.n - 1)];   /* reach crowded boards of triangles */
        after_draw = mv.kind == CARC_MV_DRAW;
        if (st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE) {
            sx->draws_chosen += mv.kind == CARC_MV_DRAW;
            sx->triangles_placed += mv.kind == CARC_MV_PLACE;
        }
        sx->drafts += mv.kind == CARC_MV_DRAFT;
        ck_assert_msg(carc_apply(st, seat, &mv, &ev, err, sizeof err) == 0, "%s", err);
    }
    sx->games++;
    sx->turns += st->turn;
    *all = ev;
    carc_moves_free(&m);
}

/* Scores = sum of score events; every tile of the stack was placed, discarded or put under a hill; every
 * triangle dealt or drafted is on the board or still in its hand. */
static void check_game(const carc_state *st, const carc_events *ev)
{
    int32_t sum[CARC_MAX_PLAYERS] = {0};
    int squares = 0, triangles = 0, given = 0, under = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const carc_event *x = &ev->v[i];
        if (x->kind == CARC_EV_SCORE)
            for (int p = 0; p < st->nplayers; p++)
                if (x->seats >> p & 1)
                    sum[p] += x->points;
        if (x->kind == CARC_EV_PIECE_PLACED) {
            if (st->cat->types[x->tile].shape == CARC_TRIANGLE)
                triangles++;
            else
                squares++;
        }
        squares += x->kind == CARC_EV_TILE_DISCARDED;
        given += x->kind == CARC_EV_TRIANGLE_DEALT || x->kind == CARC_EV_TRIANGLE_DRAFTED;
    }
    for (int p = 0; p < st->npieces; p++)
        under += st->pieces[p].under != CARC_NO_TYPE;
    for (int p = 0; p < st->nplayers; p++)
        ck_assert_int_eq(sum[p], st->players[p].score);
    ck_assert_int_eq(squares + under, st->stack_len);
    int held = 0;
    for (int p = 0; p < st->nplayers; p++)
        held += st->half.hand_n[p];
    ck_assert_int_eq(triangles + held, given);
    ck_assert_int_eq(ev->v[ev->n - 1].kind, CARC_EV_GAME_OVER);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_NONE);
}

START_TEST(whole_games_alone)
{
    stats sx = {0};
    carc_state *st = malloc(sizeof *st);
    for (int g = 0; g < 6; g++) {
        carc_setup s = setup_for(2 + (_i + g) % 5, _i * 10 + g, 0, g % 2);
        carc_events ev;
        play(st, &s, (uint8_t)(_i * 10 + g), &ev, &sx);
        check_game(st, &ev);
        carc_events_free(&ev);
    }
    ck_assert_int_gt(sx.triangles_placed, 0);
    ck_assert_int_gt(sx.draws_chosen, 0);
    ck_assert_int_gt(sx.drafts, 0);
    ck_assert_int_eq(sx.squares_on_half, 0);
    free(st);
}
END_TEST

START_TEST(whole_games_all_expansions)
{
    stats sx = {0};
    carc_state *st = malloc(sizeof *st);
    for (int g = 0; g < 6; g++) {
        carc_setup s = setup_for(2 + (_i + g) % 5, 500 + _i * 10 + g, ALL_SETS, g % 2);
        carc_events ev;
        play(st, &s, (uint8_t)(_i * 10 + g + 100), &ev, &sx);
        check_game(st, &ev);
        carc_events_free(&ev);
    }
    ck_assert_int_gt(sx.triangles_placed, 0);
    ck_assert_int_eq(sx.squares_on_half, 0);
    free(st);
}
END_TEST

/* Random positions crowded with triangles: all twelve scripted into the hands, placed in preference to a
 * draw; every draw-or-triangle list must be exactly the enumeration of carc_fits_space, every corner seen. */
START_TEST(triangle_list_is_every_fit)
{
    stats sx = {.prefer_triangles = true};
    carc_state *st = malloc(sizeof *st);
    int hw01 = carc_catalog_find(tu_catalog(), "HW01");
    for (int g = 0; g < 8; g++) {
        int players = 2 + (_i + g) % 3;
        carc_setup s = setup_for(players, 900 + _i * 10 + g, g % 2 ? ALL_SETS : 0, 0);
        s.hands_scripted = 1;
        for (int k = 0; k < 12; k++) {   /* HW01..HW12 dealt round the seats, starting at a varying seat */
            int seat = (k + g) % players;
            s.hand[seat][s.hand_n[seat]++] = (uint8_t)(hw01 + (k * 5 + g) % 12);
        }
        carc_events ev;
        play(st, &s, (uint8_t)(_i * 10 + g + 200), &ev, &sx);
        check_game(st, &ev);
        carc_events_free(&ev);
    }
    ck_assert_int_gt(sx.triangles_placed, 0);
    for (int c = 0; c < 4; c++)
        ck_assert_msg(sx.corner_listed[c] > 0, "no triangle placement with corner %d was listed", c);
    free(st);
}
END_TEST

START_TEST(six_players_get_all_twelve)
{
    carc_setup s = setup_for(6, 3, 0, 0);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_events ev = {0};
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, &ev, err, sizeof err), 0);
    unsigned seen = 0;
    for (int p = 0; p < 6; p++) {
        ck_assert_int_eq(st->half.hand_n[p], 2);
        for (int k = 0; k < 2; k++)
            seen |= 1u << (st->half.hand[p][k] - carc_catalog_find(tu_catalog(), "HW01"));
    }
    ck_assert_uint_eq(seen, 0xFFFu);
    size_t dealt = 0;
    for (size_t i = 0; i < ev.n; i++)
        dealt += ev.v[i].kind == CARC_EV_TRIANGLE_DEALT;
    ck_assert_uint_eq(dealt, 12);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* The draft with 6 players: the 12th pick is forced (one triangle left) and made without asking. */
START_TEST(draft_last_pick_forced)
{
    carc_setup s = setup_for(6, 4, 0, 1);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    carc_moves m = {0};
    for (int pick = 0; pick < 11; pick++) {
        ck_assert_int_eq(st->pending.kind, CARC_PENDING_DRAFT);
        ck_assert_int_eq(st->pending.seat, 5 - pick % 6);
        carc_legal_moves(st, st->pending.seat, &m);
        ck_assert_uint_eq(m.n, 12u - (unsigned)pick);
        ck_assert_int_eq(carc_apply(st, st->pending.seat, &m.v[0], NULL, err, sizeof err), 0);
    }
    ck_assert_int_ne(st->pending.kind, CARC_PENDING_DRAFT);
    ck_assert_int_eq(st->half.pool_n, 0);
    for (int p = 0; p < 6; p++)
        ck_assert_int_eq(st->half.hand_n[p], 2);
    ck_assert_int_eq(st->turn, 1);
    carc_moves_free(&m);
    free(st);
}
END_TEST

START_TEST(script_hands_checked)
{
    carc_setup s = setup_for(2, 1, 0, 0);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    int hw01 = carc_catalog_find(tu_catalog(), "HW01"), e = carc_catalog_find(tu_catalog(), "E");
    s.hands_scripted = 1;
    s.hand_n[0] = 2;
    s.hand[0][0] = (uint8_t)hw01;
    s.hand[0][1] = (uint8_t)hw01;   /* one HW01 only */
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "script.hands[0][1]: HW01 is not a triangle left in this game");
    s.hand[0][1] = (uint8_t)e;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    s.hand_n[0] = 1;
    s.hand_n[3] = 1;   /* a seat the game does not have */
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);
    s.hand_n[3] = 0;
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), 0);
    ck_assert_int_eq(st->half.hand_n[0], 1);
    ck_assert_int_eq(st->half.hand_n[1], 0);
    s.expansions = 1u << CARC_SET_BASE;   /* hands without the expansion */
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err), CARC_E_INVALID);

    json_error_t je;
    json_t *j = json_loads("[[\"HW01\",\"HW08\"],[\"HW04\",\"HW12\"]]", 0, &je);
    carc_setup t = setup_for(2, 1, 0, 0);
    ck_assert_int_eq(carc_script_hands_from_json(tu_catalog(), j, &t, err, sizeof err), 0);
    ck_assert_int_eq(t.hands_scripted, 1);
    ck_assert_int_eq(t.hand_n[1], 2);
    ck_assert_int_eq(t.hand[1][1], carc_catalog_find(tu_catalog(), "HW12"));
    json_decref(j);
    j = json_loads("[[\"HW01\"],[\"XX\"]]", 0, &je);
    ck_assert_int_eq(carc_script_hands_from_json(tu_catalog(), j, &t, err, sizeof err), CARC_E_INVALID);
    ck_assert_msg(strncmp(err, "script.hands[1][0]: ", 20) == 0, "%s", err);
    json_decref(j);
    j = json_loads("[[\"HW01\"]]", 0, &je);
    ck_assert_int_eq(carc_script_hands_from_json(tu_catalog(), j, &t, err, sizeof err), CARC_E_INVALID);
    ck_assert_msg(strncmp(err, "script.hands: ", 14) == 0, "%s", err);
    json_decref(j);
    free(st);
}
END_TEST

/* ---- hidden information --------------------------------------------------------------------------------- */
static bool mentions(const char *text, const char *id)
{
    char q[16];
    snprintf(q, sizeof q, "\"%s\"", id);
    return strstr(text, q) != NULL;
}

static char *dump(const json_t *j)
{
    char *t = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* For every viewer (public and each seat): its view and the events it is shown of the last step never name
 * a triangle in another seat's hand; it sees every hand's size and its own hand. */
static void check_hidden(const carc_state *st, const carc_events *ev, int *checks)
{
    bool open_hands = st->opt[CARC_OPT_HALFLINGS_DEAL] == 1;
    for (int v = -1; v < st->nplayers; v++) {
        int viewer = v < 0 ? CARC_VIEW_PUBLIC : v;
        json_t *view = carc_view_to_json(st, viewer), *evs = carc_events_to_json(st, ev, viewer);
        char *vt = dump(view), *et = dump(evs);
        for (int p = 0; p < st->nplayers; p++) {
            for (int k = 0; k < st->half.hand_n[p]; k++) {
                const char *id = st->cat->types[st->half.hand[p][k]].id;
                bool may = p == v || open_hands;
                if (!may && (mentions(vt, id) || mentions(et, id)))
                    ck_abort_msg("viewer %d sees %s of seat %d's hand:\n%s\n%s", v, id, p, vt, et);
                if (p == v && !mentions(vt, id))
                    ck_abort_msg("seat %d does not see its own %s", v, id);
                (*checks)++;
            }
            json_t *sizes = json_object_get(json_object_get(view, "halflings"), "hand_sizes");
            ck_assert_int_eq(json_integer_value(json_array_get(sizes, (size_t)p)), st->half.hand_n[p]);
        }
        json_t *you = json_object_get(view, "you");
        if (v >= 0) {
            ck_assert_int_eq(json_array_size(json_object_get(you, "hand")), st->half.hand_n[v]);
            ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), v);
        } else {
            ck_assert_ptr_null(you);
        }
        ck_assert(open_hands == (json_object_get(json_object_get(view, "halflings"), "hands") != NULL));
        free(vt);
        free(et);
        json_decref(view);
        json_decref(evs);
    }
}

START_TEST(hands_stay_hidden)
{
    int checks = 0;
    for (int g = 0; g < 4; g++) {
        carc_setup s = setup_for(2 + (_i + g) % 5, 900 + _i * 10 + g, g % 2 ? ALL_SETS : 0, g == 3);
        carc_state *st = malloc(sizeof *st);
        char err[256];
        carc_events ev = {0};
        ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, &ev, err, sizeof err), 0);
        uint8_t key[32] = {(uint8_t)(_i * 4 + g), 0x99};
        carc_rng r;
        carc_rng_seed(&r, key);
        carc_moves m = {0};
        check_hidden(st, &ev, &checks);
        while (st->status == CARC_ACTIVE) {
            carc_legal_moves(st, st->pending.seat, &m);
            carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
            carc_events_clear(&ev);
            ck_assert_int_eq(carc_apply(st, st->pending.seat, &mv, &ev, err, sizeof err), 0);
            check_hidden(st, &ev, &checks);
        }
        carc_moves_free(&m);
        carc_events_free(&ev);
        free(st);
    }
    ck_assert_int_gt(checks, 0);
}
END_TEST

/* The stored events of a whole game, filtered for each viewer, never name another seat's dealt triangle;
 * the dealt events go to their owner and admins only. */
START_TEST(dealt_events_private)
{
    carc_setup s = setup_for(3, 77, 0, 0);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    carc_events ev = {0};
    ck_assert_int_eq(carc_game_new(st, tu_catalog(), &s, &ev, err, sizeof err), 0);
    json_t *admin = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
    for (int v = -1; v < 3; v++) {
        json_t *seen = carc_events_json_filter(admin, v < 0 ? CARC_VIEW_PUBLIC : v);
        size_t dealt = 0, i;
        json_t *e;
        json_array_foreach(seen, i, e) {
            if (strcmp(json_string_value(json_object_get(e, "type")), "triangle_dealt"))
                continue;
            ck_assert_int_eq(json_integer_value(json_object_get(e, "seat")), v);
            dealt++;
        }
        ck_assert_uint_eq(dealt, v < 0 ? 0 : 2);
        json_decref(seen);
    }
    json_decref(admin);
    carc_events_free(&ev);
    free(st);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("halflings");
    TCase *tc = tcase_create("games");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, whole_games_alone, 0, 4);
    tcase_add_loop_test(tc, whole_games_all_expansions, 0, 4);
    tcase_add_loop_test(tc, triangle_list_is_every_fit, 0, 3);
    tcase_add_test(tc, six_players_get_all_twelve);
    tcase_add_test(tc, draft_last_pick_forced);
    tcase_add_test(tc, script_hands_checked);
    tcase_add_loop_test(tc, hands_stay_hidden, 0, 3);
    tcase_add_test(tc, dealt_events_private);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
