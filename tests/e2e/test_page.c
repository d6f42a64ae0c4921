/*
 * test_page.c — the game page played in a real browser: Debian's headless Chromium driven through the
 * Chrome DevTools Protocol (cdp.h). Three seats play a complete game with all four expansions by clicking
 * (or, on a phone viewport, tapping) only the page's data-notation elements and its rotate and triangle
 * buttons, the choice among them made by a fixed seed; after every click the REST API must show the move
 * made (seq one on, the log entry carrying the clicked notation), and the page's data-notation elements
 * must be exactly the seat's legal moves. Also: a bad token shows a message and nothing else, a move the
 * turn clock makes shows up on an open page, two tabs of one seat stay in step, and the assets' caching.
 *
 * With CARCD_SCREENSHOTS=<dir> the screenshots are kept there (page-<viewport>-start/middle/end.png, ...).
 */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cdp.h"
#include "e2e.h"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- screenshots' pixels ---------------------------------------------------------------------------------- */
typedef struct {
    const unsigned char *p;
    size_t len, off;
} png_src;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int n)
{
    png_src *s = closure;
    if (s->off + n > s->len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, s->p + s->off, n);
    s->off += n;
    return CAIRO_STATUS_SUCCESS;
}

/* Pixels of the whole picture close to colour rgb (0xRRGGBB). */
static long colour_pixels(const unsigned char *png, size_t len, uint32_t rgb)
{
    png_src src = {png, len, 0};
    cairo_surface_t *s = cairo_image_surface_create_from_png_stream(png_read, &src);
    ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *d = cairo_image_surface_get_data(s);
    long n = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(d + y * stride + x * 4);
            int dr = (int)((px >> 16) & 255) - (int)((rgb >> 16) & 255);
            int dg = (int)((px >> 8) & 255) - (int)((rgb >> 8) & 255);
            int db = (int)(px & 255) - (int)(rgb & 255);
            if (dr * dr + dg * dg + db * db < 12 * 12)
                n++;
        }
    cairo_surface_destroy(s);
    return n;
}

/* A screenshot that must show a drawn board: fields and cities. */
static void shot(browser *b, const char *name)
{
    size_t len;
    unsigned char *png = screenshot(b, &len, name);
    ck_assert_msg(len > 5000 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "%s: not a PNG (%zu bytes)", name, len);
    long field = colour_pixels(png, len, 0x8cc063), city = colour_pixels(png, len, 0xd8b26e);
    ck_assert_msg(field > 1000 && city > 100, "%s: %ld field and %ld city pixels", name, field, city);
    free(png);
}

/* ---- the page and the server ------------------------------------------------------------------------------- */
static int server_seq(e2e_client *c, const e2e_game *g, json_t **view_out)
{
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seq = (int)e2e_jint(v, "seq");
    if (view_out)
        *view_out = v;
    else
        json_decref(v);
    return seq;
}

/* Waits until the current tab shows seq `seq`, ready and not busy with a move. */
static void wait_page_seq(browser *b, int seq, const char *what)
{
    char expr[300], want[16];
    snprintf(expr, sizeof expr,
             "document.body.dataset.ready==='1'&&document.body.dataset.busy!=='1'?document.body.dataset.seq:'-'");
    snprintf(want, sizeof want, "%d", seq);
    wait_for(b, expr, want, what);
}

/* Opens game id's page in tab t, a desktop's size, as the seat of token (NULL: as a spectator), and waits for
 * it at seq 0. */
static void game_tab_open(browser *b, tab *t, const e2e_daemon *d, const char *id, const char *token,
                          const char *what)
{
    char url[400];
    snprintf(url, sizeof url, "%s/games/%s%s%s", d->base, id, token ? "#token=" : "", token ? token : "");
    tab_open(b, t, url, 1280, 900, false);
    wait_page_seq(b, 0, what);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The seat's legal notations from the REST API, sorted, as compact JSON text (malloc'd); *n gets how many. */
static char *legal_notations(e2e_client *c, const e2e_game *g, int seat, int *n)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g->id);
    json_t *l = e2e_get_ok(c, path, g->token[seat], 200);
    json_t *moves = json_object_get(l, "moves");
    size_t k = json_array_size(moves);
    const char **s = calloc(k + 1, sizeof *s);
    for (size_t i = 0; i < k; i++)
        s[i] = json_string_value(json_object_get(json_array_get(moves, i), "notation"));
    qsort(s, k, sizeof *s, cmp_str);
    json_t *arr = json_array();
    for (size_t i = 0; i < k; i++)
        json_array_append_new(arr, json_string(s[i]));
    char *text = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    free(s);
    json_decref(l);
    *n = (int)k;
    return text;
}

static const char PAGE_NOTATIONS[] =
    "JSON.stringify([...new Set([...document.querySelectorAll('[data-notation]')].map(e=>e.getAttribute("
    "'data-notation')))].sort())";

/* The page's data-notation elements must be the legal moves, every one and nothing else (a crop circle's
 * follower action is offered twice: a mark on the follower's piece, and a button in words). */
static void check_choices(browser *b, const char *want, const char *what)
{
    double t0 = e2e_now();
    char *got = NULL;
    do {   /* the page may still be drawing the decision the server just reached */
        free(got);
        got = js_str(b, PAGE_NOTATIONS);
        if (strcmp(got, want) == 0) {
            free(got);
            return;
        }
        nap_ms(50);
    } while (e2e_now() - t0 < 10);
    ck_abort_msg("%s: the page offers %s, the server %s", what, got, want);
}

/* ---- a complete game by clicks ----------------------------------------------------------------------------- */
/* A short scripted stack and a fixed seed (the sheep bag, the fruit stacks), so that the game is the same
 * every run and holds every kind of decision of the four expansions. */
static const char GAME_SETUP[] =
    "{\"seed\":\"1919191919191919191919191919191919191919191919191919191919191919\","
    "\"expansions\":[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"],"
    "\"options\":{\"halflings_deal\":\"draft\",\"abbot\":true,\"ask_forced\":true},"
    "\"script\":{\"stack\":[\"FT01\",\"CC03\",\"HS08\",\"E\",\"U\",\"FT02\",\"CC04\",\"HS09\",\"B\",\"V\","
    "\"CC01\",\"HS13\",\"K\",\"FT05\",\"J\",\"HS15\",\"CC05\",\"A\"]}}";

static void play_game(const char *viewport, int width, int height, bool phone, uint64_t seed)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, NULL, GAME_SETUP, true, &g), 201);
    browser b;
    browser_start(&b);
    tab tabs[3];
    for (int s = 0; s < 3; s++) {
        char url[300];
        snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[s]);
        tab_open(&b, &tabs[s], url, width, height, phone);
    }
    for (int s = 0; s < 3; s++) {
        tab_use(&b, &tabs[s]);
        wait_page_seq(&b, 0, "the page loaded");
        wait_for(&b, "document.body.dataset.live", "1", "the events stream is open");
    }
    e2e_rng rng = {seed};
    int moves = 0, kinds_seen = 0;
    bool middle = false;
    const char *kinds[] = {"draft", "place", "figure", "draw_or_triangle", "fruit", "flock", "crop_circle_choice",
                           "crop_circle_action"};
    char name[120];
    for (;;) {
        json_t *v;
        int seq = server_seq(c, &g, &v);
        const char *status = e2e_jstr(v, "status");
        if (strcmp(status, "finished") == 0) {
            json_decref(v);
            break;
        }
        int seat = (int)e2e_jint(v, "pending.seat");
        const char *kind = e2e_jstr(v, "pending.kind");
        for (int k = 0; k < 8; k++)
            if (strcmp(kind, kinds[k]) == 0)
                kinds_seen |= 1 << k;
        int stack_left = (int)e2e_jint(v, "stack_left");
        json_decref(v);
        ck_assert_msg(seat >= 0 && seat < 3, "pending seat %d", seat);
        tab *t = &tabs[seat];
        tab_use(&b, t);
        wait_page_seq(&b, seq, "the mover's page is up to date");
        if (moves == 0) {
            snprintf(name, sizeof name, "page-%s-start.png", viewport);
            shot(&b, name);
        }
        if (!middle && stack_left <= 9) {
            middle = true;
            snprintf(name, sizeof name, "page-%s-middle.png", viewport);
            shot(&b, name);
        }
        int n;
        char *want = legal_notations(c, &g, seat, &n);
        ck_assert_msg(n > 0, "seat %d has no legal move at seq %d", seat, seq);
        check_choices(&b, want, "the choices");
        json_t *list = json_loads(want, 0, NULL);
        const char *pick = json_string_value(json_array_get(list, e2e_rng_below(&rng, (uint32_t)n)));
        char sel[300];
        snprintf(sel, sizeof sel, "document.querySelector('[data-notation=\"%s\"]')", pick);
        /* a placement of another rotation is hidden: turn the tile with its button; a triangle: pick it */
        for (int turns = 0; turns < 4; turns++) {
            char expr[400];
            snprintf(expr, sizeof expr, "%s.closest('.off')?'hidden':'shown'", sel);
            char *vis = js_str(&b, expr);
            bool hidden = strcmp(vis, "hidden") == 0;
            free(vis);
            if (!hidden)
                break;
            char tile[16] = "";
            sscanf(pick, "%15s", tile);
            snprintf(expr, sizeof expr, "document.querySelector('.triangle-pick[data-focus=\"triangle-%s\"]')", tile);
            json_t *tri = js(&b, expr);
            bool is_tri = !json_is_null(tri) && tri != NULL;
            json_decref(tri);
            /* the desktop turns it with the button, the phone with a tap on the tile itself */
            ck_assert(tap_element(&b, t, is_tri ? expr : phone ? "document.getElementById('drawn-tile')"
                                                                 : "document.querySelector('.rot-right')"));
            nap_ms(30);
        }
        ck_assert_msg(tap_element(&b, t, sel), "cannot click %s (seq %d)", pick, seq);
        /* the server moved: seq one on, and the log's entry is the clicked move */
        double t0 = e2e_now();
        int now = seq;
        while ((now = server_seq(c, &g, NULL)) == seq && e2e_now() - t0 < 15)
            nap_ms(30);
        if (now != seq + 1) {
            char *dbg = js_str(&b, "document.body.dataset.busy+' active='+(document.activeElement&&"
                                   "document.activeElement.outerHTML.slice(0,120))+' problem='+"
                                   "document.getElementById('problem').textContent");
            fprintf(stderr, "page: %s\n", dbg);
            free(dbg);
            size_t len;
            free(screenshot(&b, &len, "page-failed-click.png"));
        }
        ck_assert_msg(now == seq + 1, "after clicking '%s' at seq %d the server is at %d", pick, seq, now);
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", g.id, seq);
        json_t *ev = e2e_get_ok(c, path, g.token[seat], 200);
        const char *done = e2e_jstr(json_array_get(json_object_get(ev, "entries"), 0), "notation");
        ck_assert_msg(strcmp(done, pick) == 0, "clicked '%s', the server made '%s'", pick, done);
        json_decref(ev);
        char *problem = js_str(&b, "document.getElementById('problem').hidden?'':"
                                   "document.getElementById('problem').textContent");
        ck_assert_msg(problem[0] == 0, "the page reports: %s", problem);
        free(problem);
        json_decref(list);
        free(want);
        moves++;
        ck_assert_msg(moves < 400, "the game does not end");
    }
    /* every kind of decision came up, and every page shows the end and the winners */
    ck_assert_msg(kinds_seen == 0xff, "decisions seen: %#x of 0xff", kinds_seen);
    int last = server_seq(c, &g, NULL);
    for (int s = 0; s < 3; s++) {
        tab_use(&b, &tabs[s]);
        wait_page_seq(&b, last, "every page reached the end");
        wait_for(&b, "/^The game is over\\. Winners?: /.test(document.getElementById('turn').textContent)?'y':'n'",
                 "y", "the winners are shown");
        wait_for(&b, "String(document.querySelectorAll('[data-notation]').length)", "0", "no choices at the end");
    }
    tab_use(&b, &tabs[0]);
    char *log = js_str(&b, "document.getElementById('log').textContent");
    ck_assert_msg(strstr(log, "P0 placed a ") != NULL, "the log in words: %.300s", log);
    ck_assert_msg(strstr(log, "piece_placed") == NULL, "the log shows event names");
    free(log);
    snprintf(name, sizeof name, "page-%s-end.png", viewport);
    shot(&b, name);
    /* a tap on a figure names its owner */
    ck_assert(tap_element(&b, &tabs[0], "document.querySelector('#board .fig')"));
    wait_for(&b, "/^P[012]'s (meeple|abbot|shepherd)$/.test(document.getElementById('who').textContent)?'y':'n'", "y",
             "the figure's owner");
    /* the replay: the public board at the start, drawn by board.svg */
    ck_assert(tap_element(&b, &tabs[0], "document.querySelector('#replay-box summary')"));
    char now_src[64];
    snprintf(now_src, sizeof now_src, "seq=%d", last);
    wait_for(&b, "(document.getElementById('replay-img').getAttribute('src')||'').replace(/.*[?]/,'')", now_src,
             "the replay opens at now");
    json_decref(js(&b, "document.getElementById('replay').focus()"));
    key(&b, "Home", 36);   /* the slider to the start */
    wait_for(&b, "document.getElementById('replay-img').complete&&document.getElementById('replay-img').naturalWidth>0"
                 "&&document.getElementById('replay-img').src.endsWith('seq=0')?'y':'n'", "y", "the replay's board");
    fprintf(stderr, "e2e page (%s): %d moves by %s\n", viewport, moves, phone ? "taps" : "clicks");
    /* the tokens were only ever sent in Authorization headers: the server's log never saw them */
    char *dlog = e2e_daemon_log(d);
    for (int s = 0; s < 3; s++)
        ck_assert_msg(strstr(dlog, g.token[s]) == NULL, "seat %d's token is in carcd's log", s);
    free(dlog);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}

START_TEST(page_full_game_desktop)
{
    play_game("desktop", 1280, 900, false, 19);
}
END_TEST

START_TEST(page_full_game_phone)
{
    play_game("phone", 390, 844, true, 1919);
}
END_TEST

