/*
 * play.c — the bots' entry: the names, the think-time budget, the bot's generator and carc_bot_move, which
 * lists the seat's legal moves and lets the chosen bot pick one (bot.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bot/bot_priv.h"

const char *const carc_bot_names[CARC_NBOT_KINDS] = {"random", "greedy", "mcts"};

int carc_bot_find(const char *name)
{
    for (int k = 0; k < CARC_NBOT_KINDS; k++)
        if (strcmp(name, carc_bot_names[k]) == 0)
            return k;
    return -1;
}

uint32_t carc_bot_playouts(uint32_t think_ms)
{
    if (think_ms > CARC_BOT_THINK_MAX_MS)
        think_ms = CARC_BOT_THINK_MAX_MS;
    uint32_t n = (uint32_t)((uint64_t)think_ms * CARC_BOT_PLAYOUTS_PER_S / 1000);
    return n ? n : 1;
}

void carc_bot_rng(carc_rng *r, const uint8_t seed[32], uint64_t seq)
{
    /* nonce "bot\0" + seq: the game's stream runs on nonce 0, so no bot word is ever one of the game's */
    uint8_t nonce[12] = {'b', 'o', 't', 0};
    for (int i = 0; i < 8; i++)
        nonce[4 + i] = (uint8_t)(seq >> (8 * i));
    uint8_t block[64];
    carc_chacha20_block(seed, 0, nonce, block);
    carc_rng_seed(r, block);   /* the first 32 bytes key the bot's stream for this decision */
}

int carc_bot_move(const carc_state *st, int seat, carc_bot_kind kind, uint32_t playouts, carc_rng *r,
                  carc_move *out)
{
    if (st->status != CARC_ACTIVE || st->pending.seat != seat || st->pending.kind == CARC_PENDING_NONE)
        return -1;
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    if (m.n == 0) {
        carc_moves_free(&m);
        return -1;
    }
    int pick = 0;
    switch (kind) {
    case CARC_BOT_RANDOM:
        pick = (int)carc_rng_below(r, (uint32_t)m.n);
        break;
    case CARC_BOT_GREEDY: {
        carc_state *det = malloc(sizeof *det);
        if (!det)
            abort();
        carc_bot_determinise(st, seat, r, det);
        pick = carc_bot_greedy(det, seat, &m, r);
        free(det);
        break;
    }
    default:
        pick = carc_bot_mcts(st, seat, &m, playouts, r);
        break;
    }
    *out = m.v[pick];
    carc_moves_free(&m);
    return 0;
}
