/*
 * test_inspect.c — admin inspection end to end: board.svg and board.png (well-formed, no hidden tile, the
 * past with ?seq=N), the game page, the audit log of admin actions, and carcctl against a real carcd (list,
 * show, hidden, verify, replay, export, and an import on a second server that reaches the same state; a
 * local replay of a game with a fruit script and a resignation, which carcctl decodes as carcd does); the
 * same for games with forced steps (the engine's moves are in no log row and come back on replay), and for a
 * game stored before the option ask_forced existed (it was asked for every move, and replays so).
 *
 * The game is scripted by the admin: its stack holds base tiles first and then expansion tiles whose ids
 * (CC.., FT..) can appear nowhere in what a seat or the public may see before they are drawn.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libpq-fe.h>

#include "e2e.h"

#ifndef CARCCTL_BIN
#error "CARCCTL_BIN must name the carcctl binary (set by CMake)"
#endif

#define SCRIPT "[\"U\",\"V\",\"K\",\"E\",\"B\",\"A\",\"J\",\"CC01\",\"FT02\",\"CC05\",\"FT06\"]"
static const char *const hidden_ids[] = {"CC01", "FT02", "CC05", "FT06", NULL};

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    int seq;
} fixture;

/* A scripted game with a name that needs escaping, played for a few moves. */
static void setup_game(fixture *f, int moves)
{
    f->d = e2e_daemon_up(NULL);
    f->c = e2e_client_new(f->d);
    char extra[600];
    snprintf(extra, sizeof extra,
             "{\"players\":[{\"name\":\"Ann <b>&amp;\"},{\"name\":\"Bob\"}],\"seed\":\"%064d\","
             "\"script\":{\"stack\":" SCRIPT "}}",
             7);
    long st = e2e_game_create_raw(f->c, f->d, 2, "[\"crop_circles\",\"fruit_trees\"]", extra, true, &f->g);
    ck_assert_msg(st == 201, "create: %ld", st);
    e2e_rng rng = {42};
    for (int i = 0; i < moves; i++) {
        e2e_play p;
        long s = e2e_play_random(f->c, &f->g, &rng, NULL, &p);
        e2e_play_free(&p);
        ck_assert_msg(s == 200, "move %d: %ld", i, s);
    }
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s", f->g.id);
    json_t *v = e2e_get_ok(f->c, path, NULL, 200);
    f->seq = (int)e2e_jint(v, "seq");
    ck_assert_int_ge(f->seq, moves);
    json_decref(v);
}

static void teardown(fixture *f)
{
    e2e_client_free(f->c);
    e2e_daemon_down(f->d);
}

static e2e_resp get(fixture *f, const char *path, const char *token, long want)
{
    e2e_resp r;
    long st = e2e_req(f->c, "GET", path, token, NULL, NULL, &r);
    ck_assert_msg(st == want, "GET %s: %ld, want %ld: %.300s", path, st, want, r.body);
    return r;
}

/* ---- a small XML well-formedness check: nesting, quoted attributes, entities, one root ---------------- */
static bool entity_ok(const char *p)
{
    static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", NULL};
    for (int i = 0; ents[i]; i++)
        if (strncmp(p, ents[i], strlen(ents[i])) == 0)
            return true;
    if (p[1] == '#') {
        const char *q = p + 2;
        while (*q && *q != ';' && q - p < 10)
            q++;
        return *q == ';' && q > p + 2;
    }
    return false;
}

