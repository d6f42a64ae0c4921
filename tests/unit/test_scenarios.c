/*
 * test_scenarios.c — plays every .scn file under tests/scenarios/ (format: tests/scenarios/FORMAT.md)
 * through the engine and checks the exact score events after each move.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "testutil.h"

#define MAX_FILES 256
static char files[MAX_FILES][512];   /* test-process list of scenario paths */
static int nfiles;

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

static void scan(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".scn") == 0) {
            if (nfiles < MAX_FILES)
                snprintf(files[nfiles++], sizeof files[0], "%s", path);
        } else if (!strchr(e->d_name, '.')) {
            scan(path);
        }
    }
    closedir(d);
}

typedef struct {
    const char *file;
    int line;
    carc_state *st;
    carc_events ev;      /* events of the last move */
    size_t ev_checked;   /* score events of the last move already matched */
    size_t forced_checked;   /* forced_move events of the last move already matched */
    bool started;
    carc_setup setup;
} scn;

#define SCN_FAIL(S, ...)                                                                                     \
    do {                                                                                                     \
        char m_[512];                                                                                        \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                                \
        ck_abort_msg("%s:%d: %s", (S)->file, (S)->line, m_);                                                 \
    } while (0)

/* score features, by carc_part_kind then fruit */
static const char *const part_kinds[CARC_NFEATURES] = {"city", "road", "field", "cloister", "garden", "river", "fruit"};
static const char *const reasons[] = {"completed", "final", "abbot", "flock", "harvest", "sell", "fruit_final"};

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static int tile_id(scn *s, const char *id)
{
    int t = carc_catalog_find(tu_catalog(), id);
    if (t < 0)
        SCN_FAIL(s, "unknown tile %s", id);
    return t;
}

static void start(scn *s)
{
    if (s->started)
        return;
    char err[256];
    carc_events_clear(&s->ev);
    if (carc_game_new(s->st, tu_catalog(), &s->setup, &s->ev, err, sizeof err) != 0)
        SCN_FAIL(s, "game_new: %s", err);
    s->started = true;
    s->ev_checked = 0;
    s->forced_checked = 0;
}

/* Every score event and every forced move of the last move must have been matched by a line. */
static void check_scores_consumed(scn *s)
{
    size_t nscore = 0, nforced = 0;
    for (size_t i = 0; i < s->ev.n; i++) {
        nscore += s->ev.v[i].kind == CARC_EV_SCORE;
        nforced += s->ev.v[i].kind == CARC_EV_FORCED_MOVE;
    }
    if (nscore != s->ev_checked)
        SCN_FAIL(s, "the previous move made %zu score events, the scenario lists %zu", nscore, s->ev_checked);
    if (nforced != s->forced_checked)
        SCN_FAIL(s, "the previous move made %zu forced moves, the scenario lists %zu", nforced, s->forced_checked);
}