/* ---- a bad token ------------------------------------------------------------------------------------------ */
START_TEST(page_bad_token)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g, other;
    e2e_game_create(c, 2, NULL, &g);
    e2e_game_create(c, 2, NULL, &other);
    browser b;
    browser_start(&b);
    /* without a token: the public view, live, with nothing to choose */
    char pub[300];
    snprintf(pub, sizeof pub, "%s/games/%s", d->base, g.id);
    tab p;
    tab_open(&b, &p, pub, 1280, 900, false);
    wait_page_seq(&b, 0, "the public page");
    wait_for(&b, "document.body.dataset.live", "1", "the public page's stream");
    wait_for(&b, "/^P0's turn \\(tile [A-Z]\\)\\.$/.test(document.getElementById('turn').textContent)?'y':'n'", "y",
             "the public turn line");
    wait_for(&b, "String(document.querySelectorAll('[data-notation]').length)", "0", "no choices for the public");
    /* a token that is no token, and a real one of another game */
    const char *bad[] = {"cs_not-a-token-at-all", other.token[0]};
    for (int i = 0; i < 2; i++) {
        char url[300];
        snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, bad[i]);
        tab t;
        tab_open(&b, &t, url, 1280, 900, false);
        wait_for(&b, "document.body.dataset.fatal||''", "1", "the page refuses the token");
        char *msg = js_str(&b, "document.getElementById('fatal').textContent");
        ck_assert_msg(strstr(msg, "token") != NULL, "the message: %s", msg);
        free(msg);
        wait_for(&b, "String(document.getElementById('game').hidden)", "true", "nothing else is shown");
        wait_for(&b, "String(document.getElementById('game').getClientRects().length)", "0", "the game is not drawn");
        wait_for(&b, "String(document.querySelectorAll('[data-notation]').length)", "0", "no choices");
        if (i == 0) {
            size_t len;
            free(screenshot(&b, &len, "page-bad-token.png"));
        }
    }
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- the clock moves while the page is open --------------------------------------------------------------- */
START_TEST(page_clock_move)
{
    static const char *env[] = {"CARCD_CLOCK_INTERVAL_MS=20", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"clock\":{\"per_move_s\":4,\"timeout\":\"skip\"}}", false, &g),
                     201);
    browser b;
    browser_start(&b);
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[1]);
    tab t;
    tab_open(&b, &t, url, 1280, 900, false);
    wait_for(&b, "document.body.dataset.ready", "1", "the page loaded");
    wait_for(&b, "/deadline: (overdue by )?00:00:0[0-9]/.test(document.getElementById('clock').textContent)?'y':'n'", "y",
             "the countdown to the deadline");
    /* nobody moves: at each deadline the clock makes the seat's moves, and the page shows them, no reload */
    char *s0 = js_str(&b, "document.body.dataset.seq");
    char expr[300];
    snprintf(expr, sizeof expr, "Number(document.body.dataset.seq)>%s&&document.getElementById('log').textContent"
                                ".includes('the clock moved')?'y':'n'", s0);
    free(s0);
    wait_for(&b, expr, "y", "the clock's moves are on the page");
    int seq = server_seq(c, &g, NULL);
    wait_for(&b, "/^(Your turn|P0's turn)/.test(document.getElementById('turn').textContent)?'y':'n'", "y", "whose turn");
    ck_assert_msg(seq > 0, "the clock made no move");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A clock changed by another seat makes no log entry: the open page of the seat that waits reads the game
 * again while a clock runs (every 20 s, at once when the tab comes back into view) and shows the other seat's
 * vacation, then the pause they agreed on. */
START_TEST(page_clock_change)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"clock\":{\"per_move_s\":86400,\"timeout\":\"skip\"}}",
                                         false, &g), 201);
    browser b;
    browser_start(&b);
    char url[300], path[200];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[1]);
    tab t;
    tab_open(&b, &t, url, 1280, 900, false);
    wait_for(&b, "document.body.dataset.ready", "1", "the page loaded");
    wait_for(&b, "/deadline: /.test(document.getElementById('clock').textContent)?'y':'n'", "y", "the countdown");
    e2e_resp r;
    snprintf(path, sizeof path, "/v1/games/%s/vacation", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], "{\"days\":3}", NULL, &r), 200);
    e2e_resp_free(&r);
    wait_for(&b, "document.getElementById('clock').textContent.includes('(on vacation)')?'y':'n'", "y",
             "the other seat's vacation, read again within 20 s");
    snprintf(path, sizeof path, "/v1/games/%s/pause", g.id);
    for (int s = 0; s < 2; s++) {
        ck_assert_int_eq(e2e_req(c, "POST", path, g.token[s], NULL, NULL, &r), 200);
        e2e_resp_free(&r);
    }
    json_decref(js(&b, "document.dispatchEvent(new Event('visibilitychange'))"));   /* the tab comes back */
    wait_for(&b, "document.getElementById('clock').textContent", "Clock paused by agreement.", "the pause");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- two tabs of one seat ---------------------------------------------------------------------------------- */
START_TEST(page_two_tabs)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    browser b;
    browser_start(&b);
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[0]);
    tab t[2];
    for (int i = 0; i < 2; i++) {
        tab_open(&b, &t[i], url, 1280, 900, false);
        wait_page_seq(&b, 0, "a tab loaded");
        wait_for(&b, "document.body.dataset.live", "1", "its stream is open");
        /* the title calls the player back to a tab left in the background */
        wait_for(&b, "document.title", "Your turn \u2014 Carcassonne: P0, P1", "the title says whose turn");
    }
    /* a move in one tab shows in the other, whose choices become the next decision's; then the other way:
     * the tile from tab 0, the figure step from tab 1 */
    for (int k = 0; k < 2; k++) {
        tab *mover = &t[k % 2], *other = &t[1 - k % 2];
        int seq = server_seq(c, &g, NULL), n;
        char *want = legal_notations(c, &g, 0, &n);
        tab_use(&b, mover);
        check_choices(&b, want, "the moving tab");
        if (k == 0) {
            size_t len;
            free(screenshot(&b, &len, "page-two-tabs.png"));
        }
        ck_assert(tap_element(&b, mover, "document.querySelector('#board [data-notation]:not(.off), #choices [data-notation]')"));
        free(want);
        double t0 = e2e_now();
        while (server_seq(c, &g, NULL) == seq && e2e_now() - t0 < 15)
            nap_ms(30);
        int now = server_seq(c, &g, NULL);
        ck_assert_int_eq(now, seq + 1);
        tab_use(&b, other);
        wait_page_seq(&b, now, "the other tab follows");
        want = legal_notations(c, &g, 0, &n);
        check_choices(&b, want, "the other tab's choices");
        free(want);
    }
    for (int i = 0; i < 2; i++) {   /* the turn passed: both tabs say so (the title too), and offer nothing */
        tab_use(&b, &t[i]);
        wait_for(&b, "document.getElementById('turn').textContent.startsWith(\"P1's turn\")?'y':'n'", "y", "P1's turn");
        wait_for(&b, "String(document.querySelectorAll('[data-notation]').length)", "0", "no choices");
        wait_for(&b, "document.title", "Carcassonne: P0, P1", "no turn in the title");
    }
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- seat 0's page of a new game ---------------------------------------------------------------------------- */
/* A daemon, a 2-seat game, and a browser with seat 0's page of it in a desktop tab (a phone's, when `phone`).
 * With `patterns` (Fetch.enable's RequestPattern array, stolen) the requests matching them are held from the
 * start: they wait for Fetch.continueRequest, or forever. */
typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    browser b;
    tab t;
} seat_page;

/* seat_page_open of a game created by the admin with `extra` (members of the creation's body, as JSON text: a
 * script's stack, say). */
static void seat_page_open_with(seat_page *p, json_t *patterns, bool phone, const char *extra)
{
    p->d = e2e_daemon_up(NULL);
    p->c = e2e_client_new(p->d);
    if (extra)
        ck_assert_int_eq(e2e_game_create_raw(p->c, p->d, 2, NULL, extra, true, &p->g), 201);
    else
        e2e_game_create(p->c, 2, NULL, &p->g);
    browser_start(&p->b);
    if (phone)
        tab_open(&p->b, &p->t, NULL, 390, 844, true);
    else
        tab_open(&p->b, &p->t, NULL, 1280, 900, false);
    if (patterns)
        json_decref(cdp(&p->b, "Fetch.enable", json_pack("{s:o}", "patterns", patterns)));
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", p->d->base, p->g.id, p->g.token[0]);
    json_decref(cdp(&p->b, "Page.navigate", json_pack("{s:s}", "url", url)));
}

static void seat_page_open(seat_page *p, json_t *patterns, bool phone)
{
    seat_page_open_with(p, patterns, phone, NULL);
}

/* seat_page_open without held requests, then waits until the page has drawn the game and its stream is open. */
static void seat_page_live(seat_page *p, bool phone)
{
    seat_page_open(p, NULL, phone);
    wait_page_seq(&p->b, 0, "the page loaded");
    wait_for(&p->b, "document.body.dataset.live", "1", "its stream is open");
}

static void seat_page_close(seat_page *p)
{
    browser_stop(&p->b);
    e2e_client_free(p->c);
    e2e_daemon_down(p->d);
}

/* ---- a phone follows the game without moving the page ------------------------------------------------------- */
/* On a phone the log is below the board, out of sight; every move the page learns of adds to it. The log
 * keeps its newest entry in view by scrolling itself, never the page: a page that jumped to the log at every
 * move (scrollIntoView scrolls every scrolling ancestor, the window too) moved the board and its choices out
 * from under a finger, which e2e_page's press on a phone met as a choice 150 px higher after the log came in. */
START_TEST(page_phone_follow)
{
    seat_page P;
    seat_page_live(&P, true);
    browser *b = &P.b;
    /* moves by both seats through the API, as other devices and bots make them, until the log overflows its box */
    e2e_rng rng = {11};
    int seq = 0;
    for (int k = 0; k < 60; k++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(P.c, &P.g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
        seq++;
        wait_page_seq(b, seq, "the page follows the moves");
        char *y = js_str(b, "String(scrollY)");
        ck_assert_msg(strcmp(y, "0") == 0, "after move %d the page scrolled to y %s", seq, y);
        free(y);
    }
    /* the log scrolled itself to its newest entry */
    const char *at_end = "(() => { const l = document.getElementById('log-scroll');"
                         " return String(l.scrollHeight > l.clientHeight && l.scrollTop + l.clientHeight >= l.scrollHeight - 2); })()";
    wait_for(b, at_end, "true", "the log overflows its box and shows its newest entry");
    seat_page_close(&P);
}
END_TEST

/* ---- a game cancelled under way ------------------------------------------------------------------------ */
/* The admin cancels a game in play (POST /v1/admin/games/{id}/cancel): the page keeps its board and log and
 * says the game was cancelled. (A cancelled game was taken for one cancelled before it started, whose page has
 * no board: the board of a game under way vanished from every seat's page.) */
START_TEST(page_cancelled_under_way)
{
    seat_page P;
    seat_page_live(&P, false);
    browser *b = &P.b;
    e2e_rng rng = {5};
    for (int seq = 1; seq <= 6; seq++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(P.c, &P.g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
    }
    wait_page_seq(b, 6, "the page follows six moves");
    char *pieces = js_str(b, "String(document.querySelectorAll('#board .piece').length)");
    ck_assert_msg(atoi(pieces) >= 2, "%s pieces on the board", pieces);
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", P.g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(P.c, "POST", path, P.d->admin, "{\"reason\":\"a test\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    wait_for(b, "document.getElementById('turn').textContent", "The game was cancelled: no winner.", "the turn line");
    wait_for(b, "document.querySelector('#log li:last-child').textContent",
             "The server's admin cancelled the game: a test. Nobody won.", "the log's last line");
    wait_for(b, "String(document.querySelectorAll('#board .piece').length)", pieces, "the board stays");
    wait_for(b, "String(document.querySelectorAll('#choices [data-notation], #board .choice').length)", "0",
             "nothing to choose");
    wait_for(b, "String(document.getElementById('players').querySelectorAll('td.score').length)", "2",
             "the players with their scores");
    shot(b, "page-cancelled.png");
    free(pieces);
    seat_page_close(&P);
}
END_TEST

/* ---- a game won by the seat still in ------------------------------------------------------------------------ */
/* A seat that resigns wins nothing, whatever its score: the page names the view's winners, the best of the
 * seats still in. (It had named the highest score of all seats: the leader resigned and the page said it won.) */
START_TEST(page_resigned_leader)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    char path[200];
    long score[2] = {0, 0};
    int leader = -1;
    /* seeded games and moves, so the same every run: random moves until a seat leads, which then resigns; until
     * it still leads after the end's scoring (which counts the others' unfinished features too) */
    for (int game = 0; game < 8 && leader < 0; game++) {
        char extra[120];
        snprintf(extra, sizeof extra, "{\"seed\":\"%064x\"}", game + 1);
        ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, extra, true, &g), 201);
        snprintf(path, sizeof path, "/v1/games/%s", g.id);
        e2e_rng rng = {7};
        bool active = true;
        score[0] = score[1] = 0;
        while (active && score[0] == score[1]) {
            e2e_play p;
            ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
            e2e_play_free(&p);
            json_t *v = e2e_get_ok(c, path, NULL, 200);
            score[0] = (long)e2e_jint(v, "players.0.score");
            score[1] = (long)e2e_jint(v, "players.1.score");
            active = strcmp(e2e_jstr(v, "status"), "active") == 0;
            json_decref(v);
        }
        if (!active)
            continue;
        int ahead = score[0] > score[1] ? 0 : 1;
        char resign[220];
        snprintf(resign, sizeof resign, "%s/resign", path);
        e2e_resp r;
        ck_assert_int_eq(e2e_req(c, "POST", resign, g.token[ahead], NULL, NULL, &r), 200);
        e2e_resp_free(&r);
        json_t *v = e2e_get_ok(c, path, NULL, 200);
        score[0] = (long)e2e_jint(v, "players.0.score");
        score[1] = (long)e2e_jint(v, "players.1.score");
        ck_assert_int_eq(e2e_jint(v, "winners.0"), 1 - ahead);
        json_decref(v);
        if (score[ahead] > score[1 - ahead])
            leader = ahead;
    }
    ck_assert_msg(leader >= 0, "no seat resigned ahead in eight seeded games");
    int other = 1 - leader;
    browser b;
    browser_start(&b);
    tab t;
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[other]);
    tab_open(&b, &t, url, 1280, 900, false);
    char want[120];
    snprintf(want, sizeof want, "The game is over. Winner: P%d with %ld points.", other, score[other]);
    wait_for(&b, "document.getElementById('turn').textContent", want, "the seat still in won, not the leader");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- play again ------------------------------------------------------------------------------------------------ */
/* A finished game's page offers its seats "Play again": the first press offers a rematch and takes the tab to
 * the new game, waiting; the other seat's press (on its own old page) accepts and starts it; both tabs then
 * play the new game, the offerer first. */
