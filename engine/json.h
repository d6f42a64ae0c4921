/*
 * json.h — the JSON codec of libcarc (jansson): game snapshots, moves, events and the per-viewer views.
 *
 * Pure like the rest of the engine: no I/O, no globals. Every encoder returns a new reference the caller
 * owns (json_decref it); out of memory aborts. Decoders borrow their input and never keep a reference.
 *
 * Decoders are strict: every field is checked for presence, type and range, and unknown fields are
 * rejected. On failure they return a negative carc_err and write a lower-case message of the form
 * `<path>: <what is wrong>` (e.g. `pieces[3].rot: expected an integer 0..3`), where <path> names the field
 * relative to the decoded value; a message about the value as a whole has no path (`expected an object`).
 * The daemon can therefore split a message at its first ": " to fill a problem+json field name.
 *
 * Views. A snapshot (carc_state_to_json) holds everything, for storage and admins. A view
 * (carc_view_to_json, carc_events_to_json) is rendered for one viewer: CARC_VIEW_ADMIN sees everything,
 * a seat (>= 0) sees what that player may know, CARC_VIEW_PUBLIC what anyone may know. The hidden fields of
 * docs/DESIGN.md §2 (the seed and rng position, the stack order, tiles under hills) never appear in a seat or
 * public view; counts stay public.
 */
#ifndef CARC_JSON_H
#define CARC_JSON_H

#include <jansson.h>

#include "carc.h"

#define CARC_JSON_VERSION 1     /* the "version" of snapshots this codec writes and reads */

#define CARC_VIEW_ADMIN (-1)    /* everything, hidden orders included */
#define CARC_VIEW_PUBLIC (-2)   /* what anyone may know; a seat >= 0 sees that plus its own private info */

/* ---- snapshots ---------------------------------------------------------------------------------------- */
/* The full state (everything but the derived board):
 * {"version":1,"nplayers":n,"expansions":[..],"options":{..},"status":"active"|"finished","active":seat,
 *  "turn":n,"players":[{"seat","score"}],"rng":{"seed":"<64 hex>","pos":n},"stack":[ids],"stack_pos":n,
 *  "discarded":[ids],"pieces":[{"tile","x","y","rot"[,"under"]}],
 *  "figures":[{"seat","figure","piece","part"}],"pending":{"kind":"place"|"figure"|"none",..}} */
json_t *carc_state_to_json(const carc_state *st);
/* Its text, json_dumps(carc_state_to_json(st), JSON_COMPACT) byte for byte, written without building the tree
 * (json_state_text.c: the daemon stores one every few moves); with_seed false leaves rng.seed out, as the stored
 * snapshot does. malloc memory (free() it); NULL when out of memory. */
char *carc_state_to_json_text(const carc_state *st, bool with_seed);
/* The name a snapshot gives st->pending.kind ("place", "figure", ..., "none"): its pending.kind. */
const char *carc_pending_kind_name(const carc_state *st);
/* The inverse: fills *st (which needs no initialisation) and rebuilds its board with carc_state_rebuild.
 * On error *st is left partly written and must be discarded. `cat` must outlive *st. */
int carc_state_from_json(carc_state *st, const carc_catalog *cat, const json_t *j, char *err, size_t errlen);

/* ---- moves -------------------------------------------------------------------------------------------- */
/* {"type":"place","tile":"U","x":1,"y":0,"rot":1} · {"type":"figure","figure":"meeple","part":"r1"} ·
 * {"type":"pass"} · {"type":"abbot_return"}. A figure's part is named on the piece placed this turn
 * (st->pending.piece), so a move is encoded and decoded against the state it is made in. Decoding what
 * carc_move_to_json wrote gives back the identical carc_move (unused fields zero).
 * The decoder ignores the self-description members (carc_move_describe_json below) and nothing else.
 * carc_move_to_json returns NULL for a move that cannot be named in `st` (a figure move with no piece
 * pending, an index out of range). carc_move_from_json returns CARC_E_INVALID for malformed input,
 * CARC_E_ILLEGAL for a figure move when no piece was placed this turn, CARC_E_FINISHED after the game. */
