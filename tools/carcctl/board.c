/*
 * board.c — a game's view drawn as an ASCII board, and its scores, for `carcctl show` and `replay`. The view may
 * be the server's: its texts (names, status, the cells' bytes) are written through put_text.
 */
#include "carcctl.h"

/* Each space is a cell of 7 x 4 characters:
 *   +--C--+     the side types on the borders: C city, R road, F field, V river (blank: no side there)
 *   R HS12R     the tile id
 *   | 0m 1s|    figures: seat digit and kind (m meeple, a abbot, s shepherd); marks: c cloister, g garden,
 *   +--F--+     h hill, v vineyard, t tree, o crop circle
 * Triangles share a space: both ids are shown, with the corner of each one's right angle. */
#define CW 7
#define CH 4

static char side_char(int type)
{
    switch (type) {
    case CARC_SIDE_CITY: return 'C';
    case CARC_SIDE_ROAD: return 'R';
    case CARC_SIDE_FIELD: return 'F';
    case CARC_SIDE_RIVER: return 'V';   /* the river, as the tile data writes it */
    default: return ' ';
    }
}

typedef struct {
    int minx, miny, w, h;
    char *grid;   /* h*CH rows of w*CW chars */
} canvas_t;

static void put(canvas_t *c, int x, int y, int dx, int dy, char ch)
{
    int col = (x - c->minx) * CW + dx, row = (y - c->miny) * CH + dy;
    if (col >= 0 && col < c->w * CW && row >= 0 && row < c->h * CH)
        c->grid[row * c->w * CW + col] = ch;
}

static void puts_at(canvas_t *c, int x, int y, int dx, int dy, const char *s)
{
    for (int i = 0; s[i] && dx + i < CW - 1; i++)
        put(c, x, y, dx + i, dy, s[i]);
}

