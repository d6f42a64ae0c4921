/*
 * test_crop.c — Crop Circles on whole random games (alone and with all four expansions): every listed move
 * is accepted, refused moves change nothing, the game waits for the right seat in the right order, scores
 * are the sums of score events; views and events hide nothing they must not show; the JSON of crop moves
 * and snapshots; a seat out of supply or out of the game during the action.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "testutil.h"

#define ALL_SETS TU_ALL_EXPANSIONS

static carc_setup setup_for(int players, int game, unsigned sets)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = players;
    s.expansions = (uint8_t)sets;
    s.opt[CARC_OPT_CC_ADD_WHERE] = (uint8_t)(game % 2);
    s.opt[CARC_OPT_CC_ADD] = (uint8_t)(game / 2 % 2);
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game / 4 % 2);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 17 + i * 3 + 1);
    return s;
}

/* What a whole game saw. */
typedef struct {
    int choices, actions, adds, removes, skips, skipped, whole, corners;
} crop_counts;

/* The seat whose crop circle action is due at position `step` (from the active player's left). */
static int crop_seat(const carc_state *st, int step) { return (st->active + 1 + step) % st->nplayers; }

/* Plays one game uniformly over carc_legal_moves, checking at every crop decision; returns all events. */
static void play(carc_state *st, const carc_setup *s, uint8_t chooser, carc_events *all, crop_counts *cc)
{
    char err[256];
    carc_events ev = {0};
    if (carc_game_new(st, tu_catalog(), s, &ev, err, sizeof err) != 0)
        ck_abort_msg("game_new: %s", err);
    uint8_t key[32] = {chooser, 0xcc};
    carc_rng r;
    carc_rng_seed(&r, key);
    carc_moves m = {0}, other = {0};
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        if (steps > 3000)
            ck_abort_msg("game does not end");
        int seat = st->pending.seat, kind = st->pending.kind;
        carc_legal_moves(st, seat, &m);
        if (m.n == 0)
            ck_abort_msg("no legal move for the seat the game waits for");
        for (int o = 0; o < st->nplayers; o++) {   /* nobody else may move */
            if (o == seat)
                continue;
            carc_legal_moves(st, o, &other);
            if (other.n != 0)
                ck_abort_msg("seat %d has moves while the game waits for seat %d", o, seat);
            if (tu_apply_copy(st, o, &m.v[0]) != CARC_E_NOT_TURN)
                ck_abort_msg("seat %d moved in seat %d's place", o, seat);
        }
        if (kind == CARC_PENDING_CC_CHOICE || kind == CARC_PENDING_CC_ACTION) {
            if (st->crop.kind == CARC_CC_NONE)
                ck_abort_msg("crop decision without an action in progress");
            if (kind == CARC_PENDING_CC_CHOICE) {
                cc->choices++;
                if (seat != st->active || m.n != 2 || m.v[0].kind != CARC_MV_CC_ADD ||
                    m.v[1].kind != CARC_MV_CC_REMOVE)
                    ck_abort_msg("the choice is the active player's, A or B");
            } else {
                cc->actions++;
                if (seat != crop_seat(st, st->crop.step))
                    ck_abort_msg("action pending for seat %d at step %d", seat, st->crop.step);
                bool skip = m.v[0].kind == CARC_MV_CC_SKIP;
                if (skip != (st->crop.mode == 0 && st->opt[CARC_OPT_CC_ADD] == 0))
                    ck_abort_msg("skip offered wrongly");
                if (m.n < 1u + skip)
                    ck_abort_msg("a seat with nothing to do was asked");
            }
            /* every listed move is accepted and reads back from its JSON (triangles name their corner);
             * junk is refused without a trace */
            for (size_t i = 0; i < m.n; i++) {
                if (tu_apply_copy(st, seat, &m.v[i]) != 0)
                    ck_abort_msg("listed move %zu refused", i);
                json_t *j = carc_move_to_json(st, &m.v[i]);
                carc_move back;
                if (!j || carc_move_from_json(st, j, &back, err, sizeof err) != 0 ||
                    memcmp(&back, &m.v[i], sizeof back) != 0)
                    ck_abort_msg("listed move %zu does not round-trip: %s", i, err);
                if (json_object_get(j, "corner"))
                    cc->corners++;
                json_decref(j);
            }
            /* the snapshot round-trips mid-action and offers the same moves */
            json_t *snap = carc_state_to_json(st);
            carc_state *back = malloc(sizeof *back);
            if (carc_state_from_json(back, st->cat, snap, err, sizeof err) != 0)
                ck_abort_msg("snapshot decode: %s", err);
            json_t *again = carc_state_to_json(back);
            if (!json_equal(snap, again) || memcmp(&back->crop, &st->crop, sizeof st->crop) != 0)
                ck_abort_msg("snapshot differs after a round trip");
            carc_legal_moves(back, seat, &other);
            if (other.n != m.n || memcmp(other.v, m.v, m.n * sizeof *m.v) != 0)
                ck_abort_msg("the decoded state offers other moves");
            json_decref(snap);
            json_decref(again);
            free(back);
            carc_move junk = {.kind = CARC_MV_CC_FIGURE, .piece = 0, .part = CARC_MAX_PARTS - 1};
            if (tu_apply_copy(st, seat, &junk) != CARC_E_ILLEGAL)
                ck_abort_msg("junk crop move accepted");
            carc_move pass = {.kind = CARC_MV_PASS};
            if (tu_apply_copy(st, seat, &pass) != CARC_E_ILLEGAL)
                ck_abort_msg("pass accepted at a crop decision");
            if (kind == CARC_PENDING_CC_ACTION) {
                carc_move choice = {.kind = CARC_MV_CC_ADD};
                if (tu_apply_copy(st, seat, &choice) != CARC_E_ILLEGAL)
                    ck_abort_msg("a second choice accepted");
            }
        } else if (st->crop.kind != CARC_CC_NONE) {
            ck_abort_msg("crop action in progress while the game waits for something else");
        }
        const carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
        if (kind == CARC_PENDING_CC_ACTION) {
            cc->skips += mv.kind == CARC_MV_CC_SKIP;
            cc->adds += mv.kind == CARC_MV_CC_FIGURE && st->crop.mode == 0;
            cc->removes += mv.kind == CARC_MV_CC_FIGURE && st->crop.mode == 1;
        }
        int supply = carc_supply(st, seat, CARC_FIG_MEEPLE);
        int crop_mode = st->crop.mode;
        if (carc_apply(st, seat, &mv, &ev, err, sizeof err) != 0)
            ck_abort_msg("apply: %s", err);
        if (kind == CARC_PENDING_CC_ACTION && mv.kind == CARC_MV_CC_FIGURE &&
            carc_supply(st, seat, CARC_FIG_MEEPLE) != supply + (crop_mode ? 1 : -1))
            ck_abort_msg("the action did not move exactly one meeple");
    }
    for (size_t i = 0; i < ev.n; i++)
        if (ev.v[i].kind == CARC_EV_CC_SKIPPED) {
            cc->skipped++;
            cc->whole += ev.v[i].value != 0;
        }
    carc_moves_free(&m);
    carc_moves_free(&other);
    *all = ev;
}

