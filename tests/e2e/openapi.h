/*
 * openapi.h — checks carcd's answers against api-docs/openapi.json: finds the operation for a method and a
 * concrete path, the response for a status, the schema for a media type, and validates the body against it.
 *
 * The validator knows the JSON Schema keywords the document uses (type, required, properties,
 * additionalProperties, propertyNames, items, enum, const, $ref to #/components/..., oneOf/anyOf/allOf, minimum/maximum,
 * minLength/maxLength, minItems/maxItems, pattern, and OpenAPI's discriminator, which picks the oneOf branch)
 * and ignores only annotations (description, title, examples, format, ...). Any other keyword is reported as
 * an error, so the validator is extended when the document grows rather than silently passing.
 *
 * It is strict: a property the schema does not declare (through properties, patternProperties, $ref, allOf,
 * the matching anyOf/oneOf branches) fails, as if every object schema said unevaluatedProperties: false;
 * a schema with additionalProperties (true or a schema) declares every name. See openapi.c.
 *
 * Load once from the main thread before starting client threads; afterwards the document is read-only and
 * e2e_openapi_check may be called from any thread.
 */
#ifndef E2E_OPENAPI_H
#define E2E_OPENAPI_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Loads <source dir>/api-docs/openapi.json; false (and no checking) when the file does not exist.
 * A file that exists but does not parse aborts the test. */
bool e2e_openapi_load(void);
bool e2e_openapi_loaded(void);
const json_t *e2e_openapi_doc(void);

/* Validates one answer. `path` may carry a query string (ignored). `body` is the parsed body (NULL when it
 * was empty or not JSON; `body_len` tells which). True when it conforms; otherwise why says where it failed. */
bool e2e_openapi_check(const char *method, const char *path, long status, const char *content_type,
                       const json_t *body, size_t body_len, char *why, size_t whylen);

/* Validates v against `schema` (resolving $ref in the loaded document). `where` names v in messages. */
bool e2e_schema_validate(const json_t *schema, const json_t *v, const char *where, char *why, size_t whylen);

/* The operation object for a method and a concrete path, or NULL; *template gets the matching path key. */
const json_t *e2e_openapi_operation(const char *method, const char *path, const char **template_out);

/* Schema mismatches seen by e2e_req so far in this process, and the first few messages. */
void e2e_openapi_record(const char *msg);
int e2e_openapi_failures(void);
const char *e2e_openapi_first_failures(void);

#endif
