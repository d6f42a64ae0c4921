/*
 * test_hidden.c — no hidden information leaves carcd except to the admin: games are played to the end while
 * every seat and public answer (views, legal moves, move answers, events, error texts) is checked for the
 * seed before the end, the order of the remaining stack (the next tiles in order, taken from the admin
 * view, as a JSON fragment) and the hidden keys; and carcd's log never holds a token or a seed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define ORDER_RUN 5   /* this many next tiles in draw order would give the stack away */

typedef struct {
    char *what;
    char *text;   /* the body with whitespace removed */
    json_t *json;
} answer;

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    char seed[65], seed_upper[65];
    bool finished;
    answer *pending;   /* answers waiting to be checked against the next stack too */
    int npending, cap;
    long checked;
    char *tokens_seen[64];
    int ntokens;
} hid;

static char *squeeze(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            *o++ = *s;
    *o = 0;
    return out;
}

/* '"A","B","C","D","E"' from stack[from..from+ORDER_RUN), or "" when fewer than 2 tiles are left, or when
 * every tile of the run is named as a side is (N, E, S, W): '"N","E"' is also how any answer lists a feature's
 * sides, so finding it there says nothing about the stack (a near-empty stack of tiles N and E failed the test
 * on a public events page that never held the stack). */
static void order_fragment(const json_t *stack, size_t from, char *out, size_t cap)
{
    out[0] = 0;
    size_t n = json_array_size(stack);
    if (n < from + 2)
        return;
    size_t end = from + ORDER_RUN < n ? from + ORDER_RUN : n, len = 0;
    bool all_sides = true;
    for (size_t i = from; i < end; i++) {
        const char *t = json_string_value(json_array_get(stack, i));
        all_sides = all_sides && t && strlen(t) == 1 && strchr("NESW", t[0]);
    }
    if (all_sides)
        return;
    for (size_t i = from; i < end; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s\"%s\"", i > from ? "," : "",
                                json_string_value(json_array_get(stack, i)));
}

/* Fails when j holds a key that only the admin may see. */
static void no_hidden_keys(const json_t *j, const char *what, bool finished)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            ck_assert_msg(strcmp(k, "stack") != 0 && strcmp(k, "stack_remaining") != 0 && strcmp(k, "rng") != 0 &&
                              strcmp(k, "under") != 0 && strcmp(k, "stack_pos") != 0,
                          "%s: hidden key \"%s\"", what, k);
            ck_assert_msg(finished || strcmp(k, "seed") != 0, "%s: a \"seed\" before the end", what);
            no_hidden_keys(v, what, finished);
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) no_hidden_keys(v, what, finished);
    }
}

static void check_against(const answer *a, const char *fragment)
{
    if (fragment[0])
        ck_assert_msg(strstr(a->text, fragment) == NULL, "%s reveals the stack order %s: %.400s", a->what, fragment,
                      a->text);
}

/* Checks an answer now (seed, keys, the current stack) and keeps it for the next stack. */
static void take(hid *h, const char *what, const e2e_resp *r, const char *frag_now)
{
    answer a = {strdup(what), squeeze(r->body), r->json ? json_incref(r->json) : NULL};
    if (!h->finished) {
        ck_assert_msg(strstr(r->body, h->seed) == NULL, "%s reveals the seed before the end: %.300s", what,
                      r->body);
        ck_assert_msg(strstr(r->body, h->seed_upper) == NULL, "%s reveals the seed (upper case)", what);
    }
    if (a.json)
        no_hidden_keys(a.json, what, h->finished);
    check_against(&a, frag_now);
    h->checked++;
    if (h->npending == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->pending = realloc(h->pending, (size_t)h->cap * sizeof *h->pending);
    }
    h->pending[h->npending++] = a;
}

static void flush(hid *h, const char *frag_next)
{
    for (int i = 0; i < h->npending; i++) {
        check_against(&h->pending[i], frag_next);
        free(h->pending[i].what);
        free(h->pending[i].text);
        json_decref(h->pending[i].json);
    }
    h->npending = 0;
}

