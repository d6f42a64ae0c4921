/*
 * test_play.c — complete games through legal-moves and moves only, 2 to 6 players, for every expansion
 * combination the daemon offers: at the end the game is finished, the view's scores are the sums of the
 * score events, the seed is revealed and hashes to the seed_sha256 published at creation, the winners are
 * the seats with the best score, and the admin replay (verify) agrees. A move's answer carries the mover's
 * legal moves exactly when the mover is pending again, and then they are what GET legal-moves answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* Every expansion combination that exists: a new one is one line here. */
static const struct {
    const char *name;
    const char *json;   /* the request's "expansions" */
} expansion_sets[] = {
    {"base", "[]"},
    {"hills_sheep", "[\"hills_sheep\"]"},
    {"halflings", "[\"halflings\"]"},
    {"all_four", "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]"},
    {"crop_circles", "[\"crop_circles\"]"},
    {"fruit_trees", "[\"fruit_trees\"]"},
};
#define NSETS ((int)(sizeof expansion_sets / sizeof expansion_sets[0]))
#define MIN_PLAYERS 2
#define MAX_PLAYERS 6
#define NCOUNTS (MAX_PLAYERS - MIN_PLAYERS + 1)
#define MAX_MOVES 1000   /* a base game takes about 2 moves per tile: ~150 */

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void check_seed(const char *seed, const char *want_sha)
{
    ck_assert_msg(strlen(seed) == 64, "seed '%s' is not 64 hex digits", seed);
    uint8_t bytes[32];
    for (int i = 0; i < 32; i++) {
        int hi = hexval(seed[2 * i]), lo = hexval(seed[2 * i + 1]);
        ck_assert_msg(hi >= 0 && lo >= 0, "seed '%s' is not lower-case hex", seed);
        bytes[i] = (uint8_t)(hi << 4 | lo);
    }
    char sha[65];
    e2e_sha256_hex(bytes, sizeof bytes, sha);
    ck_assert_str_eq(sha, want_sha);
}

