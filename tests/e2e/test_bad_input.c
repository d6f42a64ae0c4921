/*
 * test_bad_input.c — bad requests, each answered with an RFC 9457 problem of the right status (naming the
 * field to blame where there is one) and each leaving the game exactly as it was (the admin view before and
 * after are equal).
 *
 * One daemon serves every test of the case (an unchecked fixture, started in the runner process); each test
 * runs in its own fork with its own games.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "openapi.h"

static e2e_daemon *D;

static void daemon_setup(void)
{
    D = e2e_daemon_up(NULL);
}

static void daemon_teardown(void)
{
    e2e_daemon_down(D);
    D = NULL;
}

typedef struct {
    e2e_client *c;
    e2e_game g, other;
    char path[160], lpath[160], mpath[160];
    int seat, seq;          /* the pending seat and seq */
    json_t *legal;          /* its legal moves (owned) */
    json_t *before;         /* admin view of g (owned) */
    json_t *before_other;   /* admin view of other (owned) */
} fx;

static void fx_up(fx *f)
{
    memset(f, 0, sizeof *f);
    f->c = e2e_client_new(D);
    e2e_game_create(f->c, 3, NULL, &f->g);
    e2e_game_create(f->c, 2, NULL, &f->other);
    snprintf(f->path, sizeof f->path, "/v1/games/%s", f->g.id);
    snprintf(f->lpath, sizeof f->lpath, "/v1/games/%s/legal-moves", f->g.id);
    snprintf(f->mpath, sizeof f->mpath, "/v1/games/%s/moves", f->g.id);
    /* one move first, so the game is not at its very start */
    e2e_rng rng = {5};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(f->c, &f->g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    json_t *v = e2e_get_ok(f->c, f->path, NULL, 200);
    f->seat = (int)e2e_jint(v, "pending.seat");
    f->seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    json_t *lm = e2e_get_ok(f->c, f->lpath, f->g.token[f->seat], 200);
    f->legal = json_incref(json_object_get(lm, "moves"));
    json_decref(lm);
    ck_assert(json_array_size(f->legal) > 0);
    f->before = e2e_admin_view(f->c, D, f->g.id);
    f->before_other = e2e_admin_view(f->c, D, f->other.id);
}

/* Both games exactly as they were. */
static void fx_unchanged(fx *f, const char *what)
{
    json_t *now = e2e_admin_view(f->c, D, f->g.id);
    ck_assert_msg(json_equal(now, f->before), "%s changed the game", what);
    json_decref(now);
    now = e2e_admin_view(f->c, D, f->other.id);
    ck_assert_msg(json_equal(now, f->before_other), "%s changed the other game", what);
    json_decref(now);
}

static void fx_down(fx *f)
{
    fx_unchanged(f, "the test");
    /* and the game still takes a good move */
    json_t *b = json_pack("{s:i, s:O}", "expected_seq", f->seq, "move", json_array_get(f->legal, 0));
    char *text = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    e2e_resp r;
    ck_assert_msg(e2e_req(f->c, "POST", f->mpath, f->g.token[f->seat], text, NULL, &r) == 200,
                  "a good move after the bad ones: %ld %.300s", r.status, r.body);
    e2e_resp_free(&r);
    free(text);
    json_decref(f->legal);
    json_decref(f->before);
    json_decref(f->before_other);
    e2e_client_free(f->c);
    e2e_check_answers();
}

/* A move body: {"expected_seq": seq, "move": the first legal move} with `edit` (JSON object text, may be NULL)
 * merged into the body and `move_edit` into the move. */
static char *body_with(fx *f, const char *edit, const char *move_edit)
{
    json_t *mv = json_deep_copy(json_array_get(f->legal, 0));
    if (move_edit) {
        json_t *e = json_loads(move_edit, 0, NULL);
        ck_assert_ptr_nonnull(e);
        json_object_update(mv, e);
        json_decref(e);
    }
    json_t *b = json_pack("{s:i, s:o}", "expected_seq", f->seq, "move", mv);
    if (edit) {
        json_t *e = json_loads(edit, 0, NULL);
        ck_assert_ptr_nonnull(e);
        json_object_update(b, e);
        json_decref(e);
    }
    char *text = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    return text;
}

/* POSTs `body` to the game's moves as `token`; asserts the problem and that nothing changed. */
static void expect_post(fx *f, const char *token, const char *body, const char *const *headers, long status,
                        const char *field, const char *slug, const char *what)
{
    e2e_resp r;
    e2e_req(f->c, "POST", f->mpath, token, body, headers, &r);
    e2e_assert_problem(&r, status, field, what);
    if (slug)
        ck_assert_msg(e2e_problem_is(&r, slug), "%s: type %s, want /problems/%s", what, e2e_jstr(r.json, "type"),
                      slug);
    e2e_resp_free(&r);
    fx_unchanged(f, what);
}

START_TEST(malformed_json)
{
    fx f;
    fx_up(&f);
    const char *tok = f.g.token[f.seat];
    const char *bodies[] = {"{", "{\"expected_seq\": 1,", "not json", "{\"expected_seq\": 1}}", "[1, 2",
                            "{\"expected_seq\": 01}", "{'expected_seq': 1}", NULL};
    for (int i = 0; bodies[i]; i++)
        expect_post(&f, tok, bodies[i], NULL, 400, NULL, "bad-json", bodies[i]);
    /* invalid UTF-8 and an empty body */
    expect_post(&f, tok, "{\"expected_seq\": 1, \"move\": {\"type\": \"\xff\xfe\"}}", NULL, 400, NULL, NULL,
                "invalid UTF-8");
    e2e_resp r;
    e2e_reqn(f.c, "POST", f.mpath, tok, "", 0, NULL, &r);
    e2e_assert_problem(&r, 400, NULL, "an empty body");
    e2e_resp_free(&r);
    /* JSON, but not an object */
    expect_post(&f, tok, "[1, 2]", NULL, 400, NULL, NULL, "an array body");
    expect_post(&f, tok, "17", NULL, 400, NULL, NULL, "a number body");
    fx_down(&f);
}
END_TEST

START_TEST(wrong_types)
{
    fx f;
    fx_up(&f);
    const char *tok = f.g.token[f.seat];
    char *b;
    b = body_with(&f, "{\"expected_seq\": \"1\"}", NULL);
    expect_post(&f, tok, b, NULL, 400, "expected_seq", "invalid", "expected_seq as a string");
    free(b);
    b = body_with(&f, "{\"expected_seq\": 1.5}", NULL);
    expect_post(&f, tok, b, NULL, 400, "expected_seq", "invalid", "expected_seq as a fraction");
    free(b);
    b = body_with(&f, "{\"expected_seq\": -1}", NULL);
    expect_post(&f, tok, b, NULL, 400, "expected_seq", "invalid", "a negative expected_seq");
    free(b);
    b = body_with(&f, "{\"expected_seq\": null}", NULL);
    expect_post(&f, tok, b, NULL, 400, "expected_seq", "invalid", "a null expected_seq");
    free(b);
    b = body_with(&f, "{\"move\": \"place\"}", NULL);
    expect_post(&f, tok, b, NULL, 400, "move", "invalid", "move as a string");
    free(b);
    b = body_with(&f, "{\"move\": [1]}", NULL);
    expect_post(&f, tok, b, NULL, 400, "move", "invalid", "move as an array");
    free(b);
    b = body_with(&f, "{\"move\": null}", NULL);
    expect_post(&f, tok, b, NULL, 400, "move", "invalid", "move as null");
    free(b);
    /* inside the move */
    b = body_with(&f, NULL, "{\"type\": 7}");
    expect_post(&f, tok, b, NULL, 400, "move.type", "invalid", "move.type as a number");
    free(b);
    b = body_with(&f, NULL, "{\"type\": \"teleport\"}");
    expect_post(&f, tok, b, NULL, 400, "move.type", "invalid", "an unknown move type");
    free(b);
    const char *kind = e2e_jstr(json_array_get(f.legal, 0), "type");
    if (strcmp(kind, "place") == 0) {
        b = body_with(&f, NULL, "{\"x\": \"1\"}");
        expect_post(&f, tok, b, NULL, 400, "move.x", "invalid", "move.x as a string");
        free(b);
        b = body_with(&f, NULL, "{\"rot\": 9}");
        expect_post(&f, tok, b, NULL, 400, "move.rot", "invalid", "move.rot out of range");
        free(b);
        b = body_with(&f, NULL, "{\"tile\": 5}");
        expect_post(&f, tok, b, NULL, 400, "move.tile", "invalid", "move.tile as a number");
        free(b);
    }
    /* the Idempotency-Key and If-Match headers */
    b = body_with(&f, NULL, NULL);
    char longkey[400] = "Idempotency-Key: ";
    memset(longkey + strlen(longkey), 'k', 300);
    const char *h1[] = {longkey, NULL};
    expect_post(&f, tok, b, h1, 400, "Idempotency-Key", "invalid", "an Idempotency-Key of 300 characters");
    free(b);
    json_t *nb = json_pack("{s:O}", "move", json_array_get(f.legal, 0));
    char *no_seq = json_dumps(nb, JSON_COMPACT);
    json_decref(nb);
    const char *h2[] = {"If-Match: seven", NULL};
    expect_post(&f, tok, no_seq, h2, 400, "If-Match", "invalid", "a non-numeric If-Match");
    free(no_seq);
    fx_down(&f);
}
END_TEST

START_TEST(unknown_fields)
{
    fx f;
    fx_up(&f);
    const char *tok = f.g.token[f.seat];
    char *b = body_with(&f, "{\"extra\": 1}", NULL);
    expect_post(&f, tok, b, NULL, 400, "extra", "invalid", "an unknown body field");
    free(b);
    b = body_with(&f, NULL, "{\"bogus\": true}");
    expect_post(&f, tok, b, NULL, 400, "move.bogus", "invalid", "an unknown move field");
    free(b);
    /* game creation too: nothing is created */
    json_t *list_before = e2e_get_ok(f.c, "/v1/admin/games?limit=200", D->admin, 200);
    const char *creates[][2] = {
        {"{\"players\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"colour\": \"red\"}", "colour"},
        {"{\"players\": [{\"name\": \"A\", \"age\": 3}, {\"name\": \"B\"}]}", "players[0].age"},
        {"{\"players\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"expansions\": [\"dragons\"]}", NULL},
        {"{\"players\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"options\": {\"unicorns\": true}}", NULL},
        {"{\"players\": [{\"name\": \"A\"}]}", "players"},
        {"{\"players\": \"A,B\"}", "players"},
        {"{}", "players"},
        /* names (base/utf8.h): a noncharacter, which cairo and XML refuse; a bidirectional override, which would
         * reorder the words around the name; white space alone; a C1 control in a bot's name */
        {"{\"players\": [{\"name\": \"A\\uFFFF\"}, {\"name\": \"B\"}]}", "players[0].name"},
        {"{\"players\": [{\"name\": \"A\"}, {\"name\": \"Cy\\u202eevil\"}]}", "players[1].name"},
        {"{\"players\": [{\"name\": \"   \"}, {\"name\": \"B\"}]}", "players[0].name"},
        {"{\"players\": [{\"name\": \"A\"}, {\"bot\": \"greedy\", \"name\": \"x\\u0085\"}]}", "players[1].name"},
        /* an address on a server that sends no mail: refused, not kept for mails that never come */
        {"{\"players\": [{\"name\": \"A\", \"email\": \"a@example.org\"}, {\"name\": \"B\"}]}", "players[0].email"},
    };
    for (size_t i = 0; i < sizeof creates / sizeof creates[0]; i++) {
        e2e_resp r;
        e2e_req(f.c, "POST", "/v1/games", NULL, creates[i][0], NULL, &r);
        e2e_assert_problem(&r, 400, creates[i][1], creates[i][0]);
        ck_assert_msg(json_string_length(json_object_get(r.json, "field")) > 0, "%s: no field: %s", creates[i][0],
                      r.body);
        e2e_resp_free(&r);
    }
    json_t *list_after = e2e_get_ok(f.c, "/v1/admin/games?limit=200", D->admin, 200);
    ck_assert_msg(json_equal(list_before, list_after), "a refused creation created a game");
    json_decref(list_before);
    json_decref(list_after);
    /* a name's 64 characters are characters, not bytes: 64 two-byte ones make a game whose pictures draw */
    char body[400] = "{\"players\": [{\"name\": \"";
    for (int i = 0; i < 64; i++)
        strcat(body, "\xc3\xa9");
    strcat(body, "\"}, {\"name\": \"B\"}]}");
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/board.png", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "GET", path, NULL, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    /* a game's id in upper case names the same game, whose answers give its id as the document's pattern has it */
    char upper[40];
    for (size_t i = 0; i <= strlen(f.g.id); i++)
        upper[i] = (char)toupper((unsigned char)f.g.id[i]);
    snprintf(path, sizeof path, "/v1/games/%s", upper);
    json_t *v = e2e_get_ok(f.c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "id"), f.g.id);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s/email", f.g.id);
    e2e_req(f.c, "PUT", path, f.g.token[0], "{\"email\":\"a@example.org\"}", NULL, &r);
    e2e_assert_problem(&r, 400, "email", "an address on a server that sends no mail");
    e2e_resp_free(&r);
    fx_down(&f);
}
END_TEST

