/*
 * notations.h — the text notation (engine/notation.h) where the daemon answers with it: the legal notations
 * of a decision, as JSON strings for a refused notation's problem and as the plain-text legal-moves answer.
 */
#ifndef CD_NOTATIONS_H
#define CD_NOTATIONS_H

#include <jansson.h>

#include "base/buf.h"
#include "carc.h"

/* ["E 0,-1 r2", ...]: the notations of seat's legal moves in st, in the engine's order. */
json_t *cd_legal_notations(const carc_state *st, int seat);
/* GET legal-moves?format=text: the seq on the first line, then one notation per line in the engine's order
 * (the same as the JSON answer's), each line ending in "\n". */
void cd_legal_moves_text(cd_buf *b, const carc_state *st, int seq, int seat);

#endif