static void check_sums(const carc_state *st, const carc_events *ev)
{
    int32_t sum[CARC_MAX_PLAYERS] = {0};
    for (size_t i = 0; i < ev->n; i++)
        if (ev->v[i].kind == CARC_EV_SCORE)
            for (int p = 0; p < st->nplayers; p++)
                if (ev->v[i].seats >> p & 1)
                    sum[p] += ev->v[i].points;
    for (int p = 0; p < st->nplayers; p++)
        ck_assert_int_eq(sum[p], st->players[p].score);
    ck_assert_int_eq(ev->v[ev->n - 1].kind, CARC_EV_GAME_OVER);
    ck_assert_int_eq(st->crop.kind, CARC_CC_NONE);
}

static void whole_games(unsigned sets, int ngames)
{
    crop_counts cc = {0};
    carc_state *st = malloc(sizeof *st);
    for (int g = 0; g < ngames; g++) {
        carc_setup s = setup_for(2 + g % 5, g, sets);
        carc_events ev;
        play(st, &s, (uint8_t)g, &ev, &cc);
        check_sums(st, &ev);
        carc_events_free(&ev);
    }
    free(st);
    ck_assert_int_gt(cc.choices, 0);
    ck_assert_int_gt(cc.actions, 0);
    ck_assert_int_gt(cc.adds, 0);
    ck_assert_int_gt(cc.removes, 0);
    ck_assert_int_gt(cc.skips, 0);
    ck_assert_int_gt(cc.skipped, 0);
    ck_assert_int_gt(cc.whole, 0);
    if (sets & 1u << CARC_SET_HALFLINGS)
        ck_assert_int_gt(cc.corners, 0);
}