static char *padded_body(fx *f, size_t total)
{
    char *b = body_with(f, NULL, NULL);   /* {"expected_seq":..,"move":{..}} */
    size_t n = strlen(b);
    char *big = malloc(total + 1);
    memcpy(big, b, n - 1);                 /* without the closing brace */
    size_t k = n - 1;
    k += (size_t)sprintf(big + k, ",\"pad\":\"");
    while (k < total - 2)
        big[k++] = 'x';
    big[k++] = '"';
    big[k++] = '}';
    big[k] = 0;
    free(b);
    return big;
}

START_TEST(body_over_limit)
{
    fx f;
    fx_up(&f);
    const char *tok = f.g.token[f.seat];
    size_t sizes[] = {65 * 1024, 256 * 1024, 3 * 1024 * 1024};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *big = padded_body(&f, sizes[i]);
        char what[64];
        snprintf(what, sizeof what, "a body of %zu bytes", sizes[i]);
        expect_post(&f, tok, big, NULL, 413, NULL, "too-large", what);
        e2e_resp r;
        e2e_req(f.c, "POST", "/v1/games", NULL, big, NULL, &r);
        e2e_assert_problem(&r, 413, NULL, what);
        e2e_resp_free(&r);
        free(big);
    }
    /* just under the limit is read (and refused for its unknown field, not its size) */
    char *ok = padded_body(&f, 64 * 1024 - 16);
    expect_post(&f, tok, ok, NULL, 400, "pad", "invalid", "a body just under the limit");
    free(ok);
    fx_down(&f);
}
END_TEST