START_TEST(page_rematch)
{
    seat_page P;
    seat_page_live(&P, false);
    browser *b = &P.b;
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/resign", P.g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(P.c, "POST", path, P.g.token[1], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    wait_for(b, "document.getElementById('turn').textContent.startsWith('The game is over.')?'y':'n'", "y",
             "the game ended");
    wait_for(b, "String(!!document.getElementById('rematch-send'))", "true", "Play again is offered");
    click(b, "#rematch-send");
    char want[300];
    snprintf(want, sizeof want, "location.pathname !== '/games/%s' && location.hash.startsWith('#token=cs_') ? 'y' : 'n'",
             P.g.id);
    wait_for(b, want, "y", "the tab went on to the rematch");
    wait_for(b, "document.body.dataset.ready", "1", "the rematch's page");
    wait_for(b, "document.getElementById('turn').textContent", "This game waits for 1 more player to join.",
             "the rematch waits for the other seat");
    /* the offerer holds the offer's creator token: its page may cancel the rematch (or start it with more seats) */
    wait_for(b, "String(!!document.getElementById('host-cancel'))", "true", "the offerer's cancel");
    char *fresh = js_str(b, "location.pathname.slice('/games/'.length)");

    /* the other seat, on its old page */
    tab other;
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", P.d->base, P.g.id, P.g.token[1]);
    tab_open(b, &other, url, 1280, 900, false);
    wait_for(b, "String(!!document.getElementById('rematch-send'))", "true", "the other seat's Play again");
    click(b, "#rematch-send");
    snprintf(want, sizeof want, "location.pathname === '/games/%s' ? 'y' : 'n'", fresh);
    wait_for(b, want, "y", "the other seat went on to the same rematch");
    wait_for(b, "document.getElementById('turn').textContent.startsWith(\"P0's turn\")?'y':'n'", "y",
             "the rematch started, the offerer first");
    tab_use(b, &P.t);
    wait_for(b, "/^Your turn/.test(document.getElementById('turn').textContent)?'y':'n'", "y",
             "the offerer's tab plays the rematch");
    wait_for(b, "String(document.querySelectorAll('[data-notation]').length > 0)", "true", "with its choices");
    free(fresh);
    seat_page_close(&P);
}
END_TEST

/* ---- a refused move ------------------------------------------------------------------------------------------ */
/* The tab's events stream is held back (the DevTools Fetch domain pauses it and never lets it go), so the tab
 * does not learn that the seat moved elsewhere; its click is then a stale move: the page must show the
 * server's reason and load the state again. */
START_TEST(page_refused_move)
{
    seat_page P;
    seat_page_open(&P, json_pack("[{s:s}]", "urlPattern", "*/events?after=0*"), false);
    e2e_client *c = P.c;
    e2e_game *g = &P.g;
    browser *b = &P.b;
    wait_page_seq(b, 0, "the page loaded");
    /* the seat moves through the API, as another tab or a bot of the same seat would */
    e2e_rng rng = {7};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(c, g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    ck_assert_int_eq(server_seq(c, g, NULL), 1);
    char *before = js_str(b, "document.body.dataset.seq");
    ck_assert_msg(strcmp(before, "0") == 0, "the page learnt of the move (seq %s): the stream was not held", before);
    free(before);
    ck_assert(tap_element(b, &P.t, "document.querySelector('#board [data-notation]:not(.off)')"));
    wait_page_seq(b, 1, "the page loaded the state again");
    char *msg = js_str(b, "document.getElementById('problem').hidden?'':document.getElementById('problem').textContent");
    ck_assert_msg(strstr(msg, "Move refused") && strstr(msg, "seq"), "the page says: '%s'", msg);
    free(msg);
    ck_assert_int_eq(server_seq(c, g, NULL), 1);   /* the stale move changed nothing */
    int n;
    char *want = legal_notations(c, g, 0, &n);
    check_choices(b, want, "the choices after the reload");
    free(want);
    seat_page_close(&P);
}
END_TEST

/* ---- the daemon restarts under an open page ------------------------------------------------------------------ */
/* A page stays open for days; carcd restarts under it (an upgrade, a crash). Its event stream breaks, the page
 * says it is not live, and it connects again by itself, from the last event it saw: a move made while it was
 * away shows, and its choices are the next decision's, without a reload. */
START_TEST(page_reconnects)
{
    seat_page P;
    seat_page_live(&P, false);
    browser *b = &P.b;
    char base[sizeof P.d->base];
    snprintf(base, sizeof base, "%s", P.d->base);
    e2e_daemon_stop(P.d);
    wait_for(b, "document.body.dataset.live", "0", "the page sees its stream end");
    e2e_daemon_start(P.d);
    ck_assert_msg(strcmp(base, P.d->base) == 0, "carcd came back on another port (%s, was %s)", P.d->base, base);
    /* a move by the seat elsewhere (another device, a bot) before the page is back */
    e2e_rng rng = {5};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(P.c, &P.g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    wait_page_seq(b, 1, "the page caught up with the move made while it was away");
    wait_for(b, "document.body.dataset.live", "1", "its stream is open again");
    int n;
    char *want = legal_notations(P.c, &P.g, 0, &n);
    check_choices(b, want, "the choices after the restart");
    free(want);
    seat_page_close(&P);
}
END_TEST

/* ---- a compacted game ---------------------------------------------------------------------------------------- */
/* A finished game is compacted into its games row by the clock worker (its move rows deleted, its log one text:
 * README, Storage); its page must show the same game after as before: the log in words, the players' scores,
 * the turn line, the board, and the replay's pictures at earlier seqs. The page is read with the worker off,
 * the daemon restarted with it on, and the page read again once the row holds the log. */
static const char PAGE_STATE[] =
    "JSON.stringify({log: document.getElementById('log').innerText, players: document.getElementById('players').innerText,"
    " turn: document.getElementById('turn').textContent, board: document.getElementById('board').innerHTML})";

static char *page_state_at(browser *b, tab *t, const e2e_daemon *d, const e2e_game *g, int seq)
{
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g->id, g->token[0]);
    tab_open(b, t, url, 1280, 900, false);
    wait_page_seq(b, seq, "the finished game's page loaded");
    wait_for(b, "String(document.getElementById('log').children.length > 0)", "true", "its log is drawn");
    shot(b, "page-compacted.png");
    /* the replay at the middle of the game: board.svg?seq=N of the game as the public saw it then */
    char js_replay[300], want[400];
    snprintf(js_replay, sizeof js_replay,
             "(() => { document.getElementById('replay-box').open = true; const r = document.getElementById('replay');"
             " setTimeout(() => { r.value = '%d'; r.dispatchEvent(new Event('input')); }, 0); return ''; })()", seq / 2);
    json_decref(js(b, js_replay));
    snprintf(want, sizeof want, "(() => { const i = document.getElementById('replay-img');"
             " return String(i.complete && i.naturalWidth > 0 && i.src.endsWith('seq=%d')); })()", seq / 2);
    wait_for(b, want, "true", "the replay's picture of the middle of the game");
    return js_str(b, PAGE_STATE);
}

/* 1 once the clock worker compacted finished game g: its games row holds the log and its move rows are gone. */
static long game_compacted(const e2e_daemon *d, const e2e_game *g)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games WHERE id = '%s' AND log IS NOT NULL"
             " AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = '%s')", g->id, g->id);
    return e2e_db_long(d, sql);
}

START_TEST(page_compacted)
{
    const char *clock_off[] = {"CARCD_CLOCK_INTERVAL_MS=0", NULL};
    e2e_daemon *d = e2e_daemon_up(clock_off);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {23};
    e2e_play_to_end(c, &g, &rng);
    int seq = server_seq(c, &g, NULL);
    ck_assert_int_eq(game_compacted(d, &g), 0);
    browser b;
    browser_start(&b);
    tab t;
    char *before = page_state_at(&b, &t, d, &g, seq);
    browser_stop(&b);

    e2e_daemon_stop(d);
    d->extra_env[0] = "CARCD_CLOCK_INTERVAL_MS=50";
    d->extra_env[1] = "CARCD_IDEMPOTENCY_TTL=1";   /* compacted once its moves' window is over */
    d->extra_env[2] = NULL;
    e2e_daemon_start(d);
    for (int i = 0; i < 200 && !game_compacted(d, &g); i++)
        nap_ms(50);
    ck_assert_msg(game_compacted(d, &g) == 1, "the finished game was not compacted");
    browser_start(&b);
    char *after = page_state_at(&b, &t, d, &g, seq);
    /* (not the final scores or 72 tiles: a drawn game may have nothing left to score, or discard a tile) */
    ck_assert_msg(strstr(before, "The game is over."), "the finished game's page does not say it is over");
    ck_assert_msg(strcmp(before, after) == 0, "the page differs once the game is compacted:\n%.600s\n%.600s", before, after);
    free(before);
    free(after);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a press while the page loads ---------------------------------------------------------------------------- */
/* Nothing moves under a pointer once the page is usable: a press on a choice made then, and released after
 * the rest of the page has loaded, is a click on that choice. Two things moved it: the log's arrival drew the
 * board again (the release fell on a new element), and the chat column appeared beside the board after the
 * board was drawn, narrowing its column (the release fell beside the choice). e2e_page's refused test met
 * both on a loaded machine, some once in forty runs. Here the chat's first read and the log's are held (the
 * DevTools Fetch domain) so that the order is forced: no choice is drawn while the chat is unknown, and the
 * press happens before the log comes in and is released after. On a phone the press is a finger's: put down
 * before the log comes in, lifted after, a tap on the choice. A third thing moved it there: the log scrolled
 * its newest entry into view with scrollIntoView, which scrolled the page too whenever the log's end lay
 * below the fold (133-150 px, one run in four; page_phone_follow shows it at every move). */
static void press_while_loading(bool phone)
{
    seat_page P;
    seat_page_open(
        &P, json_pack("[{s:s},{s:s}]", "urlPattern", "*/events?after=-1*", "urlPattern", "*/messages?after=0*"), phone);
    e2e_client *c = P.c;
    e2e_game *g = &P.g;
    browser *b = &P.b;
    char *chat_request = cdp_paused(b, "/messages?after=0");
    nap_ms(500);
    char *drawn = js_str(b, "String(document.querySelectorAll('#board .choice').length)");
    ck_assert_msg(strcmp(drawn, "0") == 0, "%s choices drawn before the chat column is known", drawn);
    free(drawn);
    json_decref(cdp(b, "Fetch.continueRequest", json_pack("{s:s}", "requestId", chat_request)));
    free(chat_request);
    wait_page_seq(b, 0, "the page drew its state");
    char *log_request = cdp_paused(b, "/events?after=-1");
    const char *choice = "document.querySelector('#board .choice.spot:not(.off)')";
    char js_notation[200], js_box[200];
    snprintf(js_notation, sizeof js_notation, "%s.getAttribute('data-notation')", choice);
    snprintf(js_box, sizeof js_box, "JSON.stringify(%s.getBoundingClientRect())", choice);
    double x, y;
    ck_assert(element_point(b, choice, &x, &y));
    char *pressed = js_str(b, js_notation), *box_before = js_str(b, js_box);
    ck_assert_msg(pressed[0], "the choice has no notation");
    press_xy(b, &P.t, x, y, true);
    json_decref(cdp(b, "Fetch.continueRequest", json_pack("{s:s}", "requestId", log_request)));
    free(log_request);
    /* the stream opens after the log is drawn (main.js: start) */
    wait_for(b, "document.body.dataset.live", "1", "the log loaded and the stream opened");
    char *box_after = js_str(b, js_box);
    ck_assert_msg(strcmp(box_before, box_after) == 0, "the choice moved under the pointer: %s, then %s", box_before,
                  box_after);
    press_xy(b, &P.t, x, y, false);
    wait_page_seq(b, 1, phone ? "the finger put down and lifted made the move" : "the press and release made the move");
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=0", g->id);
    json_t *log = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(json_array_get(json_object_get(log, "entries"), 0), "notation"), pressed);
    json_decref(log);
    free(pressed);
    free(box_before);
    free(box_after);
    seat_page_close(&P);
}

START_TEST(page_press_while_loading)
{
    press_while_loading(false);
}
END_TEST

START_TEST(page_press_while_loading_phone)
{
    press_while_loading(true);
}
END_TEST

/* ---- the keyboard alone ---------------------------------------------------------------------------------------- */
/* R turns the tile, Tab reaches a spot, Enter places it; Tab and Enter choose the figure step's move. The
 * stack starts with V (a road's curve), which fits beside the start tile in every turn somewhere and never
 * everywhere: a spot where the tile fits only turned otherwise, whatever the turns before, is reached by Tab. */
