/*
 * test_json.c — the JSON codec: snapshots round-tripped (and their text, carc_state_to_json_text, checked
 * against the tree's) at every step of whole random games, moves (their text, carc_moves_to_json_text,
 * against the tree's too), events,
 * the three views, and the strict decoders' rejections with their messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------------------------------------ */
static char *dump(const json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);
    ck_assert_ptr_nonnull(s);
    return s;
}

static void assert_json_text(const json_t *j, const char *want)
{
    char *s = dump(j);
    ck_assert_str_eq(s, want);
    free(s);
}

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(j != NULL, "bad test json: %s: %s", text, e.text);
    return j;
}

static void setup_game(carc_setup *s, int game)
{
    carc_setup_defaults(s);
    s->nplayers = 2 + game % 5;
    s->opt[CARC_OPT_ABBOT] = (uint8_t)(game % 2);
    if (game % 4 == 2) {   /* crop circles, both add options flipped every other such game */
        s->expansions |= 1u << CARC_SET_CROP_CIRCLES;
        s->opt[CARC_OPT_CC_ADD_WHERE] = s->opt[CARC_OPT_CC_ADD] = (uint8_t)(game / 4 % 2);
    }
    if (game % 4 == 0)   /* hills & sheep, the house rule and the count tie-break every other such game */
        s->expansions |= 1u << CARC_SET_HILLS_SHEEP;
    if (game % 8 == 4)
        s->opt[CARC_OPT_HILL_TAKES_TILE] = 0, s->opt[CARC_OPT_HILL_TIEBREAK] = 1;
    if (game % 4 == 3 || game % 8 == 0) {   /* halflings (with hills every 8th game), the draft every other one */
        s->expansions |= 1u << CARC_SET_HALFLINGS;
        s->opt[CARC_OPT_HALFLINGS_DEAL] = (uint8_t)(game / 4 % 2);
    }
    if (game % 8 == 5 || game % 8 == 0 || game % 8 == 2) {   /* fruit trees, alone or with the others */
        s->expansions |= 1u << CARC_SET_FRUIT_TREES;
        s->opt[CARC_OPT_FRUIT_ACTIONS] = (uint8_t)(game / 8 % 2);
        s->opt[CARC_OPT_FRUIT_MAX_SET] = (uint8_t)(game / 16 % 2);
    }
    for (int i = 0; i < 32; i++)
        s->seed[i] = (uint8_t)(game * 31 + i * 7);
}

static carc_state *new_game(int game, carc_events *ev)
{
    carc_setup s;
    char err[256];
    setup_game(&s, game);
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    ck_assert_msg(carc_game_new(st, tu_catalog(), &s, ev, err, sizeof err) == 0, "game_new: %s", err);
    return st;
}

static void chooser(carc_rng *r, int game)
{
    uint8_t key[32] = {0};
    key[0] = (uint8_t)game;
    key[1] = 0xc5;
    carc_rng_seed(r, key);
}

/* Plays one move chosen uniformly among the legal ones. */
static void play_random(carc_state *st, carc_rng *r, carc_events *ev)
{
    carc_moves ms = {0};
    char err[256];
    carc_legal_moves(st, st->pending.seat, &ms);
    ck_assert_uint_gt(ms.n, 0);
    carc_move mv = ms.v[carc_rng_below(r, (uint32_t)ms.n)];
    carc_moves_free(&ms);
    ck_assert_msg(carc_apply(st, st->pending.seat, &mv, ev, err, sizeof err) == 0, "apply: %s", err);
}

/* Check records every passing assertion in a file, which is slow in loops this hot: these check quietly
 * and fail loudly. */