static void get_take(hid *h, const char *path, const char *token, const char *who, const char *frag)
{
    e2e_resp r;
    long st = e2e_req(h->c, "GET", path, token, NULL, NULL, &r);
    char what[300];
    snprintf(what, sizeof what, "GET %s as %s (%ld)", path, who, st);
    ck_assert_msg(st == 200, "%s: %.300s", what, r.body);
    take(h, what, &r, frag);
    e2e_resp_free(&r);
}

/* The log after `after` (-1: all of it) as `token` sees it, page by page, each page checked. */
static void log_take(hid *h, long after, const char *token, const char *who, const char *frag)
{
    for (int page = 0; page < 100; page++) {
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%ld", h->g.id, after);
        e2e_resp r;
        long st = e2e_req(h->c, "GET", path, token, NULL, NULL, &r);
        char what[300];
        snprintf(what, sizeof what, "GET %s as %s (%ld)", path, who, st);
        ck_assert_msg(st == 200, "%s: %.300s", what, r.body);
        take(h, what, &r, frag);
        long next = (long)e2e_jint(r.json, "seq");
        size_t n = json_array_size(json_object_get(r.json, "entries"));
        e2e_resp_free(&r);
        if (n == 0 || next <= after)
            break;
        after = next;
    }
}

static void post_take(hid *h, const char *path, const char *token, const char *body, const char *who, long want,
                      const char *frag, e2e_resp *out)
{
    e2e_req(h->c, "POST", path, token, body, NULL, out);
    char what[300];
    snprintf(what, sizeof what, "POST %s as %s (%ld)", path, who, out->status);
    ck_assert_msg(out->status == want, "%s: want %ld: %.300s", what, want, out->body);
    take(h, what, out, frag);
}

static void play_checked(hid *h, int nplayers, uint64_t seed)
{
    e2e_game_create(h->c, nplayers, NULL, &h->g);
    for (int s = 0; s < nplayers; s++)
        h->tokens_seen[h->ntokens++] = strdup(h->g.token[s]);
    h->finished = false;
    json_t *av = e2e_admin_view(h->c, h->d, h->g.id);
    snprintf(h->seed, sizeof h->seed, "%s", e2e_jstr(av, "seed"));
    ck_assert_int_eq(strlen(h->seed), 64);
    for (int i = 0; i < 64; i++)
        h->seed_upper[i] = (char)toupper((unsigned char)h->seed[i]);
    h->seed_upper[64] = 0;
    e2e_rng rng = {seed};
    char path[160], lpath[160], mpath[160], who[32];
    snprintf(path, sizeof path, "/v1/games/%s", h->g.id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", h->g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", h->g.id);
    char frag[200];
    for (int step = 0;; step++) {
        ck_assert_int_lt(step, 1000);
        /* the truth, from the admin */
        json_t *stack = json_object_get(av, "stack_remaining");
        ck_assert_msg(json_is_array(stack), "the admin view has no stack_remaining");
        order_fragment(stack, 0, frag, sizeof frag);
        flush(h, frag);
        bool over = strcmp(e2e_jstr(av, "status"), "finished") == 0;
        int seq = (int)e2e_jint(av, "seq");
        json_decref(av);
        h->finished = over;

        /* everything a seat or the public can read now */
        get_take(h, path, NULL, "public", frag);
        /* the newest entries every step, the whole log now and then (the full read is O(moves)) */
        long after = step % 16 == 0 || over || seq < 3 ? -1 : seq - 3;
        log_take(h, after, NULL, "public", frag);
        for (int s = 0; s < nplayers; s++) {
            snprintf(who, sizeof who, "seat %d", s);
            get_take(h, path, h->g.token[s], who, frag);
            get_take(h, lpath, h->g.token[s], who, frag);
            log_take(h, after, h->g.token[s], who, frag);
        }
        if (over)
            break;
        json_t *v = e2e_get_ok(h->c, path, NULL, 200);
        int seat = (int)e2e_jint(v, "pending.seat");
        json_decref(v);
        json_t *lm = e2e_get_ok(h->c, lpath, h->g.token[seat], 200);
        json_t *moves = json_object_get(lm, "moves");
        json_t *mv = json_array_get(moves, e2e_rng_below(&rng, (uint32_t)json_array_size(moves)));
        e2e_resp r;
        char body[1200];
        /* every few steps, the error answers too */
        if (step % 7 == 0) {
            char *m = json_dumps(mv, JSON_COMPACT);
            snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq + 3, m);
            post_take(h, mpath, h->g.token[seat], body, "stale", 409, frag, &r);
            e2e_resp_free(&r);
            snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq, m);
            post_take(h, mpath, h->g.token[(seat + 1) % nplayers], body, "another seat", 403, frag, &r);
            e2e_resp_free(&r);
            snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":{\"type\":\"place\",\"tile\":\"D\",\"x\":60,"
                                        "\"y\":60,\"rot\":0}}",
                     seq);
            post_take(h, mpath, h->g.token[seat], body, "illegal", 422, frag, &r);
            e2e_resp_free(&r);
            snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":{\"type\":\"place\",\"tile\":\"NOPE\",\"x\":"
                                        "1,\"y\":0,\"rot\":0}}",
                     seq);
            post_take(h, mpath, h->g.token[seat], body, "unknown tile", 400, frag, &r);
            e2e_resp_free(&r);
            free(m);
        }
        char *m = json_dumps(mv, JSON_COMPACT);
        snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq, m);
        free(m);
        json_decref(lm);
        snprintf(who, sizeof who, "seat %d", seat);
        post_take(h, mpath, h->g.token[seat], body, who, 200, frag, &r);
        e2e_resp_free(&r);
        av = e2e_admin_view(h->c, h->d, h->g.id);
    }
    flush(h, "");
    json_t *v = e2e_get_ok(h->c, path, NULL, 200);
    ck_assert_int_eq(e2e_verify_ok(h->c, h->d, h->g.id), (int)e2e_jint(v, "seq"));
    json_decref(v);
}