/* Parses a move line's words into m; returns false when the words are no move. */
static bool parse_move(scn *s, char **w, int nw, carc_move *m)
{
    memset(m, 0, sizeof *m);
    if (strcmp(w[0], "place") == 0 && nw == 5) {
        m->kind = CARC_MV_PLACE;
        m->tile = (uint8_t)tile_id(s, w[1]);
        m->x = (int16_t)atoi(w[2]);
        m->y = (int16_t)atoi(w[3]);
        m->rot = (uint8_t)atoi(w[4]);
        return true;
    }
    if ((strcmp(w[0], "meeple") == 0 || strcmp(w[0], "abbot") == 0) && nw == 2) {
        if (s->st->pending.kind != CARC_PENDING_FIGURE)
            SCN_FAIL(s, "no figure decision is pending");
        int part = carc_part_find(&s->st->cat->types[s->st->pieces[s->st->pending.piece].type], w[1]);
        if (part < 0)
            SCN_FAIL(s, "no segment %s on the tile just placed", w[1]);
        m->kind = CARC_MV_FIGURE;
        m->fig = w[0][0] == 'm' ? CARC_FIG_MEEPLE : CARC_FIG_ABBOT;
        m->part = (uint8_t)part;
        return true;
    }
    if (strcmp(w[0], "pass") == 0 && nw == 1) {
        m->kind = CARC_MV_PASS;
        return true;
    }
    if (strcmp(w[0], "abbot_return") == 0 && nw == 1) {
        m->kind = CARC_MV_ABBOT_RETURN;
        return true;
    }
    if (strcmp(w[0], "shepherd") == 0 && nw == 2) {   /* hills & sheep: the shepherd on a field segment */
        if (s->st->pending.kind != CARC_PENDING_FIGURE)
            SCN_FAIL(s, "no figure decision is pending");
        int part = carc_part_find(&s->st->cat->types[s->st->pieces[s->st->pending.piece].type], w[1]);
        if (part < 0)
            SCN_FAIL(s, "no segment %s on the tile just placed", w[1]);
        m->kind = CARC_MV_FIGURE;
        m->fig = CARC_FIG_SHEPHERD;
        m->part = (uint8_t)part;
        return true;
    }
    if ((strcmp(w[0], "grow") == 0 || strcmp(w[0], "stable") == 0) && nw == 1) {   /* hills & sheep: flock */
        m->kind = w[0][0] == 'g' ? CARC_MV_GROW : CARC_MV_STABLE;
        return true;
    }
    if ((!strcmp(w[0], "cc_add") || !strcmp(w[0], "cc_remove") || !strcmp(w[0], "cc_skip")) && nw == 1) {
        m->kind = w[0][3] == 'a' ? CARC_MV_CC_ADD : w[0][3] == 'r' ? CARC_MV_CC_REMOVE : CARC_MV_CC_SKIP;
        return true;
    }
    if (strcmp(w[0], "cc_figure") == 0 && (nw == 4 || nw == 5)) {   /* crop circles: x y part [corner] */
        int x = atoi(w[1]), y = atoi(w[2]), corner = nw == 5 ? atoi(w[4]) : -1, piece = -1;
        for (int p = 0; p < s->st->npieces && piece < 0; p++)
            if (s->st->pieces[p].x == x && s->st->pieces[p].y == y &&
                (corner < 0 || s->st->pieces[p].rot == corner))
                piece = p;
        if (piece < 0)
            SCN_FAIL(s, "no piece at %d,%d", x, y);
        int part = carc_part_find(&s->st->cat->types[s->st->pieces[piece].type], w[3]);
        if (part < 0)
            SCN_FAIL(s, "no segment %s on the piece at %d,%d", w[3], x, y);
        m->kind = CARC_MV_CC_FIGURE;
        m->piece = (uint8_t)piece;
        m->part = (uint8_t)part;
        return true;
    }
    if (strcmp(w[0], "draw") == 0 && nw == 1) {   /* halflings: draw instead of a triangle */
        m->kind = CARC_MV_DRAW;
        return true;
    }
    if (strcmp(w[0], "draft") == 0 && nw == 2) {  /* halflings: take a face-up triangle */
        m->kind = CARC_MV_DRAFT;
        m->tile = (uint8_t)tile_id(s, w[1]);
        return true;
    }
    if (strcmp(w[0], "harvest") == 0 && nw == 3) {   /* fruit trees: harvest x y (the tree's space) */
        int x = atoi(w[1]), y = atoi(w[2]);
        m->kind = CARC_MV_HARVEST;
        m->piece = CARC_NO_PIECE;
        for (int p = 0; p < s->st->npieces; p++)
            if (s->st->pieces[p].x == x && s->st->pieces[p].y == y)
                m->piece = (uint8_t)p;
        return true;
    }
    if (strcmp(w[0], "sell") == 0) {   /* fruit trees: sell <fruit> ... (distinct types) */
        m->kind = CARC_MV_SELL;
        for (int i = 1; i < nw; i++) {
            int t = lookup(carc_fruit_names, CARC_FRUIT_TYPES, w[i]);
            if (t < 0)
                SCN_FAIL(s, "unknown fruit %s", w[i]);
            m->set |= (uint8_t)(1u << t);
        }
        return true;
    }
    return false;
}