static bool xml_well_formed(const char *s, char *why, size_t n)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    const char *p = s;
    while (*p) {
        if (*p == '&' && !entity_ok(p))
            return snprintf(why, n, "bad entity at %ld", (long)(p - s)), false;
        if (*p != '<') {
            if (depth == 0 && !strchr(" \t\r\n", *p))
                return snprintf(why, n, "text outside the root at %ld", (long)(p - s)), false;
            p++;
            continue;
        }
        if (strncmp(p, "<?", 2) == 0 || strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p, p[1] == '?' ? "?>" : "-->");
            if (!e)
                return snprintf(why, n, "unclosed declaration"), false;
            p = e + 2;
            continue;
        }
        bool closing = p[1] == '/';
        const char *q = p + (closing ? 2 : 1);
        char name[32];
        size_t k = 0;
        while (*q && (isalnum((unsigned char)*q) || *q == '-' || *q == ':' || *q == '_') && k + 1 < sizeof name)
            name[k++] = *q++;
        name[k] = 0;
        if (!k)
            return snprintf(why, n, "no tag name at %ld", (long)(p - s)), false;
        if (closing) {
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return snprintf(why, n, "</%s> closes %s", name, depth ? stack[depth - 1] : "nothing"), false;
            depth--;
            while (*q == ' ')
                q++;
            if (*q != '>')
                return snprintf(why, n, "junk in </%s>", name), false;
            p = q + 1;
            continue;
        }
        /* attributes: name="value" (no '<' inside, entities checked) */
        for (;;) {
            while (*q && strchr(" \t\r\n", *q))
                q++;
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            const char *a = q;
            while (*q && (isalnum((unsigned char)*q) || *q == '-' || *q == ':' || *q == '_'))
                q++;
            if (q == a || *q != '=' || (q[1] != '"' && q[1] != '\''))
                return snprintf(why, n, "bad attribute in <%s> at %ld", name, (long)(a - s)), false;
            char quote = q[1];
            q += 2;
            while (*q && *q != quote) {
                if (*q == '<' || (*q == '&' && !entity_ok(q)))
                    return snprintf(why, n, "bad attribute value in <%s>", name), false;
                q++;
            }
            if (!*q)
                return snprintf(why, n, "unterminated attribute in <%s>", name), false;
            q++;
        }
        if (*q == '/') {
            p = q + 2;
            if (depth == 0)
                roots++;
            continue;
        }
        if (depth == 0)
            roots++;
        if (depth >= 64)
            return snprintf(why, n, "too deep"), false;
        snprintf(stack[depth++], sizeof stack[0], "%s", name);
        p = q + 1;
    }
    if (depth != 0)
        return snprintf(why, n, "<%s> never closed", stack[depth - 1]), false;
    if (roots != 1)
        return snprintf(why, n, "%d root elements", roots), false;
    return true;
}

/* The value of attribute `name` on the root <svg>. */
static long svg_attr(const char *svg, const char *name)
{
    char key[40];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *end = strchr(svg, '>');
    const char *p = strstr(svg, key);
    if (!p || (end && p > end))
        return -1;
    return strtol(p + strlen(key), NULL, 10);
}

/* ---- pictures -------------------------------------------------------------------------------------------- */
START_TEST(svg_shows_the_view_and_nothing_hidden)
{
    fixture f;
    setup_game(&f, 6);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", f.g.id);
    json_t *view = e2e_get_ok(f.c, path, NULL, 200);
    size_t npieces = json_array_size(json_object_get(view, "board"));
    size_t nfigs = json_array_size(json_object_get(view, "figures"));
    const char *tokens[] = {NULL, f.g.token[0], f.g.token[1], f.d->admin};
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "/v1/games/%s/board.svg", f.g.id);
        e2e_resp r = get(&f, path, tokens[k], 200);
        ck_assert_msg(strncmp(r.content_type, "image/svg+xml", 13) == 0, "content type %s", r.content_type);
        ck_assert_msg(strncmp(r.body, "<svg ", 5) == 0, "does not start with <svg: %.40s", r.body);
        char why[200];
        ck_assert_msg(xml_well_formed(r.body, why, sizeof why), "viewer %d: SVG not well-formed: %s", k, why);
        ck_assert_int_eq(svg_attr(r.body, "data-seq"), f.seq);
        ck_assert_int_eq(svg_attr(r.body, "data-pieces"), (long)npieces);
        ck_assert_int_eq(e2e_count(r.body, "class=\"piece\""), (int)npieces);
        ck_assert_int_eq(e2e_count(r.body, "class=\"figure\""), (int)nfigs);
        /* every piece of the view, at its place */
        size_t i;
        json_t *pc;
        json_array_foreach(json_object_get(view, "board"), i, pc) {
            char want[120];
            snprintf(want, sizeof want, "data-tile=\"%s\" data-x=\"%lld\" data-y=\"%lld\"", e2e_jstr(pc, "tile"),
                     e2e_jint(pc, "x"), e2e_jint(pc, "y"));
            ck_assert_msg(strstr(r.body, want), "viewer %d: piece %zu (%s) missing", k, i, want);
        }
        /* the tiles still in the stack appear nowhere (the admin's picture shows the board too, not the stack) */
        for (int h = 0; hidden_ids[h]; h++)
            ck_assert_msg(!strstr(r.body, hidden_ids[h]), "viewer %d: hidden tile %s in the SVG", k, hidden_ids[h]);
        /* names are escaped */
        ck_assert_msg(strstr(r.body, "Ann &lt;b&gt;&amp;amp;") != NULL, "the name is not escaped as text");
        ck_assert_msg(strstr(r.body, "<b>") == NULL, "markup from a name");
        e2e_resp_free(&r);
    }
    json_decref(view);
    teardown(&f);
}
END_TEST

