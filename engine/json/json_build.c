/*
 * json_build.c — building JSON for the codec: allocation wrappers that abort on out-of-memory, the names the
 * JSON uses for engine enums, and the pieces of a state that snapshots and views render alike.
 */
#include <stdio.h>
#include <stdlib.h>

#include "json_priv.h"

const char *const carc_j_status_names[2] = {"active", "finished"};
const char *const carc_j_fig_names[CARC_NFIG_KINDS] = {"meeple", "abbot", "shepherd"};
const char *const carc_j_pending_names[CARC_NPENDING] = {
    "none", "place", "figure", "draw_or_triangle", "fruit", "flock", "crop_circle_choice",
    "crop_circle_action", "draft",
};
const char *carc_pending_kind_name(const carc_state *st)
{
    return st->pending.kind < CARC_NPENDING ? carc_j_pending_names[st->pending.kind] : "none";
}

const char *const carc_j_feature_names[CARC_NFEATURES] = {"city", "road", "field", "cloister", "garden", "river",
                                                          "fruit"};
const char *const carc_j_reason_names[CARC_NREASONS] = {
    "completed", "final", "abbot", "flock", "harvest", "sell", "fruit_final",
};
const char *const carc_j_move_names[CARC_NMOVE_KINDS] = {
    "place", "figure", "pass", "abbot_return", "draw", "harvest", "sell", "grow", "stable",
    "crop_circle_add", "crop_circle_remove", "crop_circle_figure", "crop_circle_skip", "draft",
};
const char *const carc_j_event_names[CARC_NEVENT_KINDS] = {
    "game_started", "tile_drawn", "tile_discarded", "piece_placed", "figure_placed",
    "figure_returned", "score", "turn", "game_over", "passed",
    "hill_covered", "token_drawn", "flock_scattered", "tree_stocked", "harvested", "sold",
    "crop_circle_chosen", "crop_circle_skipped", "triangle_dealt", "triangle_drafted", "seat_left",
    "forced_move", "seat_to_bot",
};
const char *const carc_j_phase_names[CARC_PH_DRAFT + 1] = {
    "start", "place", "figure", "fruit", "flock", "score", "crop_circle", "next", "draft",
};

_Static_assert(CARC_ACTIVE == 0 && CARC_FINISHED == 1, "carc_j_status_names follows carc_status");
_Static_assert(CARC_NPENDING == 9, "carc_j_pending_names follows carc_pending_kind");
_Static_assert(CARC_NREASONS == 7, "carc_j_reason_names follows carc_reason");
_Static_assert(CARC_NMOVE_KINDS == 14, "carc_j_move_names follows carc_move_kind");
_Static_assert(CARC_NFEATURES == 7 && CARC_FEATURE_FRUIT == 6, "carc_j_feature_names follows carc_part_kind");
_Static_assert(CARC_NEVENT_KINDS == 23, "carc_j_event_names follows carc_event_kind");
_Static_assert(CARC_PH_DRAFT == 8, "carc_j_phase_names follows carc_phase");

static json_t *carc_jb_check(json_t *v)
{
    if (!v) {
        fputs("carc: out of memory building json\n", stderr);
        abort();
    }
    return v;
}

json_t *carc_jb_obj(void) { return carc_jb_check(json_object()); }
json_t *carc_jb_arr(void) { return carc_jb_check(json_array()); }
json_t *carc_jb_int(json_int_t v) { return carc_jb_check(json_integer(v)); }
json_t *carc_jb_str(const char *s) { return carc_jb_check(json_string(s)); }

/* Keys are the engine's own ASCII names (literals, option, set and side names), never input: jansson's UTF-8
 * check of each was a twentieth of carcd's CPU per move. */
void carc_jb_set(json_t *obj, const char *key, json_t *val)
{
    if (json_object_set_new_nocheck(obj, key, carc_jb_check(val)) != 0)
        carc_jb_check(NULL);
}

void carc_jb_push(json_t *arr, json_t *val)
{
    if (json_array_append_new(arr, carc_jb_check(val)) != 0)
        carc_jb_check(NULL);
}

void carc_jb_set_int(json_t *obj, const char *key, json_int_t v) { carc_jb_set(obj, key, carc_jb_int(v)); }
void carc_jb_set_str(json_t *obj, const char *key, const char *s) { carc_jb_set(obj, key, carc_jb_str(s)); }

const char *carc_jb_tile_id(const carc_catalog *cat, unsigned type)
{
    return type < (unsigned)cat->ntypes ? cat->types[type].id : "?";
}

const char *carc_jb_part_name(const carc_catalog *cat, unsigned type, unsigned part)
{
    if (type >= (unsigned)cat->ntypes || part >= cat->types[type].nparts)
        return "?";
    return cat->types[type].parts[part].name;
}

json_t *carc_jb_players(const carc_state *st)
{
    json_t *a = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++) {
        json_t *p = carc_jb_obj();
        carc_jb_set_int(p, "seat", s);
        carc_jb_set_int(p, "score", st->players[s].score);
        carc_jb_push(a, p);
    }
    return a;
}

json_t *carc_jb_pending(const carc_state *st)
{
    const carc_pending *pd = &st->pending;
    json_t *o = carc_jb_obj();
    switch (pd->kind) {
    case CARC_PENDING_PLACE:
        carc_jb_set_str(o, "kind", "place");
        carc_jb_set_int(o, "seat", pd->seat);
        carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, pd->tile));
        break;
    case CARC_PENDING_FIGURE:
        carc_jb_set_str(o, "kind", "figure");
        carc_jb_set_int(o, "seat", pd->seat);
        carc_jb_set_int(o, "piece", pd->piece);
        break;
    case CARC_PENDING_NONE:
        carc_jb_set_str(o, "kind", "none");
        break;
    default:   /* the expansion decisions name only the seat; the rest is in the state */
        carc_jb_set_str(o, "kind", pd->kind < CARC_NPENDING ? carc_j_pending_names[pd->kind] : "none");
        carc_jb_set_int(o, "seat", pd->seat);
        break;
    }
    return o;
}

json_t *carc_jb_piece(const carc_state *st, const carc_piece *pc)
{
    json_t *o = carc_jb_obj();
    carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, pc->type));
    carc_jb_set_int(o, "x", pc->x);
    carc_jb_set_int(o, "y", pc->y);
    carc_jb_set_int(o, "rot", pc->rot);
    return o;
}

json_t *carc_jb_figures(const carc_state *st)
{
    json_t *a = carc_jb_arr();
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *f = &st->figures[i];
        unsigned type = f->piece < st->npieces ? st->pieces[f->piece].type : CARC_NO_TYPE;
        json_t *o = carc_jb_obj();
        carc_jb_set_int(o, "seat", f->seat);
        carc_jb_set_str(o, "figure", f->kind < CARC_NFIG_KINDS ? carc_j_fig_names[f->kind] : "?");
        carc_jb_set_int(o, "piece", f->piece);
        carc_jb_set_str(o, "part", carc_jb_part_name(st->cat, type, f->part));
        carc_jb_push(a, o);
    }
    return a;
}

json_t *carc_jb_tiles(const carc_catalog *cat, const uint8_t *types, size_t n)
{
    json_t *a = carc_jb_arr();
    for (size_t i = 0; i < n; i++)
        carc_jb_push(a, carc_jb_str(carc_jb_tile_id(cat, types[i])));
    return a;
}