#define SAME(x)                                                                                         \
    do {                                                                                                \
        if ((long long)(a->x) != (long long)(b->x))                                                     \
            ck_abort_msg("%s differs: %lld vs %lld", #x, (long long)(a->x), (long long)(b->x));         \
    } while (0)
#define SAME_MEM(x, n)                                                                                  \
    do {                                                                                                \
        if (memcmp(a->x, b->x, n) != 0)                                                                 \
            ck_abort_msg("%s differs", #x);                                                             \
    } while (0)

/* Every canonical field, one by one, so a failure names the field. */
static void assert_state_eq(const carc_state *a, const carc_state *b)
{
    ck_assert_ptr_eq(a->cat, b->cat);
    SAME_MEM(opt, sizeof a->opt);
    SAME(expansions);
    SAME(nplayers);
    SAME(status);
    SAME(active);
    SAME(turn);
    for (int s = 0; s < a->nplayers; s++)
        SAME(players[s].score);
    SAME_MEM(rng.key, sizeof a->rng.key);
    SAME(rng.pos);
    SAME(stack_len);
    SAME(stack_pos);
    SAME_MEM(stack, a->stack_len);
    SAME(ndiscarded);
    SAME_MEM(discarded, a->ndiscarded);
    SAME(npieces);
    for (int i = 0; i < a->npieces; i++) {
        SAME(pieces[i].x);
        SAME(pieces[i].y);
        SAME(pieces[i].type);
        SAME(pieces[i].rot);
        SAME(pieces[i].under);
    }
    SAME(nfigures);
    for (int i = 0; i < a->nfigures; i++) {
        SAME(figures[i].seat);
        SAME(figures[i].kind);
        SAME(figures[i].piece);
        SAME(figures[i].part);
    }
    SAME(pending.kind);
    SAME(pending.seat);
    if (a->pending.kind == CARC_PENDING_PLACE)
        SAME(pending.tile);
    if (a->pending.kind == CARC_PENDING_FIGURE)
        SAME(pending.piece);
}

/* Encodes st, decodes it into *out, checks the two agree field by field and re-encode to the same text. */
static void roundtrip_state(const carc_state *st, carc_state *out)
{
    char err[256];
    json_t *j = carc_state_to_json(st);
    if (carc_state_from_json(out, st->cat, j, err, sizeof err) != 0)
        ck_abort_msg("decode: %s", err);
    assert_state_eq(st, out);
    json_t *k = carc_state_to_json(out);
    char *a = json_dumps(j, JSON_COMPACT), *b = json_dumps(k, JSON_COMPACT);
    if (!a || !b || strcmp(a, b) != 0)
        ck_abort_msg("re-encoded snapshot differs:\n%s\n%s", a, b);
    /* the text written without the tree is the tree's text, with the seed and without it */
    char *t = carc_state_to_json_text(st, true);
    if (!t || strcmp(t, a) != 0)
        ck_abort_msg("carc_state_to_json_text differs:\n%s\n%s", t, a);
    free(t);
    json_object_del(json_object_get(j, "rng"), "seed");
    free(a);
    a = json_dumps(j, JSON_COMPACT);
    t = carc_state_to_json_text(st, false);
    if (!a || !t || strcmp(t, a) != 0)
        ck_abort_msg("carc_state_to_json_text without the seed differs:\n%s\n%s", t, a);
    free(t);
    free(a);
    free(b);
    json_decref(j);
    json_decref(k);
}

/* Every legal move of st encodes, decodes to the identical carc_move, and reads the same against dec. */
static void roundtrip_moves(const carc_state *st, const carc_state *dec, const carc_moves *ms,
                            int seen[CARC_NMOVE_KINDS])
{
    char err[256];
    for (size_t i = 0; i < ms->n; i++) {
        carc_move back;
        json_t *j = carc_move_to_json(st, &ms->v[i]);
        if (!j)
            ck_abort_msg("legal move %zu cannot be encoded", i);
        if (carc_move_from_json(st, j, &back, err, sizeof err) != 0)
            ck_abort_msg("move decode: %s", err);
        if (memcmp(&back, &ms->v[i], sizeof back) != 0)
            ck_abort_msg("move %zu decodes to another move", i);
        if (carc_move_from_json(dec, j, &back, err, sizeof err) != 0 || memcmp(&back, &ms->v[i], sizeof back) != 0)
            ck_abort_msg("move %zu reads differently against the decoded state", i);
        seen[ms->v[i].kind]++;
        json_decref(j);
    }
}

/* ---- round trips over whole games --------------------------------------------------------------------- */
/* At every step: the snapshot round-trips; the decoded state offers the same legal moves, every one of which
 * round-trips; and the decoded state, given the chosen move, produces the same events and the same next
 * state as the original. */
START_TEST(state_roundtrip_whole_games)
{
    int seen[CARC_NMOVE_KINDS] = {0};
    for (int game = 0; game < 40; game++) {
        carc_events eva = {0}, evb = {0};
        carc_state *a = new_game(game, &eva);
        carc_state *b = malloc(sizeof *b);
        carc_rng r;
        char err[256];
        chooser(&r, game);
        for (;;) {
            roundtrip_state(a, b);
            if (a->status == CARC_FINISHED)
                break;
            int seat = a->pending.seat;
            carc_moves ma = {0}, mb = {0};
            carc_legal_moves(a, seat, &ma);
            carc_legal_moves(b, seat, &mb);
            if (ma.n == 0 || ma.n != mb.n || memcmp(ma.v, mb.v, ma.n * sizeof *ma.v) != 0)
                ck_abort_msg("game %d turn %d: the decoded state offers other moves", game, a->turn);
            roundtrip_moves(a, b, &ma, seen);
            /* the legal moves' text written without the tree is the tree's text */
            json_t *mj = carc_moves_to_json(a, &ma);
            char *mt = carc_moves_to_json_text(a, &ma), *md = json_dumps(mj, JSON_COMPACT);
            if (!mt || !md || strcmp(mt, md) != 0)
                ck_abort_msg("game %d turn %d: carc_moves_to_json_text differs:\n%s\n%s", game, a->turn, mt, md);
            free(mt);
            free(md);
            json_decref(mj);
            carc_move mv = ma.v[carc_rng_below(&r, (uint32_t)ma.n)];
            carc_moves_free(&ma);
            carc_moves_free(&mb);
            carc_events_clear(&eva);
            carc_events_clear(&evb);
            if (carc_apply(a, seat, &mv, &eva, err, sizeof err) != 0)
                ck_abort_msg("apply: %s", err);
            if (carc_apply(b, seat, &mv, &evb, err, sizeof err) != 0)
                ck_abort_msg("apply to the decoded state: %s", err);
            json_t *ja = carc_events_to_json(a, &eva, CARC_VIEW_ADMIN), *jb = carc_events_to_json(b, &evb,
                                                                                              CARC_VIEW_ADMIN);
            json_t *sa = carc_state_to_json(a), *sb = carc_state_to_json(b);
            if (!json_equal(ja, jb) || !json_equal(sa, sb))
                ck_abort_msg("game %d turn %d: the decoded state played differently", game, a->turn);
            json_decref(ja);
            json_decref(jb);
            json_decref(sa);
            json_decref(sb);
        }
        carc_events_free(&eva);
        carc_events_free(&evb);
        free(a);
        free(b);
    }
    for (int k = 0; k < 4; k++)
        ck_assert_msg(seen[k] > 0, "no %s move seen in 40 games", k == 0 ? "place" : k == 1 ? "figure"
                                                                  : k == 2 ? "pass" : "abbot_return");
    for (int k = CARC_MV_CC_ADD; k <= CARC_MV_CC_SKIP; k++)   /* games 2, 6, 10, ... play crop circles */
        ck_assert_msg(seen[k] > 0, "no crop circle move of kind %d seen in 40 games", k);
    ck_assert_msg(seen[CARC_MV_GROW] > 0 && seen[CARC_MV_STABLE] > 0, "no grow or stable seen in 40 games");
    ck_assert_msg(seen[CARC_MV_DRAW] > 0 && seen[CARC_MV_DRAFT] > 0, "no draw or draft seen in 40 games");
    ck_assert_msg(seen[CARC_MV_HARVEST] > 0 && seen[CARC_MV_SELL] > 0, "no harvest or sale seen in 40 games");
}
END_TEST

/* The snapshot's exact shape at the start of a scripted game. */
START_TEST(state_shape)
{
    carc_setup s;
    carc_events ev = {0};
    char err[256];
    carc_state *st = malloc(sizeof *st);
    const carc_catalog *cat = tu_catalog();
    carc_setup_defaults(&s);
    s.nplayers = 2;
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)i;
    s.nstack = 2;
    s.stack[0] = (uint8_t)carc_catalog_find(cat, "E");
    s.stack[1] = (uint8_t)carc_catalog_find(cat, "U");
    ck_assert_msg(carc_game_new(st, cat, &s, &ev, err, sizeof err) == 0, "%s", err);
    json_t *j = carc_state_to_json(st);
    char want[2048];
    snprintf(want, sizeof want,
             "{\"version\":1,\"nplayers\":2,\"expansions\":[],\"options\":{\"abbot\":false,"
             "\"hill_takes_tile\":true,\"hill_tiebreak\":\"at_least_one\",\"crop_circle_add_where\":\"same_tile\","
             "\"crop_circle_add\":\"optional\",\"fruit_actions\":\"one\",\"fruit_max_set\":4,"
             "\"halflings_deal\":\"random\",\"ask_forced\":false,\"river\":false},\"status\":\"active\","
             "\"active\":0,\"turn\":1,"
             "\"players\":[{\"seat\":0,\"score\":0},{\"seat\":1,\"score\":0}],"
             "\"rng\":{\"seed\":\"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\",\"pos\":%llu},"
             "\"stack\":[\"E\",\"U\"],\"stack_pos\":1,\"discarded\":[],"
             "\"pieces\":[{\"tile\":\"D\",\"x\":0,\"y\":0,\"rot\":0}],\"figures\":[],"
             "\"pending\":{\"kind\":\"place\",\"seat\":0,\"tile\":\"E\"},"
             "\"turn_state\":{\"phase\":\"place\",\"piece\":-1,\"figure\":-1,\"fruit_done\":0},\"left\":[]}",
             (unsigned long long)st->rng.pos);
    assert_json_text(j, want);
    json_decref(j);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* "under" and figures appear in the snapshot and come back. */
START_TEST(state_under_and_figures)
{
    carc_events ev = {0};
    carc_rng r;
    char err[256];
    carc_state *st = new_game(3, &ev);
    carc_state *back = malloc(sizeof *back);
    chooser(&r, 3);
    while (st->nfigures == 0 && st->status == CARC_ACTIVE)
        play_random(st, &r, &ev);
    ck_assert_uint_gt(st->nfigures, 0);
    st->pieces[0].under = (uint8_t)carc_catalog_find(st->cat, "X");
    json_t *j = carc_state_to_json(st);
    json_t *p0 = json_array_get(json_object_get(j, "pieces"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(p0, "under")), "X");
    json_t *f0 = json_array_get(json_object_get(j, "figures"), 0);
    const carc_figure *f = &st->figures[0];
    ck_assert_int_eq(json_integer_value(json_object_get(f0, "piece")), f->piece);
    ck_assert_str_eq(json_string_value(json_object_get(f0, "part")),
                     st->cat->types[st->pieces[f->piece].type].parts[f->part].name);
    ck_assert_msg(carc_state_from_json(back, st->cat, j, err, sizeof err) == 0, "%s", err);
    assert_state_eq(st, back);
    json_decref(j);
    carc_events_free(&ev);
    free(st);
    free(back);
}
END_TEST

/* ---- decoder rejections ------------------------------------------------------------------------------- */
/* A real snapshot in the middle of a game with at least one figure on the board. */
static json_t *mid_game_snapshot(carc_state **out)
{
    carc_events ev = {0};
    carc_rng r;
    carc_state *st = new_game(1, &ev);
    chooser(&r, 1);
    for (int i = 0; i < 30 || st->nfigures == 0; i++)
        play_random(st, &r, &ev);
    carc_events_free(&ev);
    ck_assert_uint_eq(st->status, CARC_ACTIVE);
    json_t *j = carc_state_to_json(st);
    if (out)
        *out = st;
    else
        free(st);
    return j;
}

/* Applies `edit` (a JSON object merged into the snapshot at `path`: "" = top level, "pieces/1" = an element)
 * and expects the decoder to fail with `code` and a message starting with `want`. */
static void expect_state_error(const char *path, const char *edit, const char *want)
{
    json_t *j = mid_game_snapshot(NULL);
    json_t *target = j;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "/"); tok; tok = strtok(NULL, "/"))
        target = json_is_array(target) ? json_array_get(target, (size_t)atoi(tok)) : json_object_get(target, tok);
    ck_assert_ptr_nonnull(target);
    json_t *e = parse(edit);
    const char *k;
    json_t *v;
    json_object_foreach(e, k, v) {
        if (json_is_null(v))
            json_object_del(target, k);   /* null in an edit deletes the member */
        else
            json_object_set(target, k, v);
    }
    carc_state *st = malloc(sizeof *st);
    char err[256] = "";
    int rc = carc_state_from_json(st, tu_catalog(), j, err, sizeof err);
    ck_assert_int_eq(rc, CARC_E_INVALID);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got \"%s\", want \"%s...\"", err, want);
    free(st);
    json_decref(e);
    json_decref(j);
}

