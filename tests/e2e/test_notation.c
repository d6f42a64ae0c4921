/*
 * test_notation.c — moves as text through the real socket: legal-moves as text/plain, moves posted as
 * notations, the self-description of legal moves and of event entries, legal moves posted back verbatim, and
 * bad notations (10 kB, control characters, a move of another decision kind, a figure on a side the tile does
 * not have), each a problem naming the fault and carrying the decision's legal notations, the game unchanged.
 *
 * The admin scripts the stack: D starts at 0,0 (city north), then E, U, B, V, K.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

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
    e2e_game g;
    char lpath[160], mpath[160], epath[160];
} fx;

static void fx_up(fx *f)
{
    memset(f, 0, sizeof *f);
    f->c = e2e_client_new(D);
    long st = e2e_game_create_raw(f->c, D, 2, NULL, "{\"script\":{\"stack\":[\"E\",\"U\",\"B\",\"V\",\"K\"]}}", true,
                                  &f->g);
    ck_assert_int_eq(st, 201);
    snprintf(f->lpath, sizeof f->lpath, "/v1/games/%s/legal-moves", f->g.id);
    snprintf(f->mpath, sizeof f->mpath, "/v1/games/%s/moves", f->g.id);
    snprintf(f->epath, sizeof f->epath, "/v1/games/%s/events?after=0", f->g.id);
}

static void fx_down(fx *f)
{
    e2e_client_free(f->c);
    e2e_check_answers();
}

/* POSTs {"notation": text, "expected_seq": seq} as seat; the status. */
static long post_notation(fx *f, int seat, const char *text, size_t len, int seq, e2e_resp *r)
{
    json_t *b = json_pack("{s:s%, s:i}", "notation", text, len, "expected_seq", seq);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    long status = e2e_req(f->c, "POST", f->mpath, f->g.token[seat], body, NULL, r);
    free(body);
    return status;
}

static int game_seq(fx *f)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", f->g.id);
    json_t *v = e2e_get_ok(f->c, path, NULL, 200);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    return seq;
}

START_TEST(legal_moves_as_text)
{
    fx f;
    fx_up(&f);
    char path[200];
    snprintf(path, sizeof path, "%s?format=text", f.lpath);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "GET", path, f.g.token[0], NULL, NULL, &r), 200);
    ck_assert_str_eq(r.content_type, "text/plain; charset=utf-8");
    json_t *lm = e2e_get_ok(f.c, f.lpath, f.g.token[0], 200);
    json_t *moves = json_object_get(lm, "moves");
    /* the seq, then the JSON answer's notations in its order, one a line */
    char want[4096];
    size_t n = (size_t)snprintf(want, sizeof want, "%lld\n", e2e_jint(lm, "seq"));
    for (size_t i = 0; i < json_array_size(moves); i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%s\n", e2e_jstr(json_array_get(moves, i), "notation"));
    ck_assert_str_eq(r.body, want);
    ck_assert_ptr_nonnull(strstr(r.body, "\nE 0,-1 r2\n"));
    e2e_resp_free(&r);
    json_decref(lm);
    /* the default and an explicit json are the JSON answer; anything else is refused */
    snprintf(path, sizeof path, "%s?format=json", f.lpath);
    json_decref(e2e_get_ok(f.c, path, f.g.token[0], 200));
    snprintf(path, sizeof path, "%s?format=xml", f.lpath);
    e2e_req(f.c, "GET", path, f.g.token[0], NULL, NULL, &r);
    e2e_assert_problem(&r, 400, "format", "an unknown format");
    e2e_resp_free(&r);
    /* the seat that does not move has nothing to do: just the seq */
    snprintf(path, sizeof path, "%s?format=text", f.lpath);
    ck_assert_int_eq(e2e_req(f.c, "GET", path, f.g.token[1], NULL, NULL, &r), 200);
    ck_assert_str_eq(r.body, "0\n");
    e2e_resp_free(&r);
    fx_down(&f);
}
END_TEST

