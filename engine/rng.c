/*
 * rng.c — the engine's only source of randomness: a ChaCha20 (RFC 8439) keystream read as 32-bit words.
 *
 * The generator is {key, pos}: key = the game's 256-bit seed, nonce = 0, and word `pos` of the stream is
 * little-endian word pos % 16 of the block with counter pos / 16, so a state saved as {key, pos} always
 * continues identically.
 * The block function is written out here (RFC 8439 §2.3, a few dozen lines) rather than taken from
 * OpenSSL: an EVP context costs an allocation, a provider lookup and a key schedule per call, which was a
 * tenth of a random game's instructions; the block itself is the same (test_rng: RFC 8439's vectors, and
 * OpenSSL's EVP_chacha20 on random keys and counters).
 *
 * The block counter is 32 bits (RFC 8439), so the stream repeats after 2^36 words; block indices are taken
 * modulo 2^32. A game draws a few hundred words, so this is a documented limit, not a practical one.
 *
 * The last block computed stays in the generator (`cached`, `block`), so consecutive words cost a copy; a
 * generator restored from {key, pos} alone recomputes it on its first draw.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"

/* ---- the block function (RFC 8439 §2.3) ----------------------------------------------------------------- */

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t rotl32(uint32_t v, int n) { return v << n | v >> (32 - n); }

#define QR(a, b, c, d)                                                                                          \
    do {                                                                                                        \
        a += b, d = rotl32(d ^ a, 16);                                                                          \
        c += d, b = rotl32(b ^ c, 12);                                                                          \
        a += b, d = rotl32(d ^ a, 8);                                                                           \
        c += d, b = rotl32(b ^ c, 7);                                                                           \
    } while (0)

void carc_chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], uint8_t out[64])
{
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};   /* "expand 32-byte k" */
    for (int i = 0; i < 8; i++)
        in[4 + i] = load32(key + 4 * i);
    in[12] = counter;
    for (int i = 0; i < 3; i++)
        in[13 + i] = load32(nonce + 4 * i);
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int round = 0; round < 10; round++) {   /* 20 rounds: a column round and a diagonal round each */
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) {
        uint32_t v = x[i] + in[i];
        out[4 * i] = (uint8_t)v;
        out[4 * i + 1] = (uint8_t)(v >> 8);
        out[4 * i + 2] = (uint8_t)(v >> 16);
        out[4 * i + 3] = (uint8_t)(v >> 24);
    }
}
#undef QR

/* ---- word stream ---------------------------------------------------------------------------------------- */

static const uint8_t zero_nonce[12];

static uint32_t next_word(carc_rng *r)
{
    uint64_t pos = r->pos;
    uint64_t block = pos / 16;
    if (r->cached != block + 1) {
        carc_chacha20_block(r->key, (uint32_t)block, zero_nonce, r->block);
        r->cached = block + 1;
    }
    r->pos = pos + 1;
    return load32(r->block + 4 * (pos % 16));
}

/*
 * Lemire's multiply-shift: the high half of x * n is uniform in [0, n) once the low half is at least
 * 2^32 mod n; the few x whose low half falls below that threshold are rejected and redrawn. Every call
 * consumes at least one word, also for n == 1 (which always returns 0): word use then depends only on the
 * draws, never on a special case.
 */
static uint32_t below(carc_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)next_word(r) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t threshold = (uint32_t)(-n) % n;   /* 2^32 mod n */
        while (lo < threshold) {
            m = (uint64_t)next_word(r) * n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* ---- public API ----------------------------------------------------------------------------------------- */

void carc_rng_seed(carc_rng *r, const uint8_t key[32])
{
    memcpy(r->key, key, sizeof r->key);
    r->pos = 0;
    r->cached = 0;
}

uint32_t carc_rng_u32(carc_rng *r)
{
    return next_word(r);
}

uint32_t carc_rng_below(carc_rng *r, uint32_t n)
{
    if (n == 0)   /* contract violation; fail loudly rather than divide by zero */
        abort();
    return below(r, n);
}

/*
 * Fisher–Yates from the top: for i = n-1 down to 1, swap a[i] with a[carc_rng_below(i + 1)]. Uses one
 * carc_rng_below per i (so n - 1 of them, none for n <= 1), in that order; the sequence is part of the
 * game's reproducibility and must not change.
 */
void carc_rng_shuffle(carc_rng *r, uint8_t *a, size_t n)
{
    if (n < 2)
        return;
    if (n > UINT32_MAX)   /* carc_rng_below takes 32 bits; arrays here hold at most a few hundred */
        abort();
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = below(r, (uint32_t)(i + 1));
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
