/*
 * score.c — features, majorities and points: scoring during play (completed roads, cities, cloisters,
 * gardens), the abbot taken back early, and final scoring (incomplete features and farms).
 *
 * A feature is gathered from the union-find on demand, by scanning the parts of every piece. That is
 * O(pieces) per scored feature; it happens a few times per turn at most, and it keeps the incremental
 * part of the board (run on every placement and every legal-move check) down to open-side counting.
 */
#include <string.h>

#include "rules.h"

void carc_feature_collect(const carc_state *st, int root, carc_feature *f)
{
    const carc_board *b = &st->board;
    memset(f, 0, sizeof *f);
    f->root = root;
    int rp = root / CARC_MAX_PARTS;
    f->kind = carc_type_of(st, rp)->parts[root % CARC_MAX_PARTS].kind;
    uint8_t seen[CARC_MAX_SPACES] = {0};
    for (int p = 0; p < st->npieces; p++) {
        const carc_tile_type *t = carc_type_of(st, p);
        for (int i = 0; i < t->nparts; i++) {
            if (carc_find(b, carc_node(p, i)) != root)
                continue;
            f->pennants += t->parts[i].pennants;
            int si = b->piece_space[p];
            if (!seen[si]) {   /* two triangles of one space count it once */
                seen[si] = 1;
                f->nspaces++;
            }
        }
    }
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->kind == CARC_FIG_SHEPHERD || carc_find(b, carc_node(g->piece, g->part)) != root)
            continue;
        f->followers[g->seat]++;
        f->figs[f->nfigs++] = (uint8_t)i;
    }
}

bool carc_feature_occupied(const carc_state *st, int root)
{
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->kind != CARC_FIG_SHEPHERD && carc_find(&st->board, carc_node(g->piece, g->part)) == root)
            return true;
    }
    return false;
}

/* Seats with the most followers (bitmask); 0 when nobody has one. */
static unsigned majority(const carc_state *st, const carc_feature *f)
{
    int best = 0;
    unsigned seats = 0;
    for (int s = 0; s < st->nplayers; s++) {
        if (f->followers[s] > best) {
            best = f->followers[s];
            seats = 1u << s;
        } else if (best > 0 && f->followers[s] == best) {
            seats |= 1u << s;
        }
    }
    return seats;
}

/* Lists the feature's spaces on the event, in piece order. */
static void add_feature_spaces(const carc_state *st, int root, carc_events *ev, carc_event *x)
{
    uint8_t seen[CARC_MAX_SPACES] = {0};
    for (int p = 0; p < st->npieces; p++) {
        const carc_tile_type *t = carc_type_of(st, p);
        int si = st->board.piece_space[p];
        for (int i = 0; i < t->nparts && !seen[si]; i++)
            if (carc_find(&st->board, carc_node(p, i)) == root) {
                seen[si] = 1;
                carc_ev_add_space(ev, x, st->pieces[p].x, st->pieces[p].y);
            }
    }
}

/* Cloister/garden spaces: its own and every occupied neighbour. */
static void add_cloister_spaces(const carc_state *st, int piece, carc_events *ev, carc_event *x)
{
    int cx = st->pieces[piece].x, cy = st->pieces[piece].y;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int si = carc_space_find(&st->board, cx + dx, cy + dy);
            if (si >= 0 && st->board.spaces[si].npieces > 0)
                carc_ev_add_space(ev, x, cx + dx, cy + dy);
        }
}

/* Adds the points and records them; a feature worth nothing (a farm with no completed city) makes no
 * event. *out is the score event, to which the caller adds the feature's spaces. */
static void award(carc_state *st, unsigned seats, int points, int feature, int reason, carc_events *ev,
                  carc_event **out)
{
    *out = NULL;
    if (points == 0 || seats == 0)
        return;
    for (int s = 0; s < st->nplayers; s++)
        if (seats & (1u << s))
            st->players[s].score += points;
    carc_event *x = carc_ev_push(ev, CARC_EV_SCORE);
    if (x) {
        x->seats = (uint8_t)seats;
        x->points = points;
        x->feature = (uint8_t)feature;
        x->reason = (uint8_t)reason;
    }
    *out = x;
}

/* Returns every follower on the feature, highest index first so the indexes stay valid. */
static void return_followers(carc_state *st, const carc_feature *f, carc_events *ev)
{
    for (int i = f->nfigs - 1; i >= 0; i--)
        carc_figure_remove(st, f->figs[i], ev);
}

static int city_road_points(const carc_feature *f, bool complete)
{
    if (f->kind == CARC_PART_ROAD)
        return f->nspaces;
    return complete ? 2 * (f->nspaces + f->pennants) : f->nspaces + f->pennants;
}

static void score_cloister_if_complete(carc_state *st, int piece, int part, carc_events *ev)
{
    int root = carc_node(piece, part);
    carc_feature f;
    carc_feature_collect(st, root, &f);
    if (f.nfigs == 0)
        return;
    const carc_piece *pc = &st->pieces[piece];
    if (carc_occupied_neighbours(&st->board, pc->x, pc->y) < 8)
        return;
    carc_event *x;
    award(st, majority(st, &f), 9, f.kind, CARC_REASON_COMPLETED, ev, &x);
    if (x)
        add_cloister_spaces(st, piece, ev, x);
    return_followers(st, &f, ev);
}

