/*
 * score.c — features, majorities and points: scoring during play (completed roads, cities, cloisters,
 * gardens), the abbot taken back early, final scoring (incomplete features and farms) and the winners.
 *
 * A feature is gathered on demand by walking the ring of its parts that the board keeps (board.h), so
 * scoring costs the size of the feature, not of the board. Final scoring is computed by one function that
 * only reads the state (carc_final_features): carc_score_final awards what it says, and the bots read the
 * same points to value a state without playing its end on a copy.
 */
#include <assert.h>
#include <string.h>

#include "expansions.h"

/* The ring part of carc_feature_collect: every field but the followers (zeroed). For final scoring (final):
 * the spaces of roads and cities only (no rule scores the others by their spaces), and a field's ring is
 * left to farm_points, which walks it anyway and notes its first node. */
static void walk_feature(const carc_state *st, int root, carc_feature *f, bool final)
{
    const carc_board *b = &st->board;
    /* every field but figs[nfigs..), which nothing reads: the features are gathered in the bots' inner
     * loop, and clearing the 60 bytes of figs was a fifth of the walk */
    f->root = root;
    f->kind = carc_type_of(st, root / CARC_MAX_PARTS)->parts[root % CARC_MAX_PARTS].kind;
    f->nspaces = f->pennants = f->nfigs = 0;
    memset(f->followers, 0, sizeof f->followers);
    assert(b->root[root] == root);
    /* only city parts carry pennants (the catalog takes them nowhere else), and the lookup through the
     * piece's tile type is most of a field's walk */
    bool city = f->kind == CARC_PART_CITY;
    bool spaces = !final || city || f->kind == CARC_PART_ROAD;
    f->first = root;
    if (final && f->kind == CARC_PART_FIELD)
        return;
    /* two triangles of one space, or one tile met twice, count the space once: a bit per space index says
     * it was met, one word test a node instead of a search of the spaces met so far */
    uint64_t met[CARC_MAX_SPACES / 64] = {0};
    int n = root, walked = 0, first = root;
    do {
        assert(b->root[n] == root && walked++ < b->size[root]);   /* the ring is the feature, once round */
        int p = n / CARC_MAX_PARTS;
        assert(city || carc_type_of(st, p)->parts[n % CARC_MAX_PARTS].pennants == 0);
        if (city)
            f->pennants += carc_type_of(st, p)->parts[n % CARC_MAX_PARTS].pennants;
        if (spaces) {
            unsigned si = b->piece_space[p];
            assert(si < CARC_MAX_SPACES);
            uint64_t bit = UINT64_C(1) << (si % 64);
            if (!(met[si / 64] & bit)) {
                met[si / 64] |= bit;
                f->nspaces++;
            }
        }
        if (n < first)
            first = n;
        n = b->next[n];
    } while (n != root);
    assert(walked == b->size[root]);
    (void)walked;
    f->first = first;
}

void carc_feature_collect(const carc_state *st, int root, carc_feature *f)
{
    walk_feature(st, root, f, false);
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        if (g->kind == CARC_FIG_SHEPHERD || carc_find(&st->board, carc_node(g->piece, g->part)) != root)
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
    if (seats & (seats - 1))   /* a tie: hills may break it */
        seats = carc_hills_tiebreak(st, f, seats);
    return seats;
}

