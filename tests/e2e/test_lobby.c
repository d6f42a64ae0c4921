/*
 * test_lobby.c — players, invitations and the lobby end to end (issue 20), through the real carcd on a real
 * socket, every answer checked against api-docs/openapi.json:
 *   - a 4-seat public game found in GET /v1/lobby (its filters), filled by four player keys joining without a
 *     code, and played to the end with the keys alone (Bearer pk_... on legal-moves and moves);
 *   - a lost seat token re-issued with the player key: the old one is 401 at once, the new one and the key
 *     work; a key holding two seats of one game must name one (?seat=N, else 409 seat-ambiguous);
 *   - joins racing for the last seat, released together by a barrier: one 201, every other 409 no-open-seat;
 *   - a waiting game refuses moves, legal moves, pause and resign (409 not-started) and shows no board;
 *     started by its creator with 3 of its 4 seats; a lapsed invitation and a start by others refused;
 *   - a waiting game cancelled by its creator;
 *   - seats that joined leave before the start: the later seats move down (their tokens, endpoints and places
 *     with them), the places open again to their codes and the lobby, and the game starts and plays with the
 *     seats as renumbered; named seats, other tokens and a game under way are refused;
 *   - a rematch of a finished game: offered, accepted, started with the same seats and settings;
 *   - the hidden state never in any new answer (no seed, stack or snapshot in a waiting view or the lobby).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "e2e.h"

static void new_key(e2e_client *c, const char *name, char key[80])
{
    char body[120];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, body, NULL, &r), 201);
    snprintf(key, 80, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
}

/* A POST that must answer `want`: the parsed body (the caller's). */
static json_t *post_want(e2e_client *c, const char *path, const char *token, const char *body, long want)
{
    e2e_resp r;
    long st = e2e_req(c, "POST", path, token, body, NULL, &r);
    ck_assert_msg(st == want, "POST %s: %ld, wanted %ld: %s", path, st, want, r.body);
    json_t *j = json_incref(r.json);
    e2e_resp_free(&r);
    return j;
}

/* A POST that must be a problem of `status` and type `slug`. */
static void post_problem(e2e_client *c, const char *path, const char *token, const char *body, long status,
                         const char *slug)
{
    e2e_resp r;
    e2e_req(c, "POST", path, token, body, NULL, &r);
    e2e_assert_problem(&r, status, NULL, path);
    ck_assert_msg(e2e_problem_is(&r, slug), "POST %s: wanted /problems/%s: %s", path, slug, r.body);
    e2e_resp_free(&r);
}

static void get_problem(e2e_client *c, const char *path, const char *token, long status, const char *slug)
{
    e2e_resp r;
    e2e_req(c, "GET", path, token, NULL, NULL, &r);
    e2e_assert_problem(&r, status, NULL, path);
    ck_assert_msg(e2e_problem_is(&r, slug), "GET %s: wanted /problems/%s: %s", path, slug, r.body);
    e2e_resp_free(&r);
}

/* No member of v, at any depth, is hidden state: the seed, the stack, a snapshot, a hand. */
static void assert_no_hidden(const json_t *v, const char *what)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            ck_assert_msg(strcmp(k, "seed") != 0 && strcmp(k, "stack") != 0 && strcmp(k, "snapshot") != 0 &&
                              strcmp(k, "rng") != 0 && strcmp(k, "hands") != 0 && strcmp(k, "code_hash") != 0,
                          "%s: hidden member %s", what, k);
            assert_no_hidden(x, what);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) assert_no_hidden(x, what);
    }
}

/* Plays game g (tokens: whatever acts for each seat) to its end with random legal moves. */
static int play_to_end(e2e_client *c, const e2e_game *g, uint64_t seed)
{
    e2e_rng rng = {seed};
    return e2e_play_to_end(c, g, &rng);
}

static int lobby_count(e2e_client *c, const char *query, const char *id)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/lobby%s", query);
    json_t *l = e2e_get_ok(c, path, NULL, 200);
    assert_no_hidden(l, "lobby");
    int found = 0;
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(l, "games"), i, g) found += strcmp(e2e_jstr(g, "id"), id) == 0;
    json_decref(l);
    return found;
}

