/*
 * game.c — set-up and the turn state machine: draw, place, figure, score, next seat; carc_apply.
 *
 * The state always holds exactly one pending decision. carc_apply checks a move against it completely
 * before changing anything, so a refused move leaves the state as it was; steps with no real choice
 * (a forced pass, a tile that fits nowhere) are taken here and appear as events. So is a decision with
 * exactly one legal move (RULES.md §6.8): run_forced makes it as the seat would have, announced by a
 * forced_move event, unless the game's option ask_forced wants every such step confirmed.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "expansions.h"

static int fail(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return code;
}

/* ---- set-up ---- */

/* A set that is no expansion (the river) comes with its option, which every one of its tiles names. */
static bool type_in_game(const carc_state *st, const carc_tile_type *t)
{
    return (t->set >= CARC_NSETS || st->expansions >> t->set & 1) && (t->when < 0 || st->opt[t->when] != 0);
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

/* The start tile: the one an option that is on brings (the river's spring), else the one without `when`. */
static int start_type(const carc_catalog *cat, const uint8_t opt[CARC_NOPTS])
{
    int plain = -1;
    for (int i = 0; i < cat->ntypes; i++) {
        const carc_tile_type *t = &cat->types[i];
        if (t->start && t->when >= 0 && opt[t->when])
            return i;
        if (t->start && t->when < 0 && plain < 0)
            plain = i;
    }
    return plain;
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
    /* Without river tiles this is one shuffle of the whole stack, as it always was (the same seed deals the
     * same game). With them each rank of carc_river_rank is shuffled on its own, in rank order, so the river is
     * drawn first and the lake last of it, the rest hidden as ever in the one stream of the seed. */
    int n = 0;
    for (int rank = 0; rank < 3; rank++) {
        int from = n;
        for (int t = 0; t < st->cat->ntypes; t++)
            if (carc_river_rank(&st->cat->types[t]) == rank)
                for (int k = 0; k < count[t] && n < CARC_MAX_TILES; k++)
                    st->stack[n++] = (uint8_t)t;
        if (n > from)
            carc_rng_shuffle(&st->rng, st->stack + from, (size_t)(n - from));
    }
    st->stack_len = (uint8_t)n;
    return 0;
}

int carc_next_seat(const carc_state *st, int seat)
{
    for (int k = 1; k <= st->nplayers; k++) {
        int s = (seat + k) % st->nplayers;
        if (!(st->left >> s & 1))
            return s;
    }
    return seat;
}

/* A new turn for st->active; false when the stack is empty and the game is over instead. */
static bool begin_turn(carc_state *st, carc_events *ev)
{
    if (st->stack_pos >= st->stack_len) {   /* no tile can be drawn: the game ends (triangles in hands too) */
        carc_finish_game(st, ev);
        return false;
    }
    st->turn++;
    st->tn = (carc_turn){.phase = CARC_PH_START, .piece = CARC_NO_PIECE, .figure = 0xFF, .fruit_done = 0};
    carc_event *x = carc_ev_push(ev, CARC_EV_TURN);
    if (x)
        x->seat = st->active;
    return true;
}

/* The figure step: ask, unless "no figure" is the only choice. */
static bool figure_begin(carc_state *st, carc_events *ev)
{
    if (carc_figure_choice(st, st->active)) {
        st->pending = (carc_pending){.kind = CARC_PENDING_FIGURE, .seat = st->active, .tile = CARC_NO_TYPE,
                                     .piece = st->tn.piece};
        return true;
    }
    carc_event *x = carc_ev_push(ev, CARC_EV_PASSED);
    if (x) {
        x->seat = st->active;
        x->forced = 1;
    }
    return false;
}

void carc_advance(carc_state *st, carc_events *ev)
{
    while (st->status == CARC_ACTIVE) {
        switch (st->tn.phase) {
        case CARC_PH_DRAFT:
            if (carc_halflings_draft_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_DRAFT);   /* a hook that waits has set the decision */
                return;
            }
            st->tn.phase = CARC_PH_START;
            break;
        case CARC_PH_START:
            if (!begin_turn(st, ev))
                return;
            if (carc_halflings_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_DRAW_OR_TRIANGLE);
                return;
            }
            carc_draw_tile(st, ev);   /* pending PLACE, or the game is over */
            return;
        case CARC_PH_PLACE:           /* waiting for the drawn tile */
            return;
        case CARC_PH_FIGURE:
            if (figure_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_FIGURE);
                return;
            }
            st->tn.phase = CARC_PH_FRUIT;
            break;
        case CARC_PH_FRUIT:
            if (carc_fruit_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_FRUIT);
                return;
            }
            st->tn.phase = CARC_PH_FLOCK;
            break;
        case CARC_PH_FLOCK:
            if (carc_hills_flock_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_FLOCK);
                return;
            }
            st->tn.phase = CARC_PH_SCORE;
            break;
        case CARC_PH_SCORE:
            carc_score_completed(st, st->tn.piece, ev);
            carc_hills_score_closed_fields(st, ev);
            st->tn.phase = CARC_PH_CROP;
            break;
        case CARC_PH_CROP:
            if (carc_crop_begin(st, ev)) {
                assert(st->pending.kind == CARC_PENDING_CC_CHOICE || st->pending.kind == CARC_PENDING_CC_ACTION);
                return;
            }
            st->tn.phase = CARC_PH_NEXT;
            break;
        default:   /* CARC_PH_NEXT */
            st->active = (uint8_t)carc_next_seat(st, st->active);
            st->tn.phase = CARC_PH_START;
            break;
        }
    }
}

