/*
 * test_page.c — the game page in a real browser: Debian's headless Chromium, driven through the Chrome
 * DevTools Protocol over --remote-debugging-pipe (JSON messages separated by NUL bytes on file descriptors
 * 3 and 4 of the browser; no port, no WebSocket, no node). It loads GET /games/{id} from carcd, takes a
 * screenshot and checks the board area's colours (fields and cities drawn), then clicks through the replay:
 * the "one move back" button, the "start" button, the slider by keyboard, a line of the move log, and checks
 * each time that the board shown is the one of that move (the page fetched board.svg?seq=N).
 *
 * Chromium is a dependency (scripts/packages.txt): when it is missing the test fails, it does not skip.
 * With CARCD_SCREENSHOTS=<dir> the screenshots are kept there (page-now.png, page-start.png).
 */
#include <cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define CDP_TIMEOUT_S 30.0

static const char *chromium_path(void)
{
    static const char *const paths[] = {"/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromium-browser",
                                        NULL};
    const char *env = getenv("CARCD_CHROMIUM");
    if (env && *env)
        return env;
    for (int i = 0; paths[i]; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

/* ---- the browser and its pipe ------------------------------------------------------------------------------ */
typedef struct {
    pid_t pid;
    int to, from;          /* our ends: commands out, answers and events in */
    char profile[256];
    char *buf;
    size_t len, cap;
    int next_id;
    char session[128];
} browser;

static void browser_start(browser *b)
{
    const char *exe = chromium_path();
    ck_assert_msg(exe != NULL, "no Chromium (/usr/bin/chromium): scripts/deps.sh installs the package chromium");
    memset(b, 0, sizeof *b);
    const char *tmp = getenv("TMPDIR");
    snprintf(b->profile, sizeof b->profile, "%s/carcd-chromium.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert(mkdtemp(b->profile) != NULL);
    int cmd[2], ans[2];
    ck_assert_int_eq(pipe(cmd), 0);
    ck_assert_int_eq(pipe(ans), 0);
    char profile_arg[300];
    snprintf(profile_arg, sizeof profile_arg, "--user-data-dir=%s", b->profile);
    char *argv[] = {(char *)exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                    "--window-size=1280,1000", profile_arg, "--remote-debugging-pipe", "about:blank", NULL};
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        /* the browser reads commands on fd 3 and writes answers on fd 4 */
        int r = dup(cmd[0]), w = dup(ans[1]);
        if (r < 0 || w < 0 || dup2(r, 3) < 0 || dup2(w, 4) < 0)
            _exit(126);
        for (int fd = 5; fd < 1024; fd++)
            close(fd);
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
        setsid();
        execv(exe, argv);
        _exit(127);
    }
    close(cmd[0]);
    close(ans[1]);
    b->pid = pid;
    b->to = cmd[1];
    b->from = ans[0];
    b->next_id = 1;
}

static void browser_stop(browser *b)
{
    if (b->pid > 0) {
        kill(-b->pid, SIGKILL);
        kill(b->pid, SIGKILL);
        waitpid(b->pid, NULL, 0);
        b->pid = 0;
    }
    close(b->to);
    close(b->from);
    free(b->buf);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->profile);
    if (system(cmd) != 0)
        fprintf(stderr, "e2e page: could not remove %s\n", b->profile);
}

/* The next message (a new reference), waiting until `deadline`; NULL on timeout or when the browser is gone. */
static json_t *cdp_read(browser *b, double deadline)
{
    for (;;) {
        char *nul = b->len ? memchr(b->buf, 0, b->len) : NULL;
        if (nul) {
            size_t n = (size_t)(nul - b->buf);
            json_t *j = json_loadb(b->buf, n, 0, NULL);
            memmove(b->buf, nul + 1, b->len - n - 1);
            b->len -= n + 1;
            if (j)
                return j;
            continue;
        }
        double left = deadline - e2e_now();
        if (left <= 0)
            return NULL;
        struct pollfd pf = {b->from, POLLIN, 0};
        int pr = poll(&pf, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            return NULL;
        if (b->cap - b->len < 65536) {
            b->cap = b->cap ? b->cap * 2 : 1 << 20;
            b->buf = realloc(b->buf, b->cap);
        }
        ssize_t k = read(b->from, b->buf + b->len, b->cap - b->len);
        if (k <= 0)
            return NULL;
        b->len += (size_t)k;
    }
}

/* Sends a command (params stolen; on the page's session once attached) and waits for its answer's result
 * (a new reference). Events that arrive meanwhile are dropped. */
static json_t *cdp(browser *b, const char *method, json_t *params)
{
    int id = b->next_id++;
    json_t *msg = json_pack("{s:i, s:s, s:o}", "id", id, "method", method, "params", params ? params : json_object());
    if (b->session[0])
        json_object_set_new(msg, "sessionId", json_string(b->session));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    size_t n = strlen(text) + 1;   /* with its NUL */
    for (size_t off = 0; off < n;) {
        ssize_t k = write(b->to, text + off, n - off);
        ck_assert_msg(k > 0, "CDP %s: the browser's pipe is closed", method);
        off += (size_t)k;
    }
    free(text);
    double deadline = e2e_now() + CDP_TIMEOUT_S;
    for (;;) {
        json_t *m = cdp_read(b, deadline);
        ck_assert_msg(m != NULL, "CDP %s: no answer within %.0f s", method, CDP_TIMEOUT_S);
        if (json_integer_value(json_object_get(m, "id")) == id) {
            json_t *err = json_object_get(m, "error");
            if (err) {
                char *e = json_dumps(err, JSON_COMPACT);
                ck_abort_msg("CDP %s: %s", method, e);
            }
            json_t *res = json_incref(json_object_get(m, "result"));
            json_decref(m);
            return res;
        }
        json_decref(m);
    }
}

/* Evaluates a JavaScript expression in the page; its value (a new reference). */
static json_t *js(browser *b, const char *expr)
{
    json_t *r = cdp(b, "Runtime.evaluate", json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1,
                                                     "awaitPromise", 1));
    json_t *v = json_incref(json_object_get(json_object_get(r, "result"), "value"));
    json_decref(r);
    return v;
}

static char *js_str(browser *b, const char *expr)
{
    json_t *v = js(b, expr);
    char *s = strdup(json_is_string(v) ? json_string_value(v) : "");
    json_decref(v);
    return s;
}

/* Waits until `expr` evaluates to the string `want`. */
static void wait_for(browser *b, const char *expr, const char *want, const char *what)
{
    double t0 = e2e_now();
    char *got = NULL;
    while (e2e_now() - t0 < CDP_TIMEOUT_S) {
        free(got);
        got = js_str(b, expr);
        if (strcmp(got, want) == 0) {
            free(got);
            return;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("%s: %s is '%s', want '%s'", what, expr, got, want);
}

/* A real mouse click in the middle of the element `selector`. */
static void click(browser *b, const char *selector)
{
    char expr[300];
    snprintf(expr, sizeof expr,
             "(function(){var r=document.querySelector('%s').getBoundingClientRect();"
             "return [r.left+r.width/2, r.top+r.height/2];})()",
             selector);
    json_t *xy = js(b, expr);
    ck_assert_msg(json_array_size(xy) == 2, "no element %s", selector);
    double x = json_number_value(json_array_get(xy, 0)), y = json_number_value(json_array_get(xy, 1));
    json_decref(xy);
    const char *types[] = {"mouseMoved", "mousePressed", "mouseReleased"};
    for (int i = 0; i < 3; i++)
        json_decref(cdp(b, "Input.dispatchMouseEvent",
                        json_pack("{s:s, s:f, s:f, s:s, s:i}", "type", types[i], "x", x, "y", y, "button",
                                  i ? "left" : "none", "clickCount", i ? 1 : 0)));
}

static void key(browser *b, const char *k, int code)
{
    json_decref(cdp(b, "Input.dispatchKeyEvent", json_pack("{s:s, s:s, s:s, s:i}", "type", "keyDown", "key", k, "code",
                                                           k, "windowsVirtualKeyCode", code)));
    json_decref(cdp(b, "Input.dispatchKeyEvent", json_pack("{s:s, s:s, s:s, s:i}", "type", "keyUp", "key", k, "code",
                                                           k, "windowsVirtualKeyCode", code)));
}

/* ---- screenshots -------------------------------------------------------------------------------------------- */
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

/* A screenshot as PNG bytes (malloc'd), kept as `name` under $CARCD_SCREENSHOTS when set. */
static unsigned char *screenshot(browser *b, size_t *len, const char *name)
{
    json_t *r = cdp(b, "Page.captureScreenshot", json_pack("{s:s}", "format", "png"));
    const char *b64 = json_string_value(json_object_get(r, "data"));
    ck_assert_msg(b64 && strlen(b64) > 100, "no screenshot data");
    size_t n = strlen(b64);
    unsigned char *png = malloc(n);
    int k = EVP_DecodeBlock(png, (const unsigned char *)b64, (int)n);
    ck_assert_int_gt(k, 0);
    while (n > 0 && b64[n - 1] == '=') {   /* EVP_DecodeBlock counts the padding as zero bytes */
        n--;
        k--;
    }
    json_decref(r);
    *len = (size_t)k;
    const char *dir = getenv("CARCD_SCREENSHOTS");
    if (dir && *dir) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(png, 1, *len, f);
            fclose(f);
        }
    }
    return png;
}

/* Pixels of the rectangle close to colour rgb (0xRRGGBB), counted in the screenshot. */
static long colour_pixels(cairo_surface_t *s, int x0, int y0, int x1, int y1, uint32_t rgb)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *d = cairo_image_surface_get_data(s);
    long n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(d + y * stride + x * 4);
            int dr = (int)((px >> 16) & 255) - (int)((rgb >> 16) & 255);
            int dg = (int)((px >> 8) & 255) - (int)((rgb >> 8) & 255);
            int db = (int)(px & 255) - (int)(rgb & 255);
            if (dr * dr + dg * dg + db * db < 12 * 12)
                n++;
        }
    return n;
}