START_TEST(public_game_filled_from_the_lobby_and_played_with_keys)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char keys[4][80];
    const char *names[] = {"Ann", "Bob", "Cy", "Di"};
    for (int i = 0; i < 4; i++)
        new_key(c, names[i], keys[i]);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"public\":true,\"players\":[{\"invite\":true},{\"invite\":true},{\"invite\":true},"
                          "{\"invite\":true}]}",
                          201);
    ck_assert_str_eq(e2e_jstr(g, "status"), "waiting");
    ck_assert_int_eq(json_array_size(json_object_get(g, "invites")), 4);
    ck_assert_int_eq(json_array_size(json_object_get(g, "players")), 0);
    ck_assert(strncmp(e2e_jstr(g, "creator_token"), "ct_", 3) == 0);
    assert_no_hidden(g, "creation");
    char id[40];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    json_decref(g);

    /* listed, and the filters pick it or not */
    ck_assert_int_eq(lobby_count(c, "", id), 1);
    ck_assert_int_eq(lobby_count(c, "?seats=4&expansions=none&clock=false", id), 1);
    ck_assert_int_eq(lobby_count(c, "?seats=3", id), 0);
    ck_assert_int_eq(lobby_count(c, "?expansions=hills_sheep", id), 0);
    ck_assert_int_eq(lobby_count(c, "?clock=true", id), 0);
    get_problem(c, "/v1/lobby?seats=9", NULL, 400, "invalid");
    get_problem(c, "/v1/lobby?expansions=dragons", NULL, 400, "invalid");

    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    post_problem(c, path, NULL, "{\"name\":\"Nobody\"}", 401, "unauthenticated");   /* the lobby needs a key */
    e2e_game eg = {.nplayers = 4};
    snprintf(eg.id, sizeof eg.id, "%s", id);
    for (int i = 0; i < 4; i++) {
        char body[120];
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", names[i]);
        json_t *j = post_want(c, path, keys[i], body, 201);   /* Bearer pk_...: no code needed */
        ck_assert_int_eq(e2e_jint(j, "seat"), i);
        ck_assert_str_eq(e2e_jstr(j, "status"), i == 3 ? "active" : "waiting");
        memcpy(eg.token[i], keys[i], sizeof eg.token[i]);   /* the keys play, never the tokens */
        json_decref(j);
        if (i == 0) {   /* one seat per key; the key's games list it as waiting */
            post_problem(c, path, keys[0], "{\"name\":\"Ann again\"}", 409, "already-seated");
            json_t *mine = e2e_get_ok(c, "/v1/me/games?status=waiting", keys[0], 200);
            ck_assert_str_eq(e2e_jstr(mine, "games.0.id"), id);
            ck_assert(json_is_false(e2e_jget(mine, "games.0.my_turn")));
            ck_assert_int_eq(e2e_jint(mine, "games.0.open"), 3);   /* the seats it still waits for */
            json_t *view = e2e_get_ok(c, "/v1/lobby", NULL, 200);   /* and until when, as the lobby says */
            ck_assert_str_eq(e2e_jstr(mine, "games.0.expires_at"), e2e_jstr(view, "games.0.expires_at"));
            ck_assert_int_eq(strlen(e2e_jstr(mine, "games.0.expires_at")), 24);
            json_decref(view);
            json_decref(mine);
        }
    }
    ck_assert_int_eq(lobby_count(c, "", id), 0);   /* full: out of the lobby */
    post_problem(c, path, keys[0], "{\"name\":\"Late\"}", 409, "no-open-seat");
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, keys[2], 200);   /* the key reads its seat's view */
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    ck_assert_str_eq(e2e_jstr(v, "players.3.name"), "Di");
    json_decref(v);

    int moves = play_to_end(c, &eg, 20);
    ck_assert_int_gt(moves, 50);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    json_decref(v);
    json_t *mine = e2e_get_ok(c, "/v1/me/games", keys[1], 200);
    ck_assert_str_eq(e2e_jstr(mine, "games.0.id"), id);
    ck_assert_str_eq(e2e_jstr(mine, "games.0.status"), "finished");
    ck_assert(json_is_null(e2e_jget(mine, "games.0.open")));
    ck_assert(json_is_null(e2e_jget(mine, "games.0.expires_at")));
    json_decref(mine);
    ck_assert_int_eq(e2e_verify_ok(c, d, id), moves);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(lost_token_reissued)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char ann[80], bob[80];
    new_key(c, "Ann", ann);
    new_key(c, "Bob", bob);
    char body[400];
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}]}", ann);
    json_t *g = post_want(c, "/v1/games", NULL, body, 201);
    char id[40], old[80], bob_token[80], path[200], lm[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(old, sizeof old, "%s", e2e_jstr(g, "players.0.token"));
    snprintf(bob_token, sizeof bob_token, "%s", e2e_jstr(g, "players.1.token"));
    json_decref(g);
    snprintf(lm, sizeof lm, "/v1/games/%s/legal-moves", id);
    json_decref(e2e_get_ok(c, lm, old, 200));
    json_decref(e2e_get_ok(c, lm, ann, 200));   /* the key acts for its seat */
    get_problem(c, lm, bob, 403, "forbidden");   /* a key with no seat here */

    snprintf(path, sizeof path, "/v1/games/%s/seats/0/token", id);
    post_problem(c, path, bob, NULL, 403, "forbidden");         /* not Bob's seat */
    post_problem(c, path, bob_token, NULL, 403, "forbidden");   /* a seat token is no key */
    post_problem(c, path, NULL, NULL, 401, "unauthenticated");
    snprintf(path, sizeof path, "/v1/games/%s/seats/1/token", id);
    post_problem(c, path, ann, NULL, 403, "forbidden");   /* a seat not linked to Ann */
    snprintf(path, sizeof path, "/v1/games/%s/seats/0/token", id);
    json_t *t = post_want(c, path, ann, NULL, 200);
    char fresh[80];
    snprintf(fresh, sizeof fresh, "%s", e2e_jstr(t, "token"));
    ck_assert_int_eq(e2e_jint(t, "seat"), 0);
    json_decref(t);
    ck_assert_str_ne(fresh, old);
    get_problem(c, lm, old, 401, "unauthenticated");   /* at once */
    json_t *l = e2e_get_ok(c, lm, fresh, 200);
    int seq = (int)e2e_jint(l, "seq");
    char move[600];
    char *mv = json_dumps(json_object_get(l, "moves") ? json_array_get(json_object_get(l, "moves"), 0) : NULL,
                          JSON_COMPACT);
    snprintf(move, sizeof move, "{\"expected_seq\":%d,\"move\":%s}", seq, mv);
    free(mv);
    json_decref(l);
    char mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%s/moves", id);
    post_problem(c, mp, old, move, 401, "unauthenticated");
    json_decref(post_want(c, mp, ann, move, 200));   /* the key moves */
    json_decref(e2e_get_ok(c, lm, ann, 200));

    /* a key linked to both seats must say which it acts for */
    snprintf(path, sizeof path, "/v1/games/%s/link", id);
    snprintf(body, sizeof body, "{\"player_key\":\"%s\"}", ann);
    json_decref(post_want(c, path, bob_token, body, 200));
    get_problem(c, lm, ann, 409, "seat-ambiguous");
    char lm1[220];
    snprintf(lm1, sizeof lm1, "%s?seat=1", lm);
    json_decref(e2e_get_ok(c, lm1, ann, 200));
    snprintf(lm1, sizeof lm1, "%s?seat=x", lm);
    get_problem(c, lm1, ann, 400, "invalid");
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- joins racing for the last seat ------------------------------------------------------------------- */
#define RACERS 6

typedef struct {
    e2e_client *c;
    pthread_barrier_t *barrier;
    const char *path, *key;
    e2e_resp r;
} racer;

static void *race(void *arg)
{
    racer *x = arg;
    pthread_barrier_wait(x->barrier);
    e2e_req(x->c, "POST", x->path, x->key, "{\"name\":\"Racer\"}", NULL, &x->r);
    return NULL;
}

START_TEST(racing_joins_one_wins)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    for (int round = 0; round < 5; round++) {
        json_t *g = post_want(c, "/v1/games", NULL,
                              "{\"public\":true,\"players\":[{\"name\":\"Host\"},{\"invite\":true}]}", 201);
        char id[40], path[200];
        snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
        json_decref(g);
        snprintf(path, sizeof path, "/v1/games/%s/join", id);
        racer rc[RACERS];
        char keys[RACERS][80];
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, RACERS);
        for (int k = 0; k < RACERS; k++) {
            new_key(c, "Racer", keys[k]);
            rc[k] = (racer){.c = e2e_client_new(d), .barrier = &barrier, .path = path, .key = keys[k]};
            json_decref(e2e_get_ok(rc[k].c, "/v1/lobby", NULL, 200));   /* warm: race requests, not handshakes */
        }
        pthread_t th[RACERS];
        for (int k = 0; k < RACERS; k++)
            pthread_create(&th[k], NULL, race, &rc[k]);
        int won = 0, lost = 0, winner = -1;
        for (int k = 0; k < RACERS; k++) {
            pthread_join(th[k], NULL);
            if (rc[k].r.status == 201) {
                won++;
                winner = k;
                ck_assert_str_eq(e2e_jstr(rc[k].r.json, "status"), "active");
            } else {
                e2e_assert_problem(&rc[k].r, 409, NULL, "racing join");
                ck_assert_msg(e2e_problem_is(&rc[k].r, "no-open-seat"), "%s", rc[k].r.body);
                lost++;
            }
        }
        ck_assert_int_eq(won, 1);
        ck_assert_int_eq(lost, RACERS - 1);
        snprintf(path, sizeof path, "/v1/games/%s", id);
        json_t *v = e2e_get_ok(c, path, keys[winner], 200);
        ck_assert_str_eq(e2e_jstr(v, "status"), "active");
        ck_assert_int_eq(json_array_size(json_object_get(v, "players")), 2);
        json_decref(v);
        for (int k = 0; k < RACERS; k++) {
            e2e_resp_free(&rc[k].r);
            e2e_client_free(rc[k].c);
        }
        pthread_barrier_destroy(&barrier);
    }
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A wait outlives its seat's number: Cy's long-poll began as seat 2, Bob (seat 1) left, so Cy is seat 1 at the
 * start, where the Halflings deal each seat a hidden hand. The poll wakes with Cy's own hand, not seat 2's (Dan's,
 * who joined after); Bob's poll, begun before he left, gets a 403, not the hand of the seat he had. */