START_TEST(random_games_crop_alone) { whole_games(1u << CARC_SET_CROP_CIRCLES, 40); }
END_TEST

START_TEST(random_games_all_four) { whole_games(ALL_SETS, 30); }
END_TEST

/* Same seed, same moves: the same game, bit for bit (the action's order included). */
START_TEST(deterministic)
{
    carc_setup s = setup_for(4, 3, 1u << CARC_SET_CROP_CIRCLES);
    carc_state *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    carc_events ea, eb;
    crop_counts cc = {0};
    play(a, &s, 9, &ea, &cc);
    play(b, &s, 9, &eb, &cc);
    ck_assert_int_eq(memcmp(a, b, sizeof *a), 0);
    ck_assert_uint_eq(ea.n, eb.n);
    ck_assert_int_eq(memcmp(ea.v, eb.v, ea.n * sizeof *ea.v), 0);
    carc_events_free(&ea);
    carc_events_free(&eb);
    free(a);
    free(b);
}
END_TEST

/* ---- hidden information ------------------------------------------------------------------------------- */
static const char *const forbidden[] = {"\"stack\"", "\"stack_remaining\"", "\"rng\"", "\"seed\"", "\"under\"",
                                        "\"bag\"", "\"script\"", NULL};

static void check_text_clean(const json_t *j, const char *what)
{
    char *t = json_dumps(j, JSON_COMPACT);
    ck_assert_ptr_nonnull(t);
    for (const char *const *f = forbidden; *f; f++)
        if (strstr(t, *f))
            ck_abort_msg("%s shows %s: %.300s", what, *f, t);
    free(t);
}

/* The crop_circles member of a view: exactly the documented members. */
static void check_crop_view(const carc_state *st, const json_t *view)
{
    const json_t *c = json_object_get(view, "crop_circles");
    if (!c || json_object_size(c) != 1)
        ck_abort_msg("view lacks crop_circles {action}");
    const json_t *a = json_object_get(c, "action");
    if (st->crop.kind == CARC_CC_NONE) {
        if (!json_is_null(a))
            ck_abort_msg("an action shown when none is in progress");
        return;
    }
    static const char *const keys[] = {"kind", "x", "y", "corner", "chooser", "mode", "seat", "order", "step"};
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)a, k, v) {
        bool known = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            known |= strcmp(k, keys[i]) == 0;
        if (!known)
            ck_abort_msg("view action shows %s", k);
    }
    if (json_integer_value(json_object_get(a, "seat")) != st->pending.seat)
        ck_abort_msg("view names another seat than pending");
    bool chosen = st->pending.kind == CARC_PENDING_CC_ACTION;
    if (chosen != json_is_string(json_object_get(a, "mode")))
        ck_abort_msg("mode shown before the choice or hidden after it");
}

