/*
 * test_a11y.c — the pages people play on, checked by axe-core (Deque's accessibility engine, from npm) in
 * Debian's headless Chromium (cdp.h): the game page of a seat to move (desktop and phone), of a seat waiting
 * and of a spectator, in all four expansions; a waiting game's page for its host and for an invitee's join
 * form; the page a bad token opens; the lobby. Each must show no violation of WCAG 2.1 A and AA nor of axe's
 * best practices. A person on a screen reader or a keyboard plays over days like anyone else, and a change to
 * a page that takes that away fails here, not in a player's hands.
 *
 * axe.min.js is read from CARCD_TEST_AXE_JS (scripts/test.sh installs axe-core at a pinned version under
 * build/ and sets it); without it the test fails, saying so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp.h"
#include "e2e.h"

/* The rule sets checked: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
#define AXE_RUN                                                                                                 \
    "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', "        \
    "'best-practice']}}).then((r) => r.violations.map((v) => v.id + ' (' + v.impact + '): ' + "              \
    "v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')).join('\\n'))"

static char *axe_source(void)
{
    const char *path = getenv("CARCD_TEST_AXE_JS");
    ck_assert_msg(path && *path, "CARCD_TEST_AXE_JS is not set: scripts/test.sh installs axe-core and sets it");
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    ck_assert(n > 0);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert(s && fread(s, 1, (size_t)n, f) == (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Runs axe on the current tab (axe loaded into it first) and appends what it found, under `what`, to *found
 * (every page is checked before the test fails, so one run names every violation). */
static void axe_check(browser *b, const char *axe, const char *what, char **found)
{
    json_decref(js(b, axe));
    char *v = js_str(b, AXE_RUN);
    if (v[0]) {
        size_t had = *found ? strlen(*found) : 0, n = had + strlen(what) + strlen(v) + 4;
        *found = realloc(*found, n);
        ck_assert(*found != NULL);
        snprintf(*found + had, n - had, "%s:\n%s\n", what, v);
    }
    free(v);
}

static void wait_ready(browser *b, const char *what)
{
    wait_for(b, "document.body.dataset.ready==='1'&&document.body.dataset.busy!=='1'?'y':'n'", "y", what);
}

static void open_page(browser *b, tab *t, const e2e_daemon *d, const char *path, const char *fragment, bool phone)
{
    char url[500];
    snprintf(url, sizeof url, "%s%s%s", d->base, path, fragment ? fragment : "");
    tab_open(b, t, url, phone ? 390 : 1280, phone ? 844 : 900, phone);
}

START_TEST(pages_pass_axe)
{
    char *axe = axe_source(), *found = NULL;
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    e2e_game_create(c, 3, "[\"hills_sheep\",\"crop_circles\",\"fruit_trees\",\"halflings\"]", &g);
    char path[200], frag[120];
    snprintf(path, sizeof path, "/games/%s", g.id);
    browser b;
    browser_start(&b);
    tab t;   /* one page at a time, closed after its check */

    /* the game page of the seat to move, with its choices drawn, on a desktop and on a phone */
    for (int phone = 0; phone < 2; phone++) {
        char vp[200];
        snprintf(vp, sizeof vp, "/v1/games/%s", g.id);
        json_t *view = e2e_get_ok(c, vp, NULL, 200);
        int seat = (int)e2e_jint(view, "pending.seat");
        json_decref(view);
        ck_assert(seat >= 0 && seat < 3);
        snprintf(frag, sizeof frag, "#token=%s", g.token[seat]);
        open_page(&b, &t, d, path, frag, phone);
        wait_ready(&b, "the seat to move's page");
        wait_for(&b, "document.querySelectorAll('[data-notation]').length > 0 ? 'y' : 'n'", "y", "its choices");
        axe_check(&b, axe, phone ? "the seat to move's page on a phone" : "the seat to move's page", &found);
        tab_close(&b, &t);
    }
    /* a seat that waits, and a spectator */
    snprintf(frag, sizeof frag, "#token=%s", g.token[2]);
    open_page(&b, &t, d, path, frag, false);
    wait_ready(&b, "a waiting seat's page");
    axe_check(&b, axe, "a seat's page", &found);
    tab_close(&b, &t);
    open_page(&b, &t, d, path, NULL, false);
    wait_ready(&b, "a spectator's page");
    axe_check(&b, axe, "a spectator's page", &found);
    tab_close(&b, &t);
    /* a token that opens nothing */
    open_page(&b, &t, d, path, "#token=cs_not-a-token-at-all", false);
    wait_for(&b, "document.body.dataset.fatal||''", "1", "the page refuses the token");
    axe_check(&b, axe, "the bad token's page", &found);
    tab_close(&b, &t);

    /* twenty moves on (some ten tiles), with table talk (the chat panel, its mute buttons) and the board in
     * words open; then the game played to its end */
    e2e_rng rng = {7};
    for (int k = 0; k < 20; k++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
    }
    char msgs[200];
    snprintf(msgs, sizeof msgs, "/v1/games/%s/messages", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", msgs, g.token[1], "{\"text\":\"Nice city!\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    snprintf(frag, sizeof frag, "#token=%s", g.token[0]);
    open_page(&b, &t, d, path, frag, false);
    wait_ready(&b, "a seat's page, twenty moves on");
    wait_for(&b, "String(document.querySelectorAll('#chat-log .msg').length)", "1", "the table talk");
    json_decref(js(&b, "document.getElementById('board-words-box').open = true"));
    wait_for(&b, "document.querySelectorAll('#board-words li').length > 3 ? 'y' : 'n'", "y", "the board in words");
    axe_check(&b, axe, "a seat's page twenty moves on, the board in words open", &found);
    tab_close(&b, &t);
    e2e_play_to_end(c, &g, &rng);
    open_page(&b, &t, d, path, frag, false);
    wait_ready(&b, "a finished game's page");
    axe_check(&b, axe, "a finished game's page", &found);
    tab_close(&b, &t);

    /* a game waiting for players: its host's page (the seats, the host's buttons) and an invitee's join form */
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Host\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r), 201);
    char wid[40], host[80], code[80];
    snprintf(wid, sizeof wid, "%s", e2e_jstr(r.json, "id"));
    snprintf(host, sizeof host, "%s", e2e_jstr(r.json, "players.0.token"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/games/%s", wid);
    snprintf(frag, sizeof frag, "#token=%s", host);
    open_page(&b, &t, d, path, frag, false);
    wait_ready(&b, "the host's page");
    axe_check(&b, axe, "the host's page of a waiting game", &found);
    tab_close(&b, &t);
    snprintf(frag, sizeof frag, "#invite=%s", code);
    open_page(&b, &t, d, path, frag, false);
    wait_for(&b, "String(!!document.getElementById('join-form'))", "true", "the join form");
    axe_check(&b, axe, "an invitation's join form", &found);
    tab_close(&b, &t);

    /* the lobby */
    open_page(&b, &t, d, "/lobby", NULL, false);
    wait_for(&b, "document.body.dataset.ready", "1", "the lobby loaded");
    axe_check(&b, axe, "the lobby", &found);
    tab_close(&b, &t);

    ck_assert_msg(found == NULL, "axe-core found\n%s", found);
    browser_stop(&b);
    e2e_client_free(c);
    e2e_daemon_down(d);
    free(axe);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_a11y");
    TCase *tc = e2e_tcase("a11y", 240);
    tcase_add_test(tc, pages_pass_axe);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
