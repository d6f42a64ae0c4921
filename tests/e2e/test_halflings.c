/*
 * test_halflings.c — Halb so wild II through carcd's API: a hand's triangle ids never reach another seat or
 * the public (views, legal moves, move answers, event logs) while a random deal is private; hand sizes are
 * public and each seat sees its own hand; the admin's script.hands fixes the hands (and verify replays
 * them); a drafted game is played through its picks to the end with hands public.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define MAX_MOVES 1200

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    char hands[6][12][8];   /* each seat's triangles now (from the admin view) */
    int hand_n[6];
    long checked;
} hx;

static void read_hands(hx *h)
{
    json_t *av = e2e_admin_view(h->c, h->d, h->g.id);
    json_t *hands = e2e_jget(av, "halflings.hands");
    ck_assert_msg(json_is_array(hands), "admin view without halflings.hands");
    for (int s = 0; s < h->g.nplayers; s++) {
        json_t *hand = json_array_get(hands, (size_t)s);
        h->hand_n[s] = (int)json_array_size(hand);
        for (int k = 0; k < h->hand_n[s] && k < 12; k++)
            snprintf(h->hands[s][k], sizeof h->hands[s][k], "%s", json_string_value(json_array_get(hand, (size_t)k)));
    }
    json_decref(av);
}

/* Fails when `body`, seen by `viewer` (-1 public), names a triangle of another seat's hand. */
static void no_foreign_triangle(hx *h, int viewer, const char *what, const char *body)
{
    for (int s = 0; s < h->g.nplayers; s++) {
        if (s == viewer)
            continue;
        for (int k = 0; k < h->hand_n[s]; k++) {
            char q[16];
            snprintf(q, sizeof q, "\"%s\"", h->hands[s][k]);
            ck_assert_msg(strstr(body, q) == NULL, "%s (viewer %d) names %s of seat %d's hand: %.600s", what, viewer,
                          h->hands[s][k], s, body);
            h->checked++;
        }
    }
}