START_TEST(state_rejections)
{
    expect_state_error("", "{\"turn\":null}", "turn: missing field");
    expect_state_error("", "{\"extra\":1}", "extra: unknown field");
    expect_state_error("", "{\"version\":2}", "version: expected an integer 1..1");
    expect_state_error("", "{\"nplayers\":7}", "nplayers: expected an integer 2..6");
    expect_state_error("", "{\"nplayers\":\"2\"}", "nplayers: expected an integer");
    expect_state_error("", "{\"status\":\"paused\"}", "status: expected one of \"active\", \"finished\"");
    expect_state_error("", "{\"status\":\"finished\"}", "pending.kind: must be \"none\"");
    expect_state_error("", "{\"active\":5}", "active: expected an integer 0..2");
    expect_state_error("", "{\"turn\":1.5}", "turn: expected an integer 0..65535");
    expect_state_error("", "{\"expansions\":[\"base\"]}", "expansions[0]: expected one of \"hills_sheep\"");
    expect_state_error("", "{\"expansions\":[\"halflings\",\"halflings\"]}",
                       "expansions[1]: \"halflings\" listed twice");
    expect_state_error("", "{\"expansions\":{}}", "expansions: expected an array");
    expect_state_error("options", "{\"abbot\":\"yes\"}", "options.abbot: expected true or false");
    expect_state_error("options", "{\"hill_tiebreak\":null}", "options.hill_tiebreak: missing field");
    expect_state_error("options", "{\"flood\":true}", "options.flood: unknown option");
    expect_state_error("options", "{\"river\":1}", "options.river: expected true or false");
    expect_state_error("options", "{\"fruit_max_set\":5}", "options.fruit_max_set: expected 4 or 6");
    expect_state_error("options", "{\"halflings_deal\":\"auction\"}",
                       "options.halflings_deal: expected one of \"random\", \"draft\"");
    expect_state_error("", "{\"players\":[]}", "players: expected 3 entries");
    expect_state_error("players/1", "{\"seat\":0}", "players[1].seat: expected an integer 1..1");
    expect_state_error("players/2", "{\"score\":4294967296}", "players[2].score: expected an integer");
    expect_state_error("players/0", "{\"name\":\"Ann\"}", "players[0].name: unknown field");
    expect_state_error("rng", "{\"seed\":\"abc\"}", "rng.seed: expected 64 lower-case hex digits");
    expect_state_error("rng", "{\"seed\":\"000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f\"}",
                       "rng.seed: expected 64 lower-case hex digits");
    expect_state_error("rng", "{\"seed\":\"G00102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\"}",
                       "rng.seed: expected 64 lower-case hex digits");   /* a bad high digit (fuzz find) */
    expect_state_error("rng", "{\"pos\":-1}", "rng.pos: expected an integer 0..");
    expect_state_error("", "{\"stack\":[\"D\",7]}", "stack[1]: expected a string");
    expect_state_error("", "{\"stack\":[\"D\",\"ZZ\"]}", "stack[1]: unknown tile id \"ZZ\"");
    expect_state_error("", "{\"stack\":[\"D\",\"HS03\"]}",
                       "stack[1]: tile \"HS03\" is not in the sets of this game");
    expect_state_error("", "{\"stack_pos\":200}", "stack_pos: expected an integer 0..");
    expect_state_error("", "{\"discarded\":\"X\"}", "discarded: expected an array of at most 128 entries");
    expect_state_error("pieces/1", "{\"rot\":4}", "pieces[1].rot: expected an integer 0..3");
    expect_state_error("pieces/1", "{\"x\":32768}", "pieces[1].x: expected an integer -32768..32767");
    expect_state_error("pieces/1", "{\"tile\":\"Q9\"}", "pieces[1].tile: unknown tile id \"Q9\"");
    expect_state_error("pieces/1", "{\"y\":null}", "pieces[1].y: missing field");
    expect_state_error("pieces/1", "{\"under\":\"nope\"}", "pieces[1].under: unknown tile id \"nope\"");
    expect_state_error("pieces/1", "{\"hill\":true}", "pieces[1].hill: unknown field");
    expect_state_error("pieces/1", "{\"x\":40,\"y\":40}", "pieces[1]: ");   /* the rebuild: does not fit */
    expect_state_error("figures/0", "{\"part\":\"zz\"}", "figures[0].part: unknown part \"zz\" on tile");
    expect_state_error("figures/0", "{\"piece\":999}", "figures[0].piece: expected an integer 0..");
    expect_state_error("figures/0", "{\"seat\":3}", "figures[0].seat: expected an integer 0..2");
    expect_state_error("figures/0", "{\"figure\":\"shepherd\"}", "figures[0].figure: seat ");
    expect_state_error("figures/0", "{\"figure\":\"wizard\"}", "figures[0].figure: expected one of \"meeple\"");
    expect_state_error("pending", "{\"kind\":\"none\",\"seat\":null,\"tile\":null,\"piece\":null}",
                       "pending.kind: must be \"none\" exactly when the game is finished");
    expect_state_error("pending", "{\"kind\":\"place\",\"seat\":0,\"tile\":\"D\",\"piece\":0}",
                       "pending.piece: unknown field");
    expect_state_error("pending", "{\"kind\":\"figure\",\"seat\":0,\"tile\":null,\"piece\":999}",
                       "pending.piece: expected an integer 0..");
    expect_state_error("pending", "{\"kind\":\"wait\"}", "pending.kind: expected one of \"none\"");
}
END_TEST

