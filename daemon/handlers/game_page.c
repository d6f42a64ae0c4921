/*
 * game_page.c — GET /games/{id}: a page for people. The board (the SVG of board.svg, inline), the scores,
 * whose turn it is, and the move log with a slider that replays the game: the page's script fetches
 * board.svg?seq=N and the events, from carcd only (no external assets; a Content-Security-Policy with a
 * per-answer nonce allows nothing else).
 *
 * The page is drawn for the bearer (the public, for a browser). A player can see their own view by opening
 * the page with their token in the fragment, /games/{id}#token=cs_..., which never reaches the server in
 * the URL: the script sends it as a bearer token with its fetches.
 *
 * The template is daemon/page/game.html, compiled in (embedded.h); @NAME@ placeholders are filled here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/embedded.h"
#include "base/buf.h"
#include "base/json_out.h"
#include "game/games.h"
#include "handlers.h"
#include "render/render.h"
#include "game/replay.h"

/* Text into HTML (element content or a quoted attribute). */
static void hb_esc(cd_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': cd_buf_str(b, "&amp;"); break;
        case '<': cd_buf_str(b, "&lt;"); break;
        case '>': cd_buf_str(b, "&gt;"); break;
        case '"': cd_buf_str(b, "&quot;"); break;
        case '\'': cd_buf_str(b, "&#39;"); break;
        default: cd_buf_add(b, s, 1);
        }
    }
}

static const char *name_of(const json_t *view, int seat)
{
    const char *n = json_string_value(json_object_get(json_array_get(json_object_get(view, "players"), (size_t)seat),
                                                      "name"));
    return n ? n : "?";
}

/* The turn clock, when the game has one: paused, or the waiting seat's deadline and what is left of it. */
static void clock_line(cd_buf *b, const json_t *clock, bool finished)
{
    if (!json_is_object(clock) || finished)
        return;
    char line[200];
    cd_buf_str(b, "<p id=\"clock\">Clock: ");
    if (json_is_true(json_object_get(clock, "paused"))) {
        cd_buf_str(b, "paused by agreement.");
    } else {
        int seat = (int)json_integer_value(json_object_get(clock, "seat"));
        double left = json_number_value(json_object_get(json_array_get(json_object_get(clock, "seats"), (size_t)seat),
                                                        "time_left_s"));
        long s = left > 0 ? (long)left : 0;
        cd_buf_str(b, "deadline ");
        hb_esc(b, json_string_value(json_object_get(clock, "deadline")) ? json_string_value(json_object_get(clock, "deadline")) : "-");
        snprintf(line, sizeof line, " (%s%ldd %02ldh %02ldm left%s).", left < 0 ? "overdue, " : "", s / 86400,
                 s / 3600 % 24, s / 60 % 60, json_is_true(json_object_get(clock, "running")) ? "" : ", on vacation");
        cd_buf_str(b, line);
    }
    cd_buf_str(b, "</p>");
}

/* Scores, whose turn, what is left: the page's summary as HTML. */
static void summary(cd_buf *b, const json_t *view)
{
    const json_t *pending = json_object_get(view, "pending");
    int pseat = json_is_integer(json_object_get(pending, "seat")) ? (int)json_integer_value(json_object_get(pending, "seat"))
                                                                   : -1;
    const char *status = json_string_value(json_object_get(view, "status"));
    bool finished = status && (strcmp(status, "finished") == 0 || strcmp(status, "cancelled") == 0);
    cd_buf_str(b, "<h2>Scores</h2><table id=\"scores\">");
    size_t i;
    json_t *pl;
    json_array_foreach(json_object_get(view, "players"), i, pl) {
        char row[160];
        snprintf(row, sizeof row, "<tr data-seat=\"%zu\"%s><td><span class=\"chip\" style=\"background:#%06x\"></span></td><td>",
                 i, !finished && (int)i == pseat ? " class=\"turn\"" : "", (unsigned)cd_seat_color((int)i));
        cd_buf_str(b, row);
        hb_esc(b, name_of(view, (int)i));
        snprintf(row, sizeof row, "</td><td class=\"score\">%lld</td></tr>",
                 (long long)json_integer_value(json_object_get(pl, "score")));
        cd_buf_str(b, row);
    }
    cd_buf_str(b, "</table><p id=\"turn\">");
    char line[200];
    if (finished) {
        cd_buf_str(b, "The game is over.");
    } else {
        const char *kind = json_string_value(json_object_get(pending, "kind"));
        const char *tile = json_string_value(json_object_get(pending, "tile"));
        cd_buf_str(b, "Turn ");
        snprintf(line, sizeof line, "%lld: ", (long long)json_integer_value(json_object_get(view, "turn")));
        cd_buf_str(b, line);
        cd_buf_str(b, "<b>");
        hb_esc(b, name_of(view, pseat));
        cd_buf_str(b, "</b> ");
        if (kind && strcmp(kind, "place") == 0 && tile) {
            cd_buf_str(b, "places tile ");
            hb_esc(b, tile);
        } else if (kind && strcmp(kind, "figure") == 0) {
            cd_buf_str(b, "may put a figure on the tile just placed");
        } else {
            cd_buf_str(b, "is to move");
            if (kind) {
                cd_buf_str(b, " (");
                hb_esc(b, kind);
                cd_buf_str(b, ")");
            }
        }
        cd_buf_str(b, ".");
    }
    snprintf(line, sizeof line, " %lld tiles left.</p>", (long long)json_integer_value(json_object_get(view, "stack_left")));
    cd_buf_str(b, line);
    clock_line(b, json_object_get(view, "clock"), finished);
}

