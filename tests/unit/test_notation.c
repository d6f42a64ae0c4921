/*
 * test_notation.c — the text notation (engine/notation.h): over every legal move of random games with every
 * mix of expansions and 2 to 6 seats, the canonical notation parses back to exactly that move, in any case,
 * and names no other move of the decision; descriptions of figure moves name a feature, sides and a label;
 * bad input is refused with the right code and a reason; the tile data leaves the words unambiguous.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation.h"
#include "testutil.h"

static bool same_move(const carc_move *a, const carc_move *b)
{
    return memcmp(a, b, sizeof *a) == 0;   /* moves are built with every unused field zero */
}

static void recase(const char *in, char *out, bool upper)
{
    size_t i = 0;
    for (; in[i]; i++)
        out[i] = (char)(upper ? toupper((unsigned char)in[i]) : tolower((unsigned char)in[i]));
    out[i] = 0;
}

/* ck_assert without its per-call bookkeeping (Check writes a mark to its pipe at every ck_assert, which is most
 * of this test's time over tens of thousands of moves): fails the test only when cond is false. */
#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond))                                                                                       \
            ck_abort_msg(__VA_ARGS__);                                                                     \
    } while (0)

/* Every legal move of st: notation → parse → the same move, as written and in upper or lower case;
 * notations distinct. */
static void check_decision(const carc_state *st, unsigned *kinds_seen)
{
    carc_moves m = {0};
    carc_legal_moves(st, st->pending.seat, &m);
    CHECK(m.n > 0, "no legal move");
    char (*names)[CARC_NOTATION_MAX] = malloc(m.n * sizeof *names);
    for (size_t i = 0; i < m.n; i++) {
        char text[CARC_NOTATION_MAX], other[CARC_NOTATION_MAX], err[256];
        int n = carc_move_notation(st, &m.v[i], text, sizeof text);
        CHECK(n > 0 && (size_t)n == strlen(text), "move kind %d has no notation", m.v[i].kind);
        carc_move back;
        for (int c = 0; c < 3; c += c == 0 ? 1 + (int)(i % 2) : 3) {   /* as written, then upper or lower case */
            if (c == 0)
                snprintf(other, sizeof other, "%s", text);
            else
                recase(text, other, c == 1);
            int rc = carc_notation_parse(st, other, strlen(other), &back, err, sizeof err);
            CHECK(rc == 0, "\"%s\" (pending %d) does not parse back: %s", other, st->pending.kind, err);
            CHECK(same_move(&back, &m.v[i]), "\"%s\" parses to another move", other);
        }
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(names[j], text) != 0, "two legal moves are both \"%s\"", text);
        snprintf(names[i], sizeof names[i], "%s", text);
        carc_move_desc d;
        carc_move_describe(st, &m.v[i], &d);
        bool figure = m.v[i].kind == CARC_MV_FIGURE || m.v[i].kind == CARC_MV_CC_FIGURE ||
                      m.v[i].kind == CARC_MV_ABBOT_RETURN;
        CHECK(d.figure == figure, "\"%s\": described as a figure move: %d", text, d.figure);
        if (figure) {
            CHECK(d.feature < CARC_NPART_KINDS, "\"%s\": feature %u", text, d.feature);
            CHECK(strstr(d.label, carc_feature_name(d.feature)), "\"%s\": label \"%s\"", text, d.label);
            bool monastic = d.feature == CARC_PART_CLOISTER || d.feature == CARC_PART_GARDEN;
            CHECK(monastic == (d.nsides == 0), "\"%s\": %u sides for a %s", text, d.nsides,
                  carc_feature_name(d.feature));
        }
        *kinds_seen |= 1u << m.v[i].kind;
    }
    free(names);
    carc_moves_free(&m);
}

static void play_and_check(int game, unsigned *kinds_seen)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2 + game % 5;
    s.expansions = (uint8_t)((game % 16) << 1 | 1);
    s.opt[CARC_OPT_ABBOT] = (uint8_t)(game / 16 % 2);
    s.opt[CARC_OPT_HALFLINGS_DEAL] = (uint8_t)(game / 2 % 2);
    s.opt[CARC_OPT_CC_ADD] = (uint8_t)(game / 4 % 2);
    s.opt[CARC_OPT_CC_ADD_WHERE] = (uint8_t)(game / 8 % 2);
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(game * 37 + i);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err) == 0, "%s", err);
    carc_rng r;
    uint8_t key[32] = {(uint8_t)game, 9};
    carc_rng_seed(&r, key);
    carc_moves m = {0};
    for (int steps = 0; st->status == CARC_ACTIVE; steps++) {
        CHECK(steps < 2000, "a game of more than 2000 decisions");
        check_decision(st, kinds_seen);
        carc_legal_moves(st, st->pending.seat, &m);
        /* prefer figures, so that crop circles and abbots have something to act on */
        size_t pick = carc_rng_below(&r, (uint32_t)m.n);
        if (m.n > 1 && m.v[pick].kind == CARC_MV_PASS && carc_rng_below(&r, 4) != 0)
            pick = 1 + carc_rng_below(&r, (uint32_t)m.n - 1);
        CHECK(carc_apply(st, st->pending.seat, &m.v[pick], NULL, err, sizeof err) == 0, "%s", err);
    }
    carc_moves_free(&m);
    free(st);
}

