/*
 * test_rng.c — the ChaCha20 block against RFC 8439's vectors, and the word stream, carc_rng_below and
 * carc_rng_shuffle built on it: determinism, resumability from {key, pos}, bounds, rough uniformity; and the
 * block against OpenSSL's EVP_chacha20 (which the engine used before it had its own) on many keys, counters
 * and nonces, so that every stored game's stream stays the same.
 * All keys are fixed, so every statistical check is deterministic.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "testutil.h"

/* ---- helpers --------------------------------------------------------------------------------------------- */

/* Parses "10 f1 e7 ..." into bytes; returns how many. */
static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned v;
    int used;
    while (sscanf(s, " %2x%n", &v, &used) == 1) {
        ck_assert_uint_lt(n, cap);
        out[n++] = (uint8_t)v;
        s += used;
    }
    return n;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void seq_key(uint8_t key[32], uint8_t start)
{
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(start + i);
}

/* Word k of the stream for key, computed straight from the block function. */
static uint32_t stream_word(const uint8_t key[32], uint64_t k)
{
    static const uint8_t nonce[12];
    uint8_t blk[64];
    carc_chacha20_block(key, (uint32_t)(k / 16), nonce, blk);
    return le32(blk + 4 * (k % 16));
}

/* The documented carc_rng_below algorithm (Lemire with rejection), written over carc_rng_u32. */
static uint32_t ref_below(carc_rng *r, uint32_t n)
{
    uint32_t threshold = (uint32_t)(0x100000000ull % n);
    for (;;) {
        uint64_t m = (uint64_t)carc_rng_u32(r) * n;
        if ((uint32_t)m >= threshold)
            return (uint32_t)(m >> 32);
    }
}

/* Pearson's statistic for counts against a uniform expectation. */
static double chi2(const unsigned *counts, unsigned k, double expected)
{
    double s = 0;
    for (unsigned i = 0; i < k; i++) {
        double d = counts[i] - expected;
        s += d * d / expected;
    }
    return s;
}

/* A loose bound for a chi-square with df degrees of freedom: mean + 6 sd + slack. A correct generator
 * stays far below it; a biased one (e.g. modulo reduction of a few bits, an off-by-one) goes far above. */
static double chi2_bound(unsigned df)
{
    double v = 2.0 * df, sd = v;   /* sd = sqrt(v) by Newton's method (no libm needed) */
    for (int i = 0; i < 40; i++)
        sd = 0.5 * (sd + v / sd);
    return df + 6.0 * sd + 10.0;
}

/* ---- RFC 8439 vectors ----------------------------------------------------------------------------------- */

START_TEST(rfc_2_3_2_block)
{
    uint8_t key[32], nonce[12], want[64], got[64];
    seq_key(key, 0);
    ck_assert_uint_eq(unhex("00 00 00 09 00 00 00 4a 00 00 00 00", nonce, sizeof nonce), 12);
    ck_assert_uint_eq(unhex("10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4"
                            "c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e"
                            "d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2"
                            "b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e",
                            want, sizeof want),
                      64);
    carc_chacha20_block(key, 1, nonce, got);
    ck_assert_mem_eq(got, want, 64);
    /* The state words as the RFC prints them after serialisation: first and last. */
    ck_assert_uint_eq(le32(got), 0xe4e7f110u);
    ck_assert_uint_eq(le32(got + 60), 0x4e3c50a2u);
}
END_TEST

START_TEST(rfc_2_4_2_encryption)
{
    static const char plain[] = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
                                "for the future, sunscreen would be it.";
    uint8_t key[32], nonce[12], want[114], got[114], blk[64];
    size_t len = sizeof plain - 1;
    ck_assert_uint_eq(len, 114);
    seq_key(key, 0);
    unhex("00 00 00 00 00 00 00 4a 00 00 00 00", nonce, sizeof nonce);
    ck_assert_uint_eq(unhex("6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81"
                            "e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b"
                            "f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57"
                            "16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8"
                            "07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e"
                            "52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36"
                            "5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42"
                            "87 4d",
                            want, sizeof want),
                      114);
    for (size_t i = 0; i < len; i++) {
        if (i % 64 == 0)
            carc_chacha20_block(key, (uint32_t)(1 + i / 64), nonce, blk);   /* initial counter 1 */
        got[i] = (uint8_t)plain[i] ^ blk[i % 64];
    }
    ck_assert_mem_eq(got, want, len);
}
END_TEST

