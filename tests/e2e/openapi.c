/*
 * openapi.c — answers against api-docs/openapi.json: operation lookup by concrete path, response by status,
 * schema by media type, and a validator for the part of JSON Schema 2020-12 the document uses.
 *
 * The validator is strict: an object may hold only the properties its schema declares. A schema "declares"
 * a property the way JSON Schema's unevaluatedProperties: false sees it — through its own properties and
 * patternProperties, its $ref, every allOf branch, the anyOf branches that match, the oneOf branch that
 * matches (or the one the discriminator picks). A schema with additionalProperties (a schema or true)
 * declares every name; additionalProperties: false keeps its standard meaning (only its own properties).
 * The check is made where a value is validated as a whole — the answer itself, each property value, each
 * array item — never inside a branch, so a property declared by a sibling allOf branch is not refused.
 */
#include "openapi.h"

#include <pthread.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef CARC_SOURCE_DIR
#error "CARC_SOURCE_DIR must name the source tree (set by CMake)"
#endif

static json_t *doc;

bool e2e_openapi_load(void)
{
    if (doc)
        return true;
    const char *path = CARC_SOURCE_DIR "/api-docs/openapi.json";
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fclose(f);
    json_error_t e;
    doc = json_load_file(path, 0, &e);
    if (!doc) {
        fprintf(stderr, "e2e: %s:%d: %s\n", path, e.line, e.text);
        abort();
    }
    return true;
}

bool e2e_openapi_loaded(void)
{
    return doc != NULL;
}

const json_t *e2e_openapi_doc(void)
{
    return doc;
}

/* ---- failures ----------------------------------------------------------------------------------------------- */
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;
static int nfail;
static char first_fail[6000];

void e2e_openapi_record(const char *msg)
{
    pthread_mutex_lock(&fail_mu);
    if (nfail < 5) {
        size_t n = strlen(first_fail);
        snprintf(first_fail + n, sizeof first_fail - n, "%s\n", msg);
    }
    nfail++;
    pthread_mutex_unlock(&fail_mu);
    fprintf(stderr, "e2e: openapi: %s\n", msg);
}

int e2e_openapi_failures(void)
{
    pthread_mutex_lock(&fail_mu);
    int n = nfail;
    pthread_mutex_unlock(&fail_mu);
    return n;
}

const char *e2e_openapi_first_failures(void)
{
    return first_fail;
}

/* ---- references ----------------------------------------------------------------------------------------- */
/* Resolves "#/a/b~1c" in the document; NULL when it names nothing. */
static const json_t *resolve_ref(const char *ref)
{
    if (!doc || strncmp(ref, "#", 1) != 0)
        return NULL;
    const json_t *cur = doc;
    const char *p = ref + 1;
    char tok[256];
    while (cur && *p == '/') {
        p++;
        size_t n = 0;
        while (*p && *p != '/' && n + 1 < sizeof tok) {
            if (p[0] == '~' && p[1] == '1') {
                tok[n++] = '/';
                p += 2;
            } else if (p[0] == '~' && p[1] == '0') {
                tok[n++] = '~';
                p += 2;
            } else {
                tok[n++] = *p++;
            }
        }
        tok[n] = 0;
        if (json_is_array(cur))
            cur = json_array_get(cur, (size_t)strtoul(tok, NULL, 10));
        else
            cur = json_object_get(cur, tok);
    }
    return *p ? NULL : cur;
}

/* An object that may be {"$ref": ...} (responses, parameters): the object it stands for. */
static const json_t *deref(const json_t *o)
{
    for (int depth = 0; depth < 16 && json_is_object(o); depth++) {
        const char *ref = json_string_value(json_object_get(o, "$ref"));
        if (!ref)
            return o;
        o = resolve_ref(ref);
    }
    return o;
}

/* ---- the validator ---------------------------------------------------------------------------------------- */
typedef struct {
    char *why;
    size_t len;
} verr;

