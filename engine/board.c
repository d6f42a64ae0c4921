/*
 * board.c — spaces, side matching and feature unions.
 *
 * Sides are compared as intervals on CARC_SIDE_UNITS units running clockwise round each piece, so unit t
 * on one side meets unit 12-t on the side facing it, and two segments belong to one feature when their
 * intervals overlap. That single rule covers ordinary sides, the split sides of Hills & Sheep and the long
 * sides of two triangles sharing a space, with no case for any of them.
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "board.h"

const int carc_dx[4] = {0, 1, 0, -1};
const int carc_dy[4] = {-1, 0, 1, 0};

void carc_board_clear(carc_board *b)
{
    memset(b, 0, sizeof *b);
}

static unsigned space_hash(int x, int y)
{
    uint32_t k = ((uint32_t)(uint16_t)x << 16) | (uint16_t)y;
    k *= 0x9E3779B1u;   /* Fibonacci hashing: spreads neighbouring coordinates */
    return k >> 22;     /* 10 bits = CARC_HASH_CAP */
}
_Static_assert(CARC_HASH_CAP == 1u << 10, "space_hash yields 10 bits");

int carc_space_find(const carc_board *b, int x, int y)
{
    for (unsigned h = space_hash(x, y);; h = (h + 1) & (CARC_HASH_CAP - 1)) {
        unsigned v = b->hash[h];
        if (v == 0)
            return -1;
        const carc_space *s = &b->spaces[v - 1];
        if (s->x == x && s->y == y)
            return (int)v - 1;
    }
}

/* Finds or creates the space at (x, y); a new space starts as empty frontier. -1 when full. */
static int space_get(carc_board *b, int x, int y)
{
    unsigned h = space_hash(x, y);
    for (;; h = (h + 1) & (CARC_HASH_CAP - 1)) {
        unsigned v = b->hash[h];
        if (v == 0)
            break;
        const carc_space *s = &b->spaces[v - 1];
        if (s->x == x && s->y == y)
            return (int)v - 1;
    }
    if (b->nspaces >= CARC_MAX_SPACES)
        return -1;
    int i = b->nspaces++;
    carc_space *s = &b->spaces[i];
    memset(s, 0, sizeof *s);
    s->x = (int16_t)x;
    s->y = (int16_t)y;
    memset(s->dir_piece, CARC_NO_PIECE, sizeof s->dir_piece);
    s->piece[0] = s->piece[1] = CARC_NO_PIECE;
    b->empty[i / 64] |= 1ull << (i % 64);
    b->nb_packed[i] = 0;
    b->hash[h] = (uint16_t)(i + 1);
    return i;
}

int carc_side_dir(const carc_tile_type *t, int rot, int side)
{
    if (t->shape == CARC_SQUARE)
        return side < 4 ? (side + rot) & 3 : -1;
    /* triangle: right angle at corner `rot`; its local N lies on border rot, its local W on rot-1 */
    if (side == CARC_N)
        return rot & 3;
    if (side == CARC_W)
        return (rot + 3) & 3;
    return -1;
}

int carc_dir_side(const carc_tile_type *t, int rot, int dir)
{
    if (t->shape == CARC_SQUARE)
        return (dir - rot) & 3;
    if (dir == (rot & 3))
        return CARC_N;
    if (dir == ((rot + 3) & 3))
        return CARC_W;
    return -1;
}

static void uf_union(carc_board *b, int a, int c)
{
    a = b->root[a];
    c = b->root[c];
    assert(b->root[a] == a && b->root[c] == c);   /* every node points straight at its root */
    if (a == c)
        return;
    if (b->size[a] < b->size[c]) {
        int t = a;
        a = c;
        c = t;
    }
    assert(b->size[a] + b->size[c] <= CARC_NODES);
    int n = c, relabelled = 0;
    do {
        assert(b->root[n] == c);   /* the ring holds exactly the smaller feature's nodes */
        b->root[n] = (uint16_t)a;
        n = b->next[n];
        relabelled++;
    } while (n != c);
    assert(relabelled == b->size[c]);
    (void)relabelled;
    uint16_t t = b->next[a];   /* splice the two rings into one */
    b->next[a] = b->next[c];
    b->next[c] = t;
    b->size[a] = (uint16_t)(b->size[a] + b->size[c]);
    b->open[a] = (uint16_t)(b->open[a] + b->open[c]);
}