/* RFC 8439 appendix A.1: five block-function vectors. */
static const struct {
    const char *key, *nonce;
    uint32_t counter;
    const char *out;
} a1[] = {
    {"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
     "00 00 00 00 00 00 00 00 00 00 00 00", 0,
     "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
     "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37 6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86"},
    {"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
     "00 00 00 00 00 00 00 00 00 00 00 00", 1,
     "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed"
     "29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5 31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f"},
    {"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01",
     "00 00 00 00 00 00 00 00 00 00 00 00", 1,
     "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd 83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a"
     "8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd 4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0"},
    {"00 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
     "00 00 00 00 00 00 00 00 00 00 00 00", 2,
     "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32 8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca"
     "13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09 24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96"},
    {"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
     "00 00 00 00 00 00 00 00 00 00 00 02", 0,
     "c2 c6 4d 37 8c d5 36 37 4a e2 04 b9 ef 93 3f cd 1a 8b 22 88 b3 df a4 96 72 ab 76 5b 54 ee 27 c7"
     "8a 97 0e 0e 95 5c 14 f3 a8 8e 74 1b 97 c2 86 f7 5f 8f c2 99 e8 14 83 62 fa 19 8a 39 53 1b ed 6d"},
};

START_TEST(rfc_a1_blocks)
{
    uint8_t key[32], nonce[12], want[64], got[64];
    ck_assert_uint_eq(unhex(a1[_i].key, key, sizeof key), 32);
    ck_assert_uint_eq(unhex(a1[_i].nonce, nonce, sizeof nonce), 12);
    ck_assert_uint_eq(unhex(a1[_i].out, want, sizeof want), 64);
    carc_chacha20_block(key, a1[_i].counter, nonce, got);
    ck_assert_mem_eq(got, want, 64);
}
END_TEST

/* OpenSSL's ChaCha20 as a second reference: its 16-byte IV is the 32-bit counter, little-endian, then the
 * nonce; the keystream is the encryption of zeros. Keys, counters (wrap included) and nonces from a
 * deterministic mix. */
START_TEST(matches_openssl)
{
    static const uint8_t zero[64];
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    ck_assert_ptr_nonnull(ctx);
    uint32_t h = 0x9e3779b9u;
    for (int t = 0; t < 2000; t++) {
        uint8_t key[32], nonce[12], iv[16], want[64], got[64];
        for (int i = 0; i < 32; i++)
            key[i] = (uint8_t)((h = h * 1664525u + 1013904223u) >> 24);
        for (int i = 0; i < 12; i++)
            nonce[i] = t % 3 == 0 ? 0 : (uint8_t)((h = h * 1664525u + 1013904223u) >> 24);
        uint32_t counter = t < 4 ? 0xffffffffu - (uint32_t)t : (h = h * 1664525u + 1013904223u) >> (t % 32);
        iv[0] = (uint8_t)counter, iv[1] = (uint8_t)(counter >> 8), iv[2] = (uint8_t)(counter >> 16);
        iv[3] = (uint8_t)(counter >> 24);
        memcpy(iv + 4, nonce, 12);
        int len = 0;
        ck_assert_int_eq(EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv), 1);
        ck_assert_int_eq(EVP_EncryptUpdate(ctx, want, &len, zero, (int)sizeof zero), 1);
        ck_assert_int_eq(len, 64);
        carc_chacha20_block(key, counter, nonce, got);
        ck_assert_mem_eq(got, want, 64);
    }
    EVP_CIPHER_CTX_free(ctx);
}
END_TEST

/* ---- the word stream ------------------------------------------------------------------------------------ */

/* With the all-zero key the stream is A.1 vector 1 then vector 2 (nonce 0, counters 0 and 1). */
START_TEST(stream_is_rfc_keystream)
{
    static const uint32_t want[4] = {0xade0b876u, 0x903df1a0u, 0xe56a5d40u, 0x28bd8653u};
    uint8_t key[32] = {0}, blk1[64];
    carc_rng r;
    carc_rng_seed(&r, key);
    ck_assert_uint_eq(r.pos, 0);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(carc_rng_u32(&r), want[i]);
    unhex(a1[0].out, blk1, sizeof blk1);
    ck_assert_uint_eq(carc_rng_u32(&r), le32(blk1 + 16));
    r.pos = 16;
    unhex(a1[1].out, blk1, sizeof blk1);
    for (int i = 0; i < 16; i++) {
        ck_assert_uint_eq(carc_rng_u32(&r), le32(blk1 + 4 * i));
        ck_assert_uint_eq(r.pos, 17 + (uint64_t)i);
    }
}
END_TEST