static bool schema_fail(verr *e, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool schema_fail(verr *e, const char *where, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(e->why, e->len, "%s: %s", where, msg);
    return false;
}

static const char *json_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static bool type_is(const json_t *v, const char *t)
{
    if (strcmp(t, "number") == 0)
        return json_is_number(v);
    if (strcmp(t, "boolean") == 0)
        return json_is_boolean(v);
    return strcmp(json_type_name(v), t) == 0;
}

static double num(const json_t *v)
{
    return json_number_value(v);
}

/* Code points of a UTF-8 string (jansson guarantees valid UTF-8). */
static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* An ECMA-262 pattern as POSIX ERE: the escapes the document might use. */
static void ecma_to_ere(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 16 < cap; p++) {
        if (p[0] == '\\' && p[1]) {
            const char *rep = NULL;
            switch (p[1]) {
            case 'd': rep = "[0-9]"; break;
            case 'D': rep = "[^0-9]"; break;
            case 'w': rep = "[A-Za-z0-9_]"; break;
            case 'W': rep = "[^A-Za-z0-9_]"; break;
            case 's': rep = "[[:space:]]"; break;
            case 'S': rep = "[^[:space:]]"; break;
            }
            if (rep) {
                n += (size_t)snprintf(out + n, cap - n, "%s", rep);
                p++;
                continue;
            }
            out[n++] = *p++;
            out[n++] = *p;
            continue;
        }
        out[n++] = *p;
    }
    out[n] = 0;
}

/* Keywords that only annotate: no effect on validity. */
static bool annotation(const char *k)
{
    static const char *const names[] = {"description", "title", "examples", "example", "format", "default",
                                        "deprecated", "readOnly", "writeOnly", "$comment", "externalDocs",
                                        "$schema", "$id", "contentMediaType", "xml", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(k, names[i]) == 0)
            return true;
    return strncmp(k, "x-", 2) == 0;
}

/* The property names of one object value that some (sub)schema declared (see the file's header). */
typedef struct {
    json_t *names;   /* a jansson object used as a set; NULL when the value is not an object */
    bool all;        /* additionalProperties (or a true schema) declared every name */
} declared;

static void declare(declared *d, const char *name)
{
    if (d && d->names)
        json_object_set_new(d->names, name, json_true());
}

static void declare_from(declared *d, const declared *from)
{
    if (!d || !from)
        return;
    d->all = d->all || from->all;
    if (d->names && from->names)
        json_object_update(d->names, from->names);
}

static bool validate(const json_t *s, const json_t *v, const char *where, verr *e, int depth, declared *d);

/* oneOf with an OpenAPI discriminator: v[propertyName] picks the branch — through `mapping`, else the
 * branch whose $ref names a component schema of that name — and v is validated against that branch alone.
 * A value that names no branch, or a mapping to a schema outside the oneOf, fails. */
static bool discriminated(const json_t *one, const json_t *disc, const json_t *v, const char *where, verr *e,
                          int depth, declared *d)
{
    const char *prop = json_string_value(json_object_get(disc, "propertyName"));
    if (!prop)
        return schema_fail(e, where, "the discriminator has no propertyName");
    if (!json_is_object(v))
        return schema_fail(e, where, "%s where a discriminated oneOf wants an object", json_type_name(v));
    const char *name = json_string_value(json_object_get(v, prop));
    if (!name)
        return schema_fail(e, where, "the discriminator property \"%s\" is missing or not a string", prop);
    const char *target = json_string_value(json_object_get(json_object_get(disc, "mapping"), name));
    char implicit[300];
    if (!target) {
        snprintf(implicit, sizeof implicit, "#/components/schemas/%s", name);
        target = implicit;
    }
    size_t i;
    json_t *sub;
    json_array_foreach(one, i, sub) {
        const char *ref = json_string_value(json_object_get(sub, "$ref"));
        if (ref && strcmp(ref, target) == 0)
            return validate(sub, v, where, e, depth + 1, d);
    }
    return schema_fail(e, where, "%s \"%s\" names none of the oneOf's schemas (discriminator)", prop, name);
}

/* v validated as a whole: afterwards every property of an object must have been declared. */
static bool validate_whole(const json_t *s, const json_t *v, const char *where, verr *e, int depth)
{
    declared d = {json_is_object(v) ? json_object() : NULL, false};
    bool ok = validate(s, v, where, e, depth, &d);
    if (ok && d.names && !d.all) {
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)v, key, val) {
            if (!json_object_get(d.names, key)) {
                ok = schema_fail(e, where, "property \"%s\" is not declared by the schema (the check is strict: "
                                           "declare it in api-docs/openapi.json)", key);
                break;
            }
        }
    }
    json_decref(d.names);
    return ok;
}

