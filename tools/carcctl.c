/*
 * carcctl.c — the admins' command-line client of carcd (libcurl, jansson; libcarc for the tile data and for
 * replaying a game locally).
 *
 *   carcctl [--server URL] [--token TOKEN] [--as NAME] COMMAND [ARGS]
 *
 *   list [--status waiting|active|finished|cancelled] [--players N] [--waiting-for SEAT] [--limit N]
 *                        games, oldest first, every page of GET /v1/admin/games, filtered
 *   show ID [--seq N] [--public]
 *                        an ASCII board and the scores (the admin's view; --public: what anyone sees)
 *   hidden ID            the hidden state: seed, the stack still to draw in order, tiles under hills
 *   verify ID            POST verify; exit status 0 when the replay matches, 1 when it does not
 *   replay ID [--to N] [--each]
 *                        exports the game and replays it here with libcarc, printing the board after move
 *                        N (default: the last) or after --each move; checks the end against the snapshot
 *   export ID [-o FILE]  the game's export (setup, seed, stack, players, moves) as JSON
 *   import FILE [--stack-script]
 *                        creates the game on --server with the admin token (the seed and the original's script,
 *                        or with --stack-script the export's whole stack as the script, so the same tiles come
 *                        in the same order even where the shuffle changed; other draws, such as Hills & Sheep's
 *                        bag, then come from another point of the random stream and may not follow), posts every
 *                        move with the new seats' tokens (and cancels the copy of a game the admin cancelled),
 *                        prints the new id and the tokens, and compares the final state and status with the
 *                        export's (exit 1 when they differ)
 *   audit [--game ID] [--action NAME] [--limit N]
 *                        the audit log of admin actions, newest first
 *
 * `carcctl --help`, `carcctl help [COMMAND]` and `carcctl COMMAND --help` print what each command does; with
 * --json (before or after the command) every command prints one JSON document instead of text.
 * The server and token come from --server / --token, else CARCCTL_SERVER (default http://127.0.0.1:8080)
 * and CARCD_ADMIN_TOKEN. Every request carries X-Carcd-Actor: --as, else $USER, for the audit log.
 * Exit status: 0 success, 1 a check failed (verify, replay), 2 usage, 3 an HTTP or network error.
 */
#include <curl/curl.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "json.h"

#define EXIT_CHECK 1
#define EXIT_USAGE 2
#define EXIT_HTTP 3

static const char *server = "http://127.0.0.1:8080";
static const char *token;
static const char *actor;
static bool json_out;   /* --json: every command prints one JSON document on stdout instead of text */
static carc_catalog cat;

/* ---- HTTP ------------------------------------------------------------------------------------------------ */
typedef struct {
    char *p;
    size_t len;
} buf_t;

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    buf_t *b = arg;
    char *q = realloc(b->p, b->len + size * n + 1);
    if (!q)
        return 0;
    memcpy(q + b->len, data, size * n);
    b->p = q;
    b->len += size * n;
    b->p[b->len] = 0;
    return size * n;
}

/* One request to `base` with bearer `tok` (may be NULL); *status gets the HTTP status (0: no answer). The body
 * parsed as JSON, or NULL (then *raw, when given, gets the text). */
static json_t *http(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
                    long *status, char **raw)
{
    CURL *h = curl_easy_init();
    if (!h) {
        fprintf(stderr, "carcctl: curl_easy_init failed\n");
        exit(EXIT_HTTP);
    }
    char url[2048];
    snprintf(url, sizeof url, "%s%s", base, path);
    buf_t b = {calloc(1, 1), 0};
    struct curl_slist *hl = NULL;
    char hdr[600];
    if (tok) {
        snprintf(hdr, sizeof hdr, "Authorization: Bearer %s", tok);
        hl = curl_slist_append(hl, hdr);
    }
    if (actor) {
        snprintf(hdr, sizeof hdr, "X-Carcd-Actor: %s", actor);
        hl = curl_slist_append(hl, hdr);
    }
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    if (text)
        hl = curl_slist_append(hl, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "carcctl/1");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, text ? text : "");
    }
    CURLcode rc = curl_easy_perform(h);
    *status = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    else
        fprintf(stderr, "carcctl: %s %s: %s\n", method, url, curl_easy_strerror(rc));
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    free(text);
    json_t *j = b.len ? json_loadb(b.p, b.len, 0, NULL) : NULL;
    if (raw)
        *raw = b.p;
    else
        free(b.p);
    return j;
}

/* A request that must answer `want`; otherwise prints the problem and exits. */
static json_t *must(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
                    long want)
{
    long st;
    json_t *j = http(base, tok, method, path, body, &st, NULL);
    if (st == 0) {   /* no answer: http() said why */
        json_decref(j);
        exit(EXIT_HTTP);
    }
    if (st != want) {
        const char *detail = json_string_value(json_object_get(j, "detail"));
        fprintf(stderr, "carcctl: %s %s: HTTP %ld%s%s\n", method, path, st, detail ? ": " : "", detail ? detail : "");
        json_decref(j);
        exit(EXIT_HTTP);
    }
    if (!j) {
        fprintf(stderr, "carcctl: %s %s: the answer is not JSON\n", method, path);
        exit(EXIT_HTTP);
    }
    return j;
}

/* ---- commands and their help ----------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *args;   /* after the name */
    const char *what;   /* what it does */
} command;

static const command *find_command(const char *name);

static void print_usage(FILE *f)
{
    fputs("usage: carcctl [--server URL] [--token TOKEN] [--as NAME] [--json] COMMAND [ARGS]\n"
          "       carcctl help [COMMAND] | COMMAND --help\n\n"
          "  --server URL    carcd's address (default $CARCCTL_SERVER, else http://127.0.0.1:8080)\n"
          "  --token TOKEN   the admin token (default $CARCD_ADMIN_TOKEN)\n"
          "  --as NAME       the name the audit log records (default $USER)\n"
          "  --json          print JSON instead of text (every command)\n"
          "  -h, --help      this help\n\ncommands:\n",
          f);
    extern const command commands[];
    for (const command *c = commands; c->name; c++)
        fprintf(f, "  %s %s\n      %s\n", c->name, c->args, c->what);
    fputs("\nexit status: 0 success, 1 a check failed (verify, replay, import), 2 usage, 3 an HTTP or network "
          "error\n",
          f);
}

