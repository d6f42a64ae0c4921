/*
 * json_read.c — strict reading of JSON for the codec's decoders: one check per JSON kind (presence, type,
 * range, known names), each failing with a message that names the field's path. See json_priv.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_priv.h"

/* Appends p's text to out[*len..n); recursion depth is the nesting depth of the decoded value (small). */
static void carc_jpath_append(const carc_jpath *p, char *out, size_t n, size_t *len)
{
    if (!p)
        return;
    carc_jpath_append(p->up, out, n, len);
    if (*len >= n)
        return;
    int w;
    if (p->key)
        w = snprintf(out + *len, n - *len, "%s%s", *len ? "." : "", p->key);
    else
        w = snprintf(out + *len, n - *len, "[%zu]", p->idx);
    if (w > 0)
        *len += (size_t)w;
}

/* Formats p (and a trailing key, if any) as "a.b[3].c"; the root is "". */
static void carc_jpath_format(const carc_jpath *p, const char *key, char *out, size_t n)
{
    if (n == 0)
        return;
    out[0] = '\0';
    carc_jpath node = {p, key, 0};
    size_t len = 0;
    carc_jpath_append(key ? &node : p, out, n, &len);
}

int carc_jr_fail(char *err, size_t errlen, const carc_jpath *p, const char *key, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return CARC_E_INVALID;
    char path[160];
    carc_jpath_format(p, key, path, sizeof path);
    size_t len = 0;
    if (path[0]) {
        int w = snprintf(err, errlen, "%s: ", path);
        len = w > 0 ? (size_t)w : 0;
    }
    if (len < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + len, errlen - len, fmt, ap);
        va_end(ap);
    }
    return CARC_E_INVALID;
}

/* The value to check: obj[key] with a key, obj itself without. Reports a missing member. */
static int carc_jr_value(const json_t *obj, const carc_jpath *p, const char *key, const json_t **v, char *err,
                         size_t errlen)
{
    *v = key ? json_object_get(obj, key) : obj;
    if (!*v)
        return carc_jr_fail(err, errlen, p, key, "missing field");
    return 0;
}

int carc_jr_object(const json_t *obj, const carc_jpath *p, const char *key, const char *const *keys,
                   const json_t **out, char *err, size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    if (!json_is_object(v))
        return carc_jr_fail(err, errlen, p, key, "expected an object");
    carc_jpath here = {p, key, 0};
    const carc_jpath *vp = key ? &here : p;
    const char *k;
    json_t *member;
    json_object_foreach((json_t *)v, k, member) {
        bool known = false;
        for (const char *const *kk = keys; *kk && !known; kk++)
            known = strcmp(*kk, k) == 0;
        if (!known)
            return carc_jr_fail(err, errlen, vp, k, "unknown field");
    }
    *out = v;
    return 0;
}

int carc_jr_int(const json_t *obj, const carc_jpath *p, const char *key, json_int_t lo, json_int_t hi,
                json_int_t *out, char *err, size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return carc_jr_fail(err, errlen, p, key, "expected an integer %" JSON_INTEGER_FORMAT "..%"
                            JSON_INTEGER_FORMAT, lo, hi);
    *out = json_integer_value(v);
    return 0;
}

int carc_jr_bool(const json_t *obj, const carc_jpath *p, const char *key, bool *out, char *err, size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    if (!json_is_boolean(v))
        return carc_jr_fail(err, errlen, p, key, "expected true or false");
    *out = json_is_true(v);
    return 0;
}

int carc_jr_str(const json_t *obj, const carc_jpath *p, const char *key, const char **out, char *err,
                size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    /* json_string_length differs from strlen only for strings with NUL inside (JSON_ALLOW_NUL): refuse them */
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v))
        return carc_jr_fail(err, errlen, p, key, "expected a string");
    *out = json_string_value(v);
    return 0;
}

int carc_jr_array(const json_t *obj, const carc_jpath *p, const char *key, size_t max, const json_t **out,
                  char *err, size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    if (!json_is_array(v) || json_array_size(v) > max)
        return carc_jr_fail(err, errlen, p, key, "expected an array of at most %zu entries", max);
    *out = v;
    return 0;
}

int carc_jr_enum(const json_t *obj, const carc_jpath *p, const char *key, const char *const *names, int n,
                 int *out, char *err, size_t errlen)
{
    const json_t *v;
    int rc = carc_jr_value(obj, p, key, &v, err, errlen);
    if (rc)
        return rc;
    for (int i = 0; json_is_string(v) && i < n; i++)
        if (strcmp(names[i], json_string_value(v)) == 0 && strlen(names[i]) == json_string_length(v)) {
            *out = i;
            return 0;
        }
    char list[200];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list; i++) {
        int w = snprintf(list + len, sizeof list - len, "%s\"%s\"", i ? ", " : "", names[i]);
        if (w > 0)
            len += (size_t)w;
    }
    return carc_jr_fail(err, errlen, p, key, "expected one of %s", list);
}

int carc_jr_tile(const carc_catalog *cat, const json_t *obj, const carc_jpath *p, const char *key,
                 uint8_t *out, char *err, size_t errlen)
{
    const char *s = NULL;
    int rc = carc_jr_str(obj, p, key, &s, err, errlen);
    if (rc)
        return rc;
    int t = carc_catalog_find(cat, s);
    if (t < 0 || t >= CARC_NO_TYPE)
        return carc_jr_fail(err, errlen, p, key, "unknown tile id \"%.*s\"", 16, s);
    *out = (uint8_t)t;
    return 0;
}

int carc_jr_part(const carc_catalog *cat, unsigned type, const json_t *obj, const carc_jpath *p,
                 const char *key, uint8_t *out, char *err, size_t errlen)
{
    const char *s = NULL;
    int rc = carc_jr_str(obj, p, key, &s, err, errlen);
    if (rc)
        return rc;
    const carc_tile_type *t = &cat->types[type];
    int part = carc_part_find(t, s);
    if (part < 0 || part >= t->nparts)
        return carc_jr_fail(err, errlen, p, key, "unknown part \"%.*s\" on tile \"%s\"", 16, s, t->id);
    *out = (uint8_t)part;
    return 0;
}
