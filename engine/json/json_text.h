/*
 * json_text.h — a growing buffer of compact JSON text (json_text.c), for the encoders that write their text
 * without building a jansson tree first (json_state_text.c, json_moves_text.c); not part of the engine's
 * contract.
 */
#ifndef CARC_JSON_TEXT_H
#define CARC_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A growing buffer of compact JSON text; `failed` once an allocation failed (then the text is dropped). */
typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} carc_tb;
bool carc_tb_room(carc_tb *b, size_t n);                 /* room for n more bytes and a NUL */
/* n bytes as they are (inline: the writers call it for every comma and brace) */
static inline void carc_tb_put(carc_tb *b, const char *s, size_t n)
{
    if ((b->len + n + 1 <= b->cap && !b->failed) || carc_tb_room(b, n)) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
}
static inline void carc_tb_lit(carc_tb *b, const char *s) { carc_tb_put(b, s, strlen(s)); } /* JSON as it is */
void carc_tb_int(carc_tb *b, long long v);
void carc_tb_strn(carc_tb *b, const char *s, size_t n);   /* a string, escaped as jansson escapes it */
void carc_tb_str(carc_tb *b, const char *s);
void carc_tb_key(carc_tb *b, const char *key, bool first); /* ,"key": (no comma for the first member) */
void carc_tb_value(carc_tb *b, const json_t *v);          /* a tree, as json_dumps(JSON_COMPACT) writes it */
void carc_tb_tree(carc_tb *b, json_t *v);                 /* the same, stealing v (NULL: failed) */

#endif