/* A tile under a hill is hidden from seats and the public: no picture names it, the admin's JSON does. */
START_TEST(no_tile_under_a_hill_is_shown)
{
    fixture f;
    f.d = e2e_daemon_up(NULL);
    f.c = e2e_client_new(f.d);
    long st = e2e_game_create_raw(f.c, f.d, 2, "[\"hills_sheep\",\"fruit_trees\"]",
                                  "{\"script\":{\"stack\":[\"HS03\",\"FT01\",\"U\",\"V\",\"E\",\"B\"]}}", true, &f.g);
    ck_assert_msg(st == 201, "create: %ld", st);
    e2e_rng rng = {9};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(f.c, &f.g, &rng, NULL, &p), 200);   /* HS03 placed: FT01 goes under it */
    e2e_play_free(&p);
    json_t *admin = e2e_admin_view(f.c, f.d, f.g.id);
    ck_assert_str_eq(e2e_jstr(admin, "board.1.tile"), "HS03");
    ck_assert_str_eq(e2e_jstr(admin, "board.1.under"), "FT01");
    json_decref(admin);
    char path[200];
    const char *tokens[] = {NULL, f.g.token[0], f.g.token[1], f.d->admin};
    for (int k = 0; k < 4; k++)
        for (int png = 0; png < 2; png++) {   /* (the game page draws its board from the view: no tile in it) */
            snprintf(path, sizeof path, "/v1/games/%s/board.svg%s", f.g.id, png ? "?seq=1" : "");
            e2e_resp r = get(&f, path, tokens[k], 200);
            ck_assert_msg(strstr(r.body, "data-tile=\"HS03\""), "viewer %d: the hill piece is not drawn", k);
            ck_assert_msg(!strstr(r.body, "FT01"), "viewer %d: %s names the tile under the hill", k, path);
            e2e_resp_free(&r);
        }
    teardown(&f);
}
END_TEST

START_TEST(svg_at_seq_replays_the_past)
{
    fixture f;
    setup_game(&f, 6);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/board.svg", f.g.id);
    e2e_resp now = get(&f, path, NULL, 200);
    int last_pieces = -1;
    for (int s = 0; s <= f.seq; s++) {
        snprintf(path, sizeof path, "/v1/games/%s/board.svg?seq=%d", f.g.id, s);
        e2e_resp r = get(&f, path, s % 2 ? f.g.token[1] : NULL, 200);
        char why[200];
        ck_assert_msg(xml_well_formed(r.body, why, sizeof why), "seq %d: %s", s, why);
        ck_assert_int_eq(svg_attr(r.body, "data-seq"), s);
        int np = (int)svg_attr(r.body, "data-pieces");
        if (s == 0)
            ck_assert_int_eq(np, 1);   /* the start tile alone */
        ck_assert_int_ge(np, last_pieces);
        last_pieces = np;
        if (s < f.seq - 1)
            ck_assert_msg(strcmp(r.body, now.body) != 0, "seq %d looks like the latest", s);
        for (int h = 0; hidden_ids[h]; h++)
            ck_assert_msg(!strstr(r.body, hidden_ids[h]), "seq %d: hidden tile %s", s, hidden_ids[h]);
        e2e_resp_free(&r);
    }
    snprintf(path, sizeof path, "/v1/games/%s/board.svg?seq=%d", f.g.id, f.seq);
    e2e_resp r = get(&f, path, NULL, 200);
    ck_assert_msg(strcmp(r.body, now.body) == 0, "?seq=<latest> differs from the latest");
    e2e_resp_free(&r);
    e2e_resp_free(&now);
    snprintf(path, sizeof path, "/v1/games/%s/board.svg?seq=%d", f.g.id, f.seq + 1);
    r = get(&f, path, NULL, 400);
    e2e_assert_problem(&r, 400, "seq", "seq past the end");
    e2e_resp_free(&r);
    static const char *const bad_seq[] = {"x", "%2B1", "%201", "1x", ""};   /* digits only */
    for (size_t i = 0; i < sizeof bad_seq / sizeof bad_seq[0]; i++) {
        snprintf(path, sizeof path, "/v1/games/%s/board.svg?seq=%s", f.g.id, bad_seq[i]);
        r = get(&f, path, NULL, 400);
        e2e_assert_problem(&r, 400, "seq", path);
        e2e_resp_free(&r);
    }
    r = get(&f, "/v1/games/00000000-0000-4000-8000-000000000000/board.svg", NULL, 404);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/board.svg", f.g.id);
    r = get(&f, path, "cs_nobody", 401);
    e2e_resp_free(&r);
    teardown(&f);
}
END_TEST