static int apply_one(carc_state *st, int seat, const carc_move *mv, carc_events *ev, char *err, size_t errlen);

/* Makes every decision that has exactly one legal move, one after the other (a crop circle can force
 * several seats in a row), each announced by a forced_move event before the events the move makes. The
 * game then waits for a seat that has a choice, or is over. Nothing here when ask_forced is on. */
static void run_forced(carc_state *st, carc_events *ev)
{
    carc_move mv;
    while (!st->opt[CARC_OPT_ASK_FORCED] && carc_only_move(st, &mv)) {
        int seat = st->pending.seat;
        carc_event *x = carc_ev_push(ev, CARC_EV_FORCED_MOVE);
        if (x) {
            x->seat = (uint8_t)seat;
            x->move = mv;
        }
        int rc = apply_one(st, seat, &mv, ev, NULL, 0);
        assert(rc == 0);   /* the move is the legal list's only one */
        (void)rc;
    }
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
    int start = start_type(cat, setup->opt);
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

    if ((rc = carc_hills_setup(st, setup, err, errlen)) != 0 || (rc = carc_fruit_setup(st, setup, err, errlen)) != 0)
        return rc;

    /* the board is clear: st was zeroed above */
    st->pieces[0] = (carc_piece){.x = 0, .y = 0, .type = (uint8_t)start, .rot = 0, .under = CARC_NO_TYPE};
    st->npieces = 1;
    carc_board_add(st, 0);
    carc_event *x = carc_ev_push(ev, CARC_EV_GAME_STARTED);
    if (x)
        x->tile = (uint8_t)start;
    st->active = 0;
    st->tn = (carc_turn){.phase = CARC_PH_START, .piece = CARC_NO_PIECE, .figure = 0xFF, .fruit_done = 0};
    if ((rc = carc_halflings_setup(st, setup, ev, err, errlen)) != 0)   /* may start a draft first */
        return rc;
    carc_advance(st, ev);
    run_forced(st, ev);   /* the first tile may fit one way only */
    carc_check_state(st);
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
    carc_place_piece(st, mv, ev);
    carc_advance(st, ev);
    return 0;
}

/* Whether mv is one of the seat's legal moves now (every decision but the hot PLACE checks this way). */
static bool is_legal(const carc_state *st, int seat, const carc_move *mv)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    bool ok = false;
    for (size_t i = 0; i < m.n && !ok; i++)
        ok = carc_move_equal(&m.v[i], mv);
    carc_moves_free(&m);
    return ok;
}

