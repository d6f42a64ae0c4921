/*
 * rng.c — the engine's only source of randomness: a ChaCha20 (RFC 8439) keystream read as 32-bit words.
 *
 * The generator is {key, pos}: key = the game's 256-bit seed, nonce = 0, and word `pos` of the stream is
 * little-endian word pos % 16 of the block with counter pos / 16, so a state saved as {key, pos} always
 * continues identically.
 * The cipher itself is OpenSSL's (EVP_chacha20); this file only frames blocks and turns words into choices.
 *
 * The block counter is 32 bits (RFC 8439), so the stream repeats after 2^36 words; block indices are taken
 * modulo 2^32. A game draws a few hundred words, so this is a documented limit, not a practical one.
 *
 * The last block computed stays in the generator (`cached`, `block`), so consecutive words cost a copy, not
 * an OpenSSL context; a generator restored from {key, pos} alone recomputes it on its first draw.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "carc.h"

/* ---- OpenSSL framing ------------------------------------------------------------------------------------ */

/* OpenSSL's ChaCha20 IV: the 32-bit block counter, little-endian, then the 96-bit nonce. */
static void make_iv(uint8_t iv[16], uint32_t counter, const uint8_t nonce[12])
{
    iv[0] = (uint8_t)counter;
    iv[1] = (uint8_t)(counter >> 8);
    iv[2] = (uint8_t)(counter >> 16);
    iv[3] = (uint8_t)(counter >> 24);
    memcpy(iv + 4, nonce, 12);
}

/*
 * The OpenSSL calls below fail only on allocation failure or a broken OpenSSL build (no ChaCha20 in the
 * default provider). Out of memory aborts by project policy, and there is no sensible way to go on without
 * the game's random stream, so every failure aborts.
 */
static EVP_CIPHER_CTX *ctx_new(void)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        abort();
    return ctx;
}

/* Sets the key (when key != NULL; the first call on a context must give one) and the counter and nonce,
 * then writes the 64-byte keystream block: the encryption of 64 zero bytes. */
static void ctx_block(EVP_CIPHER_CTX *ctx, const uint8_t *key, uint32_t counter, const uint8_t nonce[12],
                      uint8_t out[64])
{
    static const uint8_t zero[64];   /* read-only constant, not state */
    uint8_t iv[16];
    int len = 0;

    make_iv(iv, counter, nonce);
    if (EVP_EncryptInit_ex(ctx, key ? EVP_chacha20() : NULL, NULL, key, iv) != 1)
        abort();
    if (EVP_EncryptUpdate(ctx, out, &len, zero, (int)sizeof zero) != 1 || len != 64)
        abort();
}

void carc_chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], uint8_t out[64])
{
    EVP_CIPHER_CTX *ctx = ctx_new();
    ctx_block(ctx, key, counter, nonce, out);
    EVP_CIPHER_CTX_free(ctx);
}

/* ---- word stream ---------------------------------------------------------------------------------------- */

static const uint8_t zero_nonce[12];

/* A short-lived reader over one carc_rng for the span of one public call: it opens an OpenSSL context only
 * when a block is not already in the generator's cache. */
typedef struct {
    carc_rng *r;
    EVP_CIPHER_CTX *ctx;   /* NULL until a block must be computed */
} reader;

static void reader_open(reader *rd, carc_rng *r)
{
    rd->r = r;
    rd->ctx = NULL;
}

static void reader_close(reader *rd)
{
    EVP_CIPHER_CTX_free(rd->ctx);   /* NULL is fine */
    rd->ctx = NULL;
}

static uint32_t reader_word(reader *rd)
{
    carc_rng *r = rd->r;
    uint64_t pos = r->pos;
    uint64_t block = pos / 16;

    if (r->cached != block + 1) {
        if (!rd->ctx) {
            rd->ctx = ctx_new();
            ctx_block(rd->ctx, r->key, (uint32_t)block, zero_nonce, r->block);
        } else {
            ctx_block(rd->ctx, NULL, (uint32_t)block, zero_nonce, r->block);   /* same key, new counter */
        }
        r->cached = block + 1;
    }
    const uint8_t *w = r->block + 4 * (pos % 16);
    r->pos = pos + 1;
    return (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
}

/*
 * Lemire's multiply-shift: the high half of x * n is uniform in [0, n) once the low half is at least
 * 2^32 mod n; the few x whose low half falls below that threshold are rejected and redrawn. Every call
 * consumes at least one word, also for n == 1 (which always returns 0): word use then depends only on the
 * draws, never on a special case.
 */
static uint32_t reader_below(reader *rd, uint32_t n)
{
    uint64_t m = (uint64_t)reader_word(rd) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t threshold = (uint32_t)(-n) % n;   /* 2^32 mod n */
        while (lo < threshold) {
            m = (uint64_t)reader_word(rd) * n;
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
    reader rd;
    reader_open(&rd, r);
    uint32_t w = reader_word(&rd);
    reader_close(&rd);
    return w;
}

uint32_t carc_rng_below(carc_rng *r, uint32_t n)
{
    if (n == 0)   /* contract violation; fail loudly rather than divide by zero */
        abort();
    reader rd;
    reader_open(&rd, r);
    uint32_t v = reader_below(&rd, n);
    reader_close(&rd);
    return v;
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
    reader rd;
    reader_open(&rd, r);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = reader_below(&rd, (uint32_t)(i + 1));
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    reader_close(&rd);
}