/* Side `sa` of piece pa now faces side `sb` of piece pb: every segment of both is closed, and segments
 * whose intervals overlap (t meets 12-t) join. */
static void connect(carc_state *st, int pa, int sa, int pb, int sb)
{
    carc_board *b = &st->board;
    const carc_side *A = &carc_type_of(st, pa)->side[sa];
    const carc_side *B = &carc_type_of(st, pb)->side[sb];
    for (int i = 0; i < A->nseg; i++) {
        int r = carc_find(b, carc_node(pa, A->seg[i].part));
        assert(b->open[r] > 0);   /* a segment faces something once: open never goes below zero */
        b->open[r]--;
    }
    for (int j = 0; j < B->nseg; j++) {
        int r = carc_find(b, carc_node(pb, B->seg[j].part));
        assert(b->open[r] > 0);
        b->open[r]--;
    }
    const carc_tile_type *ta = carc_type_of(st, pa), *tb = carc_type_of(st, pb);
    for (int i = 0; i < A->nseg; i++) {
        const carc_seg *x = &A->seg[i];
        for (int j = 0; j < B->nseg; j++) {
            const carc_seg *y = &B->seg[j];
            bool overlap = x->lo < CARC_SIDE_UNITS - y->lo && CARC_SIDE_UNITS - y->hi < x->hi;
            if (overlap && ta->parts[x->part].kind == tb->parts[y->part].kind)
                uf_union(b, carc_node(pa, x->part), carc_node(pb, y->part));
        }
    }
}

/* The piece in space s whose right angle is at `corner`, or CARC_NO_PIECE. */
static int triangle_at(const carc_state *st, const carc_space *s, int corner)
{
    for (int i = 0; i < s->npieces; i++) {
        int p = s->piece[i];
        if (carc_type_of(st, p)->shape == CARC_TRIANGLE && st->pieces[p].rot == corner)
            return p;
    }
    return CARC_NO_PIECE;
}

/* Which way the river turns through a tile it enters flowing in direction `dir` and leaves by `exit`:
 * 0 straight on, 1 left, 2 right (directions run clockwise, so +1 is a right turn). */
static int river_turn(int dir, int exit)
{
    return exit == dir ? 0 : exit == ((dir + 1) & 3) ? 2 : 1;
}

/* The board direction of the river side of t (at rot) other than the one on `entry`, or -1 (a lake). */
static int river_exit(const carc_tile_type *t, int rot, int entry)
{
    int exit = -1;
    for (int side = 0; side < 4; side++)
        if (t->river >> side & 1 && carc_side_dir(t, rot, side) != entry)
            exit = carc_side_dir(t, rot, side);
    return exit;
}

/* A river tile whose sides already match: it must extend the river, one of its river sides against the
 * open end (the matching made that side a river side), and must not turn the way the river's last curve
 * turned (RULINGS.md "River": the straights between two curves do not count). */
static bool river_fits(const carc_board *b, const carc_tile_type *t, int si, int rot)
{
    if (si + 1 != b->river_end)
        return false;
    int entry = (b->river_dir + 2) & 3;
    int side = carc_dir_side(t, rot, entry);
    assert(side >= 0 && t->side[side].type == CARC_SIDE_RIVER);   /* it faces the river and matched */
    (void)side;
    int exit = river_exit(t, rot, entry);
    if (exit < 0)
        return true;
    int turn = river_turn(b->river_dir, exit);
    return turn == 0 || turn != b->river_turn;
}

