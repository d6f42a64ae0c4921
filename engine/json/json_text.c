/*
 * json_text.c — compact JSON text written straight into a growing buffer (json_text.h: carc_tb_*), for the
 * texts carcd writes with every move or read (json_state_text.c: the snapshot; json_moves_text.c: the legal
 * moves): the same bytes as json_dumps(JSON_COMPACT) of the tree the other encoders build, without the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"

bool carc_tb_room(carc_tb *b, size_t n)
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

void carc_tb_int(carc_tb *b, long long v)
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
    carc_tb_put(b, tmp + k, sizeof tmp - k);
}

/* A string as jansson writes it without flags: quotes, backslashes and control bytes escaped, other bytes
 * (UTF-8 included: every string here is the catalog's or the engine's, valid UTF-8) as they are. */
void carc_tb_strn(carc_tb *b, const char *s, size_t n)
{
    carc_tb_put(b, "\"", 1);
    size_t from = 0, i = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        carc_tb_put(b, s + from, i - from);
        from = i + 1;
        char esc[8];
        switch (c) {
        case '"': carc_tb_put(b, "\\\"", 2); break;
        case '\\': carc_tb_put(b, "\\\\", 2); break;
        case '\b': carc_tb_put(b, "\\b", 2); break;
        case '\f': carc_tb_put(b, "\\f", 2); break;
        case '\n': carc_tb_put(b, "\\n", 2); break;
        case '\r': carc_tb_put(b, "\\r", 2); break;
        case '\t': carc_tb_put(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", c);
            carc_tb_put(b, esc, 6);
        }
    }
    carc_tb_put(b, s + from, i - from);
    carc_tb_put(b, "\"", 1);
}

void carc_tb_str(carc_tb *b, const char *s) { carc_tb_strn(b, s, strlen(s)); }

/* ,"key": (without the comma for the first member) */
void carc_tb_key(carc_tb *b, const char *key, bool first)
{
    if (!first)
        carc_tb_put(b, ",", 1);
    carc_tb_str(b, key);
    carc_tb_put(b, ":", 1);
}

/* A tree value written as json_dumps(JSON_COMPACT) would (keys in insertion order); a real, which no snapshot
 * holds, by jansson itself. */
void carc_tb_value(carc_tb *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        carc_tb_put(b, "{", 1);
        bool first = true;
        const char *key;
        json_t *m;
        json_object_foreach((json_t *)v, key, m) {
            carc_tb_key(b, key, first);
            carc_tb_value(b, m);
            first = false;
        }
        carc_tb_put(b, "}", 1);
        break;
    }
    case JSON_ARRAY:
        carc_tb_put(b, "[", 1);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                carc_tb_put(b, ",", 1);
            carc_tb_value(b, json_array_get(v, i));
        }
        carc_tb_put(b, "]", 1);
        break;
    case JSON_STRING: carc_tb_strn(b, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: carc_tb_int(b, json_integer_value(v)); break;
    case JSON_TRUE: carc_tb_lit(b, "true"); break;
    case JSON_FALSE: carc_tb_lit(b, "false"); break;
    case JSON_NULL: carc_tb_lit(b, "null"); break;
    default: {
        size_t n = json_dumpb(v, NULL, 0, JSON_ENCODE_ANY);
        if (n == 0 || !carc_tb_room(b, n) || json_dumpb(v, b->p + b->len, n, JSON_ENCODE_ANY) != n)
            b->failed = true;
        else
            b->len += n;
    }
    }
}

/* A value built by the tree encoders (stolen), written in place. */
void carc_tb_tree(carc_tb *b, json_t *v)
{
    if (!v) {
        b->failed = true;
        return;
    }
    carc_tb_value(b, v);
    json_decref(v);
}
