/*
 * json_notation.c — the self-description of a move in JSON: its `notation` (notation.h) and, for a move that
 * puts or takes a figure, the segment's `feature`, board-absolute `sides` and an English `label`. The move
 * decoder ignores exactly these members (carc_j_described_keys, json_move.c), so a described move posted back
 * verbatim is the same move. This file stands on json_move.c, not the other way round: the move codec knows
 * the names it ignores, the description knows the codec.
 */
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"
#include "notation.h"

void carc_move_describe_json(const carc_state *st, const carc_move *m, json_t *o)
{
    char text[CARC_NOTATION_MAX];
    int n = carc_move_notation(st, m, text, sizeof text);
    if (n > 0) {   /* ASCII by construction: no UTF-8 checks on the hot path of every legal-moves answer */
        json_t *v = json_stringn_nocheck(text, (size_t)n);
        if (!v || json_object_set_new_nocheck(o, "notation", v) != 0)
            abort();   /* the engine's policy: out of memory aborts */
    }
    if (m->kind != CARC_MV_FIGURE && m->kind != CARC_MV_CC_FIGURE && m->kind != CARC_MV_ABBOT_RETURN)
        return;   /* no figure: nothing to describe (most moves of an answer are placements) */
    carc_move_desc d;
    carc_move_describe(st, m, &d);
    if (!d.figure)
        return;
    carc_jb_set_str(o, "feature", carc_feature_name(d.feature));
    json_t *sides = carc_jb_arr();
    for (int i = 0; i < d.nsides; i++)
        carc_jb_push(sides, carc_jb_str(d.sides[i]));
    carc_jb_set(o, "sides", sides);
    carc_jb_set_str(o, "label", d.label);
}

json_t *carc_move_to_json_described(const carc_state *st, const carc_move *m)
{
    json_t *o = carc_move_to_json(st, m);
    if (o)
        carc_move_describe_json(st, m, o);
    return o;
}

json_t *carc_moves_to_json(const carc_state *st, const carc_moves *ms)
{
    json_t *a = carc_jb_arr();
    for (size_t i = 0; i < ms->n; i++) {
        json_t *o = carc_move_to_json_described(st, &ms->v[i]);
        if (o)
            carc_jb_push(a, o);
    }
    return a;
}