START_TEST(missing_expected_seq)
{
    fx f;
    fx_up(&f);
    json_t *nb = json_pack("{s:O}", "move", json_array_get(f.legal, 0));
    char *b = json_dumps(nb, JSON_COMPACT);
    json_decref(nb);
    expect_post(&f, f.g.token[f.seat], b, NULL, 428, "expected_seq", "precondition-required", "no expected_seq");
    free(b);
    fx_down(&f);
}
END_TEST

/* An expected_seq other than the game's is refused with 409 stale-seq, whatever the move: lower (a client that
 * read the game before the last move), 0, higher, and the same through If-Match. The move itself is legal
 * now, so only the seq check stands between it and the game. */
START_TEST(stale_expected_seq)
{
    fx f;
    fx_up(&f);
    ck_assert_int_ge(f.seq, 1);
    char edit[64], what[80];
    int stale[] = {f.seq - 1, 0, f.seq + 1, f.seq + 1000};
    for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
        snprintf(edit, sizeof edit, "{\"expected_seq\": %d}", stale[i]);
        snprintf(what, sizeof what, "expected_seq %d at seq %d", stale[i], f.seq);
        char *b = body_with(&f, edit, NULL);
        expect_post(&f, f.g.token[f.seat], b, NULL, 409, "expected_seq", "stale-seq", what);
        free(b);
    }
    json_t *nb = json_pack("{s:O}", "move", json_array_get(f.legal, 0));
    char *b = json_dumps(nb, JSON_COMPACT);
    json_decref(nb);
    char h1[64], h2[64];
    snprintf(h1, sizeof h1, "If-Match: %d", f.seq - 1);
    snprintf(h2, sizeof h2, "If-Match: \"%d\"", f.seq - 1);
    const char *const plain[] = {h1, NULL}, *const quoted[] = {h2, NULL};
    expect_post(&f, f.g.token[f.seat], b, plain, 409, "expected_seq", "stale-seq", "If-Match one below the seq");
    expect_post(&f, f.g.token[f.seat], b, quoted, 409, "expected_seq", "stale-seq", "a quoted If-Match one below");
    free(b);
    fx_down(&f);   /* the game still takes the same move at its own seq */
}
END_TEST