START_TEST(a_wait_follows_its_seat_across_a_leave)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true},{\"invite\":true}],"
                          "\"expansions\":[\"halflings\"]}",
                          201);
    char id[40], codes[3][80], path[300], body[300], bob[80], cy[80];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    e2e_invite_codes(g, 3, codes);
    json_decref(g);
    const char *who[2] = {"Bob", "Cy"};
    char *tok[2] = {bob, cy};
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(e2e_join_by_code(c, id, who[i], codes[i], tok[i]), i + 1);
    e2e_async lp[2];
    char events[200];
    snprintf(events, sizeof events, "/v1/games/%s/events?after=-1&wait=20", id);
    for (int i = 0; i < 2; i++) {
        lp[i] = (e2e_async){.d = d, .method = "GET", .path = events, .token = tok[i]};
        e2e_async_start(&lp[i]);
    }
    struct timespec nap = {0, 300 * 1000 * 1000};
    nanosleep(&nap, NULL);   /* both polls are parked by then */
    snprintf(path, sizeof path, "/v1/games/%s/leave", id);
    json_decref(post_want(c, path, bob, NULL, 200));   /* Cy is seat 1 now */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Dan\",\"invite\":\"%s\"}", codes[0]);
    json_decref(post_want(c, path, NULL, body, 201));   /* seat 2 */
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"invite\":\"%s\"}", codes[2]);
    json_decref(post_want(c, path, NULL, body, 201));   /* the last place: the game starts */
    for (int i = 0; i < 2; i++)
        e2e_async_join(&lp[i]);

    e2e_assert_problem(&lp[0].r, 403, "Authorization", "Bob's poll after he left");
    ck_assert_int_eq(lp[1].r.status, 200);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, cy, 200);
    ck_assert_int_eq(e2e_jint(v, "you.seat"), 1);
    json_t *hand = e2e_jget(v, "you.hand");
    ck_assert_int_gt(json_array_size(hand), 0);
    size_t i, k, dealt = 0;
    json_t *e, *entry;
    json_array_foreach(json_object_get(lp[1].r.json, "entries"), k, entry) {
        json_array_foreach(json_object_get(entry, "events"), i, e) {
            if (strcmp(e2e_jstr(e, "type"), "triangle_dealt") != 0)
                continue;
            ck_assert_msg(e2e_jint(e, "seat") == 1, "Cy's poll got seat %lld's hand: %s", e2e_jint(e, "seat"),
                          lp[1].r.body);
            bool in_hand = false;
            for (size_t h = 0; h < json_array_size(hand); h++)
                in_hand |= strcmp(json_string_value(json_array_get(hand, h)), e2e_jstr(e, "tile")) == 0;
            ck_assert_msg(in_hand, "dealt %s, not in Cy's hand", e2e_jstr(e, "tile"));
            dealt++;
        }
    }
    ck_assert_int_eq(dealt, json_array_size(hand));
    json_decref(v);
    for (int j = 0; j < 2; j++)
        e2e_resp_free(&lp[j].r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(waiting_game_refuses_play_and_starts_with_three_of_four)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true},{\"invite\":true}],"
                          "\"clock\":{\"per_move_s\":3600}}",
                          201);
    char id[40], ann[80], creator[80], codes[3][80], url[400], path[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(ann, sizeof ann, "%s", e2e_jstr(g, "players.0.token"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(g, "creator_token"));
    e2e_invite_codes(g, 3, codes);
    snprintf(url, sizeof url, "%s", e2e_jstr(g, "invites.1.join_url"));
    json_decref(g);

    /* waiting: no moves, legal moves, clock actions; the view says so and shows nothing hidden */
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    get_problem(c, path, ann, 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s/moves", id);
    post_problem(c, path, ann, "{\"expected_seq\":0,\"notation\":\"pass\"}", 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s/pause", id);
    post_problem(c, path, ann, NULL, 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s/resign", id);
    post_problem(c, path, ann, NULL, 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s/board.svg", id);
    get_problem(c, path, NULL, 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, ann, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(v, "open"), 3);
    ck_assert_int_eq(e2e_jint(v, "seats"), 4);
    ck_assert(json_is_object(json_object_get(v, "clock")));
    assert_no_hidden(v, "waiting view");
    json_decref(v);
    ck_assert_int_eq(lobby_count(c, "", id), 0);   /* not public */
    snprintf(path, sizeof path, "/v1/games/%s/events", id);   /* an empty log until it starts */
    v = e2e_get_ok(c, path, ann, 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "entries")), 0);
    json_decref(v);

    /* two join by code: in the body, and through the join URL */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    post_problem(c, path, NULL, "{\"name\":\"Eve\",\"invite\":\"iv_wrong\"}", 403, "forbidden");
    post_problem(c, path, NULL, "{\"name\":\"Eve\"}", 403, "forbidden");   /* not public: a code is needed */
    char body[300];
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    json_t *b = post_want(c, path, NULL, body, 201);
    ck_assert_int_eq(e2e_jint(b, "seat"), 1);
    json_decref(b);
    post_problem(c, path, NULL, body, 409, "no-open-seat");   /* a code opens one seat, once */
    const char *q = strstr(url, "/v1/games/");
    ck_assert_ptr_nonnull(q);
    json_t *cy = post_want(c, q, NULL, "{\"name\":\"Cy\"}", 201);
    ck_assert_int_eq(e2e_jint(cy, "seat"), 2);
    char cy_token[80];
    snprintf(cy_token, sizeof cy_token, "%s", e2e_jstr(cy, "token"));
    json_decref(cy);
    /* the view's places, in the invitations' order: Bob took place 0 (seat 1), Cy place 1 by its join URL (seat
     * 2); place 2 is open */
    snprintf(path, sizeof path, "/v1/games/%s", id);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "places")), 3);
    ck_assert_int_eq(e2e_jint(v, "places.0.seat"), 1);
    ck_assert_int_eq(e2e_jint(v, "places.1.seat"), 2);
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "places"), 2), "seat")));
    ck_assert_int_eq(e2e_jint(v, "places.2.place"), 2);
    json_decref(v);

    /* the first seat's webhook, added while the game waits, hears its start (port 9: nobody listens there,
     * so the row stays) */
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
    json_t *wh = post_want(c, path, ann, "{\"url\":\"http://127.0.0.1:9/hook\"}", 201);
    char wid[80];
    snprintf(wid, sizeof wid, "%s", e2e_jstr(wh, "id"));
    json_decref(wh);

    /* only the creator starts it; a long-poll waiting on the empty log wakes with the opening */
    char events[200];
    snprintf(events, sizeof events, "/v1/games/%s/events?after=-1&wait=20", id);
    e2e_async lp = {.d = d, .method = "GET", .path = events};
    e2e_async_start(&lp);
    struct timespec nap = {0, 300 * 1000 * 1000};
    nanosleep(&nap, NULL);   /* the poll is parked by then; if not, it finds the opening at once: the same answer */
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    post_problem(c, path, NULL, NULL, 401, "unauthenticated");
    post_problem(c, path, ann, NULL, 403, "forbidden");
    json_t *started = post_want(c, path, creator, NULL, 200);
    ck_assert_str_eq(e2e_jstr(started, "status"), "active");
    ck_assert_int_eq(json_array_size(json_object_get(started, "players")), 3);
    ck_assert_str_eq(e2e_jstr(started, "players.2.name"), "Cy");
    ck_assert(json_is_object(json_object_get(started, "clock")));
    json_decref(started);
    ck_assert_int_eq(e2e_async_join(&lp), 200);
    ck_assert_int_eq(e2e_jint(lp.r.json, "entries.0.seq"), 0);
    ck_assert(lp.r.seconds < 10);
    e2e_resp_free(&lp.r);
    post_problem(c, path, creator, NULL, 409, "not-waiting");
    /* the creator token manages the game but plays no seat: a token carcd knows, so 403, saying which it is */
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    get_problem(c, path, creator, 403, "forbidden");
    snprintf(path, sizeof path, "/v1/games/%s/moves", id);
    post_problem(c, path, creator, "{\"expected_seq\":0,\"notation\":\"pass\"}", 403, "forbidden");
    e2e_resp cr;
    e2e_req(c, "POST", path, creator, "{\"expected_seq\":0,\"notation\":\"pass\"}", NULL, &cr);
    ck_assert_msg(strstr(cr.body, "creator token") != NULL, "%s", cr.body);
    e2e_resp_free(&cr);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries", id, wid);
    v = e2e_get_ok(c, path, ann, 200);
    ck_assert_str_eq(e2e_jstr(v, "deliveries.0.event"), "turn.started");
    ck_assert_int_eq(e2e_jint(v, "deliveries.0.seq"), 0);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/events", id);   /* the opening is in the log now */
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "entries.0.seq"), 0);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Di\",\"invite\":\"%s\"}", codes[2]);
    post_problem(c, path, NULL, body, 409, "no-open-seat");   /* the last invitation lapsed */

    /* it plays: three seats, the first move by seat 0 */
    e2e_game eg = {.nplayers = 3};
    snprintf(eg.id, sizeof eg.id, "%s", id);
    snprintf(eg.token[0], sizeof eg.token[0], "%s", ann);
    snprintf(eg.token[2], sizeof eg.token[2], "%s", cy_token);
    e2e_rng rng = {7};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, &eg, &rng, NULL, &p), 200);
    ck_assert_int_eq(p.seat, 0);
    e2e_play_free(&p);
    ck_assert_int_ge(e2e_verify_ok(c, d, id), 1);

    /* too few seats to start */
    g = post_want(c, "/v1/games", NULL, "{\"players\":[{\"name\":\"Solo\"},{\"invite\":true}]}", 201);
    snprintf(path, sizeof path, "/v1/games/%s/start", e2e_jstr(g, "id"));
    post_problem(c, path, e2e_jstr(g, "creator_token"), NULL, 409, "too-few-seats");
    json_decref(g);
    /* bad creations */
    post_problem(c, "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"},{\"invite\":false}]}", 400, "invalid");
    post_problem(c, "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"public\":true}", 400,
                 "invalid");
    post_problem(c, "/v1/games", NULL, "{\"players\":[{\"invite\":true,\"name\":\"A\"},{\"name\":\"B\"}]}", 400,
                 "invalid");
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(cancelled_by_its_creator)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"public\":true,\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}", 201);
    char id[40], creator[80], ann[80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(g, "creator_token"));
    snprintf(ann, sizeof ann, "%s", e2e_jstr(g, "players.0.token"));
    json_decref(g);
    ck_assert_int_eq(lobby_count(c, "", id), 1);
    snprintf(path, sizeof path, "/v1/games/%s/cancel", id);
    post_problem(c, path, ann, NULL, 403, "forbidden");
    json_t *v = post_want(c, path, creator, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_int_eq(e2e_jint(v, "open"), 0);
    json_decref(v);
    post_problem(c, path, creator, NULL, 409, "not-waiting");
    ck_assert_int_eq(lobby_count(c, "", id), 0);
    char key[80];
    new_key(c, "Late", key);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    post_problem(c, path, key, "{\"name\":\"Late\"}", 409, "no-open-seat");
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    post_problem(c, path, creator, NULL, 409, "not-waiting");
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    get_problem(c, path, ann, 409, "not-started");
    snprintf(path, sizeof path, "/v1/games/%s", id);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(rematch_offered_and_accepted)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char ann[80], bob[80];
    new_key(c, "Ann", ann);
    new_key(c, "Bob", bob);
    char body[500];
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\","
             "\"player_key\":\"%s\"}],\"expansions\":[\"fruit_trees\"],\"clock\":{\"per_move_s\":600}}", ann, bob);
    json_t *g = post_want(c, "/v1/games", NULL, body, 201);
    e2e_game eg = {.nplayers = 2};
    snprintf(eg.id, sizeof eg.id, "%s", e2e_jstr(g, "id"));
    for (int i = 0; i < 2; i++) {
        char k[40];
        snprintf(k, sizeof k, "players.%d.token", i);
        snprintf(eg.token[i], sizeof eg.token[i], "%s", e2e_jstr(g, k));
    }
    json_decref(g);
    char path[200], acc[220];
    snprintf(path, sizeof path, "/v1/games/%s/rematch", eg.id);
    snprintf(acc, sizeof acc, "/v1/games/%s/rematch/accept", eg.id);
    post_problem(c, path, eg.token[0], NULL, 409, "not-finished");
    post_problem(c, acc, eg.token[1], NULL, 404, "not-found");
    play_to_end(c, &eg, 5);

    /* Bob offers (with his key); Ann's key accepts */
    json_t *o = post_want(c, path, bob, NULL, 201);
    ck_assert_str_eq(e2e_jstr(o, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(o, "seat"), 0);
    ck_assert_str_eq(e2e_jstr(o, "rematch_of"), eg.id);
    char id[40], bob_new[80];
    snprintf(id, sizeof id, "%s", e2e_jstr(o, "game_id"));
    snprintf(bob_new, sizeof bob_new, "%s", e2e_jstr(o, "token"));
    json_decref(o);
    post_problem(c, path, eg.token[0], NULL, 409, "rematch-offered");
    post_problem(c, acc, eg.token[1], NULL, 409, "already-seated");   /* Bob's seat is in already */
    /* the offerer's seat took its place as an acceptance would: he may give it back, and take it again */
    char leave[200];
    snprintf(leave, sizeof leave, "/v1/games/%s/leave", id);
    json_t *left = post_want(c, leave, bob_new, NULL, 200);
    ck_assert_int_eq(e2e_jint(left, "open"), 2);
    ck_assert_int_eq((int)json_array_size(json_object_get(left, "players")), 0);
    json_decref(left);
    json_t *again = post_want(c, acc, eg.token[1], NULL, 201);
    ck_assert_int_eq(e2e_jint(again, "seat"), 0);
    ck_assert_str_eq(e2e_jstr(again, "status"), "waiting");
    snprintf(bob_new, sizeof bob_new, "%s", e2e_jstr(again, "token"));
    json_decref(again);
    /* a rematch's place is a player's of the finished game: nobody removes it (the rematch is cancelled instead) */
    char rm[200];
    snprintf(rm, sizeof rm, "/v1/games/%s/seats/0/remove", id);
    post_problem(c, rm, d->admin, NULL, 409, "named-seat");
    char view[200];
    snprintf(view, sizeof view, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, view, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_str_eq(e2e_jstr(v, "rematch_of"), eg.id);
    ck_assert_str_eq(e2e_jstr(v, "expansions.0"), "fruit_trees");
    ck_assert_int_eq(e2e_jint(v, "clock.per_move_s"), 600);
    assert_no_hidden(v, "rematch view");
    json_decref(v);
    json_t *a = post_want(c, acc, ann, NULL, 201);
    ck_assert_str_eq(e2e_jstr(a, "status"), "active");
    ck_assert_str_eq(e2e_jstr(a, "game_id"), id);
    ck_assert_int_eq(e2e_jint(a, "seat"), 1);
    json_decref(a);
    post_problem(c, acc, ann, NULL, 409, "no-open-seat");
    v = e2e_get_ok(c, view, bob_new, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    ck_assert_str_eq(e2e_jstr(v, "players.0.name"), "Bob");
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Ann");
    ck_assert(json_number_value(e2e_jget(v, "clock.seats.0.time_left_s")) > 590);   /* a fresh clock */
    json_decref(v);
    /* the keys carried over: Ann's key acts for her new seat */
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    json_decref(e2e_get_ok(c, path, ann, 200));
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The places of waiting game id as its view lists them: places[i].seat, -1 while open. */
static void places_of(e2e_client *c, const char *id, int out[8], int *n)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    json_t *pl = json_object_get(v, "places");
    *n = (int)json_array_size(pl);
    for (int i = 0; i < *n && i < 8; i++) {
        json_t *seat = json_object_get(json_array_get(pl, (size_t)i), "seat");
        out[i] = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
    }
    json_decref(v);
}

START_TEST(seat_left_before_the_start)
{
    static const char *const env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    char ann_key[80], cy_key[80];
    new_key(c, "Ann", ann_key);
    new_key(c, "Cy", cy_key);
    char body[400];
    snprintf(body, sizeof body,
             "{\"public\":true,\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},"
             "{\"invite\":true},{\"invite\":true},{\"invite\":true}]}",
             ann_key);
    json_t *g = post_want(c, "/v1/games", NULL, body, 201);
    char id[40], ann[80], creator[80], codes[4][80], path[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(ann, sizeof ann, "%s", e2e_jstr(g, "players.0.token"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(g, "creator_token"));
    e2e_invite_codes(g, 4, codes);
    json_decref(g);

    /* Bob by code (seat 1, place 0), Cy from the lobby with her key (seat 2, place 1), Di by code (seat 3,
     * place 2) */
    char join[200], bob[80], di[80];
    snprintf(join, sizeof join, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    json_t *j = post_want(c, join, NULL, body, 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 1);
    snprintf(bob, sizeof bob, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    j = post_want(c, join, cy_key, "{\"name\":\"Cy\"}", 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 2);
    json_decref(j);
    snprintf(body, sizeof body, "{\"name\":\"Di\",\"invite\":\"%s\"}", codes[2]);
    j = post_want(c, join, NULL, body, 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 3);
    snprintf(di, sizeof di, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    /* Bob's and Di's endpoints, added while it waits (port 9: nobody listens, the rows stay) */
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
    json_t *wh = post_want(c, path, bob, "{\"url\":\"http://127.0.0.1:9/bob\"}", 201);
    char bob_wid[80];
    snprintf(bob_wid, sizeof bob_wid, "%s", e2e_jstr(wh, "id"));
    json_decref(wh);
    json_decref(post_want(c, path, di, "{\"url\":\"http://127.0.0.1:9/di\"}", 201));
    /* table talk while it waits: Cy and Di write, Ann mutes Di */
    snprintf(path, sizeof path, "/v1/games/%s/messages", id);
    json_decref(post_want(c, path, cy_key, "{\"text\":\"I may not make it\"}", 201));
    json_decref(post_want(c, path, di, "{\"text\":\"Hi all\"}", 201));
    e2e_resp mr;
    snprintf(path, sizeof path, "/v1/games/%s/mutes/3", id);
    ck_assert_int_eq(e2e_req(c, "PUT", path, ann, NULL, NULL, &mr), 204);
    e2e_resp_free(&mr);
    int places[8], np = 0;
    places_of(c, id, places, &np);
    ck_assert_int_eq(np, 4);
    ck_assert(places[0] == 1 && places[1] == 2 && places[2] == 3 && places[3] == -1);

    /* refusals, each changing nothing */
    char leave[200];
    snprintf(leave, sizeof leave, "/v1/games/%s/leave", id);
    post_problem(c, leave, NULL, NULL, 401, "unauthenticated");
    post_problem(c, leave, d->admin, NULL, 403, "forbidden");
    post_problem(c, leave, creator, NULL, 403, "forbidden");         /* the creator token is no seat */
    post_problem(c, leave, ann, NULL, 409, "named-seat");            /* named at the creation */
    post_problem(c, leave, ann_key, NULL, 409, "named-seat");
    post_problem(c, leave, bob, "{\"seat\":1}", 400, "invalid");     /* the body may only be empty */
    snprintf(path, sizeof path, "/v1/games/%s/leave", "00000000-0000-4000-8000-000000000000");
    post_problem(c, path, bob, NULL, 404, "not-found");
    json_t *other = post_want(c, "/v1/games", NULL, "{\"players\":[{\"name\":\"Zed\"},{\"invite\":true}]}", 201);
    char other_id[40];
    snprintf(other_id, sizeof other_id, "%s", e2e_jstr(other, "id"));
    snprintf(path, sizeof path, "/v1/games/%s/leave", other_id);
    json_decref(other);
    post_problem(c, path, bob, NULL, 403, "forbidden");              /* Bob's token is another game's seat */
    snprintf(path, sizeof path, "/v1/games/%s/resign", id);
    e2e_resp r;
    e2e_req(c, "POST", path, cy_key, NULL, NULL, &r);   /* resign is for a game under way; it points here */
    ck_assert_msg(e2e_problem_is(&r, "not-started") && strstr(r.body, "/leave"), "%s", r.body);
    e2e_resp_free(&r);
    places_of(c, id, places, &np);
    ck_assert(places[0] == 1 && places[1] == 2 && places[2] == 3 && places[3] == -1);

    /* Cy leaves with her key: Di moves down to seat 2, Cy's place opens again */
    json_t *v = post_want(c, leave, cy_key, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(v, "open"), 2);
    ck_assert_str_eq(e2e_jstr(v, "players.2.name"), "Di");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "players")), 3);
    assert_no_hidden(v, "leave");
    json_decref(v);
    places_of(c, id, places, &np);
    ck_assert_msg(places[0] == 1 && places[1] == -1 && places[2] == 2 && places[3] == -1, "%d %d %d %d", places[0],
                  places[1], places[2], places[3]);
    post_problem(c, leave, cy_key, NULL, 403, "forbidden");   /* her key holds no seat of it any more */
    json_t *mine = e2e_get_ok(c, "/v1/me/games", cy_key, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(mine, "games")), 0);
    json_decref(mine);
    ck_assert_int_eq(lobby_count(c, "", id), 1);
    /* Di's token is seat 2's now, and so is her endpoint */
    snprintf(path, sizeof path, "/v1/games/%s", id);
    v = e2e_get_ok(c, path, di, 200);
    ck_assert_int_eq(e2e_jint(v, "you.seat"), 2);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
    v = e2e_get_ok(c, path, di, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "webhooks")), 1);
    ck_assert_int_eq(e2e_jint(v, "webhooks.0.seat"), 2);
    json_decref(v);
    /* the table talk: Cy's line went with her seat, Di's is seat 2's now; Ann's mute of Di moved with Di */
    snprintf(path, sizeof path, "/v1/games/%s/messages", id);
    v = e2e_get_ok(c, path, bob, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "messages")), 1);
    ck_assert_int_eq(e2e_jint(v, "messages.0.seat"), 2);
    ck_assert_str_eq(e2e_jstr(v, "messages.0.name"), "Di");
    json_decref(v);
    v = e2e_get_ok(c, path, ann, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "messages")), 0);
    json_decref(v);
    /* Bob's endpoint heard it: player.left, with the seat given up */
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries", id, bob_wid);
    v = e2e_get_ok(c, path, bob, 200);
    ck_assert_str_eq(e2e_jstr(v, "deliveries.0.event"), "player.left");
    json_decref(v);

    /* Bob leaves too (seat 1): Di is seat 1. A token whose seat left opens nothing, and says why (sql/032): the
     * link Bob still holds tells him he gave the seat up; in another game it is a token nobody has */
    json_decref(post_want(c, leave, bob, NULL, 200));
    post_problem(c, leave, bob, NULL, 403, "seat-given-up");
    snprintf(path, sizeof path, "/v1/games/%s", id);
    e2e_req(c, "GET", path, bob, NULL, NULL, &r);
    ck_assert_msg(r.status == 403 && e2e_problem_is(&r, "seat-given-up") && strstr(r.body, "left the game"), "%s",
                  r.body);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s", other_id);
    e2e_req(c, "GET", path, bob, NULL, NULL, &r);
    ck_assert_msg(r.status == 401 && e2e_problem_is(&r, "unauthenticated"), "%s", r.body);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    v = e2e_get_ok(c, path, di, 200);
    ck_assert_int_eq(e2e_jint(v, "you.seat"), 1);
    ck_assert_int_eq(e2e_jint(v, "open"), 3);
    json_decref(v);
    places_of(c, id, places, &np);
    ck_assert(places[0] == -1 && places[1] == -1 && places[2] == 1 && places[3] == -1);

    /* the places open again: Bob's code takes a seat again, Cy rejoins from the lobby, and Eve's code takes
     * the last seat, which starts the game with Ann, Di, Bob, Cy and Eve in that order */
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    j = post_want(c, join, NULL, body, 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 2);
    snprintf(bob, sizeof bob, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    j = post_want(c, join, cy_key, "{\"name\":\"Cy\"}", 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 3);
    json_decref(j);
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"invite\":\"%s\"}", codes[3]);
    j = post_want(c, join, NULL, body, 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 4);
    ck_assert_str_eq(e2e_jstr(j, "status"), "active");
    char eve[80];
    snprintf(eve, sizeof eve, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    v = e2e_get_ok(c, path, NULL, 200);
    const char *want[] = {"Ann", "Di", "Bob", "Cy", "Eve"};
    for (int i = 0; i < 5; i++) {
        char k[40];
        snprintf(k, sizeof k, "players.%d.name", i);
        ck_assert_str_eq(e2e_jstr(v, k), want[i]);
    }
    json_decref(v);
    post_problem(c, leave, di, NULL, 409, "not-waiting");   /* under way: resign instead */

    /* it plays, each token its seat's */
    e2e_game eg = {.nplayers = 5};
    snprintf(eg.id, sizeof eg.id, "%s", id);
    snprintf(eg.token[0], sizeof eg.token[0], "%s", ann);
    snprintf(eg.token[1], sizeof eg.token[1], "%s", di);
    snprintf(eg.token[2], sizeof eg.token[2], "%s", bob);
    snprintf(eg.token[3], sizeof eg.token[3], "%s", cy_key);
    snprintf(eg.token[4], sizeof eg.token[4], "%s", eve);
    e2e_rng rng = {11};
    unsigned moved = 0;   /* the seats that have moved: each with the token it was given for it */
    int n = 0;
    for (; moved != 31u && n < 60; n++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &eg, &rng, NULL, &p), 200);
        ck_assert(n > 0 || p.seat == 0);
        moved |= 1u << p.seat;
        e2e_play_free(&p);
    }
    ck_assert_uint_eq(moved, 31u);
    ck_assert_int_eq(e2e_verify_ok(c, d, id), n);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* One request (a POST unless method says otherwise) on its own connection, in a thread. */