START_TEST(page_keyboard)
{
    seat_page P;
    seat_page_open_with(&P, NULL, false, "{\"script\":{\"stack\":[\"V\",\"U\",\"E\",\"U\",\"B\"]}}");
    browser *b = &P.b;
    e2e_client *c = P.c;
    e2e_game *g = &P.g;
    wait_page_seq(b, 0, "the page loaded");
    wait_for(b, "document.getElementById('turn').getAttribute('aria-live')", "polite", "the turn is announced");
    wait_for(b, "/^Your turn/.test(document.getElementById('turn').textContent)?'y':'n'", "y", "the turn line");
    char *r0 = js_str(b, "document.getElementById('drawn-tile').getAttribute('aria-label')");
    key(b, "r", 82);
    char *r1 = js_str(b, "document.getElementById('drawn-tile').getAttribute('aria-label')");
    int n;
    char *want = legal_notations(c, g, 0, &n);
    json_t *list = json_loads(want, 0, NULL);
    bool turns = false;   /* R turns the tile unless it fits in one rotation only */
    for (int i = 0; i < n; i++)
        if (strstr(json_string_value(json_array_get(list, i)), " r0") == NULL)
            turns = true;
    ck_assert_msg(!turns || strcmp(r0, r1) != 0, "R did not turn the tile: %s", r1);
    free(r0);
    free(r1);
    json_decref(list);
    free(want);
    /* the turn button, pressed with Enter twice: the tile turns twice, nothing is placed, and the focus stays
     * on the button (it had fallen to the first spot, where the second Enter placed the tile) */
    json_decref(js(b, "document.querySelector('#choices .rot-right').focus()"));
    key(b, "Enter", 13);
    key(b, "Enter", 13);
    wait_for(b, "document.activeElement.getAttribute('data-focus')", "rot-right", "the focus stays on the button");
    nap_ms(300);
    wait_for(b, "document.body.dataset.seq", "0", "nothing placed");
    /* a spot says where and how the tile would lie, for a person who cannot see the board */
    char *spot = js_str(b, "document.querySelector('#board .spot:not(.off)').getAttribute('aria-label')");
    ck_assert_msg(strstr(spot, "of the start tile: north ") && strstr(spot, ", west "), "%s", spot);
    free(spot);
    /* the spots where V fits only turned otherwise: buttons a Tab reaches; Enter on one turns the tile to fit
     * there and puts the focus on the spot, now a choice (a second Enter would place it there) */
    wait_for(b, "String(document.querySelectorAll('#board .other-rot[tabindex=\"0\"][role=button]').length > 0)",
             "true", "spots that fit turned otherwise are buttons");
    char *at = js_str(b, "(() => { const r = document.querySelector('#board .other-rot'); r.focus(); "
                         "return r.dataset.at + ' ' + r.getAttribute('aria-label'); })()");
    ck_assert_msg(strstr(at, " turn the tile to fit ") && strstr(at, " of the start tile"), "%s", at);
    char xy[16];
    ck_assert(sscanf(at, "%15s", xy) == 1);
    free(at);
    key(b, "Enter", 13);
    char turned[300];
    snprintf(turned, sizeof turned,
             "(document.activeElement.getAttribute('data-notation')||'').includes(' %s ') ? 'y' : 'n'", xy);
    wait_for(b, turned, "y", "the focus on the spot, turned to fit");
    nap_ms(300);
    wait_for(b, "document.body.dataset.seq", "0", "nothing placed by turning");
    for (int seq = 0; seq < 2; seq++) {
        /* Tab until a choice has the focus, then Enter */
        char *focus = NULL;
        for (int k = 0; k < 40; k++) {
            free(focus);
            focus = js_str(b, "document.activeElement.getAttribute('data-notation')||''");
            if (focus[0])
                break;
            key(b, "Tab", 9);
        }
        ck_assert_msg(focus[0], "Tab never reached a choice");
        key(b, "Enter", 13);
        wait_page_seq(b, seq + 1, "Enter made the move");
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", g->id, seq);
        json_t *ev = e2e_get_ok(c, path, g->token[0], 200);
        const char *done = e2e_jstr(json_array_get(json_object_get(ev, "entries"), 0), "notation");
        ck_assert_msg(strcmp(done, focus) == 0, "focused '%s', the server made '%s'", focus, done);
        json_decref(ev);
        free(focus);
    }
    /* the seat's turn is over: the focus is on the turn line, not lost to the page */
    wait_for(b, "document.activeElement.id", "turn", "the focus on the turn line");
    /* the other seat moves: its move is said aloud (the live #news line is the log's newest), and when the turn
     * comes back the focus is on the first choice */
    e2e_rng rng = {5};
    for (int k = 0; k < 6; k++) {   /* the other seat's turn: its decisions, up to the next of ours */
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s", g->id);
        json_t *v = e2e_get_ok(c, path, NULL, 200);
        long pending = e2e_jint(v, "pending.seat");
        json_decref(v);
        if (pending == 0)
            break;
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
    }
    wait_for(b, "document.getElementById('news').getAttribute('aria-live')", "polite", "a live region");
    wait_for(b, "(function(){var l=document.getElementById('log').lastElementChild;"
                "return l && l.textContent === document.getElementById('news').textContent ? 'y' : 'n';})()",
             "y", "the other seat's move said aloud");
    wait_for(b, "document.activeElement.getAttribute('data-notation') ? 'y' : 'n'", "y",
             "the focus on the first choice when the turn comes back");
    /* the board in words: a line a piece, the start tile first, the figures on them named with their owners */
    json_decref(js(b, "document.querySelector('#board-words-box summary').click()"));
    wait_for(b, "String(document.querySelectorAll('#board-words li').length === JSON.parse("
                "document.querySelector('#board svg').dataset.pieces))", "true", "a line a piece");
    wait_for(b, "document.querySelector('#board-words li').textContent.startsWith('D, on the start tile: north ')"
                " ? 'y' : 'n'", "y", "the start tile in words");
    json_t *fig = js(b, "Array.from(document.querySelectorAll('#board-words li')).some((l) => / on it$/.test("
                        "l.textContent))");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_msg(json_is_true(fig) == (json_array_size(json_object_get(v, "figures")) > 0),
                  "figures in words as on the board");
    /* a figure carries its owner's number as well as its colour, the number the players' table gives the seat */
    json_t *figs = json_object_get(v, "figures");
    if (json_array_size(figs) > 0) {
        long long seat = json_integer_value(json_object_get(json_array_get(figs, 0), "seat"));
        char want_num[24], expr[300];
        snprintf(want_num, sizeof want_num, "%lld", seat + 1);
        wait_for(b, "document.querySelector('#board .fig .fig-seat').textContent", want_num, "the owner's number");
        snprintf(expr, sizeof expr,
                 "document.querySelector('#players tr[data-seat=\"%lld\"] td.chip').textContent.trim()", seat);
        wait_for(b, expr, want_num, "the same number in the players' table");
    }
    json_decref(v);
    json_decref(fig);
    seat_page_close(&P);
}
END_TEST

/* ---- a game that waits for players (the lobby) ----------------------------------------------------------- */
/* How many times the page has read the game's view (GET /v1/games/{id}: its refresh), from the browser's own
 * record of its requests. */
static long view_reads(browser *b, const char *id)
{
    char expr[300];
    snprintf(expr, sizeof expr,
             "performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname === '/v1/games/%s')"
             ".length",
             id);
    json_t *v = js(b, expr);
    long n = (long)json_integer_value(v);
    json_decref(v);
    return n;
}

/* The host's page says how many seats are open, and reads them again while it is in view (not while the tab is
 * hidden, and at once when it comes back); when the last player joins and the game starts, the page shows the
 * board and the host's choices without a reload. */
START_TEST(page_waiting_game)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"public\":true,\"players\":[{\"name\":\"Host\"},{\"invite\":true},"
                             "{\"invite\":true}]}",
                             NULL, &r),
                     201);
    e2e_game g = {.nplayers = 3};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(r.json, "players.0.token"));
    e2e_resp_free(&r);
    ck_assert_msg(g.token[0][0], "no host token");
    browser b;
    browser_start(&b);
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[0]);
    tab t;
    tab_open(&b, &t, url, 1280, 900, false);
    wait_for(&b, "document.body.dataset.ready", "1", "the page loaded");
    wait_for(&b, "document.getElementById('turn').textContent", "This game waits for 2 more players to join.",
             "the waiting game");
    {   /* until when it waits (CARCD_WAITING_TTL), in the browser's own words for the view's expires_at */
        char vpath[200], expr[400];
        snprintf(vpath, sizeof vpath, "/v1/games/%s", g.id);
        json_t *v = e2e_get_ok(c, vpath, NULL, 200);
        snprintf(expr, sizeof expr, "document.getElementById('clock').textContent === 'Open until ' + "
                                    "new Date('%s').toLocaleString() + ': if nobody joins by then, the game is "
                                    "cancelled.' ? 'y' : document.getElementById('clock').textContent",
                 e2e_jstr(v, "expires_at"));
        json_decref(v);
        wait_for(&b, expr, "y", "the waiting game's expiry");
    }
    wait_for(&b, "String(document.querySelectorAll('[data-notation]').length)", "0", "no choices while it waits");
    wait_for(&b, "document.body.dataset.live", "1", "the stream of the waiting game");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/join", g.id);
    const char *guests[] = {"Guest", "Other"};
    char key[2][80];
    for (int i = 0; i < 2; i++) {
        char body[80];
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", guests[i]);
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, body, NULL, &r), 201);
        snprintf(key[i], sizeof key[i], "%s", e2e_jstr(r.json, "key"));
        e2e_resp_free(&r);
    }

    /* the tab in the background: a join while it is hidden is not read for it (10 s and more) */
    json_decref(js(&b, "Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});"
                       "document.dispatchEvent(new Event('visibilitychange')); 1"));
    long reads = view_reads(&b, g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, key[0], "{\"name\":\"Guest\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    nap_ms(11500);
    ck_assert_int_eq(view_reads(&b, g.id), reads);
    char *turn = js_str(&b, "document.getElementById('turn').textContent");
    ck_assert_str_eq(turn, "This game waits for 2 more players to join.");
    free(turn);
    /* back in view: read at once */
    double t0 = e2e_now();
    json_decref(js(&b, "Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});"
                       "document.dispatchEvent(new Event('visibilitychange')); 1"));
    wait_for(&b, "document.getElementById('turn').textContent", "This game waits for 1 more player to join.",
             "the join read once the tab is in view");
    wait_for(&b, "String(document.getElementById('replay-box').hidden)", "true", "no replay before the start");
    ck_assert_msg(e2e_now() - t0 < 3, "read %.1f s after the tab came back", e2e_now() - t0);
    ck_assert_int_eq(e2e_req(c, "POST", path, key[1], "{\"name\":\"Other\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    wait_for(&b, "/^Your turn/.test(document.getElementById('turn').textContent)?'y':'n'", "y", "the game started");
    wait_for(&b, "/^Open until/.test(document.getElementById('clock').textContent)?'y':'n'", "n",
             "no expiry once it started");
    /* named by its players now, where the heading and the tab had gone on saying it waited for them */
    wait_for(&b, "document.querySelector('h1').textContent", "Carcassonne: Host, Guest, Other", "the heading");
    wait_for(&b, "document.title", "Your turn \u2014 Carcassonne: Host, Guest, Other", "the tab's title");
    wait_for(&b, "String(document.getElementById('replay-box').hidden)", "false", "the replay once it started");
    int n;
    char *want = legal_notations(c, &g, 0, &n);
    check_choices(&b, want, "the host's first choices");
    free(want);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- joining by invitation in the browser --------------------------------------------------------------- */
/* The link a host sends a person is an invite's page_url: the game's page with the code in its fragment. The
 * page asks for a name and joins; the tab then is the new seat's page (the token in its address, the join in
 * no history entry), which asks to be bookmarked. A used invitation says why it no longer opens a seat, and
 * the last join starts the game for everyone. No invite code reaches a request line (the access log). */
static void invite_page_url(const e2e_daemon *d, const json_t *created, int i, char *url, size_t n)
{
    char path[40];
    snprintf(path, sizeof path, "invites.%d.page_url", i);
    const char *page = e2e_jstr(created, path);
    snprintf(path, sizeof path, "invites.%d.invite", i);
    const char *code = e2e_jstr(created, path);
    char want[200];
    snprintf(want, sizeof want, "/games/%s#invite=%s", e2e_jstr(created, "id"), code);
    ck_assert_str_eq(page, want);   /* no CARCD_PUBLIC_URL here: the path */
    snprintf(url, n, "%s%s", d->base, page);
}

/* The names in the players box, '|' between them. */
static const char SEAT_NAMES[] =
    "Array.from(document.querySelectorAll('#players td.name')).map((t) => t.textContent).join('|')";

static void join_as(browser *b, const char *name, const char *shot_name)
{
    wait_for(b, "String(!!document.getElementById('join-form'))", "true", "the join form");
    char expr[200];
    snprintf(expr, sizeof expr, "document.getElementById('join-name').value = '%s'", name);
    json_decref(js(b, expr));
    size_t len;
    if (shot_name)   /* no board yet: a picture to look at, not to count (shot) */
        free(screenshot(b, &len, shot_name));
    click(b, "#join-send");
}

START_TEST(page_join_by_invitation)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Host\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r), 201);
    json_t *created = json_incref(r.json);
    e2e_resp_free(&r);
    e2e_game g = {.nplayers = 3};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(created, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", e2e_jstr(created, "players.0.token"));
    char url[300];
    browser b;
    browser_start(&b);
    tab t[4];

    /* the first invitation: the form, a name, and the tab is seat 1's page */
    invite_page_url(d, created, 0, url, sizeof url);
    tab_open(&b, &t[0], url, 1280, 900, false);
    wait_for(&b, "document.getElementById('turn').textContent", "This game waits for 2 more players to join.",
             "the waiting game");
    wait_for(&b, SEAT_NAMES, "Host|an open seat|an open seat", "the seats of the waiting game");
    wait_for(&b, "document.getElementById('stack').textContent", "3 players, the base game, no clock",
             "what the game is");
    wait_for(&b, "document.querySelector('#join-form label').textContent",
             "Host invites you to this game (3 players, the base game, no clock). Your name, as the other players "
             "will see it: ", "who invites, to what");
    char *before = js_str(&b, "String(history.length)");
    join_as(&b, "Guest", "page-join-form.png");
    wait_for(&b, "/^#token=cs_[A-Za-z0-9_-]+$/.test(location.hash)?'y':'n'", "y", "the address is the seat's page");
    wait_for(&b, "document.body.dataset.ready", "1", "the seat's page loaded");
    wait_for(&b, "/^You have joined this game \\(seat 1\\)\\. .*bookmark it/.test("
                 "document.getElementById('notice').textContent)?'y':'n'", "y", "the page asks to be bookmarked");
    wait_for(&b, "String(!!document.getElementById('join-form'))", "false", "no form for a seat");
    wait_for(&b, SEAT_NAMES, "Host|Guest|an open seat", "the seats taken and open");
    size_t len;
    free(screenshot(&b, &len, "page-joined.png"));
    wait_for(&b, "String(history.length)", before, "the join left no history entry (the seat's page replaced it)");
    free(before);
    char *hash = js_str(&b, "decodeURIComponent(location.hash.slice('#token='.length))");
    snprintf(g.token[1], sizeof g.token[1], "%s", hash);
    free(hash);
    snprintf(url, sizeof url, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, url, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 1);
    json_decref(v);

    /* the same invitation again, in another tab: no form, but who used it (POST .../invites/lookup) */
    invite_page_url(d, created, 0, url, sizeof url);
    tab_open(&b, &t[1], url, 1280, 900, false);
    wait_for(&b, "(document.getElementById('join-used') || {}).textContent",
             "This invitation has been used: Guest took seat 1 with it. If that was you, open the page your join gave "
             "you (its address is your seat's key; the game's mails carry it too if you gave an address). Otherwise "
             "ask Host for a new link.", "a used invitation says who used it");
    wait_for(&b, "String(!!document.getElementById('join-form'))", "false", "no form for a used invitation");
    wait_for(&b, "location.hash.startsWith('#invite=iv_') ? 'y' : 'n'", "y", "the tab stays at the invitation");
    /* a code that is none of the game's (copied wrong, or replaced): said so, no form */
    char *cut = strstr(url, "#invite=iv_") + strlen("#invite=iv_");
    snprintf(cut, sizeof url - (size_t)(cut - url), "not-a-code-of-this-game");
    tab_open(&b, &t[3], url, 1280, 900, false);
    wait_for(&b, "(document.getElementById('join-used') || {}).textContent",
             "This invitation link no longer opens a seat: the game's creator has replaced it, or it was copied "
             "wrong. Check the link, or ask Host for a new link.", "a code that opens nothing");
    wait_for(&b, "String(!!document.getElementById('join-form'))", "false", "no form for it");
    snprintf(url, sizeof url, "/v1/games/%s", g.id);
    v = e2e_get_ok(c, url, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 1);   /* nothing changed */
    json_decref(v);

    /* the second invitation takes the last seat: the game starts, in every tab without a reload */
    invite_page_url(d, created, 1, url, sizeof url);
    tab_open(&b, &t[2], url, 1280, 900, false);
    join_as(&b, "Third", NULL);
    wait_for(&b, "/^#token=cs_/.test(location.hash)?'y':'n'", "y", "the third seat's page");
    wait_for(&b, "document.body.dataset.seq", "0", "the game started");
    wait_for(&b, "document.getElementById('turn').textContent.startsWith(\"Host's turn\")?'y':'n'", "y",
             "the third seat sees the host's turn");
    tab_use(&b, &t[1]);
    wait_for(&b, "document.getElementById('notice').textContent",
             "This invitation can no longer be used: the game has started without it.", "the used tab learns it");
    wait_for(&b, "String(!!document.getElementById('join-form'))", "false", "its form is gone");
    tab_use(&b, &t[0]);
    wait_for(&b, "document.getElementById('turn').textContent.startsWith(\"Host's turn\")?'y':'n'", "y",
             "the second seat sees the game start");

    /* the seats' tokens from the addresses are theirs: their names in the seats' views */
    for (int seat = 1; seat <= 2; seat++) {
        if (seat == 2) {
            tab_use(&b, &t[2]);
            hash = js_str(&b, "decodeURIComponent(location.hash.slice('#token='.length))");
            snprintf(g.token[2], sizeof g.token[2], "%s", hash);
            free(hash);
        }
        snprintf(url, sizeof url, "/v1/games/%s", g.id);
        v = e2e_get_ok(c, url, g.token[seat], 200);
        ck_assert_int_eq(e2e_jint(v, "you.seat"), seat);
        char path[40];
        snprintf(path, sizeof path, "players.%d.name", seat);
        ck_assert_str_eq(e2e_jstr(v, path), seat == 1 ? "Guest" : "Third");
        json_decref(v);
    }
    /* the codes went in the joins' bodies, never in a request line */
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, "iv_") == NULL, "an invite code in carcd's log");
    ck_assert_msg(strstr(log, "/join") != NULL, "the joins are logged");
    free(log);
    json_decref(created);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- the lobby in the browser -------------------------------------------------------------------------------- */
