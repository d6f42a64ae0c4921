/*
 * json_priv.h — helpers shared by the json_*.c files of the codec; not part of the engine's contract.
 *
 * Building (carc_jb_*): thin wrappers over jansson that abort on out-of-memory, so encoders read as plain
 * sequences of "set this key". Setters steal the reference to the value, like json_object_set_new.
 *
 * Reading (carc_jr_*): one strict check per JSON kind. Each takes `obj`, the path `p` of obj and a `key`:
 * with a key the value checked is obj[key] at path p.key (absent = "missing field"), without one (NULL) it
 * is obj itself at path p. Paths are linked lists of stack nodes and are only formatted into text when a
 * check fails, so a successful decode costs no string work. Every failure returns CARC_E_INVALID.
 */
#ifndef CARC_JSON_PRIV_H
#define CARC_JSON_PRIV_H

#include <string.h>

#include "json.h"

/* ---- names the JSON uses for engine enums (indexed by the enum) --------------------------------------- */
extern const char *const carc_j_status_names[2];            /* carc_status */
extern const char *const carc_j_fig_names[CARC_NFIG_KINDS]; /* carc_fig_kind */
extern const char *const carc_j_pending_names[CARC_NPENDING];     /* carc_pending_kind */
extern const char *const carc_j_feature_names[CARC_NFEATURES]; /* carc_part_kind, then "fruit" */
extern const char *const carc_j_reason_names[CARC_NREASONS];     /* carc_reason */
extern const char *const carc_j_move_names[CARC_NMOVE_KINDS];    /* carc_move_kind */
extern const char *const carc_j_event_names[CARC_NEVENT_KINDS];  /* carc_event_kind */
extern const char *const carc_j_phase_names[CARC_PH_DRAFT + 1];  /* carc_phase */

/* The members of a move's self-description (json_notation.c), NULL-terminated, and whether j has any. */
extern const char *const carc_j_described_keys[5];
bool carc_move_json_described(const json_t *j);

/* ---- building ----------------------------------------------------------------------------------------- */
json_t *carc_jb_obj(void);
json_t *carc_jb_arr(void);
json_t *carc_jb_int(json_int_t v);
json_t *carc_jb_str(const char *s);
void carc_jb_set(json_t *obj, const char *key, json_t *val);   /* steals val */
void carc_jb_push(json_t *arr, json_t *val);                    /* steals val */
void carc_jb_set_int(json_t *obj, const char *key, json_int_t v);
void carc_jb_set_str(json_t *obj, const char *key, const char *s);
/* Tile id / part name of an index, "?" when out of range (encoders never crash on a bad index). */
const char *carc_jb_tile_id(const carc_catalog *cat, unsigned type);
const char *carc_jb_part_name(const carc_catalog *cat, unsigned type, unsigned part);
/* The players array of snapshots and views ({"seat","score"} each). */
json_t *carc_jb_players(const carc_state *st);
/* {"kind":"place","seat","tile"} | {"kind":"figure","seat","piece"} | {"kind":"none"} */
json_t *carc_jb_pending(const carc_state *st);
/* The public part of a piece: {"tile","x","y","rot"}. */
json_t *carc_jb_piece(const carc_state *st, const carc_piece *pc);
/* The figures array: [{"seat","figure","piece","part"}]. */
json_t *carc_jb_figures(const carc_state *st);
/* An array of tile ids. */
json_t *carc_jb_tiles(const carc_catalog *cat, const uint8_t *types, size_t n);

/* ---- reading ------------------------------------------------------------------------------------------ */
/* Returns from the calling function when a check fails. */
#define CARC_TRY(expr)                                                                                 \
    do {                                                                                               \
        int carc_rc_ = (expr);                                                                         \
        if (carc_rc_)                                                                                  \
            return carc_rc_;                                                                           \
    } while (0)

typedef struct carc_jpath {
    const struct carc_jpath *up;   /* NULL at the root */
    const char *key;               /* member name, or NULL for an array index */
    size_t idx;
} carc_jpath;

