/*
 * crypto.c — see crypto.h.
 */
#include "crypto.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

void cd_random_bytes(uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(buf + got, n - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            abort();   /* no kernel randomness: no honest seeds or tokens either */
        got += (size_t)k;
    }
}

void cd_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = 0;
}

int cd_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool cd_unhex(const char *hex, uint8_t *out, size_t n)
{
    if (strlen(hex) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        int hi = cd_hex_digit(hex[2 * i]), lo = cd_hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

void cd_token_new(char token[CD_TOKEN_LEN + 1])
{
    uint8_t raw[32];
    unsigned char b64[48];
    cd_random_bytes(raw, sizeof raw);
    int n = EVP_EncodeBlock(b64, raw, sizeof raw);   /* 44 chars with one '=' */
    memcpy(token, "cs_", 3);
    int k = 3;
    for (int i = 0; i < n && b64[i] != '='; i++)
        token[k++] = b64[i] == '+' ? '-' : b64[i] == '/' ? '_' : (char)b64[i];
    token[k] = 0;
}

static EVP_MD *sha256;   /* fetched once: EVP_sha256() in EVP_Digest looks the algorithm up every call */
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void sha256_fetch(void)
{
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!sha256)
        abort();
}

void cd_sha256_hex(const char *text, char out[CD_HEX256_LEN])
{
    uint8_t md[32];
    unsigned int len = 0;
    pthread_once(&sha256_once, sha256_fetch);
    EVP_Digest(text, strlen(text), md, &len, sha256, NULL);
    cd_hex(md, sizeof md, out);
}

void cd_sha256_bytes(const uint8_t *data, size_t n, uint8_t out[32])
{
    unsigned int len = 0;
    pthread_once(&sha256_once, sha256_fetch);
    EVP_Digest(data, n, out, &len, sha256, NULL);
}

bool cd_secret_equal(const void *a, const void *b, size_t n)
{
    return CRYPTO_memcmp(a, b, n) == 0;
}

/* ---- SipHash-2-4 ---------------------------------------------------------------------------------------- */

#define SIP_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

typedef struct {
    uint64_t v0, v1, v2, v3;
    uint8_t tail[8];
    size_t ntail, total;
} sip_state;

static void sip_round(sip_state *s)
{
    s->v0 += s->v1;
    s->v1 = SIP_ROTL(s->v1, 13);
    s->v1 ^= s->v0;
    s->v0 = SIP_ROTL(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = SIP_ROTL(s->v3, 16);
    s->v3 ^= s->v2;
    s->v0 += s->v3;
    s->v3 = SIP_ROTL(s->v3, 21);
    s->v3 ^= s->v0;
    s->v2 += s->v1;
    s->v1 = SIP_ROTL(s->v1, 17);
    s->v1 ^= s->v2;
    s->v2 = SIP_ROTL(s->v2, 32);
}

static uint64_t sip_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void sip_block(sip_state *s, uint64_t m)
{
    s->v3 ^= m;
    sip_round(s);
    sip_round(s);
    s->v0 ^= m;
}

static void sip_add(sip_state *s, const uint8_t *p, size_t n)
{
    s->total += n;
    while (n > 0) {
        if (s->ntail == 0 && n >= 8) {
            sip_block(s, sip_le64(p));
            p += 8;
            n -= 8;
            continue;
        }
        s->tail[s->ntail++] = *p++;
        n--;
        if (s->ntail == 8) {
            sip_block(s, sip_le64(s->tail));
            s->ntail = 0;
        }
    }
}

uint64_t cd_siphash(const uint8_t key[16], const void *prefix, size_t nprefix, const void *data, size_t n)
{
    uint64_t k0 = sip_le64(key), k1 = sip_le64(key + 8);
    sip_state s = {.v0 = k0 ^ 0x736f6d6570736575ull, .v1 = k1 ^ 0x646f72616e646f6dull,
                   .v2 = k0 ^ 0x6c7967656e657261ull, .v3 = k1 ^ 0x7465646279746573ull};
    sip_add(&s, prefix, nprefix);
    sip_add(&s, data, n);
    uint64_t last = (uint64_t)(s.total & 0xff) << 56;
    for (size_t i = 0; i < s.ntail; i++)
        last |= (uint64_t)s.tail[i] << (8 * i);
    sip_block(&s, last);
    s.v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        sip_round(&s);
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
