/*
 * game.c — set-up and the turn state machine: draw, place, figure, score, next seat; carc_apply.
 *
 * The state always holds exactly one pending decision. carc_apply checks a move against it completely
 * before changing anything, so a refused move leaves the state as it was; steps with no real choice
 * (a forced pass, a tile that fits nowhere) are taken here and appear as events.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static int fail(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return code;
}

int carc_figure_find(const carc_state *st, int seat, int kind)
{
    for (int i = 0; i < st->nfigures; i++)
        if (st->figures[i].seat == seat && st->figures[i].kind == kind)
            return i;
    return -1;
}

void carc_figure_remove(carc_state *st, int fi, carc_events *ev)
{
    const carc_figure g = st->figures[fi];
    carc_event *x = carc_ev_push(ev, CARC_EV_FIGURE_RETURNED);
    if (x) {
        x->seat = g.seat;
        x->fig = g.kind;
        x->part = g.part;
        x->tile = st->pieces[g.piece].type;
        x->x = st->pieces[g.piece].x;
        x->y = st->pieces[g.piece].y;
    }
    memmove(&st->figures[fi], &st->figures[fi + 1], (size_t)(st->nfigures - fi - 1) * sizeof g);
    st->nfigures--;
}

int carc_supply(const carc_state *st, int seat, carc_fig_kind kind)
{
    int total = 0;
    switch (kind) {
    case CARC_FIG_MEEPLE: total = CARC_MEEPLES; break;
    case CARC_FIG_ABBOT: total = st->opt[CARC_OPT_ABBOT] ? 1 : 0; break;
    case CARC_FIG_SHEPHERD: total = (st->expansions >> CARC_SET_HILLS_SHEEP) & 1; break;
    default: return 0;
    }
    for (int i = 0; i < st->nfigures; i++)
        total -= st->figures[i].seat == seat && st->figures[i].kind == kind;
    return total;
}

/* ---- set-up ---- */

static bool type_in_game(const carc_state *st, const carc_tile_type *t)
{
    return (st->expansions >> t->set & 1) && (t->when < 0 || st->opt[t->when] != 0);
}

/* Copies of each type in this game's tiles, the start tile included; variants replace their originals. */
static void tile_pool(const carc_state *st, int count[CARC_MAX_TYPES])
{
    const carc_catalog *cat = st->cat;
    memset(count, 0, sizeof(int) * CARC_MAX_TYPES);
    for (int i = 0; i < cat->ntypes; i++)
        if (type_in_game(st, &cat->types[i]) && cat->types[i].shape == CARC_SQUARE)
            count[i] += cat->types[i].count;
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (count[i] && t->replaces != CARC_NO_TYPE)
            count[t->replaces] -= t->count;
    }
}

static int start_type(const carc_catalog *cat)
{
    for (int i = 0; i < cat->ntypes; i++)
        if (cat->types[i].start)
            return i;
    return -1;
}

static int build_stack(carc_state *st, const carc_setup *setup, int start, char *err, size_t errlen)
{
    int count[CARC_MAX_TYPES];
    tile_pool(st, count);
    count[start]--;
    if (setup->nstack > 0) {
        if (setup->nstack > CARC_MAX_TILES)
            return fail(err, errlen, CARC_E_INVALID, "script.stack: too many tiles");
        for (int i = 0; i < setup->nstack; i++) {
            int t = setup->stack[i];
            if (t >= st->cat->ntypes || count[t] <= 0) {
                if (err && errlen)
                    snprintf(err, errlen, "script.stack[%d]: tile %s is not left in this game's tiles", i,
                             t < st->cat->ntypes ? st->cat->types[t].id : "?");
                return CARC_E_INVALID;
            }
            count[t]--;
            st->stack[i] = (uint8_t)t;
        }
        st->stack_len = (uint8_t)setup->nstack;
        return 0;
    }
    int n = 0;
    for (int t = 0; t < st->cat->ntypes; t++)
        for (int k = 0; k < count[t] && n < CARC_MAX_TILES; k++)
            st->stack[n++] = (uint8_t)t;
    st->stack_len = (uint8_t)n;
    carc_rng_shuffle(&st->rng, st->stack, (size_t)n);
    return 0;
}

static void finish_game(carc_state *st, carc_events *ev)
{
    carc_score_final(st, ev);
    st->status = CARC_FINISHED;
    st->pending = (carc_pending){.kind = CARC_PENDING_NONE, .seat = 0, .tile = CARC_NO_TYPE,
                                 .piece = CARC_NO_PIECE};
    carc_ev_push(ev, CARC_EV_GAME_OVER);
}