/* Lists the feature's spaces on the event, each once. */
static void add_feature_spaces(const carc_state *st, int root, carc_events *ev, carc_event *x)
{
    uint16_t spaces[CARC_NODES];
    int ns = 0, n = root;
    do {
        int p = n / CARC_MAX_PARTS;
        uint16_t si = st->board.piece_space[p];
        bool seen = false;
        for (int k = 0; k < ns && !seen; k++)
            seen = spaces[k] == si;
        if (!seen) {
            spaces[ns++] = si;
            carc_ev_add_space(ev, x, st->pieces[p].x, st->pieces[p].y);
        }
        n = st->board.next[n];
    } while (n != root);
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

static bool has_figure_on(const carc_state *st, int piece, int part)
{
    for (int i = 0; i < st->nfigures; i++)
        if (st->figures[i].piece == piece && st->figures[i].part == part)
            return true;
    return false;
}

static void score_cloister_if_complete(carc_state *st, int piece, int part, carc_events *ev)
{
    const carc_piece *pc = &st->pieces[piece];
    if (!has_figure_on(st, piece, part) || carc_occupied_neighbours(&st->board, pc->x, pc->y) < 8)
        return;
    int root = carc_node(piece, part);   /* a cloister or garden is a feature of its own */
    carc_feature f;
    carc_feature_collect(st, root, &f);
    int points = 9;
    if (f.kind == CARC_PART_CLOISTER)
        points += carc_hills_vineyard_bonus(st, piece);
    carc_event *x;
    award(st, majority(st, &f), points, f.kind, CARC_REASON_COMPLETED, ev, &x);
    if (x)
        add_cloister_spaces(st, piece, ev, x);
    return_followers(st, &f, ev);
}

/* Whether a figure stands on a cloister or garden of a piece on pc's space or one of the 8 round it. */
static bool monastic_figure_near(const carc_state *st, const carc_piece *pc)
{
    for (int i = 0; i < st->nfigures; i++) {
        const carc_figure *g = &st->figures[i];
        const carc_piece *q = &st->pieces[g->piece];
        int kind = carc_type_of(st, g->piece)->parts[g->part].kind;
        if ((kind == CARC_PART_CLOISTER || kind == CARC_PART_GARDEN) && q->x - pc->x <= 1 &&
            pc->x - q->x <= 1 && q->y - pc->y <= 1 && pc->y - q->y <= 1)
            return true;
    }
    return false;
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
    /* cloisters and gardens on this space and the 8 round it; only one with a figure on it can score, and
     * mostly none of the 9 spaces holds one, which a pass over the figures says without 9 space lookups */
    const carc_piece *pc = &st->pieces[piece];
    if (!monastic_figure_near(st, pc))
        return;
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

/* Farm value: 3 per completed city the field touches, each city once. Every city the field touches, open or
 * completed, goes to cb (when there is one) once, in the order the field's ring meets them. *first: the
 * field's smallest node. */
static int farm_points(const carc_state *st, int root, int *first, carc_field_city_fn *cb, void *ctx,
                       int feature)
{
    const carc_board *b = &st->board;
    int cities[CARC_NODES], ncities = 0, completed = 0;
    int n = root;
    *first = root;
    do {
        if (n < *first)
            *first = n;
        int p = n / CARC_MAX_PARTS;
        unsigned touches = carc_type_of(st, p)->parts[n % CARC_MAX_PARTS].touches;
        for (int c = 0; touches; c++, touches >>= 1) {
            if (!(touches & 1))
                continue;
            int cr = carc_find(b, carc_node(p, c));
            bool seen = false;
            for (int k = 0; k < ncities && !seen; k++)
                seen = cities[k] == cr;
            if (seen)
                continue;
            cities[ncities++] = cr;
            completed += b->open[cr] == 0;   /* only completed cities pay */
            if (cb)
                cb(ctx, feature, cr);
        }
        n = b->next[n];
    } while (n != root);
    return 3 * completed;
}

int carc_final_features(const carc_state *st, carc_final_feature out[CARC_MAX_FIGURES], carc_field_city_fn *cb,
                        void *ctx)
{
    const carc_board *b = &st->board;
    int n = 0;
    /* one pass over the figures finds the features and counts their followers (what carc_feature_collect
     * does per feature, in the same order: figs by figure index) */
    for (int k = 0; k < st->nfigures; k++) {
        const carc_figure *g = &st->figures[k];
        if (g->kind == CARC_FIG_SHEPHERD)
            continue;
        int root = carc_find(b, carc_node(g->piece, g->part));
        int j = 0;
        while (j < n && out[j].f.root != root)
            j++;
        if (j == n)
            walk_feature(st, root, &out[n++].f, true);
        carc_feature *f = &out[j].f;
        f->followers[g->seat]++;
        f->figs[f->nfigs++] = (uint8_t)k;
    }
    for (int j = 0; j < n; j++) {
        carc_final_feature *ff = &out[j];
        carc_feature *f = &ff->f;
        if (f->kind == CARC_PART_FIELD)
            ff->points = farm_points(st, f->root, &f->first, cb, ctx, j);
        else if (f->kind == CARC_PART_CLOISTER || f->kind == CARC_PART_GARDEN)
            ff->points = cloister_partial_points(st, f->first / CARC_MAX_PARTS);
        else
            ff->points = city_road_points(f, b->open[f->root] == 0);
        ff->seats = majority(st, f);
    }
    return n;
}

void carc_final_points(const carc_state *st, const carc_final_feature *ff, int n,
                       int32_t points[CARC_MAX_PLAYERS])
{
    for (int s = 0; s < st->nplayers; s++)
        points[s] = carc_fruit_final_points(st, s);
    for (int h = 0; h < n; h++)
        for (int s = 0; s < st->nplayers; s++)
            if (ff[h].seats >> s & 1)
                points[s] += ff[h].points;
}

void carc_score_final(carc_state *st, carc_events *ev)
{
    /* Roads, cities, cloisters and gardens first and farms last (the order the rulebook scores them in),
     * and within a kind in the order of their first part on the board (piece, then part: a feature's
     * smallest node), which is the order a walk over every part of every piece would meet them in. Sorting
     * the few held features by that key gives the same order (and so the same events) for the cost of the
     * features, not of the board. The points are carc_final_features', which the bots read too. */
    static const uint8_t rank[CARC_NPART_KINDS] = {
        [CARC_PART_ROAD] = 0, [CARC_PART_CITY] = 1, [CARC_PART_CLOISTER] = 2, [CARC_PART_GARDEN] = 3,
        [CARC_PART_FIELD] = 4,
    };
    carc_final_feature ff[CARC_MAX_FIGURES];
    int nheld = carc_final_features(st, ff, NULL, NULL);
    uint32_t key[CARC_MAX_FIGURES];   /* rank << 16 | the feature's smallest node */
    uint8_t order[CARC_MAX_FIGURES];
    _Static_assert(CARC_NODES < 1 << 16, "a node fits in the key's low 16 bits");
    for (int h = 0; h < nheld; h++) {
        int first = ff[h].f.first;
        int kind = carc_type_of(st, first / CARC_MAX_PARTS)->parts[first % CARC_MAX_PARTS].kind;
        uint32_t kk = (uint32_t)rank[kind] << 16 | (uint32_t)first;
        int j = h;   /* insertion sort: a handful of features, each key once (one smallest node each) */
        for (; j > 0 && key[j - 1] > kk; j--) {
            key[j] = key[j - 1];
            order[j] = order[j - 1];
        }
        key[j] = kk;
        order[j] = (uint8_t)h;
    }
    for (int h = 0; h < nheld; h++) {
        const carc_final_feature *x = &ff[order[h]];
        const carc_feature *f = &x->f;
        carc_event *e;
        award(st, x->seats, x->points, f->kind, CARC_REASON_FINAL, ev, &e);
        if (!e)
            continue;
        if (f->kind == CARC_PART_CLOISTER || f->kind == CARC_PART_GARDEN)
            add_cloister_spaces(st, f->first / CARC_MAX_PARTS, ev, e);
        else
            add_feature_spaces(st, f->root, ev, e);
    }
    carc_fruit_score_final(st, ev);
}

/* The winners after the end: the best score among the seats still in the game (seats.c: leaving). */
unsigned carc_winners(const carc_state *st)
{
    unsigned in = 0, won = 0;
    for (int s = 0; s < st->nplayers; s++)
        if (!(st->left >> s & 1))
            in |= 1u << s;
    if (!in)   /* cannot happen (the game ends when one seat remains); then the scores alone decide */
        in = (1u << st->nplayers) - 1;
    int32_t best = INT32_MIN;
    for (int s = 0; s < st->nplayers; s++)
        if ((in >> s & 1) && st->players[s].score > best)
            best = st->players[s].score;
    for (int s = 0; s < st->nplayers; s++)
        if ((in >> s & 1) && st->players[s].score == best)
            won |= 1u << s;
    return won;
}