/* Seat and public views and events of whole games: no stack order, seed or hidden draw in any of them; the
 * crop circle events reach everyone unchanged; the action in progress is shown as documented. */
START_TEST(hidden_information)
{
    carc_state *st = malloc(sizeof *st);
    for (int g = 0; g < 6; g++) {
        unsigned sets = g % 2 ? ALL_SETS : 1u << CARC_SET_CROP_CIRCLES;
        carc_setup s = setup_for(2 + g % 5, 50 + g, sets);
        char err[256];
        carc_events ev = {0};
        ck_assert_msg(carc_game_new(st, tu_catalog(), &s, &ev, err, sizeof err) == 0, "%s", err);
        uint8_t key[32] = {(uint8_t)g, 0x1d};
        carc_rng r;
        carc_rng_seed(&r, key);
        carc_moves m = {0};
        int crop_events = 0;
        for (int steps = 0; st->status == CARC_ACTIVE && steps < 3000; steps++) {
            for (int viewer = CARC_VIEW_PUBLIC; viewer < st->nplayers; viewer++) {
                if (viewer == CARC_VIEW_ADMIN)
                    continue;
                json_t *v = carc_view_to_json(st, viewer);
                check_text_clean(v, "view");
                check_crop_view(st, v);
                json_decref(v);
                json_t *admin = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
                json_t *seen = carc_events_to_json(st, &ev, viewer);
                for (size_t i = 0; i < json_array_size(admin); i++) {
                    const json_t *e = json_array_get(admin, i);
                    const char *type = json_string_value(json_object_get(e, "type"));
                    if (strncmp(type, "crop_circle_", 12) != 0)
                        continue;
                    crop_events++;
                    bool found = false;   /* public: the viewer sees it exactly */
                    for (size_t k = 0; k < json_array_size(seen) && !found; k++)
                        found = json_equal(json_array_get(seen, k), e);
                    if (!found)
                        ck_abort_msg("viewer %d does not see %s", viewer, type);
                }
                check_text_clean(seen, "events");
                json_decref(admin);
                json_decref(seen);
            }
            carc_events_clear(&ev);
            carc_legal_moves(st, st->pending.seat, &m);
            ck_assert_uint_gt(m.n, 0);
            carc_move mv = m.v[carc_rng_below(&r, (uint32_t)m.n)];
            ck_assert_msg(carc_apply(st, st->pending.seat, &mv, &ev, err, sizeof err) == 0, "%s", err);
        }
        ck_assert_int_eq(st->status, CARC_FINISHED);
        ck_assert_int_gt(crop_events, 0);
        carc_moves_free(&m);
        carc_events_free(&ev);
    }
    free(st);
}
END_TEST

/* ---- scripted situations ------------------------------------------------------------------------------ */
static int tid(const char *id) { return carc_catalog_find(tu_catalog(), id); }

static void apply_ok(carc_state *st, int seat, carc_move mv, carc_events *ev)
{
    char err[256];
    if (carc_apply(st, seat, &mv, ev, err, sizeof err) != 0)
        ck_abort_msg("apply: %s", err);
}

/* Three players with a thief each (the club_add_three_players scenario), waiting for seat 0's choice;
 * ask_forced 1 asks even for an action with one legal move. */
static carc_state *three_thieves(int add_where, int add, int ask_forced)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 3;
    s.expansions = 1u << CARC_SET_CROP_CIRCLES;
    s.opt[CARC_OPT_CC_ADD_WHERE] = (uint8_t)add_where;
    s.opt[CARC_OPT_CC_ADD] = (uint8_t)add;
    s.opt[CARC_OPT_ASK_FORCED] = (uint8_t)ask_forced;
    s.nstack = 5;
    s.stack[0] = s.stack[1] = s.stack[2] = (uint8_t)tid("U");
    s.stack[3] = (uint8_t)tid("CC01");
    s.stack[4] = (uint8_t)tid("B");
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < 3; i++) {
        apply_ok(st, i, (carc_move){.kind = CARC_MV_PLACE, .tile = (uint8_t)tid("U"), .x = (int16_t)(i == 0),
                                    .y = (int16_t)(i == 0 ? 0 : i), .rot = 1}, NULL);
        apply_ok(st, i, (carc_move){.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 0}, NULL);
    }
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_PLACE, .tile = (uint8_t)tid("CC01"), .x = 1, .y = 1, .rot = 0},
             NULL);
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_PASS}, NULL);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_CC_CHOICE);
    ck_assert_int_eq(st->pending.seat, 0);
    return st;
}

