/*
 * board.h — the geometry of the board (internal to libcarc): spaces, which piece side lies on which
 * border, whether a piece fits, and the union-find that joins feature parts across facing sides.
 *
 * Everything here is derived from st->pieces and rebuilt by replaying them in order, so the same pieces
 * always give the same board, including the order of the frontier (and so of legal moves).
 */
#ifndef CARC_BOARD_H
#define CARC_BOARD_H

#include <assert.h>

#include "carc.h"

/* Direction offsets, indexed by carc_side_idx N E S W (y grows south). */
extern const int carc_dx[4], carc_dy[4];

static inline int carc_node(int piece, int part) { return piece * CARC_MAX_PARTS + part; }
static inline const carc_tile_type *carc_type_of(const carc_state *st, int piece)
{
    return &st->cat->types[st->pieces[piece].type];
}

void carc_board_clear(carc_board *b);
/* Space index at (x, y), or -1. */
int carc_space_find(const carc_board *b, int x, int y);
/* Board direction a local side of a piece faces, or -1 for a triangle's long side / a side it lacks. */
int carc_side_dir(const carc_tile_type *t, int rot, int side);
/* Local side of a piece that lies on board direction `dir`, or -1. */
int carc_dir_side(const carc_tile_type *t, int rot, int dir);
/* Whether type t at (x, y) with rot fits: free spot, every touching side matches, at least one touches.
 * For a triangle rot is the corner of its right angle. */
bool carc_fits(const carc_state *st, int type, int x, int y, int rot);
/* carc_fits for the space with index si (no lookup: the legal-move loops walk the spaces). */
bool carc_fits_space(const carc_state *st, int type, int si, int rot);
/* The river's open end as a bit of word w of carc_board.empty (0 when it is not in that word, or there is
 * none): only a river tile goes there, so the fit-table scans for other squares leave it out. */
static inline uint64_t carc_river_bit(const carc_board *b, int w)
{
    unsigned e = (unsigned)b->river_end - 1u;   /* no open end: wraps to a word no board has */
    return (e / 64 == (unsigned)w) ? 1ull << (e % 64) : 0;
}
/* Bit r set = a square of type t (no river tile) fits on the frontier space si (no piece on it: a bit of
 * carc_board.empty, not the river's open end) at rotation r (same answer as carc_fits_space). This is the hot
 * loop of legal-move generation: one lookup of
 * what the neighbours show in the type's fit table. A side a piece shows is never CARC_SIDE_NONE (the
 * catalog only takes C, R and F), so the packed sides alone say where a neighbour is. */
static inline unsigned carc_square_fit_rots(const carc_tile_type *t, const carc_board *b, int si)
{
    assert(b->spaces[si].npieces == 0 && !t->river && si + 1 != b->river_end &&
           b->nb_packed[si] == (b->spaces[si].nb_type[0] | b->spaces[si].nb_type[1] << 2 |
                                b->spaces[si].nb_type[2] << 4 | b->spaces[si].nb_type[3] << 6));
    return t->fit[b->nb_packed[si]];
}
/* A tile's place in the draw when the river is in the game (game.c's set-up, the bots' guesses): tiles that
 * carry the river on (two river sides) first, then the ones that end it (one: the lake; the spring, the
 * other one, is the start tile), then every other tile. */
static inline int carc_river_rank(const carc_tile_type *t)
{
    int sides = __builtin_popcount(t->river);
    return sides >= 2 ? 0 : sides == 1 ? 1 : 2;
}
/* Bit r set = river tile `type` fits on the river's open end at rotation r; 0 when there is no open end (the
 * lake is down) or it fits nowhere there. The only place a river tile can go. */
unsigned carc_river_fit_rots(const carc_state *st, int type);
/* Whether a drawn tile fits anywhere on the board. */
bool carc_fits_anywhere(const carc_state *st, int type);
/* Adds st->pieces[p] (already filled in) to the derived board: spaces, frontier, feature unions.
 * Returns -1 when the board's capacity would be exceeded. */
int carc_board_add(carc_state *st, int p);

/* The root of a feature part's feature (the board keeps every node pointing at its root). */
static inline int carc_find(const carc_board *b, int node)
{
    assert(node >= 0 && node < CARC_NODES && b->root[b->root[node]] == b->root[node]);
    return b->root[node];
}
/* Pieces occupying the 8 spaces round a space. */
int carc_occupied_neighbours(const carc_board *b, int x, int y);

#endif
