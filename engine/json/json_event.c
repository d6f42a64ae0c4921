/*
 * json_event.c — events in JSON, as one viewer may see them. Every event is first rendered in full, then
 * passes through carc_event_for_viewer, the single place that redacts or drops what a viewer must not see.
 * That filter works on the rendered JSON alone, so the daemon can apply it to events it stored earlier.
 */
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"

static const char *carc_fig_name(unsigned fig)
{
    return fig < CARC_NFIG_KINDS ? carc_j_fig_names[fig] : "?";
}

/* x, y and rot of a placed piece, shared by game_started and piece_placed. */
static void carc_event_set_place(json_t *o, const carc_state *st, const carc_event *e)
{
    carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, e->tile));
    carc_jb_set_int(o, "x", e->x);
    carc_jb_set_int(o, "y", e->y);
    carc_jb_set_int(o, "rot", e->rot);
}

static json_t *carc_score_spaces(const carc_events *ev, const carc_event *e)
{
    json_t *a = carc_jb_arr();
    size_t first = e->spaces_at, n = e->nspaces;
    if (first > ev->nxy / 2 || n > ev->nxy / 2 - first)
        return a;   /* an engine bug; render no spaces rather than read past the buffer */
    for (size_t i = first; i < first + n; i++) {
        json_t *xy = carc_jb_arr();
        carc_jb_push(xy, carc_jb_int(ev->xy[2 * i]));
        carc_jb_push(xy, carc_jb_int(ev->xy[2 * i + 1]));
        carc_jb_push(a, xy);
    }
    return a;
}

/* The whole event, as an admin sees it. */
static json_t *carc_event_to_json(const carc_state *st, const carc_events *ev, const carc_event *e)
{
    if (e->kind >= sizeof carc_j_event_names / sizeof carc_j_event_names[0])
        return NULL;
    json_t *o = carc_jb_obj();
    carc_jb_set_str(o, "type", carc_j_event_names[e->kind]);
    switch (e->kind) {
    case CARC_EV_GAME_STARTED:
        carc_event_set_place(o, st, e);
        break;
    case CARC_EV_TILE_DRAWN:
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, e->tile));
        break;
    case CARC_EV_TILE_DISCARDED:
        carc_jb_set_str(o, "tile", carc_jb_tile_id(st->cat, e->tile));
        break;
    case CARC_EV_PIECE_PLACED:
        carc_jb_set_int(o, "seat", e->seat);
        carc_event_set_place(o, st, e);
        break;
    case CARC_EV_FIGURE_PLACED:
    case CARC_EV_FIGURE_RETURNED:
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set_str(o, "figure", carc_fig_name(e->fig));
        carc_jb_set_int(o, "x", e->x);
        carc_jb_set_int(o, "y", e->y);
        carc_jb_set_str(o, "part", carc_jb_part_name(st->cat, e->tile, e->part));
        if (e->tile < st->cat->ntypes && st->cat->types[e->tile].shape == CARC_TRIANGLE)
            carc_jb_set_int(o, "corner", e->rot);   /* which half of the space */
        break;
    case CARC_EV_SCORE: {
        json_t *seats = carc_jb_arr();
        for (int s = 0; s < CARC_MAX_PLAYERS; s++)
            if (e->seats & (1u << s))
                carc_jb_push(seats, carc_jb_int(s));
        carc_jb_set(o, "seats", seats);
        carc_jb_set_int(o, "points", e->points);
        carc_jb_set_str(o, "feature", e->feature < CARC_NFEATURES ? carc_j_feature_names[e->feature] : "?");
        carc_jb_set_str(o, "reason", e->reason < CARC_NREASONS ? carc_j_reason_names[e->reason] : "?");
        carc_jb_set(o, "spaces", carc_score_spaces(ev, e));
        break;
    }
    case CARC_EV_TURN:
        carc_jb_set_int(o, "seat", e->seat);
        break;
    case CARC_EV_PASSED:
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set(o, "forced", json_boolean(e->forced));
        break;
    case CARC_EV_GAME_OVER: {
        json_t *scores = carc_jb_arr();
        for (int s = 0; s < st->nplayers; s++)
            carc_jb_push(scores, carc_jb_int(st->players[s].score));
        carc_jb_set(o, "scores", scores);
        break;
    }
    case CARC_EV_HILL_COVERED:
    case CARC_EV_TOKEN_DRAWN:
    case CARC_EV_FLOCK_SCATTERED: carc_je_hills(st, e, o); break;
    case CARC_EV_TREE_STOCKED:
    case CARC_EV_HARVESTED:
    case CARC_EV_SOLD: carc_je_fruit(st, e, o); break;
    case CARC_EV_CC_CHOSEN:
    case CARC_EV_CC_SKIPPED: carc_je_crop(st, e, o); break;
    case CARC_EV_TRIANGLE_DEALT:
    case CARC_EV_TRIANGLE_DRAFTED: carc_je_halflings(st, e, o); break;
    case CARC_EV_SEAT_LEFT:
    case CARC_EV_SEAT_TO_BOT: carc_jb_set_int(o, "seat", e->seat); break;
    case CARC_EV_FORCED_MOVE: {
        /* the move as the seat would have posted it: named against the state after it, which still has
         * every piece a forced move can name (a placement names its tile, a crop circle action its piece) */
        json_t *mv = carc_move_to_json(st, &e->move);
        carc_jb_set_int(o, "seat", e->seat);
        carc_jb_set_str(o, "by", "forced");
        if (mv)
            carc_jb_set(o, "move", mv);
        break;
    }
    }
    return o;
}