START_TEST(state_rejections_whole)
{
    carc_state *st = malloc(sizeof *st);
    char err[256];
    json_t *j = parse("[1,2]");
    ck_assert_int_eq(carc_state_from_json(st, tu_catalog(), j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "expected an object");
    json_decref(j);
    j = parse("{}");
    ck_assert_int_eq(carc_state_from_json(st, tu_catalog(), j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "version: missing field");
    json_decref(j);
    /* too many meeples of one seat */
    j = mid_game_snapshot(NULL);
    json_t *figs = json_object_get(j, "figures");
    json_t *f0 = json_deep_copy(json_array_get(figs, 0));
    json_object_set_new(f0, "seat", json_integer(0));
    json_array_clear(figs);
    for (int i = 0; i < 8; i++)
        json_array_append(figs, f0);
    json_decref(f0);
    ck_assert_int_eq(carc_state_from_json(st, tu_catalog(), j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "figures[7].figure: seat 0 has only 7 meeples in this game");
    json_decref(j);
    free(st);
}
END_TEST

/* ---- moves -------------------------------------------------------------------------------------------- */
/* Decodes `text` against st, expecting `code` and a message starting with `want`. */
static void expect_move_error(const carc_state *st, const char *text, int code, const char *want)
{
    carc_move m;
    char err[256] = "";
    json_t *j = parse(text);
    ck_assert_int_eq(carc_move_from_json(st, j, &m, err, sizeof err), code);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: got \"%s\", want \"%s...\"", text, err, want);
    json_decref(j);
}

/* A state waiting for a figure, and one waiting for a tile. */
static void two_states(carc_state **figure, carc_state **place)
{
    carc_events ev = {0};
    carc_rng r;
    *figure = new_game(5, &ev);
    chooser(&r, 5);
    while ((*figure)->pending.kind != CARC_PENDING_FIGURE)
        play_random(*figure, &r, &ev);
    *place = new_game(5, &ev);
    carc_events_free(&ev);
}

START_TEST(move_shapes)
{
    carc_state *fs, *ps;
    two_states(&fs, &ps);
    const carc_catalog *cat = tu_catalog();
    carc_move m = {.kind = CARC_MV_PLACE, .tile = (uint8_t)carc_catalog_find(cat, "U"), .x = -3, .y = 2, .rot = 1};
    json_t *j = carc_move_to_json(ps, &m);
    assert_json_text(j, "{\"type\":\"place\",\"tile\":\"U\",\"x\":-3,\"y\":2,\"rot\":1}");
    json_decref(j);
    m = (carc_move){.kind = CARC_MV_PASS};
    j = carc_move_to_json(ps, &m);
    assert_json_text(j, "{\"type\":\"pass\"}");
    json_decref(j);
    m = (carc_move){.kind = CARC_MV_ABBOT_RETURN};
    j = carc_move_to_json(ps, &m);
    assert_json_text(j, "{\"type\":\"abbot_return\"}");
    json_decref(j);
    /* a figure is named on the pending piece; without one it cannot be named */
    const carc_tile_type *t = &cat->types[fs->pieces[fs->pending.piece].type];
    m = (carc_move){.kind = CARC_MV_FIGURE, .fig = CARC_FIG_MEEPLE, .part = 0};
    j = carc_move_to_json(fs, &m);
    char want[128];
    snprintf(want, sizeof want, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"%s\"}", t->parts[0].name);
    assert_json_text(j, want);
    json_decref(j);
    ck_assert_ptr_null(carc_move_to_json(ps, &m));
    m.part = t->nparts;
    ck_assert_ptr_null(carc_move_to_json(fs, &m));
    /* the legal-moves array */
    carc_moves ms = {0};
    carc_legal_moves(fs, fs->pending.seat, &ms);
    j = carc_moves_to_json(fs, &ms);
    ck_assert_uint_eq(json_array_size(j), ms.n);
    assert_json_text(json_array_get(j, 0), "{\"type\":\"pass\",\"notation\":\"pass\"}");
    /* described moves: posted back verbatim they are the same moves; the description is only ignored */
    for (size_t i = 0; i < ms.n; i++) {
        carc_move back;
        char err[256];
        json_t *e = json_array_get(j, i);
        ck_assert_ptr_nonnull(json_object_get(e, "notation"));
        if (ms.v[i].kind == CARC_MV_FIGURE) {
            ck_assert_ptr_nonnull(json_object_get(e, "feature"));
            ck_assert(json_is_array(json_object_get(e, "sides")));
            ck_assert(json_is_string(json_object_get(e, "label")));
        }
        ck_assert_msg(carc_move_from_json(fs, e, &back, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(memcmp(&back, &ms.v[i], sizeof back), 0);
        json_object_set_new(e, "colour", json_string("red"));   /* but nothing else is ignored */
        ck_assert_int_eq(carc_move_from_json(fs, e, &back, err, sizeof err), CARC_E_INVALID);
    }
    json_decref(j);
    carc_moves_free(&ms);
    free(fs);
    free(ps);
}
END_TEST

START_TEST(move_rejections)
{
    carc_state *fs, *ps;
    two_states(&fs, &ps);
    expect_move_error(ps, "[]", CARC_E_INVALID, "expected an object");
    expect_move_error(ps, "{}", CARC_E_INVALID, "type: missing field");
    expect_move_error(ps, "{\"type\":\"jump\"}", CARC_E_INVALID,
                      "type: expected one of \"place\", \"figure\", \"pass\", \"abbot_return\"");
    expect_move_error(ps, "{\"type\":3}", CARC_E_INVALID, "type: expected one of");
    expect_move_error(ps, "{\"type\":\"pass\",\"x\":1}", CARC_E_INVALID, "x: unknown field");
    expect_move_error(ps, "{\"type\":\"pass\",\"color\":1}", CARC_E_INVALID, "color: unknown field");
    expect_move_error(ps, "{\"type\":\"abbot_return\",\"part\":\"c1\"}", CARC_E_INVALID, "part: unknown field");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":1}", CARC_E_INVALID,
                      "rot: missing field");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":1,\"rot\":4}", CARC_E_INVALID,
                      "rot: expected an integer 0..3");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":1,\"rot\":-1}", CARC_E_INVALID,
                      "rot: expected an integer 0..3");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":40000,\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "x: expected an integer -32768..32767");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":-32769,\"rot\":0}", CARC_E_INVALID,
                      "y: expected an integer -32768..32767");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":\"0\",\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "x: expected an integer");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":1.0,\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "x: expected an integer");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":null,\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "x: expected an integer");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"ZZ\",\"x\":0,\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "tile: unknown tile id \"ZZ\"");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":5,\"x\":0,\"y\":1,\"rot\":0}", CARC_E_INVALID,
                      "tile: expected a string");
    expect_move_error(ps, "{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":1,\"rot\":0,\"part\":\"c1\"}",
                      CARC_E_INVALID, "part: unknown field");
    expect_move_error(ps, "{\"type\":\"figure\",\"figure\":\"meeple\"}", CARC_E_INVALID, "part: missing field");
    expect_move_error(ps, "{\"type\":\"figure\",\"figure\":\"wizard\",\"part\":\"c1\"}", CARC_E_INVALID,
                      "figure: expected one of \"meeple\", \"abbot\", \"shepherd\"");
    expect_move_error(ps, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"c1\"}", CARC_E_ILLEGAL,
                      "part: no piece was placed this turn");
    expect_move_error(fs, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"zz\"}", CARC_E_INVALID,
                      "part: unknown part \"zz\" on tile \"");
    expect_move_error(fs, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":[]}", CARC_E_INVALID,
                      "part: expected a string");
    expect_move_error(fs, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"f1\",\"x\":0}", CARC_E_INVALID,
                      "x: unknown field");
    free(fs);
    free(ps);
}
END_TEST

