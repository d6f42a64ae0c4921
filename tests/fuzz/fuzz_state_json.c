/*
 * fuzz_state_json.c — libFuzzer target for the snapshot decoder: bytes → json_loadb → carc_state_from_json.
 * Malformed input must give an error with a message, never a crash. A snapshot that decodes must encode and
 * decode again to the same state and the same JSON, and render every view.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Loaded once: a static is acceptable in a fuzz harness (the engine itself keeps none). */
static const carc_catalog *catalog(void)
{
    static carc_catalog *cat;
    if (!cat) {
        char err[256];
        cat = malloc(sizeof *cat);
        if (!cat || carc_catalog_load(cat, err, sizeof err) != 0) {
            fprintf(stderr, "catalog: %s\n", cat ? err : "out of memory");
            abort();
        }
    }
    return cat;
}

static void fail(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_state_json: %s%s%s\n", what, err ? ": " : "", err ? err : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static carc_state a, b;   /* large; static keeps them off the fuzzer's stack */
    const carc_catalog *cat = catalog();
    char err[256] = "";
    json_t *j = json_loadb((const char *)data, size, JSON_ALLOW_NUL | JSON_DECODE_ANY, NULL);
    if (!j)
        return 0;
    if (carc_state_from_json(&a, cat, j, err, sizeof err) != 0) {
        if (!err[0])
            fail("an error without a message", NULL);
        json_decref(j);
        return 0;
    }
    json_t *k = carc_state_to_json(&a);
    if (carc_state_from_json(&b, cat, k, err, sizeof err) != 0)
        fail("a re-encoded snapshot does not decode", err);
    /* the decoder zeroes the state before filling it, so the canonical part compares byte for byte */
    if (memcmp(&a, &b, offsetof(carc_state, board)) != 0)
        fail("decode(encode(decode(x))) differs from decode(x)", NULL);
    json_t *k2 = carc_state_to_json(&b);
    if (!json_equal(k, k2))
        fail("the snapshot encodes differently after a round trip", NULL);
    for (int v = CARC_VIEW_PUBLIC; v < a.nplayers; v++)
        json_decref(carc_view_to_json(&a, v));
    json_decref(k2);
    json_decref(k);
    json_decref(j);
    return 0;
}