START_TEST(tokens)
{
    fx f;
    fx_up(&f);
    char *b = body_with(&f, NULL, NULL);
    expect_post(&f, NULL, b, NULL, 401, "Authorization", "unauthenticated", "no token");
    expect_post(&f, "cs_thisTokenBelongsToNobodyAtAll0000000000000", b, NULL, 401, "Authorization",
                "unauthenticated", "a token nobody has");
    const char *basic[] = {"Authorization: Basic dXNlcjpwYXNz", NULL};
    e2e_resp r;
    e2e_req(f.c, "POST", f.mpath, NULL, b, basic, &r);
    e2e_assert_problem(&r, 401, NULL, "Basic authorization");
    e2e_resp_free(&r);
    expect_post(&f, f.other.token[0], b, NULL, 403, "Authorization", "forbidden", "another game's token");
    expect_post(&f, f.other.token[1], b, NULL, 403, "Authorization", "forbidden", "another game's token (seat 1)");
    expect_post(&f, D->admin, b, NULL, 403, "Authorization", "forbidden", "the admin token on a move");
    /* reads with another game's token or a bad one */
    e2e_req(f.c, "GET", f.path, f.other.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 403, "Authorization", "a view with another game's token");
    e2e_resp_free(&r);
    e2e_req(f.c, "GET", f.lpath, f.other.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 403, "Authorization", "legal moves with another game's token");
    e2e_resp_free(&r);
    e2e_req(f.c, "GET", f.lpath, NULL, NULL, NULL, &r);
    e2e_assert_problem(&r, 401, "Authorization", "legal moves without a token");
    e2e_resp_free(&r);
    e2e_req(f.c, "GET", f.path, "cs_nobody", NULL, NULL, &r);
    e2e_assert_problem(&r, 401, "Authorization", "a view with a token nobody has");
    e2e_resp_free(&r);
    /* admin routes */
    char apath[160];
    snprintf(apath, sizeof apath, "/v1/admin/games/%s", f.g.id);
    e2e_req(f.c, "GET", apath, NULL, NULL, NULL, &r);
    e2e_assert_problem(&r, 401, NULL, "the admin view without a token");
    e2e_resp_free(&r);
    e2e_req(f.c, "GET", apath, f.g.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 403, NULL, "the admin view with a seat token");
    e2e_resp_free(&r);
    e2e_req(f.c, "GET", "/v1/admin/games", "not-the-admin-token", NULL, NULL, &r);
    ck_assert_msg(r.status == 401 || r.status == 403, "admin list with a wrong token: %ld", r.status);
    e2e_assert_problem(&r, r.status, NULL, "the admin list with a wrong token");
    e2e_resp_free(&r);
    snprintf(apath, sizeof apath, "/v1/admin/games/%s/verify", f.g.id);
    e2e_req(f.c, "POST", apath, f.g.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 403, NULL, "verify with a seat token");
    e2e_resp_free(&r);
    /* only an admin may choose the seed */
    e2e_req(f.c, "POST", "/v1/games", f.g.token[0],
            "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":"
            "\"0000000000000000000000000000000000000000000000000000000000000000\"}",
            NULL, &r);
    e2e_assert_problem(&r, 403, "seed", "a seed without the admin token");
    e2e_resp_free(&r);
    free(b);
    fx_down(&f);
}
END_TEST