/* A state the game has finished refuses figure moves as such. */
START_TEST(move_after_game_over)
{
    carc_events ev = {0};
    carc_rng r;
    carc_state *st = new_game(2, &ev);
    chooser(&r, 2);
    while (st->status == CARC_ACTIVE)
        play_random(st, &r, &ev);
    carc_events_free(&ev);
    expect_move_error(st, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"c1\"}", CARC_E_FINISHED,
                      "the game is over");
    expect_move_error(st, "{\"type\":\"pass\",\"x\":1}", CARC_E_INVALID, "x: unknown field");
    free(st);
}
END_TEST

/* ---- events ------------------------------------------------------------------------------------------- */
/* A two-tile scripted game: E closes the start tile's city with a meeple on it. */
START_TEST(events_scripted)
{
    const carc_catalog *cat = tu_catalog();
    carc_setup s;
    carc_events ev = {0};
    char err[256];
    carc_state *st = malloc(sizeof *st);
    carc_setup_defaults(&s);
    s.nstack = 1;
    s.stack[0] = (uint8_t)carc_catalog_find(cat, "E");
    ck_assert_msg(carc_game_new(st, cat, &s, &ev, err, sizeof err) == 0, "%s", err);
    json_t *j = carc_events_to_json(st, &ev, CARC_VIEW_PUBLIC);
    assert_json_text(j, "[{\"type\":\"game_started\",\"tile\":\"D\",\"x\":0,\"y\":0,\"rot\":0},"
                        "{\"type\":\"turn\",\"seat\":0},{\"type\":\"tile_drawn\",\"seat\":0,\"tile\":\"E\"}]");
    json_decref(j);

    carc_events_clear(&ev);
    carc_move mv = {.kind = CARC_MV_PLACE, .tile = s.stack[0], .x = 0, .y = -1, .rot = 2};
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    j = carc_events_to_json(st, &ev, 0);
    assert_json_text(j, "[{\"type\":\"piece_placed\",\"seat\":0,\"tile\":\"E\",\"x\":0,\"y\":-1,\"rot\":2}]");
    json_decref(j);

    carc_events_clear(&ev);
    json_t *jm = parse("{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"c1\"}");
    ck_assert_msg(carc_move_from_json(st, jm, &mv, err, sizeof err) == 0, "%s", err);
    json_decref(jm);
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    j = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
    char *text = dump(j);
    ck_assert_msg(strstr(text, "{\"type\":\"figure_placed\",\"seat\":0,\"figure\":\"meeple\",\"x\":0,\"y\":-1,"
                               "\"part\":\"c1\"}") == text + 1, "%s", text);
    ck_assert_msg(strstr(text, "{\"type\":\"figure_returned\",\"seat\":0,\"figure\":\"meeple\",\"x\":0,\"y\":-1,"
                               "\"part\":\"c1\"}"), "%s", text);
    ck_assert_msg(strstr(text, "{\"type\":\"game_over\",\"scores\":[4,0]}"), "%s", text);
    free(text);
    /* the city's score event: shape and spaces (in any order) */
    json_t *score = NULL;
    for (size_t i = 0; i < json_array_size(j); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(j, i), "type")), "score") == 0)
            score = json_array_get(j, i);
    ck_assert_ptr_nonnull(score);
    ck_assert_uint_eq(json_object_size(score), 6);
    text = dump(json_object_get(score, "seats"));
    ck_assert_str_eq(text, "[0]");
    free(text);
    ck_assert_int_eq(json_integer_value(json_object_get(score, "points")), 4);
    ck_assert_str_eq(json_string_value(json_object_get(score, "feature")), "city");
    ck_assert_str_eq(json_string_value(json_object_get(score, "reason")), "completed");
    text = dump(json_object_get(score, "spaces"));
    ck_assert_msg(strcmp(text, "[[0,0],[0,-1]]") == 0 || strcmp(text, "[[0,-1],[0,0]]") == 0, "%s", text);
    free(text);
    /* the per-viewer filter also applies to stored admin renderings; the base game hides nothing */
    json_t *pub = carc_events_to_json(st, &ev, CARC_VIEW_PUBLIC);
    ck_assert(json_equal(pub, j));
    json_decref(pub);
    for (size_t i = 0; i < json_array_size(j); i++) {
        json_t *seen = carc_event_for_viewer(json_array_get(j, i), 1);
        ck_assert_ptr_nonnull(seen);
        ck_assert(json_equal(seen, json_array_get(j, i)));
        json_decref(seen);
    }
    json_decref(j);
    carc_events_free(&ev);
    free(st);
}
END_TEST

/* Checks one event's members: exactly `keys`, with the JSON kind each letter says (i int, s string, b bool,
 * a array). */
static void assert_event_shape(const json_t *e, const char *const *keys, const char *kinds)
{
    size_t n = 0;
    for (; keys[n]; n++) {
        const json_t *v = json_object_get(e, keys[n]);
        ck_assert_msg(v != NULL, "event lacks %s", keys[n]);
        switch (kinds[n]) {
        case 'i': ck_assert(json_is_integer(v)); break;
        case 's': ck_assert(json_is_string(v)); break;
        case 'b': ck_assert(json_is_boolean(v)); break;
        case 'o': ck_assert(json_is_object(v)); break;
        default: ck_assert(json_is_array(v)); break;
        }
    }
    ck_assert_uint_eq(json_object_size(e), n + 1);   /* + "type" */
}