/* A seat with no meeple in supply cannot add: it is skipped with an event, never asked. */
START_TEST(no_supply_is_skipped)
{
    carc_state *st = three_thieves(0, 0, 0);
    while (carc_supply(st, 1, CARC_FIG_MEEPLE) > 0)   /* seat 1's other meeples all stand on D's field */
        st->figures[st->nfigures++] = (carc_figure){.seat = 1, .kind = CARC_FIG_MEEPLE, .piece = 0, .part = 3};
    carc_events ev = {0};
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_ADD}, &ev);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_CC_ACTION);
    ck_assert_int_eq(st->pending.seat, 2);
    bool skipped = false;
    for (size_t i = 0; i < ev.n; i++)
        skipped |= ev.v[i].kind == CARC_EV_CC_SKIPPED && ev.v[i].seat == 1 && ev.v[i].value == 0;
    ck_assert(skipped);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* B with one thief each: nobody has a choice, so the engine returns every thief, seat by seat in acting
 * order, each a forced_move event followed by its figure_returned; the game then waits for the next turn's
 * placement. With ask_forced every seat is asked as before. */
START_TEST(remove_chain_is_forced)
{
    carc_state *st = three_thieves(0, 0, 0);
    carc_events ev = {0};
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_REMOVE}, &ev);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_PLACE);
    ck_assert_int_eq(st->pending.seat, 1);
    ck_assert_int_eq(st->nfigures, 0);
    int order[3], n = 0;
    for (size_t i = 0; i < ev.n; i++)
        if (ev.v[i].kind == CARC_EV_FORCED_MOVE) {
            ck_assert_int_lt(n, 3);
            order[n++] = ev.v[i].seat;
            ck_assert_int_eq(ev.v[i].move.kind, CARC_MV_CC_FIGURE);
            ck_assert_uint_lt(i + 1, ev.n);   /* the move's own event follows it */
            ck_assert_int_eq(ev.v[i + 1].kind, CARC_EV_FIGURE_RETURNED);
            ck_assert_int_eq(ev.v[i + 1].seat, ev.v[i].seat);
        }
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(order[0], 1);
    ck_assert_int_eq(order[1], 2);
    ck_assert_int_eq(order[2], 0);
    carc_events_free(&ev);
    free(st);

    st = three_thieves(0, 0, 1);
    ev = (carc_events){0};
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_REMOVE}, &ev);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_CC_ACTION);
    ck_assert_int_eq(st->pending.seat, 1);
    for (size_t i = 0; i < ev.n; i++)
        ck_assert_int_ne(ev.v[i].kind, CARC_EV_FORCED_MOVE);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* B with a mandatory remove, asked (ask_forced): the default move (turn clock) returns a follower; leaving
 * seats are passed over, and a seat that leaves while asked has its action made for it. */
