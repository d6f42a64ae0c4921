/*
 * test_render.c — the board pictures of daemon/render/ from hand-made views (no server, no database):
 * every tile type of the catalog in every rotation (so a tile or triangle added to the data is drawn, and
 * drawn without a crash, with no code for it), two triangles on one space, figures of every kind with a
 * shepherd's flock, and fields a view may carry that the picture must not show.
 *
 * With CARCD_SCREENSHOTS=<dir> the pictures are written there (all-tiles.svg / .png) for a person to look at.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/catalog.h"
#include "game/games.h"
#include "render/render.h"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void keep(const char *name, const void *data, size_t len)
{
    const char *dir = getenv("CARCD_SCREENSHOTS");
    if (!dir || !*dir)
        return;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, len, f);
        fclose(f);
    }
}

/* Every tile type in rows of four rotations; squares on their own space, triangles two to a space
 * (corners 0 and 2, then 1 and 3). */
static json_t *all_tiles_view(const carc_catalog *cat, int *npieces)
{
    json_t *pieces = json_array(), *figures = json_array();
    int row = 0;
    for (int t = 0; t < cat->ntypes; t++, row++) {
        const carc_tile_type *ty = &cat->types[t];
        for (int r = 0; r < 4; r++) {
            int x = ty->shape == CARC_TRIANGLE ? r / 2 : r, rot = ty->shape == CARC_TRIANGLE ? (r % 2) * 2 + r / 2 : r;
            json_array_append_new(pieces, json_pack("{s:s, s:i, s:i, s:i}", "tile", ty->id, "x", x, "y", row, "rot", rot));
            /* a figure on part (r mod nparts) of every piece: meeples, an abbot on cloisters, shepherds on fields */
            int part = r % ty->nparts;
            const char *kind = ty->parts[part].kind == CARC_PART_CLOISTER || ty->parts[part].kind == CARC_PART_GARDEN
                                   ? "abbot"
                               : ty->parts[part].kind == CARC_PART_FIELD && r == 3 ? "shepherd"
                                                                                  : "meeple";
            json_array_append_new(figures, json_pack("{s:i, s:s, s:i, s:s}", "seat", (t + r) % 6, "figure", kind, "piece",
                                                     (int)json_array_size(pieces) - 1, "part", ty->parts[part].name));
        }
    }
    *npieces = (int)json_array_size(pieces);
    json_t *players = json_array();
    for (int s = 0; s < 6; s++)
        json_array_append_new(players, json_pack("{s:i, s:i, s:s}", "seat", s, "score", s * 7, "name", "Ann & <Bob>"));
    json_t *flocks = json_loads("[[4,1],[2],[],[3,3],[1],[]]", 0, NULL);
    return json_pack("{s:i, s:s, s:i, s:i, s:o, s:o, s:o, s:{s:s, s:i, s:s}, s:{s:o}, s:o, s:[s]}", "seq", 99, "status",
                     "active", "turn", 50, "stack_left", 3, "board", pieces, "figures", figures, "players", players,
                     "pending", "kind", "place", "seat", 2, "tile", "HS05", "hills_sheep", "flocks", flocks,
                     /* what a view must not show; the renderer never reads it */
                     "stack", json_pack("[s, s]", "ZZ9", "CC06"), "stack_remaining", "QQ7");
}

START_TEST(every_tile_in_every_rotation)
{
    const carc_catalog *cat = cd_catalog();
    int npieces;
    json_t *view = all_tiles_view(cat, &npieces);
    size_t len;
    char *svg = cd_render_svg(cat, view, &len);
    ck_assert_uint_eq(strlen(svg), len);
    ck_assert_msg(strncmp(svg, "<svg ", 5) == 0 && strstr(svg, "</svg>\n"), "not an SVG document");
    ck_assert_int_eq(count(svg, "<g "), count(svg, "</g>"));
    ck_assert_int_eq(count(svg, "class=\"piece\""), npieces);
    ck_assert_int_eq(count(svg, "class=\"figure\""), npieces);
    for (int t = 0; t < cat->ntypes; t++) {
        char want[40];
        snprintf(want, sizeof want, "data-tile=\"%s\"", cat->types[t].id);
        ck_assert_msg(count(svg, want) >= 4, "tile %s is not drawn four times", cat->types[t].id);
    }
    ck_assert_msg(!strstr(svg, "ZZ9") && !strstr(svg, "QQ7"), "a field the view must not show is drawn");
    ck_assert_msg(strstr(svg, "Ann &amp; &lt;Bob&gt;") && !strstr(svg, "<Bob>"), "names are not escaped");
    ck_assert_msg(strstr(svg, ">5</text>") && strstr(svg, ">6</text>"), "no flock sizes (5 and 6 sheep)");
    ck_assert_msg(!strstr(svg, "nan") && !strstr(svg, "inf"), "a coordinate is not a number");
    keep("all-tiles.svg", svg, len);
    free(svg);

    size_t plen;
    unsigned char *png = cd_render_png(cat, view, 8000, &plen);
    ck_assert_ptr_nonnull(png);
    ck_assert_msg(plen > 20000 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "not a PNG (%zu bytes)", plen);
    keep("all-tiles.png", png, plen);
    free(png);
    /* a huge board is scaled down to the limit */
    png = cd_render_png(cat, view, 300, &plen);
    ck_assert_ptr_nonnull(png);
    unsigned w = (unsigned)png[16] << 24 | (unsigned)png[17] << 16 | (unsigned)png[18] << 8 | png[19];
    unsigned h = (unsigned)png[20] << 24 | (unsigned)png[21] << 16 | (unsigned)png[22] << 8 | png[23];
    ck_assert_msg(w <= 301 && h <= 301, "%ux%u over a 300 px limit", w, h);
    free(png);
    json_decref(view);
}
END_TEST