static void print_command_help(FILE *f, const command *c)
{
    fprintf(f, "usage: carcctl [GLOBAL FLAGS] %s %s\n  %s\n(carcctl --help lists the global flags)\n", c->name,
            c->args, c->what);
}

/* A usage error: what was wrong, then how it is used; exit status 2. */
static void usage_error(const command *c, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void usage_error(const command *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("carcctl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (c)
        print_command_help(stderr, c);
    else
        fputs("carcctl --help lists the commands\n", stderr);
    exit(EXIT_USAGE);
}

/* getopt_long over a command's arguments (argv[0] is the command's name): each option's value, or 'h' for
 * --help (printed, exit 0), or usage_error naming the flag. Returns -1 at the end; *optind_out the first
 * positional argument (GNU getopt moves them to the end). */
static int next_opt(const command *c, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    int o = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (o == 'h') {
        print_command_help(stdout, c);
        exit(0);
    }
    if (o == '?') {
        if (optopt)
            usage_error(c, "%s: unknown flag -%c, or its value is missing", c->name, optopt);
        usage_error(c, "%s: unknown flag %s, or its value is missing", c->name, argv[optind - 1]);
    }
    if (o == ':')
        usage_error(c, "%s: %s needs a value", c->name, argv[optind - 1]);
    return o;
}

/* The positional arguments after option parsing: exactly `want` of them, else a usage error. */
static char **positional(const command *c, int argc, char **argv, int want)
{
    int n = argc - optind;
    if (n > want)
        usage_error(c, "%s: unexpected argument %s", c->name, argv[optind + want]);
    if (n < want) {   /* the arguments' names are the words of c->args before its first flag */
        int len = (int)strcspn(c->args, "[");
        while (len > 0 && c->args[len - 1] == ' ')
            len--;
        usage_error(c, "%s: missing %.*s", c->name, len, c->args);
    }
    return argv + optind;
}

/* Prints j on stdout as the --json answer, and frees it. */
static void print_json(json_t *j)
{
    json_dumpf(j, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(j);
}

static void need_token(void)
{
    if (!token || !*token) {
        fprintf(stderr, "carcctl: this needs the admin token (--token or CARCD_ADMIN_TOKEN)\n");
        exit(EXIT_USAGE);
    }
}

/* A flag's whole number, at least `min`; else a usage error naming the flag (exit 2). */
static long int_arg(const command *c, const char *s, const char *what, long min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno)
        usage_error(c, "%s: %s needs a whole number, not %s", c->name, what, s);
    if (v < min)
        usage_error(c, "%s: %s needs a number of %ld or more, not %s", c->name, what, min, s);
    return v;
}

/* `s` escaped for a query string (curl_easy_escape); free with curl_free. */
static char *query_escape(const char *s)
{
    char *e = curl_easy_escape(NULL, s, 0);
    if (!e)
        abort();
    return e;
}

static const char *str_or(const json_t *j, const char *dflt)
{
    const char *s = json_string_value(j);
    return s ? s : dflt;
}

/* ---- the ASCII board ------------------------------------------------------------------------------------- */
/* Each space is a cell of 7 x 4 characters:
 *   +--C--+     the side types on the borders: C city, R road, F field (blank: no side there)
 *   R HS12R     the tile id
 *   | 0m 1s|    figures: seat digit and kind (m meeple, a abbot, s shepherd); marks: c cloister, g garden,
 *   +--F--+     h hill, v vineyard, t tree, o crop circle
 * Triangles share a space: both ids are shown, with the corner of each one's right angle. */
#define CW 7
#define CH 4

static char side_char(int type)
{
    return type == CARC_SIDE_CITY ? 'C' : type == CARC_SIDE_ROAD ? 'R' : type == CARC_SIDE_FIELD ? 'F' : ' ';
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

static void print_board(const json_t *view)
{
    const json_t *pieces = json_object_get(view, "board");
    if (!pieces)
        pieces = json_object_get(view, "pieces");
    canvas_t c = {0};
    int maxx = 0, maxy = 0;
    size_t i;
    json_t *pc;
    json_array_foreach(pieces, i, pc) {
        int x = (int)json_integer_value(json_object_get(pc, "x")), y = (int)json_integer_value(json_object_get(pc, "y"));
        if (i == 0 || x < c.minx)
            c.minx = x;
        if (i == 0 || y < c.miny)
            c.miny = y;
        if (i == 0 || x > maxx)
            maxx = x;
        if (i == 0 || y > maxy)
            maxy = y;
    }
    c.w = maxx - c.minx + 1, c.h = maxy - c.miny + 1;
    c.grid = malloc((size_t)(c.w * CW * c.h * CH));
    if (!c.grid)
        abort();
    memset(c.grid, ' ', (size_t)(c.w * CW * c.h * CH));
    int *tri_count = calloc((size_t)(c.w * c.h), sizeof *tri_count);
    json_array_foreach(pieces, i, pc) {
        int x = (int)json_integer_value(json_object_get(pc, "x")), y = (int)json_integer_value(json_object_get(pc, "y"));
        int rot = (int)json_integer_value(json_object_get(pc, "rot"));
        const char *id = json_string_value(json_object_get(pc, "tile"));
        int ti = id ? carc_catalog_find(&cat, id) : -1;
        if (ti < 0)
            continue;
        const carc_tile_type *t = &cat.types[ti];
        if (t->shape == CARC_TRIANGLE) {
            static const char *const corner[] = {"nw", "ne", "se", "sw"};
            int k = tri_count[(y - c.miny) * c.w + (x - c.minx)]++;
            char s[16];
            snprintf(s, sizeof s, "%.4s%s", id, corner[rot & 3]);
            puts_at(&c, x, y, 1, 1 + (k & 1), s);
            for (int d = 0; d < CW; d++)
                put(&c, x, y, d, 0, d == 0 || d == CW - 1 ? '+' : '-'), put(&c, x, y, d, CH - 1, d == 0 || d == CW - 1 ? '+' : '-');
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
        fwrite(c.grid + row * c.w * CW, 1, (size_t)(c.w * CW), stdout);
        printf("\n");
    }
    free(c.grid);
    free(tri_count);
    free(nfig);
}

static void print_scores(const json_t *view)
{
    const json_t *pending = json_object_get(view, "pending");
    const char *status = str_or(json_object_get(view, "status"), "active");   /* a cancelled game is over too */
    bool finished = strcmp(status, "active") != 0;
    printf("\nseq %lld, turn %lld, %s, %lld tiles left\n", (long long)json_integer_value(json_object_get(view, "seq")),
           (long long)json_integer_value(json_object_get(view, "turn")), status,
           (long long)json_integer_value(json_object_get(view, "stack_left")));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(view, "players"), i, p) {
        bool turn = !finished && json_integer_value(json_object_get(pending, "seat")) == (json_int_t)i;
        printf("%s seat %zu  %-20s %4lld points  meeples %lld\n", turn ? ">" : " ", i,
               str_or(json_object_get(p, "name"), ""),
               (long long)json_integer_value(json_object_get(p, "score")),
               (long long)json_integer_value(json_object_get(json_object_get(p, "supply"), "meeple")));
    }
    if (!finished) {
        const char *kind = json_string_value(json_object_get(pending, "kind"));
        const char *tile = json_string_value(json_object_get(pending, "tile"));
        printf("waiting for seat %lld: %s%s%s\n", (long long)json_integer_value(json_object_get(pending, "seat")),
               kind ? kind : "?", tile ? " " : "", tile ? tile : "");
    }
}

/* A copy of `o` (a set-up or a snapshot) whose options are complete, as the engine reads them: an export of
 * a game from before an option existed lacks it, and the game was played with the value the option table
 * gives such games (ask_forced: true), not with the default a new game would get. */
static json_t *with_full_options(const json_t *o)
{
    json_t *c = json_deep_copy(o);
    uint8_t opt[CARC_NOPTS];
    char err[128];
    if (c && carc_options_from_json(opt, json_object_get(c, "options"), false, err, sizeof err) == 0)
        json_object_set_new(c, "options", carc_options_to_json(opt));
    return c;
}

/* ---- local replay ---------------------------------------------------------------------------------------- */
/* An export's set-up and seed as a carc_setup: the set-up decoded as carcd decodes it for a replay
 * (carc_setup_from_json: the script's stack, sheep, fruit and hands). */
static void setup_of(const json_t *ex, carc_setup *s)
{
    char err[256];
    if (carc_setup_from_json(&cat, json_object_get(ex, "setup"), s, err, sizeof err)) {
        fprintf(stderr, "carcctl: the export's set-up: %s\n", err);
        exit(EXIT_CHECK);
    }
    const char *hex = str_or(json_object_get(ex, "seed"), "");
    for (int k = 0; k < 32; k++) {
        unsigned v;
        if (strlen(hex) != 64 || sscanf(hex + 2 * k, "%2x", &v) != 1) {
            fprintf(stderr, "carcctl: the export's seed is not 64 hex digits\n");
            exit(EXIT_CHECK);
        }
        s->seed[k] = (uint8_t)v;
    }
}

/* The admin view of a local state with the export's names and `seq`, for printing. */
static json_t *local_view(const carc_state *st, const json_t *ex, int seq)
{
    json_t *v = carc_view_to_json(st, CARC_VIEW_ADMIN);
    json_object_set_new(v, "seq", json_integer(seq));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(v, "players"), i, p) {
        json_t *name = json_object_get(json_array_get(json_object_get(ex, "players"), i), "name");
        if (name)
            json_object_set(p, "name", name);
    }
    return v;
}

/* METHOD /v1/admin/games/{id}{suffix} with the admin token: the answer, or the program ends with the problem */
static json_t *admin_game(const char *method, const char *id, const char *suffix)
{
    need_token();
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/games/%s%s", id, suffix);
    return must(server, token, method, path, NULL, 200);
}

static json_t *fetch_export(const char *id)
{
    return admin_game("GET", id, "/export");
}

/* Replays the export up to seq `to` (-1: all) into *st; prints the board after every move with `each`.
 * Returns the seq reached. */
static int replay_local(const json_t *ex, int to, bool each, carc_state *st)
{
    carc_setup s;
    setup_of(ex, &s);
    char err[256];
    if (carc_game_new(st, &cat, &s, NULL, err, sizeof err)) {
        fprintf(stderr, "carcctl: the set-up does not start a game: %s\n", err);
        exit(EXIT_CHECK);
    }
    int seq = 0;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        int mseq = (int)json_integer_value(json_object_get(m, "seq"));
        if (to >= 0 && mseq > to)
            break;
        int seat = (int)json_integer_value(json_object_get(m, "seat"));
        /* a move, or a seat leaving ({"kind":"leave"}: resigned or forfeited), as carcd's replay applies it */
        if (carc_logged_move_apply(st, seat, json_object_get(m, "move"), NULL, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %d (seat %d) does not apply: %s\n", mseq, seat, err);
            exit(EXIT_CHECK);
        }
        seq = mseq;
        if (each) {
            json_t *v = local_view(st, ex, seq);
            printf("==== after move %d\n", seq);
            print_board(v);
            json_decref(v);
        }
    }
    return seq;
}

/* ---- commands -------------------------------------------------------------------------------------------- */
/* Every command takes --json and --help besides its own options. */
#define COMMON_OPTS {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}
#define OPT_JSON case 'j': json_out = true; break

/* The game id of a command that takes one and only the common options */
static const char *only_game_arg(const char *name, int argc, char **argv)
{
    const command *c = find_command(name);
    static const struct option opts[] = {COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;)
        if (o == 'j')
            json_out = true;
    return positional(c, argc, argv, 1)[0];
}

/* A listed game's seat count: its players, or a waiting game's seats asked for (its nplayers is 0 until the
 * start). */
static long long players_of(const json_t *g)
{
    const json_t *asked = json_object_get(g, "seats_asked");
    return json_is_integer(asked) ? json_integer_value(asked) : json_integer_value(json_object_get(g, "nplayers"));
}

static int cmd_list(int argc, char **argv)
{
    const command *c = find_command("list");
    const char *status = NULL;
    long players = -1, waiting = -1, limit = -1;
    static const struct option opts[] = {{"status", required_argument, NULL, 's'},
                                         {"players", required_argument, NULL, 'p'},
                                         {"waiting-for", required_argument, NULL, 'w'},
                                         {"limit", required_argument, NULL, 'l'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': status = optarg; break;
        case 'p': players = int_arg(c, optarg, "--players", 2); break;
        case 'w': waiting = int_arg(c, optarg, "--waiting-for", 0); break;
        case 'l': limit = int_arg(c, optarg, "--limit", 1); break;
        OPT_JSON;
        }
    }
    positional(c, argc, argv, 0);
    static const char *const statuses[] = {"waiting", "active", "finished", "cancelled", NULL};
    bool known = !status;
    for (int i = 0; status && statuses[i]; i++)
        known = known || strcmp(status, statuses[i]) == 0;
    if (!known)
        usage_error(c, "list: --status is waiting, active, finished or cancelled, not %s", status);
    need_token();
    char cursor[80] = "";
    long shown = 0;
    json_t *all = json_array();
    for (int page = 0; page < 100000; page++) {
        char path[300];
        snprintf(path, sizeof path, "/v1/admin/games?limit=200%s%s%s%s", status ? "&status=" : "", status ? status : "",
                 cursor[0] ? "&cursor=" : "", cursor);
        json_t *pg = must(server, token, "GET", path, NULL, 200);
        size_t i;
        json_t *g;
        json_array_foreach(json_object_get(pg, "games"), i, g) {
            json_t *pend = json_object_get(g, "pending_seat");
            if (players >= 0 && players_of(g) != players)
                continue;
            if (waiting >= 0 && (!json_is_integer(pend) || json_integer_value(pend) != waiting))
                continue;
            if (limit >= 0 && shown >= limit)
                break;
            shown++;
            json_array_append(all, g);
        }
        const char *next = json_string_value(json_object_get(pg, "next_cursor"));
        snprintf(cursor, sizeof cursor, "%s", next ? next : "");
        json_decref(pg);
        if (!cursor[0] || (limit >= 0 && shown >= limit))
            break;
    }
    /* every page read before anything is printed: an HTTP error leaves no half table */
    if (json_out) {
        print_json(all);
        return 0;
    }
    printf("%-36s  %-8s %5s %7s %7s  %s\n", "id", "status", "seq", "players", "waiting", "created");
    size_t i;
    json_t *g;
    json_array_foreach(all, i, g) {
        json_t *pend = json_object_get(g, "pending_seat");
        {
            char wait[16] = "-", seats[24];
            if (json_is_integer(pend))
                snprintf(wait, sizeof wait, "%lld", (long long)json_integer_value(pend));
            const json_t *taken = json_object_get(g, "seats_taken");
            if (json_is_integer(taken))   /* a waiting game: "2/4", two of its four seats taken */
                snprintf(seats, sizeof seats, "%lld/%lld", (long long)json_integer_value(taken), players_of(g));
            else
                snprintf(seats, sizeof seats, "%lld", players_of(g));
            printf("%-36s  %-8s %5lld %7s %7s  %s\n", str_or(json_object_get(g, "id"), ""),
                   str_or(json_object_get(g, "status"), ""), (long long)json_integer_value(json_object_get(g, "seq")),
                   seats, wait, str_or(json_object_get(g, "created_at"), ""));
        }
    }
    json_decref(all);
    return 0;
}

static int cmd_show(int argc, char **argv)
{
    const command *c = find_command("show");
    long seq = -1;
    bool public_view = false;
    static const struct option opts[] = {{"seq", required_argument, NULL, 's'}, {"public", no_argument, NULL, 'p'},
                                         COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': seq = int_arg(c, optarg, "--seq", 0); break;
        case 'p': public_view = true; break;
        OPT_JSON;
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    json_t *v;
    char path[200];
    if (seq >= 0) {
        json_t *ex = fetch_export(id);
        carc_state *st = malloc(sizeof *st);
        if (!st)
            abort();
        int reached = replay_local(ex, (int)seq, false, st);
        v = local_view(st, ex, reached);
        if (public_view) {   /* the public view of the same state */
            json_t *pub = carc_view_to_json(st, CARC_VIEW_PUBLIC);
            json_object_set(pub, "seq", json_object_get(v, "seq"));
            json_object_set(pub, "players", json_object_get(v, "players"));
            json_decref(v);
            v = pub;
        }
        free(st);
        json_decref(ex);
    } else if (public_view) {
        snprintf(path, sizeof path, "/v1/games/%s", id);
        v = must(server, NULL, "GET", path, NULL, 200);
    } else {
        v = admin_game("GET", id, "");
    }
    if (json_out) {
        print_json(v);
        return 0;
    }
    print_board(v);
    print_scores(v);
    json_decref(v);
    return 0;
}

static int cmd_hidden(int argc, char **argv)
{
    json_t *v = admin_game("GET", only_game_arg("hidden", argc, argv), "");
    if (json_out) {   /* the hidden parts of the admin view */
        json_t *h = json_object();
        static const char *const hidden_keys[] = {"seed", "seed_sha256", "rng", "stack_remaining", NULL};
        for (int k = 0; hidden_keys[k]; k++)
            if (json_object_get(v, hidden_keys[k]))
                json_object_set(h, hidden_keys[k], json_object_get(v, hidden_keys[k]));
        json_t *under = json_array();
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(v, "board"), i, t) if (json_is_string(json_object_get(t, "under")))
            json_array_append_new(under, json_pack("{s:O, s:O, s:O, s:O}", "tile", json_object_get(t, "tile"), "x",
                                                   json_object_get(t, "x"), "y", json_object_get(t, "y"), "under",
                                                   json_object_get(t, "under")));
        json_object_set_new(h, "under_hills", under);
        json_decref(v);
        print_json(h);
        return 0;
    }
    printf("seed         %s\n", str_or(json_object_get(v, "seed"), "?"));
    printf("seed_sha256  %s\n", str_or(json_object_get(v, "seed_sha256"), "?"));
    json_t *rng = json_object_get(v, "rng");
    printf("rng position %lld\n", (long long)json_integer_value(json_object_get(rng, "pos")));
    printf("stack, in draw order (%zu):", json_array_size(json_object_get(v, "stack_remaining")));
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(v, "stack_remaining"), i, t) printf(" %s", str_or(t, "?"));
    printf("\n");
    json_t *pieces = json_object_get(v, "board");
    int under = 0;
    json_array_foreach(pieces, i, t) {
        const char *u = json_string_value(json_object_get(t, "under"));
        if (u) {
            printf("under the hill %s at (%lld, %lld): %s\n", str_or(json_object_get(t, "tile"), "?"),
                   (long long)json_integer_value(json_object_get(t, "x")),
                   (long long)json_integer_value(json_object_get(t, "y")), u);
            under++;
        }
    }
    if (!under)
        printf("no tile under a hill\n");
    /* anything else the admin view holds that the public one does not (expansion state) */
    static const char *const shown_keys[] = {"seed", "seed_sha256", "rng", "stack", "stack_remaining", "stack_pos",
                                             "board", "players", "figures", "pending", "setup", "options",
                                             "expansions", "id", "seq", "status", "turn", "active", "nplayers",
                                             "version", "discarded", "stack_left", "created_at", "updated_at",
                                             "finished_at", "winners", NULL};
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
        bool known = false;
        for (int k = 0; shown_keys[k] && !known; k++)
            known = strcmp(key, shown_keys[k]) == 0;
        if (!known) {
            char *txt = json_dumps(val, JSON_COMPACT | JSON_ENCODE_ANY);
            printf("%s: %s\n", key, txt ? txt : "?");
            free(txt);
        }
    }
    json_decref(v);
    return 0;
}