/* Every event of whole games has its shape, and the score events add up to the final scores. */
START_TEST(events_whole_games)
{
    static const char *const k_place[] = {"tile", "x", "y", "rot", NULL};
    static const char *const k_drawn[] = {"seat", "tile", NULL};
    static const char *const k_disc[] = {"tile", NULL};
    static const char *const k_placed[] = {"seat", "tile", "x", "y", "rot", NULL};
    static const char *const k_fig[] = {"seat", "figure", "x", "y", "part", NULL};
    static const char *const k_score[] = {"seats", "points", "feature", "reason", "spaces", NULL};
    static const char *const k_seat[] = {"seat", NULL};
    static const char *const k_passed[] = {"seat", "forced", NULL};
    static const char *const k_over[] = {"scores", NULL};
    int seen_score = 0, seen_forced = 0;
    for (int game = 0; game < 10; game++) {
        carc_events ev = {0};
        carc_rng r;
        carc_state *st = new_game(game, &ev);
        int32_t sum[CARC_MAX_PLAYERS] = {0};
        int over = 0;
        chooser(&r, game);
        for (;;) {
            int viewer = game % 3 == 0 ? CARC_VIEW_PUBLIC : game % 3 - 1;
            json_t *a = carc_events_to_json(st, &ev, viewer);
            size_t dropped = 0;   /* a triangle dealt to another seat is not shown at all */
            for (size_t i = 0; i < ev.n; i++)
                dropped += ev.v[i].kind == CARC_EV_TRIANGLE_DEALT && ev.v[i].seat != viewer;
            ck_assert_uint_eq(json_array_size(a) + dropped, ev.n);   /* the rest is shown, maybe redacted */
            for (size_t i = 0; i < json_array_size(a); i++) {
                const json_t *e = json_array_get(a, i);
                const char *type = json_string_value(json_object_get(e, "type"));
                ck_assert_ptr_nonnull(type);
                if (!strcmp(type, "game_started"))
                    assert_event_shape(e, k_place, "siii");
                else if (!strcmp(type, "tile_drawn"))
                    assert_event_shape(e, k_drawn, "is");
                else if (!strcmp(type, "tile_discarded"))
                    assert_event_shape(e, k_disc, "s");
                else if (!strcmp(type, "piece_placed"))
                    assert_event_shape(e, k_placed, "isiii");
                else if ((!strcmp(type, "figure_placed") || !strcmp(type, "figure_returned")) &&
                         json_object_get(e, "corner")) {   /* on a triangle: which half of the space */
                    static const char *const k_fig_tri[] = {"seat", "figure", "x", "y", "part", "corner", NULL};
                    assert_event_shape(e, k_fig_tri, "isiisi");
                } else if (!strcmp(type, "figure_placed") || !strcmp(type, "figure_returned"))
                    assert_event_shape(e, k_fig, "isiis");
                else if (!strcmp(type, "turn"))
                    assert_event_shape(e, k_seat, "i");
                else if (!strcmp(type, "passed"))
                    assert_event_shape(e, k_passed, "ib");
                else if (!strcmp(type, "game_over")) {
                    assert_event_shape(e, k_over, "a");
                    json_t *sc = json_object_get(e, "scores");
                    ck_assert_uint_eq(json_array_size(sc), st->nplayers);
                    for (int s = 0; s < st->nplayers; s++)
                        ck_assert_int_eq(json_integer_value(json_array_get(sc, (size_t)s)), sum[s]);
                    over++;
                } else if (!strcmp(type, "hill_covered")) {   /* the tile under it: admins only */
                    static const char *const k_hill[] = {"x", "y", NULL};
                    assert_event_shape(e, k_hill, "ii");
                } else if (!strcmp(type, "token_drawn")) {
                    const json_t *t = json_object_get(e, "token");
                    ck_assert(json_is_integer(t) || (json_is_string(t) && !strcmp(json_string_value(t), "wolf")));
                    ck_assert(json_is_integer(json_object_get(e, "seat")) && json_object_size(e) == 5);
                } else if (!strcmp(type, "flock_scattered")) {
                    static const char *const k_scat[] = {"seat", "x", "y", NULL};
                    assert_event_shape(e, k_scat, "iii");
                } else if (!strcmp(type, "triangle_dealt") || !strcmp(type, "triangle_drafted")) {
                    assert_event_shape(e, k_drawn, "is");
                    ck_assert(strcmp(type, "triangle_dealt") || json_integer_value(json_object_get(e, "seat")) == viewer);
                } else if (!strcmp(type, "crop_circle_chosen")) {
                    static const char *const k_cc_chosen[] = {"seat", "choice", "kind", NULL};
                    assert_event_shape(e, k_cc_chosen, "iss");
                } else if (!strcmp(type, "crop_circle_skipped")) {
                    static const char *const k_cc_skipped[] = {"seat", "kind", "whole_action", NULL};
                    assert_event_shape(e, k_cc_skipped, "isb");
                } else if (!strcmp(type, "tree_stocked")) {   /* fruit: never the values */
                    static const char *const k_tree[] = {"seat", "x", "y", "fruit", NULL};
                    assert_event_shape(e, k_tree, "iiis");
                } else if (!strcmp(type, "harvested")) {
                    static const char *const k_harv[] = {"seat", "fruit", "value", "x", "y", NULL};
                    assert_event_shape(e, k_harv, "isiii");
                } else if (!strcmp(type, "sold")) {
                    static const char *const k_sold[] = {"seat", "fruits", "points", NULL};
                    assert_event_shape(e, k_sold, "iai");
                } else if (!strcmp(type, "forced_move")) {   /* the one legal move, made by the engine */
                    static const char *const k_forced[] = {"seat", "by", "move", NULL};
                    assert_event_shape(e, k_forced, "iso");
                    ck_assert_str_eq(json_string_value(json_object_get(e, "by")), "forced");
                    seen_forced++;
                } else {
                    ck_assert_str_eq(type, "score");
                    assert_event_shape(e, k_score, "aissa");
                    const json_t *seats = json_object_get(e, "seats"), *sp = json_object_get(e, "spaces");
                    const char *why = json_string_value(json_object_get(e, "reason"));
                    ck_assert_uint_gt(json_array_size(seats), 0);
                    if (strcmp(why, "sell") && strcmp(why, "fruit_final"))   /* fruit sales and the final count: no space */
                        ck_assert_uint_gt(json_array_size(sp), 0);
                    for (size_t k = 0; k < json_array_size(sp); k++) {
                        const json_t *xy = json_array_get(sp, k);
                        ck_assert(json_is_array(xy) && json_array_size(xy) == 2);
                        ck_assert(json_is_integer(json_array_get(xy, 0)) && json_is_integer(json_array_get(xy, 1)));
                    }
                    for (size_t k = 0; k < json_array_size(seats); k++)
                        sum[json_integer_value(json_array_get(seats, k))] +=
                            (int32_t)json_integer_value(json_object_get(e, "points"));
                    seen_score++;
                }
            }
            json_decref(a);
            if (st->status == CARC_FINISHED)
                break;
            carc_events_clear(&ev);
            play_random(st, &r, &ev);
        }
        ck_assert_int_eq(over, 1);
        for (int s = 0; s < st->nplayers; s++)
            ck_assert_int_eq(st->players[s].score, sum[s]);
        carc_events_free(&ev);
        free(st);
    }
    ck_assert_int_gt(seen_score, 0);
    ck_assert_int_gt(seen_forced, 0);   /* random games meet decisions with one legal move */
}
END_TEST

/* The filter over stored admin events gives every viewer what carc_events_to_json gives it, at every step of
 * whole games; events of a type the rule does not know, and anything that is not an event, are admin-only;
 * the input is never changed. */