START_TEST(no_hidden_information)
{
    hid h = {0};
    h.d = e2e_daemon_up(NULL);
    h.c = e2e_client_new(h.d);
    char *seeds[4];
    int nseeds = 0;
    const int counts[] = {2, 4};
    for (int i = 0; i < 2; i++) {
        play_checked(&h, counts[i], 0xabcdefu + (uint64_t)i);
        seeds[nseeds++] = strdup(h.seed);
        seeds[nseeds++] = strdup(h.seed_upper);
    }
    fprintf(stderr, "e2e hidden: %ld answers checked\n", h.checked);
    /* the log: no token (seat or admin) and no seed, ever */
    char *log = e2e_daemon_log(h.d);
    char outp[400];
    snprintf(outp, sizeof outp, "%s/carcd.out", h.d->dir);
    FILE *f = fopen(outp, "rb");
    char *out = NULL;
    size_t outlen = 0;
    if (f) {
        out = calloc(1, 1 << 24);
        outlen = fread(out, 1, (1 << 24) - 1, f);
        fclose(f);
    }
    ck_assert_msg(strlen(log) > 0 || outlen > 0, "carcd logged nothing at all");
    for (int i = 0; i < h.ntokens; i++) {
        ck_assert_msg(strstr(log, h.tokens_seen[i]) == NULL, "the log holds seat token %s", h.tokens_seen[i]);
        ck_assert_msg(!out || strstr(out, h.tokens_seen[i]) == NULL, "stdout holds seat token %s", h.tokens_seen[i]);
        free(h.tokens_seen[i]);
    }
    ck_assert_msg(strstr(log, h.d->admin) == NULL, "the log holds the admin token");
    ck_assert_msg(!out || strstr(out, h.d->admin) == NULL, "stdout holds the admin token");
    for (int i = 0; i < nseeds; i++) {
        ck_assert_msg(strstr(log, seeds[i]) == NULL, "the log holds a seed");
        ck_assert_msg(!out || strstr(out, seeds[i]) == NULL, "stdout holds a seed");
        free(seeds[i]);
    }
    free(out);
    free(log);
    free(h.pending);
    e2e_client_free(h.c);
    e2e_daemon_down(h.d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_hidden");
    TCase *tc = e2e_tcase("hidden", 180);
    tcase_add_test(tc, no_hidden_information);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
