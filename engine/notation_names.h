/*
 * notation_names.h — what the notation's writer (notation_write.c) and reader (notation_read.c) share
 * (internal to libcarc): the words, where a segment lies on its piece and its canonical name there
 * (notation_names.c).
 */
#ifndef CARC_NOTATION_NAMES_H
#define CARC_NOTATION_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "carc.h"
#include "notation.h"

#define CARC_PLACE_D 12   /* index of the long side among the places */

extern const char *const carc_place_words[CARC_MAX_PLACES];     /* "N", "Nw", "Ne", "E", ... "Dn", "Ds" */
extern const char *const carc_feature_words[CARC_NPART_KINDS];  /* "city", "road", ... by carc_part_kind */
extern const char *const carc_fig_words[CARC_NFIG_KINDS];       /* "meeple", "abbot", "shepherd" */
extern const char *const carc_corner_words[4];                  /* a triangle's rotation: "nw" ... "sw" */
extern const char *const carc_side_words[4];                    /* "north" ... "west", for descriptions */

/* Bits of the places (carc_place_words) that part `part` of t turned rot lies on (*on) and touches (*touch). */
void carc_part_places(const carc_tile_type *t, int rot, int part, uint16_t *on, uint16_t *touch);

/* The place that names part `part` of t turned rot (its first place no other part of its feature touches),
 * or -1 when it needs none (the only one of its feature), or -2 when only the part name can name it. */
int carc_naming_place(const carc_tile_type *t, int rot, int part);

/* "city N", "cloister", "c1": the canonical name of part `part` of t turned rot; its length, as snprintf. */
int carc_segment_name(const carc_tile_type *t, int rot, int part, char *buf, size_t len);

/* Appends s to the text in buf (at its length *at), cut as snprintf cuts: every figure move of a legal-moves
 * answer is named and described from a few words, and snprintf's format parsing cost several times the
 * copying (bench/move-instructions.sh). *at counts what did not fit too, as snprintf's result does. Inline:
 * a figure move's name and description make some twenty calls of it. */
static inline void carc_text_cat(char *buf, size_t len, size_t *at, const char *s)
{
    size_t n = strlen(s);
    if (*at + 1 < len) {
        size_t room = len - 1 - *at, k = n < room ? n : room;
        memcpy(buf + *at, s, k);
        buf[*at + k] = 0;
    }
    *at += n;
}

/* The Fruit Trees tree (0..CARC_FRUIT_TYPES-1) that stands on piece `piece`, or -1. */
int carc_tree_of(const carc_state *st, int piece);

#endif
