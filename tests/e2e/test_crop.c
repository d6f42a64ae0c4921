/*
 * test_crop.c — Crop Circles through the API: a crop circle makes three players act in order, each with its
 * own token; a wrong player's attempt gets 403 (not-your-turn) while the game keeps waiting for the right
 * one; legal-moves offers the crop moves to the pending seat only; the views show the action in progress;
 * the admin replay (verify) agrees at the end.
 *
 * The admin scripts the stack (as tests/scenarios/crop_circles/club_add_three_players.scn):
 *   seat 0: U (1,0) r1, thief r1   seat 1: U (0,1) r1, thief r1   seat 2: U (0,2) r1, thief r1
 *   seat 0: CC01 (1,1) r0, pass -> club circle: seat 0 chooses add; then seat 1, seat 2, seat 0 act.
 *
 * Forced steps (as club_remove_chain_forced.scn): the same board, seat 0 chooses remove, and every seat's
 * only legal move is to return its one thief: nobody is asked, the engine returns all three in seat 0's
 * move (forced_move events, "by": "forced"), the log has one entry for it, and the game waits for seat 1's
 * tile; with ask_forced true each seat is asked for its one move as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    int seq;
    char path[160], lpath[160], mpath[160];
} game;

/* Posts `move` (JSON text) as `seat` at the current seq; returns the HTTP status; the answer in *r. */
static long post(game *t, int seat, const char *move, e2e_resp *r)
{
    char body[512];
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", t->seq, move);
    return e2e_req(t->c, "POST", t->mpath, t->g.token[seat], body, NULL, r);
}

/* A move that must be accepted; returns the answer's events (owned by the caller). */
static json_t *play(game *t, int seat, const char *move)
{
    e2e_resp r;
    long st = post(t, seat, move, &r);
    ck_assert_msg(st == 200, "seat %d move %s at seq %d: %ld %.400s", seat, move, t->seq, st, r.body);
    t->seq++;
    ck_assert_int_eq(e2e_jint(r.json, "seq"), t->seq);
    json_t *ev = json_incref(json_object_get(r.json, "events"));
    e2e_resp_free(&r);
    return ev;
}

static void play_quiet(game *t, int seat, const char *move) { json_decref(play(t, seat, move)); }

/* The public view waits for `kind` from `seat` at the current seq. */
static json_t *expect_pending(game *t, const char *kind, int seat)
{
    json_t *v = e2e_get_ok(t->c, t->path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "seq"), t->seq);
    ck_assert_str_eq(e2e_jstr(v, "pending.kind"), kind);
    ck_assert_int_eq(e2e_jint(v, "pending.seat"), seat);
    return v;
}

/* Whether an events array holds an event of `type` (and `seat`, when >= 0). */
static bool has_event(const json_t *events, const char *type, int seat)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        if (strcmp(e2e_jstr(e, "type"), type) == 0 && (seat < 0 || e2e_jint(e, "seat") == seat))
            return true;
    }
    return false;
}

/* Each other seat is offered nothing and is refused with 403 not-your-turn; the game does not move. */
static void others_refused(game *t, int waiting, const char *move)
{
    for (int s = 0; s < t->g.nplayers; s++) {
        if (s == waiting)
            continue;
        json_t *lm = e2e_get_ok(t->c, t->lpath, t->g.token[s], 200);
        ck_assert_msg(json_array_size(json_object_get(lm, "moves")) == 0, "seat %d offered moves", s);
        json_decref(lm);
        e2e_resp r;
        ck_assert_int_eq(post(t, s, move, &r), 403);
        e2e_assert_problem(&r, 403, NULL, "a crop circle move by the wrong seat");
        ck_assert_msg(e2e_problem_is(&r, "not-your-turn"), "%s", r.body);
        e2e_resp_free(&r);
        json_t *v = e2e_get_ok(t->c, t->path, NULL, 200);
        ck_assert_int_eq(e2e_jint(v, "seq"), t->seq);
        ck_assert_int_eq(e2e_jint(v, "pending.seat"), waiting);
        json_decref(v);
    }
}