static void do_move(scn *s, char **w, int nw, bool expect_illegal)
{
    start(s);
    carc_move m;
    int seat = s->st->pending.seat;
    if (strcmp(w[0], "as") == 0 && nw > 2) {   /* as <seat> <move>: the move made by another seat */
        seat = atoi(w[1]);
        w += 2;
        nw -= 2;
    }
    if (!parse_move(s, w, nw, &m))
        SCN_FAIL(s, "unknown line");
    check_scores_consumed(s);
    char err[256];
    carc_events_clear(&s->ev);
    s->ev_checked = 0;
    s->forced_checked = 0;
    carc_state *before = malloc(sizeof *before);
    memcpy(before, s->st, sizeof *before);
    int rc = carc_apply(s->st, seat, &m, &s->ev, err, sizeof err);
    if (expect_illegal) {
        if (rc == 0)
            SCN_FAIL(s, "the move was accepted");
        if (memcmp(before, s->st, sizeof *before) != 0)
            SCN_FAIL(s, "a refused move changed the state");
        if (s->ev.n != 0)
            SCN_FAIL(s, "a refused move made events");
    } else if (rc != 0) {
        SCN_FAIL(s, "move refused: %s", err);
    }
    free(before);
}

/* legal <move>: the move must be in carc_legal_moves for the seat the game waits for (or `as <seat>`) now;
 * nothing is applied. */
static void check_legal(scn *s, char **w, int nw)
{
    int seat = s->st->pending.seat;
    if (strcmp(w[0], "as") == 0 && nw > 2) {
        seat = atoi(w[1]);
        w += 2;
        nw -= 2;
    }
    carc_move m;
    if (!parse_move(s, w, nw, &m))
        SCN_FAIL(s, "legal: unknown move");
    carc_moves legal = {0};
    carc_legal_moves(s->st, seat, &legal);
    bool listed = false;
    for (size_t i = 0; i < legal.n && !listed; i++)
        listed = carc_move_equal(&legal.v[i], &m);
    size_t n = legal.n;
    carc_moves_free(&legal);
    if (!listed)
        SCN_FAIL(s, "the move is not among the %zu legal moves of seat %d", n, seat);
}