static int cmd_verify(int argc, char **argv)
{
    json_t *v = admin_game("POST", only_game_arg("verify", argc, argv), "/verify");
    bool ok = json_is_true(json_object_get(v, "ok"));
    if (json_out) {
        print_json(v);
        return ok ? 0 : EXIT_CHECK;
    }
    if (ok)
        printf("ok: the log replays to the stored state (seq %lld)\n", (long long)json_integer_value(json_object_get(v, "seq")));
    else
        printf("MISMATCH at seq %lld: %s\n", (long long)json_integer_value(json_object_get(v, "failed_at_seq")),
               str_or(json_object_get(v, "reason"), "?"));
    json_decref(v);
    return ok ? 0 : EXIT_CHECK;
}

/* The first member of the replay's view (the engine's view, as the admin sees it) that the server's own view of
 * the game, served from its stored state, has otherwise (a member it does not show is not compared); NULL when
 * none. The export's snapshot is no witness of the stored state: the server makes it by replaying the log. */
static const char *served_differs(const json_t *local, const json_t *served)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)local, k, v) {
        if (strcmp(k, "players") == 0) {   /* the server's seats say more (a bot, a mail): their scores and supplies */
            size_t i;
            json_t *p;
            json_array_foreach(v, i, p) {
                json_t *q = json_array_get(json_object_get(served, "players"), i);
                if (!json_equal(json_object_get(p, "score"), json_object_get(q, "score")) ||
                    !json_equal(json_object_get(p, "supply"), json_object_get(q, "supply")))
                    return "players";
            }
        } else if (json_object_get(served, k) && !json_equal(v, json_object_get(served, k))) {
            return k;
        }
    }
    return NULL;
}