static void apply_figure(carc_state *st, const carc_move *mv, carc_events *ev)
{
    carc_event *x;
    switch (mv->kind) {
    case CARC_MV_FIGURE:
        assert(st->nfigures < CARC_MAX_FIGURES && carc_supply(st, st->active, mv->fig) > 0);
        st->figures[st->nfigures++] = (carc_figure){.seat = st->active, .kind = mv->fig,
                                                    .piece = st->tn.piece, .part = mv->part};
        st->tn.figure = mv->fig;
        x = carc_ev_push(ev, CARC_EV_FIGURE_PLACED);
        if (x) {
            const carc_piece *pc = &st->pieces[st->tn.piece];
            x->seat = st->active;
            x->fig = mv->fig;
            x->part = mv->part;
            x->tile = pc->type;
            x->x = pc->x;
            x->y = pc->y;
            x->rot = pc->rot;
        }
        carc_hills_after_figure(st, mv, ev);
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
    st->tn.phase = CARC_PH_FRUIT;
}

static const char *const waits_for[CARC_NPENDING] = {
    [CARC_PENDING_PLACE] = "the drawn tile to be placed",
    [CARC_PENDING_FIGURE] = "a figure or a pass",
    [CARC_PENDING_DRAW_OR_TRIANGLE] = "a draw or a triangle",
    [CARC_PENDING_FRUIT] = "a harvest, a sale or a pass",
    [CARC_PENDING_FLOCK] = "grow or stable",
    [CARC_PENDING_CC_CHOICE] = "the crop circle choice",
    [CARC_PENDING_CC_ACTION] = "a crop circle action",
    [CARC_PENDING_DRAFT] = "a triangle to be drafted",
};

int carc_apply(carc_state *st, int seat, const carc_move *mv, carc_events *ev, char *err, size_t errlen)
{
    int rc = apply_one(st, seat, mv, ev, err, errlen);
    if (rc == 0)
        run_forced(st, ev);
    return rc;
}

/* carc_apply without the forced steps that follow. */
static int apply_one(carc_state *st, int seat, const carc_move *mv, carc_events *ev, char *err, size_t errlen)
{
    if (st->status == CARC_FINISHED)
        return fail(err, errlen, CARC_E_FINISHED, "the game is over");
    if (seat != st->pending.seat) {
        if (err && errlen)
            snprintf(err, errlen, "not your turn: the game waits for seat %d", st->pending.seat);
        return CARC_E_NOT_TURN;
    }
    int kind = st->pending.kind;
    if (kind == CARC_PENDING_PLACE) {
        int rc = apply_place(st, mv, ev, err, errlen);
        if (rc == 0)
            carc_check_state(st);
        return rc;
    }
    if (kind <= CARC_PENDING_NONE || kind >= CARC_NPENDING)
        return fail(err, errlen, CARC_E_ILLEGAL, "no decision is pending");
    if (!is_legal(st, seat, mv)) {
        if (err && errlen)
            snprintf(err, errlen, "move: not a legal move now; the game waits for %s", waits_for[kind]);
        return CARC_E_ILLEGAL;
    }
    switch (kind) {
    case CARC_PENDING_FIGURE: apply_figure(st, mv, ev); break;
    case CARC_PENDING_DRAW_OR_TRIANGLE: carc_halflings_apply_start(st, mv, ev); break;
    case CARC_PENDING_FRUIT: carc_fruit_apply(st, mv, ev); break;
    case CARC_PENDING_FLOCK: carc_hills_flock_apply(st, mv, ev); break;
    case CARC_PENDING_DRAFT: carc_halflings_apply_draft(st, mv, ev); break;
    default:   /* crop circle choice and actions */
        if (carc_crop_apply(st, mv, ev)) {
            carc_check_state(st);
            return 0;
        }
        break;
    }
    carc_advance(st, ev);
    carc_check_state(st);
    return 0;
}