START_TEST(play_by_notation)
{
    fx f;
    fx_up(&f);
    e2e_resp r;
    /* the drawn tile left out, in lower case */
    ck_assert_int_eq(post_notation(&f, 0, "0,-1 R2", 7, 0, &r), 200);
    /* the mover owes the figure step: its legal moves come along, described */
    json_t *inline_moves = e2e_jget(r.json, "legal_moves.moves");
    ck_assert(json_array_size(inline_moves) >= 3);
    bool city = false;
    for (size_t i = 0; i < json_array_size(inline_moves); i++) {
        json_t *m = json_array_get(inline_moves, i);
        ck_assert_msg(json_is_string(json_object_get(m, "notation")), "a move without notation: %s", r.body);
        if (strcmp(e2e_jstr(m, "type"), "figure") == 0) {
            ck_assert(json_is_array(json_object_get(m, "sides")));
            ck_assert(strlen(e2e_jstr(m, "label")) > 0);
            ck_assert(strlen(e2e_jstr(m, "feature")) > 0);
        }
        if (strcmp(e2e_jstr(m, "notation"), "meeple city") == 0) {
            city = true;
            ck_assert_str_eq(e2e_jstr(m, "feature"), "city");
            ck_assert_str_eq(e2e_jstr(m, "label"), "meeple on the city");
            ck_assert_str_eq(e2e_jstr(m, "sides.0"), "S");
        }
    }
    ck_assert_msg(city, "no meeple on E's city among %s", r.body);
    /* a described legal move posted back verbatim is that move */
    json_t *mv = NULL;
    for (size_t i = 0; i < json_array_size(inline_moves) && !mv; i++)
        if (strcmp(e2e_jstr(json_array_get(inline_moves, i), "notation"), "meeple city") == 0)
            mv = json_array_get(inline_moves, i);
    json_t *b = json_pack("{s:O, s:i}", "move", mv, "expected_seq", 1);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, f.g.token[0], body, NULL, &r), 200);
    free(body);
    e2e_resp_free(&r);
    /* seat 1 places U by its notation */
    ck_assert_int_eq(post_notation(&f, 1, "U 0,1 r1", 8, 2, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(post_notation(&f, 1, "meeple field es", 15, 3, &r), 200);
    e2e_resp_free(&r);
    /* the log says what each move was */
    json_t *ev = e2e_get_ok(f.c, f.epath, NULL, 200);
    json_t *entries = json_object_get(ev, "entries");
    ck_assert_uint_eq(json_array_size(entries), 4);
    const char *want[] = {"E 0,-1 r2", "meeple city", "U 0,1 r1", "meeple field S"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(e2e_jstr(json_array_get(entries, i), "notation"), want[i]);
    json_t *fig = json_array_get(entries, 3);
    ck_assert_str_eq(e2e_jstr(fig, "feature"), "field");
    ck_assert_str_eq(e2e_jstr(fig, "label"), "meeple on the field to the south");
    ck_assert_ptr_null(json_object_get(json_array_get(entries, 0), "label"));
    json_decref(ev);
    fx_down(&f);
}
END_TEST

/* A refused notation: the status, field "notation", a detail saying `says`, `legal` = the decision's
 * notations, and the game still at `seq`. */
static void expect_refused(fx *f, int seat, const char *text, size_t len, int seq, long status, const char *says,
                           const char *what)
{
    e2e_resp r;
    post_notation(f, seat, text, len, seq, &r);
    e2e_assert_problem(&r, status, "notation", what);
    ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), says), "%s: the detail does not say \"%s\": %s", what, says,
                  r.body);
    json_t *legal = json_object_get(r.json, "legal");
    ck_assert_msg(json_is_array(legal) && json_array_size(legal) > 0, "%s: no legal notations: %.300s", what, r.body);
    char path[200];
    snprintf(path, sizeof path, "%s", f->lpath);
    json_t *lm = e2e_get_ok(f->c, path, f->g.token[seat], 200);
    json_t *moves = json_object_get(lm, "moves");
    ck_assert_uint_eq(json_array_size(legal), json_array_size(moves));
    for (size_t i = 0; i < json_array_size(moves); i++)
        ck_assert_str_eq(json_string_value(json_array_get(legal, i)), e2e_jstr(json_array_get(moves, i), "notation"));
    json_decref(lm);
    e2e_resp_free(&r);
    ck_assert_msg(game_seq(f) == seq, "%s changed the game", what);
}