static int cmd_replay(int argc, char **argv)
{
    const command *c = find_command("replay");
    long to = -1;
    bool each = false;
    static const struct option opts[] = {{"to", required_argument, NULL, 't'}, {"each", no_argument, NULL, 'e'},
                                         COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 't': to = int_arg(c, optarg, "--to", 0); break;
        case 'e': each = true; break;
        OPT_JSON;
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    if (json_out && each)
        usage_error(c, "replay: --each prints boards; with --json the state after the last move is printed");
    json_t *ex = fetch_export(id);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    int seq = replay_local(ex, (int)to, each, st);
    int rc = 0;
    if (!each && !json_out) {
        json_t *v = local_view(st, ex, seq);
        print_board(v);
        print_scores(v);
        json_decref(v);
    }
    if (to < 0 || to >= json_integer_value(json_object_get(ex, "seq"))) {
        json_t *snap = carc_state_to_json(st);
        json_object_del(json_object_get(snap, "rng"), "seed");
        json_t *stored = with_full_options(json_object_get(ex, "snapshot"));
        json_t *local = local_view(st, ex, seq), *served = admin_game("GET", id, "");
        const char *member = served_differs(local, served);
        rc = json_equal(snap, stored) && !member ? 0 : EXIT_CHECK;
        json_decref(stored);
        if (!json_out && member)
            printf("MISMATCH: the server's game (its stored state) differs from the replay of its log in \"%s\"\n",
                   member);
        else if (!json_out)
            printf(rc ? "MISMATCH: the local replay differs from the server's state\n"
                      : "ok: the local replay reaches the server's state\n");
        json_decref(local);
        json_decref(served);
        json_decref(snap);
    }
    if (json_out) {   /* the state reached, as the admin sees it, and whether it is the server's */
        json_t *out = json_pack("{s:i, s:o}", "seq", seq, "view", local_view(st, ex, seq));
        if (to < 0 || to >= json_integer_value(json_object_get(ex, "seq")))
            json_object_set_new(out, "same_state", json_boolean(rc == 0));
        print_json(out);
    }
    free(st);
    json_decref(ex);
    return rc;
}

static int cmd_export(int argc, char **argv)
{
    const command *c = find_command("export");
    const char *file = NULL;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":ho:", opts)) != -1;) {
        switch (o) {
        case 'o': file = optarg; break;
        OPT_JSON;   /* the export is JSON anyway */
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    json_t *ex = fetch_export(id);
    FILE *f = file ? fopen(file, "w") : stdout;
    if (!f) {
        perror(file);
        json_decref(ex);
        return EXIT_USAGE;
    }
    json_dumpf(ex, f, JSON_INDENT(2));
    fputc('\n', f);
    if (f != stdout)
        fclose(f);
    json_decref(ex);
    return 0;
}

/* One logged move of an export applied to a local state, as carcd's replay applies it (a move, or a seat
 * leaving: {"kind":"leave"}); the events into ev (may be NULL). */
static int apply_logged(carc_state *st, const json_t *m, carc_events *ev, char *err, size_t errlen)
{
    return carc_logged_move_apply(st, (int)json_integer_value(json_object_get(m, "seat")), json_object_get(m, "move"),
                                  ev, err, errlen);
}

/* --stack-script: a script for every random draw the original game made, not only its stack. The seed also
 * dealt the triangles (halflings), stacked the fruit (fruit trees) and drew from the bag (hills & sheep) after
 * the shuffle; with the stack scripted there is no shuffle, so the same seed would deal and draw otherwise,
 * and the original's moves stop fitting (a triangle the seat does not hold). So the export is replayed here
 * with libcarc and what each draw gave is scripted too: the new game uses no randomness at all. NULL (and a
 * message) when the game cannot be scripted. */
static json_t *script_of_draws(const json_t *ex)
{
    carc_setup s;
    setup_of(ex, &s);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    char err[256];
    carc_events ev = {0};
    json_t *script = NULL;
    if (carc_game_new(st, &cat, &s, NULL, err, sizeof err)) {
        fprintf(stderr, "carcctl: the export's set-up does not start a game here: %s\n", err);
        goto out;
    }
    script = json_pack("{s:O}", "stack", json_object_get(ex, "stack"));
    if (carc_has(st, CARC_SET_HALFLINGS) && st->half.pool_n == 0) {   /* dealt at random (a draft is not) */
        json_t *hands = json_array();
        for (int seat = 0; seat < st->nplayers; seat++) {
            json_t *h = json_array();
            for (int i = 0; i < st->half.hand_n[seat]; i++)
                json_array_append_new(h, json_string(cat.types[st->half.hand[seat][i]].id));
            json_array_append_new(hands, h);
        }
        json_object_set_new(script, "hands", hands);
    }
    if (carc_has(st, CARC_SET_FRUIT_TREES)) {
        json_t *fruit = json_object();
        for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
            json_t *a = json_array();
            for (int k = CARC_FRUIT_STACK - 1; k >= 0; k--)   /* the script is top first */
                json_array_append_new(a, json_integer(st->fruit.stack[t][k]));
            json_object_set_new(fruit, carc_fruit_names[t], a);
        }
        json_object_set_new(script, "fruit", fruit);
    }
    json_t *sheep = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        carc_events_clear(&ev);
        if (apply_logged(st, m, &ev, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %lld of the export does not replay here: %s\n",
                    (long long)json_integer_value(json_object_get(m, "seq")), err);
            json_decref(sheep);
            json_decref(script);
            script = NULL;
            goto out;
        }
        for (size_t k = 0; k < ev.n; k++)
            if (ev.v[k].kind == CARC_EV_TOKEN_DRAWN)
                json_array_append_new(sheep, ev.v[k].value == CARC_WOLF ? json_string("wolf")
                                                                        : json_integer(ev.v[k].value));
    }
    if (json_array_size(sheep) > CARC_MAX_SCRIPT) {
        fprintf(stderr, "carcctl: the game drew %zu times from the sheep bag; a script holds %d: import it "
                        "without --stack-script\n", json_array_size(sheep), CARC_MAX_SCRIPT);
        json_decref(sheep);
        json_decref(script);
        script = NULL;
        goto out;
    }
    if (json_array_size(sheep) > 0)
        json_object_set_new(script, "sheep", sheep);
    else
        json_decref(sheep);