/* ---- the test ------------------------------------------------------------------------------------------------- */
START_TEST(page_in_chromium)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 2, NULL, &g);
    e2e_rng rng = {5};
    for (int i = 0; i < 12; i++) {
        e2e_play p;
        long st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        ck_assert_int_eq(st, 200);
    }
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);

    browser b;
    browser_start(&b);
    json_t *t = cdp(&b, "Target.createTarget", json_pack("{s:s}", "url", "about:blank"));
    const char *target = json_string_value(json_object_get(t, "targetId"));
    ck_assert_msg(target != NULL, "no target");
    json_t *a = cdp(&b, "Target.attachToTarget", json_pack("{s:s, s:b}", "targetId", target, "flatten", 1));
    snprintf(b.session, sizeof b.session, "%s", json_string_value(json_object_get(a, "sessionId")));
    json_decref(a);
    json_decref(t);
    json_decref(cdp(&b, "Page.enable", NULL));
    json_decref(cdp(&b, "Runtime.enable", NULL));
    json_decref(cdp(&b, "Emulation.setDeviceMetricsOverride",
                    json_pack("{s:i, s:i, s:i, s:b}", "width", 1280, "height", 1000, "deviceScaleFactor", 1, "mobile", 0)));
    char url[300];
    snprintf(url, sizeof url, "%s/games/%s", d->base, g.id);
    json_decref(cdp(&b, "Page.navigate", json_pack("{s:s}", "url", url)));
    /* the script ran: the log is loaded and the board is the latest */
    wait_for(&b, "document.body && document.body.dataset.ready", "1", "page ready");
    char want[32];
    snprintf(want, sizeof want, "%d", seq);
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", want, "the board now");
    char *items = js_str(&b, "String(document.querySelectorAll('#log li').length)");
    snprintf(want, sizeof want, "%d", seq + 1);
    ck_assert_msg(strcmp(items, want) == 0, "the move log has %s lines, want %s", items, want);
    free(items);
    char *err = js_str(&b, "document.getElementById('status').textContent");
    ck_assert_msg(err[0] == 0, "the page reports: %s", err);
    free(err);

    /* the screenshot: a real picture whose board area shows fields and cities */
    json_t *rect = js(&b, "(function(){var r=document.querySelector('#board svg').getBoundingClientRect();"
                          "return [Math.round(r.left),Math.round(r.top),Math.round(r.right),Math.round(r.bottom)];})()");
    ck_assert_int_eq(json_array_size(rect), 4);
    int x0 = (int)json_number_value(json_array_get(rect, 0)), y0 = (int)json_number_value(json_array_get(rect, 1));
    int x1 = (int)json_number_value(json_array_get(rect, 2)), y1 = (int)json_number_value(json_array_get(rect, 3));
    json_decref(rect);
    ck_assert_msg(x1 - x0 > 200 && y1 - y0 > 200, "the board is %dx%d px", x1 - x0, y1 - y0);
    size_t len;
    unsigned char *png = screenshot(&b, &len, "page-now.png");
    ck_assert_msg(len > 10000 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "not a PNG screenshot (%zu bytes)", len);
    png_src src = {png, len, 0};
    cairo_surface_t *shot = cairo_image_surface_create_from_png_stream(png_read, &src);
    ck_assert_int_eq(cairo_surface_status(shot), CAIRO_STATUS_SUCCESS);
    ck_assert_int_eq(cairo_image_surface_get_width(shot), 1280);
    long field = colour_pixels(shot, x0, y0, x1, y1, 0x8cc063), city = colour_pixels(shot, x0, y0, x1, y1, 0xd8b26e);
    long table = colour_pixels(shot, x0, y0, x1, y1, 0xf3efe4);
    ck_assert_msg(field > 2000, "the board area has %ld field-green pixels", field);
    ck_assert_msg(city > 300, "the board area has %ld city pixels", city);
    ck_assert_msg(table > 2000, "the board area has %ld table pixels", table);
    cairo_surface_destroy(shot);

    /* the replay: one move back, then to the start, then forward by keyboard on the slider, then a log line */
    click(&b, "#prev");
    snprintf(want, sizeof want, "%d", seq - 1);
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", want, "after clicking back");
    char *slider = js_str(&b, "document.getElementById('seq').value");
    ck_assert_msg(strcmp(want, slider) == 0, "the slider is at %s, want %s", slider, want);
    free(slider);
    click(&b, "#first");
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", "0", "after clicking start");
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-pieces')", "1", "the start tile alone");
    wait_for(&b, "String(document.getElementById('prev').disabled)", "true", "back disabled at the start");
    size_t len0;
    unsigned char *png0 = screenshot(&b, &len0, "page-start.png");
    ck_assert_msg(len0 != len || memcmp(png0, png, len) != 0, "the start looks like now");
    free(png0);
    json_decref(js(&b, "document.getElementById('seq').focus()"));
    key(&b, "ArrowRight", 39);
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", "1", "after the slider");
    click(&b, "#log li[data-seq=\"3\"]");
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", "3", "after clicking move 3");
    wait_for(&b, "document.querySelector('#log li.current').dataset.seq", "3", "the log marks move 3");
    click(&b, "#last");
    snprintf(want, sizeof want, "%d", seq);
    wait_for(&b, "document.querySelector('#board svg').getAttribute('data-seq')", want, "after clicking now");
    free(png);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_page");
    TCase *tc = e2e_tcase("page", 120);
    tcase_add_test(tc, page_in_chromium);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
