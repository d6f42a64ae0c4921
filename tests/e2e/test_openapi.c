/*
 * test_openapi.c — every JSON answer validates against api-docs/openapi.json's schema for its route and
 * status. The harness checks every answer of every e2e test; this test makes sure the document exists, is
 * what /v1/openapi.json serves, and that each documented operation was answered (and checked) at least once
 * with success and with the errors it documents that a client can provoke, and that legal-moves answers
 * offered every move type of the base game (abbots included). The check is strict (openapi.c): an answer
 * with a property the document does not declare fails; validator_rejects_what_it_should shows that it does.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"
#include "openapi.h"

#define OPENAPI_MAIL_SECRET "a-test-secret-of-the-openapi-tests"
#define MAX_SEEN 512

typedef struct {
    char key[200];   /* "get /v1/games/{id} 200" */
} seen_t;

static seen_t seen[MAX_SEEN];
static int nseen;
static json_t *move_types;   /* the move types legal-moves answers offered, as a set (checked by the harness) */

static void observe(void *arg, const char *method, const char *path, double t0, double t1, const e2e_resp *r)
{
    (void)arg, (void)t0, (void)t1;
    if (r->status == 200 && strstr(path, "/legal-moves") && r->json) {
        size_t i;
        json_t *m;
        json_array_foreach(json_object_get(r->json, "moves"), i, m) {
            const char *t = json_string_value(json_object_get(m, "type"));
            if (t)
                json_object_set_new(move_types, t, json_true());
        }
    }
    const char *tmpl = NULL;
    e2e_openapi_operation(method, path, &tmpl);
    char key[200];
    snprintf(key, sizeof key, "%s %s %ld", method, tmpl ? tmpl : "(none)", r->status);
    for (int i = 0; i < nseen; i++)
        if (strcmp(seen[i].key, key) == 0)
            return;
    if (nseen < MAX_SEEN)
        snprintf(seen[nseen++].key, sizeof seen[0].key, "%s", key);
}

static bool was_seen(const char *method_upper, const char *tmpl, const char *status)
{
    char key[200];
    snprintf(key, sizeof key, "%s %s %s", method_upper, tmpl, status);
    for (int i = 0; i < nseen; i++)
        if (strcmp(seen[i].key, key) == 0)
            return true;
    return false;
}

static void req(e2e_client *c, const char *method, const char *path, const char *token, const char *body,
                const char *const *headers, long want)
{
    e2e_resp r;
    long st = e2e_req(c, method, path, token, body, headers, &r);
    ck_assert_msg(st == want, "%s %s: %ld, want %ld: %s %.300s", method, path, st, want, r.curl_error, r.body);
    e2e_resp_free(&r);
}

/* A link's secret in a path is logged as its pattern's name: carcd's log shows `shown` (within the flush delay)
 * and never `secret`. */