out:
    carc_events_free(&ev);
    free(st);
    return script;
}

/* Replays the export's moves here from the set-up the import will send (its seed and `script`): whether every
 * one applies, so that a game the server would refuse half-way is never created. */
static bool import_replays(const json_t *ex, const json_t *script)
{
    json_t *copy = json_deep_copy(ex);
    json_t *setup = json_object_get(copy, "setup");
    if (script)
        json_object_set(setup, "script", (json_t *)script);
    else
        json_object_del(setup, "script");
    carc_setup s;
    setup_of(copy, &s);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    char err[256];
    bool ok = carc_game_new(st, &cat, &s, NULL, err, sizeof err) == 0;
    if (!ok)
        fprintf(stderr, "carcctl: the set-up would not start a game: %s\n", err);
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(copy, "moves"), i, m) {
        if (!ok)
            break;
        if (apply_logged(st, m, NULL, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %lld (seat %lld) would be refused: %s; nothing was imported\n",
                    (long long)json_integer_value(json_object_get(m, "seq")),
                    (long long)json_integer_value(json_object_get(m, "seat")), err);
            ok = false;
        }
    }
    free(st);
    json_decref(copy);
    return ok;
}

static int cmd_import(int argc, char **argv)
{
    const command *c = find_command("import");
    bool stack_script = false;
    static const struct option opts[] = {{"stack-script", no_argument, NULL, 's'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': stack_script = true; break;
        OPT_JSON;   /* the answer is JSON anyway */
        }
    }
    const char *file = positional(c, argc, argv, 1)[0];
    need_token();
    json_error_t e;
    json_t *ex = json_load_file(file, 0, &e);
    if (!ex || strcmp(str_or(json_object_get(ex, "format"), ""), "carcd-export/1") != 0) {
        fprintf(stderr, "carcctl: %s: not a carcd export (%s)\n", file, ex ? "format" : e.text);
        json_decref(ex);
        return EXIT_USAGE;
    }
    size_t i;
    json_t *p;
    /* a seat left to a bot (bot_after_leave) plays on with no token to post its moves: not importable */
    json_array_foreach(json_object_get(ex, "moves"), i, p) {
        if (carc_move_is_leave_to_bot(json_object_get(p, "move"))) {
            fprintf(stderr, "carcctl: %s: move %lld left seat %lld to a bot; an import posts every move with its seat's "
                            "token, which a bot's seat does not take: not imported\n",
                    file, (long long)json_integer_value(json_object_get(p, "seq")),
                    (long long)json_integer_value(json_object_get(p, "seat")));
            json_decref(ex);
            return EXIT_CHECK;
        }
    }
    const json_t *setup = json_object_get(ex, "setup");
    json_t *req = json_object();
    json_t *players = json_array();
    json_array_foreach(json_object_get(ex, "players"), i, p)
        json_array_append_new(players, json_pack("{s:O}", "name", json_object_get(p, "name")));
    json_object_set_new(req, "players", players);
    json_object_set(req, "expansions", json_object_get(setup, "expansions"));
    json_t *full = with_full_options(setup);
    json_object_set(req, "options", json_object_get(full, "options"));
    json_decref(full);
    json_object_set(req, "seed", json_object_get(ex, "seed"));
    if (json_is_object(json_object_get(ex, "clock")))   /* its settings; the copy's clock starts now */
        json_object_set(req, "clock", json_object_get(ex, "clock"));
    /* the original's script (or none: the seed alone deals the same stack); --stack-script: every draw */
    json_t *script = stack_script ? script_of_draws(ex) : json_deep_copy(json_object_get(setup, "script"));
    if (stack_script && !script) {
        json_decref(req);
        json_decref(ex);
        return EXIT_CHECK;
    }
    if (!import_replays(ex, script)) {
        json_decref(script);
        json_decref(req);
        json_decref(ex);
        return EXIT_CHECK;
    }
    if (script)
        json_object_set_new(req, "script", script);
    json_t *created = must(server, token, "POST", "/v1/games", req, 201);
    json_decref(req);
    const char *id = str_or(json_object_get(created, "id"), "");
    json_t *toks = json_object_get(created, "players");
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        int seq = (int)json_integer_value(json_object_get(m, "seq"));
        int seat = (int)json_integer_value(json_object_get(m, "seat"));
        const char *tok = json_string_value(json_object_get(json_array_get(toks, (size_t)seat), "token"));
        /* a seat that left (resigned, or forfeited on time) is logged as {"kind":"leave"}: it resigns here */
        bool leave = carc_move_is_leave(json_object_get(m, "move"));
        json_t *body = leave ? json_object()
                             : json_pack("{s:i, s:O}", "expected_seq", seq - 1, "move", json_object_get(m, "move"));
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/%s", id, leave ? "resign" : "moves");
        long st;
        json_t *ans = http(server, tok, "POST", path, body, &st, NULL);
        json_decref(body);
        if (st != 200) {
            /* it replayed here, so the server changed under us or failed: say which game is left half-way */
            fprintf(stderr, "carcctl: move %d of the export was refused (HTTP %ld): %s; game %s is left at seq %d\n",
                    seq, st, str_or(json_object_get(ans, "detail"), "?"), id, seq - 1);
            json_decref(ans);
            json_decref(created);
            json_decref(ex);
            return EXIT_CHECK;
        }
        json_decref(ans);
    }
    /* the admin's cancel is the log's last entry, which an export's moves (the seats') leave out: without it
     * the copy of a cancelled game would be a game under way */
    if (strcmp(str_or(json_object_get(ex, "status"), ""), "cancelled") == 0) {
        char path[200], reason[200];
        snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", id);
        snprintf(reason, sizeof reason, "imported from game %.36s, which was cancelled",
                 str_or(json_object_get(ex, "id"), "?"));
        json_t *body = json_pack("{s:s}", "reason", reason);
        json_decref(must(server, token, "POST", path, body, 200));
        json_decref(body);
    }
    /* the same final state? (with a stack script the random stream stands elsewhere: rng not compared) */
    json_t *mine = fetch_export(id);
    json_t *a = with_full_options(json_object_get(mine, "snapshot")), *b = with_full_options(json_object_get(ex, "snapshot"));
    if (stack_script) {   /* and the sheep draws were scripted: the bag's script is the import's own */
        json_object_del(a, "rng");
        json_object_del(b, "rng");
        json_object_del(json_object_get(a, "hills_sheep"), "script");
        json_object_del(json_object_get(a, "hills_sheep"), "script_pos");
        json_object_del(json_object_get(b, "hills_sheep"), "script");
        json_object_del(json_object_get(b, "hills_sheep"), "script_pos");
    }
    bool same = json_equal(a, b) && json_equal(json_object_get(mine, "status"), json_object_get(ex, "status"));
    json_decref(a);
    json_decref(b);
    json_decref(mine);
    json_t *out = json_pack("{s:s, s:O, s:b}", "id", id, "players", toks, "same_state", same);
    json_dumpf(out, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    fprintf(stderr, "carcctl: imported as %s, %zu moves, %s\n", id, json_array_size(json_object_get(ex, "moves")),
            same ? "same final state" : "the final state DIFFERS");
    json_decref(out);
    json_decref(created);
    json_decref(ex);
    return same ? 0 : EXIT_CHECK;
}

