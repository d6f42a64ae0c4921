/*
 * cdp.h — the browser tests' driver of Debian's headless Chromium through the Chrome DevTools Protocol over
 * --remote-debugging-pipe (cdp.c). One browser, several tabs; commands go to the tab last chosen with
 * tab_use. Every function ck_asserts (main thread only). Chromium is a dependency (scripts/packages.txt):
 * when it is missing the tests fail, they do not skip.
 */
#ifndef CDP_H
#define CDP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "e2e.h"

#define CDP_TIMEOUT_S 30.0

typedef struct {
    pid_t pid;
    int to, from;          /* our ends: commands out, answers and events in */
    char profile[256];
    char *buf;
    size_t len, cap;
    int next_id;
    char session[128];     /* the tab commands go to; "" = the browser */
    json_t *paused;        /* Fetch.requestPaused events' params not yet taken (cdp_paused) */
} browser;

typedef struct {
    char session[128];
    char target[64];       /* its target id (tab_close) */
    bool phone;            /* touch input and a phone's viewport */
} tab;

void browser_start(browser *b);
void browser_stop(browser *b);
/* A command (params stolen); its answer's result (a new reference). Events that arrive meanwhile are dropped,
 * except Fetch.requestPaused, kept for cdp_paused. */
json_t *cdp(browser *b, const char *method, json_t *params);
/* The requestId of a request paused by Fetch.enable whose URL contains `url_part`, waiting for it (CDP_TIMEOUT_S
 * at most); malloc'd. Continue it with Fetch.continueRequest. */
char *cdp_paused(browser *b, const char *url_part);
/* A JavaScript expression's value in the current tab (a new reference; promises awaited). */
json_t *js(browser *b, const char *expr);
char *js_str(browser *b, const char *expr);   /* "" when not a string; malloc'd */
/* Waits (CDP_TIMEOUT_S at most) until `expr` evaluates to the string `want`. */
void wait_for(browser *b, const char *expr, const char *want, const char *what);
void click(browser *b, const char *selector);   /* a mouse click in the middle of the element */
void key(browser *b, const char *k, int code);
/* A PNG screenshot (malloc'd bytes), also written to $CARCD_SCREENSHOTS/<name> when that is set. */
unsigned char *screenshot(browser *b, size_t *len, const char *name);

/* A new tab at `url` (NULL: about:blank) with a width x height viewport; phone: mobile, touch, scale 2. */
void tab_open(browser *b, tab *t, const char *url, int width, int height, bool phone);
void tab_use(browser *b, const tab *t);
/* Closes tab t: its connections go with it (a browser holds at most six to one server, an open page's event
 * stream one of them). The next command goes to the browser until a tab is chosen. */
void tab_close(browser *b, tab *t);
/* A click, or a tap on a phone tab, at viewport point x, y. */
void tap_xy(browser *b, const tab *t, double x, double y);
/* Taps element `expr` (JS giving the element) where the element itself is hit; false when it cannot be. */
bool tap_element(browser *b, const tab *t, const char *expr);
/* A viewport point where element `expr` itself is hit (scrolled into view first); false when there is none. */
bool element_point(browser *b, const char *expr, double *x, double *y);
/* One half of a mouse click at x, y: the left button pressed (down) or released (!down). */
void mouse_button(browser *b, double x, double y, bool down);
/* One half of tap_xy: a finger put down at x, y (down) or lifted (!down) on a phone tab, the mouse button
 * elsewhere. */
void press_xy(browser *b, const tab *t, double x, double y, bool down);

#endif