START_TEST(every_legal_move_round_trips)
{
    unsigned seen = 0;
    for (int game = 0; game < 32; game++)   /* every mix of expansions, with and without the abbot */
        play_and_check(game, &seen);
    for (int k = 0; k < CARC_NMOVE_KINDS; k++)
        ck_assert_msg(seen >> k & 1, "no game offered a move of kind %d", k);
}
END_TEST

/* A base game with the stack E F ...: D at 0,0 (city north), E waits to be placed. */
static carc_state *base_game(void)
{
    carc_setup s;
    carc_setup_defaults(&s);
    s.nplayers = 2;
    const char *ids[] = {"E", "U", "B", "V", "K"};
    s.nstack = 5;
    for (int i = 0; i < 5; i++)
        s.stack[i] = (uint8_t)carc_catalog_find(tu_catalog(), ids[i]);
    carc_state *st = malloc(sizeof *st);
    char err[256];
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(st->pending.kind, CARC_PENDING_PLACE);
    return st;
}

static int parse(const carc_state *st, const char *text, carc_move *m, char *err, size_t errlen)
{
    return carc_notation_parse(st, text, strlen(text), m, err, errlen);
}

/* Parses `text` into a move and applies it. */
static void play_text(carc_state *st, const char *text)
{
    carc_move m;
    char err[256];
    ck_assert_msg(parse(st, text, &m, err, sizeof err) == 0, "\"%s\": %s", text, err);
    ck_assert_msg(carc_apply(st, st->pending.seat, &m, NULL, err, sizeof err) == 0, "%s", err);
}

static void refused(const carc_state *st, const char *text, int code, const char *says)
{
    carc_move m;
    char err[256] = "";
    int rc = parse(st, text, &m, err, sizeof err);
    ck_assert_msg(rc == code, "\"%s\": expected %d, got %d (%s)", text, code, rc, err);
    ck_assert_msg(strstr(err, says), "\"%s\": the reason \"%s\" does not say \"%s\"", text, err, says);
}

START_TEST(short_forms_and_case)
{
    carc_state *st = base_game();
    carc_move m, full;
    char err[256], text[CARC_NOTATION_MAX];
    /* E with its city facing D's city: rotation 2 is the only fit at 0,-1 */
    ck_assert_int_eq(parse(st, "E 0,-1 r2", &full, err, sizeof err), 0);
    ck_assert_int_eq(carc_move_notation(st, &full, text, sizeof text), (int)strlen("E 0,-1 r2"));
    ck_assert_str_eq(text, "E 0,-1 r2");
    const char *same[] = {"e 0,-1 2", "0,-1 r2", "0 -1", "(0, -1) R2", "  E   0 , -1  "};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        ck_assert_msg(parse(st, same[i], &m, err, sizeof err) == 0, "\"%s\": %s", same[i], err);
        ck_assert(same_move(&m, &full));
    }
    play_text(st, "E 0,-1 r2");
    /* E's city now faces south, onto D's */
    ck_assert_int_eq(parse(st, "MEEPLE City s", &m, err, sizeof err), 0);
    ck_assert_int_eq(m.kind, CARC_MV_FIGURE);
    carc_move_desc d;
    carc_move_describe(st, &m, &d);
    ck_assert_str_eq(d.label, "meeple on the city");
    ck_assert_uint_eq(d.nsides, 1);
    ck_assert_str_eq(d.sides[0], "S");
    ck_assert_int_eq(carc_move_notation(st, &m, text, sizeof text), (int)strlen("meeple city"));
    ck_assert_int_eq(parse(st, "meeple c1", &full, err, sizeof err), 0);   /* the part name, as a fallback */
    ck_assert(same_move(&m, &full));
    ck_assert_int_eq(parse(st, "meeple field", &m, err, sizeof err), 0);
    carc_move_describe(st, &m, &d);
    ck_assert_uint_eq(d.nsides, 3);
    ck_assert_str_eq(d.sides[0], "N");
    ck_assert_int_eq(parse(st, "PASS", &m, err, sizeof err), 0);
    ck_assert_int_eq(m.kind, CARC_MV_PASS);
    free(st);
}
END_TEST