static int cmd_audit(int argc, char **argv)
{
    const command *c = find_command("audit");
    const char *game = NULL, *action = NULL;
    long limit = 50;
    static const struct option opts[] = {{"game", required_argument, NULL, 'g'},
                                         {"action", required_argument, NULL, 'a'},
                                         {"limit", required_argument, NULL, 'l'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 'g': game = optarg; break;
        case 'a': action = optarg; break;
        case 'l': limit = int_arg(c, optarg, "--limit", 1); break;
        OPT_JSON;
        }
    }
    positional(c, argc, argv, 0);
    if (limit > 500)   /* GET /v1/admin/audit's most */
        usage_error(c, "audit: --limit is at most 500, not %ld", limit);
    need_token();
    char path[400], *qg = query_escape(game ? game : ""), *qa = query_escape(action ? action : "");
    snprintf(path, sizeof path, "/v1/admin/audit?limit=%ld%s%s%s%s", limit, game ? "&game=" : "", qg,
             action ? "&action=" : "", qa);
    curl_free(qg);
    curl_free(qa);
    json_t *v = must(server, token, "GET", path, NULL, 200);
    if (json_out) {
        print_json(json_incref(json_object_get(v, "entries")));
        json_decref(v);
        return 0;
    }
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(v, "entries"), i, e) {
        const json_t *a = json_object_get(e, "actor");
        printf("%6s  %s  %-20s %-36s %s%s%s %s\n", str_or(json_object_get(e, "id"), ""), str_or(json_object_get(e, "at"), ""),
               str_or(json_object_get(e, "action"), ""), str_or(json_object_get(e, "game_id"), "-"),
               str_or(json_object_get(a, "id"), ""), json_is_string(json_object_get(a, "name")) ? " " : "",
               str_or(json_object_get(a, "name"), ""), str_or(json_object_get(a, "address"), ""));
    }
    json_decref(v);
    return 0;
}

