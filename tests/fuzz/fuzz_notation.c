/*
 * fuzz_notation.c — libFuzzer target for the notation parser (engine/notation.h): bytes →
 * carc_notation_parse against one state per decision kind of a fixed-seed game with every expansion. A
 * notation that parses must give a legal move of that decision whose canonical notation parses back to it, and
 * the move must apply; a refused one must say why.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_notation: %s%s%s\n", what, err ? ": " : "", err ? err : "");
    abort();
}

/* states[k]: the first state of the set-up games waiting for decision kind k (cat NULL when none came). */
static carc_state states[CARC_NPENDING];
static bool ready;

static void setup_states(void)
{
    static carc_catalog cat;
    static carc_state st;
    char err[256];
    if (carc_catalog_load(&cat, err, sizeof err) != 0)
        fail("catalog", err);
    for (int game = 0; game < 4; game++) {
        carc_setup s;
        carc_setup_defaults(&s);
        s.nplayers = 3 + game % 2;
        s.expansions = 0x1f;
        s.opt[CARC_OPT_ABBOT] = 1;
        s.opt[CARC_OPT_HALFLINGS_DEAL] = (uint8_t)(game % 2);
        for (int i = 0; i < 32; i++)
            s.seed[i] = (uint8_t)(0x5a ^ (i + game));
        if (carc_game_new(&st, &cat, &s, NULL, err, sizeof err) != 0)
            fail("game_new", err);
        carc_rng r;
        uint8_t key[32] = {(uint8_t)(11 + game)};
        carc_rng_seed(&r, key);
        carc_moves ms = {0};
        while (st.status == CARC_ACTIVE) {
            if (states[st.pending.kind].cat == NULL && st.turn > 3)
                states[st.pending.kind] = st;
            carc_legal_moves(&st, st.pending.seat, &ms);
            if (ms.n == 0)
                fail("no legal move in a set-up game", NULL);
            size_t pick = carc_rng_below(&r, (uint32_t)ms.n);
            if (ms.n > 1 && ms.v[pick].kind == CARC_MV_PASS)
                pick = 1;   /* figures on the board give the crop circles something to do */
            if (carc_apply(&st, st.pending.seat, &ms.v[pick], NULL, err, sizeof err) != 0)
                fail("set-up move refused", err);
        }
        carc_moves_free(&ms);
    }
    ready = true;
}

static void check(const carc_state *st, const uint8_t *data, size_t size)
{
    static carc_state copy;
    carc_move m, back;
    char err[256] = "", text[CARC_NOTATION_MAX];
    if (carc_notation_parse(st, (const char *)data, size, &m, err, sizeof err) != 0) {
        if (!err[0])
            fail("a refusal without a reason", NULL);
        return;
    }
    int n = carc_move_notation(st, &m, text, sizeof text);
    if (n <= 0)
        fail("a parsed move has no notation", NULL);
    if (carc_notation_parse(st, text, (size_t)n, &back, err, sizeof err) != 0 || memcmp(&m, &back, sizeof m) != 0)
        fail("a canonical notation does not parse back", err);
    carc_move_desc d;
    carc_move_describe(st, &m, &d);
    memcpy(&copy, st, sizeof copy);
    if (carc_apply(&copy, st->pending.seat, &m, NULL, err, sizeof err) != 0)
        fail("a parsed move is refused", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup_states();
    for (int k = 0; k < CARC_NPENDING; k++)
        if (states[k].cat)
            check(&states[k], data, size);
    return 0;
}
