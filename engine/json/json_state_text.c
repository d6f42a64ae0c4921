/*
 * json_state_text.c — carc_state_to_json_text: the snapshot's compact JSON text written directly, without the
 * jansson tree. carcd stores a snapshot with every move, and building the tree (an object, a hash table and
 * five allocations per piece) and walking it again to write it was a quarter of carcd's CPU per move. The
 * large, regular members (stack, discarded, pieces, figures) are written here; the small ones (options,
 * pending, the expansions' members) are built by the same code as carc_state_to_json and written by a walk
 * of those small trees, so there is one definition of each. The text is exactly json_dumps(carc_state_to_json(st),
 * JSON_COMPACT) (test_json: random games with every expansion, at every move).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"

typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} tbuf;

static bool room(tbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static void put(tbuf *b, const char *s, size_t n)
{
    if (room(b, n)) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
}

static void put_lit(tbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_int(tbuf *b, long long v)
{
    char tmp[24];
    size_t k = sizeof tmp;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--k] = '-';
    put(b, tmp + k, sizeof tmp - k);
}

/* A string as jansson writes it without flags: quotes, backslashes and control bytes escaped, other bytes
 * (UTF-8 included: every string here is the catalog's or the engine's, valid UTF-8) as they are. */
static void put_strn(tbuf *b, const char *s, size_t n)
{
    put(b, "\"", 1);
    size_t from = 0, i = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(b, s + from, i - from);
        from = i + 1;
        char esc[8];
        switch (c) {
        case '"': put(b, "\\\"", 2); break;
        case '\\': put(b, "\\\\", 2); break;
        case '\b': put(b, "\\b", 2); break;
        case '\f': put(b, "\\f", 2); break;
        case '\n': put(b, "\\n", 2); break;
        case '\r': put(b, "\\r", 2); break;
        case '\t': put(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", c);
            put(b, esc, 6);
        }
    }
    put(b, s + from, i - from);
    put(b, "\"", 1);
}

static void put_str(tbuf *b, const char *s) { put_strn(b, s, strlen(s)); }

/* ,"key": (without the comma for the first member) */
static void put_key(tbuf *b, const char *key, bool first)
{
    if (!first)
        put(b, ",", 1);
    put_str(b, key);
    put(b, ":", 1);
}

/* A tree value written as json_dumps(JSON_COMPACT) would (keys in insertion order); a real, which no snapshot
 * holds, by jansson itself. */
static void put_value(tbuf *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        put(b, "{", 1);
        bool first = true;
        const char *key;
        json_t *m;
        json_object_foreach((json_t *)v, key, m) {
            put_key(b, key, first);
            put_value(b, m);
            first = false;
        }
        put(b, "}", 1);
        break;
    }
    case JSON_ARRAY:
        put(b, "[", 1);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                put(b, ",", 1);
            put_value(b, json_array_get(v, i));
        }
        put(b, "]", 1);
        break;
    case JSON_STRING: put_strn(b, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: put_int(b, json_integer_value(v)); break;
    case JSON_TRUE: put_lit(b, "true"); break;
    case JSON_FALSE: put_lit(b, "false"); break;
    case JSON_NULL: put_lit(b, "null"); break;
    default: {
        size_t n = json_dumpb(v, NULL, 0, JSON_ENCODE_ANY);
        if (n == 0 || !room(b, n) || json_dumpb(v, b->p + b->len, n, JSON_ENCODE_ANY) != n)
            b->failed = true;
        else
            b->len += n;
    }
    }
}

/* A value built by the tree encoders (stolen), written in place. */
static void put_tree(tbuf *b, json_t *v)
{
    if (!v) {
        b->failed = true;
        return;
    }
    put_value(b, v);
    json_decref(v);
}

static void put_tiles(tbuf *b, const carc_catalog *cat, const uint8_t *types, size_t n)
{
    put(b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(b, ",", 1);
        put_str(b, carc_jb_tile_id(cat, types[i]));
    }
    put(b, "]", 1);
}

