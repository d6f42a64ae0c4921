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

static int hexval(char c)
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
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
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