START_TEST(leave_during_action)
{
    carc_state *st = three_thieves(0, 0, 1);
    carc_events ev = {0};
    char err[256];
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_REMOVE}, &ev);
    ck_assert_int_eq(st->pending.seat, 1);
    carc_move d;
    ck_assert_int_eq(carc_default_move(st, &d), 0);
    ck_assert_int_eq(d.kind, CARC_MV_CC_FIGURE);
    /* seat 2 leaves first (not asked yet), then seat 1 (asked now): seat 1's thief is returned for it,
     * seat 2 is passed over and seat 0 is asked last */
    ck_assert_int_eq(carc_leave(st, 2, &ev, err, sizeof err), 0);
    ck_assert_int_eq(st->pending.seat, 1);
    ck_assert_int_eq(carc_leave(st, 1, &ev, err, sizeof err), 0);
    /* two seats left: one remains, so the game is over */
    ck_assert_int_eq(st->status, CARC_FINISHED);
    carc_events_free(&ev);
    free(st);

    /* 3 players, only seat 2 leaves while seat 1 is asked: seat 1 acts, seat 2 is passed over, then seat 0 */
    st = three_thieves(0, 0, 0);
    ev = (carc_events){0};
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_ADD}, &ev);
    ck_assert_int_eq(carc_leave(st, 2, &ev, err, sizeof err), 0);
    ck_assert_int_eq(st->pending.seat, 1);
    ck_assert_int_eq(carc_default_move(st, &d), 0);
    ck_assert_int_eq(d.kind, CARC_MV_CC_SKIP);
    apply_ok(st, 1, d, &ev);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_CC_ACTION);
    ck_assert_int_eq(st->pending.seat, 0);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* same_feature: the targets are every segment of the seat's feature, each once, whatever the order the
 * board keeps them in. */
START_TEST(same_feature_targets)
{
    carc_state *st = three_thieves(1, 1, 0);
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_ADD}, NULL);
    ck_assert_int_eq(st->pending.seat, 1);
    carc_moves m = {0};
    carc_legal_moves(st, 1, &m);
    /* seat 1's road: U (0,1) r1 and CC01 (1,1) r1; mandatory: no skip */
    ck_assert_uint_eq(m.n, 2);
    ck_assert_int_eq(m.v[0].kind, CARC_MV_CC_FIGURE);
    ck_assert_int_eq(st->pieces[m.v[0].piece].x, 0);
    ck_assert_int_eq(st->pieces[m.v[1].piece].x, 1);
    carc_moves_free(&m);
    free(st);
}
END_TEST

/* ---- JSON --------------------------------------------------------------------------------------------- */
static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(j != NULL, "bad test json: %s", e.text);
    return j;
}

static void expect_move_error(const carc_state *st, const char *text, int code, const char *want)
{
    carc_move m;
    char err[256] = "";
    json_t *j = parse(text);
    int rc = carc_move_from_json(st, j, &m, err, sizeof err);
    json_decref(j);
    ck_assert_msg(rc == code, "%s: rc %d, want %d (%s)", text, rc, code, err);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: message \"%s\", want \"%s...\"", text, err, want);
}

