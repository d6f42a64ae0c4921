/*
 * json_view.c — the three views of a game state (docs/DESIGN.md §2): admin (everything), a seat's and the public
 * one. Seat and public views are built field by field from what may be shown (an allow-list), never by
 * deleting hidden fields from a snapshot, so a field added to the snapshot later stays hidden until someone
 * decides to show it here.
 */
#include "json_priv.h"

/* Tiles still to draw (the count is public, the order is not). */
static int carc_stack_left(const carc_state *st)
{
    return st->stack_pos < st->stack_len ? st->stack_len - st->stack_pos : 0;
}

/* players[] with each seat's remaining followers added. */
static json_t *carc_view_players(const carc_state *st)
{
    json_t *a = carc_jb_players(st);
    for (int s = 0; s < st->nplayers; s++) {
        json_t *supply = carc_jb_obj();
        carc_jb_set_int(supply, "meeple", carc_supply(st, s, CARC_FIG_MEEPLE));
        carc_jb_set_int(supply, "abbot", carc_supply(st, s, CARC_FIG_ABBOT));
        if (st->expansions & (1u << CARC_SET_HILLS_SHEEP))
            carc_jb_set_int(supply, "shepherd", carc_supply(st, s, CARC_FIG_SHEPHERD));
        carc_jb_set(json_array_get(a, (size_t)s), "supply", supply);
    }
    return a;
}

/* Marks a rendered piece that shows a hill: public, unlike what lies under it. */
static void carc_view_mark_hill(const carc_state *st, const carc_piece *pc, json_t *o)
{
    if (pc->type < st->cat->ntypes && (st->cat->types[pc->type].marks & CARC_MARK_HILL))
        carc_jb_set(o, "hill", json_true());
}

/* What anyone may know. */
static json_t *carc_view_public(const carc_state *st)
{
    json_t *o = carc_jb_obj();
    carc_jb_set_int(o, "version", CARC_JSON_VERSION);
    carc_jb_set_int(o, "nplayers", st->nplayers);
    carc_jb_set(o, "expansions", carc_expansions_to_json(st->expansions));
    carc_jb_set(o, "options", carc_options_to_json(st->opt));
    carc_jb_set_str(o, "status", carc_j_status_names[st->status == CARC_FINISHED]);
    carc_jb_set_int(o, "active", st->active);
    carc_jb_set_int(o, "turn", st->turn);
    carc_jb_set(o, "players", carc_view_players(st));
    carc_jb_set_int(o, "stack_left", carc_stack_left(st));
    carc_jb_set(o, "discarded", carc_jb_tiles(st->cat, st->discarded, st->ndiscarded));
    json_t *pieces = carc_jb_arr();
    for (int i = 0; i < st->npieces; i++) {
        json_t *pc = carc_jb_piece(st, &st->pieces[i]);
        carc_view_mark_hill(st, &st->pieces[i], pc);
        carc_jb_push(pieces, pc);
    }
    carc_jb_set(o, "pieces", pieces);
    carc_jb_set(o, "figures", carc_jb_figures(st));
    carc_jb_set(o, "pending", carc_jb_pending(st));
    return o;
}

/* The snapshot plus the conveniences of the other views and the hidden orders spelled out. */
static json_t *carc_view_admin(const carc_state *st)
{
    json_t *o = carc_state_to_json(st);
    carc_jb_set(o, "players", carc_view_players(st));
    carc_jb_set_int(o, "stack_left", carc_stack_left(st));
    carc_jb_set(o, "stack_remaining", carc_jb_tiles(st->cat, st->stack + st->stack_pos,
                                                    (size_t)carc_stack_left(st)));
    json_t *pieces = json_object_get(o, "pieces");
    for (int i = 0; i < st->npieces; i++)
        carc_view_mark_hill(st, &st->pieces[i], json_array_get(pieces, (size_t)i));
    return o;
}

json_t *carc_view_to_json(const carc_state *st, int viewer)
{
    if (viewer == CARC_VIEW_ADMIN)
        return carc_view_admin(st);
    if (viewer >= st->nplayers)
        viewer = CARC_VIEW_PUBLIC;
    json_t *o = carc_view_public(st);
    json_t *left = carc_jb_arr();
    for (int s = 0; s < st->nplayers; s++)
        if (st->left >> s & 1)
            carc_jb_push(left, carc_jb_int(s));
    carc_jb_set(o, "left", left);
    /* each expansion adds what this viewer may know of it (allow-list, like the rest of this view) */
    carc_jv_hills(o, st, viewer);
    carc_jv_fruit(o, st, viewer);
    carc_jv_crop(o, st, viewer);
    carc_jv_halflings(o, st, viewer);
    if (viewer >= 0) {
        /* a seat's own private information (a hand of triangles, later) goes here */
        json_t *you = json_object_get(o, "you");   /* an expansion may have added to it (a hand) */
        if (!you) {
            you = carc_jb_obj();
            carc_jb_set(o, "you", you);
        }
        carc_jb_set_int(you, "seat", viewer);
    }
    return o;
}