START_TEST(another_seats_move)
{
    fx f;
    fx_up(&f);
    char *b = body_with(&f, NULL, NULL);
    for (int s = 0; s < f.g.nplayers; s++) {
        if (s == f.seat)
            continue;
        char what[64];
        snprintf(what, sizeof what, "seat %d playing seat %d's move", s, f.seat);
        expect_post(&f, f.g.token[s], b, NULL, 403, NULL, "not-your-turn", what);
    }
    free(b);
    fx_down(&f);
}
END_TEST

START_TEST(illegal_moves)
{
    fx f;
    fx_up(&f);
    const char *tok = f.g.token[f.seat];
    const json_t *first = json_array_get(f.legal, 0);
    char *b;
    if (strcmp(e2e_jstr(first, "type"), "place") == 0) {
        b = body_with(&f, NULL, "{\"x\": 40, \"y\": -40}");
        expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "a tile far from the others");
        free(b);
        b = body_with(&f, NULL, "{\"x\": 0, \"y\": 0}");   /* on the start tile */
        expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "a tile on the start tile");
        free(b);
        b = body_with(&f, "{\"move\": {\"type\": \"pass\"}}", NULL);
        expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "a pass when a tile must be placed");
        free(b);
        /* a tile that is not the one drawn */
        const char *drawn = e2e_jstr(first, "tile");
        char other[80];
        snprintf(other, sizeof other, "{\"tile\": \"%s\"}", strcmp(drawn, "D") == 0 ? "B" : "D");
        b = body_with(&f, NULL, other);
        expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "a tile that was not drawn");
        free(b);
    } else {
        b = body_with(&f, "{\"move\": {\"type\": \"place\", \"tile\": \"D\", \"x\": 5, \"y\": 5, \"rot\": 0}}", NULL);
        expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "a tile when a figure is due");
        free(b);
    }
    b = body_with(&f, "{\"move\": {\"type\": \"abbot_return\"}}", NULL);
    expect_post(&f, tok, b, NULL, 422, "move", "illegal-move", "an abbot return without an abbot");
    free(b);
    fx_down(&f);
}
END_TEST

