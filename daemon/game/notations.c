/*
 * notations.c — see notations.h.
 */
#include "notations.h"

#include "notation.h"

json_t *cd_legal_notations(const carc_state *st, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    json_t *a = json_array();
    char text[CARC_NOTATION_MAX];
    for (size_t i = 0; i < m.n; i++)
        if (carc_move_notation(st, &m.v[i], text, sizeof text) > 0)
            json_array_append_new(a, json_string(text));
    carc_moves_free(&m);
    return a;
}

void cd_legal_moves_text(cd_buf *b, const carc_state *st, int seq, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    cd_buf_printf(b, "%d\n", seq);
    char text[CARC_NOTATION_MAX];
    for (size_t i = 0; i < m.n; i++)
        if (carc_move_notation(st, &m.v[i], text, sizeof text) > 0)
            cd_buf_printf(b, "%s\n", text);
    carc_moves_free(&m);
}