static bool validate_object(const json_t *s, const json_t *v, const char *where, verr *e, int depth, declared *d)
{
    char sub[512];
    const json_t *props = json_object_get(s, "properties");
    const json_t *req = json_object_get(s, "required");
    const json_t *addl = json_object_get(s, "additionalProperties");
    const json_t *pattern_props = json_object_get(s, "patternProperties");
    size_t i;
    json_t *r;
    json_array_foreach(req, i, r) {
        if (!json_object_get(v, json_string_value(r)))
            return schema_fail(e, where, "required property \"%s\" missing", json_string_value(r));
    }
    const json_t *minp = json_object_get(s, "minProperties"), *maxp = json_object_get(s, "maxProperties");
    if (minp && json_object_size(v) < (size_t)json_integer_value(minp))
        return schema_fail(e, where, "fewer than %lld properties", (long long)json_integer_value(minp));
    if (maxp && json_object_size(v) > (size_t)json_integer_value(maxp))
        return schema_fail(e, where, "more than %lld properties", (long long)json_integer_value(maxp));
    const json_t *names = json_object_get(s, "propertyNames");
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)v, key, val) {
        snprintf(sub, sizeof sub, "%s.%s", where, key);
        if (names) {
            json_t *k = json_string(key);
            bool ok = validate_whole(names, k, sub, e, depth + 1);
            json_decref(k);
            if (!ok)
                return false;
        }
        const json_t *ps = json_object_get(props, key);
        bool matched = ps != NULL;
        if (ps)
            declare(d, key);
        if (ps && !validate_whole(ps, val, sub, e, depth + 1))
            return false;
        const char *pat;
        json_t *pschema;
        json_object_foreach((json_t *)pattern_props, pat, pschema) {
            char ere[512];
            ecma_to_ere(pat, ere, sizeof ere);
            regex_t re;
            if (regcomp(&re, ere, REG_EXTENDED | REG_NOSUB) != 0)
                return schema_fail(e, where, "patternProperties \"%s\" does not compile", pat);
            bool m = regexec(&re, key, 0, NULL, 0) == 0;
            regfree(&re);
            if (m) {
                matched = true;
                declare(d, key);
                if (!validate_whole(pschema, val, sub, e, depth + 1))
                    return false;
            }
        }
        if (!matched && addl) {
            if (json_is_false(addl))
                return schema_fail(e, where, "property \"%s\" is not in the schema (additionalProperties: false)", key);
            if (json_is_object(addl) && !validate_whole(addl, val, sub, e, depth + 1))
                return false;
        }
    }
    if (d && addl && !json_is_false(addl))
        d->all = true;   /* a map: additionalProperties declares every other name */
    return true;
}

static bool validate_array(const json_t *s, const json_t *v, const char *where, verr *e, int depth)
{
    char sub[512];
    const json_t *items = json_object_get(s, "items"), *prefix = json_object_get(s, "prefixItems");
    const json_t *mini = json_object_get(s, "minItems"), *maxi = json_object_get(s, "maxItems");
    if (mini && json_array_size(v) < (size_t)json_integer_value(mini))
        return schema_fail(e, where, "%zu items, fewer than minItems %lld", json_array_size(v),
                    (long long)json_integer_value(mini));
    if (maxi && json_array_size(v) > (size_t)json_integer_value(maxi))
        return schema_fail(e, where, "%zu items, more than maxItems %lld", json_array_size(v),
                    (long long)json_integer_value(maxi));
    size_t i;
    json_t *it;
    json_array_foreach((json_t *)v, i, it) {
        snprintf(sub, sizeof sub, "%s[%zu]", where, i);
        const json_t *is = i < json_array_size(prefix) ? json_array_get(prefix, i) : items;
        if (json_is_false(is))
            return schema_fail(e, where, "item %zu not allowed", i);
        if (json_is_object(is) && !validate_whole(is, it, sub, e, depth + 1))
            return false;
    }
    if (json_is_true(json_object_get(s, "uniqueItems")))
        for (size_t a = 0; a < json_array_size(v); a++)
            for (size_t b = a + 1; b < json_array_size(v); b++)
                if (json_equal(json_array_get(v, a), json_array_get(v, b)))
                    return schema_fail(e, where, "items %zu and %zu are equal (uniqueItems)", a, b);
    return true;
}