static int cmd_help(int argc, char **argv);

const command commands[] = {
    {"list", cmd_list, "[--status waiting|active|finished|cancelled] [--players N] [--waiting-for SEAT] [--limit N]",
     "lists games, oldest first (every page of GET /v1/admin/games), filtered"},
    {"show", cmd_show, "ID [--seq N] [--public]",
     "prints an ASCII board and the scores: the admin's view, --public what anyone sees, --seq N after move N"},
    {"hidden", cmd_hidden, "ID", "prints the hidden state: the seed, the stack still to draw in order, tiles under hills"},
    {"verify", cmd_verify, "ID", "asks the server to replay the game's log; exit 1 when it does not match"},
    {"replay", cmd_replay, "ID [--to N] [--each]",
     "replays the game here with libcarc (after move N, or printing every board); exit 1 when the end differs"},
    {"export", cmd_export, "ID [-o FILE]", "writes the game's export (set-up, seed, stack, players, moves) as JSON"},
    {"import", cmd_import, "FILE [--stack-script]",
     "creates the exported game here with its seed (--stack-script: every draw scripted, for another tile set) and "
     "posts its moves (a cancelled game's copy is cancelled too); prints the new id and tokens, exit 1 when the final "
     "state differs; nothing is created when a move would be refused"},
    {"audit", cmd_audit, "[--game ID] [--action NAME] [--limit N]", "prints the audit log of admin actions, newest first"},
    {"help", cmd_help, "[COMMAND]", "prints this help, or a command's"},
    {NULL, NULL, NULL, NULL},
};