/* Draws until a tile fits somewhere; tiles that fit nowhere are shown and removed. */
static void draw_tile(carc_state *st, carc_events *ev)
{
    while (st->stack_pos < st->stack_len) {
        int t = st->stack[st->stack_pos++];
        carc_event *x = carc_ev_push(ev, CARC_EV_TILE_DRAWN);
        if (x) {
            x->seat = st->active;
            x->tile = (uint8_t)t;
        }
        if (carc_fits_anywhere(st, t)) {
            st->pending = (carc_pending){.kind = CARC_PENDING_PLACE, .seat = st->active, .tile = (uint8_t)t,
                                         .piece = CARC_NO_PIECE};
            return;
        }
        st->discarded[st->ndiscarded++] = (uint8_t)t;
        x = carc_ev_push(ev, CARC_EV_TILE_DISCARDED);
        if (x)
            x->tile = (uint8_t)t;
    }
    finish_game(st, ev);
}

static void begin_turn(carc_state *st, int seat, carc_events *ev)
{
    if (st->stack_pos >= st->stack_len) {
        finish_game(st, ev);
        return;
    }
    st->active = (uint8_t)seat;
    st->turn++;
    carc_event *x = carc_ev_push(ev, CARC_EV_TURN);
    if (x)
        x->seat = (uint8_t)seat;
    draw_tile(st, ev);
}

int carc_game_new(carc_state *st, const carc_catalog *cat, const carc_setup *setup, carc_events *ev,
                  char *err, size_t errlen)
{
    if (setup->nplayers < CARC_MIN_PLAYERS || setup->nplayers > CARC_MAX_PLAYERS)
        return fail(err, errlen, CARC_E_INVALID, "players: a game has 2 to 6 players");
    for (int i = 0; i < CARC_NOPTS; i++)
        if (setup->opt[i] >= carc_opt_table[i].nvalues) {
            if (err && errlen)
                snprintf(err, errlen, "options.%s: value out of range", carc_opt_table[i].name);
            return CARC_E_INVALID;
        }
    if (setup->expansions >> CARC_NSETS)
        return fail(err, errlen, CARC_E_INVALID, "expansions: unknown expansion");
    int start = start_type(cat);
    if (start < 0)
        return fail(err, errlen, CARC_E_DATA, "tile data: no start tile");

    memset(st, 0, sizeof *st);
    st->cat = cat;
    memcpy(st->opt, setup->opt, sizeof st->opt);
    st->expansions = (uint8_t)(setup->expansions | 1u << CARC_SET_BASE);
    st->nplayers = (uint8_t)setup->nplayers;
    st->status = CARC_ACTIVE;
    carc_rng_seed(&st->rng, setup->seed);
    int rc = build_stack(st, setup, start, err, errlen);
    if (rc)
        return rc;

    carc_board_clear(&st->board);
    st->pieces[0] = (carc_piece){.x = 0, .y = 0, .type = (uint8_t)start, .rot = 0, .under = CARC_NO_TYPE};
    st->npieces = 1;
    carc_board_add(st, 0);
    carc_event *x = carc_ev_push(ev, CARC_EV_GAME_STARTED);
    if (x)
        x->tile = (uint8_t)start;
    begin_turn(st, 0, ev);
    return 0;
}

int carc_state_rebuild(carc_state *st, char *err, size_t errlen)
{
    carc_board_clear(&st->board);
    for (int p = 0; p < st->npieces; p++) {
        const carc_piece *pc = &st->pieces[p];
        if (pc->type >= st->cat->ntypes || pc->rot > 3)
            return fail(err, errlen, CARC_E_INVALID, "pieces: bad tile type or rotation");
        if (p > 0 && !carc_fits(st, pc->type, pc->x, pc->y, pc->rot)) {
            if (err && errlen)
                snprintf(err, errlen, "pieces[%d]: %s does not fit at (%d,%d) rotation %d", p,
                         st->cat->types[pc->type].id, pc->x, pc->y, pc->rot);
            return CARC_E_INVALID;
        }
        if (carc_board_add(st, p) != 0)
            return fail(err, errlen, CARC_E_INVALID, "pieces: board capacity exceeded");
    }
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->piece >= st->npieces || g->part >= carc_type_of(st, g->piece)->nparts ||
            g->seat >= st->nplayers || g->kind >= CARC_NFIG_KINDS)
            return fail(err, errlen, CARC_E_INVALID, "figures: bad seat, piece or part");
    }
    return 0;
}

/* ---- moves ---- */

static void end_turn(carc_state *st, carc_events *ev)
{
    carc_score_completed(st, st->pending.piece, ev);
    begin_turn(st, (st->active + 1) % st->nplayers, ev);
}