void carc_score_completed(carc_state *st, int piece, carc_events *ev)
{
    const carc_tile_type *t = carc_type_of(st, piece);
    int done[CARC_MAX_PARTS], ndone = 0;
    for (int i = 0; i < t->nparts; i++) {
        int kind = t->parts[i].kind;
        if (kind != CARC_PART_ROAD && kind != CARC_PART_CITY)
            continue;
        int root = carc_find(&st->board, carc_node(piece, i));
        bool seen = false;
        for (int k = 0; k < ndone; k++)
            seen |= done[k] == root;
        if (seen || st->board.open[root] != 0)
            continue;
        done[ndone++] = root;
        carc_feature f;
        carc_feature_collect(st, root, &f);
        if (f.nfigs == 0)
            continue;
        carc_event *x;
        award(st, majority(st, &f), city_road_points(&f, true), kind, CARC_REASON_COMPLETED, ev, &x);
        if (x)
            add_feature_spaces(st, root, ev, x);
        return_followers(st, &f, ev);
    }
    /* cloisters and gardens on this space and the 8 round it */
    const carc_piece *pc = &st->pieces[piece];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int si = carc_space_find(&st->board, pc->x + dx, pc->y + dy);
            if (si < 0)
                continue;
            const carc_space *s = &st->board.spaces[si];
            for (int k = 0; k < s->npieces; k++) {
                int q = s->piece[k];
                const carc_tile_type *tq = carc_type_of(st, q);
                for (int i = 0; i < tq->nparts; i++)
                    if (tq->parts[i].kind == CARC_PART_CLOISTER || tq->parts[i].kind == CARC_PART_GARDEN)
                        score_cloister_if_complete(st, q, i, ev);
            }
        }
}

/* What a cloister or garden is worth before it is complete: itself plus each occupied neighbour. */
static int cloister_partial_points(const carc_state *st, int piece)
{
    const carc_piece *pc = &st->pieces[piece];
    return 1 + carc_occupied_neighbours(&st->board, pc->x, pc->y);
}

void carc_score_abbot_return(carc_state *st, int seat, carc_events *ev)
{
    int fi = carc_figure_find(st, seat, CARC_FIG_ABBOT);
    if (fi < 0)
        return;
    int piece = st->figures[fi].piece, part = st->figures[fi].part;
    carc_event *x;
    award(st, 1u << seat, cloister_partial_points(st, piece),
          carc_type_of(st, piece)->parts[part].kind, CARC_REASON_ABBOT, ev, &x);
    if (x)
        add_cloister_spaces(st, piece, ev, x);
    carc_figure_remove(st, fi, ev);
}

/* Farm value: 3 per completed city the field touches, each city once. */
static int farm_points(const carc_state *st, int root)
{
    const carc_board *b = &st->board;
    int cities[CARC_MAX_PIECES], ncities = 0;
    for (int p = 0; p < st->npieces; p++) {
        const carc_tile_type *t = carc_type_of(st, p);
        for (int i = 0; i < t->nparts; i++) {
            if (!t->parts[i].touches || carc_find(b, carc_node(p, i)) != root)
                continue;
            for (int c = 0; c < t->nparts; c++) {
                if (!(t->parts[i].touches & (1u << c)))
                    continue;
                int cr = carc_find(b, carc_node(p, c));
                if (b->open[cr] != 0)
                    continue;
                bool seen = false;
                for (int k = 0; k < ncities; k++)
                    seen |= cities[k] == cr;
                if (!seen && ncities < CARC_MAX_PIECES)
                    cities[ncities++] = cr;
            }
        }
    }
    return 3 * ncities;
}

void carc_score_final(carc_state *st, carc_events *ev)
{
    static const int order[] = {CARC_PART_ROAD, CARC_PART_CITY, CARC_PART_CLOISTER, CARC_PART_GARDEN,
                                CARC_PART_FIELD};
    uint8_t done[CARC_NODES];
    memset(done, 0, sizeof done);
    /* roads, cities, cloisters and gardens first, farms last: the order the rulebook scores them in */
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
        for (int p = 0; p < st->npieces; p++) {
            const carc_tile_type *t = carc_type_of(st, p);
            for (int i = 0; i < t->nparts; i++) {
                if (t->parts[i].kind != order[o])
                    continue;
                int root = carc_find(&st->board, carc_node(p, i));
                if (done[root])
                    continue;
                done[root] = 1;
                carc_feature f;
                carc_feature_collect(st, root, &f);
                if (f.nfigs == 0)
                    continue;
                int pts;
                if (f.kind == CARC_PART_FIELD)
                    pts = farm_points(st, root);
                else if (f.kind == CARC_PART_CLOISTER || f.kind == CARC_PART_GARDEN)
                    pts = cloister_partial_points(st, p);
                else
                    pts = city_road_points(&f, st->board.open[root] == 0);
                carc_event *x;
                award(st, majority(st, &f), pts, f.kind, CARC_REASON_FINAL, ev, &x);
                if (!x)
                    continue;
                if (f.kind == CARC_PART_CLOISTER || f.kind == CARC_PART_GARDEN)
                    add_cloister_spaces(st, p, ev, x);
                else
                    add_feature_spaces(st, root, ev, x);
            }
        }
}
