/*
 * fuzz_move_json.c — libFuzzer target for the move decoder: bytes → json_loadb → carc_move_from_json, against
 * two real states of one fixed-seed game (one waiting for a tile, one for a figure). A move that decodes must
 * encode back to itself, and carc_apply on a copy must not crash and must leave the state byte for byte
 * unchanged when it refuses the move.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_move_json: %s%s%s\n", what, err ? ": " : "", err ? err : "");
    abort();
}

/* states[0] waits for a tile, states[1] for a figure; built once (a static is fine in a fuzz harness). */
static carc_state states[2];

static void play(carc_state *st, carc_rng *r, carc_events *ev)
{
    carc_moves ms = {0};
    char err[256];
    carc_legal_moves(st, st->pending.seat, &ms);
    if (ms.n == 0)
        fail("no legal move in the set-up game", NULL);
    carc_move mv = ms.v[carc_rng_below(r, (uint32_t)ms.n)];
    carc_moves_free(&ms);
    if (carc_apply(st, st->pending.seat, &mv, ev, err, sizeof err) != 0)
        fail("set-up move refused", err);
}

static void setup_states(void)
{
    static carc_catalog cat;
    static carc_state st;
    carc_setup s;
    carc_events ev = {0};
    carc_rng r;
    uint8_t key[32] = {7};
    char err[256];
    if (carc_catalog_load(&cat, err, sizeof err) != 0)
        fail("catalog", err);
    carc_setup_defaults(&s);
    s.nplayers = 3;
    s.opt[CARC_OPT_ABBOT] = 1;
    for (int i = 0; i < 32; i++)
        s.seed[i] = (uint8_t)(0xa5 ^ i);
    if (carc_game_new(&st, &cat, &s, &ev, err, sizeof err) != 0)
        fail("game_new", err);
    carc_rng_seed(&r, key);
    while (st.status == CARC_ACTIVE && (st.turn < 15 || st.pending.kind != CARC_PENDING_PLACE))
        play(&st, &r, &ev);
    states[0] = st;
    while (st.status == CARC_ACTIVE && st.pending.kind != CARC_PENDING_FIGURE)
        play(&st, &r, &ev);
    states[1] = st;
    if (states[0].pending.kind != CARC_PENDING_PLACE || states[1].pending.kind != CARC_PENDING_FIGURE)
        fail("the set-up game ended too early", NULL);
    carc_events_free(&ev);
}

static void check(const carc_state *st, const json_t *j)
{
    static carc_state copy;
    carc_move m, back;
    char err[256] = "";
    if (carc_move_from_json(st, j, &m, err, sizeof err) != 0) {
        if (!err[0])
            fail("an error without a message", NULL);
        return;
    }
    json_t *e = carc_move_to_json(st, &m);
    if (!e)
        fail("a decoded move cannot be encoded", NULL);
    if (carc_move_from_json(st, e, &back, err, sizeof err) != 0 || memcmp(&m, &back, sizeof m) != 0)
        fail("a move does not survive a round trip", err);
    json_decref(e);
    carc_events ev = {0};
    int seats[2] = {st->pending.seat, (st->pending.seat + 1) % st->nplayers};
    for (int i = 0; i < 2; i++) {
        memcpy(&copy, st, sizeof copy);
        if (carc_apply(&copy, seats[i], &m, &ev, err, sizeof err) != 0) {
            if (memcmp(&copy, st, sizeof copy) != 0)
                fail("a refused move changed the state", err);
        } else {
            json_decref(carc_events_to_json(&copy, &ev, CARC_VIEW_PUBLIC));
            json_decref(carc_view_to_json(&copy, CARC_VIEW_ADMIN));
        }
        carc_events_clear(&ev);
    }
    carc_events_free(&ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (states[0].cat == NULL)
        setup_states();
    json_t *j = json_loadb((const char *)data, size, JSON_ALLOW_NUL | JSON_DECODE_ANY, NULL);
    if (!j)
        return 0;
    check(&states[0], j);
    check(&states[1], j);
    json_decref(j);
    return 0;
}