static void log_hides(const e2e_daemon *d, const char *secret, const char *shown)
{
    char *log = NULL;
    for (int i = 0; i < 100; i++) {
        free(log);
        log = e2e_daemon_log(d);
        if (strstr(log, shown))
            break;
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
    ck_assert_msg(strstr(log, shown) != NULL, "no %s in carcd's log", shown);
    ck_assert_msg(strstr(log, secret) == NULL, "carcd's log holds the link's secret %s", secret);
    free(log);
}

START_TEST(answers_match_the_document)
{
    ck_assert_msg(e2e_openapi_load(), "api-docs/openapi.json does not exist");
    const json_t *doc = e2e_openapi_doc();
    ck_assert_msg(strncmp(e2e_jstr(doc, "openapi"), "3.1", 3) == 0, "openapi: '%s', want 3.1.x",
                  e2e_jstr(doc, "openapi"));
    /* webhooks to 127.0.0.1:1 (refused); mail on (an invitation mailed), to a server that refuses the
     * connection: the outbox keeps it, nothing is sent */
    const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", "CARCD_SMTP_URL=smtp://127.0.0.1:1",
                         "CARCD_MAIL_FROM=carcd@example.org", "CARCD_PUBLIC_URL=http://carcd.example.org",
                         "CARCD_MAIL_SECRET=" OPENAPI_MAIL_SECRET, NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    move_types = json_object();
    e2e_client_observe(c, observe, NULL);

    /* the document served is the document in the tree */
    json_t *served = e2e_get_ok(c, "/v1/openapi.json", NULL, 200);
    ck_assert_msg(json_equal(served, (json_t *)doc), "GET /v1/openapi.json is not api-docs/openapi.json");
    json_decref(served);

    req(c, "GET", "/healthz", NULL, NULL, NULL, 200);
    req(c, "GET", "/readyz", NULL, NULL, NULL, 200);
    req(c, "GET", "/metrics", NULL, NULL, NULL, 200);
    req(c, "GET", "/v1/tiles", NULL, NULL, NULL, 200);
    req(c, "GET", "/problems/stale-seq", NULL, NULL, NULL, 200);
    req(c, "GET", "/problems/no-such-problem", NULL, NULL, NULL, 404);
    req(c, "GET", "/games/assets/main.js", NULL, NULL, NULL, 200);   /* the game page's files */
    req(c, "GET", "/games/assets/nothing.js", NULL, NULL, NULL, 404);
    req(c, "GET", "/lobby", NULL, NULL, NULL, 200);                  /* the lobby page */

    /* games, 2 to 6 players, and a scripted one */
    e2e_game g[5];
    for (int n = 2; n <= 6; n++)
        e2e_game_create(c, n, NULL, &g[n - 2]);
    e2e_game scripted;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, "[]",
                                         "{\"seed\":\"ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100\","
                                         "\"script\":{\"stack\":[\"D\",\"U\"]}}",
                                         true, &scripted),
                     201);
    req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"}]}", NULL, 400);
    req(c, "POST", "/v1/games", NULL, "{\"players\":", NULL, 400);
    req(c, "POST", "/v1/games", g[0].token[0],
        "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":"
        "\"0000000000000000000000000000000000000000000000000000000000000000\"}",
        NULL, 403);
    const char *text_ct[] = {"Content-Type: text/plain", NULL};
    req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", text_ct, 415);

    /* play a few moves in every game, reading everything on the way */
    e2e_rng rng = {77};
    char p[240];
    for (int k = 0; k < 5; k++) {
        e2e_game *x = &g[k];
        for (int m = 0; m < 6; m++) {
            e2e_play pl;
            ck_assert_int_eq(e2e_play_random(c, x, &rng, m == 0 ? "first" : NULL, &pl), 200);
            e2e_play_free(&pl);
        }
        snprintf(p, sizeof p, "/v1/games/%.36s", x->id);
        req(c, "GET", p, NULL, NULL, NULL, 200);
        req(c, "GET", p, x->token[0], NULL, NULL, 200);
        req(c, "GET", p, d->admin, NULL, NULL, 200);
        const char *inm[] = {"If-None-Match: \"6\"", NULL};
        req(c, "GET", p, NULL, NULL, inm, 304);
        req(c, "GET", p, "cs_nobody", NULL, NULL, 401);
        req(c, "GET", p, g[(k + 1) % 5].token[0], NULL, NULL, 403);
        snprintf(p, sizeof p, "/v1/games/%.36s/legal-moves", x->id);
        for (int s = 0; s < x->nplayers; s++)
            req(c, "GET", p, x->token[s], NULL, NULL, 200);
        req(c, "GET", p, NULL, NULL, NULL, 401);
        req(c, "GET", p, g[(k + 1) % 5].token[0], NULL, NULL, 403);
        req(c, "GET", p, d->admin, NULL, NULL, 400);
        snprintf(p, sizeof p, "/v1/games/%.36s/legal-moves?seat=1", x->id);
        req(c, "GET", p, d->admin, NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/events?after=0", x->id);
        req(c, "GET", p, NULL, NULL, NULL, 200);
        req(c, "GET", p, x->token[1], NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/events?after=3", x->id);
        req(c, "GET", p, d->admin, NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/events?after=6&wait=1", x->id);
        req(c, "GET", p, NULL, NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/events?after=x", x->id);
        req(c, "GET", p, NULL, NULL, NULL, 400);
        snprintf(p, sizeof p, "/v1/admin/games/%.36s", x->id);
        req(c, "GET", p, d->admin, NULL, NULL, 200);
        req(c, "GET", p, NULL, NULL, NULL, 401);
        req(c, "GET", p, x->token[0], NULL, NULL, 403);
        snprintf(p, sizeof p, "/v1/admin/games/%.36s/verify", x->id);
        req(c, "POST", p, d->admin, NULL, NULL, 200);
        req(c, "POST", p, NULL, NULL, NULL, 401);
        req(c, "POST", p, x->token[0], NULL, NULL, 403);
    }
    /* the errors of a move */
    e2e_game *x = &g[0];
    char mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%.36s/moves", x->id);
    json_t *v = e2e_get_ok(c, "/v1/games/", NULL, 404);   /* no route */
    json_decref(v);
    snprintf(p, sizeof p, "/v1/games/%.36s", x->id);
    v = e2e_get_ok(c, p, NULL, 200);
    int seat = (int)e2e_jint(v, "pending.seat"), seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    snprintf(p, sizeof p, "/v1/games/%.36s/legal-moves", x->id);
    json_t *lm = e2e_get_ok(c, p, x->token[seat], 200);
    char *mv = json_dumps(json_array_get(json_object_get(lm, "moves"), 0), JSON_COMPACT);
    json_decref(lm);
    char body[1000];
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq + 1, mv);
    req(c, "POST", mp, x->token[seat], body, NULL, 409);
    snprintf(body, sizeof body, "{\"move\":%s}", mv);
    req(c, "POST", mp, x->token[seat], body, NULL, 428);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s,\"x\":1}", seq, mv);
    req(c, "POST", mp, x->token[seat], body, NULL, 400);
    req(c, "POST", mp, x->token[seat], "{\"expected_seq\":", NULL, 400);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq, mv);
    req(c, "POST", mp, x->token[(seat + 1) % 2], body, NULL, 403);
    req(c, "POST", mp, NULL, body, NULL, 401);
    req(c, "POST", mp, x->token[seat], body, text_ct, 415);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":{\"type\":\"abbot_return\"}}", seq);
    req(c, "POST", mp, x->token[seat], body, NULL, 422);
    char *big = malloc(70000);
    memset(big, ' ', 69999);
    big[0] = '{';
    big[69998] = '}';
    big[69999] = 0;
    req(c, "POST", mp, x->token[seat], big, NULL, 413);
    free(big);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", seq, mv);
    req(c, "POST", mp, x->token[seat], body, NULL, 200);
    free(mv);
    /* the scripted game to its end, then a move after it */
    for (int m = 0; m < 20; m++) {
        e2e_play pl;
        long st = e2e_play_random(c, &scripted, &rng, NULL, &pl);
        e2e_play_free(&pl);
        if (st == E2E_FINISHED)
            break;
        ck_assert_int_eq(st, 200);
    }
    snprintf(p, sizeof p, "/v1/games/%s", scripted.id);
    v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":{\"type\":\"pass\"}}", (int)e2e_jint(v, "seq"));
    json_decref(v);
    snprintf(mp, sizeof mp, "/v1/games/%s/moves", scripted.id);
    req(c, "POST", mp, scripted.token[0], body, NULL, 409);
    /* unknown games */
    const char *nobody = "00000000-0000-4000-8000-000000000000";
    snprintf(p, sizeof p, "/v1/games/%s", nobody);
    req(c, "GET", p, NULL, NULL, NULL, 404);
    snprintf(p, sizeof p, "/v1/games/%s/legal-moves?seat=0", nobody);
    req(c, "GET", p, d->admin, NULL, NULL, 404);
    snprintf(p, sizeof p, "/v1/games/%s/events?after=0", nobody);
    req(c, "GET", p, NULL, NULL, NULL, 404);
    req(c, "POST", "/v1/games/nope/moves", x->token[0], "{}", NULL, 404);
    snprintf(p, sizeof p, "/v1/admin/games/%s", nobody);
    req(c, "GET", p, d->admin, NULL, NULL, 404);
    snprintf(p, sizeof p, "/v1/admin/games/%s/verify", nobody);
    req(c, "POST", p, d->admin, NULL, NULL, 404);
    /* webhooks: a game's endpoint and a seat's, their deliveries, a redelivery, and the errors */
    {
        e2e_game *w = &g[1];
        char wp[240], hook[100], did[32];
        snprintf(p, sizeof p, "/v1/games/%.36s/webhooks", w->id);
        e2e_resp r;
        ck_assert_int_eq(e2e_req(c, "POST", p, d->admin, "{\"url\":\"http://127.0.0.1:1/game\"}", NULL, &r), 201);
        snprintf(hook, sizeof hook, "%s", e2e_jstr(r.json, "id"));
        e2e_resp_free(&r);
        req(c, "POST", p, w->token[0], "{\"url\":\"http://127.0.0.1:1/seat\",\"format\":\"slack\"}", NULL, 201);
        req(c, "POST", p, w->token[0], "{\"url\":\"http://10.0.0.1/private\"}", NULL, 400);
        req(c, "POST", p, NULL, "{\"url\":\"http://127.0.0.1:1/x\"}", NULL, 401);
        req(c, "POST", p, g[0].token[0], "{\"url\":\"http://127.0.0.1:1/x\"}", NULL, 403);
        req(c, "POST", p, w->token[0], "{\"url\":", NULL, 400);
        req(c, "GET", p, d->admin, NULL, NULL, 200);
        req(c, "GET", p, w->token[1], NULL, NULL, 200);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks", scripted.id);
        req(c, "POST", wp, d->admin, "{\"url\":\"http://127.0.0.1:1/over\"}", NULL, 409);
        snprintf(wp, sizeof wp, "/v1/games/%s/webhooks", nobody);
        req(c, "POST", wp, d->admin, "{\"url\":\"http://127.0.0.1:1/x\"}", NULL, 404);
        e2e_play pl;
        ck_assert_int_eq(e2e_play_random(c, w, &rng, NULL, &pl), 200);
        e2e_play_free(&pl);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s", w->id, hook);
        req(c, "GET", wp, d->admin, NULL, NULL, 200);
        req(c, "GET", wp, w->token[0], NULL, NULL, 404);   /* the game's endpoint is not a seat's */
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s/deliveries", w->id, hook);
        json_t *dl = e2e_get_ok(c, wp, d->admin, 200);
        ck_assert_int_ge(json_array_size(json_object_get(dl, "deliveries")), 1);
        snprintf(did, sizeof did, "%lld", e2e_jint(dl, "deliveries.0.id"));
        json_decref(dl);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s/deliveries?limit=0", w->id, hook);
        req(c, "GET", wp, d->admin, NULL, NULL, 400);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s/deliveries/%s/redeliver", w->id, hook, did);
        req(c, "POST", wp, d->admin, NULL, NULL, 202);
        req(c, "POST", wp, w->token[0], NULL, NULL, 404);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s/deliveries/999999999/redeliver", w->id, hook);
        req(c, "POST", wp, d->admin, NULL, NULL, 404);
        snprintf(wp, sizeof wp, "/v1/games/%.36s/webhooks/%s", w->id, hook);
        req(c, "DELETE", wp, w->token[0], NULL, NULL, 404);
        req(c, "DELETE", wp, d->admin, NULL, NULL, 204);
        req(c, "GET", wp, d->admin, NULL, NULL, 404);
    }

    /* no route, wrong method */
    req(c, "GET", "/v1/nope", NULL, NULL, NULL, 404);
    req(c, "DELETE", "/v1/games", NULL, NULL, NULL, 405);

    /* the admin list, page by page: every game exactly once */
    req(c, "GET", "/v1/admin/games", NULL, NULL, NULL, 401);
    req(c, "GET", "/v1/admin/games", x->token[0], NULL, NULL, 403);
    req(c, "GET", "/v1/admin/games?limit=0", d->admin, NULL, NULL, 400);
    req(c, "GET", "/v1/admin/games?status=sleeping", d->admin, NULL, NULL, 400);
    req(c, "GET", "/v1/admin/games?cursor=zzz", d->admin, NULL, NULL, 400);
    json_t *all = json_array();
    char cursor[80] = "";
    for (int page = 0; page < 10; page++) {
        snprintf(p, sizeof p, "/v1/admin/games?limit=2%s%s", cursor[0] ? "&cursor=" : "", cursor);
        json_t *pg = e2e_get_ok(c, p, d->admin, 200);
        json_t *games = json_object_get(pg, "games");
        ck_assert_int_le(json_array_size(games), 2);
        json_array_extend(all, games);
        json_t *next = json_object_get(pg, "next_cursor");
        if (json_is_string(next))
            snprintf(cursor, sizeof cursor, "%s", json_string_value(next));
        else
            cursor[0] = 0;
        json_decref(pg);
        if (!cursor[0])
            break;
    }
    ck_assert_msg(cursor[0] == 0, "the admin list did not end");
    ck_assert_int_eq(json_array_size(all), 6);
    for (size_t i = 0; i < 6; i++)
        for (size_t k = 0; k < i; k++)
            ck_assert_str_ne(e2e_jstr(json_array_get(all, i), "id"), e2e_jstr(json_array_get(all, k), "id"));
    json_decref(all);
    json_t *fin = e2e_get_ok(c, "/v1/admin/games?status=finished", d->admin, 200);
    ck_assert_int_eq(json_array_size(json_object_get(fin, "games")), 1);
    ck_assert_str_eq(e2e_jstr(fin, "games.0.id"), scripted.id);
    json_decref(fin);

    /* admin inspection: pictures, the page, export, the audit log (tests/e2e/test_board.c and others go deeper) */
    snprintf(p, sizeof p, "/v1/games/%.36s/board.svg", x->id);
    req(c, "GET", p, NULL, NULL, NULL, 200);
    snprintf(p, sizeof p, "/v1/games/%.36s/board.svg?seq=0", x->id);
    req(c, "GET", p, x->token[0], NULL, NULL, 200);
    snprintf(p, sizeof p, "/v1/games/%.36s/board.svg?seq=-1", x->id);
    req(c, "GET", p, NULL, NULL, NULL, 400);
    snprintf(p, sizeof p, "/v1/games/%.36s/board.png?seq=1", x->id);
    req(c, "GET", p, d->admin, NULL, NULL, 200);
    snprintf(p, sizeof p, "/v1/games/%.36s/board.png", nobody);
    req(c, "GET", p, NULL, NULL, NULL, 404);
    snprintf(p, sizeof p, "/games/%.36s", x->id);
    req(c, "GET", p, NULL, NULL, NULL, 200);
    snprintf(p, sizeof p, "/v1/admin/games/%.36s/export", x->id);
    req(c, "GET", p, d->admin, NULL, NULL, 200);
    req(c, "GET", p, x->token[0], NULL, NULL, 403);
    req(c, "GET", "/v1/admin/audit?limit=3", d->admin, NULL, NULL, 200);
    req(c, "GET", "/v1/admin/audit?cursor=x", d->admin, NULL, NULL, 400);
    req(c, "GET", "/v1/admin/audit", NULL, NULL, NULL, 401);

    /* turn clocks (issue 9): a clocked game's pause, resume, vacation, a resignation, player keys, links and
     * my games (tests/e2e/test_clock.c goes deeper) */
    {
        e2e_game k;
        ck_assert_int_eq(e2e_game_create_raw(c, d, 3, NULL,
                                             "{\"clock\":{\"per_move_s\":86400,\"reserve_s\":3600,\"timeout\":\"skip\"}}",
                                             false, &k),
                         201);
        req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"clock\":{\"per_move_s\":0}}",
            NULL, 400);
        snprintf(p, sizeof p, "/v1/games/%.36s", k.id);
        req(c, "GET", p, k.token[1], NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/pause", k.id);
        req(c, "POST", p, k.token[0], NULL, NULL, 200);
        req(c, "POST", p, NULL, NULL, NULL, 401);
        req(c, "POST", p, d->admin, NULL, NULL, 403);
        snprintf(p, sizeof p, "/v1/games/%.36s/pause", g[2].id);
        req(c, "POST", p, g[2].token[0], NULL, NULL, 409);   /* no clock */
        req(c, "POST", "/v1/games/nope/pause", k.token[0], NULL, NULL, 404);
        snprintf(p, sizeof p, "/v1/games/%.36s/resume", k.id);
        req(c, "POST", p, k.token[1], NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/vacation", k.id);
        req(c, "POST", p, k.token[1], "{\"days\":2}", NULL, 200);
        req(c, "POST", p, k.token[1], "{\"days\":0}", NULL, 400);
        req(c, "POST", p, k.token[1], "{\"days\":365}", NULL, 422);
        req(c, "POST", p, k.token[1], "{\"days\":1}", text_ct, 415);
        snprintf(p, sizeof p, "/v1/games/%.36s/resign", k.id);
        req(c, "POST", p, k.token[2], "{}", NULL, 200);
        req(c, "POST", p, k.token[2], NULL, NULL, 409);      /* seat-left */
        req(c, "POST", p, k.token[1], "{\"x\":1}", NULL, 400);
        e2e_resp r;
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"Ann\"}", NULL, &r), 201);
        char key[120], auth[160];
        snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
        e2e_resp_free(&r);
        req(c, "POST", "/v1/players", NULL, "{\"name\":\"\"}", NULL, 400);
        snprintf(p, sizeof p, "/v1/games/%.36s/link", k.id);
        snprintf(auth, sizeof auth, "{\"player_key\":\"%s\"}", key);
        req(c, "POST", p, k.token[0], auth, NULL, 200);
        req(c, "POST", p, k.token[1], "{\"player_key\":\"pk_nobody\"}", NULL, 400);
        req(c, "GET", "/v1/me/games", key, NULL, NULL, 200);
        req(c, "GET", "/v1/me/games?my_turn=true&status=active", key, NULL, NULL, 200);
        req(c, "GET", "/v1/me/games?status=sleeping", key, NULL, NULL, 400);
        req(c, "GET", "/v1/me/games", NULL, NULL, NULL, 401);
        req(c, "GET", "/v1/me/games", k.token[0], NULL, NULL, 401);
        /* the player's one stream (test_me_events.c goes deeper) */
        req(c, "GET", "/v1/me/events", key, NULL, NULL, 200);
        req(c, "GET", "/v1/me/events?after=0&wait=0", key, NULL, NULL, 200);
        req(c, "GET", "/v1/me/events?after=x", key, NULL, NULL, 400);
        req(c, "GET", "/v1/me/events", NULL, NULL, NULL, 401);
        req(c, "GET", "/v1/me/events", d->admin, NULL, NULL, 403);
        /* the key acts for its seat, and gets it a new token (issue 20; test_lobby.c goes deeper) */
        snprintf(p, sizeof p, "/v1/games/%.36s/seats/0/token", k.id);
        req(c, "POST", p, key, NULL, NULL, 200);
        req(c, "POST", p, k.token[1], NULL, NULL, 403);
        snprintf(p, sizeof p, "/v1/games/%.36s", k.id);
        req(c, "GET", p, key, NULL, NULL, 200);
        /* invitations, the lobby, keep-open, start and cancel */
        char lobby_body[200];
        snprintf(lobby_body, sizeof lobby_body, "{\"public\":true,\"players\":[{\"name\":\"Host\"},"
                 "{\"invite\":true},{\"invite\":true}]}");
        for (int round = 0; round < 2; round++) {
            ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, lobby_body, NULL, &r), 201);
            char wid[40], creator[80], code[80], code1[80];
            snprintf(wid, sizeof wid, "%s", e2e_jstr(r.json, "id"));
            snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
            snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
            snprintf(code1, sizeof code1, "%s", e2e_jstr(r.json, "invites.1.invite"));
            e2e_resp_free(&r);
            snprintf(p, sizeof p, "/v1/games/%.36s/invites/mail", wid);   /* test_mail.c goes deeper */
            char mail_body[200];
            snprintf(mail_body, sizeof mail_body, "{\"invite\":\"%s\",\"email\":\"bob%d@example.org\"}", code1,
                     round);   /* round 0's address stops its invitations below */
            req(c, "POST", p, NULL, mail_body, NULL, 401);
            req(c, "POST", p, creator, "{\"invite\":\"iv_x\",\"email\":\"bob\"}", NULL, 400);
            req(c, "POST", p, creator, mail_body, NULL, 202);
            snprintf(p, sizeof p, "/v1/games/%.36s/invites", wid);   /* the creator's view of them */
            req(c, "GET", p, creator, NULL, NULL, 200);
            req(c, "GET", p, NULL, NULL, NULL, 401);
            req(c, "GET", p, "ct_not-the-creator", NULL, NULL, 403);
            snprintf(p, sizeof p, "/v1/games/%.36s/invites", k.id);   /* every seat named: no invitations */
            req(c, "GET", p, d->admin, NULL, NULL, 404);
            snprintf(p, sizeof p, "/v1/games/%.36s/invites/lookup", wid);   /* what became of one, by its code */
            char look_body[120];
            snprintf(look_body, sizeof look_body, "{\"invite\":\"%s\"}", code);
            req(c, "POST", p, NULL, look_body, NULL, 200);
            req(c, "POST", p, NULL, "{\"invite\":\"iv_x\"}", NULL, 403);
            req(c, "POST", p, NULL, "{}", NULL, 400);
            snprintf(p, sizeof p, "/v1/games/%.36s/invites/mail", wid);
            if (round == 0) {   /* the mail's stop link: its token from the outbox, as the mail carries it */
                char token[64], stop[200];
                e2e_db_text(d, "SELECT substring(body from 'invitations/stop/(st_[A-Za-z0-9_-]{43})') FROM mail_outbox "
                               "WHERE kind = 'open-seat' LIMIT 1", token, sizeof token);
                ck_assert_msg(strncmp(token, "st_", 3) == 0, "a stop link in the outbox: '%s'", token);
                snprintf(stop, sizeof stop, "/v1/mail/invitations/stop/%s", token);
                req(c, "GET", stop, NULL, NULL, NULL, 200);
                req(c, "POST", stop, NULL, NULL, NULL, 200);
                req(c, "POST", "/v1/mail/invitations/stop/st_x", NULL, NULL, NULL, 404);
                log_hides(d, token, "/v1/mail/invitations/stop/{token}");
            }
            req(c, "GET", "/v1/lobby?seats=3&expansions=none", NULL, NULL, NULL, 200);
            req(c, "GET", "/v1/lobby?seats=one", NULL, NULL, NULL, 400);
            snprintf(p, sizeof p, "/v1/games/%.36s", wid);
            req(c, "GET", p, NULL, NULL, NULL, 200);
            snprintf(p, sizeof p, "/v1/games/%.36s/join", wid);
            char join[200];
            snprintf(join, sizeof join, "{\"name\":\"Guest\",\"invite\":\"%s\"}", code);
            ck_assert_int_eq(e2e_req(c, "POST", p, NULL, join, NULL, &r), 201);
            char guest[80];
            snprintf(guest, sizeof guest, "%s", e2e_jstr(r.json, "token"));
            e2e_resp_free(&r);
            req(c, "POST", p, NULL, join, NULL, 409);
            req(c, "POST", p, NULL, "{\"name\":\"Guest\",\"invite\":\"iv_x\"}", NULL, 403);
            req(c, "POST", p, NULL, "{\"name\":\"\"}", NULL, 400);
            snprintf(p, sizeof p, "/v1/games/%.36s/legal-moves", wid);
            req(c, "GET", p, d->admin, NULL, NULL, 409);
            snprintf(p, sizeof p, "/v1/games/%.36s/keep-open", wid);   /* test_mail.c goes deeper */
            req(c, "POST", p, creator, NULL, NULL, 200);
            req(c, "POST", p, k.token[1], NULL, NULL, 403);
            req(c, "POST", p, creator, "{\"days\":3}", NULL, 400);
            if (round == 1) {   /* the guest leaves before the cancel (test_lobby.c goes deeper) */
                snprintf(p, sizeof p, "/v1/games/%.36s/leave", wid);
                req(c, "POST", p, guest, "{\"seat\":1}", NULL, 400);
                req(c, "POST", p, guest, NULL, NULL, 200);
                req(c, "POST", p, guest, NULL, NULL, 403);   /* seat-given-up */
                req(c, "POST", p, d->admin, NULL, NULL, 403);
            }
            if (round == 0) {   /* the creator removes the guest, who comes back with the new code (test_lobby.c) */
                snprintf(p, sizeof p, "/v1/games/%.36s/seats/1/remove", wid);
                req(c, "POST", p, guest, NULL, NULL, 403);
                req(c, "POST", p, creator, "{\"seat\":1}", NULL, 400);
                ck_assert_int_eq(e2e_req(c, "POST", p, creator, NULL, NULL, &r), 200);
                snprintf(join, sizeof join, "{\"name\":\"Guest\",\"invite\":\"%s\"}",
                         e2e_jstr(r.json, "invite.invite"));
                e2e_resp_free(&r);
                req(c, "POST", p, creator, NULL, NULL, 404);
                snprintf(p, sizeof p, "/v1/games/%.36s/seats/0/remove", wid);
                req(c, "POST", p, creator, NULL, NULL, 409);
                snprintf(p, sizeof p, "/v1/games/%.36s/join", wid);
                req(c, "POST", p, NULL, join, NULL, 201);
            }
            snprintf(p, sizeof p, "/v1/games/%.36s/%s", wid, round == 0 ? "start" : "cancel");
            req(c, "POST", p, NULL, NULL, NULL, 401);
            req(c, "POST", p, creator, NULL, NULL, 200);
            req(c, "POST", p, creator, NULL, NULL, 409);
        }
    }

    /* the admin's cancel (test_cancel.c goes deeper) */
    {
        e2e_game cx;
        e2e_game_create(c, 2, NULL, &cx);
        snprintf(p, sizeof p, "/v1/admin/games/%.36s/cancel", cx.id);
        req(c, "POST", p, NULL, NULL, NULL, 401);
        req(c, "POST", p, cx.token[0], NULL, NULL, 403);
        req(c, "POST", p, d->admin, "{\"why\":1}", NULL, 400);
        req(c, "POST", p, d->admin, "{\"reason\":\"a test\"}", NULL, 200);
        req(c, "POST", p, d->admin, NULL, NULL, 409);
        req(c, "POST", "/v1/admin/games/00000000-0000-4000-8000-000000000000/cancel", d->admin, NULL, NULL, 404);
        snprintf(p, sizeof p, "/v1/games/%.36s", cx.id);
        req(c, "GET", p, NULL, NULL, NULL, 200);
        snprintf(p, sizeof p, "/v1/games/%.36s/events", cx.id);
        req(c, "GET", p, NULL, NULL, NULL, 200);
    }

    /* play by e-mail (issue 18; tests/e2e/test_mail.c goes deeper, with mail servers): this carcd's SMTP
     * server refuses every connection, so addresses are stored and nothing is sent */
    {
        snprintf(p, sizeof p, "/v1/games/%.36s/email", g[0].id);
        req(c, "PUT", p, g[0].token[1], "{\"email\":\"bob@example.org\"}", NULL, 200);
        req(c, "PUT", p, g[0].token[1], "{\"email\":\"bob\"}", NULL, 400);
        req(c, "PUT", p, NULL, "{\"email\":null}", NULL, 401);
        req(c, "GET", p, g[0].token[1], NULL, NULL, 200);
        req(c, "GET", p, d->admin, NULL, NULL, 403);
        /* the seat's reply tag, as carcd makes it (mail/tag.h) with this carcd's CARCD_MAIL_SECRET */
        char msg[64], tag[25];
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned int mdlen = 0;
        snprintf(msg, sizeof msg, "%.36s:1", g[0].id);
        HMAC(EVP_sha256(), OPENAPI_MAIL_SECRET, (int)strlen(OPENAPI_MAIL_SECRET), (const unsigned char *)msg,
             strlen(msg), md, &mdlen);
        for (int i = 0; i < 12; i++)
            snprintf(tag + 2 * i, 3, "%02x", md[i]);
        const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
        snprintf(p, sizeof p, "/v1/mail/unsubscribe/%s", tag);
        req(c, "GET", p, NULL, NULL, NULL, 200);
        req(c, "GET", "/v1/mail/unsubscribe/00", NULL, NULL, NULL, 404);
        req(c, "POST", p, NULL, "List-Unsubscribe=One-Click", form, 200);
        req(c, "POST", "/v1/mail/unsubscribe/000000000000000000000000", NULL, "List-Unsubscribe=One-Click", form, 404);
        log_hides(d, tag, "/v1/mail/unsubscribe/{tag}");
    }

    /* a base game with abbots, to its end: every move type of the base game was offered and so checked
     * against its schema of the document (the expansions' types: test_hills, test_crop, test_fruit,
     * test_halflings) */
    {
        e2e_game ab;
        e2e_rng arng = {2026};   /* with the chosen seed: the same game every run */
        ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL,
                                             "{\"options\":{\"abbot\":true},\"seed\":"
                                             "\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}",
                                             true, &ab),
                         201);
        long st = 0;
        for (int m = 0; m < 400 && st != E2E_FINISHED; m++) {
            e2e_play pl;
            st = e2e_play_random(c, &ab, &arng, NULL, &pl);
            e2e_play_free(&pl);
            ck_assert_msg(st == 200 || st == E2E_FINISHED, "the abbot game's move %d: %ld", m, st);
        }
        ck_assert_int_eq(st, E2E_FINISHED);
        /* its rematch, offered and accepted */
        snprintf(p, sizeof p, "/v1/games/%.36s/rematch", ab.id);
        req(c, "POST", p, ab.token[0], NULL, NULL, 201);
        req(c, "POST", p, ab.token[1], NULL, NULL, 409);
        snprintf(p, sizeof p, "/v1/games/%.36s/rematch/accept", ab.id);
        req(c, "POST", p, ab.token[1], NULL, NULL, 201);
        req(c, "POST", p, ab.token[1], NULL, NULL, 409);
        const char *base_types[] = {"place", "figure", "pass", "abbot_return", NULL};
        for (int i = 0; base_types[i]; i++)
            ck_assert_msg(json_object_get(move_types, base_types[i]), "no legal-moves answer offered a %s move",
                          base_types[i]);
    }

    /* table talk: a message, the reads, a mute and the admin's hide (test_messages.c holds what they do) */
    {
        e2e_game *t = &g[0];
        char tp[200], up[200], hp[240];
        snprintf(tp, sizeof tp, "/v1/games/%.36s/messages", t->id);
        req(c, "POST", tp, t->token[0], "{\"text\":\"nice city!\"}", NULL, 201);
        req(c, "POST", tp, t->token[0], "{\"text\":\"\\u0007\"}", NULL, 400);
        req(c, "GET", tp, t->token[1], NULL, NULL, 200);
        req(c, "GET", tp, d->admin, NULL, NULL, 200);
        req(c, "GET", tp, NULL, NULL, NULL, 403);
        snprintf(up, sizeof up, "/v1/games/%.36s/mutes/0", t->id);
        req(c, "PUT", up, t->token[1], NULL, NULL, 204);
        req(c, "DELETE", up, t->token[1], NULL, NULL, 204);
        snprintf(hp, sizeof hp, "/v1/admin/games/%.36s/messages/1/hide", t->id);
        req(c, "POST", hp, d->admin, "{\"reason\":\"test\"}", NULL, 200);
        snprintf(hp, sizeof hp, "/v1/games/%.36s/events?after=-1&messages_after=0", t->id);
        req(c, "GET", hp, d->admin, NULL, NULL, 200);
    }

    /* coverage: every documented operation answered with success at least once */
    const json_t *paths = json_object_get(doc, "paths");
    const char *tmpl;
    json_t *item;
    int missing = 0;
    char report[2000] = "";
    json_object_foreach((json_t *)paths, tmpl, item) {
        const char *method;
        json_t *op;
        json_object_foreach(item, method, op) {
            char upper[16];
            size_t i;
            for (i = 0; method[i] && i + 1 < sizeof upper; i++)
                upper[i] = (char)(method[i] >= 'a' && method[i] <= 'z' ? method[i] - 32 : method[i]);
            upper[i] = 0;
            if (strcmp(upper, "GET") && strcmp(upper, "POST") && strcmp(upper, "PUT") && strcmp(upper, "DELETE") &&
                strcmp(upper, "PATCH"))
                continue;   /* "parameters", "summary", ... */
            bool ok = false;
            const char *code;
            json_t *resp;
            json_object_foreach(json_object_get(op, "responses"), code, resp) {
                if (code[0] == '2' && was_seen(upper, tmpl, code))
                    ok = true;
            }
            if (!ok) {
                missing++;
                size_t n = strlen(report);
                snprintf(report + n, sizeof report - n, " %s %s;", upper, tmpl);
            }
        }
    }
    ck_assert_msg(missing == 0, "documented operations never answered with success here:%s", report);
    fprintf(stderr, "e2e openapi: %d distinct (method, route, status) answers checked against the document\n",
            nseen);
    json_decref(move_types);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(validator_rejects_what_it_should)
{
    /* the validator itself, on a hand-written schema: so a passing suite means something */
    json_t *s = json_loads("{\"type\":\"object\",\"required\":[\"a\"],\"additionalProperties\":false,"
                           "\"properties\":{\"a\":{\"type\":\"integer\",\"minimum\":0},"
                           "\"b\":{\"type\":\"array\",\"items\":{\"enum\":[\"x\",\"y\"]}},"
                           "\"c\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},"
                           "\"d\":{\"type\":[\"string\",\"null\"],\"pattern\":\"^[0-9a-f]{4}$\"}}}",
                           0, NULL);
    ck_assert_ptr_nonnull(s);
    const char *good[] = {"{\"a\":0}", "{\"a\":5,\"b\":[\"x\",\"y\"],\"c\":null,\"d\":\"00ff\"}", "{\"a\":1,\"d\":null}",
                          NULL};
    const char *bad[] = {"{}", "{\"a\":-1}", "{\"a\":1.5}", "{\"a\":1,\"z\":1}", "{\"a\":1,\"b\":[\"q\"]}",
                         "{\"a\":1,\"c\":3}", "{\"a\":1,\"d\":\"00FG\"}", "[]", "{\"a\":\"1\"}", NULL};
    char why[400];
    for (int i = 0; good[i]; i++) {
        json_t *v = json_loads(good[i], 0, NULL);
        ck_assert_msg(e2e_schema_validate(s, v, "$", why, sizeof why), "%s rejected: %s", good[i], why);
        json_decref(v);
    }
    for (int i = 0; bad[i]; i++) {
        json_t *v = json_loads(bad[i], 0, NULL);
        ck_assert_msg(!e2e_schema_validate(s, v, "$", why, sizeof why), "%s accepted", bad[i]);
        json_decref(v);
    }
    /* strict: a property no schema declares fails, also where the schema says nothing about additionalProperties;
     * allOf branches declare for each other, a oneOf only through the branch that matches (or that the
     * discriminator picks), a map (additionalProperties: a schema) declares every name */
    json_t *strict = json_loads(
        "{\"type\":\"object\",\"properties\":{"
        "\"plain\":{\"type\":\"object\",\"properties\":{\"a\":{}}},"
        "\"both\":{\"allOf\":[{\"properties\":{\"a\":{}}},{\"properties\":{\"b\":{}}}]},"
        "\"map\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}},"
        "\"list\":{\"type\":\"array\",\"items\":{\"properties\":{\"a\":{}}}},"
        "\"any\":{\"oneOf\":[{\"required\":[\"a\"],\"properties\":{\"a\":{}}},"
        "{\"required\":[\"b\"],\"properties\":{\"b\":{}}}]}}}",
        0, NULL);
    ck_assert_ptr_nonnull(strict);
    const char *strict_good[] = {"{\"plain\":{\"a\":1}}", "{\"both\":{\"a\":1,\"b\":2}}",
                                 "{\"map\":{\"x\":1,\"y\":2}}", "{\"list\":[{\"a\":1},{}]}",
                                 "{\"any\":{\"a\":1}}", "{\"any\":{\"b\":1}}", NULL};
    const char *strict_bad[] = {"{\"z\":1}", "{\"plain\":{\"a\":1,\"z\":1}}", "{\"both\":{\"a\":1,\"z\":1}}",
                                "{\"map\":{\"x\":\"1\"}}", "{\"list\":[{\"a\":1},{\"z\":1}]}",
                                "{\"any\":{\"a\":1,\"z\":1}}", "{\"any\":{\"a\":1,\"b\":1}}", NULL};
    for (int i = 0; strict_good[i]; i++) {
        json_t *v = json_loads(strict_good[i], 0, NULL);
        ck_assert_msg(e2e_schema_validate(strict, v, "$", why, sizeof why), "%s rejected: %s", strict_good[i], why);
        json_decref(v);
    }
    for (int i = 0; strict_bad[i]; i++) {
        json_t *v = json_loads(strict_bad[i], 0, NULL);
        ck_assert_msg(!e2e_schema_validate(strict, v, "$", why, sizeof why), "%s accepted", strict_bad[i]);
        json_decref(v);
    }
    json_decref(strict);
    /* the discriminator, on the document's Move: the branch named by "type" alone, its members only */
    if (e2e_openapi_load()) {
        const json_t *move = json_object_get(json_object_get(json_object_get(e2e_openapi_doc(), "components"),
                                                             "schemas"), "Move");
        const char *moves_good[] = {"{\"type\":\"pass\"}", "{\"type\":\"place\",\"tile\":\"D\",\"x\":0,\"y\":1,\"rot\":2}",
                                    "{\"type\":\"sell\",\"fruits\":[\"apple\"]}", NULL};
        const char *moves_bad[] = {"{\"type\":\"pass\",\"tile\":\"D\"}", "{\"type\":\"fly\"}", "{\"tile\":\"D\"}",
                                   "{\"type\":\"place\",\"tile\":\"D\",\"x\":0,\"y\":1}",
                                   "{\"type\":\"harvest\",\"fruits\":[\"apple\"]}", NULL};
        ck_assert_ptr_nonnull(move);
        for (int i = 0; moves_good[i]; i++) {
            json_t *v = json_loads(moves_good[i], 0, NULL);
            ck_assert_msg(e2e_schema_validate(move, v, "$", why, sizeof why), "%s rejected: %s", moves_good[i], why);
            json_decref(v);
        }
        for (int i = 0; moves_bad[i]; i++) {
            json_t *v = json_loads(moves_bad[i], 0, NULL);
            ck_assert_msg(!e2e_schema_validate(move, v, "$", why, sizeof why), "%s accepted", moves_bad[i]);
            json_decref(v);
        }
    }
    json_t *unknown = json_loads("{\"type\":\"object\",\"dependentRequired\":{}}", 0, NULL);
    json_t *v = json_loads("{}", 0, NULL);
    ck_assert_msg(!e2e_schema_validate(unknown, v, "$", why, sizeof why), "an unknown keyword was ignored");
    json_decref(v);
    json_decref(unknown);
    json_decref(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_openapi");
    TCase *tc = e2e_tcase("openapi", 120);
    tcase_add_test(tc, validator_rejects_what_it_should);
    tcase_add_test(tc, answers_match_the_document);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