/* GET /lobby: Ann starts a public game of three seats with Hills & Sheep; Bob finds it in the list and joins;
 * his second join of it is refused with the server's reason; Cy, whose browser keeps a key the server does not
 * know, joins with a new one and starts the game. Each ends on their seat's page; the lobby lists Cy's games
 * with a link to the seat. One browser serves all
 * three: each clears what the page keeps in localStorage (the key and the name), as three browsers would have
 * none of the others'. */
static void lobby_open(browser *b, tab *t, const e2e_daemon *d, const char *name, const char *stored_key)
{
    char url[200], expr[300];
    snprintf(url, sizeof url, "%s/lobby", d->base);
    tab_open(b, t, url, 1280, 900, false);
    wait_for(b, "document.body.dataset.ready", "1", "the lobby loaded");
    if (name) {   /* another person: none of the last one's key and name, maybe a stale key */
        snprintf(expr, sizeof expr, "localStorage.clear(); %s%s%s document.getElementById('me-name').value = '%s'",
                 stored_key ? "localStorage.setItem('carcd.player_key', '" : "", stored_key ? stored_key : "",
                 stored_key ? "');" : "", name);
        json_decref(js(b, expr));
    }
}

/* The seat's token from the address of a seat's page the tab went on to, and the seat the notice names. */
static int landed_seat(browser *b, char *token, size_t n)
{
    wait_for(b, "/^#token=cs_[A-Za-z0-9_-]+$/.test(location.hash) && location.pathname.startsWith('/games/')?'y':'n'",
             "y", "the tab went on to the seat's page");
    wait_for(b, "document.body.dataset.ready", "1", "the seat's page loaded");
    char *t = js_str(b, "decodeURIComponent(location.hash.slice('#token='.length))");
    snprintf(token, n, "%s", t);
    free(t);
    char *note = js_str(b, "String((/\\(seat (\\d)\\)/.exec(document.getElementById('notice').textContent) || [0, -1])[1])");
    int seat = atoi(note);
    free(note);
    return seat;
}

START_TEST(page_lobby)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    browser b;
    browser_start(&b);
    tab t[3];
    e2e_game g = {.nplayers = 3};

    /* Ann: an empty lobby, then a new public game */
    lobby_open(&b, &t[0], d, "Ann", NULL);
    wait_for(&b, "String(!document.getElementById('empty').hidden)", "true", "the empty lobby says so");
    json_decref(js(&b, "document.getElementById('new-seats').value = '3';"
                       " document.querySelector('input[value=hills_sheep]').checked = true"));
    click(&b, "#new-send");
    ck_assert_int_eq(landed_seat(&b, g.token[0], sizeof g.token[0]), 0);
    wait_for(&b, "document.getElementById('turn').textContent", "This game waits for 2 more players to join.",
             "Ann's page of her waiting game");
    char *path = js_str(&b, "location.pathname");
    snprintf(g.id, sizeof g.id, "%s", path + strlen("/games/"));
    free(path);

    /* Bob: the game in the list, a join, and a second join refused */
    lobby_open(&b, &t[1], d, "Bob", NULL);
    wait_for(&b, "document.body.dataset.games", "1", "Ann's game is listed");
    char row[200], expr[700];
    snprintf(row, sizeof row, "tr[data-game=\"%s\"]", g.id);
    json_t *lv = e2e_get_ok(c, "/v1/lobby", NULL, 200);   /* until when it waits, in the browser's words */
    snprintf(expr, sizeof expr,
             "(() => { const t = document.querySelector('%s').innerText.replace(/\\s+/g, ' ').trim(); "
             "const w = ('Ann + 2 open seats 3 players, Hills & Sheep, no clock; open until ' + "
             "new Date('%s').toLocaleString() + ' Join').replace(/\\s+/g, ' '); return t === w ? 'y' : t; })()",
             row, e2e_jstr(lv, "games.0.expires_at"));
    json_decref(lv);
    wait_for(&b, expr, "y", "the row says what the game is, and until when it waits");
    size_t len;
    free(screenshot(&b, &len, "page-lobby.png"));
    char button[260];
    snprintf(button, sizeof button, "%s button.join", row);
    click(&b, button);
    ck_assert_int_eq(landed_seat(&b, g.token[1], sizeof g.token[1]), 1);
    lobby_open(&b, &t[1], d, NULL, NULL);   /* the same browser again: Bob's key */
    wait_for(&b, "document.body.dataset.games", "1", "the game still has an open seat");
    click(&b, button);
    wait_for(&b, "document.getElementById('problem').textContent",
             "Could not do it: this player key already holds a seat of this game", "Bob's second join refused");
    snprintf(expr, sizeof expr, "document.querySelector('#mine %s td.state').textContent", row);
    wait_for(&b, expr, "waits for 1 more player", "Bob's games: the one he joined, and how many it waits for");

    /* Cy: a key the server does not know is replaced; the last seat starts the game */
    lobby_open(&b, &t[2], d, "Cy", "pk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    wait_for(&b, "document.body.dataset.games", "1", "Cy's lobby");
    click(&b, button);
    ck_assert_int_eq(landed_seat(&b, g.token[2], sizeof g.token[2]), 2);
    wait_for(&b, "document.getElementById('turn').textContent.startsWith(\"Ann's turn\")?'y':'n'", "y",
             "the game started");
    char *kept = js_str(&b, "localStorage.getItem('carcd.player_key')");
    ck_assert_msg(strncmp(kept, "pk_", 3) == 0 && strcmp(kept, "pk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") != 0,
                  "the stale key was replaced: %s", kept);
    free(kept);

    /* what the server holds: the three names, the expansion, each seat's token from its tab */
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s", g.id);
    for (int seat = 0; seat < 3; seat++) {
        json_t *v = e2e_get_ok(c, p, g.token[seat], 200);
        ck_assert_int_eq(e2e_jint(v, "you.seat"), seat);
        ck_assert_str_eq(e2e_jstr(v, "players.0.name"), "Ann");
        ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Bob");
        ck_assert_str_eq(e2e_jstr(v, "players.2.name"), "Cy");
        ck_assert_str_eq(e2e_jstr(v, "status"), "active");
        json_decref(v);
    }
    json_t *a = e2e_admin_view(c, d, g.id);
    ck_assert_str_eq(e2e_jstr(a, "expansions.0"), "hills_sheep");
    json_decref(a);
    /* and the lobby no longer lists it, but lists it among Cy's games (the browser keeps Cy's key now), whose
     * link opens the game's page as Cy's seat */
    lobby_open(&b, &t[1], d, NULL, NULL);
    wait_for(&b, "String(!document.getElementById('empty').hidden)", "true", "the full game left the lobby");
    wait_for(&b, "document.body.dataset.mine", "1", "Cy's games");
    wait_for(&b, expr, "not your turn", "Cy's game waits for Ann");   /* expr: its row's state, as for Bob's */
    snprintf(button, sizeof button, "#mine %s a.open", row);
    click(&b, button);
    wait_page_seq(&b, 0, "Cy's game from the lobby");
    wait_for(&b, SEAT_NAMES, "Ann|Bob|Cy (you)", "the page acts as Cy's seat");
    /* with the key this browser keeps, not one in the address, which a player shares */
    wait_for(&b, "location.hash + (location.href.includes('pk_') ? ' with the key' : '')", "#player",
             "the address holds no player key");
    json_decref(js(&b, "localStorage.clear(); location.reload()"));
    wait_page_seq(&b, 0, "the game in a browser without the key");
    wait_for(&b, "String(!!document.getElementById('notice').textContent.includes('keeps no player key'))", "true",
             "the page says why it shows the game as anyone sees it");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a game for friends from the lobby ------------------------------------------------------------------------ */
/* Eve starts a game of three that is not listed: her seat's page shows the invitations' links to send; Fay
 * opens one and joins; Eve starts the game with the two of them (the creator token the page kept), and both
 * pages play it, Eve's having forgotten the links. Then Eve's second game, cancelled from its page: the first
 * press only asks. */
static char *host_game(browser *b, tab *t, const e2e_daemon *d, const char *seats, const char *name)
{
    lobby_open(b, t, d, name, NULL);
    char expr[200];
    snprintf(expr, sizeof expr, "document.getElementById('new-seats').value = '%s';"
             " document.getElementById('new-public').checked = false", seats);
    json_decref(js(b, expr));
    click(b, "#new-send");
    char token[80];
    ck_assert_int_eq(landed_seat(b, token, sizeof token), 0);
    return js_str(b, "location.pathname.slice('/games/'.length)");
}

START_TEST(page_lobby_invite)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    browser b;
    browser_start(&b);
    tab t[4];
    char *id = host_game(&b, &t[0], d, "3", "Eve");
    wait_for(&b, "String(document.querySelectorAll('#host .invite-link').length)", "2", "the links to send");
    wait_for(&b, "String(document.getElementById('host-start').disabled)", "true", "no start with one player");
    char *link = js_str(&b, "document.querySelector('#host .invite-link').value");
    char want[300];
    snprintf(want, sizeof want, "%s/games/%s#invite=iv_", d->base, id);
    ck_assert_msg(strncmp(link, want, strlen(want)) == 0, "the link %s", link);
    json_t *lobby = e2e_get_ok(c, "/v1/lobby", NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(lobby, "games")), 0);   /* not listed */
    json_decref(lobby);

    tab_open(&b, &t[1], link, 1280, 900, false);
    join_as(&b, "Fay", NULL);
    char fay[80];
    ck_assert_int_eq(landed_seat(&b, fay, sizeof fay), 1);
    tab_use(&b, &t[0]);
    wait_for(&b, "document.getElementById('host-start').textContent", "Start now with the 2 players here",
             "Eve's page counts Fay");
    wait_for(&b, "Array.from(document.querySelectorAll('#host .link-note')).map((e) => e.textContent).join('|')",
             "used: Fay took this seat|", "the link Fay used is marked (within the page's 10 s re-read)");
    wait_for(&b, "Array.from(document.querySelectorAll('#host .invite-link')).map((e) => e.className).join('|')",
             "invite-link used|invite-link", "and dimmed; the other is still to send");
    size_t len;
    free(screenshot(&b, &len, "page-host.png"));

    /* Eve removes Fay (the first press asks): the link Fay used gives way to a new one, which Fay takes again */
    wait_for(&b, "Array.from(document.querySelectorAll('#host .remove-seat')).map((e) => e.hidden).join('|')",
             "false|true", "a remove button under the used link alone");
    click(&b, "#host .remove-seat");
    wait_for(&b, "document.querySelector('#host .remove-seat').textContent", "Press again to remove them from the game",
             "the first press asks");
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "players")), 2);   /* asked, not done */
    json_decref(v);
    click(&b, "#host .remove-seat");
    wait_for(&b, "document.getElementById('host-start').textContent", "Start now (when a second player is here)",
             "Fay is gone");
    wait_for(&b, "Array.from(document.querySelectorAll('#host .link-note')).map((e) => e.textContent).join('|')", "|",
             "both links open");
    char *link2 = js_str(&b, "document.querySelector('#host .invite-link').value");
    ck_assert_msg(strncmp(link2, want, strlen(want)) == 0 && strcmp(link2, link) != 0, "the new link %s", link2);
    v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "players")), 1);
    json_decref(v);
    char kept[200];
    snprintf(kept, sizeof kept, "JSON.parse(localStorage.getItem('carcd.created.%s')).links[0].url", id);
    char *kept_link = js_str(&b, kept);
    ck_assert_str_eq(kept_link, link2);   /* a reload shows the new link too */
    free(kept_link);
    /* Fay's page, still open on her seat, says what became of it (its next read: 403 seat-removed) */
    tab_use(&b, &t[1]);
    wait_for(&b, "document.body.dataset.fatal === '1' && document.getElementById('fatal').textContent.startsWith("
                 "'The player who created this game removed you from it before it started') ? 'y' : 'n'",
             "y", "Fay's open page says that she was removed");
    free(screenshot(&b, &len, "page-seat-removed.png"));
    tab_use(&b, &t[0]);
    tab_open(&b, &t[3], link2, 1280, 900, false);
    join_as(&b, "Fay", NULL);
    ck_assert_int_eq(landed_seat(&b, fay, sizeof fay), 1);
    free(link2);
    tab_use(&b, &t[0]);
    wait_for(&b, "document.getElementById('host-start').textContent", "Start now with the 2 players here",
             "Eve's page counts Fay again");
    click(&b, "#host-start");
    wait_for(&b, "/^Your turn/.test(document.getElementById('turn').textContent)?'y':'n'", "y", "Eve's turn");
    wait_for(&b, "String(!!document.getElementById('host'))", "false", "no links once it started");
    char forgotten[200];
    snprintf(forgotten, sizeof forgotten, "String(localStorage.getItem('carcd.created.%s'))", id);
    wait_for(&b, forgotten, "null", "the browser forgot them");
    tab_use(&b, &t[3]);
    wait_for(&b, "document.getElementById('turn').textContent.startsWith(\"Eve's turn\")?'y':'n'", "y",
             "the game started for Fay");
    v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "players")), 2);
    json_decref(v);
    free(id);
    free(link);

    /* a second game, cancelled */
    id = host_game(&b, &t[2], d, "2", "Eve");
    {   /* kept open: carcd counts its wait anew, and the page says until when now */
        char before[40], after[40] = "", expr[400];
        snprintf(p, sizeof p, "/v1/games/%s", id);
        v = e2e_get_ok(c, p, NULL, 200);
        snprintf(before, sizeof before, "%s", e2e_jstr(v, "expires_at"));
        json_decref(v);
        wait_for(&b, "String(document.getElementById('host-keep-open').hidden)", "false", "the keep-open button");
        nap_ms(1100);   /* the new date a second later at least */
        click(&b, "#host-keep-open");
        for (double t0 = e2e_now(); e2e_now() - t0 < 10 && strcmp(after, before) <= 0; nap_ms(100)) {
            v = e2e_get_ok(c, p, NULL, 200);
            snprintf(after, sizeof after, "%s", e2e_jstr(v, "expires_at"));
            ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
            json_decref(v);
        }
        ck_assert_msg(strcmp(after, before) > 0, "expires_at %s after the click, %s before", after, before);
        snprintf(expr, sizeof expr, "document.getElementById('clock').textContent === 'Open until ' + "
                                    "new Date('%s').toLocaleString() + ': if nobody joins by then, the game is "
                                    "cancelled.' ? 'y' : document.getElementById('clock').textContent",
                 after);
        wait_for(&b, expr, "y", "the new date on the page");
    }
    wait_for(&b, "String(!!document.getElementById('host-cancel'))", "true", "the cancel button");
    click(&b, "#host-cancel");
    wait_for(&b, "document.getElementById('host-cancel').textContent", "Press again to cancel the game",
             "the first press asks");
    click(&b, "#host-cancel");
    wait_for(&b, "document.getElementById('turn').textContent", "This game was cancelled by its creator.",
             "cancelled, and by whom");
    snprintf(p, sizeof p, "/v1/games/%s", id);
    v = e2e_get_ok(c, p, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    json_decref(v);
    free(id);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- invitations mailed from the lobby ------------------------------------------------------------------------ */
/* Whether user's Maildir has a mail holding needle, waiting up to `seconds` for one. */
static bool maildir_has(const char *user, const char *needle, double seconds)
{
    const char *root = getenv("CARCD_TEST_MAIL_DIR");
    double t0 = e2e_now();
    while (e2e_now() - t0 < seconds) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "grep -rqs -- '%s' '%s/%s/new' '%s/%s/cur'", needle, root, user, root, user);
        if (system(cmd) == 0)
            return true;
        nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
    }
    return false;
}

