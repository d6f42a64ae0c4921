/*
 * json_moves_text.c — carc_moves_to_json_text: the text of carc_moves_to_json written directly, without the
 * tree. Every legal-moves answer (a GET, or a move's answer when the mover decides again) carries it: tens of
 * moves, each an object of six or seven members, and building their trees (an object, a hash table and a
 * string per member) then walking them again to write them was most of a GET's CPU. Placements and figure
 * moves, nearly every move of an answer, are written here; the expansions' own moves are built by the tree
 * encoders (carc_move_to_json_described) and written by a walk of that small tree, so there is one definition
 * of each. The text is exactly json_dumps(carc_moves_to_json(st, ms), JSON_COMPACT) (test_json: random games
 * with every expansion, at every decision).
 */
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"
#include "json_text.h"
#include "notation.h"

/* ,"notation":"..." when the move has one (carc_move_describe_json) */
static void put_notation(carc_tb *b, const carc_state *st, const carc_move *m)
{
    char text[CARC_NOTATION_MAX];
    int n = carc_move_notation(st, m, text, sizeof text);
    if (n > 0) {
        carc_tb_lit(b, ",\"notation\":");
        carc_tb_strn(b, text, (size_t)n);
    }
}

/* One placement or figure move, as carc_move_to_json_described builds it; false when it cannot be named
 * (carc_move_to_json's NULL: the move is skipped). */
static bool put_move(carc_tb *b, const carc_state *st, const carc_move *m, bool first)
{
    const char *sep = first ? "" : ",";
    if (m->kind == CARC_MV_PLACE) {
        if (m->tile >= st->cat->ntypes || m->rot > 3)
            return false;
        carc_tb_lit(b, sep);
        carc_tb_lit(b, "{\"type\":\"place\",\"tile\":");
        carc_tb_str(b, st->cat->types[m->tile].id);
        carc_tb_lit(b, ",\"x\":");
        carc_tb_int(b, m->x);
        carc_tb_lit(b, ",\"y\":");
        carc_tb_int(b, m->y);
        carc_tb_lit(b, ",\"rot\":");
        carc_tb_int(b, m->rot);
        put_notation(b, st, m);
        carc_tb_put(b, "}", 1);
        return true;
    }
    /* CARC_MV_FIGURE: the piece placed this turn names the part (carc_move_to_json) */
    const carc_pending *pd = &st->pending;
    int type = pd->kind == CARC_PENDING_FIGURE && pd->piece < st->npieces ? st->pieces[pd->piece].type : -1;
    if (type < 0 || m->fig >= CARC_NFIG_KINDS || m->part >= st->cat->types[type].nparts)
        return false;
    carc_tb_lit(b, sep);
    carc_tb_lit(b, "{\"type\":\"figure\",\"figure\":");
    carc_tb_str(b, carc_j_fig_names[m->fig]);
    carc_tb_lit(b, ",\"part\":");
    carc_tb_str(b, st->cat->types[type].parts[m->part].name);
    put_notation(b, st, m);
    carc_move_desc d;
    carc_move_describe(st, m, &d);
    if (d.figure) {
        carc_tb_lit(b, ",\"feature\":");
        carc_tb_str(b, carc_feature_name(d.feature));
        carc_tb_lit(b, ",\"sides\":[");
        for (int i = 0; i < d.nsides; i++) {
            if (i)
                carc_tb_put(b, ",", 1);
            carc_tb_str(b, d.sides[i]);
        }
        carc_tb_lit(b, "],\"label\":");
        carc_tb_str(b, d.label);
    }
    carc_tb_put(b, "}", 1);
    return true;
}

static bool moves_text(const carc_state *st, const carc_moves *ms, carc_tb *b)
{
    carc_tb_put(b, "[", 1);
    bool first = true;
    for (size_t i = 0; i < ms->n; i++) {
        const carc_move *m = &ms->v[i];
        if (m->kind == CARC_MV_PLACE || m->kind == CARC_MV_FIGURE) {
            if (put_move(b, st, m, first))
                first = false;
            continue;
        }
        json_t *o = carc_move_to_json_described(st, m);   /* an expansion's move: its own encoder */
        if (!o)
            continue;
        if (!first)
            carc_tb_put(b, ",", 1);
        carc_tb_tree(b, o);
        first = false;
    }
    carc_tb_put(b, "]", 1);
    return !b->failed;
}

char *carc_moves_to_json_text(const carc_state *st, const carc_moves *ms)
{
    carc_tb b = {0};
    if (!moves_text(st, ms, &b) || !b.p) {
        free(b.p);
        return NULL;
    }
    b.p[b.len] = '\0';
    return b.p;
}