json_t *carc_move_to_json(const carc_state *st, const carc_move *m);
int carc_move_from_json(const carc_state *st, const json_t *j, carc_move *m, char *err, size_t errlen);
/* An array of carc_move_to_json_described, e.g. for a legal-moves answer (moves that cannot be named are
 * skipped). */
json_t *carc_moves_to_json(const carc_state *st, const carc_moves *ms);
/* The same array's compact text, written without the tree (json_moves_text.c): exactly
 * json_dumps(carc_moves_to_json(st, ms), JSON_COMPACT). malloc memory; NULL when out of memory. */
char *carc_moves_to_json_text(const carc_state *st, const carc_moves *ms);
/* A move's self-description (json_notation.c): adds "notation" (notation.h) and, for a move that puts or
 * takes a figure, "feature", "sides" (board-absolute, ["N","Es"]) and "label" to the move object o.
 * carc_move_from_json ignores exactly these four members, so a described move posted back is the same move.
 * carc_move_to_json_described is carc_move_to_json plus that. */
void carc_move_describe_json(const carc_state *st, const carc_move *m, json_t *o);
json_t *carc_move_to_json_described(const carc_state *st, const carc_move *m);

/* ---- events ------------------------------------------------------------------------------------------- */
/* The events `viewer` may see, as an array, rendered against `st` (the state after the events: tile ids,
 * part names and the final scores of "game_over" come from it). Shapes:
 *   {"type":"game_started","tile","x","y","rot"}      {"type":"tile_drawn","seat","tile"}
 *   {"type":"tile_discarded","tile"}                  {"type":"piece_placed","seat","tile","x","y","rot"}
 *   {"type":"figure_placed"|"figure_returned","seat","figure","x","y","part"}
 *   {"type":"score","seats":[..],"points","feature","reason","spaces":[[x,y],..]}
 *   {"type":"turn","seat"}  {"type":"passed","seat","forced":bool}  {"type":"game_over","scores":[..]}
 *   {"type":"forced_move","seat","by":"forced","move":{..}}: the seat's only legal move, made by the engine;
 *   the move's own events follow it. A score's feature is a part kind, or "fruit" for Fruit Trees. */
json_t *carc_events_to_json(const carc_state *st, const carc_events *ev, int viewer);
/* What `viewer` may see of one event as the admin sees it (an element of carc_events_to_json(...,
 * CARC_VIEW_ADMIN)): a new reference to the event as shown to that viewer — possibly `event` itself, so treat
 * it as read-only — or NULL when the viewer must not learn of the event. The single place that decides what
 * a viewer sees of an event, by its "type" (and "seat", for a seat's private events): carc_events_to_json
 * applies it, and the daemon applies it to the admin rendering it stored with a move. A type it does not
 * know is shown to admins only. */
json_t *carc_event_for_viewer(const json_t *event, int viewer);
/* carc_event_for_viewer over an array of admin events (e.g. the events stored with a move): a new array of
 * what `viewer` may see, in order. Its elements may be the input's own (treat them as read-only). Anything
 * but an array gives an empty array; elements that are not events of a known type are admin-only. */
json_t *carc_events_json_filter(const json_t *admin_events, int viewer);

/* ---- views -------------------------------------------------------------------------------------------- */
/* Seat and public views: the snapshot minus "rng", "stack", "stack_pos" and pieces' "under", plus
 * "stack_left":n, "hill":true on hill pieces and per player "supply":{"meeple":n,"abbot":n[,"shepherd":n]};
 * a seat's view also carries "you":{"seat":s}. The admin view is the snapshot plus all of those
 * conveniences and "stack_remaining":[ids in draw order]. A viewer that is neither admin nor a seat of
 * the game gets the public view. */
json_t *carc_view_to_json(const carc_state *st, int viewer);

/* ---- options and expansions (game creation and snapshots) ---------------------------------------------- */
/* {"abbot":false,"hill_tiebreak":"at_least_one","fruit_max_set":4,...}: every option by its carc_opt_table
 * name, bool / string / int by its kind. */
json_t *carc_options_to_json(const uint8_t opt[CARC_NOPTS]);
/* With `partial`, options missing from `j` keep the value already in opt[] (fill it with the defaults
 * first); without (stored games), every option must be present, except one newer than the game, which
 * takes the value the table's `absent` says it was played with. Messages name `options.<name>`. */