/* A carcd that mails through the throwaway Postfix (tests/support/mail-temp.sh), or NULL, said on stderr, when
 * no mail servers run (scripts/test.sh starts them; by hand, `name`'s mail half is skipped). */
static e2e_daemon *mail_daemon_up(const char *name)
{
    const char *smtp = getenv("CARCD_TEST_SMTP_URL");
    if (!smtp || !getenv("CARCD_TEST_MAIL_DIR")) {
        fprintf(stderr, "e2e_page %s: no mail servers (tests/support/mail-temp.sh): the mail half skipped\n", name);
        return NULL;
    }
    static char env_smtp[300];
    snprintf(env_smtp, sizeof env_smtp, "CARCD_SMTP_URL=%s", smtp);
    static const char *env[] = {env_smtp, "CARCD_MAIL_FROM=carcd@example.org",
                                "CARCD_PUBLIC_URL=http://carcd.example.org",
                                "CARCD_MAIL_SECRET=a-test-secret-of-the-page-tests", NULL};
    return e2e_daemon_up(env);
}

/* On a server without mail the lobby offers no address field. On one with mail (the throwaway Postfix of
 * tests/support/mail-temp.sh) Gus types his friends' addresses: too many for the open seats is said before
 * anything is sent, a bad one is the server's refusal, and one address mails the first open seat's link (its
 * mail lands in the Maildir) while Gus's page shows which link went by mail. */
START_TEST(page_lobby_mail)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    browser b;
    browser_start(&b);
    tab t[2];
    lobby_open(&b, &t[0], d, "Gus", NULL);
    wait_for(&b, "String(document.getElementById('new-emails-box').hidden)", "true", "no mail here: no field");
    browser_stop(&b);
    e2e_daemon_down(d);
    if (!(d = mail_daemon_up("lobby_mail")))
        return;
    browser_start(&b);
    lobby_open(&b, &t[1], d, "Gus", NULL);
    wait_for(&b, "String(document.getElementById('new-emails-box').hidden)", "false", "the address field");
    json_decref(js(&b, "document.getElementById('new-seats').value = '3';"
                       " document.getElementById('new-public').checked = false;"
                       " document.getElementById('new-emails').value = 'a@example.org b@example.org c@example.org'"));
    click(&b, "#new-send");
    wait_for(&b, "document.getElementById('problem').textContent",
             "3 addresses for 2 open seats: one address an open seat.", "too many addresses, said at once");
    json_decref(js(&b, "document.getElementById('new-emails').value = 'carol@example.org, not-an-address'"));
    click(&b, "#new-send");
    wait_for(&b, "document.getElementById('problem').textContent",
             "Could not do it: players[2].email: expected a mail address like bob@example.org",
             "the server's refusal of a bad address");
    json_decref(js(&b, "document.getElementById('new-emails').value = 'carol@example.org'"));
    click(&b, "#new-send");
    char token[80];
    ck_assert_int_eq(landed_seat(&b, token, sizeof token), 0);
    char *id = js_str(&b, "location.pathname.slice('/games/'.length)");
    wait_for(&b, "document.getElementById('notice').textContent.startsWith('You created this game (seat 0).')?'y':'n'",
             "y", "the creator is told he started it, not that he joined");
    wait_for(&b, "document.getElementById('host-start').textContent", "Start now (when a second player is here)",
             "no start alone");
    wait_for(&b, "String(document.querySelectorAll('#host .invite-link').length)", "2", "both links shown");
    wait_for(&b, "Array.from(document.querySelectorAll('#host .mailed')).map((e) => e.textContent).join('|')",
             "mailed to carol@example.org", "the first link went by mail, the second did not");
    char *first = js_str(&b, "document.querySelector('#host .invite-link').value");
    const char *code = strstr(first, "#invite=");
    ck_assert_msg(code, "a link with its code: %s", first);
    ck_assert_msg(maildir_has("carol", code + strlen("#invite="), 20), "carol's mail holds the first link's code");
    char *second = js_str(&b, "document.querySelectorAll('#host .invite-link')[1].value");
    ck_assert_msg(!maildir_has("carol", strstr(second, "#invite=") + strlen("#invite="), 0.5),
                  "the second link was mailed to nobody");
    /* the second link mailed from the page (POST .../invites/mail with the creator token the page kept) */
    wait_for(&b, "String(document.getElementById('host').dataset.mailForms)", "1", "a form under each link");
    json_decref(js(&b, "document.querySelectorAll('#host .mail-form input')[1].value = 'not-an-address';"
                       " document.querySelectorAll('#host .mail-form button')[1].click()"));
    wait_for(&b, "document.querySelectorAll('#host .mail-form p')[1].textContent",
             "Not mailed: email: expected a mail address like bob@example.org", "a bad address refused");
    json_decref(js(&b, "document.querySelectorAll('#host .mail-form input')[1].value = 'dave@example.org';"
                       " document.querySelectorAll('#host .mail-form button')[1].click()"));
    wait_for(&b, "Array.from(document.querySelectorAll('#host .link-note')).map((e) => e.textContent).join('|')",
             "mailed to carol@example.org|mailed to dave@example.org", "both links now went by mail");
    ck_assert_msg(maildir_has("dave", strstr(second, "#invite=") + strlen("#invite="), 20),
                  "dave's mail holds the second link's code");
    /* mailed to an address the mail server refuses for good (no such mailbox): said under the link, in red,
     * from GET .../invites; mailed to dave again, it is just mailed */
    json_decref(js(&b, "document.querySelectorAll('#host .mail-form input')[1].value = 'nobody@example.org';"
                       " document.querySelectorAll('#host .mail-form button')[1].click()"));
    wait_for(&b, "/^not delivered to nobody@example\\.org: the mail server refused it \\(.*550.*\\)\\. Mail it to "
                 "another address/.test(document.querySelector('#host .link-note.bounced').textContent)?'y':'n'",
             "y", "the refused invitation shown to its creator");
    size_t len;
    free(screenshot(&b, &len, "page-host-bounced.png"));
    json_decref(js(&b, "document.querySelectorAll('#host .mail-form input')[1].value = 'dave@example.org';"
                       " document.querySelectorAll('#host .mail-form button')[1].click()"));
    wait_for(&b, "Array.from(document.querySelectorAll('#host .link-note')).map((e) => e.textContent).join('|')",
             "mailed to carol@example.org|mailed to dave@example.org", "mailed again: no longer marked");
    /* Carol opens her mail's link (this carcd's address for it) and joins: told her turns come by mail too */
    char url[400];
    snprintf(url, sizeof url, "%s/games/%s%s", d->base, id, code);
    tab carol;
    tab_open(&b, &carol, url, 1280, 900, false);
    join_as(&b, "Carol", NULL);
    char carol_token[80];
    ck_assert_int_eq(landed_seat(&b, carol_token, sizeof carol_token), 1);
    wait_for(&b, "/carcd also mails your turns to carol@example\\.org/.test(document.getElementById('notice')"
                 ".textContent)?'y':'n'", "y", "the joined note names the address the seat's mail goes to");
    tab_use(&b, &t[1]);
    wait_for(&b, "Array.from(document.querySelectorAll('#host .link-note')).map((e) => e.textContent).join('|')",
             "used: Carol took this seat|mailed to dave@example.org", "Gus's page: Carol's link used");
    free(screenshot(&b, &len, "page-host-mailed.png"));
    free(first);
    free(second);
    free(id);
    browser_stop(&b);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a seat asks for its turns by mail, from its page ---------------------------------------------------------- */
/* On a server without mail the seat's page has no "Turns by e-mail" box. On one with mail (the throwaway Postfix
 * and Dovecot), Ann's page, whose turn it is, offers it: a bad address is the server's refusal, said under the
 * field; carol@example.org is taken (GET .../email says so, and the seat's first mail and its turn mail land in
 * carol's Maildir, the private link holding Ann's token); "Stop these mails" stops them, and the box says so. */