START_TEST(stream_matches_block_function)
{
    uint8_t key[32];
    seq_key(key, 0x5a);
    carc_rng r;
    carc_rng_seed(&r, key);
    ck_assert_mem_eq(r.key, key, 32);
    for (uint64_t k = 0; k < 200; k++)
        ck_assert_uint_eq(carc_rng_u32(&r), stream_word(key, k));
    ck_assert_uint_eq(r.pos, 200);
}
END_TEST

START_TEST(seed_resets)
{
    uint8_t k1[32], k2[32];
    seq_key(k1, 1);
    seq_key(k2, 2);
    carc_rng r;
    carc_rng_seed(&r, k1);
    for (int i = 0; i < 37; i++)
        carc_rng_u32(&r);
    carc_rng_seed(&r, k2);
    ck_assert_uint_eq(r.pos, 0);
    ck_assert_mem_eq(r.key, k2, 32);
    ck_assert_uint_eq(carc_rng_u32(&r), stream_word(k2, 0));
}
END_TEST

START_TEST(deterministic)
{
    uint8_t key[32], other[32];
    seq_key(key, 7);
    memcpy(other, key, 32);
    other[31] ^= 1;
    carc_rng a, b, c;
    carc_rng_seed(&a, key);
    carc_rng_seed(&b, key);
    carc_rng_seed(&c, other);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t x = carc_rng_u32(&a);
        ck_assert_uint_eq(x, carc_rng_u32(&b));
        differ += x != carc_rng_u32(&c);
    }
    ck_assert_int_gt(differ, 990);
    ck_assert_uint_eq(a.pos, b.pos);
}
END_TEST

/* A generator rebuilt from {key, pos} alone continues exactly where the original was, at every offset
 * within a block (mixing all three entry points). */
START_TEST(pos_round_trip)
{
    uint8_t key[32];
    seq_key(key, 0x90);
    for (unsigned skip = 0; skip < 40; skip++) {
        carc_rng a;
        carc_rng_seed(&a, key);
        for (unsigned i = 0; i < skip; i++)
            carc_rng_below(&a, 3 + i);

        carc_rng b;
        carc_rng_seed(&b, key);
        b.pos = a.pos;
        carc_rng c = a;   /* plain struct copy: what saving and loading a state does */

        for (int i = 0; i < 50; i++) {
            uint32_t x = carc_rng_u32(&a);
            ck_assert_uint_eq(x, carc_rng_u32(&b));
            ck_assert_uint_eq(x, carc_rng_u32(&c));
        }
        uint8_t sa[20], sb[20];
        for (int i = 0; i < 20; i++)
            sa[i] = sb[i] = (uint8_t)i;
        carc_rng_shuffle(&a, sa, 20);
        carc_rng_shuffle(&b, sb, 20);
        ck_assert_mem_eq(sa, sb, 20);
        ck_assert_uint_eq(carc_rng_below(&a, 1000), carc_rng_below(&b, 1000));
        ck_assert_uint_eq(a.pos, b.pos);
    }
}
END_TEST

/* The block counter is 32 bits: word 16 * 2^32 is word 0 again (the documented wrap). The last block
 * before the wrap is the one the block function gives for counter 0xffffffff. */
START_TEST(counter_wraps)
{
    uint8_t key[32];
    seq_key(key, 0x33);
    carc_rng r;
    carc_rng_seed(&r, key);
    r.pos = 16ull * 0xffffffffull;
    uint8_t blk[64];
    static const uint8_t nonce[12];
    carc_chacha20_block(key, 0xffffffffu, nonce, blk);
    for (int i = 0; i < 16; i++)
        ck_assert_uint_eq(carc_rng_u32(&r), le32(blk + 4 * i));
    ck_assert_uint_eq(r.pos, 16ull << 32);
    ck_assert_uint_eq(carc_rng_u32(&r), stream_word(key, 0));
}
END_TEST

/* ---- carc_rng_below -------------------------------------------------------------------------------------- */

static const uint32_t below_ns[] = {
    1, 2, 3, 4, 5, 6, 7, 10, 71, 72, 100, 1000, 65535, 65536, 65537, 1u << 30, 0x7fffffffu, 0x80000000u,
    0x80000001u, 0xaaaaaaabu, 0xc0000000u, 0xfffffffeu, 0xffffffffu,
};