/* After piece p (a river tile) joined the board at space si: where the river's open end is now. */
static void river_advance(carc_board *b, const carc_piece *pc, const carc_tile_type *t, int si)
{
    int entry = si + 1 == b->river_end ? (b->river_dir + 2) & 3 : -1;   /* -1: the spring */
    int exit = river_exit(t, pc->rot, entry);
    if (exit < 0) {   /* the lake: the river is finished */
        b->river_end = 0;
        return;
    }
    if (entry >= 0) {
        int turn = river_turn(b->river_dir, exit);
        if (turn)
            b->river_turn = (uint8_t)turn;
    }
    int ni = carc_space_find(b, pc->x + carc_dx[exit], pc->y + carc_dy[exit]);
    assert(ni >= 0 && b->spaces[ni].npieces == 0);   /* river sides face only the river or empty spaces */
    b->river_dir = (uint8_t)exit;
    b->river_end = (uint16_t)(ni + 1);
}

bool carc_fits_space(const carc_state *st, int type, int si, int rot)
{
    const carc_tile_type *t = &st->cat->types[type];
    const carc_space *s = &st->board.spaces[si];
    bool touches = false;
    if (t->shape == CARC_SQUARE) {
        if (s->npieces != 0)
            return false;
    } else {
        if (s->npieces == 2)
            return false;
        if (s->npieces == 1) {
            int partner = triangle_at(st, s, (rot + 2) & 3);
            if (partner == CARC_NO_PIECE)
                return false;   /* a square there, or a triangle on the same corner */
            if (carc_type_of(st, partner)->side[CARC_D].type != t->side[CARC_D].type)
                return false;
            touches = true;
        }
    }
    for (int d = 0; d < 4; d++) {
        int side = carc_dir_side(t, rot, d);
        if (side < 0 || s->nb_type[d] == CARC_SIDE_NONE)
            continue;
        if (s->nb_type[d] != t->side[side].type)
            return false;
        touches = true;
    }
    if (!touches)
        return false;
    if (!t->river)   /* the open end of the river takes nothing but the river: not even a triangle's corner */
        return si + 1 != st->board.river_end;
    return river_fits(&st->board, t, si, rot);
}

unsigned carc_river_fit_rots(const carc_state *st, int type)
{
    int end = st->board.river_end - 1;
    unsigned rots = 0;
    for (int rot = 0; rot < 4 && end >= 0; rot++)
        rots |= (unsigned)carc_fits_space(st, type, end, rot) << rot;
    return rots;
}

bool carc_fits(const carc_state *st, int type, int x, int y, int rot)
{
    int si = carc_space_find(&st->board, x, y);
    return si >= 0 && carc_fits_space(st, type, si, rot);   /* no space: next to nothing */
}

_Static_assert(CARC_SIDE_CITY < 4, "side types pack into 2 bits");

bool carc_fits_anywhere(const carc_state *st, int type)
{
    const carc_tile_type *t = &st->cat->types[type];
    const carc_board *b = &st->board;
    if (t->river)   /* only the open end can take it */
        return carc_river_fit_rots(st, type) != 0;
    if (t->shape == CARC_SQUARE) {
        for (int w = 0; w * 64 < b->nspaces; w++)
            for (uint64_t bits = b->empty[w] & ~carc_river_bit(b, w); bits; bits &= bits - 1)
                if (carc_square_fit_rots(t, b, w * 64 + __builtin_ctzll(bits)))
                    return true;
        return false;
    }
    for (int i = 0; i < b->nspaces; i++) {
        for (int rot = 0; rot < 4; rot++)
            if (carc_fits_space(st, type, i, rot))
                return true;
    }
    return false;
}