START_TEST(move_after_the_end)
{
    /* an admin's scripted game with a one-tile stack ends after its first turn */
    e2e_client *c = e2e_client_new(D);
    e2e_game g;
    long st = e2e_game_create_raw(c, D, 2, NULL,
                                  "{\"seed\":\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\","
                                  "\"script\":{\"stack\":[\"D\"]}}",
                                  true, &g);
    ck_assert_int_eq(st, 201);
    e2e_rng rng = {3};
    int moves = 0;
    for (;; moves++) {
        ck_assert_int_lt(moves, 10);
        e2e_play p;
        st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        if (st == E2E_FINISHED)
            break;
        ck_assert_int_eq(st, 200);
    }
    char path[160], mpath[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    snprintf(mpath, sizeof mpath, "/v1/games/%s/moves", g.id);
    json_t *before = e2e_admin_view(c, D, g.id);
    ck_assert_str_eq(e2e_jstr(before, "status"), "finished");
    e2e_resp r;
    const char *bodies[] = {"{\"expected_seq\": %d, \"move\": {\"type\": \"pass\"}}",
                            "{\"expected_seq\": %d, \"move\": {\"type\": \"place\", \"tile\": \"D\", \"x\": 1, "
                            "\"y\": 0, \"rot\": 0}}",
                            NULL};
    for (int i = 0; bodies[i]; i++)
        for (int s = 0; s < 2; s++) {
            char body[200];
            snprintf(body, sizeof body, bodies[i], moves);
            e2e_req(c, "POST", mpath, g.token[s], body, NULL, &r);
            e2e_assert_problem(&r, 409, NULL, "a move after the end");
            ck_assert_msg(e2e_problem_is(&r, "game-over"), "type %s", e2e_jstr(r.json, "type"));
            e2e_resp_free(&r);
        }
    json_t *after = e2e_admin_view(c, D, g.id);
    ck_assert(json_equal(before, after));
    json_decref(before);
    json_decref(after);
    ck_assert_int_eq(e2e_verify_ok(c, D, g.id), moves);
    e2e_client_free(c);
    e2e_check_answers();
}
END_TEST

START_TEST(unknown_games_and_paths)
{
    fx f;
    fx_up(&f);
    static const char *const nobody = "00000000-0000-4000-8000-000000000000";
    char p[200];
    e2e_resp r;
    const char *const ids[] = {nobody, "nope", "00000000-0000-4000-8000-00000000000g", "%00", NULL};
    for (int i = 0; ids[i]; i++) {
        snprintf(p, sizeof p, "/v1/games/%s", ids[i]);
        e2e_req(f.c, "GET", p, NULL, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, p);
        e2e_resp_free(&r);
        e2e_req(f.c, "GET", p, D->admin, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, p);
        e2e_resp_free(&r);
        snprintf(p, sizeof p, "/v1/games/%s/legal-moves?seat=0", ids[i]);
        e2e_req(f.c, "GET", p, D->admin, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, p);
        e2e_resp_free(&r);
        snprintf(p, sizeof p, "/v1/admin/games/%s", ids[i]);
        e2e_req(f.c, "GET", p, D->admin, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, p);
        e2e_resp_free(&r);
        snprintf(p, sizeof p, "/v1/admin/games/%s/verify", ids[i]);
        e2e_req(f.c, "POST", p, D->admin, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, p);
        e2e_resp_free(&r);
    }
    /* a move to a game that does not exist, with a seat token of a real one: that token's game is not it */
    snprintf(p, sizeof p, "/v1/games/%s/moves", nobody);
    e2e_req(f.c, "POST", p, f.g.token[f.seat], "{\"expected_seq\":0,\"move\":{\"type\":\"pass\"}}", NULL, &r);
    ck_assert_msg(r.status == 404 || r.status == 403, "a move to an unknown game: %ld", r.status);
    e2e_assert_problem(&r, r.status, NULL, "a move to an unknown game");
    e2e_resp_free(&r);
    e2e_req(f.c, "POST", "/v1/games/nope/moves", f.g.token[f.seat], "{\"expected_seq\":0,\"move\":{\"type\":\"pass\"}}",
            NULL, &r);
    e2e_assert_problem(&r, 404, NULL, "a move to a non-uuid game id");
    e2e_resp_free(&r);

    /* every documented route with a game's {id}, every method, with ids too short, too long and not hex: a
     * problem each time, never a crash (POST .../messages copied 37 bytes of the id before checking it: an
     * out-of-bounds read that ASan stopped the daemon for), with a seat's token and a body, as a client sends */
    const json_t *paths_doc = json_object_get(e2e_openapi_doc(), "paths");
    ck_assert(paths_doc != NULL);
    const char *tmpl;
    const json_t *item;
    int tried = 0;
    json_object_foreach((json_t *)paths_doc, tmpl, item) {
        const char *at = strstr(tmpl, "{id}");
        if (!at)
            continue;
        const char *methods[] = {"get", "post", "put", "delete", "patch", NULL};
        for (int m = 0; methods[m]; m++) {
            if (!json_object_get(item, methods[m]))
                continue;
            char method[8] = "";
            for (int k = 0; methods[m][k] && k < 7; k++)
                method[k] = (char)toupper((unsigned char)methods[m][k]);
            const char *bad[] = {"zz", "0", "00000000-0000-4000-8000-0000000000000000",
                                 "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"};
            for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
                /* the rest of the template filled in: {seat} 0, {mid} 1, any other {x} "x" */
                char path[300];
                size_t n = 0;
                for (const char *s = tmpl; *s && n < sizeof path - 60;) {
                    if (s == at) {
                        n += (size_t)snprintf(path + n, sizeof path - n, "%s", bad[b]);
                        s += 4;
                    } else if (*s == '{') {
                        const char *e = strchr(s, '}');
                        ck_assert(e != NULL);
                        const char *fill = strncmp(s, "{seat}", 6) == 0 ? "0" : strncmp(s, "{mid}", 5) == 0 ? "1" : "x";
                        n += (size_t)snprintf(path + n, sizeof path - n, "%s", fill);
                        s = e + 1;
                    } else {
                        path[n++] = *s++;
                    }
                }
                path[n] = '\0';
                e2e_req(f.c, method, path, f.g.token[f.seat], strcmp(method, "GET") ? "{\"text\":\"hi\"}" : NULL,
                        NULL, &r);
                ck_assert_msg(r.status >= 400 && r.status < 500, "%s %s: %ld", method, path, r.status);
                e2e_assert_problem(&r, r.status, NULL, path);
                e2e_resp_free(&r);
                tried++;
            }
        }
    }
    ck_assert_int_ge(tried, 100);
    ck_assert_msg(e2e_req(f.c, "GET", "/healthz", NULL, NULL, NULL, &r) == 200, "carcd died on a bad game id");
    e2e_resp_free(&r);

    /* paths that do not exist */
    snprintf(p, sizeof p, "/v1/games/%s/nope", f.g.id);
    const char *const paths[] = {"/", "/v1", "/v1/", "/v1/nope", "/v2/games", "/v1/games/", p, "/healthz/x",
                                 "/v1/games//moves", "/v1/admin", NULL};
    for (int i = 0; paths[i]; i++) {
        e2e_req(f.c, "GET", paths[i], NULL, NULL, NULL, &r);
        e2e_assert_problem(&r, 404, NULL, paths[i]);
        e2e_resp_free(&r);
    }
    fx_down(&f);
}
END_TEST

