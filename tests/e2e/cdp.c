/*
 * cdp.c — a small Chrome DevTools Protocol driver for the browser tests: Debian's headless Chromium started
 * with --remote-debugging-pipe (JSON messages separated by NUL bytes on its file descriptors 3 and 4: no
 * port, no WebSocket, no node). Commands go to the browser, or to one page (tab) once attached: cdp.h.
 */
#define _GNU_SOURCE   /* asprintf */
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

#include "cdp.h"


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
void browser_start(browser *b)
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

void browser_stop(browser *b)
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
    json_decref(b->paused);
    b->paused = NULL;
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

/* A Fetch.requestPaused event's params go into b->paused (cdp_paused takes them); other events are dropped. */
static void keep_paused(browser *b, const json_t *m)
{
    const char *method = json_string_value(json_object_get(m, "method"));
    if (!method || strcmp(method, "Fetch.requestPaused") != 0)
        return;
    if (!b->paused)
        b->paused = json_array();
    json_array_append(b->paused, json_object_get(m, "params"));
}

char *cdp_paused(browser *b, const char *url_part)
{
    double deadline = e2e_now() + CDP_TIMEOUT_S;
    for (;;) {
        size_t i;
        json_t *p;
        json_array_foreach(b->paused, i, p) {
            const char *url = json_string_value(json_object_get(json_object_get(p, "request"), "url"));
            if (url && strstr(url, url_part)) {
                char *id = strdup(json_string_value(json_object_get(p, "requestId")));
                json_array_remove(b->paused, i);
                return id;
            }
        }
        json_t *m = cdp_read(b, deadline);
        ck_assert_msg(m != NULL, "no request for %s was paused within %.0f s", url_part, CDP_TIMEOUT_S);
        keep_paused(b, m);
        json_decref(m);
    }
}

/* cdp, or with `error` its error object (a new reference in *error, NULL returned) instead of failing. */
static json_t *cdp_call(browser *b, const char *method, json_t *params, json_t **error)
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
        keep_paused(b, m);
        if (json_integer_value(json_object_get(m, "id")) == id) {
            json_t *err = json_object_get(m, "error");
            if (err && error) {
                *error = json_incref(err);
                json_decref(m);
                return NULL;
            }
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

/* Sends a command (params stolen; on the page's session once attached) and waits for its answer's result
 * (a new reference). Events that arrive meanwhile are dropped, except paused requests (keep_paused). */
json_t *cdp(browser *b, const char *method, json_t *params)
{
    return cdp_call(b, method, params, NULL);
}

/* Evaluates a JavaScript expression in the page; its value (a new reference). */
json_t *js(browser *b, const char *expr)
{
    json_t *r = cdp(b, "Runtime.evaluate", json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1,
                                                     "awaitPromise", 1));
    json_t *v = json_incref(json_object_get(json_object_get(r, "result"), "value"));
    json_decref(r);
    return v;
}

char *js_str(browser *b, const char *expr)
{
    json_t *v = js(b, expr);
    char *s = strdup(json_is_string(v) ? json_string_value(v) : "");
    json_decref(v);
    return s;
}

/* Waits until `expr` evaluates to the string `want`. The page may navigate meanwhile (a join or a rematch
 * takes the tab to another page): an evaluation that meets no page, or one going away, is tried again. */
void wait_for(browser *b, const char *expr, const char *want, const char *what)
{
    double t0 = e2e_now();
    char *got = NULL;
    while (e2e_now() - t0 < CDP_TIMEOUT_S) {
        free(got);
        json_t *err = NULL;
        json_t *r = cdp_call(b, "Runtime.evaluate",
                             json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1, "awaitPromise", 1),
                             &err);
        json_t *v = json_object_get(json_object_get(r, "result"), "value");
        bool failed = err != NULL;   /* got is then the error, for the message at the end */
        got = failed ? json_dumps(err, JSON_COMPACT) : strdup(json_is_string(v) ? json_string_value(v) : "");
        json_decref(r);
        json_decref(err);
        if (!failed && strcmp(got, want) == 0) {
            free(got);
            return;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("%s: %s is '%s', want '%s'", what, expr, got, want);
}

/* A real mouse click in the middle of the element `selector`. */
void click(browser *b, const char *selector)
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
    mouse_button(b, x, y, true);
    mouse_button(b, x, y, false);
}

void key(browser *b, const char *k, int code)
{
    /* with its text, as a real key press: Enter then activates a focused button, as it does for a person */
    const char *text = code == 13 ? "\r" : strlen(k) == 1 ? k : "";
    json_decref(cdp(b, "Input.dispatchKeyEvent", json_pack("{s:s, s:s, s:s, s:i, s:s}", "type", "keyDown", "key", k,
                                                           "code", k, "windowsVirtualKeyCode", code, "text", text)));
    json_decref(cdp(b, "Input.dispatchKeyEvent", json_pack("{s:s, s:s, s:s, s:i}", "type", "keyUp", "key", k, "code",
                                                           k, "windowsVirtualKeyCode", code)));
}

/* ---- screenshots -------------------------------------------------------------------------------------------- */
/* A screenshot as PNG bytes (malloc'd), kept as `name` under $CARCD_SCREENSHOTS when set. */
unsigned char *screenshot(browser *b, size_t *len, const char *name)
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