START_TEST(events_json_filter)
{
    static const int viewers[] = {CARC_VIEW_PUBLIC, CARC_VIEW_ADMIN, 0, 1, 2, 5};
    for (int game = 0; game < 4; game++) {
        carc_events ev = {0};
        carc_rng r;
        carc_state *st = new_game(game, &ev);
        chooser(&r, game);
        for (;;) {
            json_t *admin = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
            char *before = dump(admin);
            for (size_t v = 0; v < sizeof viewers / sizeof viewers[0]; v++) {
                json_t *want = carc_events_to_json(st, &ev, viewers[v]);
                json_t *got = carc_events_json_filter(admin, viewers[v]);
                ck_assert_ptr_ne(got, admin);
                ck_assert_msg(json_equal(got, want), "game %d viewer %d", game, viewers[v]);
                json_decref(got);
                json_decref(want);
            }
            char *after = dump(admin);
            ck_assert_str_eq(before, after);
            free(before);
            free(after);
            json_decref(admin);
            if (st->status == CARC_FINISHED)
                break;
            carc_events_clear(&ev);
            play_random(st, &r, &ev);
        }
        carc_events_free(&ev);
        free(st);
    }

    json_t *odd = parse("[{\"type\":\"turn\",\"seat\":1},{\"type\":\"sheep_drawn\",\"seat\":0,\"token\":\"wolf\"},"
                        "{\"seat\":0},{\"type\":7},3,\"turn\",null,{\"type\":\"game_over\",\"scores\":[1,2]}]");
    json_t *pub = carc_events_json_filter(odd, CARC_VIEW_PUBLIC);
    assert_json_text(pub, "[{\"type\":\"turn\",\"seat\":1},{\"type\":\"game_over\",\"scores\":[1,2]}]");
    json_decref(pub);
    json_t *seat0 = carc_events_json_filter(odd, 0);
    assert_json_text(seat0, "[{\"type\":\"turn\",\"seat\":1},{\"type\":\"game_over\",\"scores\":[1,2]}]");
    json_decref(seat0);
    json_t *adm = carc_events_json_filter(odd, CARC_VIEW_ADMIN);
    ck_assert(json_equal(adm, odd));
    json_decref(adm);
    json_decref(odd);

    json_t *not_array = parse("{\"type\":\"turn\",\"seat\":0}");
    json_t *none = carc_events_json_filter(not_array, CARC_VIEW_ADMIN);
    assert_json_text(none, "[]");
    json_decref(none);
    json_decref(not_array);
    none = carc_events_json_filter(NULL, CARC_VIEW_PUBLIC);
    assert_json_text(none, "[]");
    json_decref(none);
}
END_TEST

/* ---- views -------------------------------------------------------------------------------------------- */
static void seed_hex(const carc_state *st, char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", st->rng.key[i]);
}

/* The remaining stack as it would appear in JSON: "U","V","D",... */
static void remaining_text(const carc_state *st, char *out, size_t n)
{
    size_t len = 0;
    for (int i = st->stack_pos; i < st->stack_len && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s\"%s\"", i > st->stack_pos ? "," : "",
                                st->cat->types[st->stack[i]].id);
}

START_TEST(views_hide_secrets)
{
    carc_state *st;
    json_t *snap = mid_game_snapshot(&st);
    json_decref(snap);
    ck_assert_int_ge(st->stack_len - st->stack_pos, 10);
    st->pieces[1].under = st->stack[st->stack_len - 1];   /* as if a hill had taken a tile */
    char seed[65], rest[1024];
    seed_hex(st, seed);
    remaining_text(st, rest, sizeof rest);
    int viewers[] = {CARC_VIEW_PUBLIC, 0, 1, 2, 7, -9};
    for (size_t v = 0; v < sizeof viewers / sizeof viewers[0]; v++) {
        json_t *j = carc_view_to_json(st, viewers[v]);
        char *text = dump(j);
        ck_assert_msg(!strstr(text, seed), "seed in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, rest), "remaining stack in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, "\"stack\""), "stack in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, "\"rng\""), "rng in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, "\"stack_pos\""), "stack_pos in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, "\"stack_remaining\""), "stack_remaining in view %d", viewers[v]);
        ck_assert_msg(!strstr(text, "\"under\""), "under in view %d", viewers[v]);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "stack_left")), st->stack_len - st->stack_pos);
        json_t *you = json_object_get(j, "you");
        if (viewers[v] >= 0 && viewers[v] < st->nplayers)
            ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), viewers[v]);
        else
            ck_assert_ptr_null(you);
        json_t *pl = json_array_get(json_object_get(j, "players"), 1);
        json_t *supply = json_object_get(pl, "supply");
        ck_assert_int_eq(json_integer_value(json_object_get(supply, "meeple")), carc_supply(st, 1, CARC_FIG_MEEPLE));
        ck_assert_int_eq(json_integer_value(json_object_get(supply, "abbot")), carc_supply(st, 1, CARC_FIG_ABBOT));
        ck_assert_ptr_null(json_object_get(supply, "shepherd"));
        free(text);
        json_decref(j);
    }
    json_t *j = carc_view_to_json(st, CARC_VIEW_ADMIN);
    char *text = dump(j);
    ck_assert(strstr(text, seed));
    ck_assert(strstr(text, rest));
    ck_assert(strstr(text, "\"stack\""));
    ck_assert(strstr(text, "\"under\""));
    ck_assert_ptr_null(json_object_get(j, "you"));
    json_t *remaining = json_object_get(j, "stack_remaining");
    ck_assert_uint_eq(json_array_size(remaining), (size_t)(st->stack_len - st->stack_pos));
    ck_assert_str_eq(json_string_value(json_array_get(remaining, 0)), st->cat->types[st->stack[st->stack_pos]].id);
    free(text);
    json_decref(j);
    free(st);
}
END_TEST

/* Pending, players and board are the same in every view; the view adds only the conveniences. */
START_TEST(views_shape)
{
    carc_state *st;
    json_t *snap = mid_game_snapshot(&st);
    json_t *pub = carc_view_to_json(st, CARC_VIEW_PUBLIC);
    static const char *const same[] = {"version", "nplayers", "expansions", "options", "status", "active",
                                       "turn", "discarded", "figures", "pending", "left", NULL};
    for (const char *const *k = same; *k; k++)
        ck_assert_msg(json_equal(json_object_get(pub, *k), json_object_get(snap, *k)), "%s differs", *k);
    ck_assert_uint_eq(json_object_size(pub), 14);
    json_t *pieces = json_object_get(pub, "pieces");
    ck_assert_uint_eq(json_array_size(pieces), st->npieces);
    json_t *p1 = json_array_get(pieces, 1);
    ck_assert_uint_eq(json_object_size(p1), 4);   /* tile x y rot: base tiles show no hill */
    json_t *adm = carc_view_to_json(st, CARC_VIEW_ADMIN);
    json_t *stripped = json_deep_copy(adm);
    json_object_del(stripped, "stack_remaining");
    json_object_del(stripped, "stack_left");
    json_object_set(stripped, "players", json_object_get(snap, "players"));
    ck_assert(json_equal(stripped, snap));   /* admin = snapshot + conveniences */
    json_decref(stripped);
    json_decref(adm);
    json_decref(pub);
    json_decref(snap);
    free(st);
}
END_TEST