static int parse_seats(scn *s, const char *list)
{
    int mask = 0;
    for (const char *p = list; *p;) {
        int seat = atoi(p);
        if (seat < 0 || seat >= CARC_MAX_PLAYERS)
            SCN_FAIL(s, "bad seat list %s", list);
        mask |= 1 << seat;
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    return mask;
}

static int cmp_xy(const void *a, const void *b)
{
    const int *p = a, *q = b;
    return p[0] != q[0] ? p[0] - q[0] : p[1] - q[1];
}

/* score <feature> <reason> <points> <seats> | x,y ... */
static void check_score(scn *s, char **w, int nw)
{
    if (nw < 6 || strcmp(w[5], "|") != 0)
        SCN_FAIL(s, "score line: score <feature> <reason> <points> <seats> | x,y ...");
    size_t k = 0, idx = 0;
    for (; idx < s->ev.n; idx++)
        if (s->ev.v[idx].kind == CARC_EV_SCORE && k++ == s->ev_checked)
            break;
    if (idx == s->ev.n)
        SCN_FAIL(s, "expected another score event (%s %s %s), the move made only %zu", w[1], w[2], w[3],
                 s->ev_checked);
    const carc_event *x = &s->ev.v[idx];
    int feature = lookup(part_kinds, CARC_NFEATURES, w[1]);
    int reason = lookup(reasons, (int)(sizeof reasons / sizeof *reasons), w[2]);
    int points = atoi(w[3]), seats = parse_seats(s, w[4]);
    if (feature < 0 || reason < 0)
        SCN_FAIL(s, "unknown feature or reason");
    if (x->feature != feature || x->reason != reason || x->points != points || x->seats != seats)
        SCN_FAIL(s, "score event is %s %s %d seats-mask %d, expected %s %s %d seats-mask %d",
                 part_kinds[x->feature], reasons[x->reason], x->points, x->seats, w[1], w[2], points, seats);
    int want[2 * CARC_MAX_SPACES], got[2 * CARC_MAX_SPACES];
    int nwant = 0;
    for (int i = 6; i < nw && nwant < CARC_MAX_SPACES; i++, nwant++)
        if (sscanf(w[i], "%d,%d", &want[2 * nwant], &want[2 * nwant + 1]) != 2)
            SCN_FAIL(s, "bad space %s", w[i]);
    if (x->nspaces != nwant)
        SCN_FAIL(s, "score event covers %d spaces, expected %d", x->nspaces, nwant);
    for (int i = 0; i < nwant; i++) {
        got[2 * i] = s->ev.xy[2 * (x->spaces_at + (uint32_t)i)];
        got[2 * i + 1] = s->ev.xy[2 * (x->spaces_at + (uint32_t)i) + 1];
    }
    qsort(want, (size_t)nwant, 2 * sizeof(int), cmp_xy);
    qsort(got, (size_t)nwant, 2 * sizeof(int), cmp_xy);
    for (int i = 0; i < 2 * nwant; i++)
        if (want[i] != got[i])
            SCN_FAIL(s, "score event spaces differ at (%d,%d)", got[i & ~1], got[i | 1]);
    s->ev_checked++;
}

/* forced <seat> <move>: the next forced_move event of the last move, in order, made that move for that seat
 * (the events between two of them are that forced step's). */
static void check_forced(scn *s, char **w, int nw)
{
    carc_move m;
    if (nw < 3 || !parse_move(s, w + 2, nw - 2, &m))
        SCN_FAIL(s, "forced <seat> <move>");
    size_t k = 0, idx = 0;
    for (; idx < s->ev.n; idx++)
        if (s->ev.v[idx].kind == CARC_EV_FORCED_MOVE && k++ == s->forced_checked)
            break;
    if (idx == s->ev.n)
        SCN_FAIL(s, "expected another forced move, the move made only %zu", s->forced_checked);
    const carc_event *x = &s->ev.v[idx];
    if (x->seat != atoi(w[1]) || memcmp(&x->move, &m, sizeof m) != 0)
        SCN_FAIL(s, "forced move %zu is seat %d's move of kind %d, not the one listed", s->forced_checked, x->seat,
                 x->move.kind);
    s->forced_checked++;
}

static void check_pending(scn *s, char **w, int nw)
{
    static const char *const kinds[] = {"none", "place", "figure", "draw_or_triangle", "fruit", "flock",
                                        "crop_circle_choice", "crop_circle_action", "draft"};
    if (nw < 2)
        SCN_FAIL(s, "pending <kind> [seat]");
    int kind = lookup(kinds, 9, w[1]);
    if (kind < 0 || s->st->pending.kind != kind)
        SCN_FAIL(s, "pending is %s, expected %s", kinds[s->st->pending.kind], w[1]);
    if (nw > 2 && s->st->pending.seat != atoi(w[2]))
        SCN_FAIL(s, "pending seat is %d, expected %s", s->st->pending.seat, w[2]);
}

/* hills & sheep: tokens <v>... (the last move's token draws, in order; v 1..4 or wolf), under <tile|none>
 * (the tile the last move put under a hill), bag <n> (tokens in the bag), flock <seat> <v>... (that seat's
 * tokens, in the order drawn) */
static void check_hills(scn *s, char **w, int nw)
{
    char got[256] = "", want[256] = "";
    size_t gl = 0, wl = 0;
    for (int i = w[0][0] == 'f' ? 2 : 1; i < nw && wl < sizeof want; i++)
        wl += (size_t)snprintf(want + wl, sizeof want - wl, " %s", w[i]);
    if (w[0][0] == 't') {
        for (size_t i = 0; i < s->ev.n && gl < sizeof got; i++)
            if (s->ev.v[i].kind == CARC_EV_TOKEN_DRAWN) {
                int v = s->ev.v[i].value;
                gl += v == CARC_WOLF ? (size_t)snprintf(got + gl, sizeof got - gl, " wolf")
                                     : (size_t)snprintf(got + gl, sizeof got - gl, " %d", v);
            }
    } else if (w[0][0] == 'u') {
        for (size_t i = 0; i < s->ev.n && gl < sizeof got; i++)
            if (s->ev.v[i].kind == CARC_EV_HILL_COVERED)
                gl += (size_t)snprintf(got + gl, sizeof got - gl, " %s", s->st->cat->types[s->ev.v[i].tile].id);
        if (!gl)
            snprintf(got, sizeof got, " none");
    } else if (w[0][0] == 'b') {
        snprintf(got, sizeof got, " %d", s->st->hills.bag_n);
    } else {
        int seat = nw > 1 ? atoi(w[1]) : -1;
        if (seat < 0 || seat >= s->st->nplayers)
            SCN_FAIL(s, "flock <seat> <token>...");
        for (int i = 0; i < s->st->hills.flock_n[seat] && gl < sizeof got; i++) {
            int v = s->st->hills.flock[seat][i];
            gl += v == CARC_WOLF ? (size_t)snprintf(got + gl, sizeof got - gl, " wolf")
                                 : (size_t)snprintf(got + gl, sizeof got - gl, " %d", v);
        }
    }
    if (strcmp(got, want) != 0)
        SCN_FAIL(s, "%.10s is%.200s, expected%.200s", w[0], got[0] ? got : " (nothing)",
                 want[0] ? want : " (nothing)");
}

static void line_words(char *line, char **w, int *nw, int max)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    *nw = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && *nw < max; tok = strtok(NULL, " \t\r\n"))
        w[(*nw)++] = tok;
}