static void play_full(int set, int nplayers)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, nplayers, expansion_sets[set].json, &g);
    e2e_rng rng = {0x5eed0000u + (uint64_t)(set * 16 + nplayers)};
    char path[160], lpath[160], mpath[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);

    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    ck_assert_int_eq(e2e_jint(v, "seq"), 0);
    ck_assert_str_eq(e2e_jstr(v, "seed_sha256"), g.seed_sha256);
    ck_assert_int_eq(json_array_size(json_object_get(v, "players")), nplayers);
    ck_assert_ptr_null(json_object_get(v, "seed"));
    ck_assert_ptr_null(json_object_get(v, "winners"));
    json_decref(v);

    long long sum[MAX_PLAYERS] = {0};
    json_t *game_over = NULL;
    int moves = 0, nscore_events = 0, last_mover = -1, ninline = 0;
    json_t *inline_lm = NULL;   /* the last move's answer's legal_moves, if it had them */
    double t0 = e2e_now();
    for (;;) {
        v = e2e_get_ok(c, path, NULL, 200);
        if (strcmp(e2e_jstr(v, "status"), "finished") == 0) {
            ck_assert_msg(!inline_lm, "the last move's answer offered moves in a finished game");
            json_decref(v);
            break;
        }
        ck_assert_str_eq(e2e_jstr(v, "status"), "active");
        ck_assert_int_eq(e2e_jint(v, "seq"), moves);
        int seat = (int)e2e_jint(v, "pending.seat");
        ck_assert_msg(seat >= 0 && seat < nplayers, "pending.seat %d", seat);
        json_decref(v);
        ck_assert_msg((inline_lm != NULL) == (moves > 0 && seat == last_mover),
                      "seq %d: seat %d pending after seat %d moved, and the answer %s legal_moves", moves, seat,
                      last_mover, inline_lm ? "had" : "had no");
        ck_assert_msg(moves < MAX_MOVES, "the game did not end within %d moves", MAX_MOVES);

        /* one other seat (in turn) is offered nothing */
        int other = (seat + 1 + moves % (nplayers - 1)) % nplayers;
        json_t *lm = e2e_get_ok(c, lpath, g.token[other], 200);
        ck_assert_int_eq(e2e_jint(lm, "seat"), other);
        ck_assert_int_eq(e2e_jint(lm, "seq"), moves);
        ck_assert_msg(json_array_size(json_object_get(lm, "moves")) == 0, "seat %d (not pending) offered moves",
                      other);
        json_decref(lm);

        lm = e2e_get_ok(c, lpath, g.token[seat], 200);
        ck_assert_int_eq(e2e_jint(lm, "seat"), seat);
        ck_assert_int_eq(e2e_jint(lm, "seq"), moves);
        json_t *list = json_object_get(lm, "moves");
        size_t n = json_array_size(list);
        ck_assert_msg(n > 0, "seq %d: the pending seat %d has no legal move", moves, seat);
        if (inline_lm) {
            ck_assert_msg(json_equal(inline_lm, lm), "seq %d: the move's legal_moves differ from GET legal-moves'",
                          moves);
            ninline++;
            json_decref(inline_lm);
            inline_lm = NULL;
        }
        json_t *body = json_pack("{s:i, s:O}", "expected_seq", moves, "move",
                                 json_array_get(list, e2e_rng_below(&rng, (uint32_t)n)));
        char *text = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        json_decref(lm);
        e2e_resp r;
        long st = e2e_req(c, "POST", mpath, g.token[seat], text, NULL, &r);
        ck_assert_msg(st == 200, "seq %d: move %s: %ld %s %.400s", moves, text, st, r.curl_error, r.body);
        free(text);
        moves++;
        last_mover = seat;
        ck_assert_int_eq(e2e_jint(r.json, "seq"), moves);
        inline_lm = json_incref(json_object_get(r.json, "legal_moves"));
        json_t *events = json_object_get(r.json, "events");
        ck_assert_msg(json_is_array(events), "no events array: %s", r.body);
        size_t i;
        json_t *ev;
        json_array_foreach(events, i, ev) {
            const char *type = e2e_jstr(ev, "type");
            if (strcmp(type, "score") == 0) {
                nscore_events++;
                long long pts = e2e_jint(ev, "points");
                ck_assert_msg(pts >= 0, "score event without points: %s", r.body);
                json_t *seats = json_object_get(ev, "seats");
                ck_assert_msg(json_array_size(seats) > 0, "score event without seats: %s", r.body);
                size_t k;
                json_t *s;
                json_array_foreach(seats, k, s) {
                    long long who = json_integer_value(s);
                    ck_assert_msg(json_is_integer(s) && who >= 0 && who < nplayers, "score seat %lld", who);
                    sum[who] += pts;
                }
            } else if (strcmp(type, "game_over") == 0) {
                ck_assert_ptr_null(game_over);
                game_over = json_deep_copy(ev);
            }
        }
        e2e_resp_free(&r);
    }
    double secs = e2e_now() - t0;
    ck_assert_msg(ninline > 0, "no move's answer carried legal_moves in %d moves", moves);
    /* one process played it all: every move after the first found the state its predecessor left in the
     * cache (and so did the reads between them, whose statements then left the snapshot in the database) */
    e2e_resp mr;
    ck_assert_int_eq(e2e_req(c, "GET", "/metrics", NULL, NULL, NULL, &mr), 200);
    const char *hit = strstr(mr.body, "carcd_state_cache_reads_total{result=\"hit\"} ");
    ck_assert_msg(hit != NULL, "no cache hits in /metrics");
    long long hits = atoll(hit + strlen("carcd_state_cache_reads_total{result=\"hit\"} "));
    ck_assert_msg(hits >= 3LL * (moves - 1), "%lld cache hits in %d moves (each with a view and a legal-moves read)",
                  hits, moves);
    e2e_resp_free(&mr);

    /* the end: the public view, every seat's view and the admin view agree */
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    ck_assert_int_eq(e2e_jint(v, "seq"), moves);
    ck_assert_msg(game_over != NULL, "no game_over event in %d moves", moves);
    json_t *players = json_object_get(v, "players");
    ck_assert_int_eq(json_array_size(players), nplayers);
    long long best = -1;
    for (int s = 0; s < nplayers; s++) {
        long long score = e2e_jint(json_array_get(players, (size_t)s), "score");
        ck_assert_msg(score == sum[s], "seat %d: view score %lld, score events sum to %lld", s, score, sum[s]);
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(game_over, "scores"), (size_t)s)), score);
        if (score > best)
            best = score;
    }
    json_t *winners = json_object_get(v, "winners");
    ck_assert_msg(json_is_array(winners), "no winners in the final view");
    size_t w = 0;
    for (int s = 0; s < nplayers; s++) {
        if (e2e_jint(json_array_get(players, (size_t)s), "score") != best)
            continue;
        ck_assert_msg(w < json_array_size(winners) && json_integer_value(json_array_get(winners, w)) == s,
                      "winners wrong: seat %d has the best score %lld", s, best);
        w++;
    }
    ck_assert_int_eq(w, json_array_size(winners));
    ck_assert_str_eq(e2e_jstr(v, "seed_sha256"), g.seed_sha256);
    check_seed(e2e_jstr(v, "seed"), g.seed_sha256);
    for (int s = 0; s < nplayers; s++) {
        json_t *sv = e2e_get_ok(c, path, g.token[s], 200);
        ck_assert_str_eq(e2e_jstr(sv, "status"), "finished");
        ck_assert_str_eq(e2e_jstr(sv, "seed"), e2e_jstr(v, "seed"));
        ck_assert(json_equal(json_object_get(sv, "winners"), winners));
        for (int k = 0; k < nplayers; k++)
            ck_assert_int_eq(e2e_jint(json_array_get(json_object_get(sv, "players"), (size_t)k), "score"), sum[k]);
        json_decref(sv);
        json_t *lm = e2e_get_ok(c, lpath, g.token[s], 200);
        ck_assert_msg(json_array_size(json_object_get(lm, "moves")) == 0, "seat %d offered moves after the end", s);
        json_decref(lm);
    }
    json_t *av = e2e_admin_view(c, d, g.id);
    ck_assert_str_eq(e2e_jstr(av, "status"), "finished");
    ck_assert_str_eq(e2e_jstr(av, "seed"), e2e_jstr(v, "seed"));
    ck_assert_int_eq(e2e_jint(av, "seq"), moves);
    json_decref(av);
    ck_assert_int_eq(e2e_verify_ok(c, d, g.id), moves);
    /* the public log tells the same story as the answers */
    long lst;
    json_t *log = e2e_events_log(c, g.id, NULL, &lst);
    ck_assert_msg(log != NULL, "GET /events: %ld", lst);
    e2e_assert_log_complete(log, moves, "the public log");
    long long logsum[MAX_PLAYERS] = {0};
    size_t li;
    json_t *entry;
    json_array_foreach(log, li, entry) {
        size_t k;
        json_t *ev;
        json_array_foreach(json_object_get(entry, "events"), k, ev) {
            if (strcmp(e2e_jstr(ev, "type"), "score") != 0)
                continue;
            size_t q;
            json_t *s;
            json_array_foreach(json_object_get(ev, "seats"), q, s) logsum[json_integer_value(s)] += e2e_jint(ev, "points");
        }
    }
    for (int s = 0; s < nplayers; s++)
        ck_assert_msg(logsum[s] == sum[s], "seat %d: the log's score events sum to %lld, the answers' to %lld", s,
                      logsum[s], sum[s]);
    json_decref(log);
    fprintf(stderr, "e2e play %s %dp: %d moves, %d score events, %.2f s (%.0f moves/s with 3 reads each), "
                    "scores:", expansion_sets[set].name, nplayers, moves, nscore_events, secs, moves / secs);
    for (int s = 0; s < nplayers; s++)
        fprintf(stderr, " %lld", sum[s]);
    fprintf(stderr, "\n");

    json_decref(v);
    json_decref(game_over);
    e2e_client_free(c);
    e2e_daemon_down(d);
}

START_TEST(complete_games)
{
    play_full(_i / NCOUNTS, MIN_PLAYERS + _i % NCOUNTS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_play");
    TCase *tc = e2e_tcase("complete_games", 120);
    tcase_add_loop_test(tc, complete_games, 0, NSETS * NCOUNTS);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
