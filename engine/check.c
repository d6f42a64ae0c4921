/*
 * check.c — the invariants the engine's comments state, checked with assert after every change the engine
 * makes to a whole state (carc_game_new, carc_apply, carc_leave), the way SQLite checks its own.
 *
 *   - the one pending decision (game.c): its kind, seat and what it refers to agree with the turn machine's
 *     phase; "none" exactly when the game is over;
 *   - figure counts (carc.h, game.c): every figure stands on a part of a placed piece, no seat has more of a
 *     kind than the game gives it (7 meeples, the abbot with its option, the shepherd with Hills & Sheep);
 *   - Hills & Sheep (carc.h): the bag and the flocks hold the 18 tokens between them, no wolf in a flock, a
 *     flock exactly while its shepherd is on the board;
 *   - Halb so wild II (exp_halflings.c): unused hand and pool slots stay zero (one state, one encoding);
 *   - the board (board.h) under CARC_EXPENSIVE_CHECKS only: every node points at a root that points at
 *     itself, and each root's ring holds exactly its `size` nodes, all of that root; the frontier bits are
 *     the spaces without a piece. That walk is linear in
 *     the board on every move, so it stays out of the ordinary debug and sanitizer builds; the unions and
 *     the feature walks check their own part cheaply as they go (board.c, score.c).
 *
 * Without asserts (NDEBUG, the Release build) rules.h makes carc_check_state an empty inline function and
 * this file compiles to nothing.
 */
#include "expansions.h"

#ifndef NDEBUG

#include <assert.h>

static int figure_limit(const carc_state *st, int kind)
{
    switch (kind) {
    case CARC_FIG_MEEPLE: return CARC_MEEPLES;
    case CARC_FIG_ABBOT: return st->opt[CARC_OPT_ABBOT] ? 1 : 0;
    default: return carc_has(st, CARC_SET_HILLS_SHEEP) ? 1 : 0;
    }
}

static void check_figures(const carc_state *st)
{
    int count[CARC_MAX_PLAYERS][CARC_NFIG_KINDS] = {{0}};
    assert(st->nfigures <= CARC_MAX_FIGURES);
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        assert(g->seat < st->nplayers && g->kind < CARC_NFIG_KINDS);
        assert(g->piece < st->npieces && g->part < carc_type_of(st, g->piece)->nparts);
        assert(g->kind != CARC_FIG_SHEPHERD || carc_type_of(st, g->piece)->parts[g->part].kind == CARC_PART_FIELD);
        assert(carc_type_of(st, g->piece)->parts[g->part].kind != CARC_PART_RIVER);   /* nobody on the river */
        count[g->seat][g->kind]++;
    }
    for (int s = 0; s < st->nplayers; s++)
        for (int k = 0; k < CARC_NFIG_KINDS; k++)
            assert(count[s][k] <= figure_limit(st, k));
}

static void check_pending(const carc_state *st)
{
    const carc_pending *p = &st->pending;
    assert(st->status == CARC_ACTIVE || st->status == CARC_FINISHED);
    assert((p->kind == CARC_PENDING_NONE) == (st->status == CARC_FINISHED));
    if (st->status == CARC_FINISHED) {
        assert(st->crop.kind == CARC_CC_NONE);   /* no crop circle action outlives the game */
        return;
    }
    assert(p->kind < CARC_NPENDING && p->seat < st->nplayers && !(st->left >> p->seat & 1));
    assert(st->active < st->nplayers);
    bool active_decides = p->kind != CARC_PENDING_CC_ACTION && p->kind != CARC_PENDING_DRAFT;
    assert(!active_decides || p->seat == st->active);
    switch (p->kind) {
    case CARC_PENDING_PLACE:
        assert(st->tn.phase == CARC_PH_PLACE && p->tile < st->cat->ntypes);
        assert(st->cat->types[p->tile].shape == CARC_SQUARE);
        break;
    case CARC_PENDING_FIGURE:
        assert(st->tn.phase == CARC_PH_FIGURE && p->piece == st->tn.piece && p->piece < st->npieces);
        break;
    case CARC_PENDING_DRAW_OR_TRIANGLE:
        assert(st->tn.phase == CARC_PH_START && st->half.hand_n[p->seat] > 0);
        break;
    case CARC_PENDING_FRUIT: assert(st->tn.phase == CARC_PH_FRUIT); break;
    case CARC_PENDING_FLOCK:
        assert(st->tn.phase == CARC_PH_FLOCK && carc_figure_find(st, p->seat, CARC_FIG_SHEPHERD) >= 0);
        break;
    case CARC_PENDING_CC_CHOICE:
    case CARC_PENDING_CC_ACTION: assert(st->tn.phase == CARC_PH_CROP && st->crop.kind != CARC_CC_NONE); break;
    case CARC_PENDING_DRAFT: assert(st->tn.phase == CARC_PH_DRAFT); break;
    default: assert(!"a pending decision of no known kind");
    }
#ifdef CARC_EXPENSIVE_CHECKS
    carc_moves m = {0};   /* a decision nobody can make would stall the game */
    carc_legal_moves(st, p->seat, &m);
    assert(m.n > 0);
    carc_moves_free(&m);
#endif
}

