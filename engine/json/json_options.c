/*
 * json_options.c — game options and expansion sets in JSON, both ways. The option table (options.c) is the
 * only source of names, kinds and values; nothing here names an option.
 */
#include <string.h>

#include "json_priv.h"

json_t *carc_options_to_json(const uint8_t opt[CARC_NOPTS])
{
    json_t *o = carc_jb_obj();
    for (int i = 0; i < CARC_NOPTS; i++) {
        const carc_opt_info *oi = &carc_opt_table[i];
        unsigned v = opt[i] < oi->nvalues ? opt[i] : oi->dflt;
        switch (oi->kind) {
        case CARC_OPTK_BOOL:
            carc_jb_set(o, oi->name, json_boolean(v != 0));
            break;
        case CARC_OPTK_ENUM:
            carc_jb_set_str(o, oi->name, oi->names[v]);
            break;
        default:
            carc_jb_set_int(o, oi->name, oi->ints[v]);
            break;
        }
    }
    return o;
}

/* One option's value from JSON into *out (a value index). */
static int carc_option_read(const carc_opt_info *oi, const json_t *o, const carc_jpath *p, uint8_t *out,
                            char *err, size_t errlen)
{
    int rc;
    if (oi->kind == CARC_OPTK_BOOL) {
        bool b;
        if ((rc = carc_jr_bool(o, p, oi->name, &b, err, errlen)))
            return rc;
        *out = b;
        return 0;
    }
    if (oi->kind == CARC_OPTK_ENUM) {
        int idx;
        if ((rc = carc_jr_enum(o, p, oi->name, oi->names, oi->nvalues, &idx, err, errlen)))
            return rc;
        *out = (uint8_t)idx;
        return 0;
    }
    const json_t *v = json_object_get(o, oi->name);
    for (int i = 0; json_is_integer(v) && i < oi->nvalues; i++)
        if (json_integer_value(v) == oi->ints[i]) {
            *out = (uint8_t)i;
            return 0;
        }
    if (oi->nvalues == 2)
        return carc_jr_fail(err, errlen, p, oi->name, "expected %d or %d", oi->ints[0], oi->ints[1]);
    return carc_jr_fail(err, errlen, p, oi->name, "expected one of the allowed integers");
}

int carc_options_from_json(uint8_t opt[CARC_NOPTS], const json_t *j, bool partial, char *err, size_t errlen)
{
    static const carc_jpath root = {NULL, "options", 0};
    if (!json_is_object(j))
        return carc_jr_fail(err, errlen, &root, NULL, "expected an object");
    const char *k;
    json_t *member;
    json_object_foreach((json_t *)j, k, member) {
        if (carc_opt_find(k) < 0)
            return carc_jr_fail(err, errlen, &root, k, "unknown option");
    }
    for (int i = 0; i < CARC_NOPTS; i++) {
        const carc_opt_info *oi = &carc_opt_table[i];
        if (!json_object_get(j, oi->name)) {
            if (partial)
                continue;
            if (oi->absent) {   /* a game stored before the option existed: it was played this way */
                opt[i] = (uint8_t)(oi->absent - 1);
                continue;
            }
            return carc_jr_fail(err, errlen, &root, oi->name, "missing field");
        }
        int rc = carc_option_read(oi, j, &root, &opt[i], err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

json_t *carc_expansions_to_json(uint8_t sets)
{
    json_t *a = carc_jb_arr();
    for (int s = CARC_SET_BASE + 1; s < CARC_NSETS; s++)
        if (sets & (1u << s))
            carc_jb_push(a, carc_jb_str(carc_set_names[s]));
    return a;
}

int carc_expansions_from_json(uint8_t *sets, const json_t *j, char *err, size_t errlen)
{
    static const carc_jpath root = {NULL, "expansions", 0};
    const json_t *a;
    int rc = carc_jr_array(j, &root, NULL, CARC_NSETS - 1, &a, err, errlen);
    if (rc)
        return rc;
    uint8_t bits = 1u << CARC_SET_BASE;
    for (size_t i = 0; i < json_array_size(a); i++) {
        carc_jpath p = {&root, NULL, i};
        int s;
        /* names after "base": base is implied and never listed */
        if ((rc = carc_jr_enum(json_array_get(a, i), &p, NULL, carc_set_names + 1, CARC_NSETS - 1, &s, err,
                               errlen)))
            return rc;
        s += 1;
        if (bits & (1u << s))
            return carc_jr_fail(err, errlen, &p, NULL, "\"%s\" listed twice", carc_set_names[s]);
        bits |= (uint8_t)(1u << s);
    }
    *sets = bits;
    return 0;
}