static unsigned be32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

START_TEST(png_is_a_picture)
{
    fixture f;
    setup_game(&f, 4);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/board.png", f.g.id);
    e2e_resp r = get(&f, path, NULL, 200);
    ck_assert_str_eq(r.content_type, "image/png");
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    ck_assert_msg(r.len > 2000 && memcmp(r.body, sig, 8) == 0, "not a PNG (%zu bytes)", r.len);
    const unsigned char *u = (const unsigned char *)r.body;
    ck_assert_msg(memcmp(u + 12, "IHDR", 4) == 0, "no IHDR first");
    unsigned w = be32(u + 16), h = be32(u + 20);
    ck_assert_msg(w >= 300 && h >= 300 && w <= 4096 && h <= 4096, "size %ux%u", w, h);
    ck_assert_msg(memcmp(u + r.len - 8, "IEND", 4) == 0, "no IEND at the end");
    snprintf(path, sizeof path, "/v1/games/%s/board.png?seq=0", f.g.id);
    e2e_resp r0 = get(&f, path, f.d->admin, 200);
    ck_assert_msg(r0.len != r.len || memcmp(r0.body, r.body, r.len) != 0, "seq 0 looks like now");
    e2e_resp_free(&r0);
    e2e_resp_free(&r);
    teardown(&f);
}
END_TEST

START_TEST(page_is_served)
{
    fixture f;
    setup_game(&f, 4);
    char path[160];
    snprintf(path, sizeof path, "/games/%s", f.g.id);
    e2e_resp r = get(&f, path, NULL, 200);
    ck_assert_msg(strncmp(r.content_type, "text/html", 9) == 0, "content type %s", r.content_type);
    /* a shell: the board is drawn by the page's modules from the API (tests/e2e/test_page.c plays on it) */
    ck_assert_msg(strstr(r.body, "<!DOCTYPE html>") && strstr(r.body, "id=\"board\"") &&
                      strstr(r.body, "<script type=\"module\" src=\"/games/assets/main.js\"></script>"),
                  "no page, board or script");
    ck_assert_msg(strstr(r.body, "Ann &lt;b&gt;&amp;amp;") && !strstr(r.body, "Ann <b>"), "the name is not escaped");
    char csp[400];
    ck_assert_msg(e2e_header(&r, "Content-Security-Policy", csp, sizeof csp), "no CSP");
    ck_assert_msg(strstr(csp, "script-src 'self'") && strstr(csp, "style-src 'self'") && !strstr(csp, "unsafe-inline"),
                  "the CSP allows inline code: %s", csp);
    ck_assert_msg(!strstr(r.body, "<script>") && !strstr(r.body, "<style") && !strstr(r.body, " style="),
                  "inline script or style in the page");
    /* nothing loaded from elsewhere */
    static const char *const external[] = {"src=\"http", "href=\"http", "url(http", "@import", "src=\"//",
                                           "href=\"//", NULL};
    for (int i = 0; external[i]; i++)
        ck_assert_msg(!strstr(r.body, external[i]), "an external reference in the page: %s", external[i]);
    for (int h = 0; hidden_ids[h]; h++)
        ck_assert_msg(!strstr(r.body, hidden_ids[h]), "hidden tile %s in the page", hidden_ids[h]);
    e2e_resp_free(&r);
    r = get(&f, "/games/00000000-0000-4000-8000-000000000000", NULL, 404);
    e2e_resp_free(&r);
    teardown(&f);
}
END_TEST

/* ---- the audit log ---------------------------------------------------------------------------------------- */
static json_t *audit_entries(fixture *f, const char *query)
{
    char path[300];
    snprintf(path, sizeof path, "/v1/admin/audit%s", query);
    json_t *j = e2e_get_ok(f->c, path, f->d->admin, 200);
    json_t *e = json_incref(json_object_get(j, "entries"));
    json_decref(j);
    return e;
}

static bool has_action(const json_t *entries, const char *action, const char *game)
{
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) if (strcmp(e2e_jstr(e, "action"), action) == 0 &&
                                          (!game || strcmp(e2e_jstr(e, "game_id"), game) == 0)) return true;
    return false;
}