/* Whether legal move m is `want` but for its self-description (notation, feature, sides, label). */
static bool same_move(const json_t *m, const json_t *want)
{
    json_t *bare = json_copy((json_t *)m);
    static const char *const described[] = {"notation", "feature", "sides", "label"};
    for (size_t k = 0; k < sizeof described / sizeof described[0]; k++)
        json_object_del(bare, described[k]);
    bool same = json_equal(bare, want);
    json_decref(bare);
    return same;
}

/* The pending seat's legal moves contain `move` (compact JSON text). */
static void offered(game *t, int seat, const char *move)
{
    json_t *lm = e2e_get_ok(t->c, t->lpath, t->g.token[seat], 200);
    ck_assert_int_eq(e2e_jint(lm, "seat"), seat);
    json_t *want = json_loads(move, 0, NULL);
    bool found = false;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(lm, "moves"), i, m) found |= same_move(m, want);
    char *text = json_dumps(lm, JSON_COMPACT);
    ck_assert_msg(found, "seat %d is not offered %s: %s", seat, move, text);
    free(text);
    json_decref(want);
    json_decref(lm);
}

START_TEST(three_players_act_in_order)
{
    game t = {0};
    t.d = e2e_daemon_up(NULL);
    t.c = e2e_client_new(t.d);
    long st = e2e_game_create_raw(t.c, t.d, 3, "[\"crop_circles\"]",
                                  "{\"script\":{\"stack\":[\"U\",\"U\",\"U\",\"CC01\",\"E\",\"B\"]}}", true, &t.g);
    ck_assert_msg(st == 201, "create: %ld", st);
    snprintf(t.path, sizeof t.path, "/v1/games/%s", t.g.id);
    snprintf(t.lpath, sizeof t.lpath, "/v1/games/%s/legal-moves", t.g.id);
    snprintf(t.mpath, sizeof t.mpath, "/v1/games/%s/moves", t.g.id);

    for (int s = 0; s < 3; s++) {
        char place[128];
        snprintf(place, sizeof place, "{\"type\":\"place\",\"tile\":\"U\",\"x\":%d,\"y\":%d,\"rot\":1}", s == 0,
                 s == 0 ? 0 : s);
        play_quiet(&t, s, place);
        play_quiet(&t, s, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"r1\"}");
    }
    play_quiet(&t, 0, "{\"type\":\"place\",\"tile\":\"CC01\",\"x\":1,\"y\":1,\"rot\":0}");
    play_quiet(&t, 0, "{\"type\":\"pass\"}");

    /* the choice: seat 0's, A or B */
    json_t *v = expect_pending(&t, "crop_circle_choice", 0);
    ck_assert_str_eq(e2e_jstr(v, "crop_circles.action.kind"), "club");
    ck_assert_ptr_nonnull(json_object_get(json_object_get(json_object_get(v, "crop_circles"), "action"), "mode"));
    ck_assert(json_is_null(e2e_jget(v, "crop_circles.action.mode")));
    json_decref(v);
    offered(&t, 0, "{\"type\":\"crop_circle_add\"}");
    offered(&t, 0, "{\"type\":\"crop_circle_remove\"}");
    others_refused(&t, 0, "{\"type\":\"crop_circle_add\"}");
    json_t *ev = play(&t, 0, "{\"type\":\"crop_circle_add\"}");
    ck_assert(has_event(ev, "crop_circle_chosen", 0));
    json_decref(ev);

    /* seat 1 first (left of seat 0) */
    v = expect_pending(&t, "crop_circle_action", 1);
    ck_assert_str_eq(e2e_jstr(v, "crop_circles.action.mode"), "add");
    ck_assert_int_eq(e2e_jint(v, "crop_circles.action.seat"), 1);
    json_decref(v);
    const char *add1 = "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\"}";
    offered(&t, 1, add1);
    offered(&t, 1, "{\"type\":\"crop_circle_skip\"}");
    others_refused(&t, 1, add1);
    e2e_resp r;   /* seat 1's thief is on U (0,1): CC01's r1 is another tile (same_tile): illegal, not forbidden */
    ck_assert_int_eq(post(&t, 1, "{\"type\":\"crop_circle_figure\",\"x\":1,\"y\":1,\"part\":\"r1\"}", &r), 422);
    e2e_assert_problem(&r, 422, "move", "an add on another tile");
    e2e_resp_free(&r);
    ev = play(&t, 1, add1);
    ck_assert(has_event(ev, "figure_placed", 1));
    json_decref(ev);

    /* seat 2 next: seat 0 (the active player) trying to act before it is refused */
    json_decref(expect_pending(&t, "crop_circle_action", 2));
    others_refused(&t, 2, "{\"type\":\"crop_circle_skip\"}");
    ev = play(&t, 2, "{\"type\":\"crop_circle_skip\"}");
    ck_assert(has_event(ev, "passed", 2));
    json_decref(ev);

    /* the active player last */
    json_decref(expect_pending(&t, "crop_circle_action", 0));
    others_refused(&t, 0, "{\"type\":\"crop_circle_skip\"}");
    ev = play(&t, 0, "{\"type\":\"crop_circle_figure\",\"x\":1,\"y\":0,\"part\":\"r1\"}");
    ck_assert(has_event(ev, "figure_placed", 0));
    ck_assert(has_event(ev, "turn", 1));
    json_decref(ev);

    /* play resumes with seat 1; the view shows no action any more and 5 meeples on the board */
    v = expect_pending(&t, "place", 1);
    ck_assert(json_is_null(e2e_jget(v, "crop_circles.action")));
    ck_assert_int_eq(json_array_size(json_object_get(v, "figures")), 5);
    json_decref(v);

    /* the log tells each seat the same story */
    long lst;
    json_t *log = e2e_events_log(t.c, t.g.id, t.g.token[2], &lst);
    ck_assert_msg(log != NULL, "events: %ld", lst);
    e2e_assert_log_complete(log, t.seq, "seat 2's log");
    json_decref(log);

    /* finish the game with the first legal move each time; the admin replay agrees */
    for (int guard = 0; guard < 40; guard++) {
        v = e2e_get_ok(t.c, t.path, NULL, 200);
        bool done = strcmp(e2e_jstr(v, "status"), "finished") == 0;
        int seat = (int)e2e_jint(v, "pending.seat");
        json_decref(v);
        if (done)
            break;
        json_t *lm = e2e_get_ok(t.c, t.lpath, t.g.token[seat], 200);
        char *mv = json_dumps(json_array_get(json_object_get(lm, "moves"), 0), JSON_COMPACT);
        json_decref(lm);
        play_quiet(&t, seat, mv);
        free(mv);
    }
    v = e2e_get_ok(t.c, t.path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    json_decref(v);
    ck_assert_int_eq(e2e_verify_ok(t.c, t.d, t.g.id), t.seq);

    e2e_client_free(t.c);
    e2e_daemon_down(t.d);
}
END_TEST

/* A crop circle game on the three-thieves board (three_players_act_in_order), waiting for seat 0's choice.
 * `options` is JSON object text or NULL. */
static void three_thieves(game *t, const char *options)
{
    t->d = e2e_daemon_up(NULL);
    t->c = e2e_client_new(t->d);
    char extra[300];
    snprintf(extra, sizeof extra, "{\"script\":{\"stack\":[\"U\",\"U\",\"U\",\"CC01\",\"E\",\"B\"]}%s%s}",
             options ? ",\"options\":" : "", options ? options : "");
    long st = e2e_game_create_raw(t->c, t->d, 3, "[\"crop_circles\"]", extra, true, &t->g);
    ck_assert_msg(st == 201, "create: %ld", st);
    snprintf(t->path, sizeof t->path, "/v1/games/%s", t->g.id);
    snprintf(t->lpath, sizeof t->lpath, "/v1/games/%s/legal-moves", t->g.id);
    snprintf(t->mpath, sizeof t->mpath, "/v1/games/%s/moves", t->g.id);
    for (int s = 0; s < 3; s++) {
        char place[128];
        snprintf(place, sizeof place, "{\"type\":\"place\",\"tile\":\"U\",\"x\":%d,\"y\":%d,\"rot\":1}", s == 0,
                 s == 0 ? 0 : s);
        play_quiet(t, s, place);
        play_quiet(t, s, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"r1\"}");
    }
    play_quiet(t, 0, "{\"type\":\"place\",\"tile\":\"CC01\",\"x\":1,\"y\":1,\"rot\":0}");
    play_quiet(t, 0, "{\"type\":\"pass\"}");
    json_decref(expect_pending(t, "crop_circle_choice", 0));
}

/* The thief each seat returns, in acting order (seat 1, seat 2, seat 0). */
static const int chain_seat[3] = {1, 2, 0};
static const char *const chain_move[3] = {
    "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\"}",
    "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":2,\"part\":\"r1\"}",
    "{\"type\":\"crop_circle_figure\",\"x\":1,\"y\":0,\"part\":\"r1\"}",
};

/* events holds, in order, a forced_move ("by": "forced") of each chain step, each followed by the
 * figure_returned of that seat. */
static void assert_forced_chain(const json_t *events, const char *what)
{
    size_t n = json_array_size(events), k = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(events, i);
        if (strcmp(e2e_jstr(e, "type"), "forced_move") != 0)
            continue;
        ck_assert_msg(k < 3, "%s: more than three forced moves", what);
        ck_assert_int_eq(e2e_jint(e, "seat"), chain_seat[k]);
        ck_assert_str_eq(e2e_jstr(e, "by"), "forced");
        json_t *want = json_loads(chain_move[k], 0, NULL);
        char *got = json_dumps(json_object_get(e, "move"), JSON_COMPACT);
        ck_assert_msg(json_equal(json_object_get(e, "move"), want), "%s: forced move %zu is %s, want %s", what, k,
                      got, chain_move[k]);
        free(got);
        json_decref(want);
        ck_assert_msg(i + 1 < n, "%s: nothing after the forced move", what);
        const json_t *next = json_array_get(events, i + 1);
        ck_assert_str_eq(e2e_jstr(next, "type"), "figure_returned");
        ck_assert_int_eq(e2e_jint(next, "seat"), chain_seat[k]);
        k++;
    }
    ck_assert_msg(k == 3, "%s: %zu forced moves, want 3", what, k);
}