START_TEST(json_moves_and_views)
{
    carc_state *st = three_thieves(0, 0, 0);
    char err[256];
    /* the choice */
    json_t *j = carc_move_to_json(st, &(carc_move){.kind = CARC_MV_CC_ADD});
    char *t = json_dumps(j, JSON_COMPACT);
    ck_assert_str_eq(t, "{\"type\":\"crop_circle_add\"}");
    free(t);
    json_decref(j);
    json_t *v = carc_view_to_json(st, CARC_VIEW_PUBLIC);
    t = json_dumps(json_object_get(v, "crop_circles"), JSON_COMPACT);
    ck_assert_str_eq(t, "{\"action\":{\"kind\":\"club\",\"x\":1,\"y\":1,\"chooser\":0,\"mode\":null,\"seat\":0,"
                        "\"order\":[1,2,0],\"step\":0}}");
    free(t);
    json_decref(v);
    carc_events ev = {0};
    apply_ok(st, 0, (carc_move){.kind = CARC_MV_CC_ADD}, &ev);
    j = carc_events_to_json(st, &ev, CARC_VIEW_PUBLIC);
    t = json_dumps(j, JSON_COMPACT);
    ck_assert_str_eq(t, "[{\"type\":\"crop_circle_chosen\",\"seat\":0,\"choice\":\"add\",\"kind\":\"club\"}]");
    free(t);
    json_decref(j);
    carc_events_free(&ev);
    /* an action: x, y, part; round trip */
    carc_moves m = {0};
    carc_legal_moves(st, 1, &m);
    ck_assert_uint_eq(m.n, 2);
    j = carc_move_to_json(st, &m.v[1]);
    t = json_dumps(j, JSON_COMPACT);
    ck_assert_str_eq(t, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\"}");
    free(t);
    carc_move back;
    ck_assert_int_eq(carc_move_from_json(st, j, &back, err, sizeof err), 0);
    ck_assert_int_eq(memcmp(&back, &m.v[1], sizeof back), 0);
    json_decref(j);
    j = carc_move_to_json(st, &m.v[0]);
    t = json_dumps(j, JSON_COMPACT);
    ck_assert_str_eq(t, "{\"type\":\"crop_circle_skip\"}");
    free(t);
    json_decref(j);
    carc_moves_free(&m);
    v = carc_view_to_json(st, 2);
    t = json_dumps(json_object_get(v, "crop_circles"), JSON_COMPACT);
    ck_assert_str_eq(t, "{\"action\":{\"kind\":\"club\",\"x\":1,\"y\":1,\"chooser\":0,\"mode\":\"add\",\"seat\":1,"
                        "\"order\":[1,2,0],\"step\":0}}");
    free(t);
    json_decref(v);
    /* the snapshot member round-trips mid-action */
    j = carc_state_to_json(st);
    t = json_dumps(json_object_get(j, "crop_circles"), JSON_COMPACT);
    ck_assert_str_eq(t, "{\"action\":{\"kind\":\"club\",\"piece\":4,\"mode\":\"add\",\"step\":0}}");
    free(t);
    carc_state *b = malloc(sizeof *b);
    ck_assert_msg(carc_state_from_json(b, st->cat, j, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(memcmp(&b->crop, &st->crop, sizeof b->crop), 0);
    /* a snapshot whose action disagrees with pending is refused */
    json_object_set_new(json_object_get(json_object_get(j, "crop_circles"), "action"), "step", json_integer(1));
    ck_assert_int_eq(carc_state_from_json(b, st->cat, j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "crop_circles.action.step: does not name the seat the game waits for");
    json_object_set_new(json_object_get(j, "crop_circles"), "action", json_null());
    ck_assert_int_eq(carc_state_from_json(b, st->cat, j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "crop_circles.action: null while the game waits for a crop circle decision");
    json_decref(j);
    free(b);
    /* strict decoding */
    expect_move_error(st, "{\"type\":\"crop_circle_add\",\"x\":1}", CARC_E_INVALID, "x: unknown field");
    expect_move_error(st, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1}", CARC_E_INVALID, "part: missing");
    expect_move_error(st, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"c9\"}", CARC_E_INVALID,
                      "part: unknown part \"c9\" on tile \"U\"");
    expect_move_error(st, "{\"type\":\"crop_circle_figure\",\"x\":7,\"y\":7,\"part\":\"r1\"}", CARC_E_ILLEGAL,
                      "x: no piece at (7,7)");
    expect_move_error(st, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\",\"corner\":2}",
                      CARC_E_INVALID, "corner: only for a triangle");
    expect_move_error(st, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\",\"pieces\":2}",
                      CARC_E_INVALID, "pieces: unknown field");
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("crop");
    TCase *tc = tcase_create("crop circles");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_games_crop_alone);
    tcase_add_test(tc, random_games_all_four);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, hidden_information);
    tcase_add_test(tc, no_supply_is_skipped);
    tcase_add_test(tc, remove_chain_is_forced);
    tcase_add_test(tc, leave_during_action);
    tcase_add_test(tc, same_feature_targets);
    tcase_add_test(tc, json_moves_and_views);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
