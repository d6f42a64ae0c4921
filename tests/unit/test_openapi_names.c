/*
 * test_openapi_names.c — api-docs/openapi.json names exactly what the engine's JSON names: one Move schema per
 * move type and one Event schema per event type (the discriminator's mapping, each target's `type` const),
 * and the enums of pending kinds, features, score reasons, turn phases, figures, fruits, expansions, bots and
 * options. The names come from the tables the codec writes with (engine/json/json_priv.h, carc.h), so an
 * engine type added without its schema, or a schema left after its type is gone, fails here; the e2e tests
 * check the members of what carcd actually sends.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot.h"         /* the bots' names */
#include "json/json_priv.h"   /* the codec's name tables: what the JSON says, by construction */
#include "testutil.h"

/* Entries of a name table, by its declared size (its count constant may be renamed, the table not). */
#define NAMES_N(a) (sizeof(a) / sizeof((a)[0]))

static json_t *doc;

static void load_doc(void)
{
    json_error_t e;
    doc = json_load_file(CARC_SOURCE_DIR "/api-docs/openapi.json", 0, &e);
    ck_assert_msg(doc != NULL, "api-docs/openapi.json:%d: %s", e.line, e.text);
}

static void free_doc(void)
{
    json_decref(doc);
    doc = NULL;
}

static const json_t *schema(const char *name)
{
    const json_t *s = json_object_get(json_object_get(json_object_get(doc, "components"), "schemas"), name);
    ck_assert_msg(s != NULL, "components.schemas.%s is missing", name);
    return s;
}

/* A "#/components/schemas/X" reference's schema. */
static const json_t *ref_target(const char *ref)
{
    static const char prefix[] = "#/components/schemas/";
    ck_assert_msg(strncmp(ref, prefix, sizeof prefix - 1) == 0, "%s is not a component schema", ref);
    return schema(ref + sizeof prefix - 1);
}

/* Whether the JSON array of strings `a` holds exactly names[0..n), in any order, each once. */
static void same_names(const json_t *a, const char *const *names, size_t n, const char *what)
{
    ck_assert_msg(json_is_array(a), "%s: not an array", what);
    ck_assert_msg(json_array_size(a) == n, "%s: %zu names in the document, %zu in the engine", what,
                  json_array_size(a), n);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        size_t k;
        json_t *v;
        json_array_foreach(a, k, v) found = found || (json_is_string(v) && strcmp(json_string_value(v), names[i]) == 0);
        ck_assert_msg(found, "%s: the engine's \"%s\" is not in the document", what, names[i]);
    }
}

/* A oneOf with a discriminator on "type" whose mapping is names[0..n), each to a branch of the oneOf whose
 * `type` is that name's const. */
static void discriminated_by_type(const char *name, const char *const *names, size_t n)
{
    const json_t *s = schema(name);
    const json_t *one = json_object_get(s, "oneOf"), *disc = json_object_get(s, "discriminator");
    ck_assert_msg(json_is_array(one) && json_is_object(disc), "%s: not a oneOf with a discriminator", name);
    ck_assert_str_eq(json_string_value(json_object_get(disc, "propertyName")), "type");
    const json_t *mapping = json_object_get(disc, "mapping");
    ck_assert_msg(json_object_size(mapping) == n, "%s: %zu mapped types, the engine has %zu", name,
                  json_object_size(mapping), n);
    ck_assert_msg(json_array_size(one) == n, "%s: %zu oneOf branches, the engine has %zu types", name,
                  json_array_size(one), n);
    for (size_t i = 0; i < n; i++) {
        const char *ref = json_string_value(json_object_get(mapping, names[i]));
        ck_assert_msg(ref != NULL, "%s: the engine's type \"%s\" is not in the discriminator's mapping", name, names[i]);
        bool branch = false;
        size_t k;
        json_t *b;
        json_array_foreach(one, k, b) branch = branch || strcmp(json_string_value(json_object_get(b, "$ref")), ref) == 0;
        ck_assert_msg(branch, "%s: %s (for \"%s\") is not a branch of the oneOf", name, ref, names[i]);
        const json_t *t = ref_target(ref);
        const json_t *c = json_object_get(json_object_get(json_object_get(t, "properties"), "type"), "const");
        ck_assert_msg(json_is_string(c) && strcmp(json_string_value(c), names[i]) == 0,
                      "%s: the type of %s is not the const \"%s\"", name, ref, names[i]);
        bool required = false;
        json_array_foreach(json_object_get(t, "required"), k, b) required = required || strcmp(json_string_value(b), "type") == 0;
        ck_assert_msg(required, "%s: %s does not require \"type\"", name, ref);
    }
}