typedef struct {
    e2e_client *c;
    const char *method;
    char path[200], token[80], body[200];
    e2e_resp r;
    long status;
} poster;

static void *post_thread(void *arg)
{
    poster *p = arg;
    p->status = e2e_req(p->c, p->method ? p->method : "POST", p->path, p->token, p->body[0] ? p->body : NULL, NULL,
                        &p->r);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits (`seconds` at most) until `n` sessions of the database that `pg` is connected to wait on a lock: the
 * order in which requests queue behind a row the test holds, seen rather than guessed from a sleep. Whether
 * they did. */
static bool lock_waiters(PGconn *pg, int n, double seconds)
{
    for (double t0 = e2e_now(); e2e_now() - t0 < seconds; sleep_ms(10)) {
        PGresult *res = PQexec(pg, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                   "AND wait_event_type = 'Lock'");
        long got = PQresultStatus(res) == PGRES_TUPLES_OK ? atol(PQgetvalue(res, 0, 0)) : -1;
        PQclear(res);
        if (got >= n)
            return true;
    }
    return false;
}

/* A write by seat number racing a leave that moves the seat: Cy's message is written after carcd looked her seat
 * up (2) and after Bob's leave moved her to 1. A session of the test's own holds Cy's seat row, so that the leave
 * queues on it first and the message's transaction behind it; when it lets go, the leave renumbers and commits,
 * and the message finds seat 2 no longer Cy's, looks her up again and is written as seat 1's. A read of Cy's
 * address, queued the same way, is Cy's address, read as seat 1's. */
START_TEST(a_write_racing_a_leave_moves_with_the_seat)
{
    static const char *const env[] = {"CARCD_SMTP_URL=smtp://127.0.0.1:1",   /* addresses kept, none sent */
                                      "CARCD_MAIL_SECRET=a-test-secret-of-the-lobby-tests",
                                      "CARCD_PUBLIC_URL=http://carcd.example.org", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true},{\"invite\":true}]}",
                          201);
    char id[40], codes[2][80], tokens[2][80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(codes[0], sizeof codes[0], "%s", e2e_jstr(g, "invites.0.invite"));
    snprintf(codes[1], sizeof codes[1], "%s", e2e_jstr(g, "invites.1.invite"));
    json_decref(g);
    const char *names[] = {"Bob", "Cy"};
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(e2e_join_by_code(c, id, names[i], codes[i], tokens[i]), i + 1);
    e2e_resp er;   /* Cy's address, kept for the start */
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    ck_assert_int_eq(e2e_req(c, "PUT", path, tokens[1], "{\"email\":\"cy@example.org\"}", NULL, &er), 200);
    e2e_resp_free(&er);
    PGconn *pg = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(pg) == CONNECTION_OK, "%s", PQerrorMessage(pg));
    PQclear(PQexec(pg, "BEGIN"));
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT 1 FROM seats WHERE game_id = '%s' AND seat = 2 FOR UPDATE", id);
    PGresult *res = PQexec(pg, sql);
    ck_assert_int_eq(PQntuples(res), 1);
    PQclear(res);

    poster leave = {.c = e2e_client_new(d)}, say = {.c = e2e_client_new(d)};
    snprintf(leave.path, sizeof leave.path, "/v1/games/%s/leave", id);
    snprintf(leave.token, sizeof leave.token, "%s", tokens[0]);
    snprintf(say.path, sizeof say.path, "/v1/games/%s/messages", id);
    snprintf(say.token, sizeof say.token, "%s", tokens[1]);
    snprintf(say.body, sizeof say.body, "{\"text\":\"still here\"}");
    poster ask = {.c = e2e_client_new(d), .method = "GET"};
    snprintf(ask.path, sizeof ask.path, "/v1/games/%s/email", id);
    snprintf(ask.token, sizeof ask.token, "%s", tokens[1]);
    pthread_t tl, ts, ta;
    PGconn *watch = PQconnectdb(d->dburl);   /* outside pg's transaction, whose view of pg_stat_activity stays */
    ck_assert_msg(PQstatus(watch) == CONNECTION_OK, "%s", PQerrorMessage(watch));
    pthread_create(&tl, NULL, post_thread, &leave);
    ck_assert_msg(lock_waiters(watch, 1, 10), "the leave did not queue on Cy's row within 10 s");
    pthread_create(&ts, NULL, post_thread, &say);
    pthread_create(&ta, NULL, post_thread, &ask);
    /* the message (and the read, when carcd has a thread free for it) look Cy up as seat 2 and wait on her row
     * behind the leave. Not asserted: a request that comes later looks her up as seat 1, and must get the same */
    lock_waiters(watch, 2, 2);
    PQfinish(watch);
    PQclear(PQexec(pg, "COMMIT"));
    PQfinish(pg);
    pthread_join(tl, NULL);
    pthread_join(ts, NULL);
    pthread_join(ta, NULL);
    ck_assert_msg(ask.status == 200, "address: %ld %s", ask.status, ask.r.body);
    ck_assert_str_eq(e2e_jstr(ask.r.json, "email"), "cy@example.org");
    e2e_resp_free(&ask.r);
    e2e_client_free(ask.c);
    ck_assert_msg(leave.status == 200, "leave: %ld %s", leave.status, leave.r.body);
    ck_assert_msg(say.status == 201, "message: %ld %s", say.status, say.r.body);
    ck_assert_int_eq(e2e_jint(say.r.json, "seat"), 1);   /* written as the seat Cy has now */
    ck_assert_str_eq(e2e_jstr(say.r.json, "name"), "Cy");
    e2e_resp_free(&leave.r);
    e2e_resp_free(&say.r);
    e2e_client_free(leave.c);
    e2e_client_free(say.c);
    snprintf(path, sizeof path, "/v1/games/%s/messages", id);
    json_t *v = e2e_get_ok(c, path, tokens[1], 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "messages")), 1);
    ck_assert_int_eq(e2e_jint(v, "messages.0.seat"), 1);
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The kinds of a player's stream, in order, as one string ("game_started,turn,"). */
static void kinds_of(e2e_client *c, const char *key, char *out, size_t n)
{
    json_t *all = e2e_me_events_all(c, key);
    out[0] = '\0';
    size_t i;
    json_t *e;
    json_array_foreach(all, i, e) {
        strncat(out, e2e_jstr(e, "kind"), n - strlen(out) - 1);
        strncat(out, ",", n - strlen(out) - 1);
    }
    json_decref(all);
}

