/*
 * json_move.c — moves in JSON, both ways. Clients post back the moves of a legal-moves answer verbatim, so
 * decoding what the encoder wrote must give the identical carc_move; the members of a move's self-description
 * (json_notation.c: notation, feature, sides, label) are ignored, and only those. The decoder is strict
 * (fuzzed by tests/fuzz/fuzz_move_json.c): it checks form and names only; whether the move is allowed now is
 * carc_apply's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_priv.h"

/* Type of the piece placed this turn, or -1 when the game waits for no figure. */
static int carc_pending_piece_type(const carc_state *st)
{
    if (st->pending.kind != CARC_PENDING_FIGURE || st->pending.piece >= st->npieces)
        return -1;
    return st->pieces[st->pending.piece].type;
}

json_t *carc_move_to_json(const carc_state *st, const carc_move *m)
{
    json_t *o;
    int type;
    switch (m->kind) {
    case CARC_MV_PLACE:
        if (m->tile >= st->cat->ntypes || m->rot > 3)
            return NULL;
        o = carc_jb_obj();
        carc_jb_set_str(o, "type", "place");
        carc_jb_set_str(o, "tile", st->cat->types[m->tile].id);
        carc_jb_set_int(o, "x", m->x);
        carc_jb_set_int(o, "y", m->y);
        carc_jb_set_int(o, "rot", m->rot);
        return o;
    case CARC_MV_FIGURE:
        type = carc_pending_piece_type(st);
        if (type < 0 || m->fig >= CARC_NFIG_KINDS || m->part >= st->cat->types[type].nparts)
            return NULL;
        o = carc_jb_obj();
        carc_jb_set_str(o, "type", "figure");
        carc_jb_set_str(o, "figure", carc_j_fig_names[m->fig]);
        carc_jb_set_str(o, "part", st->cat->types[type].parts[m->part].name);
        return o;
    case CARC_MV_PASS:
    case CARC_MV_ABBOT_RETURN:
        o = carc_jb_obj();
        carc_jb_set_str(o, "type", carc_j_move_names[m->kind]);
        return o;
    default:
        break;
    }
    if (m->kind >= CARC_NMOVE_KINDS)
        return NULL;
    o = carc_jb_obj();
    carc_jb_set_str(o, "type", carc_j_move_names[m->kind]);
    bool named;
    switch (m->kind) {
    case CARC_MV_DRAW:
    case CARC_MV_DRAFT: named = carc_jm_halflings_to(st, m, o); break;
    case CARC_MV_HARVEST:
    case CARC_MV_SELL: named = carc_jm_fruit_to(st, m, o); break;
    case CARC_MV_GROW:
    case CARC_MV_STABLE: named = carc_jm_hills_to(st, m, o); break;
    default: named = carc_jm_crop_to(st, m, o); break;
    }
    if (!named) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The members of a move's self-description (json_notation.c), which the decoder ignores and nothing else. */
const char *const carc_j_described_keys[5] = {"notation", "feature", "sides", "label", NULL};

bool carc_move_json_described(const json_t *j)
{
    for (int i = 0; carc_j_described_keys[i]; i++)
        if (json_object_get(j, carc_j_described_keys[i]))
            return true;
    return false;
}

static int move_from_json(const carc_state *st, const json_t *j, carc_move *m, char *err, size_t errlen);

int carc_move_from_json(const carc_state *st, const json_t *j, carc_move *m, char *err, size_t errlen)
{
    if (!json_is_object(j) || !carc_move_json_described(j))
        return move_from_json(st, j, m, err, errlen);
    /* a described move (a legal move posted back verbatim): the description is no part of the move */
    json_t *bare = json_copy((json_t *)j);
    if (!bare)
        abort();   /* the engine's policy: out of memory aborts */
    for (int i = 0; carc_j_described_keys[i]; i++)
        json_object_del(bare, carc_j_described_keys[i]);
    int rc = move_from_json(st, bare, m, err, errlen);
    json_decref(bare);
    return rc;
}

static int move_from_json(const carc_state *st, const json_t *j, carc_move *m, char *err, size_t errlen)
{
    static const char *const any[] = {"type", "tile", "x", "y", "rot", "figure", "part", NULL};
    static const char *const keys[4][6] = {
        [CARC_MV_PLACE] = {"type", "tile", "x", "y", "rot", NULL},
        [CARC_MV_FIGURE] = {"type", "figure", "part", NULL},
        [CARC_MV_PASS] = {"type", NULL},
        [CARC_MV_ABBOT_RETURN] = {"type", NULL},
    };
    const carc_jpath *root = NULL;
    const json_t *o;
    json_int_t x, y, rot;
    int kind, fig;

    memset(m, 0, sizeof *m);
    if (!json_is_object(j))
        return carc_jr_fail(err, errlen, root, NULL, "expected an object");
    CARC_TRY(carc_jr_enum(j, root, "type", carc_j_move_names, CARC_NMOVE_KINDS, &kind, err, errlen));
    m->kind = (uint8_t)kind;
    switch (kind) {   /* the expansions' moves: each checks its own members */
    case CARC_MV_DRAW:
    case CARC_MV_DRAFT: return carc_jm_halflings_from(st, j, m, err, errlen);
    case CARC_MV_HARVEST:
    case CARC_MV_SELL: return carc_jm_fruit_from(st, j, m, err, errlen);
    case CARC_MV_GROW:
    case CARC_MV_STABLE: return carc_jm_hills_from(st, j, m, err, errlen);
    case CARC_MV_CC_ADD:
    case CARC_MV_CC_REMOVE:
    case CARC_MV_CC_FIGURE:
    case CARC_MV_CC_SKIP: return carc_jm_crop_from(st, j, m, err, errlen);
    default: break;
    }
    CARC_TRY(carc_jr_object(j, root, NULL, any, &o, err, errlen));
    CARC_TRY(carc_jr_object(o, root, NULL, keys[kind], &o, err, errlen));
    switch (kind) {
    case CARC_MV_PLACE:
        CARC_TRY(carc_jr_tile(st->cat, o, root, "tile", &m->tile, err, errlen));
        CARC_TRY(carc_jr_int(o, root, "x", INT16_MIN, INT16_MAX, &x, err, errlen));
        CARC_TRY(carc_jr_int(o, root, "y", INT16_MIN, INT16_MAX, &y, err, errlen));
        CARC_TRY(carc_jr_int(o, root, "rot", 0, 3, &rot, err, errlen));
        m->x = (int16_t)x;
        m->y = (int16_t)y;
        m->rot = (uint8_t)rot;
        return 0;
    case CARC_MV_FIGURE: {
        const char *part = NULL;
        CARC_TRY(carc_jr_enum(o, root, "figure", carc_j_fig_names, CARC_NFIG_KINDS, &fig, err, errlen));
        CARC_TRY(carc_jr_str(o, root, "part", &part, err, errlen));
        m->fig = (uint8_t)fig;
        if (st->status == CARC_FINISHED) {
            snprintf(err, errlen, "the game is over");
            return CARC_E_FINISHED;
        }
        int type = carc_pending_piece_type(st);
        if (type < 0) {
            snprintf(err, errlen, "part: no piece was placed this turn to stand on");
            return CARC_E_ILLEGAL;
        }
        return carc_jr_part(st->cat, (unsigned)type, o, root, "part", &m->part, err, errlen);
    }
    default:
        return 0;
    }
}