static bool validate(const json_t *s, const json_t *v, const char *where, verr *e, int depth, declared *d)
{
    if (depth > 64)
        return schema_fail(e, where, "schema nesting too deep ($ref cycle?)");
    if (json_is_true(s)) {
        if (d)
            d->all = true;   /* anything: nothing left to declare */
        return true;
    }
    if (json_is_false(s))
        return schema_fail(e, where, "the schema is false");
    if (!json_is_object(s))
        return schema_fail(e, where, "the schema is not an object");
    const char *k;
    json_t *kv;
    /* every keyword must be one we implement or an annotation */
    json_object_foreach((json_t *)s, k, kv) {
        static const char *const known[] = {
            "$ref", "type", "enum", "const", "properties", "required", "additionalProperties",
            "patternProperties", "propertyNames", "minProperties", "maxProperties", "items", "prefixItems", "minItems",
            "maxItems", "uniqueItems", "oneOf", "anyOf", "allOf", "not", "discriminator", "minimum", "maximum",
            "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", NULL};
        bool ok = annotation(k);
        for (int i = 0; !ok && known[i]; i++)
            ok = strcmp(k, known[i]) == 0;
        if (!ok)
            return schema_fail(e, where, "the schema uses keyword \"%s\", which the e2e validator does not know: extend "
                                  "tests/e2e/openapi.c", k);
    }
    const char *ref = json_string_value(json_object_get(s, "$ref"));
    if (ref) {
        const json_t *target = resolve_ref(ref);
        if (!target)
            return schema_fail(e, where, "$ref %s resolves to nothing", ref);
        if (!validate(target, v, where, e, depth + 1, d))
            return false;
    }
    const json_t *type = json_object_get(s, "type");
    if (json_is_string(type) && !type_is(v, json_string_value(type)))
        return schema_fail(e, where, "%s where the schema says %s", json_type_name(v), json_string_value(type));
    if (json_is_array(type)) {
        bool any = false;
        size_t i;
        json_t *t;
        json_array_foreach(type, i, t) any = any || type_is(v, json_string_value(t));
        if (!any)
            return schema_fail(e, where, "%s is none of the schema's types", json_type_name(v));
    }
    const json_t *en = json_object_get(s, "enum");
    if (en) {
        bool any = false;
        size_t i;
        json_t *x;
        json_array_foreach(en, i, x) any = any || json_equal(x, (json_t *)v);
        if (!any) {
            char *txt = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
            bool r = schema_fail(e, where, "%s is not in the enum", txt ? txt : "?");
            free(txt);
            return r;
        }
    }
    const json_t *cn = json_object_get(s, "const");
    if (cn && !json_equal((json_t *)cn, (json_t *)v))
        return schema_fail(e, where, "not the schema's const value");
    if (json_is_number(v)) {
        const json_t *x;
        if ((x = json_object_get(s, "minimum")) && num(v) < num(x))
            return schema_fail(e, where, "%g below minimum %g", num(v), num(x));
        if ((x = json_object_get(s, "maximum")) && num(v) > num(x))
            return schema_fail(e, where, "%g above maximum %g", num(v), num(x));
        if ((x = json_object_get(s, "exclusiveMinimum")) && num(v) <= num(x))
            return schema_fail(e, where, "%g not above exclusiveMinimum %g", num(v), num(x));
        if ((x = json_object_get(s, "exclusiveMaximum")) && num(v) >= num(x))
            return schema_fail(e, where, "%g not below exclusiveMaximum %g", num(v), num(x));
        if ((x = json_object_get(s, "multipleOf")) && json_is_integer(v) && json_is_integer(x) &&
            json_integer_value(x) != 0 && json_integer_value(v) % json_integer_value(x) != 0)
            return schema_fail(e, where, "not a multiple of %lld", (long long)json_integer_value(x));
    }
    if (json_is_string(v)) {
        const json_t *x;
        size_t len = utf8_len(json_string_value(v));
        if ((x = json_object_get(s, "minLength")) && len < (size_t)json_integer_value(x))
            return schema_fail(e, where, "string shorter than minLength %lld", (long long)json_integer_value(x));
        if ((x = json_object_get(s, "maxLength")) && len > (size_t)json_integer_value(x))
            return schema_fail(e, where, "string longer than maxLength %lld", (long long)json_integer_value(x));
        if ((x = json_object_get(s, "pattern"))) {
            char ere[512];
            ecma_to_ere(json_string_value(x), ere, sizeof ere);
            regex_t re;
            if (regcomp(&re, ere, REG_EXTENDED | REG_NOSUB) != 0)
                return schema_fail(e, where, "pattern \"%s\" does not compile as POSIX ERE", json_string_value(x));
            bool m = regexec(&re, json_string_value(v), 0, NULL, 0) == 0;
            regfree(&re);
            if (!m)
                return schema_fail(e, where, "\"%.80s\" does not match pattern %s", json_string_value(v),
                            json_string_value(x));
        }
    }
    if (json_is_object(v) && !validate_object(s, v, where, e, depth, d))
        return false;
    if (json_is_array(v) && !validate_array(s, v, where, e, depth))
        return false;
    const json_t *all = json_object_get(s, "allOf"), *any = json_object_get(s, "anyOf");
    const json_t *one = json_object_get(s, "oneOf"), *not = json_object_get(s, "not");
    const json_t *disc = json_object_get(s, "discriminator");
    size_t i;
    json_t *sub;
    json_array_foreach(all, i, sub) {
        if (!validate(sub, v, where, e, depth + 1, d))
            return false;
    }
    char scratch[600];
    verr quiet = {scratch, sizeof scratch};
    if (any) {
        bool ok = false;
        json_array_foreach(any, i, sub) {
            declared bd = {json_is_object(v) ? json_object() : NULL, false};
            if (validate(sub, v, where, &quiet, depth + 1, &bd)) {
                ok = true;
                declare_from(d, &bd);
            }
            json_decref(bd.names);
        }
        if (!ok)
            return schema_fail(e, where, "matches none of anyOf (last: %s)", scratch);
    }
    if (disc && !one)
        return schema_fail(e, where, "a discriminator without oneOf");
    if (one && disc && !discriminated(one, disc, v, where, e, depth, d))
        return false;
    if (one && !disc) {
        int n = 0;
        char last[600] = "";
        json_array_foreach(one, i, sub) {
            declared bd = {json_is_object(v) ? json_object() : NULL, false};
            if (validate(sub, v, where, &quiet, depth + 1, &bd)) {
                n++;
                declare_from(d, &bd);
            } else {
                snprintf(last, sizeof last, "%s", scratch);
            }
            json_decref(bd.names);
        }
        if (n != 1)
            return schema_fail(e, where, "matches %d of oneOf, not exactly one (a failure: %s)", n, last);
    }
    if (not && validate(not, v, where, &quiet, depth + 1, NULL))
        return schema_fail(e, where, "matches the schema under not");
    return true;
}

