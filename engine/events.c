/*
 * events.c — the event and move lists the engine hands out (carc_events, carc_moves): pushing, clearing,
 * freeing. They grow through alloc.c.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "rules.h"

carc_event *carc_ev_push(carc_events *e, int kind)
{
    if (!e)
        return NULL;
    carc_grow((void **)&e->v, &e->cap, e->n + 1, sizeof *e->v);
    carc_event *x = &e->v[e->n++];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->tile = CARC_NO_TYPE;
    return x;
}

void carc_ev_add_space(carc_events *e, carc_event *x, int px, int py)
{
    if (!e)
        return;
    if (x->nspaces == 0)
        x->spaces_at = (uint32_t)(e->nxy / 2);
    carc_grow((void **)&e->xy, &e->capxy, e->nxy + 2, sizeof *e->xy);
    e->xy[e->nxy++] = (int16_t)px;
    e->xy[e->nxy++] = (int16_t)py;
    x->nspaces++;
}

void carc_events_clear(carc_events *e)
{
    e->n = 0;
    e->nxy = 0;
}

void carc_events_free(carc_events *e)
{
    free(e->v);
    free(e->xy);
    memset(e, 0, sizeof *e);
}

void carc_moves_push(carc_moves *m, const carc_move *mv)
{
    carc_grow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v);
    m->v[m->n++] = *mv;
}

void carc_moves_free(carc_moves *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}