START_TEST(below_in_range)
{
    uint32_t n = below_ns[_i];
    uint8_t key[32];
    seq_key(key, (uint8_t)(0x10 + _i));
    carc_rng r;
    carc_rng_seed(&r, key);
    uint32_t max = 0;
    for (int i = 0; i < 4000; i++) {
        uint32_t v = carc_rng_below(&r, n);
        ck_assert_uint_lt(v, n);
        if (v > max)
            max = v;
    }
    ck_assert_uint_ge(r.pos, 4000);
    if (n == 1)
        ck_assert_uint_eq(r.pos, 4000);   /* n == 1: always 0, always one word */
    if ((n & (n - 1)) == 0)
        ck_assert_uint_eq(r.pos, 4000);   /* powers of two never reject */
    if (n == 0x80000001u)
        ck_assert_uint_gt(r.pos, 6000);   /* rejects almost half the words: the loop is exercised */
    if (n >= 1000)
        ck_assert_uint_gt(max, n - n / 100);   /* reaches the top of the range */
}
END_TEST

/* carc_rng_below is exactly Lemire's method with rejection over carc_rng_u32: the result and the words
 * consumed are pinned, since saved games replay through them. */
START_TEST(below_matches_reference)
{
    uint32_t n = below_ns[_i];
    uint8_t key[32];
    seq_key(key, (uint8_t)(0x40 + _i));
    carc_rng a, b;
    carc_rng_seed(&a, key);
    carc_rng_seed(&b, key);
    for (int i = 0; i < 500; i++) {
        ck_assert_uint_eq(carc_rng_below(&a, n), ref_below(&b, n));
        ck_assert_uint_eq(a.pos, b.pos);
    }
}
END_TEST

START_TEST(below_uniform_small_n)
{
    static const uint32_t ns[] = {2, 3, 5, 6, 7, 10, 12, 72};
    uint8_t key[32];
    seq_key(key, 0xc8);
    carc_rng r;
    carc_rng_seed(&r, key);
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uint32_t n = ns[t];
        unsigned counts[72] = {0};
        unsigned draws = 2000 * n;
        for (unsigned i = 0; i < draws; i++)
            counts[carc_rng_below(&r, n)]++;
        double s = chi2(counts, n, 2000.0);
        ck_assert_msg(s < chi2_bound(n - 1), "n=%u chi2=%.1f bound=%.1f", n, s, chi2_bound(n - 1));
    }
}
END_TEST

/* Large n: the top and bottom halves and the residues mod 3 are balanced (catches truncation errors a
 * small-n test cannot see, such as returning the low word instead of the high one). */
START_TEST(below_uniform_large_n)
{
    static const uint32_t ns[] = {0x80000001u, 0xaaaaaaabu, 0xffffffffu, 1000000007u};
    uint8_t key[32];
    seq_key(key, 0xe1);
    carc_rng r;
    carc_rng_seed(&r, key);
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uint32_t n = ns[t];
        unsigned halves[2] = {0}, mod3[3] = {0}, tenths[10] = {0};
        for (unsigned i = 0; i < 30000; i++) {
            uint32_t v = carc_rng_below(&r, n);
            halves[v >= n / 2]++;
            mod3[v % 3]++;
            tenths[(uint64_t)v * 10 / n]++;
        }
        ck_assert_msg(chi2(halves, 2, 15000.0) < chi2_bound(1), "n=%u halves", n);
        ck_assert_msg(chi2(mod3, 3, 10000.0) < chi2_bound(2), "n=%u mod 3", n);
        ck_assert_msg(chi2(tenths, 10, 3000.0) < chi2_bound(9), "n=%u tenths", n);
    }
}
END_TEST

/* ---- carc_rng_shuffle ------------------------------------------------------------------------------------ */

static const size_t shuffle_sizes[] = {0, 1, 2, 3, 15, 16, 17, 72, 128, 255, 256};

START_TEST(shuffle_is_permutation)
{
    size_t n = shuffle_sizes[_i];
    uint8_t key[32];
    seq_key(key, 0x21);
    carc_rng r;
    carc_rng_seed(&r, key);
    uint8_t a[256];
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < n; i++)
            a[i] = (uint8_t)i;
        uint64_t before = r.pos;
        carc_rng_shuffle(&r, a, n);
        ck_assert_uint_ge(r.pos - before, n > 1 ? n - 1 : 0);   /* one draw per swap at least */
        if (n <= 1)
            ck_assert_uint_eq(r.pos, before);
        unsigned seen[256] = {0};
        for (size_t i = 0; i < n; i++)
            seen[a[i]]++;
        for (size_t i = 0; i < n; i++)
            ck_assert_uint_eq(seen[i], 1);
    }
}
END_TEST