void print_board(const json_t *view)
{
    const json_t *pieces = json_object_get(view, "board");
    if (!pieces)
        pieces = json_object_get(view, "pieces");
    canvas_t c = {0};
    int maxx = 0, maxy = 0;
    size_t i;
    json_t *pc;
    json_array_foreach(pieces, i, pc) {
        int x = (int)json_integer_value(json_object_get(pc, "x"));
        int y = (int)json_integer_value(json_object_get(pc, "y"));
        if (i == 0 || x < c.minx)
            c.minx = x;
        if (i == 0 || y < c.miny)
            c.miny = y;
        if (i == 0 || x > maxx)
            maxx = x;
        if (i == 0 || y > maxy)
            maxy = y;
    }
    /* the view is the server's word: a board no game can make (a piece further out than the pieces a game has,
     * or more pieces) is said, not drawn, where its size would overflow the canvas */
    if (json_array_size(pieces) > CARC_MAX_PIECES || c.minx < -CARC_MAX_PIECES || c.miny < -CARC_MAX_PIECES ||
        maxx > CARC_MAX_PIECES || maxy > CARC_MAX_PIECES) {
        printf("(a board of %zu pieces from x %d to %d, y %d to %d: no game's board; not drawn)\n",
               json_array_size(pieces), c.minx, maxx, c.miny, maxy);
        return;
    }
    c.w = maxx - c.minx + 1, c.h = maxy - c.miny + 1;
    size_t cells = (size_t)c.w * CW * (size_t)c.h * CH;   /* at most (2 * 160 + 1)^2 * 28: some 2.9 MB */
    c.grid = malloc(cells);
    if (!c.grid)
        abort();
    memset(c.grid, ' ', cells);
    int *tri_count = calloc((size_t)c.w * (size_t)c.h, sizeof *tri_count);
    json_array_foreach(pieces, i, pc) {
        int x = (int)json_integer_value(json_object_get(pc, "x"));
        int y = (int)json_integer_value(json_object_get(pc, "y"));
        int rot = (int)json_integer_value(json_object_get(pc, "rot"));
        const char *id = json_string_value(json_object_get(pc, "tile"));
        int ti = id ? carc_catalog_find(&ctl_catalog, id) : -1;
        if (ti < 0)
            continue;
        const carc_tile_type *t = &ctl_catalog.types[ti];
        if (t->shape == CARC_TRIANGLE) {
            static const char *const corner[] = {"nw", "ne", "se", "sw"};
            int k = tri_count[(y - c.miny) * c.w + (x - c.minx)]++;
            char s[16];
            snprintf(s, sizeof s, "%.4s%s", id, corner[rot & 3]);
            puts_at(&c, x, y, 1, 1 + (k & 1), s);
            for (int d = 0; d < CW; d++) {
                char edge = d == 0 || d == CW - 1 ? '+' : '-';
                put(&c, x, y, d, 0, edge), put(&c, x, y, d, CH - 1, edge);
            }
            continue;
        }
        for (int d = 0; d < CW; d++) {
            put(&c, x, y, d, 0, d == 0 || d == CW - 1 ? '+' : '-');
            put(&c, x, y, d, CH - 1, d == 0 || d == CW - 1 ? '+' : '-');
        }
        for (int r = 1; r < CH - 1; r++)
            put(&c, x, y, 0, r, '|'), put(&c, x, y, CW - 1, r, '|');
        /* board direction d shows the piece's local side (d - rot) & 3 */
        put(&c, x, y, CW / 2, 0, side_char(t->side[(0 - rot) & 3].type));
        put(&c, x, y, CW - 1, 1, side_char(t->side[(1 - rot) & 3].type));
        put(&c, x, y, CW / 2, CH - 1, side_char(t->side[(2 - rot) & 3].type));
        put(&c, x, y, 0, 1, side_char(t->side[(3 - rot) & 3].type));
        puts_at(&c, x, y, 1, 1, id);
        char marks[8] = "";
        size_t m = 0;
        for (int p = 0; p < t->nparts; p++) {
            if (t->parts[p].kind == CARC_PART_CLOISTER)
                marks[m++] = 'c';
            if (t->parts[p].kind == CARC_PART_GARDEN)
                marks[m++] = 'g';
        }
        if (t->marks & CARC_MARK_HILL || json_is_true(json_object_get(pc, "hill")))
            marks[m++] = 'h';
        if (t->marks & CARC_MARK_VINEYARD)
            marks[m++] = 'v';
        if (t->marks & CARC_MARK_TREE)
            marks[m++] = 't';
        if (t->marks & CARC_MARK_CC)
            marks[m++] = 'o';
        marks[m] = 0;
        puts_at(&c, x, y, CW - 1 - (int)m, 2, marks);
    }
    /* figures: seat digit and kind letter on the third line of their piece */
    int *nfig = calloc((size_t)(c.w * c.h), sizeof *nfig);
    json_t *f;
    json_array_foreach(json_object_get(view, "figures"), i, f) {
        json_t *p = json_array_get(pieces, (size_t)json_integer_value(json_object_get(f, "piece")));
        if (!p)
            continue;
        int x = (int)json_integer_value(json_object_get(p, "x")), y = (int)json_integer_value(json_object_get(p, "y"));
        const char *kind = json_string_value(json_object_get(f, "figure"));
        int k = nfig[(y - c.miny) * c.w + (x - c.minx)]++;
        if (k < 2) {
            put(&c, x, y, 1 + 2 * k, 2, (char)('0' + json_integer_value(json_object_get(f, "seat"))));
            put(&c, x, y, 2 + 2 * k, 2, kind ? kind[0] : '?');
        }
    }
    /* coordinates on the margin */
    printf("     ");
    for (int x = 0; x < c.w; x++)
        printf("  %3d  ", c.minx + x);
    printf("\n");
    for (int row = 0; row < c.h * CH; row++) {
        if (row % CH == 1)
            printf("%4d ", c.miny + row / CH);
        else
            printf("     ");
        /* a figure's seat digit and kind letter are the server's bytes (seat -21 is an ESC) */
        put_text(stdout, c.grid + row * c.w * CW, (size_t)(c.w * CW));
        printf("\n");
    }
    free(c.grid);
    free(tri_count);
    free(nfig);
}

void print_scores(const json_t *view)
{
    const json_t *pending = json_object_get(view, "pending");
    const char *status = str_or(json_object_get(view, "status"), "active");   /* a cancelled game is over too */
    bool finished = strcmp(status, "active") != 0;
    printf("\nseq %lld, turn %lld, ", (long long)json_integer_value(json_object_get(view, "seq")),
           (long long)json_integer_value(json_object_get(view, "turn")));
    put_field(stdout, status, 0);
    printf(", %lld tiles left\n", (long long)json_integer_value(json_object_get(view, "stack_left")));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(view, "players"), i, p) {
        bool turn = !finished && json_integer_value(json_object_get(pending, "seat")) == (json_int_t)i;
        printf("%s seat %zu  ", turn ? ">" : " ", i);
        put_field(stdout, str_or(json_object_get(p, "name"), ""), -20);
        printf(" %4lld points  meeples %lld\n", (long long)json_integer_value(json_object_get(p, "score")),
               (long long)json_integer_value(json_object_get(json_object_get(p, "supply"), "meeple")));
    }
    if (!finished) {
        const char *kind = json_string_value(json_object_get(pending, "kind"));
        const char *tile = json_string_value(json_object_get(pending, "tile"));
        printf("waiting for seat %lld: ", (long long)json_integer_value(json_object_get(pending, "seat")));
        put_field(stdout, kind ? kind : "?", 0);
        if (tile) {
            fputc(' ', stdout);
            put_field(stdout, tile, 0);
        }
        fputc('\n', stdout);
    }
}