START_TEST(one_move_schema_per_move_type)
{
    load_doc();
    discriminated_by_type("Move", carc_j_move_names, NAMES_N(carc_j_move_names));
    free_doc();
}
END_TEST

START_TEST(one_event_schema_per_event_type)
{
    load_doc();
    discriminated_by_type("Event", carc_j_event_names, NAMES_N(carc_j_event_names));
    free_doc();
}
END_TEST

START_TEST(enums_are_the_engines)
{
    load_doc();
    const json_t *pending = json_object_get(json_object_get(schema("Pending"), "properties"), "kind");
    same_names(json_object_get(pending, "enum"), carc_j_pending_names, NAMES_N(carc_j_pending_names), "Pending.kind");
    same_names(json_object_get(schema("Feature"), "enum"), carc_j_feature_names, NAMES_N(carc_j_feature_names), "Feature");
    const json_t *reason = json_object_get(json_object_get(schema("EventScore"), "properties"), "reason");
    same_names(json_object_get(reason, "enum"), carc_j_reason_names, NAMES_N(carc_j_reason_names), "EventScore.reason");
    const json_t *phase = json_object_get(json_object_get(schema("TurnState"), "properties"), "phase");
    same_names(json_object_get(phase, "enum"), carc_j_phase_names, NAMES_N(carc_j_phase_names), "TurnState.phase");
    same_names(json_object_get(schema("FigureKind"), "enum"), carc_j_fig_names, NAMES_N(carc_j_fig_names), "FigureKind");
    same_names(json_object_get(schema("Fruit"), "enum"), carc_fruit_names, NAMES_N(carc_fruit_names), "Fruit");
    /* the expansions a game lists: the sets but base, and but the river, which the option river brings */
    same_names(json_object_get(schema("Expansion"), "enum"), carc_set_names + 1, CARC_NSETS - 1, "Expansion");
    const json_t *set = json_object_get(json_object_get(schema("TileSet"), "properties"), "name");
    same_names(json_object_get(set, "enum"), carc_set_names, NAMES_N(carc_set_names), "TileSet.name");
    /* the bots a seat may be: the engine's, but random (a benchmark's opponent, not a player) */
    const json_t *bot = json_object_get(json_object_get(schema("BotPlayerRequest"), "properties"), "bot");
    same_names(json_object_get(bot, "enum"), carc_bot_names + 1, NAMES_N(carc_bot_names) - 1, "BotPlayerRequest.bot");
    bot = json_object_get(json_object_get(schema("BotSpec"), "properties"), "bot");
    same_names(json_object_get(bot, "enum"), carc_bot_names + 1, NAMES_N(carc_bot_names) - 1, "BotSpec.bot");
    free_doc();
}
END_TEST

START_TEST(options_are_the_engines)
{
    load_doc();
    const json_t *props = json_object_get(schema("Options"), "properties");
    ck_assert_msg(json_object_size(props) == NAMES_N(carc_opt_table), "Options: %zu in the document, %zu in the engine",
                  json_object_size(props), NAMES_N(carc_opt_table));
    for (size_t i = 0; i < NAMES_N(carc_opt_table); i++) {
        const carc_opt_info *oi = &carc_opt_table[i];
        const json_t *p = json_object_get(props, oi->name);
        ck_assert_msg(p != NULL, "Options: the engine's option %s is not in the document", oi->name);
        const char *type = json_string_value(json_object_get(p, "type"));
        const json_t *en = json_object_get(p, "enum");
        switch (oi->kind) {
        case CARC_OPTK_BOOL:
            ck_assert_msg(type && strcmp(type, "boolean") == 0, "Options.%s: not a boolean", oi->name);
            break;
        case CARC_OPTK_ENUM:
            same_names(en, oi->names, oi->nvalues, oi->name);
            break;
        default:
            ck_assert_msg(type && strcmp(type, "integer") == 0, "Options.%s: not an integer", oi->name);
            ck_assert_int_eq(json_array_size(en), oi->nvalues);
            for (int v = 0; v < oi->nvalues; v++)
                ck_assert_int_eq(json_integer_value(json_array_get(en, (size_t)v)), oi->ints[v]);
            break;
        }
    }
    free_doc();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("openapi_names");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, one_move_schema_per_move_type);
    tcase_add_test(tc, one_event_schema_per_event_type);
    tcase_add_test(tc, enums_are_the_engines);
    tcase_add_test(tc, options_are_the_engines);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