/* A rematch's acceptance that leaves it waiting is a join as any other: its expiry counts anew and the seats
 * in hear who came (player_joined), where the offerer had heard nothing until the start. */
START_TEST(rematch_acceptance_is_a_join)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char keys[3][80], body[600], path[200], acc[220], view[200];
    const char *names[] = {"Ann", "Bob", "Cy"};
    for (int i = 0; i < 3; i++)
        new_key(c, names[i], keys[i]);
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\",\"player_key\":\"%s\"},"
             "{\"name\":\"Cy\",\"player_key\":\"%s\"}]}", keys[0], keys[1], keys[2]);
    e2e_game eg;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, NULL, body, false, &eg), 201);
    play_to_end(c, &eg, 7);
    snprintf(path, sizeof path, "/v1/games/%s/rematch", eg.id);
    snprintf(acc, sizeof acc, "/v1/games/%s/rematch/accept", eg.id);
    json_t *o = post_want(c, path, keys[1], NULL, 201);   /* Bob offers */
    snprintf(view, sizeof view, "/v1/games/%s", e2e_jstr(o, "game_id"));
    json_decref(o);
    json_t *v = e2e_get_ok(c, view, NULL, 200);
    char offered_until[40];
    snprintf(offered_until, sizeof offered_until, "%s", e2e_jstr(v, "expires_at"));
    json_decref(v);
    ck_assert_msg(offered_until[0], "a waiting rematch expires");
    nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);   /* a join later than the offer */
    char kinds[400];
    kinds_of(c, keys[1], kinds, sizeof kinds);
    ck_assert_msg(!strstr(kinds, "player_joined"), "%s", kinds);
    json_t *a = post_want(c, acc, keys[0], NULL, 201);   /* Ann accepts: Cy's place still open */
    ck_assert_str_eq(e2e_jstr(a, "status"), "waiting");
    json_decref(a);
    v = e2e_get_ok(c, view, NULL, 200);
    ck_assert_msg(strcmp(e2e_jstr(v, "expires_at"), offered_until) > 0, "expires_at %s, offered until %s",
                  e2e_jstr(v, "expires_at"), offered_until);
    json_decref(v);
    kinds_of(c, keys[1], kinds, sizeof kinds);   /* Bob, seated in the rematch, hears that Ann came */
    ck_assert_msg(strstr(kinds, "player_joined,"), "%s", kinds);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* POST .../invites/lookup: the holder of a code learns what became of its invitation (the page asks before it
 * draws its join form): open, used with the code, taken from the lobby, or replaced; nothing is written. */
