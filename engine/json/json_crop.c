/*
 * json_crop.c — the JSON of the crop_circles expansion: its member of snapshots, what views show of it, its
 * moves' and events' members (hooks declared in json_priv.h). Nothing of Crop Circles is hidden.
 *
 *   snapshot  "crop_circles": {"action": null}
 *             | {"action": {"kind": "club"|"rake"|"shield", "piece": 12, "mode": "add"|"remove", "step": 1}}
 *             (mode is "add" and step 0 while the choice is pending: that is the state's encoding)
 *   view      "crop_circles": {"action": null}
 *             | {"action": {"kind", "x", "y", ["corner"], "chooser": seat, "mode": "add"|"remove"|null,
 *                           "seat": seat waited for, "order": [seats in acting order], "step"}}
 *   moves     {"type": "crop_circle_add"} | {"type": "crop_circle_remove"} | {"type": "crop_circle_skip"}
 *             | {"type": "crop_circle_figure", "x", "y", "part", ["corner" when the piece is a triangle]}
 *   events    crop_circle_chosen {"seat", "choice": "add"|"remove", "kind"}
 *             crop_circle_skipped {"seat", "kind", "whole_action": bool} — whole_action: nobody had a
 *             follower of that kind, so nobody was asked; otherwise that seat had nothing to do.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "json_priv.h"

static const char *const cc_names[] = {"none", "club", "rake", "shield"};
static const char *const mode_names[] = {"add", "remove"};

static const char *cc_name(unsigned kind) { return kind < 4 ? cc_names[kind] : "?"; }

/* ---- snapshot ----------------------------------------------------------------------------------------- */
json_t *carc_jx_crop_to(const carc_state *st)
{
    json_t *o = carc_jb_obj();
    if (st->crop.kind == CARC_CC_NONE) {
        carc_jb_set(o, "action", json_null());
        return o;
    }
    json_t *a = carc_jb_obj();
    carc_jb_set_str(a, "kind", cc_name(st->crop.kind));
    carc_jb_set_int(a, "piece", st->crop.piece);
    carc_jb_set_str(a, "mode", st->crop.mode < 2 ? mode_names[st->crop.mode] : "?");
    carc_jb_set_int(a, "step", st->crop.step);
    carc_jb_set(o, "action", a);
    return o;
}

int carc_jx_crop_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen)
{
    static const char *const keys[] = {"action", NULL};
    static const char *const akeys[] = {"kind", "piece", "mode", "step", NULL};
    static const carc_jpath p = {NULL, "crop_circles", 0};
    static const carc_jpath ap = {&p, "action", 0};
    const json_t *o, *a;
    memset(&st->crop, 0, sizeof st->crop);
    CARC_TRY(carc_jr_object(snapshot, NULL, "crop_circles", keys, &o, err, errlen));
    a = json_object_get(o, "action");
    if (!a)
        return carc_jr_fail(err, errlen, &p, "action", "missing field");
    bool waiting = st->status == CARC_ACTIVE && (st->pending.kind == CARC_PENDING_CC_CHOICE ||
                                                 st->pending.kind == CARC_PENDING_CC_ACTION);
    if (json_is_null(a)) {
        if (waiting)
            return carc_jr_fail(err, errlen, &p, "action", "null while the game waits for a crop circle decision");
        return 0;
    }
    int kind, mode;
    json_int_t piece, step;
    CARC_TRY(carc_jr_object(o, &p, "action", akeys, &a, err, errlen));
    CARC_TRY(carc_jr_enum(a, &ap, "kind", cc_names + 1, 3, &kind, err, errlen));
    if (st->npieces == 0)
        return carc_jr_fail(err, errlen, &ap, "piece", "no pieces on the board");
    CARC_TRY(carc_jr_int(a, &ap, "piece", 0, st->npieces - 1, &piece, err, errlen));
    CARC_TRY(carc_jr_enum(a, &ap, "mode", mode_names, 2, &mode, err, errlen));
    CARC_TRY(carc_jr_int(a, &ap, "step", 0, st->nplayers - 1, &step, err, errlen));
    if (st->pending.kind == CARC_PENDING_CC_CHOICE && (mode != 0 || step != 0))
        return carc_jr_fail(err, errlen, &ap, "mode", "must be \"add\" with step 0 while the choice is pending");
    if (st->pending.kind == CARC_PENDING_CC_ACTION && st->pending.seat != (st->active + 1 + step) % st->nplayers)
        return carc_jr_fail(err, errlen, &ap, "step", "does not name the seat the game waits for");
    st->crop.kind = (uint8_t)(kind + 1);
    st->crop.piece = (uint8_t)piece;
    st->crop.mode = (uint8_t)mode;
    st->crop.step = (uint8_t)step;
    return 0;
}

