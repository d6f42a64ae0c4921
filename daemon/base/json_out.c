/*
 * json_out.c — json_dumps, the same bytes for the flags carcd uses, without jansson's loop-check table
 * (json_out.h).
 */
#include "json_out.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t len, cap;
} out_buf;

static bool reserve(out_buf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap)
        return true;
    /* small first: a request of 1 KiB or more is a large-bin one, and glibc runs malloc_consolidate for it
     * whenever fastbins hold chunks; a log line or a move's answer fits below (the per-thread tcache) */
    size_t cap = b->cap ? b->cap : 512;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = cap;
    return true;
}

static bool put(out_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return false;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return true;
}

static bool put_char(out_buf *b, char c)
{
    return put(b, &c, 1);
}

/* json_dumps's text, in malloc memory: json_dumps's own comes from jansson's allocator, which inside a
 * request is the request's arena (json_arena.h), and carcd frees what cd_json_dumps returns with free(). */
static char *dumps_malloc(const json_t *json, size_t flags)
{
    size_t n = json_dumpb(json, NULL, 0, flags);
    char *p = n ? malloc(n + 1) : NULL;
    if (!p)
        return NULL;
    if (json_dumpb(json, p, n, flags) != n) {
        free(p);
        return NULL;
    }
    p[n] = '\0';
    return p;
}

/* What jansson writes for one value: for what this file leaves to it (reals, non-ASCII strings). */
static bool put_jansson(out_buf *b, const json_t *json, size_t flags)
{
    /* straight into the buffer's free room; only a value larger than that is written twice */
    size_t room = b->cap > b->len ? b->cap - b->len - 1 : 0;
    size_t n = json_dumpb(json, room ? b->p + b->len : NULL, room, flags | JSON_ENCODE_ANY);
    if (n == 0)
        return false;
    if (n > room && (!reserve(b, n) || json_dumpb(json, b->p + b->len, n, flags | JSON_ENCODE_ANY) != n))
        return false;
    b->len += n;
    return true;
}

/* A string the way jansson's dump_string writes it, for ASCII text; *ascii false (and no output) for anything
 * else. One pass: the runs between escapes are copied whole, and a non-ASCII byte takes back what was written. */
static bool put_ascii_string(out_buf *b, const char *s, size_t n, size_t flags, bool *ascii)
{
    size_t start = b->len;
    *ascii = true;
    if (!reserve(b, n + 2))
        return false;
    b->p[b->len++] = '"';
    bool slash = flags & JSON_ESCAPE_SLASH;
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && !(c == '/' && slash))
            continue;
        if (c >= 0x80) {   /* not ASCII: jansson writes it (put_string) */
            b->len = start;
            *ascii = false;
            return true;
        }
        if (!put(b, s + from, i - from))
            return false;
        from = i + 1;
        char esc[8] = {'\\', 0};
        size_t len = 2;
        switch (c) {
        case '\\': esc[1] = '\\'; break;
        case '"': esc[1] = '"'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '/': esc[1] = '/'; break;
        default: {   /* "\\u%04X" */
            static const char hex[] = "0123456789ABCDEF";
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            len = 6;
        }
        }
        if (!put(b, esc, len))
            return false;
    }
    return put(b, s + from, n - from) && put_char(b, '"');
}

static bool put_string(out_buf *b, const char *s, size_t n, size_t flags)
{
    bool ascii;
    if (!put_ascii_string(b, s, n, flags, &ascii))
        return false;
    if (ascii)
        return true;
    json_t *str = json_stringn_nocheck(s, n);   /* jansson checks the UTF-8 as it writes */
    if (!str)
        return false;
    bool ok = put_jansson(b, str, flags);
    json_decref(str);
    return ok;
}

static bool put_integer(out_buf *b, json_int_t v)
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
    return put(b, tmp + k, sizeof tmp - k);
}

static bool put_value(out_buf *b, const json_t *json, size_t flags);

/* JSON_SORT_KEYS's order, as jansson's dump.c compares keys: bytes up to the shorter length, then length. */
typedef struct {
    const char *key;
    size_t len;
    const json_t *value;
} member;

static int member_cmp(const void *a, const void *b)
{
    const member *x = a, *y = b;
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* An object's members in key order, without the braces (the request hash of a move: moves_post.c). */
static bool put_sorted_members(out_buf *b, const json_t *json, size_t flags)
{
    size_t n = json_object_size(json), i = 0;
    member few[32], *m = n <= 32 ? few : malloc(n * sizeof *m);
    if (!m)
        return false;
    const char *key;
    size_t klen;
    json_t *v;
    json_object_keylen_foreach((json_t *)json, key, klen, v) {
        m[i++] = (member){key, klen, v};
    }
    qsort(m, n, sizeof *m, member_cmp);
    bool ok = true;
    for (i = 0; i < n && ok; i++)
        ok = (i == 0 || put_char(b, ',')) && put_string(b, m[i].key, m[i].len, flags) && put_char(b, ':') &&
             put_value(b, m[i].value, flags);
    if (m != few)
        free(m);
    return ok;
}

static bool put_value(out_buf *b, const json_t *json, size_t flags)
{
    switch (json_typeof(json)) {
    case JSON_NULL:
        return put(b, "null", 4);
    case JSON_TRUE:
        return put(b, "true", 4);
    case JSON_FALSE:
        return put(b, "false", 5);
    case JSON_INTEGER:
        return put_integer(b, json_integer_value(json));
    case JSON_REAL:
        return put_jansson(b, json, flags);
    case JSON_STRING:
        return put_string(b, json_string_value(json), json_string_length(json), flags);
    case JSON_ARRAY: {
        if (!put_char(b, '['))
            return false;
        size_t n = json_array_size(json);
        for (size_t i = 0; i < n; i++)
            if ((i > 0 && !put_char(b, ',')) || !put_value(b, json_array_get(json, i), flags))
                return false;
        return put_char(b, ']');
    }
    case JSON_OBJECT: {
        if (!put_char(b, '{'))
            return false;
        if (flags & JSON_SORT_KEYS)
            return put_sorted_members(b, json, flags) && put_char(b, '}');
        bool first = true;
        const char *key;
        size_t klen;
        json_t *v;
        json_object_keylen_foreach((json_t *)json, key, klen, v) {
            if ((!first && !put_char(b, ',')) || !put_string(b, key, klen, flags) || !put_char(b, ':') ||
                !put_value(b, v, flags))
                return false;
            first = false;
        }
        return put_char(b, '}');
    }
    }
    return false;
}

char *cd_json_dumps(const json_t *json, size_t flags)
{
    const size_t mine = JSON_COMPACT | JSON_ENCODE_ANY | JSON_ESCAPE_SLASH | JSON_SORT_KEYS | JSON_REAL_PRECISION(31);
    if ((flags & ~mine) || !(flags & JSON_COMPACT))
        return dumps_malloc(json, flags);
    if (!json || (!(flags & JSON_ENCODE_ANY) && !json_is_object(json) && !json_is_array(json)))
        return NULL;
    out_buf b = {0};
    if (!put_value(&b, json, flags)) {
        free(b.p);
        return NULL;
    }
    b.p[b.len] = '\0';
#ifdef CD_JSON_OUT_CHECK
    char *ref = dumps_malloc(json, flags);
    if (!ref || strcmp(ref, b.p) != 0) {
        fprintf(stderr, "cd_json_dumps MISMATCH\n%s\n%s\n", ref ? ref : "(null)", b.p);
        abort();
    }
    free(ref);
#endif
    return b.p;
}