static void check_hills(const carc_state *st)
{
    const carc_hills *h = &st->hills;
    if (!carc_has(st, CARC_SET_HILLS_SHEEP)) {
        assert(h->bag_n == 0);
        return;
    }
    static const uint8_t full[5] = {2, 4, 5, 5, 2};   /* wolves, then 1..4 sheep */
    int count[5] = {0};
    assert(h->bag_n <= CARC_BAG_TOKENS);
    for (int i = 0; i < h->bag_n; i++) {
        assert(h->bag[i] <= 4);
        count[h->bag[i]]++;
    }
    for (int s = 0; s < st->nplayers; s++) {
        assert(h->flock_n[s] <= CARC_BAG_TOKENS);
        assert((h->flock_n[s] > 0) == (carc_figure_find(st, s, CARC_FIG_SHEPHERD) >= 0));
        for (int i = 0; i < h->flock_n[s]; i++) {
            assert(h->flock[s][i] >= 1 && h->flock[s][i] <= 4);   /* a wolf never stays in a flock */
            count[h->flock[s][i]]++;
        }
    }
    for (int v = 0; v < 5; v++)
        assert(count[v] == full[v]);
    assert(h->script_pos <= h->script_n);
}

static void check_halflings(const carc_state *st)
{
    const carc_halflings *h = &st->half;
    if (!carc_has(st, CARC_SET_HALFLINGS)) {
        for (int s = 0; s < CARC_MAX_PLAYERS; s++)
            assert(h->hand_n[s] == 0);
        assert(h->pool_n == 0);
        return;
    }
    for (int s = 0; s < CARC_MAX_PLAYERS; s++) {
        assert(h->hand_n[s] <= CARC_MAX_HAND && (s < st->nplayers || h->hand_n[s] == 0));
        for (int i = 0; i < CARC_MAX_HAND; i++)
            assert(i < h->hand_n[s] ? st->cat->types[h->hand[s][i]].shape == CARC_TRIANGLE : h->hand[s][i] == 0);
    }
    assert(h->pool_n <= CARC_MAX_HAND);
    for (int i = h->pool_n; i < CARC_MAX_HAND; i++)
        assert(h->pool[i] == 0);
}

static void check_fruit(const carc_state *st)
{
    const carc_fruit *f = &st->fruit;
    assert(f->ntrees <= CARC_FRUIT_TYPES);
    for (int t = 0; t < f->ntrees; t++)
        assert(f->tree_n[t] <= CARC_FRUIT_STACK && f->tree_piece[t] < st->npieces);
    for (int s = 0; s < st->nplayers; s++)
        assert(f->held_n[s] <= CARC_FRUIT_TYPES * CARC_FRUIT_STACK);
}

#ifdef CARC_EXPENSIVE_CHECKS
static void check_board(const carc_state *st)
{
    const carc_board *b = &st->board;
    assert(b->nspaces <= CARC_MAX_SPACES);
    for (int i = 0; i < CARC_MAX_SPACES; i++)   /* the frontier bits: exactly the spaces without a piece */
        assert((b->empty[i / 64] >> (i % 64) & 1) == (i < b->nspaces && b->spaces[i].npieces == 0));
    /* the river's open end, when there is one, is an empty space a river side faces */
    assert(b->river_end == 0 || (b->river_end <= b->nspaces && b->spaces[b->river_end - 1].npieces == 0 &&
                                 b->spaces[b->river_end - 1].nb_type[(b->river_dir + 2) & 3] == CARC_SIDE_RIVER));
    for (int p = 0; p < st->npieces; p++) {
        int si = b->piece_space[p];
        const carc_space *s = &b->spaces[si];
        assert(si < b->nspaces && s->x == st->pieces[p].x && s->y == st->pieces[p].y);
        assert(s->npieces >= 1 && (s->piece[0] == p || (s->npieces == 2 && s->piece[1] == p)));
        for (int part = 0; part < carc_type_of(st, p)->nparts; part++) {
            int n = carc_node(p, part), r = b->root[n];
            assert(b->root[r] == r);
            if (r != n)
                continue;
            int len = 0, m = r;
            do {
                assert(b->root[m] == r && len < CARC_NODES);
                len++;
                m = b->next[m];
            } while (m != r);
            assert(len == b->size[r]);
        }
    }
}
#endif

void carc_check_state(const carc_state *st)
{
    assert(st->cat && st->nplayers >= CARC_MIN_PLAYERS && st->nplayers <= CARC_MAX_PLAYERS);
    assert(st->npieces >= 1 && st->npieces <= CARC_MAX_PIECES);
    assert(st->stack_pos <= st->stack_len && st->stack_len <= CARC_MAX_TILES);
    assert(st->ndiscarded <= st->stack_pos);
    check_figures(st);
    check_pending(st);
    check_hills(st);
    check_halflings(st);
    check_fruit(st);
#ifdef CARC_EXPENSIVE_CHECKS
    check_board(st);
#endif
}

#endif
