/*
 * test_idempotency.c — Idempotency-Key and If-Match on POST /moves. The same key twice gives the first
 * answer twice and moves the game once; a different key with the same (now stale) expected_seq is a 409; the
 * first key still gives its first answer after the game moved on. If-Match stands in for expected_seq. A key
 * used again with another request (another move, another expected seq) is a 422 and moves nothing; the same
 * request spelt another way (key order, spacing, If-Match for expected_seq) is the same request. A finished
 * game's last move keeps its answer for the window too: the game is compacted only after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    char path[160], lpath[160], mpath[160];
} fx;

static void fx_up(fx *f, int nplayers)
{
    f->d = e2e_daemon_up(NULL);
    f->c = e2e_client_new(f->d);
    e2e_game_create(f->c, nplayers, NULL, &f->g);
    snprintf(f->path, sizeof f->path, "/v1/games/%s", f->g.id);
    snprintf(f->lpath, sizeof f->lpath, "/v1/games/%s/legal-moves", f->g.id);
    snprintf(f->mpath, sizeof f->mpath, "/v1/games/%s/moves", f->g.id);
}

static void fx_down(fx *f)
{
    e2e_client_free(f->c);
    e2e_daemon_down(f->d);
}

/* The pending seat and the body of its first legal move at the current seq (malloc'd). */
static char *first_move_body(fx *f, int *seat, int *seq)
{
    json_t *v = e2e_get_ok(f->c, f->path, NULL, 200);
    *seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    json_t *lm = e2e_get_ok(f->c, f->lpath, f->g.token[*seat], 200);
    *seq = (int)e2e_jint(lm, "seq");
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", *seq, "move", json_array_get(json_object_get(lm, "moves"), 0));
    char *text = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    json_decref(lm);
    return text;
}

static long post_key(fx *f, int seat, const char *body, const char *key, e2e_resp *r)
{
    char h[300];
    snprintf(h, sizeof h, "Idempotency-Key: %s", key ? key : "");
    const char *hdrs[] = {h, NULL};
    return e2e_req(f->c, "POST", f->mpath, f->g.token[seat], body, key ? hdrs : NULL, r);
}

static int game_seq(fx *f)
{
    json_t *av = e2e_admin_view(f->c, f->d, f->g.id);
    int seq = (int)e2e_jint(av, "seq");
    json_decref(av);
    return seq;
}

START_TEST(same_key_same_answer)
{
    fx f;
    fx_up(&f, 2);
    int seat, seq;
    char *body = first_move_body(&f, &seat, &seq);
    ck_assert_int_eq(seq, 0);
    e2e_resp r1, r2, r3;
    ck_assert_int_eq(post_key(&f, seat, body, "key-one", &r1), 200);
    ck_assert_int_eq(e2e_jint(r1.json, "seq"), 1);
    ck_assert_int_eq(post_key(&f, seat, body, "key-one", &r2), 200);
    ck_assert_msg(json_equal(r1.json, r2.json), "a repeated key gave another answer:\n%s\n%s", r1.body, r2.body);
    if (strcmp(r1.body, r2.body) != 0)
        fprintf(stderr, "e2e idempotency: the replayed answer is the same JSON but not the same bytes:\n%s\n%s\n",
                r1.body, r2.body);
    ck_assert_int_eq(game_seq(&f), 1);

    /* another key with the now stale expected_seq */
    ck_assert_int_eq(post_key(&f, seat, body, "key-two", &r3), 409);
    e2e_assert_problem(&r3, 409, "expected_seq", "a new key with a stale expected_seq");
    ck_assert(e2e_problem_is(&r3, "stale-seq"));
    ck_assert_int_eq(e2e_jint(r3.json, "seq"), 1);   /* the seq to move at now, without reading the detail */
    ck_assert_int_eq(game_seq(&f), 1);
    e2e_resp_free(&r3);

    /* the game moves on; the first key still answers its first answer and moves nothing */
    int seat2, seq2;
    char *body2 = first_move_body(&f, &seat2, &seq2);
    ck_assert_int_eq(seq2, 1);
    ck_assert_int_eq(post_key(&f, seat2, body2, "key-three", &r3), 200);
    ck_assert_int_eq(e2e_jint(r3.json, "seq"), 2);
    e2e_resp_free(&r3);
    ck_assert_int_eq(post_key(&f, seat, body, "key-one", &r3), 200);
    ck_assert_msg(json_equal(r1.json, r3.json), "key-one after the game moved on:\n%s\n%s", r1.body, r3.body);
    ck_assert_int_eq(game_seq(&f), 2);
    e2e_resp_free(&r3);

    /* the same key again without it: an ordinary stale post */
    ck_assert_int_eq(post_key(&f, seat, body, NULL, &r3), 409);
    e2e_resp_free(&r3);
    ck_assert_int_eq(e2e_verify_ok(f.c, f.d, f.g.id), 2);

    e2e_resp_free(&r1);
    e2e_resp_free(&r2);
    free(body);
    free(body2);
    fx_down(&f);
}
END_TEST