START_TEST(page_mail_turns)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    browser b;
    browser_start(&b);
    tab t;
    game_tab_open(&b, &t, d, g.id, g.token[0], "Ann's page, no mail on this server");
    wait_for(&b, "String(document.getElementById('mail-box').hidden)", "true", "no mail here: no box");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
    if (!(d = mail_daemon_up("mail_turns")))
        return;
    c = e2e_client_new(d);
    e2e_game_create(c, 2, NULL, &g);
    browser_start(&b);
    game_tab_open(&b, &t, d, g.id, g.token[0], "Ann's page");
    wait_for(&b, "String(document.getElementById('mail-box').hidden)", "false", "the box, on a server with mail");
    wait_for(&b, "document.querySelector('#mail-box .mail-state').textContent",
             "carcd can mail you when it is your turn.", "no address yet");
    json_decref(js(&b, "document.querySelector('#mail-box input').value = 'not-an-address';"
                       " document.querySelector('#mail-box button[type=submit]').click()"));
    wait_for(&b, "document.querySelector('#mail-box .mail-form p').textContent",
             "Not changed: email: expected a mail address like ann@example.org, or null", "a bad address refused");
    json_decref(js(&b, "document.querySelector('#mail-box input').value = ' carol@example.org ';"
                       " document.querySelector('#mail-box button[type=submit]').click()"));
    wait_for(&b, "document.querySelector('#mail-box .mail-state').textContent",
             "Your turns are mailed to carol@example.org.", "the address taken");
    wait_for(&b, "String(document.querySelector('#mail-box .mail-form p').hidden)", "true", "the refusal gone");
    wait_for(&b, "String(document.querySelector('#mail-box .mail-stop').hidden)", "false", "a stop button");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/email", g.id);
    json_t *m = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_str_eq(e2e_jstr(m, "email"), "carol@example.org");
    json_decref(m);
    m = e2e_get_ok(c, path, g.token[1], 200);   /* Bob's seat has none: the address is Ann's seat's alone */
    ck_assert_msg(json_is_null(json_object_get(m, "email")), "Bob's seat got Ann's address");
    json_decref(m);
    ck_assert_msg(maildir_has("carol", g.token[0], 20), "the seat's first mail, with its private link, at carol's");
    char turn[200];
    snprintf(turn, sizeof turn, "Carcassonne game %.8s: your turn", g.id);
    ck_assert_msg(maildir_has("carol", turn, 20), "the turn mail at carol's (it is Ann's turn)");
    size_t len;
    free(screenshot(&b, &len, "page-mail-turns.png"));
    click(&b, "#mail-box .mail-stop");
    wait_for(&b, "document.querySelector('#mail-box .mail-state').textContent",
             "carcd can mail you when it is your turn.", "stopped");
    wait_for(&b, "String(document.querySelector('#mail-box .mail-stop').hidden)", "true", "nothing left to stop");
    m = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_msg(json_is_null(json_object_get(m, "email")), "the seat's address is gone");
    json_decref(m);

    /* a game that waits for its seats: the box is there too, and the address hears who joins */
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r),
                     201);
    char wid[40], wtoken[80], code[80];
    snprintf(wid, sizeof wid, "%s", e2e_jstr(r.json, "id"));
    snprintf(wtoken, sizeof wtoken, "%s", e2e_jstr(r.json, "players.0.token"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    tab w;
    game_tab_open(&b, &w, d, wid, wtoken, "Ann's page of a waiting game");
    wait_for(&b, "document.querySelector('#mail-box .mail-state').textContent",
             "carcd can mail you who joins, and your turns once the game starts.", "the box while the game waits");
    json_decref(js(&b, "document.querySelector('#mail-box input').value = 'dave@example.org';"
                       " document.querySelector('#mail-box button[type=submit]').click()"));
    wait_for(&b, "document.querySelector('#mail-box .mail-state').textContent",
             "Who joins, and your turns once the game starts, are mailed to dave@example.org.", "kept for the start");
    snprintf(path, sizeof path, "/v1/games/%s/join", wid);
    char body[200];
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    e2e_resp_free(&r);
    char joined[200];
    snprintf(joined, sizeof joined, "Carcassonne game %.8s: Bob joined, 1 seat open", wid);   /* its subject */
    ck_assert_msg(maildir_has("dave", joined, 20), "the join told at dave's");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a seat's vacation, pause and resignation, from its page ------------------------------------------------- */
/* A clocked game of three (a day a move, 14 vacation days a year). Seat 1's page: two days off (its clock's
 * vacation and the days left, in the view too); the pause asked after seats 0 and 2 asked through the API stops
 * the clock, and "Resume" starts it again; "Resign" asks once and leaves at the second press, the game going
 * on for the other two. In a game made with bot_after_leave the box says a bot plays the seat once it has
 * resigned, and shows no button. A game without a clock shows only "Resign"; a spectator no box at all. */
START_TEST(page_seat_box)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, NULL,
                                         "{\"clock\":{\"per_move_s\":86400,\"timeout\":\"skip\",\"vacation_days\":14}}",
                                         false, &g),
                     201);
    browser b;
    browser_start(&b);
    char path[200];
    tab t;
    game_tab_open(&b, &t, d, g.id, g.token[1], "seat 1's page");
    wait_for(&b, "String(document.getElementById('seat-box').hidden)", "false", "the seat's box");
    wait_for(&b, "document.querySelector('.seat-vacation p').textContent", "Vacation days left this year: 14.",
             "the allowance");
    json_decref(js(&b, "document.querySelector('.seat-vacation input').value = '2';"
                       " document.querySelector('.seat-vacation button').click()"));
    wait_for(&b, "/^On vacation until .*\\. Vacation days left this year: 12\\.$/"
                 ".test(document.querySelector('.seat-vacation p').textContent)?'y':'n'",
             "y", "two days taken");
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_int_eq(e2e_jint(v, "clock.seats.1.vacation_days_left"), 12);
    ck_assert_msg(json_is_string(json_object_get(json_array_get(json_object_get(json_object_get(v, "clock"), "seats"), 1),
                                                 "vacation_until")), "seat 1 is on vacation");
    json_decref(v);
    /* more days than are left: the server's refusal, said in the box */
    json_decref(js(&b, "document.querySelector('.seat-vacation input').value = '20';"
                       " document.querySelector('.seat-vacation button').click()"));
    wait_for(&b, "/^Not done: days: /.test(document.querySelector('#seat-box > p[role=alert]').textContent)?'y':'n'",
             "y", "too many days refused");
    /* the pause: the others asked first (the API), seat 1's press stops the clock; resumed from the page */
    snprintf(path, sizeof path, "/v1/games/%s/pause", g.id);
    e2e_resp r;
    for (int s = 0; s < 3; s += 2) {
        ck_assert_int_eq(e2e_req(c, "POST", path, g.token[s], NULL, NULL, &r), 200);
        e2e_resp_free(&r);
    }
    wait_for(&b, "document.querySelector('.seat-pause button').textContent", "Ask to pause the clock", "not paused yet");
    click(&b, ".seat-pause button");
    wait_for(&b, "document.querySelector('.seat-pause p').textContent", "The clock is paused by agreement.", "paused");
    wait_for(&b, "document.getElementById('clock').textContent", "Clock paused by agreement.", "the clock line says so");
    size_t len;
    free(screenshot(&b, &len, "page-seat-box.png"));
    click(&b, ".seat-pause button");
    wait_for(&b, "document.querySelector('.seat-pause button').textContent", "Ask to pause the clock", "resumed");
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_msg(json_is_false(json_object_get(json_object_get(v, "clock"), "paused")), "the clock runs again");
    json_decref(v);
    /* resigning: asked once, done at the second press */
    click(&b, ".seat-resign");
    wait_for(&b, "document.querySelector('.seat-resign').textContent", "Press again to resign", "the first press asks");
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "left")), 0);
    json_decref(v);
    click(&b, ".seat-resign");
    wait_for(&b, "document.getElementById('seat-box').dataset.left", "1", "seat 1 left");
    wait_for(&b, "document.querySelector('.seat-state').textContent", "You left this game: the others play on.",
             "said so");
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "left")), 1);
    ck_assert_int_eq(e2e_jint(v, "left.0"), 1);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    json_decref(v);
    /* a game made with bot_after_leave: a resignation hands the seat to a bot, whose token then only reads; the
     * box says so and offers nothing more (each of its buttons would be refused) */
    e2e_game botg;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"bot_after_leave\":true}", false, &botg), 201);
    game_tab_open(&b, &t, d, botg.id, botg.token[1], "Bob's page, in a game a bot takes over");
    wait_for(&b, "String(document.querySelector('.seat-resign').hidden)", "false", "Bob may resign");
    click(&b, ".seat-resign");
    wait_for(&b, "document.querySelector('.seat-resign').textContent", "Press again to resign", "asked once");
    click(&b, ".seat-resign");
    wait_for(&b, "document.querySelector('.seat-state').textContent",
             "You left this game: a computer player plays your seat.", "a bot plays the seat");
    wait_for(&b, "[document.getElementById('seat-box').dataset.left, String(document.querySelector('.seat-resign')"
                 ".hidden), String(document.querySelector('#seat-box > p[role=alert]').hidden)].join()",
             "1,true,true", "nothing left to press, and no refusal shown");
    snprintf(path, sizeof path, "/v1/games/%s", botg.id);
    v = e2e_get_ok(c, path, botg.token[1], 200);
    ck_assert_msg(json_is_object(json_object_get(json_array_get(json_object_get(v, "players"), 1), "bot")),
                  "a bot plays seat 1");
    json_decref(v);
    /* no clock: the resignation only; a spectator: no box */
    e2e_game plain;
    e2e_game_create(c, 2, NULL, &plain);
    game_tab_open(&b, &t, d, plain.id, plain.token[0], "a game without a clock");
    wait_for(&b, "[String(document.getElementById('seat-box').hidden), String(document.querySelector('.seat-vacation')"
                 ".hidden), String(document.querySelector('.seat-pause').hidden), String(document.querySelector("
                 "'.seat-resign').hidden)].join()", "false,true,true,false", "only the resignation");
    game_tab_open(&b, &t, d, plain.id, NULL, "a spectator's tab");
    wait_for(&b, "String(document.getElementById('seat-box').hidden)", "true", "no box for a spectator");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a game against the computer from the lobby ------------------------------------------------------------- */
/* Two seats, one of them a computer player: no open seat, so the game starts at once (and is in no list);
 * Dee's tab is her seat's page with her turn, and when she has moved the bot answers on the page. */
START_TEST(page_lobby_bot)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    browser b;
    browser_start(&b);
    tab t;
    lobby_open(&b, &t, d, "Dee", NULL);
    json_decref(js(&b, "document.getElementById('new-seats').value = '2'; document.getElementById('new-bots').value = '2'"));
    click(&b, "#new-send");
    wait_for(&b, "document.getElementById('problem').textContent",
             "A game of 2 seats has room for 1 computer player besides you.", "too many computer players");
    json_decref(js(&b, "document.getElementById('new-bots').value = '1'"));
    click(&b, "#new-send");
    e2e_game g = {.nplayers = 2};
    ck_assert_int_eq(landed_seat(&b, g.token[0], sizeof g.token[0]), 0);
    char *path = js_str(&b, "location.pathname");
    snprintf(g.id, sizeof g.id, "%s", path + strlen("/games/"));
    free(path);
    wait_for(&b, "/^Your turn/.test(document.getElementById('turn').textContent)?'y':'n'", "y", "Dee's turn at once");
    wait_for(&b, SEAT_NAMES, "Dee (you)|greedy bot", "the computer player in the list");
    json_t *lobby = e2e_get_ok(c, "/v1/lobby", NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(lobby, "games")), 0);
    json_decref(lobby);
    /* Dee's turn, through the API; then the bot's, on the page */
    char p[200];
    snprintf(p, sizeof p, "/v1/games/%s", g.id);
    e2e_rng rng = {3};
    int seq;
    for (;;) {
        json_t *v = e2e_get_ok(c, p, NULL, 200);
        seq = (int)e2e_jint(v, "seq");
        long seat = e2e_jint(v, "pending.seat");
        json_decref(v);
        if (seat != 0)
            break;
        e2e_play m;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &m), 200);
        e2e_play_free(&m);
    }
    char expr[300];
    snprintf(expr, sizeof expr, "Number(document.body.dataset.seq) > %d &&"
             " /^Your turn/.test(document.getElementById('turn').textContent) ? 'y' : 'n'", seq);
    wait_for(&b, expr, "y", "the bot answered and it is Dee's turn again");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- a broken link ------------------------------------------------------------------------------------------ */
/* A game's link cut in two by a mail program, or a game that is not there: a browser gets a page that says so
 * (404, the problem's title and detail, what to do), a program the problem+json document, from the same URL. */
START_TEST(page_broken_link)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    static const char *const cut = "/games/0b4e7f2a-5c1d";
    static const char *const gone = "/games/0b4e7f2a-5c1d-4e8b-9a3f-6d2c1b0e9f7b";
    static const char *const browser_accept[] = {
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", NULL};
    e2e_resp r;
    char vary[64];
    ck_assert_int_eq(e2e_req(c, "GET", cut, NULL, NULL, NULL, &r), 404);
    e2e_assert_problem(&r, 404, "id", "a program reads a cut link");
    ck_assert_ptr_nonnull(strstr(e2e_jstr(r.json, "detail"), "cut in two"));
    /* the same URL answers a page to a browser: a cache must not give this to one */
    ck_assert_ptr_nonnull(e2e_header(&r, "Vary", vary, sizeof vary));
    ck_assert_str_eq(vary, "Accept");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", cut, NULL, NULL, browser_accept, &r), 404);
    ck_assert_str_eq(r.content_type, "text/html; charset=utf-8");
    ck_assert_ptr_nonnull(e2e_header(&r, "Vary", vary, sizeof vary));
    ck_assert_str_eq(vary, "Accept");
    ck_assert_ptr_nonnull(strstr(r.body, "<h1>Not found</h1>"));
    e2e_resp_free(&r);

    browser b;
    browser_start(&b);
    tab t;
    char url[300];
    static const char *const status_js =
        "String(performance.getEntriesByType('navigation')[0].responseStatus)";
    snprintf(url, sizeof url, "%s%s", d->base, cut);
    tab_open(&b, &t, url, 390, 844, true);
    wait_for(&b, "document.title", "Not found — carcd", "the cut link's page");
    wait_for(&b, status_js, "404", "its status");
    char *detail = js_str(&b, "document.getElementById('detail').textContent");
    ck_assert_msg(strstr(detail, "a link cut in two by a mail program") && strstr(detail, "copy the whole link"),
                  "the detail: %s", detail);
    free(detail);
    size_t len;
    free(screenshot(&b, &len, "page-broken-link.png"));
    snprintf(url, sizeof url, "%s%s#token=cs_x", d->base, gone);
    json_decref(cdp(&b, "Page.navigate", json_pack("{s:s}", "url", url)));
    wait_for(&b, "document.getElementById('detail') ? document.getElementById('detail').textContent : ''",
             "no game with that id", "a game that is not there");
    wait_for(&b, status_js, "404", "its status");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- the page's files ------------------------------------------------------------------------------------------ */
START_TEST(page_assets)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    char path[120], buf[400];
    snprintf(path, sizeof path, "/games/%s", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, NULL, &r), 200);
    const char *csp = e2e_header(&r, "Content-Security-Policy", buf, sizeof buf);
    ck_assert_msg(csp && strstr(csp, "script-src 'self'") && !strstr(csp, "unsafe-inline"), "CSP: %s", csp ? csp : "-");
    ck_assert_msg(strstr(r.body, "<script type=\"module\" src=\"/games/assets/main.js\">") != NULL, "no module");
    ck_assert_msg(strstr(r.body, "<script>") == NULL && strstr(r.body, "style=") == NULL, "inline code in the page");
    e2e_resp_free(&r);
    const char *files[][2] = {{"main.js", "text/javascript"},  {"game.css", "text/css"},
                              {"board.js", "text/javascript"}, {"api.js", "text/javascript"},
                              {"tile.js", "text/javascript"},  {"panel.js", "text/javascript"},
                              {"choices.js", "text/javascript"}, {"words.js", "text/javascript"},
                              {"mailme.js", "text/javascript"}, {"seatbox.js", "text/javascript"},
                              {"leave.js", "text/javascript"}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "/games/assets/%s", files[i][0]);
        ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, NULL, &r), 200);
        ck_assert_msg(strncmp(r.content_type, files[i][1], strlen(files[i][1])) == 0, "%s: %s", path, r.content_type);
        char etag[80], inm[120], cc[80];
        ck_assert(e2e_header(&r, "ETag", etag, sizeof etag) != NULL);
        /* revalidated at every load: after an upgrade no browser runs new modules with old ones */
        ck_assert_str_eq(e2e_header(&r, "Cache-Control", cc, sizeof cc), "public, no-cache");
        e2e_resp_free(&r);
        snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
        const char *h[] = {inm, NULL};
        ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, h, &r), 304);
        e2e_resp_free(&r);
    }
    ck_assert_int_eq(e2e_req(c, "GET", "/games/assets/nothing.js", NULL, NULL, NULL, &r), 404);
    e2e_assert_problem(&r, 404, "name", "an unknown asset");
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* ---- the chat panel ------------------------------------------------------------------------------------------ */
/* Three seats: messages posted through the API and from a tab reach every seat's tab, shown as text (markup in
 * them is characters, never elements); a spectator of a game without public_chat gets no panel, one with it
 * reads along without a box to write in; the game's seq does not move. */