START_TEST(an_invitation_looked_up_by_its_code)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char cy_key[80];
    new_key(c, "Cy", cy_key);
    json_t *g = post_want(c, "/v1/games", NULL,
                          "{\"public\":true,\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true},"
                          "{\"invite\":true}]}",
                          201);
    char id[40], creator[80], codes[3][80];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(g, "creator_token"));
    e2e_invite_codes(g, 3, codes);
    json_decref(g);
    char look[200], join[200], body[200];
    snprintf(look, sizeof look, "/v1/games/%s/invites/lookup", id);
    snprintf(join, sizeof join, "/v1/games/%s/join", id);

    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[0]);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", look, NULL, body, NULL, &r), 200);   /* open */
    ck_assert_str_eq(e2e_jstr(r.json, "game_id"), id);
    ck_assert_int_eq(e2e_jint(r.json, "place"), 0);
    ck_assert(json_is_null(e2e_jget(r.json, "seat")) && json_is_false(e2e_jget(r.json, "from_lobby")));
    ck_assert_msg(r.headers && strstr(r.headers, "no-store"), "%s", r.headers ? r.headers : "");
    e2e_resp_free(&r);
    /* Bob joins with code 0 (seat 1); Cy from the lobby takes place 1 (seat 2), whose code she never saw */
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    json_t *j = post_want(c, join, NULL, body, 201);
    char bob[80];
    snprintf(bob, sizeof bob, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    json_decref(post_want(c, join, cy_key, "{\"name\":\"Cy\"}", 201));
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[0]);
    j = post_want(c, look, NULL, body, 200);
    ck_assert(e2e_jint(j, "place") == 0 && e2e_jint(j, "seat") == 1 && json_is_false(e2e_jget(j, "from_lobby")));
    json_decref(j);
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[1]);
    j = post_want(c, look, NULL, body, 200);
    ck_assert(e2e_jint(j, "place") == 1 && e2e_jint(j, "seat") == 2 && json_is_true(e2e_jget(j, "from_lobby")));
    json_decref(j);
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[2]);
    j = post_want(c, look, bob, body, 200);   /* any bearer, or none: the code is what counts */
    ck_assert(e2e_jint(j, "place") == 2 && json_is_null(e2e_jget(j, "seat")));
    json_decref(j);

    /* refusals */
    post_problem(c, look, NULL, "{\"invite\":\"iv_not-a-code-of-this-game\"}", 403, "forbidden");
    char other[200];
    snprintf(other, sizeof other, "/v1/games/%s/invites/lookup", "00000000-0000-4000-8000-000000000000");
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[2]);
    post_problem(c, other, NULL, body, 403, "forbidden");   /* a code names its game, and opens no other */
    post_problem(c, "/v1/games/nope/invites/lookup", NULL, body, 404, "not-found");
    post_problem(c, look, NULL, "{}", 400, "invalid");
    post_problem(c, look, NULL, "{\"invite\":7}", 400, "invalid");
    post_problem(c, look, NULL, "{\"invite\":\"x\",\"name\":\"Eve\"}", 400, "invalid");
    post_problem(c, look, NULL, "{", 400, "bad-json");

    /* the creator removes Bob: his place opens to a new code, and his old one opens nothing */
    char rm[200];
    snprintf(rm, sizeof rm, "/v1/games/%s/seats/1/remove", id);
    j = post_want(c, rm, creator, "{\"place\":0}", 200);
    char fresh[80];
    snprintf(fresh, sizeof fresh, "%s", e2e_jstr(j, "invite.invite"));
    json_decref(j);
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", codes[0]);
    post_problem(c, look, NULL, body, 403, "forbidden");
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", fresh);
    j = post_want(c, look, NULL, body, 200);
    ck_assert(e2e_jint(j, "place") == 0 && json_is_null(e2e_jget(j, "seat")));
    json_decref(j);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(seat_removed_by_the_creator)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    char ann_key[80], cy_key[80], path[300], body[400];
    new_key(c, "Ann", ann_key);
    new_key(c, "Cy", cy_key);
    snprintf(body, sizeof body,
             "{\"public\":true,\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true},"
             "{\"invite\":true},{\"invite\":true}]}",
             ann_key);
    json_t *g = post_want(c, "/v1/games", NULL, body, 201);
    char id[40], creator[80], codes[3][80];
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(g, "creator_token"));
    e2e_invite_codes(g, 3, codes);
    json_decref(g);
    /* Bob by code (seat 1, place 0), Cy from the lobby with her key (seat 2, place 1: its code unseen by her) */
    char join[200], bob[80];
    snprintf(join, sizeof join, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    json_t *j = post_want(c, join, NULL, body, 201);
    snprintf(bob, sizeof bob, "%s", e2e_jstr(j, "token"));
    json_decref(j);
    j = post_want(c, join, cy_key, "{\"name\":\"Cy\"}", 201);
    ck_assert_int_eq(e2e_jint(j, "seat"), 2);
    json_decref(j);

    /* refusals, each changing nothing */
    char rm[200];
    snprintf(rm, sizeof rm, "/v1/games/%s/seats/1/remove", id);
    post_problem(c, rm, NULL, NULL, 401, "unauthenticated");
    post_problem(c, rm, bob, NULL, 403, "forbidden");        /* a seat is not the creator */
    post_problem(c, rm, ann_key, NULL, 403, "forbidden");    /* nor is the named seat's key */
    post_problem(c, rm, creator, "{\"why\":1}", 400, "invalid");
    snprintf(path, sizeof path, "/v1/games/%s/seats/x/remove", id);
    post_problem(c, path, creator, NULL, 400, "invalid");
    snprintf(path, sizeof path, "/v1/games/%s/seats/3/remove", id);
    post_problem(c, path, creator, NULL, 404, "not-found");   /* three seats taken: 0 to 2 */
    snprintf(path, sizeof path, "/v1/games/%s/seats/0/remove", id);
    post_problem(c, path, creator, NULL, 409, "named-seat");
    snprintf(path, sizeof path, "/v1/games/%s/seats/1/remove", "00000000-0000-4000-8000-000000000000");
    post_problem(c, path, creator, NULL, 404, "not-found");
    int places[8], np = 0;
    places_of(c, id, places, &np);
    ck_assert(np == 3 && places[0] == 1 && places[1] == 2 && places[2] == -1);

    /* the creator removes Bob: Cy moves down to seat 1, and Bob's place opens to a new code */
    json_t *v = post_want(c, rm, creator, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(e2e_jint(v, "removed.seat"), 1);
    ck_assert_str_eq(e2e_jstr(v, "removed.player"), "Bob");
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "players")), 2);
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Cy");
    ck_assert_int_eq(e2e_jint(v, "open"), 2);
    ck_assert_int_eq(e2e_jint(v, "invite.place"), 0);
    char fresh[80];
    snprintf(fresh, sizeof fresh, "%s", e2e_jstr(v, "invite.invite"));
    ck_assert(strncmp(fresh, "iv_", 3) == 0 && strcmp(fresh, codes[0]) != 0);
    ck_assert(strstr(e2e_jstr(v, "invite.join_url"), fresh) && strstr(e2e_jstr(v, "invite.page_url"), fresh));
    assert_no_hidden(v, "remove");
    json_decref(v);
    places_of(c, id, places, &np);
    ck_assert_msg(places[0] == -1 && places[1] == 1 && places[2] == -1, "%d %d %d", places[0], places[1], places[2]);
    char leave[200];
    snprintf(leave, sizeof leave, "/v1/games/%s/leave", id);
    post_problem(c, leave, bob, NULL, 403, "seat-removed");   /* Bob's token opens nothing, and says why */
    snprintf(path, sizeof path, "/v1/games/%s", id);
    e2e_resp r;
    e2e_req(c, "GET", path, bob, NULL, NULL, &r);   /* what his open page reads */
    ck_assert_msg(r.status == 403 && e2e_problem_is(&r, "seat-removed") && strstr(r.body, "creator removed"), "%s",
                  r.body);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/moves", id);
    post_problem(c, path, bob, "{\"expected_seq\":0,\"move\":{\"type\":\"pass\"}}", 403, "seat-removed");
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
    post_problem(c, join, NULL, body, 403, "forbidden");          /* his code no longer opens the place */

    /* a second tab of the creator's, still showing Bob at seat 1, removes him again by his place: seat 1 is Cy's
     * now (place 1), so nothing is removed, and the problem says whose seat it is */
    e2e_req(c, "POST", rm, creator, "{\"place\":0}", NULL, &r);
    e2e_assert_problem(&r, 409, "place", rm);
    ck_assert_msg(e2e_problem_is(&r, "seat-changed") && strstr(r.body, "place 1, not of place 0"), "%s", r.body);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/seats/0/remove", id);   /* Ann's named seat is no place's */
    post_problem(c, path, creator, "{\"place\":1}", 409, "seat-changed");
    post_problem(c, rm, creator, "{\"place\":-1}", 400, "invalid");
    post_problem(c, rm, creator, "{\"place\":\"1\"}", 400, "invalid");
    post_problem(c, rm, creator, "{\"place\":99}", 400, "invalid");
    places_of(c, id, places, &np);
    ck_assert_msg(places[0] == -1 && places[1] == 1 && places[2] == -1, "%d %d %d", places[0], places[1], places[2]);

    /* Ann's page, still showing Bob at seat 1, mutes him by the name it showed: seat 1 is Cy's now, so nobody is
     * muted, and the problem says whose seat it is; by Cy's name, Cy is */
    char mute[200], msgs[200];
    snprintf(mute, sizeof mute, "/v1/games/%s/mutes/1", id);
    snprintf(msgs, sizeof msgs, "/v1/games/%s/messages?after=0", id);
    e2e_req(c, "PUT", mute, ann_key, "{\"name\":\"Bob\"}", NULL, &r);
    e2e_assert_problem(&r, 409, "name", mute);
    ck_assert_msg(e2e_problem_is(&r, "seat-changed") && strstr(r.body, "seat 1 is now Cy's"), "%s", r.body);
    e2e_resp_free(&r);
    e2e_req(c, "PUT", mute, ann_key, "{\"name\":5}", NULL, &r);
    e2e_assert_problem(&r, 400, "name", mute);
    e2e_resp_free(&r);
    e2e_req(c, "PUT", mute, ann_key, "{\"who\":\"Cy\"}", NULL, &r);
    e2e_assert_problem(&r, 400, "who", mute);
    e2e_resp_free(&r);
    j = e2e_get_ok(c, msgs, ann_key, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(j, "muted")), 0);
    json_decref(j);
    ck_assert_int_eq(e2e_req(c, "PUT", mute, ann_key, "{\"name\":\"Cy\"}", NULL, &r), 204);
    e2e_resp_free(&r);
    j = e2e_get_ok(c, msgs, ann_key, 200);
    ck_assert(json_array_size(json_object_get(j, "muted")) == 1 && e2e_jint(j, "muted.0") == 1);
    json_decref(j);
    ck_assert_int_eq(e2e_req(c, "DELETE", mute, ann_key, "{\"name\":\"Cy\"}", NULL, &r), 204);
    e2e_resp_free(&r);

    /* the creator removes Cy (seat 1 now, place 1), with the admin token this time: her place keeps its code,
     * which she never saw, and her key is refused the game from the lobby; her stream says so */
    v = post_want(c, rm, d->admin, "{\"place\":1}", 200);
    ck_assert_str_eq(e2e_jstr(v, "removed.player"), "Cy");
    ck_assert_ptr_null(json_object_get(v, "invite"));
    json_decref(v);
    j = post_want(c, join, cy_key, "{\"name\":\"Cy\"}", 403);
    ck_assert_msg(strstr(e2e_jstr(j, "detail"), "removed"), "%s", e2e_jstr(j, "detail"));
    ck_assert_str_eq(e2e_jstr(j, "field"), "player_key");
    json_decref(j);
    snprintf(path, sizeof path, "/v1/games/%s", id);   /* her key reads nothing of it, and says why */
    e2e_req(c, "GET", path, cy_key, NULL, NULL, &r);
    ck_assert_msg(r.status == 403 && e2e_problem_is(&r, "seat-removed"), "%s", r.body);
    e2e_resp_free(&r);
    char kinds[400];
    kinds_of(c, cy_key, kinds, sizeof kinds);
    ck_assert_msg(strstr(kinds, "seat_removed,") != NULL, "%s", kinds);
    kinds_of(c, ann_key, kinds, sizeof kinds);   /* Ann heard of both, as of leaves */
    ck_assert_msg(strstr(kinds, "player_joined,player_joined,player_left,player_left,") != NULL, "%s", kinds);
    ck_assert_int_eq(lobby_count(c, "", id), 1);
    /* the place Cy took still opens to its first code; Bob's to the new one; and both fill the game */
    snprintf(body, sizeof body, "{\"name\":\"Di\",\"invite\":\"%s\"}", codes[1]);
    json_decref(post_want(c, join, NULL, body, 201));
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"invite\":\"%s\"}", fresh);
    json_decref(post_want(c, join, NULL, body, 201));
    places_of(c, id, places, &np);
    ck_assert_msg(places[0] == 2 && places[1] == 1 && places[2] == -1, "%d %d %d", places[0], places[1], places[2]);
    /* with the game under way, nothing is removed */
    snprintf(body, sizeof body, "{\"name\":\"Fay\",\"invite\":\"%s\"}", codes[2]);
    j = post_want(c, join, NULL, body, 201);
    ck_assert_str_eq(e2e_jstr(j, "status"), "active");
    json_decref(j);
    post_problem(c, rm, creator, NULL, 409, "not-waiting");
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A waiting game whose warning comes late is never cancelled unwarned: carcd was stopped (its clock off here)
 * from before the warning's time until well after the expiry's. When its clock runs again the game's seats are
 * told first, and the game is counted anew so that it expires the warning's notice (half of this 8 s TTL) after
 * that; then it is cancelled. */