START_TEST(keys_are_per_seat)
{
    /* a key one seat used does not answer for another seat's move */
    fx f;
    fx_up(&f, 2);
    int seat, seq;
    char *body = first_move_body(&f, &seat, &seq);
    e2e_resp r;
    ck_assert_int_eq(post_key(&f, seat, body, "shared", &r), 200);
    e2e_resp_free(&r);
    free(body);
    int first = seat;
    bool reached = false;
    /* play until the other seat is pending, then use the same key for it */
    for (int guard = 0; guard < 10; guard++) {
        body = first_move_body(&f, &seat, &seq);
        if (seat != first) {
            ck_assert_int_eq(post_key(&f, seat, body, "shared", &r), 200);
            ck_assert_int_eq(e2e_jint(r.json, "seq"), seq + 1);
            e2e_resp_free(&r);
            free(body);
            reached = true;
            break;
        }
        ck_assert_int_eq(post_key(&f, seat, body, NULL, &r), 200);
        e2e_resp_free(&r);
        free(body);
    }
    ck_assert_msg(reached, "the other seat never became pending");
    ck_assert_int_eq(e2e_verify_ok(f.c, f.d, f.g.id), game_seq(&f));
    fx_down(&f);
}
END_TEST

/* The body of legal move `i` at the current seq for the pending seat (malloc'd), NULL when there are not that
 * many. */
static char *nth_move_body(fx *f, int i, int *seat, int *seq)
{
    json_t *v = e2e_get_ok(f->c, f->path, NULL, 200);
    *seat = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    json_t *lm = e2e_get_ok(f->c, f->lpath, f->g.token[*seat], 200);
    *seq = (int)e2e_jint(lm, "seq");
    json_t *mv = json_array_get(json_object_get(lm, "moves"), (size_t)i);
    char *text = NULL;
    if (mv) {
        json_t *b = json_pack("{s:i, s:O}", "expected_seq", *seq, "move", mv);
        text = json_dumps(b, JSON_COMPACT);
        json_decref(b);
    }
    json_decref(lm);
    return text;
}

START_TEST(same_key_other_request)
{
    fx f;
    fx_up(&f, 2);
    int seat, seq;
    char *first = nth_move_body(&f, 0, &seat, &seq);
    char *other = nth_move_body(&f, 1, &seat, &seq);
    ck_assert_ptr_nonnull(other);   /* the first tile has more than one place */
    e2e_resp r1, r;
    ck_assert_int_eq(post_key(&f, seat, first, "reused", &r1), 200);
    ck_assert_int_eq(e2e_jint(r1.json, "seq"), seq + 1);

    /* another move under the same key: refused, and the game does not move */
    ck_assert_int_eq(post_key(&f, seat, other, "reused", &r), 422);
    e2e_assert_problem(&r, 422, "Idempotency-Key", "a key used again with another move");
    ck_assert(e2e_problem_is(&r, "idempotency-key-reused"));
    e2e_resp_free(&r);
    ck_assert_int_eq(game_seq(&f), seq + 1);

    /* the same move with another expected_seq is another request too */
    json_t *b = json_loads(first, 0, NULL);
    json_object_set_new(b, "expected_seq", json_integer(seq + 1));
    char *later = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    /* and the same request spelt another way (keys in another order, spaces) is the same request */
    b = json_loads(first, 0, NULL);
    char *respelt = json_dumps(b, JSON_SORT_KEYS | JSON_INDENT(3));
    json_decref(b);
    ck_assert_int_eq(post_key(&f, seat, later, "reused", &r), 422);
    ck_assert(e2e_problem_is(&r, "idempotency-key-reused"));
    e2e_resp_free(&r);
    ck_assert_int_eq(post_key(&f, seat, respelt, "reused", &r), 200);
    ck_assert_msg(json_equal(r1.json, r.json), "the same request spelt otherwise:\n%s\n%s", r1.body, r.body);
    e2e_resp_free(&r);

    /* If-Match standing in for the same expected_seq is the same request as well */
    b = json_loads(first, 0, NULL);
    json_object_del(b, "expected_seq");
    char *no_seq = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    char h1[300], h2[80];
    snprintf(h1, sizeof h1, "Idempotency-Key: reused");
    snprintf(h2, sizeof h2, "If-Match: \"%d\"", seq);
    const char *hdrs[] = {h1, h2, NULL};
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, f.g.token[seat], no_seq, hdrs, &r), 200);
    ck_assert(json_equal(r1.json, r.json));
    e2e_resp_free(&r);
    ck_assert_int_eq(game_seq(&f), seq + 1);
    ck_assert_int_eq(e2e_verify_ok(f.c, f.d, f.g.id), seq + 1);

    e2e_resp_free(&r1);
    free(first);
    free(other);
    free(later);
    free(respelt);
    free(no_seq);
    fx_down(&f);
}
END_TEST