START_TEST(wrong_methods)
{
    fx f;
    fx_up(&f);
    char vp[160], ap[160];
    snprintf(vp, sizeof vp, "/v1/games/%s", f.g.id);
    snprintf(ap, sizeof ap, "/v1/admin/games/%s/verify", f.g.id);
    const struct {
        const char *method, *path, *allow;
    } cases[] = {
        {"DELETE", vp, "GET"},     {"POST", vp, "GET"},          {"PUT", "/v1/games", "POST"},
        {"GET", "/v1/games", "POST"}, {"GET", f.mpath, "POST"},  {"PATCH", f.mpath, "POST"},
        {"POST", f.lpath, "GET"},  {"GET", ap, "POST"},          {"DELETE", "/healthz", "GET"},
        {"POST", "/v1/openapi.json", "GET"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        e2e_resp r;
        char what[220];
        snprintf(what, sizeof what, "%s %s", cases[i].method, cases[i].path);
        const char *body = strcmp(cases[i].method, "GET") == 0 || strcmp(cases[i].method, "DELETE") == 0
                               ? NULL
                               : "{\"expected_seq\":0,\"move\":{\"type\":\"pass\"}}";
        e2e_req(f.c, cases[i].method, cases[i].path, f.g.token[f.seat], body, NULL, &r);
        e2e_assert_problem(&r, 405, NULL, what);
        char allow[100];
        ck_assert_msg(e2e_header(&r, "Allow", allow, sizeof allow) != NULL, "%s: 405 without an Allow header", what);
        ck_assert_msg(strstr(allow, cases[i].allow) != NULL, "%s: Allow '%s', want %s", what, allow, cases[i].allow);
        e2e_resp_free(&r);
        fx_unchanged(&f, what);
    }
    fx_down(&f);
}
END_TEST

START_TEST(wrong_content_type)
{
    fx f;
    fx_up(&f);
    char *b = body_with(&f, NULL, NULL);
    const char *h[] = {"Content-Type: text/plain", NULL};
    expect_post(&f, f.g.token[f.seat], b, h, 415, NULL, "unsupported-media-type", "a text/plain body");
    const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
    expect_post(&f, f.g.token[f.seat], b, form, 415, NULL, "unsupported-media-type", "a form body");
    /* charset parameters are fine */
    const char *cs[] = {"Content-Type: application/json; charset=utf-8", NULL};
    e2e_resp r;
    e2e_req(f.c, "POST", f.mpath, f.g.token[f.seat], b, cs, &r);
    ck_assert_msg(r.status == 200, "application/json; charset=utf-8: %ld %.300s", r.status, r.body);
    e2e_resp_free(&r);
    free(b);
    /* the game moved: renew the fixture's picture of it before fx_down */
    json_decref(f.before);
    f.before = e2e_admin_view(f.c, D, f.g.id);
    json_t *v = e2e_get_ok(f.c, f.path, NULL, 200);
    f.seat = (int)e2e_jint(v, "pending.seat");
    f.seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    json_t *lm = e2e_get_ok(f.c, f.lpath, f.g.token[f.seat], 200);
    json_decref(f.legal);
    f.legal = json_incref(json_object_get(lm, "moves"));
    json_decref(lm);
    fx_down(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_bad_input");
    TCase *tc = e2e_tcase("bad_input", 120);
    tcase_add_unchecked_fixture(tc, daemon_setup, daemon_teardown);
    tcase_add_test(tc, malformed_json);
    tcase_add_test(tc, wrong_types);
    tcase_add_test(tc, unknown_fields);
    tcase_add_test(tc, body_over_limit);
    tcase_add_test(tc, missing_expected_seq);
    tcase_add_test(tc, stale_expected_seq);
    tcase_add_test(tc, tokens);
    tcase_add_test(tc, another_seats_move);
    tcase_add_test(tc, illegal_moves);
    tcase_add_test(tc, move_after_the_end);
    tcase_add_test(tc, unknown_games_and_paths);
    tcase_add_test(tc, wrong_methods);
    tcase_add_test(tc, wrong_content_type);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
