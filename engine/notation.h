/*
 * notation.h — moves as short text that people type and bots read (grammar: api-docs/NOTATION.md).
 *
 * A notation is written and read against the state the move is made in, like the JSON of a move: a figure's
 * segment is named by its feature and a board-absolute side or half-edge of the piece placed this turn,
 * after rotation ("meeple city N", "shepherd field Es"), a placement by tile, position and rotation
 * ("E 0,-1 r2"). carc_move_notation writes the canonical form, which carc_notation_parse reads back to the
 * identical move; the parser also takes shorter forms (the drawn tile left out, a lone legal rotation left
 * out, any case) and resolves them against the legal moves of the pending decision, refusing anything that
 * does not name exactly one of them.
 *
 * Pure like the rest of the engine: no I/O, no globals, no allocation but carc_legal_moves' list.
 */
#ifndef CARC_NOTATION_H
#define CARC_NOTATION_H

#include "carc.h"

#define CARC_NOTATION_MAX 64         /* a canonical notation, NUL included */
#define CARC_NOTATION_INPUT_MAX 200  /* longest text carc_notation_parse reads */
#define CARC_PLACE_NAME_LEN 4        /* "Dn" and NUL, with room */
#define CARC_MAX_PLACES 15           /* N Nw Ne E En Es S Se Sw W Ws Wn D Dn Ds */
#define CARC_LABEL_MAX 128

/* Writes the canonical notation of `m` (a legal move of st's pending decision) into buf. Returns its length,
 * or -1 when the move cannot be named in `st` (an index out of range, no piece pending for a figure). */
int carc_move_notation(const carc_state *st, const carc_move *m, char *buf, size_t len);

/* Reads a notation (any case, at most CARC_NOTATION_INPUT_MAX bytes) as a move of the seat st waits for.
 * 0 and *out = exactly one move of carc_legal_moves(st, st->pending.seat); otherwise a message naming the
 * fault and CARC_E_INVALID (not a notation: too long, a character that is not allowed, an unknown word, a
 * missing or extra part, several moves matching), CARC_E_ILLEGAL (a well-formed notation that is no legal
 * move now: a move of another decision kind, a segment the tile does not have, a place where the tile does
 * not fit) or CARC_E_FINISHED. */
int carc_notation_parse(const carc_state *st, const char *text, size_t len, carc_move *out, char *err,
                        size_t errlen);

/* What a move that puts or takes a figure does, for people and bots: figure moves (shepherd included),
 * crop circle follower actions and the abbot's return. */
typedef struct {
    bool figure;                 /* false: the move puts or takes no figure, nothing else is set */
    uint8_t feature;             /* carc_part_kind of the segment */
    uint8_t nsides;
    char sides[CARC_MAX_PLACES][CARC_PLACE_NAME_LEN];   /* board-absolute sides and half-edges it touches */
    char label[CARC_LABEL_MAX];  /* "meeple on the city to the north" */
} carc_move_desc;

/* Fills *d for `m` in `st` (d->figure false for other moves and for moves that cannot be named). */
void carc_move_describe(const carc_state *st, const carc_move *m, carc_move_desc *d);

/* Names the JSON and the notation use. */
const char *carc_feature_name(int kind);                 /* "city", ..., "?" out of range */
const char *carc_place_name(int place);                  /* 0..CARC_MAX_PLACES-1: "N", "Nw", ... */

#endif