/* ---- tabs ----------------------------------------------------------------------------------------------------- */
void tab_open(browser *b, tab *t, const char *url, int width, int height, bool phone)
{
    b->session[0] = 0;   /* Target.* go to the browser itself */
    json_t *r = cdp(b, "Target.createTarget", json_pack("{s:s}", "url", "about:blank"));
    const char *target = json_string_value(json_object_get(r, "targetId"));
    ck_assert_msg(target != NULL, "no target");
    json_t *a = cdp(b, "Target.attachToTarget", json_pack("{s:s, s:b}", "targetId", target, "flatten", 1));
    snprintf(t->session, sizeof t->session, "%s", json_string_value(json_object_get(a, "sessionId")));
    snprintf(t->target, sizeof t->target, "%s", target);
    json_decref(a);
    json_decref(r);
    t->phone = phone;
    snprintf(b->session, sizeof b->session, "%s", t->session);
    json_decref(cdp(b, "Page.enable", NULL));
    json_decref(cdp(b, "Runtime.enable", NULL));
    json_decref(cdp(b, "Emulation.setDeviceMetricsOverride",
                    json_pack("{s:i, s:i, s:f, s:b}", "width", width, "height", height, "deviceScaleFactor",
                              phone ? 2.0 : 1.0, "mobile", phone)));
    json_decref(cdp(b, "Emulation.setTouchEmulationEnabled", json_pack("{s:b, s:i}", "enabled", phone,
                                                                        "maxTouchPoints", phone ? 5 : 1)));
    if (url)
        json_decref(cdp(b, "Page.navigate", json_pack("{s:s}", "url", url)));
}

void tab_use(browser *b, const tab *t)
{
    snprintf(b->session, sizeof b->session, "%s", t->session);
    /* in front: a background tab's timers are throttled and it may not paint for a screenshot */
    json_decref(cdp(b, "Page.bringToFront", NULL));
}

void tab_close(browser *b, tab *t)
{
    b->session[0] = 0;
    json_decref(cdp(b, "Target.closeTarget", json_pack("{s:s}", "targetId", t->target)));
    t->session[0] = 0;
}

void tap_xy(browser *b, const tab *t, double x, double y)
{
    press_xy(b, t, x, y, true);
    press_xy(b, t, x, y, false);
}

void press_xy(browser *b, const tab *t, double x, double y, bool down)
{
    if (!t->phone) {
        mouse_button(b, x, y, down);
        return;
    }
    /* a finger: touchStart and touchEnd, which the page sees as a tap (and a click) */
    if (down)
        json_decref(cdp(b, "Input.dispatchTouchEvent",
                        json_pack("{s:s, s:[{s:f, s:f}]}", "type", "touchStart", "touchPoints", "x", x, "y", y)));
    else
        json_decref(cdp(b, "Input.dispatchTouchEvent", json_pack("{s:s, s:[]}", "type", "touchEnd", "touchPoints")));
}

/* A point inside element `expr` (a JS expression giving the element) that the element itself receives:
 * scrolled into view first, then sampled over its box until document.elementFromPoint hits it (a triangle's
 * box is half outside it; a figure spot may lie under another). */
bool element_point(browser *b, const char *expr, double *x, double *y)
{
    char *js_text = NULL;
    if (asprintf(&js_text,
                 "(function(){try{var e=(%s);if(!e)return 'no element';"
                 "e.scrollIntoView({block:'center',inline:'center'});"
                 "var r=e.getBoundingClientRect();for(var i=1;i<8;i++)for(var j=1;j<8;j++){"
                 "var x=r.left+r.width*(j/8),y=r.top+r.height*(i/8),h=document.elementFromPoint(x,y);"
                 "if(h&&(h===e||e.contains(h)))return [x,y];}"
                 "var c=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);"
                 "return 'no point of '+e.outerHTML.slice(0,200)+' at '+JSON.stringify(r)+' hits it: '"
                 "+(c&&c.outerHTML.slice(0,200));}catch(x){return 'error '+x;}})()",
                 expr) < 0)
        return false;
    json_t *xy = js(b, js_text);
    free(js_text);
    bool ok = json_array_size(xy) == 2;
    if (json_is_string(xy))
        fprintf(stderr, "cdp: %s\n", json_string_value(xy));
    if (ok) {
        *x = json_number_value(json_array_get(xy, 0));
        *y = json_number_value(json_array_get(xy, 1));
    }
    json_decref(xy);
    return ok;
}

bool tap_element(browser *b, const tab *t, const char *expr)
{
    double x, y;
    if (!element_point(b, expr, &x, &y))
        return false;
    tap_xy(b, t, x, y);
    return true;
}

void mouse_button(browser *b, double x, double y, bool down)
{
    if (down)
        json_decref(cdp(b, "Input.dispatchMouseEvent",
                        json_pack("{s:s, s:f, s:f, s:s, s:i}", "type", "mouseMoved", "x", x, "y", y, "button", "none",
                                  "clickCount", 0)));
    json_decref(cdp(b, "Input.dispatchMouseEvent",
                    json_pack("{s:s, s:f, s:f, s:s, s:i}", "type", down ? "mousePressed" : "mouseReleased", "x", x,
                              "y", y, "button", "left", "clickCount", 1)));
}