START_TEST(half_edges_name_fields)
{
    carc_state *st = base_game();
    play_text(st, "E 0,-1 r2");
    play_text(st, "pass");
    /* U turned to run east-west below D: its fields lie north and south of the road */
    play_text(st, "U 0,1 r1");
    carc_move m;
    char err[256], text[CARC_NOTATION_MAX];
    ck_assert_int_eq(parse(st, "meeple field Wn", &m, err, sizeof err), 0);
    ck_assert_int_eq(carc_move_notation(st, &m, text, sizeof text) > 0, 1);
    carc_move_desc d;
    carc_move_describe(st, &m, &d);
    ck_assert_str_eq(d.label, "meeple on the field to the north");
    ck_assert_str_eq(text, "meeple field N");
    ck_assert_uint_eq(d.nsides, 3);
    ck_assert_str_eq(d.sides[0], "N");
    ck_assert_str_eq(d.sides[1], "En");
    ck_assert_str_eq(d.sides[2], "Wn");
    carc_move south;
    ck_assert_int_eq(parse(st, "meeple field es", &south, err, sizeof err), 0);
    ck_assert(!same_move(&m, &south));
    /* E alone touches both fields: half-edges tell them apart */
    refused(st, "meeple field E", CARC_E_INVALID, "say which: \"field N\", \"field S\"");
    refused(st, "meeple road N", CARC_E_ILLEGAL, "no road of tile U at 0,1 touches N (its road: E W)");
    free(st);
}
END_TEST

START_TEST(bad_input_is_refused_with_a_reason)
{
    carc_state *st = base_game();
    char big[10240];
    memset(big, 'a', sizeof big);
    carc_move m;
    char err[256];
    ck_assert_int_eq(carc_notation_parse(st, big, sizeof big, &m, err, sizeof err), CARC_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "too long"));
    refused(st, "E 0,-1\x07r2", CARC_E_INVALID, "control character 0x07");
    refused(st, "E 0,-1\nr2", CARC_E_INVALID, "control character 0x0a");
    refused(st, "E 0,-1 r2\xc3\xa9", CARC_E_INVALID, "0xc3");
    refused(st, "E 0,-1 r2!", CARC_E_INVALID, "brackets, '-', '+' and '_' only");   /* what the lexer takes, named */
    refused(st, "", CARC_E_INVALID, "empty");
    refused(st, "   ", CARC_E_INVALID, "empty");
    refused(st, "jump", CARC_E_INVALID, "unknown word \"jump\"");
    refused(st, "E 0", CARC_E_INVALID, "position");
    refused(st, "E 0,-1 r7", CARC_E_INVALID, "rotation");
    refused(st, "E 0,-1 ne", CARC_E_INVALID, "square");
    refused(st, "E 0,-1 r2 now", CARC_E_INVALID, "unexpected \"now\"");
    refused(st, "E 0,99999", CARC_E_INVALID, "position");
    refused(st, "grow", CARC_E_ILLEGAL, "waits for a tile placement");
    refused(st, "meeple city N", CARC_E_ILLEGAL, "waits for a tile placement");
    refused(st, "F 0,-1 r2", CARC_E_ILLEGAL, "the tile to place is E, not F");
    refused(st, "E 5,5 r0", CARC_E_ILLEGAL, "does not fit at 5,5");
    refused(st, "E 0,-1 r0", CARC_E_ILLEGAL, "it fits there as: r2");
    play_text(st, "E 0,-1 r2");
    refused(st, "meeple city N", CARC_E_ILLEGAL, "no city of tile E at 0,-1 touches N (its city: S)");
    refused(st, "meeple road", CARC_E_ILLEGAL, "has no road");
    refused(st, "meeple lake", CARC_E_INVALID, "no feature");
    refused(st, "meeple city Q", CARC_E_INVALID, "no side");
    refused(st, "abbot city", CARC_E_ILLEGAL, "not a legal move");
    refused(st, "E 0,-2 r2", CARC_E_ILLEGAL, "waits for a figure or pass");
    refused(st, "pass now", CARC_E_INVALID, "unexpected");
    refused(st, "return abbot", CARC_E_ILLEGAL, "not a legal move");
    free(st);
}
END_TEST

START_TEST(the_data_keeps_words_apart)
{
    static const char *const words[] = {"pass", "draw", "grow", "stable", "harvest", "sell", "skip", "draft",
                                        "take", "pick", "add", "remove", "return", "meeple", "abbot",
                                        "shepherd", "abbot_return"};
    const carc_catalog *cat = tu_catalog();
    for (int i = 0; i < cat->ntypes; i++) {
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
            ck_assert_msg(strcasecmp(cat->types[i].id, words[w]) != 0, "tile id %s is a keyword", cat->types[i].id);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcasecmp(cat->types[i].id, cat->types[j].id) != 0, "tile ids %s and %s differ in case only",
                          cat->types[i].id, cat->types[j].id);
        for (int p = 0; p < cat->types[i].nparts; p++)
            for (int k = 0; k < CARC_MAX_PLACES; k++)
                ck_assert_msg(strcasecmp(cat->types[i].parts[p].name, carc_place_name(k)) != 0,
                              "part %s of %s reads as a side", cat->types[i].parts[p].name, cat->types[i].id);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("notation");
    TCase *tc = tcase_create("notation");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_legal_move_round_trips);
    tcase_add_test(tc, short_forms_and_case);
    tcase_add_test(tc, half_edges_name_fields);
    tcase_add_test(tc, bad_input_is_refused_with_a_reason);
    tcase_add_test(tc, the_data_keeps_words_apart);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
