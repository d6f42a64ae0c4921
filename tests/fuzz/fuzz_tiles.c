/*
 * fuzz_tiles.c — libFuzzer target for the tile-data parser: bytes → carc_catalog_parse, into an empty catalog
 * and into one already holding the built-in sets (so `like` and `replaces` can refer to earlier tiles).
 * Malformed text must give an error with a message and leave the catalog as it was; text that parses must
 * give a catalog whose indexes all stay in bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_tiles: %s%s%s\n", what, err ? ": " : "", err ? err : "");
    abort();
}

static bool name_ok(const char *s)
{
    return memchr(s, '\0', CARC_ID_LEN) != NULL && s[0] != '\0';
}

/* The bounds the engine relies on when it indexes a catalog. */
static void check_catalog(const carc_catalog *cat)
{
    if (cat->ntypes < 0 || cat->ntypes > CARC_MAX_TYPES)
        fail("ntypes out of range", NULL);
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (!name_ok(t->id) || carc_catalog_find(cat, t->id) < 0 || t->nparts > CARC_MAX_PARTS ||
            t->shape > CARC_TRIANGLE || t->set >= CARC_NSETS_ALL || t->when >= CARC_NOPTS ||
            (t->replaces != CARC_NO_TYPE && t->replaces >= cat->ntypes))
            fail("a tile type out of bounds", t->id);
        for (int p = 0; p < t->nparts; p++)
            if (!name_ok(t->parts[p].name) || t->parts[p].kind >= CARC_NPART_KINDS ||
                carc_part_find(t, t->parts[p].name) != p)
                fail("a part out of bounds", t->id);
        for (int s = 0; s < CARC_NSIDES; s++) {
            const carc_side *sd = &t->side[s];
            if (sd->nseg > CARC_MAX_SEGS)
                fail("too many segments on a side", t->id);
            for (int k = 0; k < sd->nseg; k++)
                if (sd->seg[k].part >= t->nparts || sd->seg[k].lo >= sd->seg[k].hi ||
                    sd->seg[k].hi > CARC_SIDE_UNITS)
                    fail("a side segment out of bounds", t->id);
        }
    }
}

static void parse_into(carc_catalog *cat, const uint8_t *data, size_t size)
{
    static carc_catalog before;
    char err[256] = "";
    memcpy(&before, cat, sizeof before);
    if (carc_catalog_parse(cat, (const char *)data, size, "fuzz.tiles", err, sizeof err) != 0) {
        if (!err[0])
            fail("an error without a message", NULL);
        if (cat->ntypes != before.ntypes ||
            memcmp(before.types, cat->types, (size_t)before.ntypes * sizeof before.types[0]) != 0)
            fail("a failed parse changed the catalog", err);
        return;
    }
    check_catalog(cat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static carc_catalog builtin, cat;
    static bool loaded;
    char err[256];
    if (!loaded) {
        if (carc_catalog_load(&builtin, err, sizeof err) != 0)
            fail("catalog", err);
        loaded = true;
    }
    memset(&cat, 0, sizeof cat);
    parse_into(&cat, data, size);
    memcpy(&cat, &builtin, sizeof cat);
    parse_into(&cat, data, size);
    return 0;
}
