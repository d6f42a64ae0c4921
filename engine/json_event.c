/*
 * json_event.c — events in JSON, as one viewer may see them. Every event is first rendered in full, then
 * passes through carc_event_for_viewer, the single place that redacts or drops what a viewer must not see.
 * That filter works on the rendered JSON alone, so the daemon can apply it to events it stored earlier.
 */
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
        break;
    case CARC_EV_SCORE: {
        json_t *seats = carc_jb_arr();
        for (int s = 0; s < CARC_MAX_PLAYERS; s++)
            if (e->seats & (1u << s))
                carc_jb_push(seats, carc_jb_int(s));
        carc_jb_set(o, "seats", seats);
        carc_jb_set_int(o, "points", e->points);
        carc_jb_set_str(o, "feature", e->feature < CARC_NPART_KINDS ? carc_j_feature_names[e->feature] : "?");
        carc_jb_set_str(o, "reason", e->reason <= CARC_REASON_ABBOT ? carc_j_reason_names[e->reason] : "?");
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
    }
    return o;
}

json_t *carc_event_for_viewer(const json_t *event, int viewer)
{
    /* The base game has no hidden event, so everyone sees everything. Expansions with hidden draws (the tile
     * put under a hill, a sheep token, a private hand) add their case here, keyed by "type", and nowhere
     * else: return a redacted copy, or NULL to drop the event for this viewer. */
    (void)viewer;
    return json_incref((json_t *)event);
}

json_t *carc_events_to_json(const carc_state *st, const carc_events *ev, int viewer)
{
    json_t *a = carc_jb_arr();
    for (size_t i = 0; i < ev->n; i++) {
        json_t *full = carc_event_to_json(st, ev, &ev->v[i]);
        if (!full)
            continue;
        json_t *seen = viewer == CARC_VIEW_ADMIN ? json_incref(full) : carc_event_for_viewer(full, viewer);
        json_decref(full);
        if (seen)
            carc_jb_push(a, seen);
    }
    return a;
}