/* Every seat's and the public view and legal moves: no foreign triangle; sizes public; own hand shown. */
static void check_answers(hx *h)
{
    char path[160], lpath[160];
    snprintf(path, sizeof path, "/v1/games/%s", h->g.id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", h->g.id);
    for (int v = -1; v < h->g.nplayers; v++) {
        e2e_resp r;
        long st = e2e_req(h->c, "GET", path, v < 0 ? NULL : h->g.token[v], NULL, NULL, &r);
        ck_assert_int_eq(st, 200);
        no_foreign_triangle(h, v, "view", r.body);
        json_t *sizes = e2e_jget(r.json, "halflings.hand_sizes");
        for (int s = 0; s < h->g.nplayers; s++)
            ck_assert_int_eq(json_integer_value(json_array_get(sizes, (size_t)s)), h->hand_n[s]);
        if (v >= 0) {
            json_t *mine = e2e_jget(r.json, "you.hand");
            ck_assert_int_eq(json_array_size(mine), h->hand_n[v]);
            for (int k = 0; k < h->hand_n[v]; k++)
                ck_assert_str_eq(json_string_value(json_array_get(mine, (size_t)k)), h->hands[v][k]);
        } else {
            ck_assert_ptr_null(json_object_get(r.json, "you"));
        }
        e2e_resp_free(&r);
        if (v < 0)
            continue;
        st = e2e_req(h->c, "GET", lpath, h->g.token[v], NULL, NULL, &r);
        ck_assert_int_eq(st, 200);
        no_foreign_triangle(h, v, "legal moves", r.body);
        e2e_resp_free(&r);
    }
}

/* Plays the game to the end with random legal moves, checking every answer on the way. */
static int play_checked(hx *h, e2e_rng *rng, bool hidden)
{
    int moves = 0;
    for (;; moves++) {
        ck_assert_msg(moves < MAX_MOVES, "no end within %d moves", MAX_MOVES);
        read_hands(h);
        if (hidden)
            check_answers(h);
        e2e_play p;
        long st = e2e_play_random(h->c, &h->g, rng, NULL, &p);
        if (st == E2E_FINISHED) {
            e2e_play_free(&p);
            break;
        }
        ck_assert_msg(st == 200, "move %d: %ld %.400s", moves, st, p.post.body);
        if (hidden) {   /* the answer to the mover: it may name its own triangles only */
            read_hands(h);
            no_foreign_triangle(h, p.seat, "move answer", p.post.body);
        }
        e2e_play_free(&p);
    }
    return moves;
}

/* Each seat's and the public event log: triangle_dealt only for that seat. */
static void check_logs(hx *h)
{
    for (int v = -1; v < h->g.nplayers; v++) {
        long st;
        json_t *log = e2e_events_log(h->c, h->g.id, v < 0 ? NULL : h->g.token[v], &st);
        ck_assert_msg(log != NULL, "events log: %ld", st);
        int dealt = 0;
        size_t i, k;
        json_t *entry, *ev;
        json_array_foreach(log, i, entry) json_array_foreach(json_object_get(entry, "events"), k, ev)
        {
            if (strcmp(e2e_jstr(ev, "type"), "triangle_dealt") != 0)
                continue;
            ck_assert_int_eq(e2e_jint(ev, "seat"), v);
            dealt++;
        }
        ck_assert_int_eq(dealt, v < 0 ? 0 : 2);
        json_decref(log);
    }
}

START_TEST(hands_stay_private)
{
    hx h = {0};
    h.d = e2e_daemon_up(NULL);
    h.c = e2e_client_new(h.d);
    int nplayers = 2 + _i;
    e2e_game_create(h.c, nplayers, "[\"halflings\"]", &h.g);
    read_hands(&h);
    for (int s = 0; s < nplayers; s++)
        ck_assert_int_eq(h.hand_n[s], 2);
    check_logs(&h);   /* the deal, before any move */
    e2e_rng rng = {0x4a1f0000u + (uint64_t)_i};
    int moves = play_checked(&h, &rng, true);
    check_logs(&h);
    ck_assert_int_eq(e2e_verify_ok(h.c, h.d, h.g.id), moves);
    fprintf(stderr, "e2e halflings %dp: %d moves, %ld hand checks\n", nplayers, moves, h.checked);
    e2e_client_free(h.c);
    e2e_daemon_down(h.d);
}
END_TEST

START_TEST(scripted_hands)
{
    hx h = {0};
    h.d = e2e_daemon_up(NULL);
    h.c = e2e_client_new(h.d);
    long st = e2e_game_create_raw(h.c, h.d, 2, "[\"halflings\"]",
                                  "{\"script\":{\"hands\":[[\"HW01\",\"HW08\"],[\"HW04\",\"HW12\"]]}}", true, &h.g);
    ck_assert_int_eq(st, 201);
    read_hands(&h);
    ck_assert_int_eq(h.hand_n[0], 2);
    ck_assert_str_eq(h.hands[0][0], "HW01");
    ck_assert_str_eq(h.hands[0][1], "HW08");
    ck_assert_str_eq(h.hands[1][0], "HW04");
    ck_assert_str_eq(h.hands[1][1], "HW12");
    check_answers(&h);

    /* refused scripts: the problem names the field */
    e2e_game bad;
    const struct {
        const char *extra, *field;
    } cases[] = {
        {"{\"script\":{\"hands\":[[\"HW01\"],[\"HW01\"]]}}", "script.hands[1][0]"},
        {"{\"script\":{\"hands\":[[\"HW01\"],[\"XX\"]]}}", "script.hands[1][0]"},
        {"{\"script\":{\"hands\":[[\"HW01\"],[\"E\"]]}}", "script.hands[1][0]"},
        {"{\"script\":{\"hands\":[[\"HW01\"]]}}", "script.hands"},
        {"{\"script\":{\"hands\":{}}}", "script.hands"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *req = json_pack("{s:[{s:s},{s:s}], s:[s]}", "players", "name", "P0", "name", "P1", "expansions",
                                "halflings");
        json_t *x = json_loads(cases[i].extra, 0, NULL);
        json_object_update(req, x);
        json_decref(x);
        char *body = json_dumps(req, JSON_COMPACT);
        json_decref(req);
        e2e_resp r;
        st = e2e_req(h.c, "POST", "/v1/games", h.d->admin, body, NULL, &r);
        e2e_assert_problem(&r, 400, cases[i].field, cases[i].extra);
        e2e_resp_free(&r);
        free(body);
    }
    /* a seat may not script */
    st = e2e_game_create_raw(h.c, h.d, 2, "[\"halflings\"]", "{\"script\":{\"hands\":[[\"HW01\"],[]]}}", false, &bad);
    ck_assert_int_eq(st, 403);

    e2e_rng rng = {0x5c21u};
    int moves = play_checked(&h, &rng, true);
    ck_assert_int_eq(e2e_verify_ok(h.c, h.d, h.g.id), moves);   /* the replay reads script.hands */
    e2e_client_free(h.c);
    e2e_daemon_down(h.d);
}
END_TEST

START_TEST(draft_game)
{
    hx h = {0};
    h.d = e2e_daemon_up(NULL);
    h.c = e2e_client_new(h.d);
    int nplayers = 3;
    long st = e2e_game_create_raw(h.c, h.d, nplayers, "[\"halflings\"]",
                                  "{\"options\":{\"halflings_deal\":\"draft\"}}", false, &h.g);
    ck_assert_int_eq(st, 201);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", h.g.id);
    json_t *v = e2e_get_ok(h.c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "pending.kind"), "draft");
    ck_assert_int_eq(e2e_jint(v, "pending.seat"), nplayers - 1);   /* reverse seat order */
    ck_assert_int_eq(json_array_size(e2e_jget(v, "halflings.pool")), 12);
    json_decref(v);
    e2e_rng rng = {0xd4af7u};
    int moves = play_checked(&h, &rng, false);
    ck_assert_int_ge(moves, 2 * nplayers);
    v = e2e_get_ok(h.c, path, NULL, 200);   /* hands are public in a draft */
    ck_assert(json_is_array(e2e_jget(v, "halflings.hands")));
    json_decref(v);
    ck_assert_int_eq(e2e_verify_ok(h.c, h.d, h.g.id), moves);
    e2e_client_free(h.c);
    e2e_daemon_down(h.d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_halflings");
    TCase *tc = e2e_tcase("halflings", 240);
    tcase_add_loop_test(tc, hands_stay_private, 0, 2);
    tcase_add_test(tc, scripted_hands);
    tcase_add_test(tc, draft_game);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