static void setup_line(scn *s, char **w, int nw)
{
    if (strcmp(w[0], "players") == 0 && nw == 2) {
        s->setup.nplayers = atoi(w[1]);
    } else if (strcmp(w[0], "expansions") == 0) {
        for (int i = 1; i < nw; i++) {
            int e = lookup((const char *const *)carc_set_names, CARC_NSETS, w[i]);
            if (e < 0)
                SCN_FAIL(s, "unknown expansion %s", w[i]);
            s->setup.expansions |= (uint8_t)(1u << e);
        }
    } else if (strcmp(w[0], "option") == 0 && nw == 3) {
        int o = carc_opt_find(w[1]);
        if (o < 0)
            SCN_FAIL(s, "unknown option %s", w[1]);
        const carc_opt_info *info = &carc_opt_table[o];
        int v = -1;
        for (int i = 0; i < info->nvalues; i++) {
            char buf[32];
            if (info->kind == CARC_OPTK_BOOL)
                snprintf(buf, sizeof buf, "%s", i ? "true" : "false");
            else if (info->kind == CARC_OPTK_INT)
                snprintf(buf, sizeof buf, "%d", info->ints[i]);
            else
                snprintf(buf, sizeof buf, "%s", info->names[i]);
            if (strcmp(buf, w[2]) == 0)
                v = i;
        }
        if (v < 0)
            SCN_FAIL(s, "bad value for option %s", w[1]);
        s->setup.opt[o] = (uint8_t)v;
    } else if (strcmp(w[0], "stack") == 0) {
        for (int i = 1; i < nw; i++)
            s->setup.stack[s->setup.nstack++] = (uint8_t)tile_id(s, w[i]);
    } else if (strcmp(w[0], "sheep") == 0) {   /* hills & sheep: the bag draws in order, 1..4 or wolf */
        for (int i = 1; i < nw && s->setup.nsheep < CARC_MAX_SCRIPT; i++)
            s->setup.sheep[s->setup.nsheep++] = (uint8_t)(strcmp(w[i], "wolf") == 0 ? CARC_WOLF : atoi(w[i]));
    } else if (strcmp(w[0], "hands") == 0 && nw >= 2) {   /* halflings: hands <seat> <ids...> */
        int seat = atoi(w[1]);
        if (seat < 0 || seat >= CARC_MAX_PLAYERS)
            SCN_FAIL(s, "bad seat %s", w[1]);
        s->setup.hands_scripted = 1;
        for (int i = 2; i < nw; i++)
            s->setup.hand[seat][s->setup.hand_n[seat]++] = (uint8_t)tile_id(s, w[i]);
    } else if (strcmp(w[0], "fruit") == 0 && nw == 6) {   /* fruit trees: fruit <type> <4 values, top first> */
        int t = lookup(carc_fruit_names, CARC_FRUIT_TYPES, w[1]);
        if (t < 0)
            SCN_FAIL(s, "unknown fruit %s", w[1]);
        s->setup.fruit_scripted = 1;
        for (int i = 0; i < CARC_FRUIT_STACK; i++)
            s->setup.fruit[t][i] = (uint8_t)atoi(w[2 + i]);
    } else {
        SCN_FAIL(s, "unknown line");
    }
}