/* After the piece is placed: ask for a figure, unless pass is the only choice. */
static void after_place(carc_state *st, int piece, carc_events *ev)
{
    st->pending = (carc_pending){.kind = CARC_PENDING_FIGURE, .seat = st->active, .tile = CARC_NO_TYPE,
                                 .piece = (uint8_t)piece};
    carc_moves m = {0};
    carc_legal_figure_moves(st, st->active, &m);
    size_t n = m.n;
    carc_moves_free(&m);
    if (n > 1)
        return;
    carc_event *x = carc_ev_push(ev, CARC_EV_PASSED);
    if (x) {
        x->seat = st->active;
        x->forced = 1;
    }
    end_turn(st, ev);
}

static int apply_place(carc_state *st, const carc_move *mv, carc_events *ev, char *err, size_t errlen)
{
    if (mv->kind != CARC_MV_PLACE)
        return fail(err, errlen, CARC_E_ILLEGAL, "move: the game waits for the drawn tile to be placed");
    if (mv->tile != st->pending.tile) {
        if (err && errlen)
            snprintf(err, errlen, "tile: the drawn tile is %s", st->cat->types[st->pending.tile].id);
        return CARC_E_ILLEGAL;
    }
    if (mv->rot > 3 || !carc_fits(st, mv->tile, mv->x, mv->y, mv->rot)) {
        if (err && errlen)
            snprintf(err, errlen, "tile %s does not fit at (%d,%d) rotation %d", st->cat->types[mv->tile].id,
                     mv->x, mv->y, mv->rot);
        return CARC_E_ILLEGAL;
    }
    if (st->npieces >= CARC_MAX_PIECES)
        return fail(err, errlen, CARC_E_ILLEGAL, "board is full");
    int p = st->npieces++;
    st->pieces[p] = (carc_piece){.x = mv->x, .y = mv->y, .type = mv->tile, .rot = mv->rot,
                                 .under = CARC_NO_TYPE};
    if (carc_board_add(st, p) != 0) {   /* cannot happen below CARC_MAX_PIECES; keep the state sane */
        st->npieces--;
        carc_state_rebuild(st, NULL, 0);
        return fail(err, errlen, CARC_E_ILLEGAL, "board is full");
    }
    carc_event *x = carc_ev_push(ev, CARC_EV_PIECE_PLACED);
    if (x) {
        x->seat = st->active;
        x->tile = mv->tile;
        x->x = mv->x;
        x->y = mv->y;
        x->rot = mv->rot;
    }
    after_place(st, p, ev);
    return 0;
}

static int apply_figure(carc_state *st, const carc_move *mv, carc_events *ev, char *err, size_t errlen)
{
    carc_moves m = {0};
    carc_legal_figure_moves(st, st->active, &m);
    bool ok = false;
    for (size_t i = 0; i < m.n && !ok; i++)
        ok = carc_move_equal(&m.v[i], mv);
    carc_moves_free(&m);
    if (!ok)
        return fail(err, errlen, CARC_E_ILLEGAL,
                    mv->kind == CARC_MV_PLACE ? "move: the tile is placed; the game waits for a figure or a pass"
                                              : "figure: not allowed on that segment now");
    carc_event *x;
    switch (mv->kind) {
    case CARC_MV_FIGURE:
        st->figures[st->nfigures++] = (carc_figure){.seat = st->active, .kind = mv->fig,
                                                    .piece = st->pending.piece, .part = mv->part};
        x = carc_ev_push(ev, CARC_EV_FIGURE_PLACED);
        if (x) {
            const carc_piece *pc = &st->pieces[st->pending.piece];
            x->seat = st->active;
            x->fig = mv->fig;
            x->part = mv->part;
            x->tile = pc->type;
            x->x = pc->x;
            x->y = pc->y;
        }
        break;
    case CARC_MV_ABBOT_RETURN:
        carc_score_abbot_return(st, st->active, ev);
        break;
    default:
        x = carc_ev_push(ev, CARC_EV_PASSED);
        if (x)
            x->seat = st->active;
        break;
    }
    end_turn(st, ev);
    return 0;
}

int carc_apply(carc_state *st, int seat, const carc_move *mv, carc_events *ev, char *err, size_t errlen)
{
    if (st->status == CARC_FINISHED)
        return fail(err, errlen, CARC_E_FINISHED, "the game is over");
    if (seat != st->pending.seat) {
        if (err && errlen)
            snprintf(err, errlen, "not your turn: the game waits for seat %d", st->pending.seat);
        return CARC_E_NOT_TURN;
    }
    switch (st->pending.kind) {
    case CARC_PENDING_PLACE: return apply_place(st, mv, ev, err, errlen);
    case CARC_PENDING_FIGURE: return apply_figure(st, mv, ev, err, errlen);
    default: return fail(err, errlen, CARC_E_ILLEGAL, "no decision is pending");
    }
}
