/*
 * json_hills.c — the JSON of the hills_sheep expansion: its member of snapshots, what views show of it, its moves'
 * and events' members (hooks declared in json_priv.h).
 *
 * Not implemented yet (issue 4): the snapshot member is an empty object, views show nothing, moves and
 * events carry no members beyond "type".
 */
#include "json_priv.h"

json_t *carc_jx_hills_to(const carc_state *st)
{
    (void)st;
    return carc_jb_obj();
}

int carc_jx_hills_from(carc_state *st, const json_t *snapshot, char *err, size_t errlen)
{
    static const char *const keys[] = {NULL};
    const json_t *o;
    (void)st;
    return carc_jr_object(snapshot, NULL, "hills_sheep", keys, &o, err, errlen);
}

void carc_jv_hills(json_t *view, const carc_state *st, int viewer) { (void)view, (void)st, (void)viewer; }

bool carc_jm_hills_to(const carc_state *st, const carc_move *m, json_t *o)
{
    (void)st, (void)m, (void)o;
    return true;
}

int carc_jm_hills_from(const carc_state *st, const json_t *o, carc_move *m, char *err, size_t errlen)
{
    static const char *const keys[] = {"type", NULL};
    const json_t *checked;
    (void)st, (void)m;
    return carc_jr_object(o, NULL, NULL, keys, &checked, err, errlen);
}

void carc_je_hills(const carc_state *st, const carc_event *e, json_t *o) { (void)st, (void)e, (void)o; }