static void check_line(scn *s, char **w, int nw)
{
    if (strcmp(w[0], "score") == 0) {
        check_score(s, w, nw);
    } else if (strcmp(w[0], "forced") == 0) {
        check_forced(s, w, nw);
    } else if (strcmp(w[0], "discarded") == 0 && nw == 2) {
        int t = tile_id(s, w[1]);
        bool found = false;
        for (size_t i = 0; i < s->ev.n; i++)
            found |= s->ev.v[i].kind == CARC_EV_TILE_DISCARDED && s->ev.v[i].tile == t;
        if (!found)
            SCN_FAIL(s, "no discard of %s", w[1]);
    } else if (strcmp(w[0], "scores") == 0) {
        if (nw - 1 != s->st->nplayers)
            SCN_FAIL(s, "scores lists %d seats, the game has %d", nw - 1, s->st->nplayers);
        for (int i = 1; i < nw; i++)
            if (s->st->players[i - 1].score != atoi(w[i]))
                SCN_FAIL(s, "seat %d has %d points, expected %s", i - 1, s->st->players[i - 1].score, w[i]);
    } else if (strcmp(w[0], "pending") == 0) {
        check_pending(s, w, nw);
    } else if (strcmp(w[0], "hand") == 0 && nw >= 2) {   /* halflings: a seat's hand now, in order */
        int seat = atoi(w[1]);
        if (seat < 0 || seat >= s->st->nplayers)
            SCN_FAIL(s, "bad seat %s", w[1]);
        bool same = s->st->half.hand_n[seat] == nw - 2;
        for (int i = 2; i < nw && same; i++)
            same = s->st->half.hand[seat][i - 2] == tile_id(s, w[i]);
        if (!same)
            SCN_FAIL(s, "seat %d holds %d triangles, not the ones listed", seat, s->st->half.hand_n[seat]);
    } else if (strcmp(w[0], "tokens") == 0 || strcmp(w[0], "under") == 0 || strcmp(w[0], "bag") == 0 ||
               strcmp(w[0], "flock") == 0) {
        check_hills(s, w, nw);
    } else if (strcmp(w[0], "cc_skipped") == 0 && (nw == 2 || nw == 3)) {   /* crop circles */
        int seat = atoi(w[1]), whole = nw == 3 && strcmp(w[2], "all") == 0;
        bool found = false;
        for (size_t i = 0; i < s->ev.n; i++)
            found |= s->ev.v[i].kind == CARC_EV_CC_SKIPPED && s->ev.v[i].seat == seat && s->ev.v[i].value == whole;
        if (!found)
            SCN_FAIL(s, "no crop_circle_skipped event for seat %d%s", seat, whole ? " (whole action)" : "");
    } else if (strcmp(w[0], "held") == 0 && nw >= 2) {   /* fruit trees: held <seat> <fruit:value> ... */
        int seat = atoi(w[1]);
        if (seat < 0 || seat >= s->st->nplayers)
            SCN_FAIL(s, "bad seat %s", w[1]);
        bool same = s->st->fruit.held_n[seat] == nw - 2;
        for (int i = 2; i < nw && same; i++) {
            char name[16];
            int v;
            same = sscanf(w[i], "%15[a-z]:%d", name, &v) == 2 &&
                   s->st->fruit.held[seat][i - 2] == (lookup(carc_fruit_names, CARC_FRUIT_TYPES, name) << 4 | v);
        }
        if (!same)
            SCN_FAIL(s, "seat %d holds %d fruit tokens, not the ones listed", seat, s->st->fruit.held_n[seat]);
    } else if (strcmp(w[0], "tree") == 0 && nw == 4) {   /* fruit trees: tree x y <tokens left> */
        int x = atoi(w[1]), y = atoi(w[2]), left = -1;
        for (int t = 0; t < s->st->fruit.ntrees; t++) {
            const carc_piece *pc = &s->st->pieces[s->st->fruit.tree_piece[t]];
            if (pc->x == x && pc->y == y)
                left = s->st->fruit.tree_n[t];
        }
        if (left != atoi(w[3]))
            SCN_FAIL(s, "the tree at %d,%d has %d tokens left (-1: no tree), expected %s", x, y, left, w[3]);
    } else if (strcmp(w[0], "figures") == 0 && nw == 2) {   /* followers and other figures on the board */
        if (s->st->nfigures != atoi(w[1]))
            SCN_FAIL(s, "%d figures on the board, expected %s", s->st->nfigures, w[1]);
    } else if (strcmp(w[0], "finished") == 0) {
        if (s->st->status != CARC_FINISHED)
            SCN_FAIL(s, "the game is not over");
    } else if (strcmp(w[0], "legal") == 0 && nw > 1) {
        check_legal(s, w + 1, nw - 1);
    } else if (strcmp(w[0], "illegal") == 0 && nw > 1) {
        do_move(s, w + 1, nw - 1, true);
    } else {
        do_move(s, w, nw, false);
    }
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    scn s = {.file = path};
    s.st = malloc(sizeof *s.st);
    carc_setup_defaults(&s.setup);
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) {
        s.line++;
        char *w[256];
        int nw;
        line_words(buf, w, &nw, 256);
        if (nw == 0)
            continue;
        bool setup_word = !strcmp(w[0], "players") || !strcmp(w[0], "expansions") || !strcmp(w[0], "option") ||
                          !strcmp(w[0], "stack") || !strcmp(w[0], "hands") || !strcmp(w[0], "fruit") ||
                          !strcmp(w[0], "sheep");
        if (setup_word) {
            if (s.started)
                SCN_FAIL(&s, "set-up lines come before the first move");
            setup_line(&s, w, nw);
        } else {
            start(&s);
            check_line(&s, w, nw);
        }
    }
    fclose(f);
    start(&s);
    check_scores_consumed(&s);
    carc_events_free(&s.ev);
    free(s.st);
}

START_TEST(scenario)
{
    run_file(files[_i]);
}
END_TEST

START_TEST(scenarios_exist)
{
    ck_assert_int_ge(nfiles, 25);
}
END_TEST

int main(void)
{
    scan(CARC_SOURCE_DIR "/tests/scenarios");
    qsort(files, (size_t)nfiles, sizeof files[0], cmp_str);
    Suite *su = suite_create("scenarios");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, scenarios_exist);
    tcase_add_loop_test(tc, scenario, 0, nfiles);
    suite_add_tcase(su, tc);
    for (int i = 0; i < nfiles; i++)
        printf("scenario %d: %s\n", i, files[i] + strlen(CARC_SOURCE_DIR) + 1);
    return tu_run(su);
}