char *carc_state_to_json_text(const carc_state *st, bool with_seed)
{
    tbuf b = {0};
    room(&b, 4096);   /* one allocation for a small snapshot; the buffer doubles past it */
    put_lit(&b, "{\"version\":");
    put_int(&b, CARC_JSON_VERSION);
    put_lit(&b, ",\"nplayers\":");
    put_int(&b, st->nplayers);
    put_key(&b, "expansions", false);
    put_tree(&b, carc_expansions_to_json(st->expansions));
    put_key(&b, "options", false);
    put_tree(&b, carc_options_to_json(st->opt));
    put_key(&b, "status", false);
    put_str(&b, carc_j_status_names[st->status == CARC_FINISHED]);
    put_lit(&b, ",\"active\":");
    put_int(&b, st->active);
    put_lit(&b, ",\"turn\":");
    put_int(&b, st->turn);
    put_lit(&b, ",\"players\":[");
    for (int s = 0; s < st->nplayers; s++) {
        put_lit(&b, s ? ",{\"seat\":" : "{\"seat\":");
        put_int(&b, s);
        put_lit(&b, ",\"score\":");
        put_int(&b, st->players[s].score);
        put(&b, "}", 1);
    }
    put_lit(&b, "],\"rng\":{");
    if (with_seed) {
        static const char hex[] = "0123456789abcdef";
        char seed[65];
        for (int i = 0; i < 32; i++) {
            seed[2 * i] = hex[st->rng.key[i] >> 4];
            seed[2 * i + 1] = hex[st->rng.key[i] & 15];
        }
        seed[64] = '\0';
        put_lit(&b, "\"seed\":");
        put_str(&b, seed);
        put(&b, ",", 1);
    }
    put_lit(&b, "\"pos\":");
    put_int(&b, (long long)st->rng.pos);
    put_lit(&b, "},\"stack\":");
    put_tiles(&b, st->cat, st->stack, st->stack_len);
    put_lit(&b, ",\"stack_pos\":");
    put_int(&b, st->stack_pos);
    put_lit(&b, ",\"discarded\":");
    put_tiles(&b, st->cat, st->discarded, st->ndiscarded);
    put_lit(&b, ",\"pieces\":[");
    for (int i = 0; i < st->npieces; i++) {
        const carc_piece *pc = &st->pieces[i];
        put_lit(&b, i ? ",{\"tile\":" : "{\"tile\":");
        put_str(&b, carc_jb_tile_id(st->cat, pc->type));
        put_lit(&b, ",\"x\":");
        put_int(&b, pc->x);
        put_lit(&b, ",\"y\":");
        put_int(&b, pc->y);
        put_lit(&b, ",\"rot\":");
        put_int(&b, pc->rot);
        if (pc->under != CARC_NO_TYPE) {
            put_lit(&b, ",\"under\":");
            put_str(&b, carc_jb_tile_id(st->cat, pc->under));
        }
        put(&b, "}", 1);
    }
    put_lit(&b, "],\"figures\":[");
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *f = &st->figures[i];
        unsigned type = f->piece < st->npieces ? st->pieces[f->piece].type : CARC_NO_TYPE;
        put_lit(&b, i ? ",{\"seat\":" : "{\"seat\":");
        put_int(&b, f->seat);
        put_lit(&b, ",\"figure\":");
        put_str(&b, f->kind < CARC_NFIG_KINDS ? carc_j_fig_names[f->kind] : "?");
        put_lit(&b, ",\"piece\":");
        put_int(&b, f->piece);
        put_lit(&b, ",\"part\":");
        put_str(&b, carc_jb_part_name(st->cat, type, f->part));
        put(&b, "}", 1);
    }
    put_lit(&b, "],\"pending\":");
    put_tree(&b, carc_jb_pending(st));
    put_lit(&b, ",\"turn_state\":{\"phase\":");
    put_str(&b, st->tn.phase <= CARC_PH_DRAFT ? carc_j_phase_names[st->tn.phase] : "?");
    put_lit(&b, ",\"piece\":");
    put_int(&b, st->tn.piece == CARC_NO_PIECE ? -1 : st->tn.piece);
    put_lit(&b, ",\"figure\":");
    put_int(&b, st->tn.figure == 0xFF ? -1 : st->tn.figure);
    put_lit(&b, ",\"fruit_done\":");
    put_int(&b, st->tn.fruit_done);
    put_lit(&b, "},\"left\":[");
    bool first = true;
    for (int s = 0; s < st->nplayers; s++)
        if (st->left >> s & 1) {
            if (!first)
                put(&b, ",", 1);
            put_int(&b, s);
            first = false;
        }
    put(&b, "]", 1);
    /* each expansion in play adds its own member, named after its set, in carc_state_to_json's order */
    json_t *(*const parts[])(const carc_state *) = {carc_jx_hills_to, carc_jx_fruit_to, carc_jx_crop_to,
                                                    carc_jx_halflings_to};
    const carc_set sets[] = {CARC_SET_HILLS_SHEEP, CARC_SET_FRUIT_TREES, CARC_SET_CROP_CIRCLES, CARC_SET_HALFLINGS};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *part = carc_has(st, sets[i]) ? parts[i](st) : NULL;
        if (part) {
            put_key(&b, carc_set_names[sets[i]], false);
            put_tree(&b, part);
        }
    }
    put(&b, "}", 1);
    if (b.failed || !b.p) {
        free(b.p);
        return NULL;
    }
    b.p[b.len] = '\0';
    return b.p;
}