START_TEST(audit_records_admin_actions)
{
    fixture f;
    setup_game(&f, 2);
    char path[200], q[200];
    snprintf(q, sizeof q, "?game=%s", f.g.id);
    json_t *before = audit_entries(&f, q);
    ck_assert_msg(has_action(before, "games.create", f.g.id), "the admin's creation is not in the log");
    size_t n0 = json_array_size(before);
    json_decref(before);
    /* public and seat reads leave no row */
    snprintf(path, sizeof path, "/v1/games/%s", f.g.id);
    json_decref(e2e_get_ok(f.c, path, NULL, 200));
    json_decref(e2e_get_ok(f.c, path, f.g.token[0], 200));
    snprintf(path, sizeof path, "/v1/games/%s/board.svg", f.g.id);
    e2e_resp r = get(&f, path, f.g.token[1], 200);
    e2e_resp_free(&r);
    json_t *same = audit_entries(&f, q);
    ck_assert_int_eq(json_array_size(same), n0);
    json_decref(same);
    /* every admin look is recorded, with the actor the client names */
    const char *who[] = {"X-Carcd-Actor: alice", NULL};
    snprintf(path, sizeof path, "/v1/admin/games/%s", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "GET", path, f.d->admin, NULL, who, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/admin/games/%s/verify", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "POST", path, f.d->admin, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/admin/games/%s/export", f.g.id);
    json_t *ex = e2e_get_ok(f.c, path, f.d->admin, 200);
    ck_assert_str_eq(e2e_jstr(ex, "format"), "carcd-export/1");
    ck_assert_int_eq(json_array_size(json_object_get(ex, "moves")), f.seq);
    ck_assert_int_eq(json_array_size(json_object_get(ex, "stack")), 11);
    json_decref(ex);
    snprintf(path, sizeof path, "/v1/games/%s", f.g.id);
    json_decref(e2e_get_ok(f.c, path, f.d->admin, 200));
    snprintf(path, sizeof path, "/v1/games/%s/events?after=-1", f.g.id);
    json_decref(e2e_get_ok(f.c, path, f.d->admin, 200));
    snprintf(path, sizeof path, "/v1/games/%s/board.png?seq=1", f.g.id);
    r = get(&f, path, f.d->admin, 200);
    e2e_resp_free(&r);
    json_t *after = audit_entries(&f, q);
    static const char *const actions[] = {"admin.games.get", "admin.games.verify", "admin.games.export",
                                          "games.get", "games.events", "games.board.png", NULL};
    for (int i = 0; actions[i]; i++)
        ck_assert_msg(has_action(after, actions[i], f.g.id), "no audit row for %s", actions[i]);
    ck_assert_int_eq(json_array_size(after), n0 + 6);
    /* newest first; the named actor, the token's fingerprint, never the token */
    json_t *get_row = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(after, i, e) if (strcmp(e2e_jstr(e, "action"), "admin.games.get") == 0) get_row = e;
    ck_assert_str_eq(e2e_jstr(get_row, "actor.name"), "alice");
    ck_assert_msg(strncmp(e2e_jstr(get_row, "actor.id"), "admin:", 6) == 0, "actor id %s", e2e_jstr(get_row, "actor.id"));
    char *dump = json_dumps(after, 0);
    ck_assert_msg(!strstr(dump, f.d->admin), "the admin token is in the audit log");
    free(dump);
    ck_assert_str_eq(e2e_jstr(after, "0.action"), "games.board.png");
    ck_assert_int_eq(e2e_jint(after, "0.detail.seq"), 1);
    json_decref(after);
    /* pages: every row once, newest first; reading the log is itself recorded */
    json_t *all = json_array();
    char cursor[40] = "";
    for (int page = 0; page < 50; page++) {
        snprintf(path, sizeof path, "/v1/admin/audit?limit=3%s%s", cursor[0] ? "&cursor=" : "", cursor);
        json_t *pg = e2e_get_ok(f.c, path, f.d->admin, 200);
        json_array_extend(all, json_object_get(pg, "entries"));
        snprintf(cursor, sizeof cursor, "%s", e2e_jstr(pg, "next_cursor"));
        json_decref(pg);
        if (!cursor[0])
            break;
    }
    ck_assert_msg(!cursor[0], "the audit log did not end");
    for (size_t k = 1; k < json_array_size(all); k++)
        ck_assert_msg(atoll(e2e_jstr(json_array_get(all, k), "id")) < atoll(e2e_jstr(json_array_get(all, k - 1), "id")),
                      "rows not newest first or repeated at %zu", k);
    json_t *reads = audit_entries(&f, "?action=admin.audit.list");
    ck_assert_int_ge(json_array_size(reads), 1);
    json_decref(reads);
    json_decref(all);
    r = get(&f, "/v1/admin/audit", f.g.token[0], 403);
    e2e_resp_free(&r);
    r = get(&f, "/v1/admin/audit?game=nope", f.d->admin, 400);
    e2e_resp_free(&r);
    teardown(&f);
}
END_TEST