bool e2e_schema_validate(const json_t *schema, const json_t *v, const char *where, char *why, size_t whylen)
{
    verr e = {why, whylen};
    why[0] = 0;
    return validate_whole(schema, v, where, &e, 0);
}

/* ---- operations ------------------------------------------------------------------------------------------- */
/* Whether a concrete path matches a template segment by segment ("{x}" = one non-empty segment);
 * *nparams counts the templated segments (fewer = more specific). */
static bool path_matches(const char *tmpl, const char *path, int *nparams)
{
    *nparams = 0;
    const char *t = tmpl, *p = path;
    while (*t && *p) {
        if (*t == '{') {
            const char *te = strchr(t, '}');
            if (!te)
                return false;
            const char *pe = p;
            while (*pe && *pe != '/')
                pe++;
            if (pe == p)
                return false;
            (*nparams)++;
            t = te + 1;
            p = pe;
        } else if (*t == *p) {
            t++;
            p++;
        } else {
            return false;
        }
    }
    return *t == 0 && *p == 0;
}

const json_t *e2e_openapi_operation(const char *method, const char *path, const char **template_out)
{
    if (!doc)
        return NULL;
    char bare[1024];
    snprintf(bare, sizeof bare, "%s", path);
    char *q = strchr(bare, '?');
    if (q)
        *q = 0;
    char lower[16];
    size_t i;
    for (i = 0; method[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)(method[i] >= 'A' && method[i] <= 'Z' ? method[i] + 32 : method[i]);
    lower[i] = 0;
    const json_t *paths = json_object_get(doc, "paths");
    const char *key, *best_key = NULL;
    json_t *item;
    int best = 1 << 30;
    json_object_foreach((json_t *)paths, key, item) {
        int np;
        if (path_matches(key, bare, &np) && np < best) {
            best = np;
            best_key = key;
        }
    }
    if (template_out)
        *template_out = best_key;
    if (!best_key)
        return NULL;
    return json_object_get(deref(json_object_get(paths, best_key)), lower);
}

static const json_t *response_for(const json_t *op, long status)
{
    const json_t *responses = json_object_get(op, "responses");
    char code[24];
    snprintf(code, sizeof code, "%ld", status);
    const json_t *r = json_object_get(responses, code);
    if (!r) {
        snprintf(code, sizeof code, "%ldXX", status / 100);
        r = json_object_get(responses, code);
    }
    if (!r)
        r = json_object_get(responses, "default");
    return r ? deref(r) : NULL;
}

static bool is_json_type(const char *mt)
{
    size_t n = strlen(mt);
    return strcmp(mt, "application/json") == 0 || (n > 5 && strcmp(mt + n - 5, "+json") == 0);
}

/* The schema for a problem answered where the document has no operation (no route, wrong method). */
static const json_t *problem_schema(void)
{
    const json_t *schemas = json_object_get(json_object_get(doc, "components"), "schemas");
    static const char *const names[] = {"Problem", "problem", "ProblemDetails", "Error", NULL};
    for (int i = 0; names[i]; i++)
        if (json_object_get(schemas, names[i]))
            return json_object_get(schemas, names[i]);
    return NULL;
}

bool e2e_openapi_check(const char *method, const char *path, long status, const char *content_type,
                       const json_t *body, size_t body_len, char *why, size_t whylen)
{
    why[0] = 0;
    if (!doc || status == 0)
        return true;
    char mt[128];
    snprintf(mt, sizeof mt, "%s", content_type ? content_type : "");
    char *semi = strchr(mt, ';');
    if (semi)
        *semi = 0;
    for (char *p = mt; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p + 32);
    for (size_t n = strlen(mt); n > 0 && mt[n - 1] == ' '; n--)
        mt[n - 1] = 0;

    const char *tmpl = NULL;
    const json_t *op = e2e_openapi_operation(method, path, &tmpl);
    const json_t *schema = NULL;
    if (!op) {
        if (status != 404 && status != 405) {
            snprintf(why, whylen, "%s %s is not in the document (matched path %s)", method, path,
                     tmpl ? tmpl : "none");
            return false;
        }
        /* no route / no such method: a problem, checked against the document's problem schema */
        if (strcmp(mt, "application/problem+json") != 0) {
            snprintf(why, whylen, "content type '%s' for an unrouted %ld, want application/problem+json", mt,
                     status);
            return false;
        }
        schema = problem_schema();
        if (!schema)
            return true;
    } else {
        const json_t *resp = response_for(op, status);
        if (!resp) {
            snprintf(why, whylen, "status %ld is not documented for %s %s", status, method, tmpl);
            return false;
        }
        const json_t *content = json_object_get(resp, "content");
        if (json_object_size(content) == 0) {
            if (body_len != 0 && strcmp(method, "HEAD") != 0) {
                snprintf(why, whylen, "the document gives %ld no body, the answer has %zu bytes", status, body_len);
                return false;
            }
            return true;
        }
        const json_t *media = json_object_get(content, mt);
        if (!media) {
            char wild[140];
            snprintf(wild, sizeof wild, "%.*s/*", (int)strcspn(mt, "/"), mt);
            media = json_object_get(content, wild);
        }
        if (!media)
            media = json_object_get(content, "*/*");
        if (!media) {
            snprintf(why, whylen, "content type '%s' is not documented for %ld of %s %s", mt, status, method, tmpl);
            return false;
        }
        if (!is_json_type(mt))
            return true;   /* text (metrics, event streams): nothing to validate here */
        schema = json_object_get(media, "schema");
        if (!schema)
            return true;
    }
    if (!body) {
        snprintf(why, whylen, "the %s body of %zu bytes does not parse as JSON", mt, body_len);
        return false;
    }
    return e2e_schema_validate(schema, body, "$", why, whylen);
}