int carc_board_add(carc_state *st, int p)
{
    carc_board *b = &st->board;
    const carc_piece *pc = &st->pieces[p];
    const carc_tile_type *t = carc_type_of(st, p);
    int si = space_get(b, pc->x, pc->y);
    if (si < 0)
        return -1;
    for (int i = 0; i < t->nparts; i++) {
        int n = carc_node(p, i);
        b->root[n] = (uint16_t)n;
        b->next[n] = (uint16_t)n;
        b->size[n] = 1;
        b->open[n] = t->parts[i].nsegs;
    }
    b->piece_space[p] = (uint16_t)si;
    carc_space *s = &b->spaces[si];
    /* a square fills an empty space; a triangle an empty one or the free half beside its partner */
    assert(s->npieces < 2 && (t->shape == CARC_TRIANGLE || s->npieces == 0));
    if (s->npieces == 1 && t->shape == CARC_TRIANGLE) {
        int partner = s->piece[0];
        assert(carc_type_of(st, partner)->shape == CARC_TRIANGLE && st->pieces[partner].rot == ((pc->rot + 2) & 3));
        connect(st, p, CARC_D, partner, CARC_D);
    }
    s->piece[s->npieces++] = (uint8_t)p;
    b->empty[si / 64] &= ~(1ull << (si % 64));
    for (int d = 0; d < 4; d++) {
        int side = carc_dir_side(t, pc->rot, d);
        if (side < 0)
            continue;
        int ni = space_get(b, pc->x + carc_dx[d], pc->y + carc_dy[d]);
        if (ni < 0)
            return -1;
        s = &b->spaces[si];
        s->dir_piece[d] = (uint8_t)p;
        s->dir_side[d] = (uint8_t)side;
        carc_space *n = &b->spaces[ni];
        int back = (d + 2) & 3;
        unsigned type = t->side[side].type;
        n->nb_type[back] = (uint8_t)type;
        if (type == CARC_SIDE_RIVER)   /* packs as no neighbour: that space is the river's, never scanned */
            type = CARC_SIDE_NONE;
        b->nb_packed[ni] = (uint8_t)((b->nb_packed[ni] & ~(3u << 2 * back)) | type << 2 * back);
        if (n->dir_piece[back] != CARC_NO_PIECE)
            connect(st, p, side, n->dir_piece[back], n->dir_side[back]);
    }
    if (t->river)
        river_advance(b, pc, t, si);
    return 0;
}

void carc_state_copy(carc_state *dst, const carc_state *src)
{
    _Static_assert(offsetof(carc_state, board) + sizeof(carc_board) == sizeof(carc_state),
                   "the board is the state's last member: the header copy below takes everything else");
    assert(dst != src);
    memcpy(dst, src, offsetof(carc_state, board));
    const carc_board *a = &src->board;
    carc_board *b = &dst->board;
    size_t ns = a->nspaces, np = src->npieces, nn = np * CARC_MAX_PARTS;
    b->nspaces = a->nspaces;
    b->river_end = a->river_end;
    b->river_dir = a->river_dir;
    b->river_turn = a->river_turn;
    memcpy(b->spaces, a->spaces, ns * sizeof a->spaces[0]);
    memcpy(b->empty, a->empty, sizeof a->empty);   /* bits past nspaces are clear: copied, not assumed */
    memcpy(b->nb_packed, a->nb_packed, ns * sizeof a->nb_packed[0]);
    memcpy(b->hash, a->hash, sizeof a->hash);      /* open addressing: every slot counts */
    memcpy(b->piece_space, a->piece_space, np * sizeof a->piece_space[0]);
    memcpy(b->root, a->root, nn * sizeof a->root[0]);
    memcpy(b->next, a->next, nn * sizeof a->next[0]);
    memcpy(b->size, a->size, nn * sizeof a->size[0]);
    memcpy(b->open, a->open, nn * sizeof a->open[0]);
}

int carc_occupied_neighbours(const carc_board *b, int x, int y)
{
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (dx == 0 && dy == 0)
                continue;
            int i = carc_space_find(b, x + dx, y + dy);
            n += i >= 0 && b->spaces[i].npieces > 0;
        }
    return n;
}