/* A hill tile shows "hill": true to everyone, and what lies under it only to admins. */
START_TEST(views_hill)
{
    const carc_catalog *cat = tu_catalog();
    carc_setup s;
    carc_events ev = {0};
    char err[256];
    carc_state *st = malloc(sizeof *st);
    carc_setup_defaults(&s);
    s.expansions |= 1u << CARC_SET_HILLS_SHEEP;
    s.nstack = 2;
    s.stack[0] = (uint8_t)carc_catalog_find(cat, "HS03");   /* city N+W, hill */
    s.stack[1] = (uint8_t)carc_catalog_find(cat, "U");
    ck_assert_msg(carc_game_new(st, cat, &s, &ev, err, sizeof err) == 0, "%s", err);
    carc_move mv = {.kind = CARC_MV_PLACE, .tile = s.stack[0], .x = 0, .y = -1, .rot = 2};
    ck_assert_msg(carc_apply(st, 0, &mv, &ev, err, sizeof err) == 0, "%s", err);
    carc_events_free(&ev);
    st->pieces[1].under = s.stack[1];
    json_t *pub = carc_view_to_json(st, 1);
    json_t *p1 = json_array_get(json_object_get(pub, "pieces"), 1);
    ck_assert(json_is_true(json_object_get(p1, "hill")));
    ck_assert_ptr_null(json_object_get(p1, "under"));
    ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(pub, "pieces"), 0), "hill"));
    json_t *supply = json_object_get(json_array_get(json_object_get(pub, "players"), 0), "supply");
    ck_assert_ptr_nonnull(json_object_get(supply, "shepherd"));
    json_t *adm = carc_view_to_json(st, CARC_VIEW_ADMIN);
    p1 = json_array_get(json_object_get(adm, "pieces"), 1);
    ck_assert(json_is_true(json_object_get(p1, "hill")));
    ck_assert_str_eq(json_string_value(json_object_get(p1, "under")), "U");
    json_decref(pub);
    json_decref(adm);
    free(st);
}
END_TEST

/* ---- options and expansions (for game creation) -------------------------------------------------------- */
START_TEST(options_partial)
{
    carc_setup s;
    char err[256];
    carc_setup_defaults(&s);
    json_t *j = parse("{\"abbot\":true,\"fruit_max_set\":6,\"hill_tiebreak\":\"count\"}");
    ck_assert_int_eq(carc_options_from_json(s.opt, j, true, err, sizeof err), 0);
    ck_assert_uint_eq(s.opt[CARC_OPT_ABBOT], 1);
    ck_assert_uint_eq(s.opt[CARC_OPT_FRUIT_MAX_SET], 1);
    ck_assert_uint_eq(s.opt[CARC_OPT_HILL_TIEBREAK], 1);
    ck_assert_uint_eq(s.opt[CARC_OPT_HILL_TAKES_TILE], 1);   /* the default stays */
    ck_assert_int_eq(carc_options_from_json(s.opt, j, false, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "options.hill_takes_tile: missing field");
    json_decref(j);
    /* a stored game from before ask_forced existed asked for every decision, and reads so */
    j = carc_options_to_json(s.opt);
    json_object_del(j, "ask_forced");
    s.opt[CARC_OPT_ASK_FORCED] = 0;
    ck_assert_int_eq(carc_options_from_json(s.opt, j, false, err, sizeof err), 0);
    ck_assert_uint_eq(s.opt[CARC_OPT_ASK_FORCED], 1);
    s.opt[CARC_OPT_ASK_FORCED] = 0;
    ck_assert_int_eq(carc_options_from_json(s.opt, j, true, err, sizeof err), 0);   /* creation: the default */
    ck_assert_uint_eq(s.opt[CARC_OPT_ASK_FORCED], 0);
    json_decref(j);
    /* the river: a stored game from before it existed was played without it; {"river": true} turns it on */
    j = carc_options_to_json(s.opt);
    json_object_del(j, "river");
    s.opt[CARC_OPT_RIVER] = 1;
    ck_assert_int_eq(carc_options_from_json(s.opt, j, false, err, sizeof err), 0);
    ck_assert_uint_eq(s.opt[CARC_OPT_RIVER], 0);
    json_decref(j);
    j = parse("{\"river\":true}");
    ck_assert_int_eq(carc_options_from_json(s.opt, j, true, err, sizeof err), 0);
    ck_assert_uint_eq(s.opt[CARC_OPT_RIVER], 1);
    json_decref(j);
    j = carc_options_to_json(s.opt);
    ck_assert(json_is_true(json_object_get(j, "river")));
    json_decref(j);
    j = carc_options_to_json(s.opt);
    uint8_t back[CARC_NOPTS];
    ck_assert_int_eq(carc_options_from_json(back, j, false, err, sizeof err), 0);
    ck_assert_mem_eq(back, s.opt, sizeof back);
    json_decref(j);
    j = parse("[]");
    ck_assert_int_eq(carc_options_from_json(s.opt, j, true, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "options: expected an object");
    json_decref(j);

    uint8_t sets;
    j = parse("[\"crop_circles\",\"hills_sheep\"]");
    ck_assert_int_eq(carc_expansions_from_json(&sets, j, err, sizeof err), 0);
    ck_assert_uint_eq(sets, 1u << CARC_SET_BASE | 1u << CARC_SET_HILLS_SHEEP | 1u << CARC_SET_CROP_CIRCLES);
    json_decref(j);
    j = carc_expansions_to_json(sets);
    assert_json_text(j, "[\"hills_sheep\",\"crop_circles\"]");
    json_decref(j);
    j = parse("[\"river\"]");   /* the river is the option river (base box), not an expansion */
    ck_assert_int_eq(carc_expansions_from_json(&sets, j, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "expansions[0]: expected one of \"hills_sheep\", \"crop_circles\", \"fruit_trees\", "
                          "\"halflings\"");
    json_decref(j);
}
END_TEST

/* A tiny error buffer truncates the message but never overflows. */
START_TEST(short_error_buffer)
{
    carc_move m;
    char err[8];
    memset(err, 'x', sizeof err);
    json_t *j = parse("{\"type\":\"place\",\"tile\":\"U\",\"x\":0,\"y\":0,\"rot\":9}");
    carc_state *fs, *ps;
    two_states(&fs, &ps);
    ck_assert_int_eq(carc_move_from_json(ps, j, &m, err, sizeof err), CARC_E_INVALID);
    ck_assert_str_eq(err, "rot: ex");
    ck_assert_int_eq(carc_move_from_json(ps, j, &m, NULL, 0), CARC_E_INVALID);
    json_decref(j);
    free(fs);
    free(ps);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("state");
    tcase_set_timeout(tc, 180);   /* ASan on a busy machine: each step also checks the snapshot text */
    tcase_add_test(tc, state_roundtrip_whole_games);
    tcase_add_test(tc, state_shape);
    tcase_add_test(tc, state_under_and_figures);
    tcase_add_test(tc, state_rejections);
    tcase_add_test(tc, state_rejections_whole);
    suite_add_tcase(s, tc);
    tc = tcase_create("move");
    tcase_add_test(tc, move_shapes);
    tcase_add_test(tc, move_rejections);
    tcase_add_test(tc, move_after_game_over);
    tcase_add_test(tc, short_error_buffer);
    suite_add_tcase(s, tc);
    tc = tcase_create("events");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, events_scripted);
    tcase_add_test(tc, events_whole_games);
    tcase_add_test(tc, events_json_filter);
    suite_add_tcase(s, tc);
    tc = tcase_create("views");
    tcase_add_test(tc, views_hide_secrets);
    tcase_add_test(tc, views_shape);
    tcase_add_test(tc, views_hill);
    tcase_add_test(tc, options_partial);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(json_suite());
}