/* ---- carcctl ---------------------------------------------------------------------------------------------- */
/* Runs carcctl with `args` against daemon d; returns its exit status, *out its stdout (malloc'd). */
static int carcctl(const e2e_daemon *d, const char *args, char **out)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --server '%s' --token '%s' --as e2e %s", CARCCTL_BIN, d->base, d->admin, args);
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "popen %s", cmd);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while ((k = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += k;
        if (cap - len < 2)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

START_TEST(carcctl_round_trip)
{
    fixture f;
    setup_game(&f, 8);
    char *out, args[600];
    ck_assert_int_eq(carcctl(f.d, "list", &out), 0);
    ck_assert_msg(strstr(out, f.g.id), "list does not show the game:\n%s", out);
    free(out);
    ck_assert_int_eq(carcctl(f.d, "list --status finished", &out), 0);
    ck_assert_msg(!strstr(out, f.g.id), "an active game listed as finished");
    free(out);
    ck_assert_int_eq(carcctl(f.d, "list --players 2", &out), 0);
    ck_assert_msg(strstr(out, f.g.id), "--players 2 misses the game");
    free(out);
    snprintf(args, sizeof args, "show %s", f.g.id);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    ck_assert_msg(strstr(out, "+--") && strstr(out, "Ann <b>&amp;") && strstr(out, "points"), "show:\n%s", out);
    free(out);
    snprintf(args, sizeof args, "hidden %s", f.g.id);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    ck_assert_msg(strstr(out, "CC01 FT02 CC05 FT06"), "hidden does not show the stack:\n%s", out);
    free(out);
    snprintf(args, sizeof args, "verify %s", f.g.id);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    free(out);
    snprintf(args, sizeof args, "replay %s --to 2", f.g.id);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    ck_assert_msg(strstr(out, "seq 2,"), "replay --to 2:\n%s", out);
    free(out);
    snprintf(args, sizeof args, "replay %s", f.g.id);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    ck_assert_msg(strstr(out, "ok: the local replay"), "replay:\n%s", out);
    free(out);
    char file[300];
    snprintf(file, sizeof file, "%s/export.json", f.d->dir);
    snprintf(args, sizeof args, "export %s -o '%s'", f.g.id, file);
    ck_assert_int_eq(carcctl(f.d, args, &out), 0);
    free(out);
    json_t *original = e2e_admin_view(f.c, f.d, f.g.id);

    /* another server: import, the same final state */
    e2e_daemon *d2 = e2e_daemon_up(NULL);
    snprintf(args, sizeof args, "import '%s'", file);
    ck_assert_int_eq(carcctl(d2, args, &out), 0);
    json_t *res = json_loads(out, 0, NULL);
    ck_assert_msg(res && json_is_true(json_object_get(res, "same_state")), "import:\n%s", out);
    free(out);
    e2e_client *c2 = e2e_client_new(d2);
    json_t *copy = e2e_admin_view(c2, d2, e2e_jstr(res, "id"));
    static const char *const keys[] = {"board", "figures", "players", "pending", "status", "turn", "stack_remaining",
                                       "discarded", "seq", "seed", NULL};
    for (int i = 0; keys[i]; i++)
        ck_assert_msg(json_equal(json_object_get(original, keys[i]), json_object_get(copy, keys[i])),
                      "the imported game differs in %s", keys[i]);
    ck_assert_int_eq(e2e_verify_ok(c2, d2, e2e_jstr(res, "id")), f.seq);
    /* the seats' tokens it printed work on the new server */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(res, "id"));
    json_decref(e2e_get_ok(c2, path, e2e_jstr(res, "players.0.token"), 200));
    json_decref(copy);
    json_decref(res);
    json_decref(original);
    e2e_client_free(c2);
    e2e_daemon_down(d2);
    unlink(file);
    /* carcctl's reads are in the first server's audit log, under its name */
    snprintf(path, sizeof path, "/v1/admin/audit?game=%s&action=admin.games.export", f.g.id);
    json_t *a = e2e_get_ok(f.c, path, f.d->admin, 200);
    ck_assert_int_ge(json_array_size(json_object_get(a, "entries")), 3);
    ck_assert_str_eq(e2e_jstr(a, "entries.0.actor.name"), "e2e");
    json_decref(a);
    teardown(&f);
}
END_TEST

/* ---- forced steps through verify, replay, export and import --------------------------------------------------- */
static void post_ok(e2e_client *c, const e2e_game *g, int seat, int *seq, const char *move)
{
    char path[120], body[400];
    snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
    snprintf(body, sizeof body, "{\"expected_seq\":%d,\"move\":%s}", *seq, move);
    e2e_resp r;
    long st = e2e_req(c, "POST", path, g->token[seat], body, NULL, &r);
    ck_assert_msg(st == 200, "seat %d %s at seq %d: %ld %.300s", seat, move, *seq, st, r.body);
    e2e_resp_free(&r);
    (*seq)++;
}

/* The three-thieves crop circle board (tests/scenarios/crop_circles/club_remove_chain_forced.scn) up to seat
 * 0's choice B, which forces every seat's return (or, with ask_forced, asks each seat for it); then the game
 * is played to the end with the first legal move. Returns the last seq. */
static int play_thieves_game(e2e_client *c, const e2e_daemon *d, bool ask, e2e_game *g)
{
    char extra[300];
    snprintf(extra, sizeof extra,
             "{\"script\":{\"stack\":[\"U\",\"U\",\"U\",\"CC01\",\"E\",\"B\"]},\"options\":{\"ask_forced\":%s}}",
             ask ? "true" : "false");
    ck_assert_int_eq(e2e_game_create_raw(c, d, 3, "[\"crop_circles\"]", extra, true, g), 201);
    int seq = 0;
    for (int s = 0; s < 3; s++) {
        char place[128];
        snprintf(place, sizeof place, "{\"type\":\"place\",\"tile\":\"U\",\"x\":%d,\"y\":%d,\"rot\":1}", s == 0,
                 s == 0 ? 0 : s);
        post_ok(c, g, s, &seq, place);
        post_ok(c, g, s, &seq, "{\"type\":\"figure\",\"figure\":\"meeple\",\"part\":\"r1\"}");
    }
    post_ok(c, g, 0, &seq, "{\"type\":\"place\",\"tile\":\"CC01\",\"x\":1,\"y\":1,\"rot\":0}");
    post_ok(c, g, 0, &seq, "{\"type\":\"pass\"}");
    post_ok(c, g, 0, &seq, "{\"type\":\"crop_circle_remove\"}");
    if (ask) {
        post_ok(c, g, 1, &seq, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":1,\"part\":\"r1\"}");
        post_ok(c, g, 2, &seq, "{\"type\":\"crop_circle_figure\",\"x\":0,\"y\":2,\"part\":\"r1\"}");
        post_ok(c, g, 0, &seq, "{\"type\":\"crop_circle_figure\",\"x\":1,\"y\":0,\"part\":\"r1\"}");
    }
    char path[120], lpath[140];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    snprintf(lpath, sizeof lpath, "/v1/games/%s/legal-moves", g->id);
    for (int guard = 0; guard < 40; guard++) {
        json_t *v = e2e_get_ok(c, path, NULL, 200);
        bool done = strcmp(e2e_jstr(v, "status"), "finished") == 0;
        int seat = (int)e2e_jint(v, "pending.seat");
        json_decref(v);
        if (done)
            break;
        json_t *lm = e2e_get_ok(c, lpath, g->token[seat], 200);
        char *mv = json_dumps(json_array_get(json_object_get(lm, "moves"), 0), JSON_COMPACT);
        json_decref(lm);
        post_ok(c, g, seat, &seq, mv);
        free(mv);
    }
    return seq;
}

/* carcctl verify, replay, export, and import on `d2`: the same final state, verified there too. */
static void round_trip(const e2e_daemon *d, e2e_daemon *d2, e2e_client *c2, const char *id, int seq, bool ask)
{
    char *out, args[600], file[300];
    snprintf(args, sizeof args, "verify %s", id);
    ck_assert_int_eq(carcctl(d, args, &out), 0);
    free(out);
    snprintf(args, sizeof args, "replay %s", id);
    ck_assert_int_eq(carcctl(d, args, &out), 0);
    ck_assert_msg(strstr(out, "ok: the local replay"), "replay:\n%s", out);
    free(out);
    snprintf(file, sizeof file, "%s/export-%s.json", d->dir, id);
    snprintf(args, sizeof args, "export %s -o '%s'", id, file);
    ck_assert_int_eq(carcctl(d, args, &out), 0);
    free(out);
    json_t *ex = json_load_file(file, 0, NULL);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(json_array_size(json_object_get(ex, "moves")), seq);   /* the log: the seats' moves only */
    json_decref(ex);
    snprintf(args, sizeof args, "import '%s'", file);
    ck_assert_int_eq(carcctl(d2, args, &out), 0);
    json_t *res = json_loads(out, 0, NULL);
    ck_assert_msg(res && json_is_true(json_object_get(res, "same_state")), "import:\n%s", out);
    free(out);
    ck_assert_int_eq(e2e_verify_ok(c2, d2, e2e_jstr(res, "id")), seq);
    json_t *copy = e2e_admin_view(c2, d2, e2e_jstr(res, "id"));
    ck_assert(json_is_boolean(e2e_jget(copy, "options.ask_forced")));
    ck_assert(json_is_true(e2e_jget(copy, "options.ask_forced")) == ask);
    json_decref(copy);
    json_decref(res);
    unlink(file);
}

START_TEST(forced_steps_round_trip)
{
    e2e_daemon *d = e2e_daemon_up(NULL), *d2 = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d), *c2 = e2e_client_new(d2);
    e2e_game forced, asked;
    int seq_forced = play_thieves_game(c, d, false, &forced);
    int seq_asked = play_thieves_game(c, d, true, &asked);
    ck_assert_int_eq(seq_asked, seq_forced + 3);   /* the three returns: moves of the log only when asked */
    ck_assert_int_eq(e2e_verify_ok(c, d, forced.id), seq_forced);
    round_trip(d, d2, c2, forced.id, seq_forced, false);

    /* the asked game as if stored before ask_forced existed: no such option in its set-up or snapshot */
    PGconn *pg = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(pg) == CONNECTION_OK, "%s", PQerrorMessage(pg));
    char sql[300];
    snprintf(sql, sizeof sql,
             "UPDATE games SET setup = setup #- '{options,ask_forced}', snapshot = snapshot #- '{options,ask_forced}' "
             "WHERE id = '%s'", asked.id);
    PGresult *res = PQexec(pg, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdTuples(res), "1") == 0, "%s",
                  PQerrorMessage(pg));
    PQclear(res);
    PQfinish(pg);
    e2e_daemon_stop(d);   /* nothing cached of the game as it was */
    e2e_daemon_start(d);
    e2e_client_retarget(c, d);
    json_t *v = e2e_admin_view(c, d, asked.id);
    ck_assert(json_is_true(e2e_jget(v, "options.ask_forced")));   /* it was played asking */
    json_decref(v);
    ck_assert_int_eq(e2e_verify_ok(c, d, asked.id), seq_asked);
    round_trip(d, d2, c2, asked.id, seq_asked, true);

    e2e_client_free(c);
    e2e_client_free(c2);
    e2e_daemon_down(d2);
    e2e_daemon_down(d);
}
END_TEST