/* Nobody is asked for a move that is no choice: the three returns are made in the chooser's move. */
START_TEST(forced_steps_are_not_asked)
{
    game t = {0};
    three_thieves(&t, NULL);
    json_t *v = e2e_get_ok(t.c, t.path, NULL, 200);
    ck_assert(json_is_false(e2e_jget(v, "options.ask_forced")));   /* the default */
    json_decref(v);

    e2e_resp r;
    ck_assert_int_eq(post(&t, 0, "{\"type\":\"crop_circle_remove\"}", &r), 200);
    t.seq++;
    ck_assert_int_eq(e2e_jint(r.json, "seq"), t.seq);   /* one move in the log, whatever it forced */
    assert_forced_chain(json_object_get(r.json, "events"), "the move's answer");
    ck_assert_ptr_null(json_object_get(r.json, "legal_moves"));   /* the game waits for seat 1 now */
    e2e_resp_free(&r);

    v = expect_pending(&t, "place", 1);
    ck_assert(json_is_null(e2e_jget(v, "crop_circles.action")));
    ck_assert_int_eq(json_array_size(json_object_get(v, "figures")), 0);
    json_decref(v);
    for (int s = 0; s < 3; s += 2) {   /* seats 0 and 2 have nothing to do */
        json_t *lm = e2e_get_ok(t.c, t.lpath, t.g.token[s], 200);
        ck_assert_uint_eq(json_array_size(json_object_get(lm, "moves")), 0);
        json_decref(lm);
    }
    /* a seat posting the move that was made for it is refused: it is not its turn */
    ck_assert_int_eq(post(&t, 2, chain_move[1], &r), 403);
    e2e_resp_free(&r);

    /* the log: the chooser's entry holds the forced steps, for every viewer */
    const char *viewers[] = {NULL, t.g.token[2], t.d->admin};
    for (int i = 0; i < 3; i++) {
        long lst;
        json_t *log = e2e_events_log(t.c, t.g.id, viewers[i], &lst);
        ck_assert_msg(log != NULL, "events: %ld", lst);
        e2e_assert_log_complete(log, t.seq, "the log");
        json_t *entry = json_array_get(log, (size_t)t.seq);
        ck_assert_int_eq(e2e_jint(entry, "seat"), 0);
        assert_forced_chain(json_object_get(entry, "events"), "the log entry");
        json_decref(log);
    }

    /* play on to the end (first legal move each time); the admin replay agrees */
    for (int guard = 0; guard < 40; guard++) {
        v = e2e_get_ok(t.c, t.path, NULL, 200);
        bool done = strcmp(e2e_jstr(v, "status"), "finished") == 0;
        int seat = (int)e2e_jint(v, "pending.seat");
        json_decref(v);
        if (done)
            break;
        json_t *lm = e2e_get_ok(t.c, t.lpath, t.g.token[seat], 200);
        ck_assert_uint_gt(json_array_size(json_object_get(lm, "moves")), 1);   /* only real choices are asked */
        char *mv = json_dumps(json_array_get(json_object_get(lm, "moves"), 0), JSON_COMPACT);
        json_decref(lm);
        play_quiet(&t, seat, mv);
        free(mv);
    }
    ck_assert_int_eq(e2e_verify_ok(t.c, t.d, t.g.id), t.seq);
    e2e_client_free(t.c);
    e2e_daemon_down(t.d);
}
END_TEST