static const char HOSTILE[] = "<img src=x onerror=\"document.body.dataset.pwned=1\"> **bold** & <b>b</b>";

static void wait_msgs(browser *b, int n, const char *what)
{
    char expr[160], want[16];
    snprintf(expr, sizeof expr, "String(document.querySelectorAll('#chat-log .msg').length)");
    snprintf(want, sizeof want, "%d", n);
    wait_for(b, expr, want, what);
}

START_TEST(page_chat)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 3, NULL, &g);
    browser b;
    browser_start(&b);
    char url[300], mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%s/messages", g.id);
    tab t[3];
    for (int i = 0; i < 2; i++) {
        snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, g.id, g.token[i]);
        tab_open(&b, &t[i], url, 1280, 900, false);
        wait_page_seq(&b, 0, "a seat's tab loaded");
        wait_for(&b, "document.body.dataset.chat", "1", "its chat panel");
    }
    /* seat 2 writes through the API: both tabs show it, as text */
    json_t *body = json_pack("{s:s}", "text", HOSTILE);
    char *text = json_dumps(body, 0);
    json_decref(body);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", mp, g.token[2], text, NULL, &r), 201);
    e2e_resp_free(&r);
    free(text);
    for (int i = 0; i < 2; i++) {
        tab_use(&b, &t[i]);
        wait_msgs(&b, 1, "the message arrives");
        char *shown = js_str(&b, "document.querySelector('#chat-log .msg .text').textContent");
        ck_assert_str_eq(shown, HOSTILE);
        free(shown);
        char *who = js_str(&b, "document.querySelector('#chat-log .msg .who').textContent");
        ck_assert_str_eq(who, "P2: ");
        free(who);
        wait_for(&b, "String(document.querySelectorAll('#chat img, #chat b').length)", "0", "no element from a text");
        wait_for(&b, "document.body.dataset.pwned || 'no'", "no", "no script ran");
    }
    /* seat 0 writes from its tab (Enter sends); seat 1's tab shows it */
    tab_use(&b, &t[0]);
    json_decref(js(&b, "document.getElementById('chat-text').value = 'nice city!\\nreally'"));
    click(&b, "#chat-send");
    wait_msgs(&b, 2, "its own message");
    tab_use(&b, &t[1]);
    wait_msgs(&b, 2, "seat 0's message in seat 1's tab");
    char *shown = js_str(&b, "document.querySelectorAll('#chat-log .msg .text')[1].textContent");
    ck_assert_str_eq(shown, "nice city!\nreally");
    free(shown);
    size_t len;
    free(screenshot(&b, &len, "page-chat.png"));
    json_t *a = e2e_get_ok(c, mp, g.token[2], 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 2);
    ck_assert_str_eq(e2e_jstr(a, "messages.1.text"), "nice city!\nreally");
    ck_assert_int_eq(e2e_jint(a, "messages.1.seat"), 0);
    json_decref(a);
    ck_assert_int_eq(server_seq(c, &g, NULL), 0);   /* messages are no moves */
    /* typed key by key: an R in the box is a letter, not the tile's turn (main.js leaves typing alone) */
    tab_use(&b, &t[0]);
    json_decref(js(&b, "document.getElementById('chat-text').focus()"));
    char *r0 = js_str(&b, "document.getElementById('drawn-tile').getAttribute('aria-label')");
    for (const char *k = "Great run"; *k; k++) {
        char one[2] = {*k, 0};
        key(&b, one, *k == ' ' ? 32 : *k >= 'a' ? *k - 32 : *k);
    }
    wait_for(&b, "document.getElementById('chat-text').value", "Great run", "every letter typed");
    char *r1 = js_str(&b, "document.getElementById('drawn-tile').getAttribute('aria-label')");
    ck_assert_str_eq(r1, r0);
    free(r0);
    free(r1);

    /* seat 1 mutes P2 from its tab: P2's message leaves the page, its next one never comes (seat 0 gets it),
     * and an unmute brings both back; the button says which it does */
    tab_use(&b, &t[1]);
    wait_for(&b, "Array.from(document.querySelectorAll('#chat-mutes .mute')).map((e) => e.textContent).join('|')",
             "Mute P0|Mute P2", "a mute button for each other seat");
    click(&b, "#chat-mutes .mute[data-seat=\"2\"]");
    wait_msgs(&b, 1, "P2's message gone from seat 1's tab");
    wait_for(&b, "document.querySelector('#chat-mutes .mute[data-seat=\"2\"]').textContent", "Unmute P2",
             "the button unmutes now");
    a = e2e_get_ok(c, mp, g.token[1], 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "muted")), 1);
    ck_assert_int_eq(e2e_jint(a, "muted.0"), 2);
    json_decref(a);
    ck_assert_int_eq(e2e_req(c, "POST", mp, g.token[2], "{\"text\":\"still here\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    tab_use(&b, &t[0]);
    wait_msgs(&b, 3, "seat 0 reads P2 on");
    tab_use(&b, &t[1]);
    nap_ms(500);
    wait_msgs(&b, 1, "seat 1 does not");
    click(&b, "#chat-mutes .mute[data-seat=\"2\"]");
    wait_msgs(&b, 3, "an unmute shows P2's messages again");
    wait_for(&b, "document.querySelector('#chat-mutes .mute[data-seat=\"2\"]').textContent", "Mute P2",
             "the button mutes again");

    /* a spectator: no panel where the chat is the seats', a read-only one where it is public */
    snprintf(url, sizeof url, "%s/games/%s", d->base, g.id);
    tab_open(&b, &t[2], url, 1280, 900, false);
    wait_page_seq(&b, 0, "the spectator's tab");
    nap_ms(500);
    wait_for(&b, "String(document.getElementById('chat').hidden)", "true", "no chat for a spectator");
    e2e_game pub;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, "{\"public_chat\":true}", false, &pub), 201);
    snprintf(mp, sizeof mp, "/v1/games/%s/messages", pub.id);
    ck_assert_int_eq(e2e_req(c, "POST", mp, pub.token[0], "{\"text\":\"hello, watchers\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    snprintf(url, sizeof url, "%s/games/%s", d->base, pub.id);
    tab_open(&b, &t[2], url, 1280, 900, false);
    wait_for(&b, "document.body.dataset.chat", "1", "a public chat's panel");
    wait_msgs(&b, 1, "the spectator reads along");
    wait_for(&b, "String(!!document.getElementById('chat-form'))", "false", "no box to write in");
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Before the start a seat given up moves the later ones down by one: the mute buttons of an open page follow
 * (Bob leaves, and "Mute Cy" is drawn again with Cy's new number), so that a click mutes the player it names. */
START_TEST(page_chat_seats_move)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Host\"},{\"invite\":true},{\"invite\":true},"
                             "{\"invite\":true},{\"invite\":true}]}", NULL, &r), 201);   /* one stays open */
    char id[40], host[80], codes[4][80], tok[3][80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(host, sizeof host, "%s", e2e_jstr(r.json, "players.0.token"));
    e2e_invite_codes(r.json, 4, codes);
    e2e_resp_free(&r);
    const char *who[] = {"Bob", "Cy", "Dee"};
    for (int i = 0; i < 3; i++)
        e2e_join_by_code(c, id, who[i], codes[i], tok[i]);
    browser b;
    browser_start(&b);
    tab t;
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, id, host);
    tab_open(&b, &t, url, 1280, 900, false);
    const char *buttons = "Array.from(document.querySelectorAll('#chat-mutes .mute'))"
                          ".map((e) => e.dataset.seat + ' ' + e.textContent).join('|')";
    wait_for(&b, buttons, "1 Mute Bob|2 Mute Cy|3 Mute Dee", "a mute button for each other seat");
    snprintf(path, sizeof path, "/v1/games/%s/leave", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, tok[0], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    wait_for(&b, buttons, "1 Mute Cy|2 Mute Dee", "the buttons follow the seats");
    click(&b, "#chat-mutes .mute[data-seat=\"1\"]");
    wait_for(&b, "document.querySelector('#chat-mutes .mute[data-seat=\"1\"]').textContent", "Unmute Cy",
             "Cy muted");
    snprintf(path, sizeof path, "/v1/games/%s/messages?after=0", id);
    json_t *m = e2e_get_ok(c, path, host, 200);
    ck_assert_msg(json_array_size(json_object_get(m, "muted")) == 1 && e2e_jint(m, "muted.0") == 1,
                  "the host muted seat 1, Cy's");
    json_decref(m);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A seat that joined by its invitation gives it back before the start: "Leave this game" (pressed twice) on its
 * page, which then opens as anyone's with a word of what happened; the place is open again, and the same
 * invitation takes it anew. The host's seat, named at the creation, has no such button. */
START_TEST(page_leave_before_start)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Host\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r), 201);
    json_t *created = json_incref(r.json);
    e2e_resp_free(&r);
    char id[40], host[80], url[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(created, "id"));
    snprintf(host, sizeof host, "%s", e2e_jstr(created, "players.0.token"));
    browser b;
    browser_start(&b);
    tab t[4];

    /* Guest joins by the first invitation: seat 1's page has the button */
    invite_page_url(d, created, 0, url, sizeof url);
    tab_open(&b, &t[0], url, 1280, 900, false);
    wait_for(&b, "document.getElementById('turn').textContent", "This game waits for 2 more players to join.",
             "the waiting game");
    join_as(&b, "Guest", NULL);
    wait_for(&b, "/^#token=cs_/.test(location.hash)?'y':'n'", "y", "the seat's page");
    wait_for(&b, "document.body.dataset.ready", "1", "the seat's page loaded");
    wait_for(&b, SEAT_NAMES, "Host|Guest|an open seat", "the seats taken and open");
    wait_for(&b, "String(document.getElementById('leave-box').hidden)", "false", "the leave box");
    wait_for(&b, "document.getElementById('leave-game').textContent", "Leave this game", "its button");
    char *seat_link = js_str(&b, "location.href");   /* the link with Guest's token, as a mail or a bookmark keeps it */
    size_t len;
    free(screenshot(&b, &len, "page-leave.png"));

    /* the host's page (a named seat) has none */
    snprintf(url, sizeof url, "%s/games/%s#token=%s", d->base, id, host);
    tab_open(&b, &t[1], url, 1280, 900, false);
    wait_for(&b, "document.body.dataset.ready", "1", "the host's page loaded");
    wait_for(&b, SEAT_NAMES, "Host|Guest|an open seat", "the host sees Guest");
    wait_for(&b, "String(document.getElementById('leave-box').hidden)", "true", "no leave box for a named seat");

    /* Guest leaves: the first press asks, the second does it */
    tab_use(&b, &t[0]);
    click(&b, "#leave-game");
    wait_for(&b, "document.getElementById('leave-game').textContent", "Press again to leave the game",
             "the first press asks");
    snprintf(url, sizeof url, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, url, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 1);   /* asked, not done */
    json_decref(v);
    click(&b, "#leave-game");
    wait_for(&b, "location.hash === '' && document.body.dataset.ready === '1' ? 'y' : 'n'", "y",
             "the page again, without the seat's token");
    wait_for(&b, "document.getElementById('notice').textContent",
             "You left this game. Your seat is open again for someone else; the old link to it no longer works.",
             "the page says what happened");
    wait_for(&b, SEAT_NAMES, "Host|an open seat|an open seat", "the seat is open again");
    wait_for(&b, "String(document.getElementById('leave-box').hidden)", "true", "no button for anyone");
    v = e2e_get_ok(c, url, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 2);
    json_decref(v);
    tab_use(&b, &t[1]);   /* the host's page hears of it */
    wait_for(&b, SEAT_NAMES, "Host|an open seat|an open seat", "the host sees the seat open");
    /* the old link, opened again, says that its seat was given up (403 seat-given-up), not that it is wrong */
    tab_open(&b, &t[3], seat_link, 1280, 900, false);
    wait_for(&b, "document.body.dataset.fatal === '1' && document.getElementById('fatal').textContent.startsWith("
                 "'You left this game before it started') ? 'y' : 'n'",
             "y", "the old link says that its seat was given up");
    free(seat_link);

    /* the same invitation takes the seat again */
    invite_page_url(d, created, 0, url, sizeof url);
    tab_open(&b, &t[2], url, 1280, 900, false);
    join_as(&b, "Guest2", NULL);
    wait_for(&b, "/^#token=cs_/.test(location.hash)?'y':'n'", "y", "the seat's page again");
    wait_for(&b, SEAT_NAMES, "Host|Guest2|an open seat", "Guest2 at seat 1");
    json_decref(created);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* One case per test, so that CK_RUN_CASE=<name> runs one of them. */
int main(void)
{
    Suite *s = suite_create("e2e_page");
    struct {
        const char *name;
        const TTest *test;
        double seconds;
    } cases[] = {{"assets", page_assets, 60},          {"bad_token", page_bad_token, 120},
                 {"two_tabs", page_two_tabs, 120},     {"clock_move", page_clock_move, 120},
                 {"clock_change", page_clock_change, 120}, {"refused", page_refused_move, 120},
                 {"press_loading", page_press_while_loading, 120},
                 {"press_loading_phone", page_press_while_loading_phone, 120}, {"keyboard", page_keyboard, 120},
                 {"phone_follow", page_phone_follow, 180}, {"compacted", page_compacted, 240},
                 {"reconnects", page_reconnects, 120},     {"cancelled", page_cancelled_under_way, 120},
                 {"rematch", page_rematch, 120},          {"resigned_leader", page_resigned_leader, 120},
                 {"waiting", page_waiting_game, 120},     {"join", page_join_by_invitation, 120},
                 {"broken_link", page_broken_link, 120},  {"lobby", page_lobby, 120},
                 {"lobby_bot", page_lobby_bot, 120},  {"lobby_invite", page_lobby_invite, 120},
                 {"lobby_mail", page_lobby_mail, 120},  {"mail_turns", page_mail_turns, 120},
                 {"seat_box", page_seat_box, 120},        {"leave", page_leave_before_start, 120},
                 {"chat", page_chat, 120},           {"chat_seats_move", page_chat_seats_move, 120},
                 {"desktop", page_full_game_desktop, 600}, {"phone", page_full_game_phone, 600}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        TCase *tc = e2e_tcase(cases[i].name, cases[i].seconds);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    return e2e_run(s);
}