START_TEST(odd_views_are_drawn)
{
    const carc_catalog *cat = cd_catalog();
    static const char *const views[] = {
        "{}",
        "{\"board\":[]}",
        "{\"board\":[{\"tile\":\"nope\",\"x\":0,\"y\":0,\"rot\":0}],\"figures\":[{\"seat\":9,\"figure\":\"x\",\"piece\":7,\"part\":\"c1\"}]}",
        "{\"board\":[{\"tile\":\"D\",\"x\":0,\"y\":0,\"rot\":0}],\"figures\":[{\"seat\":0,\"figure\":\"wizard\",\"piece\":0,\"part\":\"r1\"},"
        "{\"seat\":1,\"figure\":\"meeple\",\"piece\":0,\"part\":\"zz\"}],\"players\":[{\"name\":\"\\u00e9\\u00e8\",\"score\":1}]}",
        NULL};
    for (int i = 0; views[i]; i++) {
        json_t *v = json_loads(views[i], 0, NULL);
        ck_assert_ptr_nonnull(v);
        size_t len, plen;
        char *svg = cd_render_svg(cat, v, &len);
        ck_assert_msg(strstr(svg, "</svg>"), "view %d", i);
        unsigned char *png = cd_render_png(cat, v, 1000, &plen);
        ck_assert_ptr_nonnull(png);
        free(png);
        free(svg);
        json_decref(v);
    }
}
END_TEST

/* A long name is cut for the legend at a character boundary, never inside one: "a" + 31 x "é" is 63 bytes
 * whose 60th and 61st bytes are one "é", so a cut at 60 bytes would leave half a character (an SVG that is
 * not UTF-8, a PNG cairo refuses). */
START_TEST(long_name_cut_at_a_character)
{
    const carc_catalog *cat = cd_catalog();
    char name[80] = "a", want[80] = "a";
    for (int i = 0; i < 31; i++)
        strcat(name, "\xc3\xa9");
    for (int i = 0; i < 29; i++)
        strcat(want, "\xc3\xa9");
    strcat(want, "  7<");   /* the cut name, then the score */
    json_t *v = json_pack("{s:[{s:s, s:i, s:i, s:i}], s:[{s:i, s:i, s:s}, {s:i, s:i, s:s}], s:{s:s, s:i}}", "board",
                          "tile", "D", "x", 0, "y", 0, "rot", 0, "players", "seat", 0, "score", 7, "name", name, "seat",
                          1, "score", 0, "name", "Bob", "pending", "kind", "figure", "seat", 1);
    ck_assert_ptr_nonnull(v);
    size_t len, plen;
    char *svg = cd_render_svg(cat, v, &len);
    json_t *utf8 = json_stringn(svg, len);   /* jansson refuses text that is not UTF-8 */
    ck_assert_msg(utf8, "the SVG is not UTF-8");
    json_decref(utf8);
    ck_assert_msg(strstr(svg, want), "the name is not cut after 29 characters");
    free(svg);
    unsigned char *png = cd_render_png(cat, v, 1000, &plen);
    ck_assert_msg(png, "no PNG for a long name");
    free(png);
    json_decref(v);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("render");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_tile_in_every_rotation);
    tcase_add_test(tc, odd_views_are_drawn);
    tcase_add_test(tc, long_name_cut_at_a_character);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