int carc_options_from_json(uint8_t opt[CARC_NOPTS], const json_t *j, bool partial, char *err, size_t errlen);
/* ["hills_sheep",...]: the expansion sets in carc_set order, base implied and never listed. */
json_t *carc_expansions_to_json(uint8_t sets);
/* Sets *sets to the base bit plus the listed sets; unknown, repeated or "base" entries are errors.
 * Messages name `expansions[i]`. */
int carc_expansions_from_json(uint8_t *sets, const json_t *j, char *err, size_t errlen);

/* ---- the tile catalog (catalog_json.c) ----------------------------------------------------------------- */
/* Every tile type of `cat` for clients: {"conventions":{..},"sets":[{"name","tiles","start"}],"tiles":[{"id",
 * "set","shape","count","start"[,"when"][,"replaces"],"sides":{"N":"city",..},"segments":[{"part","feature",
 * "sides","places","intervals"[,"pennant"][,"cities"]}],"specials":{"hill","vineyard","fruit_tree"
 * [,"crop_circle"]}}]}. Built only from the catalog and the engine's rotation rule, so it says what the engine
 * plays; the same catalog always gives the same document. */
json_t *carc_catalog_json(const carc_catalog *cat);

/* ---- admin scripts (game creation and replays) ------------------------------------------------------- */
/* script.hands (Halb so wild II): [["HW01","HW08"],["HW04","HW12"]], one array of tile ids per seat of
 * s->nplayers, into s->hand / hand_n with hands_scripted = 1. carc_game_new checks that every id is a
 * triangle of the game, used once. Messages name `script.hands[i][j]`. */
int carc_script_hands_from_json(const carc_catalog *cat, const json_t *j, carc_setup *s, char *err, size_t errlen);
/* script.fruit (Fruit Trees): {"apple": [5, 2, 4, 3], ...}, each named fruit type's stack top first, a
 * permutation of 2..5; types not named are shuffled. Into s->fruit with fruit_scripted = 1. Messages name
 * `script.fruit.<name>[i]`. */
int carc_script_fruit_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen);
/* script.sheep (Hills & Sheep): [2, 3, "wolf", 1], the bag draws in order, each 1..4 (sheep) or "wolf", at most
 * CARC_MAX_SCRIPT, into s->sheep / nsheep. Whether each draw is possible is checked when it is drawn (a draw
 * the bag cannot give is uniform, exp_hills.c). Messages name `script.sheep[i]`. */
int carc_script_sheep_from_json(const json_t *j, carc_setup *s, char *err, size_t errlen);
/* The whole script, {"stack": [ids], "sheep", "fruit", "hands"} (all optional, nothing else), into s (its
 * nplayers and expansions set first): sheep, fruit and hands as above, then the stack, 1..CARC_MAX_TILES tile
 * ids drawn in order. Messages name `script.<member>...`. */
int carc_script_from_json(const carc_catalog *cat, const json_t *script, carc_setup *s, char *err, size_t errlen);

/* ---- stored set-ups and move logs (replay) -------------------------------------------------------------- */
/* A game's stored set-up, {"nplayers", "expansions", "options" (every option), "script"?}, as carcd stores it
 * and exports it, into s from carc_setup_defaults; the seed is left zero (it is kept apart). */
int carc_setup_from_json(const carc_catalog *cat, const json_t *setup, carc_setup *s, char *err, size_t errlen);
/* Whether a logged move is {"kind": "leave"}: the seat resigned or forfeited (carc_leave). */
bool carc_move_is_leave(const json_t *move);
/* Whether a logged move is {"kind": "leave_to_bot"}: the seat's player left it to a bot (carc_leave_to_bot). */
bool carc_move_is_leave_to_bot(const json_t *move);
/* One move of a game's log applied for seat: a leave through carc_leave, a leave to a bot through
 * carc_leave_to_bot, any other move through carc_move_from_json and carc_apply (their return values). */
int carc_logged_move_apply(carc_state *st, int seat, const json_t *move, carc_events *ev, char *err, size_t errlen);

#endif