static const command *find_command(const char *name)
{
    for (const command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static int cmd_help(int argc, char **argv)
{
    const command *c = argc > 1 ? find_command(argv[1]) : NULL;
    if (argc > 1 && !c)
        usage_error(NULL, "help: no command %s", argv[1]);
    if (c)
        print_command_help(stdout, c);
    else
        print_usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *env = getenv("CARCCTL_SERVER");
    if (env && *env)
        server = env;
    token = getenv("CARCD_ADMIN_TOKEN");
    actor = getenv("USER");
    /* the global flags, up to the command ("+": stop at the first argument that is not a flag) */
    static const struct option opts[] = {{"server", required_argument, NULL, 's'},
                                         {"token", required_argument, NULL, 't'},
                                         {"as", required_argument, NULL, 'a'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'}, {0}};
    opterr = 0;
    for (int o; (o = getopt_long(argc, argv, "+:h", opts, NULL)) != -1;) {
        switch (o) {
        case 's': server = optarg; break;
        case 't': token = optarg; break;
        case 'a': actor = optarg; break;
        case 'j': json_out = true; break;
        case 'h': print_usage(stdout); return 0;
        case ':': usage_error(NULL, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt)
                usage_error(NULL, "unknown flag -%c", optopt);
            usage_error(NULL, "unknown flag %s", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const command *c = find_command(argv[optind]);
    if (!c)
        usage_error(NULL, "unknown command %s", argv[optind]);
    if (strncmp(server, "http://", 7) != 0 && strncmp(server, "https://", 8) != 0)
        usage_error(NULL, "--server (or CARCCTL_SERVER) is an http:// or https:// URL, not %s", server);
    char base[1024];   /* paths are added to it: "http://h:8080/" would make "//v1/..." */
    snprintf(base, sizeof base, "%s", server);
    for (size_t n = strlen(base); n > 8 && base[n - 1] == '/'; n--)
        base[n - 1] = 0;
    server = base;
    char **rest = argv + optind;
    int n = argc - optind;
    if (c->run == cmd_help)
        return cmd_help(n, rest);
    char err[256];
    if (carc_catalog_load(&cat, err, sizeof err)) {
        fprintf(stderr, "carcctl: tile data: %s\n", err);
        return EXIT_CHECK;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    optind = 0;   /* glibc: start getopt afresh for the command's own flags */
    int rc = c->run(n, rest);
    curl_global_cleanup();
    return rc;
}