enum MHD_Result h_game_page(cd_req *r)
{
    int viewer = CARC_VIEW_PUBLIC;
    json_t *view = cd_board_view(r, "games.page", &viewer);
    if (!view)
        return MHD_YES;
    size_t svg_len;
    char *svg = cd_render_svg(cd_catalog(), view, &svg_len);
    json_t *names = json_array();
    size_t i;
    json_t *pl;
    json_array_foreach(json_object_get(view, "players"), i, pl) json_array_append_new(names, json_string(name_of(view, (int)i)));
    json_t *data = json_pack("{s:O, s:O, s:o}", "id", json_object_get(view, "id"), "seq", json_object_get(view, "seq"),
                             "names", names);
    /* JSON_ESCAPE_SLASH: no "</script>" can close the data block early */
    char *data_text = cd_json_dumps(data, JSON_COMPACT | JSON_ESCAPE_SLASH);
    json_decref(data);
    uint8_t nonce_raw[16];
    char nonce[33];
    cd_random_bytes(nonce_raw, sizeof nonce_raw);
    cd_hex(nonce_raw, sizeof nonce_raw, nonce);
    char seq[24];
    snprintf(seq, sizeof seq, "%lld", (long long)json_integer_value(json_object_get(view, "seq")));

    cd_buf title = {0}, sum = {0}, out = {0};
    cd_buf_str(&title, "Carcassonne: ");
    for (size_t k = 0; k < json_array_size(json_object_get(view, "players")); k++) {
        if (k)
            cd_buf_str(&title, ", ");
        cd_buf_str(&title, name_of(view, (int)k));
    }
    summary(&sum, view);

    const char *t = cd_page_game_html;
    while (*t) {
        const char *at = strchr(t, '@');
        if (!at) {
            cd_buf_str(&out, t);
            break;
        }
        cd_buf_add(&out, t, (size_t)(at - t));
        const char *end = strchr(at + 1, '@');
        size_t n = end ? (size_t)(end - at - 1) : 0;
        if (end && n == 5 && memcmp(at + 1, "TITLE", 5) == 0)
            hb_esc(&out, title.p);
        else if (end && n == 2 && memcmp(at + 1, "ID", 2) == 0)
            hb_esc(&out, r->params[0]);
        else if (end && n == 3 && memcmp(at + 1, "SEQ", 3) == 0)
            cd_buf_str(&out, seq);
        else if (end && n == 3 && memcmp(at + 1, "SVG", 3) == 0)
            cd_buf_add(&out, svg, svg_len);
        else if (end && n == 7 && memcmp(at + 1, "SUMMARY", 7) == 0)
            cd_buf_str(&out, sum.p);
        else if (end && n == 4 && memcmp(at + 1, "DATA", 4) == 0)
            for (const char *q = data_text; *q; q++)   /* '<' only occurs in strings: \u003c there */
                *q == '<' ? cd_buf_str(&out, "\\u003c") : cd_buf_add(&out, q, 1);
        else if (end && n == 5 && memcmp(at + 1, "NONCE", 5) == 0)
            cd_buf_str(&out, nonce);
        else {   /* not a placeholder: keep the '@' */
            cd_buf_add(&out, "@", 1);
            t = at + 1;
            continue;
        }
        t = end + 1;
    }
    char csp[300];
    snprintf(csp, sizeof csp,
             "default-src 'none'; script-src 'nonce-%s'; style-src 'unsafe-inline'; img-src 'self' data:; "
             "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
             nonce);
    const char *headers[] = {"Content-Security-Policy", csp, "Cache-Control", "private, no-cache", "Referrer-Policy",
                             "no-referrer", NULL};
    enum MHD_Result ret = cd_reply_raw(r, 200, "text/html; charset=utf-8", out.p, out.len, headers);
    free(out.p);
    free(title.p);
    free(sum.p);
    free(svg);
    free(data_text);
    json_decref(view);
    return ret;
}