START_TEST(bad_notations)
{
    fx f;
    fx_up(&f);
    char *big = malloc(10240);
    memset(big, 'E', 10240);
    expect_refused(&f, 0, big, 10240, 0, 400, "too long", "a notation of 10 kB");
    free(big);
    expect_refused(&f, 0, "E 0,-1\x07r2", 9, 0, 400, "control character 0x07", "a bell in a notation");
    expect_refused(&f, 0, "E 0,-1 r2\n", 10, 0, 400, "control character 0x0a", "a newline in a notation");
    expect_refused(&f, 0, "teleport", 8, 0, 400, "unknown word", "an unknown word");
    expect_refused(&f, 0, "grow", 4, 0, 422, "waits for a tile placement", "a flock move while placing");
    expect_refused(&f, 0, "meeple city S", 13, 0, 422, "waits for a tile placement", "a figure while placing");
    expect_refused(&f, 0, "E 5,5 r0", 8, 0, 422, "does not fit", "a place where E does not fit");
    e2e_resp r;
    /* a NUL never reaches the parser: the body's JSON reader refuses it */
    e2e_req(f.c, "POST", f.mpath, f.g.token[0], "{\"notation\": \"E\\u0000 0,-1\", \"expected_seq\": 0}", NULL, &r);
    e2e_assert_problem(&r, 400, NULL, "a NUL in a notation");
    ck_assert(e2e_problem_is(&r, "bad-json"));
    e2e_resp_free(&r);
    ck_assert_int_eq(game_seq(&f), 0);
    ck_assert_int_eq(post_notation(&f, 0, "E 0,-1 r2", 9, 0, &r), 200);
    e2e_resp_free(&r);
    expect_refused(&f, 0, "meeple city N", 13, 1, 422, "no city of tile E at 0,-1 touches N",
                   "a figure on a side the tile does not have");
    expect_refused(&f, 0, "meeple road", 11, 1, 422, "has no road", "a figure on a feature the tile does not have");
    expect_refused(&f, 0, "E 0,-2 r2", 9, 1, 422, "waits for a figure or pass", "a placement in the figure step");
    /* the body: notation and move together, or a notation that is no string */
    json_t *b = json_pack("{s:s, s:{s:s}, s:i}", "notation", "pass", "move", "type", "pass", "expected_seq", 1);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    e2e_req(f.c, "POST", f.mpath, f.g.token[0], body, NULL, &r);
    e2e_assert_problem(&r, 400, "notation", "move and notation together");
    e2e_resp_free(&r);
    free(body);
    e2e_req(f.c, "POST", f.mpath, f.g.token[0], "{\"notation\": 7, \"expected_seq\": 1}", NULL, &r);
    e2e_assert_problem(&r, 400, "notation", "a notation that is a number");
    e2e_resp_free(&r);
    /* a legal move posted as the whole body is told where the move goes */
    e2e_req(f.c, "POST", f.mpath, f.g.token[0], "{\"type\": \"pass\", \"notation\": \"pass\"}", NULL, &r);
    e2e_assert_problem(&r, 400, NULL, "a legal move as the whole body");
    e2e_resp_free(&r);
    e2e_req(f.c, "POST", f.mpath, f.g.token[0], "{\"type\": \"pass\"}", NULL, &r);
    e2e_assert_problem(&r, 400, "type", "a bare move as the body");
    ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), "\"move\""), "%s", r.body);
    e2e_resp_free(&r);
    ck_assert_int_eq(game_seq(&f), 1);
    /* and the game still takes a good notation */
    ck_assert_int_eq(post_notation(&f, 0, "PASS", 4, 1, &r), 200);
    e2e_resp_free(&r);
    fx_down(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_notation");
    TCase *tc = e2e_tcase("notation", 120);
    tcase_add_unchecked_fixture(tc, daemon_setup, daemon_teardown);
    tcase_add_test(tc, legal_moves_as_text);
    tcase_add_test(tc, play_by_notation);
    tcase_add_test(tc, bad_notations);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