/* The window holds for a game's last move too: the clock worker (every 50 ms here) compacts a finished game
 * only once the window is over, so the final move retried with its key a second later (some twenty ticks)
 * still gets its first answer, where it was a 409 game-over once the game had been compacted. */
START_TEST(last_move_keeps_its_answer_after_the_end)
{
    static const char *const env[] = {"CARCD_CLOCK_INTERVAL_MS=50", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {11};
    e2e_play last = {0};
    char last_key[40] = "";
    for (int n = 0;; n++) {
        char key[40];
        snprintf(key, sizeof key, "end-%d", n);
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, key, &p);
        if (st == E2E_FINISHED) {
            e2e_play_free(&p);
            break;
        }
        ck_assert_int_eq(st, 200);
        e2e_play_free(&last);
        last = p;
        snprintf(last_key, sizeof last_key, "%s", key);
    }
    struct timespec nap = {1, 0};
    nanosleep(&nap, NULL);
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", last.expected_seq, "move", last.move);
    char *text = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    char h[80], path[120];
    snprintf(h, sizeof h, "Idempotency-Key: %s", last_key);
    const char *hdrs[] = {h, NULL};
    snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[last.seat], text, hdrs, &r), 200);
    ck_assert_str_eq(r.body, last.post.body);
    e2e_resp_free(&r);
    free(text);
    e2e_play_free(&last);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(if_match_instead_of_expected_seq)
{
    fx f;
    fx_up(&f, 2);
    int seat, seq;
    char *body = first_move_body(&f, &seat, &seq);
    json_t *b = json_loads(body, 0, NULL);
    json_object_del(b, "expected_seq");
    char *no_seq = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    e2e_resp r;
    /* the ETag of the view is the seq */
    ck_assert_int_eq(e2e_req(f.c, "GET", f.path, NULL, NULL, NULL, &r), 200);
    char etag[40], vary[40];
    ck_assert_ptr_nonnull(e2e_header(&r, "ETag", etag, sizeof etag));
    /* each bearer sees the game its own way under the one tag: a cache keeps the views apart */
    ck_assert_str_eq(e2e_header(&r, "Vary", vary, sizeof vary), "Authorization");
    e2e_resp_free(&r);
    char h[80];
    snprintf(h, sizeof h, "If-None-Match: %s", etag);
    const char *inm[] = {h, NULL};
    ck_assert_int_eq(e2e_req(f.c, "GET", f.path, NULL, NULL, inm, &r), 304);
    ck_assert_int_eq(r.len, 0);
    e2e_resp_free(&r);

    snprintf(h, sizeof h, "If-Match: \"%d\"", seq + 5);
    const char *stale[] = {h, NULL};
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, f.g.token[seat], no_seq, stale, &r), 409);
    e2e_assert_problem(&r, 409, NULL, "a stale If-Match");
    e2e_resp_free(&r);
    /* an If-Match and an expected_seq that disagree: neither is ignored, the request is refused */
    snprintf(h, sizeof h, "If-Match: \"%d\"", seq + 5);
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, f.g.token[seat], body, stale, &r), 400);
    e2e_assert_problem(&r, 400, "If-Match", "If-Match against expected_seq");
    e2e_resp_free(&r);
    snprintf(h, sizeof h, "If-Match: %s", etag);
    const char *good[] = {h, NULL};
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, f.g.token[seat], no_seq, good, &r), 200);
    ck_assert_int_eq(e2e_jint(r.json, "seq"), seq + 1);
    e2e_resp_free(&r);
    /* the old ETag no longer matches */
    snprintf(h, sizeof h, "If-None-Match: %s", etag);
    ck_assert_int_eq(e2e_req(f.c, "GET", f.path, NULL, NULL, inm, &r), 200);
    e2e_resp_free(&r);
    free(body);
    free(no_seq);
    fx_down(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_idempotency");
    TCase *tc = e2e_tcase("idempotency", 120);
    tcase_add_test(tc, same_key_same_answer);
    tcase_add_test(tc, keys_are_per_seat);
    tcase_add_test(tc, same_key_other_request);
    tcase_add_test(tc, if_match_instead_of_expected_seq);
    tcase_add_test(tc, last_move_keeps_its_answer_after_the_end);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