/* Writes "<path>: <message>" (just the message at the root) and returns CARC_E_INVALID. */
int carc_jr_fail(char *err, size_t errlen, const carc_jpath *p, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* An object whose members are all in the NULL-terminated `keys` (a missing one is found by its reader). */
int carc_jr_object(const json_t *obj, const carc_jpath *p, const char *key, const char *const *keys,
                   const json_t **out, char *err, size_t errlen);
int carc_jr_int(const json_t *obj, const carc_jpath *p, const char *key, json_int_t lo, json_int_t hi,
                json_int_t *out, char *err, size_t errlen);
int carc_jr_bool(const json_t *obj, const carc_jpath *p, const char *key, bool *out, char *err, size_t errlen);
int carc_jr_str(const json_t *obj, const carc_jpath *p, const char *key, const char **out, char *err,
                size_t errlen);
/* An array of at most `max` entries. */
int carc_jr_array(const json_t *obj, const carc_jpath *p, const char *key, size_t max, const json_t **out,
                  char *err, size_t errlen);
/* A string that is one of names[0..n): *out = its index. */
int carc_jr_enum(const json_t *obj, const carc_jpath *p, const char *key, const char *const *names, int n,
                 int *out, char *err, size_t errlen);
/* A tile id of the catalog: *out = its type index. */
int carc_jr_tile(const carc_catalog *cat, const json_t *obj, const carc_jpath *p, const char *key,
                 uint8_t *out, char *err, size_t errlen);
/* A part name of tile type `type`: *out = its part index. */
int carc_jr_part(const carc_catalog *cat, unsigned type, const json_t *obj, const carc_jpath *p,
                 const char *key, uint8_t *out, char *err, size_t errlen);

/* ---- expansions: each in its own file (json_hills.c, json_fruit.c, json_crop.c, json_halflings.c) -------- */
/* Snapshot: the expansion's member of the snapshot (its name is the set's: "hills_sheep", ...), NULL when
 * the expansion is not in play. The decoder reads snapshot[name], which must be present exactly when the
 * expansion is in play, into st (called after pieces and figures are decoded). */
json_t *carc_jx_hills_to(const carc_state *st);
int carc_jx_hills_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen);
json_t *carc_jx_fruit_to(const carc_state *st);
int carc_jx_fruit_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen);
json_t *carc_jx_crop_to(const carc_state *st);
int carc_jx_crop_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen);
json_t *carc_jx_halflings_to(const carc_state *st);
int carc_jx_halflings_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen);
/* Views: adds what `viewer` may know of the expansion (CARC_VIEW_PUBLIC or a seat; the admin view is the
 * snapshot's member) to a view under the set's name. Nothing when the expansion is not in play. */
void carc_jv_hills(json_t *view, const carc_state *st, int viewer);
void carc_jv_fruit(json_t *view, const carc_state *st, int viewer);
void carc_jv_crop(json_t *view, const carc_state *st, int viewer);
void carc_jv_halflings(json_t *view, const carc_state *st, int viewer);
/* Moves of the expansion kinds (CARC_MV_DRAW and after), dispatched by json_move.c to the expansion that
 * owns the kind: the encoder adds the members beyond "type" to o (false: it cannot name the move); the
 * decoder checks every member strictly (carc_jr_object with its own key list, "type" included) and fills m
 * (m->kind is already set). */
bool carc_jm_hills_to(const carc_state *st, const carc_move *m, json_t *o);
int carc_jm_hills_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen);
bool carc_jm_fruit_to(const carc_state *st, const carc_move *m, json_t *o);
int carc_jm_fruit_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen);
bool carc_jm_crop_to(const carc_state *st, const carc_move *m, json_t *o);
int carc_jm_crop_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen);
bool carc_jm_halflings_to(const carc_state *st, const carc_move *m, json_t *o);
int carc_jm_halflings_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen);
/* Events of the expansion kinds (CARC_EV_HILL_COVERED and after), dispatched by json_event.c: the
 * members beyond "type". Who may see them is json_event.c's table (add a row per type there). */
void carc_je_hills(const carc_state *st, const carc_event *e, json_t *o);
void carc_je_fruit(const carc_state *st, const carc_event *e, json_t *o);
void carc_je_crop(const carc_state *st, const carc_event *e, json_t *o);
void carc_je_halflings(const carc_state *st, const carc_event *e, json_t *o);

#endif