/* carcctl's local replay decodes the set-up and the log as carcd does (carc_setup_from_json,
 * carc_logged_move_apply): the admin's script.fruit deals the trees, and a seat that resigned is logged as
 * {"kind":"leave"}. Both must reach the server's state. */
START_TEST(carcctl_replays_fruit_script_and_leave)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    const char *extra = "{\"seed\":\"" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" "\","
                        "\"script\":{\"fruit\":{\"apple\":[2,3,4,5],\"plum\":[5,4,3,2],\"cherry\":[3,5,2,4]}}}";
    long st = e2e_game_create_raw(c, d, 3, "[\"fruit_trees\"]", extra, true, &g);
    ck_assert_msg(st == 201, "create: %ld", st);
    e2e_rng rng = {7};
    for (int i = 0; i < 4; i++) {
        e2e_play p;
        long s = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        ck_assert_msg(s == 200, "move %d: %ld", i, s);
    }
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[2], "{}", NULL, &r), 200);
    e2e_resp_free(&r);
    for (int i = 0; i < 2; i++) {
        e2e_play p;
        long s = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        ck_assert_msg(s == 200, "move after the resignation %d: %ld", i, s);
    }
    char *out, args[200];
    snprintf(args, sizeof args, "replay %s", g.id);
    int rc = carcctl(d, args, &out);
    ck_assert_msg(rc == 0 && strstr(out, "ok: the local replay"), "replay (exit %d):\n%s", rc, out);
    free(out);
    ck_assert_int_ge(e2e_verify_ok(c, d, g.id), 7);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_inspect");
    TCase *tc = e2e_tcase("inspect", 120);
    tcase_add_test(tc, svg_shows_the_view_and_nothing_hidden);
    tcase_add_test(tc, no_tile_under_a_hill_is_shown);
    tcase_add_test(tc, svg_at_seq_replays_the_past);
    tcase_add_test(tc, png_is_a_picture);
    tcase_add_test(tc, page_is_served);
    tcase_add_test(tc, audit_records_admin_actions);
    tcase_add_test(tc, carcctl_round_trip);
    tcase_add_test(tc, forced_steps_round_trip);
    tcase_add_test(tc, carcctl_replays_fruit_script_and_leave);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
