/*
 * crypto.h — randomness, hex and the hashes carcd keeps instead of secrets: seeds and tokens come from the
 * kernel (getrandom), tokens are stored only as their SHA-256 (libcrypto).
 */
#ifndef CD_CRYPTO_H
#define CD_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_TOKEN_LEN 46     /* "cs_" + 43 base64url characters (32 random bytes) */
#define CD_HEX256_LEN 65    /* 64 hex digits + NUL */

/* n random bytes from the kernel; aborts if the kernel cannot give them. */
void cd_random_bytes(uint8_t *buf, size_t n);
void cd_hex(const uint8_t *bytes, size_t n, char *out);   /* out: 2n + 1 */
bool cd_unhex(const char *hex, uint8_t *out, size_t n);   /* exactly 2n hex digits */
int cd_hex_digit(char c);                                  /* 0..15, either case; -1 for any other byte */
/* A new seat token: "cs_" and 43 base64url characters of 32 random bytes. */
void cd_token_new(char token[CD_TOKEN_LEN + 1]);
/* SHA-256 of text, in hex: what the database keeps of a token or key. */
void cd_sha256_hex(const char *text, char out[CD_HEX256_LEN]);
/* SHA-256 of n bytes (a seed's published hash). */
void cd_sha256_bytes(const uint8_t *data, size_t n, uint8_t out[32]);
/* SipHash-2-4 (Aumasson and Bernstein) of prefix then data under a 16-byte secret key: a keyed hash for hash
 * tables whose keys come from clients (the rate limits' buckets), so that collisions cannot be chosen
 * without the key; about 20 times cheaper than a keyed SHA-256 for a short key. */
uint64_t cd_siphash(const uint8_t key[16], const void *prefix, size_t nprefix, const void *data, size_t n);
/* Whether the n bytes at a and b are equal, in time that does not depend on where they differ. */
bool cd_secret_equal(const void *a, const void *b, size_t n);

#endif