/* ---- view --------------------------------------------------------------------------------------------- */
void carc_jv_crop(json_t *view, const carc_state *st, int viewer)
{
    (void)viewer;   /* nothing of Crop Circles is hidden */
    if (!carc_has(st, CARC_SET_CROP_CIRCLES))
        return;
    json_t *o = carc_jb_obj();
    if (st->crop.kind == CARC_CC_NONE || st->status != CARC_ACTIVE) {
        carc_jb_set(o, "action", json_null());
        carc_jb_set(view, "crop_circles", o);
        return;
    }
    json_t *a = carc_jb_obj();
    carc_jb_set_str(a, "kind", cc_name(st->crop.kind));
    if (st->crop.piece < st->npieces) {
        const carc_piece *pc = &st->pieces[st->crop.piece];
        carc_jb_set_int(a, "x", pc->x);
        carc_jb_set_int(a, "y", pc->y);
        if (pc->type < st->cat->ntypes && st->cat->types[pc->type].shape == CARC_TRIANGLE)
            carc_jb_set_int(a, "corner", pc->rot);
    }
    carc_jb_set_int(a, "chooser", st->active);
    bool chosen = st->pending.kind == CARC_PENDING_CC_ACTION;
    if (chosen)
        carc_jb_set_str(a, "mode", st->crop.mode < 2 ? mode_names[st->crop.mode] : "?");
    else
        carc_jb_set(a, "mode", json_null());
    carc_jb_set_int(a, "seat", st->pending.seat);
    json_t *order = carc_jb_arr();
    for (int k = 0; k < st->nplayers; k++) {
        int s = (st->active + 1 + k) % st->nplayers;
        if (!(st->left >> s & 1))
            carc_jb_push(order, carc_jb_int(s));
    }
    carc_jb_set(a, "order", order);
    carc_jb_set_int(a, "step", st->crop.step);
    carc_jb_set(o, "action", a);
    carc_jb_set(view, "crop_circles", o);
}

/* ---- moves -------------------------------------------------------------------------------------------- */
bool carc_jm_crop_to(const carc_state *st, const carc_move *m, json_t *o)
{
    switch (m->kind) {
    case CARC_MV_CC_ADD:
    case CARC_MV_CC_REMOVE:
    case CARC_MV_CC_SKIP: return true;
    case CARC_MV_CC_FIGURE: break;
    default: return false;
    }
    if (m->piece >= st->npieces)
        return false;
    const carc_piece *pc = &st->pieces[m->piece];
    if (pc->type >= st->cat->ntypes || m->part >= st->cat->types[pc->type].nparts)
        return false;
    const carc_tile_type *t = &st->cat->types[pc->type];
    carc_jb_set_int(o, "x", pc->x);
    carc_jb_set_int(o, "y", pc->y);
    carc_jb_set_str(o, "part", t->parts[m->part].name);
    if (t->shape == CARC_TRIANGLE)
        carc_jb_set_int(o, "corner", pc->rot);
    return true;
}

int carc_jm_crop_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen)
{
    static const char *const bare[] = {"type", NULL};
    static const char *const figure[] = {"type", "x", "y", "part", "corner", NULL};
    const json_t *checked;
    if (m->kind != CARC_MV_CC_FIGURE)
        return carc_jr_object(o, NULL, NULL, bare, &checked, err, errlen);
    json_int_t x, y, corner = -1;
    CARC_TRY(carc_jr_object(o, NULL, NULL, figure, &checked, err, errlen));
    CARC_TRY(carc_jr_int(o, NULL, "x", INT16_MIN, INT16_MAX, &x, err, errlen));
    CARC_TRY(carc_jr_int(o, NULL, "y", INT16_MIN, INT16_MAX, &y, err, errlen));
    const char *part = NULL;
    CARC_TRY(carc_jr_str(o, NULL, "part", &part, err, errlen));
    if (json_object_get(o, "corner"))
        CARC_TRY(carc_jr_int(o, NULL, "corner", 0, 3, &corner, err, errlen));
    int si = carc_space_find(&st->board, (int)x, (int)y);
    const carc_space *sp = si >= 0 ? &st->board.spaces[si] : NULL;
    if (!sp || sp->npieces == 0) {
        snprintf(err, errlen, "x: no piece at (%d,%d)", (int)x, (int)y);
        return CARC_E_ILLEGAL;
    }
    int piece = -1;
    bool triangles = carc_type_of(st, sp->piece[0])->shape == CARC_TRIANGLE;
    if (!triangles) {
        if (corner >= 0)
            return carc_jr_fail(err, errlen, NULL, "corner", "only for a triangle; (%d,%d) holds a square tile",
                                (int)x, (int)y);
        piece = sp->piece[0];
    } else {
        if (corner < 0)
            return carc_jr_fail(err, errlen, NULL, "corner", "missing field: (%d,%d) holds triangles", (int)x,
                                (int)y);
        for (int k = 0; k < sp->npieces; k++)
            if (st->pieces[sp->piece[k]].rot == corner)
                piece = sp->piece[k];
        if (piece < 0) {
            snprintf(err, errlen, "corner: no triangle in corner %d at (%d,%d)", (int)corner, (int)x, (int)y);
            return CARC_E_ILLEGAL;
        }
    }
    m->piece = (uint8_t)piece;
    return carc_jr_part(st->cat, st->pieces[piece].type, o, NULL, "part", &m->part, err, errlen);
}

/* ---- events ------------------------------------------------------------------------------------------- */
void carc_je_crop(const carc_state *st, const carc_event *e, json_t *o)
{
    (void)st;
    carc_jb_set_int(o, "seat", e->seat);
    if (e->kind == CARC_EV_CC_CHOSEN)
        carc_jb_set_str(o, "choice", e->value == 1 ? "remove" : "add");
    carc_jb_set_str(o, "kind", cc_name(e->aux));
    if (e->kind == CARC_EV_CC_SKIPPED)
        carc_jb_set(o, "whole_action", json_boolean(e->value != 0));
}