/* Who may see an event of each type. The base game has no hidden event, so everyone sees everything.
 * Expansions with hidden draws (the tile put under a hill, a sheep token, a private hand) add their rows
 * here and nowhere else. A type missing from the table is seen by admins only: a new event stays hidden
 * until someone decides who may see it. */
typedef enum {
    CARC_SEE_ALL,    /* everyone */
    CARC_SEE_SEAT,   /* the event's "seat" and admins in full; others without the `hidden` members, or not at
                      * all when `hidden` is NULL */
    CARC_SEE_ADMIN,  /* admins only */
} carc_audience;

static const char *const carc_hide_tile[] = {"tile", NULL};   /* hills: the tile under a hill */

static const struct {
    const char *type;
    carc_audience who;
    const char *const *hidden;   /* CARC_SEE_SEAT: members others must not see (NULL-terminated) */
} carc_event_rules[] = {
    {"game_started", CARC_SEE_ALL, NULL},   {"tile_drawn", CARC_SEE_ALL, NULL},
    {"tile_discarded", CARC_SEE_ALL, NULL}, {"piece_placed", CARC_SEE_ALL, NULL},
    {"figure_placed", CARC_SEE_ALL, NULL},  {"figure_returned", CARC_SEE_ALL, NULL},
    {"score", CARC_SEE_ALL, NULL},          {"turn", CARC_SEE_ALL, NULL},
    {"game_over", CARC_SEE_ALL, NULL},      {"passed", CARC_SEE_ALL, NULL},
    {"seat_left", CARC_SEE_ALL, NULL},      {"seat_to_bot", CARC_SEE_ALL, NULL},
    {"forced_move", CARC_SEE_ALL, NULL},   /* the move's own events follow and say no more than it */
    /* expansions: add a row per event type (exp files own the encoding, this table the audience) */
    {"tree_stocked", CARC_SEE_ALL, NULL},   /* fruit: where and which fruit; the values are never in events */
    {"harvested", CARC_SEE_ALL, NULL},      /* fruit: a harvested token's value is public */
    {"sold", CARC_SEE_ALL, NULL},
    {"hill_covered", CARC_SEE_SEAT, carc_hide_tile},   /* hills: no "seat", so only admins see the tile */
    {"token_drawn", CARC_SEE_ALL, NULL},               /* hills: flocks are public */
    {"flock_scattered", CARC_SEE_ALL, NULL},
    {"crop_circle_chosen", CARC_SEE_ALL, NULL},   /* crop circles: nothing hidden */
    {"crop_circle_skipped", CARC_SEE_ALL, NULL},
    {"triangle_dealt", CARC_SEE_SEAT, NULL},   /* a private hand: its owner and admins only */
    {"triangle_drafted", CARC_SEE_ALL, NULL},  /* picked face up */
};

json_t *carc_event_for_viewer(const json_t *event, int viewer)
{
    if (viewer == CARC_VIEW_ADMIN)
        return json_incref((json_t *)event);
    const char *type = json_string_value(json_object_get(event, "type"));
    size_t i = 0, n = sizeof carc_event_rules / sizeof carc_event_rules[0];
    while (type && i < n && strcmp(carc_event_rules[i].type, type) != 0)
        i++;
    if (!type || i == n || carc_event_rules[i].who == CARC_SEE_ADMIN)
        return NULL;
    if (carc_event_rules[i].who == CARC_SEE_ALL)
        return json_incref((json_t *)event);
    const json_t *seat = json_object_get(event, "seat");
    if (viewer >= 0 && json_is_integer(seat) && json_integer_value(seat) == viewer)
        return json_incref((json_t *)event);
    if (!carc_event_rules[i].hidden)
        return NULL;
    json_t *copy = json_deep_copy(event);
    if (!copy)
        abort();   /* the engine's policy: out of memory aborts */
    for (const char *const *k = carc_event_rules[i].hidden; *k; k++)
        json_object_del(copy, *k);
    return copy;
}

json_t *carc_events_json_filter(const json_t *admin_events, int viewer)
{
    json_t *a = carc_jb_arr();
    size_t i;
    const json_t *e;
    json_array_foreach(admin_events, i, e) {
        json_t *seen = carc_event_for_viewer(e, viewer);
        if (seen)
            carc_jb_push(a, seen);
    }
    return a;
}

json_t *carc_events_to_json(const carc_state *st, const carc_events *ev, int viewer)
{
    json_t *a = carc_jb_arr();
    for (size_t i = 0; i < ev->n; i++) {
        json_t *full = carc_event_to_json(st, ev, &ev->v[i]);
        if (!full)
            continue;
        json_t *seen = carc_event_for_viewer(full, viewer);
        json_decref(full);
        if (seen)
            carc_jb_push(a, seen);
    }
    return a;
}
