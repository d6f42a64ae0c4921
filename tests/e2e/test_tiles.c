/*
 * test_tiles.c — GET /v1/tiles and GET /problems/{name} against the real carcd: the catalog conforms to its
 * schema in api-docs/openapi.json, revalidates with If-None-Match (304), and names exactly what real games
 * use — every tile a legal move places is in it, and every figure move's part is a segment of the piece just
 * placed whose feature takes that figure. Every problem type a real answer carried resolves to a page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const json_t *tile_of(const json_t *catalog, const char *id)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(catalog, "tiles"), i, t)
        if (strcmp(e2e_jstr(t, "id"), id) == 0)
            return t;
    return NULL;
}

START_TEST(catalog_cached_and_conforming)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/tiles", NULL, NULL, NULL, &r), 200);   /* schema-checked */
    char etag[128], cc[128], line[200];
    ck_assert_ptr_nonnull(e2e_header(&r, "ETag", etag, sizeof etag));
    ck_assert_ptr_nonnull(e2e_header(&r, "Cache-Control", cc, sizeof cc));
    ck_assert_msg(strstr(cc, "public") && strstr(cc, "max-age="), "Cache-Control: %s", cc);
    ck_assert_msg(etag[0] == '"', "a strong ETag: %s", etag);
    /* the tiles of the five sets, option variants aside (they replace copies) */
    json_int_t copies = 0;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(r.json, "tiles"), i, t)
        copies += json_object_get(t, "when") ? 0 : json_integer_value(json_object_get(t, "count"));
    ck_assert_int_eq(copies, 72 + 18 + 6 + 6 + 12);
    size_t len = r.len;
    e2e_resp_free(&r);
    snprintf(line, sizeof line, "If-None-Match: %s", etag);
    const char *const h[] = {line, NULL};
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/tiles", NULL, NULL, h, &r), 304);
    ck_assert_uint_eq(r.len, 0);
    e2e_resp_free(&r);
    static const char *const stale[] = {"If-None-Match: \"00\"", NULL};
    ck_assert_int_eq(e2e_req(c, "GET", "/v1/tiles", NULL, NULL, stale, &r), 200);
    ck_assert_uint_eq(r.len, len);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The figure kinds a feature takes. */
static bool takes(const char *feature, const char *figure)
{
    if (strcmp(figure, "meeple") == 0)
        return strcmp(feature, "garden") != 0;
    if (strcmp(figure, "abbot") == 0)
        return strcmp(feature, "cloister") == 0 || strcmp(feature, "garden") == 0;
    return strcmp(figure, "shepherd") == 0 && strcmp(feature, "field") == 0;
}

static void check_problem_page(e2e_client *c, const e2e_resp *r)
{
    const char *type = r->json ? e2e_jstr(r->json, "type") : "";
    if (strncmp(type, "/problems/", 10) != 0)
        return;
    e2e_resp page;
    ck_assert_msg(e2e_req(c, "GET", type, NULL, NULL, NULL, &page) == 200, "%s: %ld", type, page.status);
    ck_assert_msg(strstr(page.content_type, "text/html"), "%s: %s", type, page.content_type);
    e2e_resp_free(&page);
}

START_TEST(catalog_names_what_games_use)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    json_t *catalog = e2e_get_ok(c, "/v1/tiles", NULL, 200);
    e2e_rng rng = {2026};
    int figure_moves = 0, placements = 0;
    for (int game = 0; game < 2; game++) {
        e2e_game g;
        e2e_game_create(c, 2 + game, "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]", &g);
        for (int step = 0; step < 400; step++) {
            char path[160];
            snprintf(path, sizeof path, "/v1/games/%s", g.id);
            json_t *view = e2e_get_ok(c, path, NULL, 200);
            if (strcmp(e2e_jstr(view, "status"), "finished") == 0) {
                json_decref(view);
                break;
            }
            int seat = (int)e2e_jint(view, "pending.seat");
            const char *pending = e2e_jstr(view, "pending.kind");
            const json_t *placed = NULL;
            if (strcmp(pending, "figure") == 0) {
                json_t *pc = json_array_get(json_object_get(view, "board"), (size_t)e2e_jint(view, "pending.piece"));
                placed = tile_of(catalog, e2e_jstr(pc, "tile"));
                ck_assert_msg(placed, "piece tile %s is not in the catalog", e2e_jstr(pc, "tile"));
            }
            snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g.id);
            json_t *legal = e2e_get_ok(c, path, g.token[seat], 200);
            json_t *moves = json_object_get(legal, "moves");
            size_t i, k;
            json_t *m, *s;
            json_array_foreach(moves, i, m) {
                const char *type = e2e_jstr(m, "type");
                if (strcmp(type, "place") == 0) {
                    ck_assert_msg(tile_of(catalog, e2e_jstr(m, "tile")), "tile %s", e2e_jstr(m, "tile"));
                    placements++;
                }
                if (strcmp(type, "figure") != 0)
                    continue;
                ck_assert_ptr_nonnull(placed);
                const json_t *seg = NULL;
                json_array_foreach(json_object_get(placed, "segments"), k, s)
                    if (strcmp(e2e_jstr(s, "part"), e2e_jstr(m, "part")) == 0)
                        seg = s;
                ck_assert_msg(seg, "tile %s has no part %s in the catalog", e2e_jstr(placed, "id"),
                              e2e_jstr(m, "part"));
                ck_assert_msg(takes(e2e_jstr(seg, "feature"), e2e_jstr(m, "figure")), "%s on %s %s",
                              e2e_jstr(m, "figure"), e2e_jstr(seg, "feature"), e2e_jstr(m, "part"));
                figure_moves++;
            }
            size_t n = json_array_size(moves);
            ck_assert_uint_gt(n, 0);
            json_t *body = json_pack("{s:I, s:O}", "expected_seq", (json_int_t)e2e_jint(legal, "seq"), "move",
                                     json_array_get(moves, e2e_rng_below(&rng, (uint32_t)n)));
            char *text = json_dumps(body, JSON_COMPACT);
            snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
            e2e_resp r;
            ck_assert_msg(e2e_req(c, "POST", path, g.token[seat], text, NULL, &r) == 200, "move: %ld %s", r.status,
                          r.body);
            e2e_resp_free(&r);
            free(text);
            json_decref(body);
            json_decref(legal);
            json_decref(view);
        }
    }
    ck_assert_int_gt(figure_moves, 50);
    ck_assert_int_gt(placements, 50);
    /* a few problems real requests get, and the pages their types name */
    e2e_resp r;
    e2e_req(c, "GET", "/v1/games/nope", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 404);
    check_problem_page(c, &r);
    e2e_resp_free(&r);
    e2e_req(c, "GET", "/nowhere", NULL, NULL, NULL, &r);
    check_problem_page(c, &r);
    e2e_resp_free(&r);
    e2e_req(c, "POST", "/v1/games", NULL, "{", NULL, &r);
    ck_assert_int_ge(r.status, 400);
    check_problem_page(c, &r);
    e2e_resp_free(&r);
    e2e_req(c, "GET", "/problems/no-such-problem", NULL, NULL, NULL, &r);
    e2e_assert_problem(&r, 404, "name", "unknown problem page");
    e2e_resp_free(&r);
    json_decref(catalog);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_tiles");
    TCase *tc = e2e_tcase("tiles", 240);
    tcase_add_test(tc, catalog_cached_and_conforming);
    tcase_add_test(tc, catalog_names_what_games_use);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