/* The shuffle is Fisher–Yates from the top with carc_rng_below, draw for draw, whatever the starting
 * offset within a block; repeated values move too. */
START_TEST(shuffle_matches_reference)
{
    uint8_t key[32];
    seq_key(key, 0x77);
    for (unsigned start = 0; start < 20; start++) {
        carc_rng a, b;
        carc_rng_seed(&a, key);
        a.pos = start;
        b = a;
        uint8_t x[72], y[72];
        for (int i = 0; i < 72; i++)
            x[i] = y[i] = (uint8_t)(i % 9);
        carc_rng_shuffle(&a, x, 72);
        for (size_t i = 71; i > 0; i--) {
            uint32_t j = ref_below(&b, (uint32_t)(i + 1));
            uint8_t t = y[i];
            y[i] = y[j];
            y[j] = t;
        }
        ck_assert_mem_eq(x, y, 72);
        ck_assert_uint_eq(a.pos, b.pos);
    }
}
END_TEST

START_TEST(shuffle_uniform_3)
{
    uint8_t key[32];
    seq_key(key, 0x03);
    carc_rng r;
    carc_rng_seed(&r, key);
    unsigned counts[6] = {0};
    for (int t = 0; t < 30000; t++) {
        uint8_t a[3] = {0, 1, 2};
        carc_rng_shuffle(&r, a, 3);
        /* rank the permutation: first element picks a pair of slots, the order of the rest the slot */
        counts[a[0] * 2 + (a[1] > a[2])]++;
    }
    double s = chi2(counts, 6, 5000.0);
    ck_assert_msg(s < chi2_bound(5), "chi2=%.1f", s);
}
END_TEST

/* Every position receives every value about equally often (72 tiles, 72 positions). */
START_TEST(shuffle_positions_uniform)
{
    uint8_t key[32];
    seq_key(key, 0x72);
    carc_rng r;
    carc_rng_seed(&r, key);
    enum { N = 72, ROUNDS = 7200 };
    unsigned at0[N] = {0}, atlast[N] = {0};
    for (int t = 0; t < ROUNDS; t++) {
        uint8_t a[N];
        for (int i = 0; i < N; i++)
            a[i] = (uint8_t)i;
        carc_rng_shuffle(&r, a, N);
        at0[a[0]]++;
        atlast[a[N - 1]]++;
    }
    double e = (double)ROUNDS / N;
    ck_assert_msg(chi2(at0, N, e) < chi2_bound(N - 1), "first position");
    ck_assert_msg(chi2(atlast, N, e) < chi2_bound(N - 1), "last position");
}
END_TEST

static Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("chacha20");
    tcase_add_test(tc, rfc_2_3_2_block);
    tcase_add_test(tc, rfc_2_4_2_encryption);
    tcase_add_loop_test(tc, rfc_a1_blocks, 0, (int)(sizeof a1 / sizeof a1[0]));
    tcase_add_test(tc, matches_openssl);
    suite_add_tcase(s, tc);

    tc = tcase_create("stream");
    tcase_add_test(tc, stream_is_rfc_keystream);
    tcase_add_test(tc, stream_matches_block_function);
    tcase_add_test(tc, seed_resets);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, pos_round_trip);
    tcase_add_test(tc, counter_wraps);
    suite_add_tcase(s, tc);

    tc = tcase_create("below");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, below_in_range, 0, (int)(sizeof below_ns / sizeof below_ns[0]));
    tcase_add_loop_test(tc, below_matches_reference, 0, (int)(sizeof below_ns / sizeof below_ns[0]));
    tcase_add_test(tc, below_uniform_small_n);
    tcase_add_test(tc, below_uniform_large_n);
    suite_add_tcase(s, tc);

    tc = tcase_create("shuffle");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, shuffle_is_permutation, 0, (int)(sizeof shuffle_sizes / sizeof shuffle_sizes[0]));
    tcase_add_test(tc, shuffle_matches_reference);
    tcase_add_test(tc, shuffle_uniform_3);
    tcase_add_test(tc, shuffle_positions_uniform);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(rng_suite());
}