START_TEST(late_warning_counts_anew)
{
    static const char *const env[] = {"CARCD_WAITING_TTL=8", "CARCD_CLOCK_INTERVAL_MS=0", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    char ann_key[80], body[300], id[40], path[200], sql[300];
    new_key(c, "Ann", ann_key);
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"invite\":true}]}",
             ann_key);
    json_t *g = post_want(c, "/v1/games", NULL, body, 201);
    snprintf(id, sizeof id, "%s", e2e_jstr(g, "id"));
    json_decref(g);
    /* nobody joined it for a minute: past its warning and its expiry, and told nothing */
    snprintf(sql, sizeof sql, "WITH u AS (UPDATE game_waiting SET last_join_at = now() - interval '60 seconds' "
                              "WHERE game_id = '%s' RETURNING 1) SELECT count(*) FROM u", id);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    char before[40];
    snprintf(before, sizeof before, "%s", e2e_jstr(v, "expires_at"));
    json_decref(v);

    e2e_daemon_stop(d);   /* carcd comes back with its clock */
    d->extra_env[1] = "CARCD_CLOCK_INTERVAL_MS=50";
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    char kinds[200] = "";
    for (double t0 = e2e_now(); e2e_now() - t0 < 10 * E2E_SLACK && !strstr(kinds, "game_expiring"); sleep_ms(20))
        kinds_of(c, ann_key, kinds, sizeof kinds);
    ck_assert_str_eq(kinds, "game_expiring,");   /* told, not cancelled */
    /* still waiting, until a date to come: about 4 s after the warning, not the one that had passed */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM game_waiting WHERE game_id = '%s' AND expiry_warned "
                              "AND last_join_at + interval '8 seconds' > now()", id);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_msg(strcmp(e2e_jstr(v, "expires_at"), before) > 0, "expires_at %s, before %s", e2e_jstr(v, "expires_at"),
                  before);
    json_decref(v);
    /* then cancelled at that date */
    v = e2e_wait_status(c, path, "cancelled", 10);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_str_eq(e2e_jstr(v, "cancelled_by"), "expiry");
    json_decref(v);
    kinds_of(c, ann_key, kinds, sizeof kinds);
    ck_assert_str_eq(kinds, "game_expiring,game_over,");
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_lobby");
    TCase *tc = e2e_tcase("lobby", 300);
    tcase_add_test(tc, public_game_filled_from_the_lobby_and_played_with_keys);
    tcase_add_test(tc, lost_token_reissued);
    tcase_add_test(tc, racing_joins_one_wins);
    tcase_add_test(tc, waiting_game_refuses_play_and_starts_with_three_of_four);
    tcase_add_test(tc, cancelled_by_its_creator);
    tcase_add_test(tc, rematch_offered_and_accepted);
    tcase_add_test(tc, rematch_acceptance_is_a_join);
    tcase_add_test(tc, seat_left_before_the_start);
    tcase_add_test(tc, a_wait_follows_its_seat_across_a_leave);
    tcase_add_test(tc, a_write_racing_a_leave_moves_with_the_seat);
    tcase_add_test(tc, seat_removed_by_the_creator);
    tcase_add_test(tc, an_invitation_looked_up_by_its_code);
    tcase_add_test(tc, late_warning_counts_anew);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