/* ask_forced true: each seat is asked for its one legal move, in order, as before the option existed. */
START_TEST(ask_forced_asks)
{
    game t = {0};
    three_thieves(&t, "{\"ask_forced\":true}");
    json_t *v = e2e_get_ok(t.c, t.path, NULL, 200);
    ck_assert(json_is_true(e2e_jget(v, "options.ask_forced")));
    json_decref(v);
    json_t *ev = play(&t, 0, "{\"type\":\"crop_circle_remove\"}");
    ck_assert(!has_event(ev, "forced_move", -1));
    json_decref(ev);
    for (int k = 0; k < 3; k++) {
        json_decref(expect_pending(&t, "crop_circle_action", chain_seat[k]));
        json_t *lm = e2e_get_ok(t.c, t.lpath, t.g.token[chain_seat[k]], 200);
        ck_assert_uint_eq(json_array_size(json_object_get(lm, "moves")), 1);
        json_decref(lm);
        offered(&t, chain_seat[k], chain_move[k]);
        ev = play(&t, chain_seat[k], chain_move[k]);
        ck_assert(has_event(ev, "figure_returned", chain_seat[k]));
        ck_assert(!has_event(ev, "forced_move", -1));
        json_decref(ev);
    }
    json_decref(expect_pending(&t, "place", 1));
    ck_assert_int_eq(e2e_verify_ok(t.c, t.d, t.g.id), t.seq);
    e2e_client_free(t.c);
    e2e_daemon_down(t.d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_crop");
    TCase *tc = e2e_tcase("crop circles", 120);
    tcase_add_test(tc, three_players_act_in_order);
    tcase_add_test(tc, forced_steps_are_not_asked);
    tcase_add_test(tc, ask_forced_asks);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
