/*
 * json_state_text.c — carc_state_to_json_text: the snapshot's compact JSON text written directly, without the
 * jansson tree. carcd stores a snapshot with every move, and building the tree (an object, a hash table and
 * five allocations per piece) and walking it again to write it was a quarter of carcd's CPU per move. The
 * large, regular members (stack, discarded, pieces, figures) are written here; the small ones (options,
 * pending, the expansions' members) are built by the same code as carc_state_to_json and written by a walk
 * of those small trees, so there is one definition of each. The text is exactly json_dumps(carc_state_to_json(st),
 * JSON_COMPACT) (test_json: random games with every expansion, at every move).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"
#include "json_text.h"

static void put_tiles(carc_tb *b, const carc_catalog *cat, const uint8_t *types, size_t n)
{
    carc_tb_put(b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            carc_tb_put(b, ",", 1);
        carc_tb_str(b, carc_jb_tile_id(cat, types[i]));
    }
    carc_tb_put(b, "]", 1);
}

char *carc_state_to_json_text(const carc_state *st, bool with_seed)
{
    carc_tb b = {0};
    carc_tb_room(&b, 4096);   /* one allocation for a small snapshot; the buffer doubles past it */
    carc_tb_lit(&b, "{\"version\":");
    carc_tb_int(&b, CARC_JSON_VERSION);
    carc_tb_lit(&b, ",\"nplayers\":");
    carc_tb_int(&b, st->nplayers);
    carc_tb_key(&b, "expansions", false);
    carc_tb_tree(&b, carc_expansions_to_json(st->expansions));
    carc_tb_key(&b, "options", false);
    carc_tb_tree(&b, carc_options_to_json(st->opt));
    carc_tb_key(&b, "status", false);
    carc_tb_str(&b, carc_j_status_names[st->status == CARC_FINISHED]);
    carc_tb_lit(&b, ",\"active\":");
    carc_tb_int(&b, st->active);
    carc_tb_lit(&b, ",\"turn\":");
    carc_tb_int(&b, st->turn);
    carc_tb_lit(&b, ",\"players\":[");
    for (int s = 0; s < st->nplayers; s++) {
        carc_tb_lit(&b, s ? ",{\"seat\":" : "{\"seat\":");
        carc_tb_int(&b, s);
        carc_tb_lit(&b, ",\"score\":");
        carc_tb_int(&b, st->players[s].score);
        carc_tb_put(&b, "}", 1);
    }
    carc_tb_lit(&b, "],\"rng\":{");
    if (with_seed) {
        static const char hex[] = "0123456789abcdef";
        char seed[65];
        for (int i = 0; i < 32; i++) {
            seed[2 * i] = hex[st->rng.key[i] >> 4];
            seed[2 * i + 1] = hex[st->rng.key[i] & 15];
        }
        seed[64] = '\0';
        carc_tb_lit(&b, "\"seed\":");
        carc_tb_str(&b, seed);
        carc_tb_put(&b, ",", 1);
    }
    carc_tb_lit(&b, "\"pos\":");
    carc_tb_int(&b, (long long)st->rng.pos);
    carc_tb_lit(&b, "},\"stack\":");
    put_tiles(&b, st->cat, st->stack, st->stack_len);
    carc_tb_lit(&b, ",\"stack_pos\":");
    carc_tb_int(&b, st->stack_pos);
    carc_tb_lit(&b, ",\"discarded\":");
    put_tiles(&b, st->cat, st->discarded, st->ndiscarded);
    carc_tb_lit(&b, ",\"pieces\":[");
    for (int i = 0; i < st->npieces; i++) {
        const carc_piece *pc = &st->pieces[i];
        carc_tb_lit(&b, i ? ",{\"tile\":" : "{\"tile\":");
        carc_tb_str(&b, carc_jb_tile_id(st->cat, pc->type));
        carc_tb_lit(&b, ",\"x\":");
        carc_tb_int(&b, pc->x);
        carc_tb_lit(&b, ",\"y\":");
        carc_tb_int(&b, pc->y);
        carc_tb_lit(&b, ",\"rot\":");
        carc_tb_int(&b, pc->rot);
        if (pc->under != CARC_NO_TYPE) {
            carc_tb_lit(&b, ",\"under\":");
            carc_tb_str(&b, carc_jb_tile_id(st->cat, pc->under));
        }
        carc_tb_put(&b, "}", 1);
    }
    carc_tb_lit(&b, "],\"figures\":[");
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *f = &st->figures[i];
        unsigned type = f->piece < st->npieces ? st->pieces[f->piece].type : CARC_NO_TYPE;
        carc_tb_lit(&b, i ? ",{\"seat\":" : "{\"seat\":");
        carc_tb_int(&b, f->seat);
        carc_tb_lit(&b, ",\"figure\":");
        carc_tb_str(&b, f->kind < CARC_NFIG_KINDS ? carc_j_fig_names[f->kind] : "?");
        carc_tb_lit(&b, ",\"piece\":");
        carc_tb_int(&b, f->piece);
        carc_tb_lit(&b, ",\"part\":");
        carc_tb_str(&b, carc_jb_part_name(st->cat, type, f->part));
        carc_tb_put(&b, "}", 1);
    }
    carc_tb_lit(&b, "],\"pending\":");
    carc_tb_tree(&b, carc_jb_pending(st));
    carc_tb_lit(&b, ",\"turn_state\":{\"phase\":");
    carc_tb_str(&b, st->tn.phase <= CARC_PH_DRAFT ? carc_j_phase_names[st->tn.phase] : "?");
    carc_tb_lit(&b, ",\"piece\":");
    carc_tb_int(&b, st->tn.piece == CARC_NO_PIECE ? -1 : st->tn.piece);
    carc_tb_lit(&b, ",\"figure\":");
    carc_tb_int(&b, st->tn.figure == 0xFF ? -1 : st->tn.figure);
    carc_tb_lit(&b, ",\"fruit_done\":");
    carc_tb_int(&b, st->tn.fruit_done);
    carc_tb_lit(&b, "},\"left\":[");
    bool first = true;
    for (int s = 0; s < st->nplayers; s++)
        if (st->left >> s & 1) {
            if (!first)
                carc_tb_put(&b, ",", 1);
            carc_tb_int(&b, s);
            first = false;
        }
    carc_tb_put(&b, "]", 1);
    /* each expansion in play adds its own member, named after its set, in carc_state_to_json's order */
    json_t *(*const parts[])(const carc_state *) = {carc_jx_hills_to, carc_jx_fruit_to, carc_jx_crop_to,
                                                    carc_jx_halflings_to};
    const carc_set sets[] = {CARC_SET_HILLS_SHEEP, CARC_SET_FRUIT_TREES, CARC_SET_CROP_CIRCLES, CARC_SET_HALFLINGS};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *part = carc_has(st, sets[i]) ? parts[i](st) : NULL;
        if (part) {
            carc_tb_key(&b, carc_set_names[sets[i]], false);
            carc_tb_tree(&b, part);
        }
    }
    carc_tb_put(&b, "}", 1);
    if (b.failed || !b.p) {
        free(b.p);
        return NULL;
    }
    b.p[b.len] = '\0';
    return b.p;
}
