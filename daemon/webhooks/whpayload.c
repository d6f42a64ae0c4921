/*
 * whpayload.c — webhook bodies (whpayload.h): the structured json data and the ready-to-post texts.
 */
#include "whpayload.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_out.h"
#include "webhooks.h"

/* ---- a growing string ------------------------------------------------------------------------------------- */
/* Formats at most 511 bytes: every webhook text piece is short, and a capped piece cannot blow a chat
 * message past its platform limit. */
static void sb_printf(cd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(cd_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        cd_buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- chat limits ----------------------------------------------------------------------------------------- */
/* Discord refuses a message whose content is over 2 000 characters; Slack asks to keep a message's text under
 * 4 000 (and cuts it at 40 000). Characters are counted as UTF-16 code units, which is never fewer than
 * either platform counts. A name in chat text is cut to CHAT_NAME_MAX characters. */
#define DISCORD_MAX 2000
#define SLACK_MAX 4000
#define CHAT_NAME_MAX 24
#define ELLIPSIS "\xe2\x80\xa6"   /* U+2026, one character */
#define ZWSP "\xe2\x80\x8b"       /* U+200B: keeps Slack from reading a name's * _ ~ ` as markup */

static size_t chat_cap(int format)
{
    return format == CD_WH_DISCORD ? DISCORD_MAX : format == CD_WH_SLACK ? SLACK_MAX : (size_t)-1;
}

/* The length of UTF-8 text s[0..n) in UTF-16 code units. */
static size_t utf16_len(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        k += (c & 0xC0) == 0x80 ? 0 : c >= 0xF0 ? 2 : 1;
    }
    return k;
}

/* The longest prefix of s (bytes) that ends at a character boundary and holds at most `units` UTF-16 units. */
static size_t utf8_prefix(const char *s, size_t n, size_t units)
{
    size_t i = 0, k = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        size_t w = c >= 0xF0 ? 2 : 1;
        if (i + len > n || k + w > units)
            break;
        i += len;
        k += w;
    }
    return i;
}

/* Text from a player (a name) made inert for the format: Discord Markdown escaped with backslashes, Slack's
 * &, < and > as entities and its * _ ~ ` between zero-width spaces. In chat text a name is cut (at a character
 * boundary) to CHAT_NAME_MAX characters and ends in "…"; the json format keeps it whole. */
static void sb_inert(cd_buf *b, int format, const char *s, size_t n, bool cut);
static void sb_user_text(cd_buf *b, int format, const char *s)
{
    size_t n = strlen(s);
    bool cut = false;
    if (format != CD_WH_JSON && utf16_len(s, n) > CHAT_NAME_MAX) {
        n = utf8_prefix(s, n, CHAT_NAME_MAX - 1);
        cut = true;
    }
    sb_inert(b, format, s, n, cut);
}

/* s[0..n) escaped for the format (as sb_user_text says), "…" after it when cut. */
static void sb_inert(cd_buf *b, int format, const char *s, size_t n, bool cut)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (format == CD_WH_DISCORD && strchr("\\*_~`|>#[]()<@:", c)) {
            char esc[2] = {'\\', c};
            cd_buf_add(b, esc, 2);
        } else if (format == CD_WH_SLACK && (c == '&' || c == '<' || c == '>')) {
            cd_buf_str(b, c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;");
        } else if (format == CD_WH_SLACK && strchr("*_~`", c)) {
            cd_buf_str(b, ZWSP);
            cd_buf_add(b, &c, 1);
            cd_buf_str(b, ZWSP);
        } else {
            cd_buf_add(b, &c, 1);
        }
    }
    if (cut)
        cd_buf_str(b, ELLIPSIS);
}

/* A message as lines: the first (who or what) and the last (the links) are always sent; the ones between are
 * dropped from the end, and "…" said instead, when the whole would be over the format's cap. */
#define CHAT_LINES 96
typedef struct {
    cd_buf head, tail;
    cd_buf body[CHAT_LINES];
    int nbody;
    bool lost;        /* more than CHAT_LINES body lines were written */
    cd_buf spare;     /* where those went */
} chat;

static cd_buf *chat_line(chat *m)
{
    if (m->nbody < CHAT_LINES)
        return &m->body[m->nbody++];
    m->lost = true;
    m->spare.len = 0;
    return &m->spare;
}

/* The message's text under `cap` UTF-16 units, malloc'd. Frees the lines. */
static char *chat_text(chat *m, size_t cap)
{
    cd_buf out = {0};
    cd_buf_add(&out, m->head.p ? m->head.p : "", m->head.len);
    size_t used = utf16_len(out.p, out.len);
    size_t tail = m->tail.len ? 1 + utf16_len(m->tail.p, m->tail.len) : 0;
    size_t more = 2;   /* "\n…" */
    bool dropped = false;
    for (int i = 0; i < m->nbody && !dropped; i++) {
        size_t w = 1 + utf16_len(m->body[i].p, m->body[i].len);
        bool rest = i + 1 < m->nbody || m->lost;   /* room for "…" stays unless this is the last line */
        if (used + w + tail + (rest ? more : 0) > cap) {
            dropped = true;
            break;
        }
        cd_buf_str(&out, "\n");
        cd_buf_add(&out, m->body[i].p, m->body[i].len);
        used += w;
    }
    dropped = dropped || m->lost;
    if (dropped)
        cd_buf_str(&out, "\n" ELLIPSIS);
    if (m->tail.len) {
        cd_buf_str(&out, "\n");
        cd_buf_add(&out, m->tail.p, m->tail.len);
    }
    if (utf16_len(out.p, out.len) > cap) {   /* only when head and links alone are over: cut the text */
        out.len = utf8_prefix(out.p, out.len, cap - 1);
        out.p[out.len] = 0;
        cd_buf_str(&out, ELLIPSIS);
    }
    for (int i = 0; i < m->nbody; i++)
        free(m->body[i].p);
    free(m->head.p);
    free(m->tail.p);
    free(m->spare.p);
    if (!out.p)
        cd_buf_str(&out, "");
    return out.p;
}

/* ---- reading the context ------------------------------------------------------------------------------- */
static const char *player_name(const cd_whp_ctx *c, int seat)
{
    const char *n = json_string_value(json_array_get(c->names, (size_t)seat));
    return n ? n : "someone";
}

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static json_t *game_link(const cd_whp_ctx *c, const char *tail)
{
    char buf[700];
    snprintf(buf, sizeof buf, "%s/v1/games/%s%s", c->base_url, c->game_id, tail);
    return json_string(buf);
}

/* [{"seat", "player", "score"}] from the view's players. */
static json_t *scores(const cd_whp_ctx *c)
{
    json_t *a = json_array();
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(c->view, "players"), i, p) {
        json_array_append_new(a, json_pack("{s:i, s:s, s:O?}", "seat", (int)i, "player", player_name(c, (int)i),
                                           "score", json_object_get(p, "score")));
    }
    return a;
}

/* Whether the view lists seat i among those that left the game. */
static bool seat_left(const cd_whp_ctx *c, size_t i)
{
    size_t k;
    json_t *s;
    json_array_foreach(json_object_get(c->view, "left"), k, s) if ((size_t)json_integer_value(s) == i) return true;
    return false;
}

/* The best score among the seats still in the game, as carc_winners decides (the view is all we have). */
static json_t *winners(const cd_whp_ctx *c)
{
    json_t *players = json_object_get(c->view, "players");
    bool all_left = json_array_size(json_object_get(c->view, "left")) >= json_array_size(players);
    json_int_t best = 0;
    bool any = false;
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) {
        json_int_t s = json_integer_value(json_object_get(p, "score"));
        if ((all_left || !seat_left(c, i)) && (!any || s > best)) {
            best = s;
            any = true;
        }
    }
    json_t *a = json_array();
    json_array_foreach(players, i, p) {
        if ((all_left || !seat_left(c, i)) && json_integer_value(json_object_get(p, "score")) == best)
            json_array_append_new(a, json_integer((json_int_t)i));
    }
    return a;
}

/* ---- the texts ------------------------------------------------------------------------------------------ */
static void bold_name(cd_buf *b, int format, const char *name)
{
    const char *mark = format == CD_WH_DISCORD ? "**" : format == CD_WH_SLACK ? "*" : "";
    cd_buf_str(b, mark);
    sb_user_text(b, format, name);
    cd_buf_str(b, mark);
}

static void short_game(cd_buf *b, int format, const cd_whp_ctx *c)
{
    sb_printf(b, format == CD_WH_JSON ? "%.8s" : "`%.8s`", c->game_id);
}

/* The links a person opens in a browser: the game page and the board picture after this seq (the JSON routes
 * would answer a browser 401). None when carcd does not know its public address. */
static void links(cd_buf *b, const cd_whp_ctx *c)
{
    if (c->base_url[0])
        cd_buf_printf(b, "Game: %s/games/%s \xc2\xb7 Board: %s/v1/games/%s/board.png?seq=%d", c->base_url,
                      c->game_id, c->base_url, c->game_id, c->seq);
}

/* The game page's link alone, for a game that waits for its seats: it has no board to draw. */
static void page_link(cd_buf *b, const cd_whp_ctx *c)
{
    if (c->base_url[0])
        cd_buf_printf(b, "Game: %s/games/%s", c->base_url, c->game_id);
}

static void what_to_do(cd_buf *b, const json_t *pending)
{
    const char *kind = jstr(pending, "kind");
    if (strcmp(kind, "place") == 0)
        sb_printf(b, "place tile %.20s", jstr(pending, "tile"));
    else if (strcmp(kind, "figure") == 0)
        sb_printf(b, "put a follower on the tile you placed, or pass");
    else if (strcmp(kind, "draw_or_triangle") == 0)
        sb_printf(b, "draw a tile or place a triangle");
    else if (strcmp(kind, "fruit") == 0)
        sb_printf(b, "harvest or sell fruit, or pass");
    else if (strcmp(kind, "flock") == 0)
        sb_printf(b, "grow or stable your flock");
    else if (strcmp(kind, "crop_circle_choice") == 0)
        sb_printf(b, "choose what the crop circle does");
    else if (strcmp(kind, "crop_circle_action") == 0)
        sb_printf(b, "add or remove a follower for the crop circle");
    else if (strcmp(kind, "draft") == 0)
        sb_printf(b, "take a triangle from the draft");
    else
        sb_printf(b, "make your choice (%.40s)", kind);
}

static void text_turn(chat *m, int format, const cd_whp_ctx *c)
{
    const json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    bold_name(&m->head, format, player_name(c, seat));
    sb_printf(&m->head, ", it's your turn in game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, ": ");
    what_to_do(&m->head, pending);
    sb_printf(&m->head, ".");
    if (c->deadline)
        sb_printf(chat_line(m), "Deadline: %.40s.", c->deadline);
    links(&m->tail, c);
}

static void text_reminder(chat *m, int format, const cd_whp_ctx *c)
{
    const json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    long left = c->time_left_s > 0 ? (long)c->time_left_s : 0;
    bold_name(&m->head, format, player_name(c, seat));
    sb_printf(&m->head, ", game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, " is waiting for you: %ldh %02ldm left (until %.40s).", left / 3600, left / 60 % 60,
              c->deadline ? c->deadline : "");
    links(&m->tail, c);
}

static void names_of_seats(cd_buf *b, int format, const cd_whp_ctx *c, const json_t *seats)
{
    size_t i, n = json_array_size(seats);
    json_t *s;
    json_array_foreach(seats, i, s) {
        if (i > 0)
            sb_printf(b, i + 1 == n ? " and " : ", ");
        sb_user_text(b, format, player_name(c, (int)json_integer_value(s)));
    }
}

/* What a reader cares about in event e, into b; false (b untouched) for an event not told. */
static bool text_event(cd_buf *b, int format, const cd_whp_ctx *c, const json_t *e)
{
    const char *type = jstr(e, "type");
    int seat = (int)json_integer_value(json_object_get(e, "seat"));
    if (strcmp(type, "piece_placed") == 0) {
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " placed tile %.20s at (%lld, %lld)", jstr(e, "tile"),
                  (long long)json_integer_value(json_object_get(e, "x")),
                  (long long)json_integer_value(json_object_get(e, "y")));
    } else if (strcmp(type, "figure_placed") == 0) {
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " put a %.20s on it", jstr(e, "figure"));
    } else if (strcmp(type, "passed") == 0 && !json_is_true(json_object_get(e, "forced"))) {
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " placed no follower");
    } else if (strcmp(type, "score") == 0) {
        names_of_seats(b, format, c, json_object_get(e, "seats"));
        sb_printf(b, " scored %lld for a %.20s %.20s", (long long)json_integer_value(json_object_get(e, "points")),
                  jstr(e, "reason"), jstr(e, "feature"));
    } else if (strcmp(type, "seat_left") == 0) {
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " left the game");
    } else if (strcmp(type, "seat_to_bot") == 0) {
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " left the game; a bot plays the seat on");
    } else {
        return false;
    }
    return true;
}

static void text_move(chat *m, int format, const cd_whp_ctx *c)
{
    sb_printf(&m->head, "Game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, ", move %d:", c->seq);
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e) {
        cd_buf line = {0};
        if (text_event(&line, format, c, e)) {
            cd_buf *l = chat_line(m);
            cd_buf_add(l, line.p, line.len);
            n++;
        }
        free(line.p);
    }
    if (n == 0) {
        cd_buf *l = chat_line(m);
        sb_user_text(l, format, player_name(c, c->seat));
        sb_printf(l, " moved");
    }
    links(&m->tail, c);
}

/* The json format's one-line summary of a move: every clause, names whole. */
static char *summary_move(const cd_whp_ctx *c)
{
    cd_buf b = {0};
    sb_printf(&b, "Game ");
    short_game(&b, CD_WH_JSON, c);
    sb_printf(&b, ", move %d: ", c->seq);
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e) {
        cd_buf line = {0};
        if (text_event(&line, CD_WH_JSON, c, e)) {
            sb_printf(&b, "%s", n++ ? "; " : "");
            cd_buf_add(&b, line.p, line.len);
        }
        free(line.p);
    }
    if (n == 0) {
        sb_user_text(&b, CD_WH_JSON, player_name(c, c->seat));
        sb_printf(&b, " moved");
    }
    sb_printf(&b, ".");
    return b.p;
}

/* Scores and winners; not the seed, 64 hex digits nobody reads in a chat (the json format carries it). */
static void text_finished(chat *m, int format, const cd_whp_ctx *c)
{
    sb_printf(&m->head, "Game ");
    short_game(&m->head, format, c);
    if (c->never_started) {   /* nobody played: no scores to list */
        if (c->cancelled_by == CD_CANCEL_BY_EXPIRY)
            sb_printf(&m->head, " was cancelled before it started: nobody joined it for too long.");
        else
            sb_printf(&m->head, " was cancelled by %s before it started.",
                      c->cancelled_by == CD_CANCEL_BY_ADMIN ? "the server's admin" : "its creator");
        page_link(&m->tail, c);
        return;
    }
    if (c->cancelled) {
        sb_printf(&m->head, " was cancelled by the server's admin: no winner.");
        size_t i;
        json_t *p;
        json_array_foreach(json_object_get(c->view, "players"), i, p) {
            cd_buf *l = chat_line(m);
            sb_user_text(l, format, player_name(c, (int)i));
            sb_printf(l, ": %lld", (long long)json_integer_value(json_object_get(p, "score")));
        }
        links(&m->tail, c);
        return;
    }
    json_t *w = winners(c);
    sb_printf(&m->head, " is over. %s ", json_array_size(w) > 1 ? "Winners:" : "Winner:");
    size_t i;
    json_t *p;
    json_array_foreach(w, i, p) {
        if (i)
            sb_printf(&m->head, i + 1 == json_array_size(w) ? " and " : ", ");
        bold_name(&m->head, format, player_name(c, (int)json_integer_value(p)));
    }
    json_decref(w);
    sb_printf(&m->head, ".");
    json_array_foreach(json_object_get(c->view, "players"), i, p) {
        cd_buf *l = chat_line(m);
        sb_user_text(l, format, player_name(c, (int)i));
        sb_printf(l, ": %lld", (long long)json_integer_value(json_object_get(p, "score")));
    }
    links(&m->tail, c);
}

/* ---- the structured data -------------------------------------------------------------------------------- */
static json_t *data_turn(const cd_whp_ctx *c)
{
    json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    return json_pack("{s:s, s:i, s:i, s:s, s:O?, s:o, s:{s:o, s:o, s:o}}", "game", c->game_id, "seq", c->seq,
                     "seat", seat, "player", player_name(c, seat), "decision", pending, "deadline",
                     c->deadline ? json_string(c->deadline) : json_null(), "links", "game", game_link(c, ""),
                     "legal_moves", game_link(c, "/legal-moves"), "moves", game_link(c, "/moves"));
}

static json_t *data_reminder(const cd_whp_ctx *c)
{
    json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    return json_pack("{s:s, s:i, s:i, s:s, s:O?, s:s, s:f, s:{s:o, s:o}}", "game", c->game_id, "seq", c->seq,
                     "seat", seat, "player", player_name(c, seat), "decision", pending, "deadline",
                     c->deadline ? c->deadline : "", "time_left_s", c->time_left_s, "links", "game",
                     game_link(c, ""), "legal_moves", game_link(c, "/legal-moves"));
}

static json_t *data_move(const cd_whp_ctx *c)
{
    char *summary = summary_move(c);
    json_t *pending = json_object_get(c->view, "pending");
    json_t *next = strcmp(jstr(pending, "kind"), "none") == 0 || !pending ? json_null() : json_incref(pending);
    json_t *d = json_pack("{s:s, s:i, s:i, s:s, s:s, s:O?, s:o, s:o, s:{s:o, s:o}}", "game", c->game_id, "seq",
                          c->seq, "seat", c->seat, "player", player_name(c, c->seat), "summary", summary,
                          "events", c->events, "scores", scores(c), "next", next, "links", "game", game_link(c, ""),
                          "events", game_link(c, "/events"));
    free(summary);
    return d;
}

/* How many UTF-16 units the character at s (lead byte c) takes once sb_inert escaped it. */
static size_t inert_units(int format, unsigned char c)
{
    if (c >= 0x80)
        return c >= 0xF0 ? 2 : (c & 0xC0) == 0x80 ? 0 : 1;
    if (format == CD_WH_DISCORD && strchr("\\*_~`|>#[]()<@:", c))
        return 2;
    if (format == CD_WH_SLACK && (c == '&' || c == '<' || c == '>'))
        return c == '&' ? 5 : 4;
    if (format == CD_WH_SLACK && strchr("*_~`", c))
        return 3;
    return 1;
}

/* message.posted, chat: "**Ann** wrote in game abc123:", then the text's lines, escaped (on Discord a line
 * that starts with - or + would be a list item: escaped too). The escaped text is cut, at a character, to
 * what leaves MESSAGE_ROOM units of the format's cap for the first line and the links, and ends in "…" then;
 * a text that still does not fit (a very long CARCD_PUBLIC_URL) loses its last lines to chat_text's "…". */
#define MESSAGE_ROOM 600
static void text_message(chat *m, int format, const cd_whp_ctx *c)
{
    bold_name(&m->head, format, player_name(c, c->seat));
    sb_printf(&m->head, " wrote in game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, ":");
    const char *t = c->text ? c->text : "";
    size_t n = strlen(t), budget = chat_cap(format) - MESSAGE_ROOM, used = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(t + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (t + i)) : n - i, keep = 0;
        bool cut = false;
        if (format == CD_WH_DISCORD && len > 0 && (t[i] == '-' || t[i] == '+'))
            used++;
        while (keep < len && !cut) {   /* whole characters while they fit */
            size_t clen = 1;
            while (keep + clen < len && ((unsigned char)t[i + keep + clen] & 0xC0) == 0x80)
                clen++;
            size_t w = inert_units(format, (unsigned char)t[i + keep]);
            if (used + w + 1 > budget)
                cut = true;
            else {
                used += w;
                keep += clen;
            }
        }
        cd_buf *l = chat_line(m);
        if (format == CD_WH_DISCORD && len > 0 && (t[i] == '-' || t[i] == '+'))
            cd_buf_str(l, "\\");
        sb_inert(l, format, t + i, keep, cut);
        if (cut)
            break;
        used++;   /* the line feed */
        i += len + 1;
    }
    links(&m->tail, c);
}

static json_t *data_message(const cd_whp_ctx *c)
{
    return json_pack("{s:s, s:i, s:I, s:i, s:s, s:s, s:{s:o, s:o}}", "game", c->game_id, "seq", c->seq, "id",
                     (json_int_t)c->message_id, "seat", c->seat, "player", player_name(c, c->seat), "text",
                     c->text ? c->text : "", "links", "game", game_link(c, ""), "messages",
                     game_link(c, "/messages"));
}

static json_t *data_finished(const cd_whp_ctx *c)
{
    json_t *d = json_pack("{s:s, s:i, s:s, s:o, s:o, s:s, s:s, s:{s:o}}", "game", c->game_id, "seq", c->seq, "reason",
                          c->cancelled ? "cancelled" : "finished", "scores", scores(c), "winners",
                          c->cancelled ? json_array() : winners(c), "seed", c->seed && !c->cancelled ? c->seed : "",
                          "seed_sha256", c->seed_sha256 ? c->seed_sha256 : "", "links", "game", game_link(c, ""));
    if (c->cancelled)   /* as the waiting game's view says it; a game under way only the admin cancels */
        json_object_set_new(d, "cancelled_by",
                            json_string(c->never_started ? cd_cancel_by_name(c->cancelled_by) : "admin"));
    return d;
}

/* player.joined, chat: "**Cy** joined game `abc12345`: 3 of 4 seats taken, 1 open.", and the game's page (a
 * waiting game has no board to draw). */
static void text_joined(chat *m, int format, const cd_whp_ctx *c)
{
    bold_name(&m->head, format, player_name(c, c->seat));
    sb_printf(&m->head, " joined game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, ": %d of %d seats taken, %d open.", c->taken, c->seats, c->seats - c->taken);
    page_link(&m->tail, c);
}

static json_t *data_joined(const cd_whp_ctx *c)
{
    return json_pack("{s:s, s:i, s:i, s:s, s:i, s:i, s:i, s:{s:o}}", "game", c->game_id, "seq", c->seq, "seat",
                     c->seat, "player", player_name(c, c->seat), "seats", c->seats, "taken", c->taken, "open",
                     c->seats - c->taken, "links", "game", game_link(c, ""));
}

/* "2 of 4 seats taken (Ann and Bob), 2 open.": the table of a waiting game, its names inert for the format. */
static void table_words(cd_buf *b, int format, const cd_whp_ctx *c)
{
    sb_printf(b, "%d of %d seats taken (", c->taken, c->seats);
    size_t n = json_array_size(c->names);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            sb_printf(b, i + 1 == n ? " and " : ", ");
        sb_user_text(b, format, player_name(c, (int)i));
    }
    sb_printf(b, "), %d open.", c->seats - c->taken);
}

/* player.left, chat: "**Cy** left game `abc12345` before it started: 2 of 4 seats taken (Ann and Bob), 2 open."
 * ("**Cy** was removed by its creator from game ..." when removed), and the game's page. */
static void text_left(chat *m, int format, const cd_whp_ctx *c)
{
    bold_name(&m->head, format, c->left_name ? c->left_name : "?");
    sb_printf(&m->head, c->removed ? " was removed by its creator from game " : " left game ");
    short_game(&m->head, format, c);
    sb_printf(&m->head, " before it started: ");
    table_words(&m->head, format, c);
    page_link(&m->tail, c);
}

/* player.left, json: the seat given up and its name, whether the creator removed it, and the table as it is
 * now. */
static json_t *data_left(const cd_whp_ctx *c)
{
    return json_pack("{s:s, s:i, s:i, s:s, s:b, s:O, s:i, s:i, s:i, s:{s:o}}", "game", c->game_id, "seq", c->seq,
                     "seat", c->seat, "player", c->left_name ? c->left_name : "", "removed", c->removed, "players",
                     c->names, "seats", c->seats, "taken", c->taken, "open", c->seats - c->taken, "links", "game",
                     game_link(c, ""));
}

/* game.expiring, chat: "Game `abc12345` is cancelled on 2026-12-20T09:30:00.000Z unless someone joins: nobody
 * joined it for 13 days; 2 of 4 seats taken (Ann and Bob), 2 open.", and the game's page. game.kept_open:
 * "Game `abc12345` is kept open by its creator until 2027-01-03T09:30:00.000Z: 2 of 4 seats ..." (or "by the
 * server's admin"). */
static void text_expiry(chat *m, int format, const cd_whp_ctx *c, bool kept_open)
{
    sb_printf(&m->head, "Game ");
    short_game(&m->head, format, c);
    if (kept_open)
        sb_printf(&m->head, " is kept open by %s until %.40s: ",
                  c->kept_by_admin ? "the server's admin" : "its creator", c->expires_at ? c->expires_at : "?");
    else
        sb_printf(&m->head, " is cancelled on %.40s unless someone joins: nobody joined it for %.40s; ",
                  c->expires_at ? c->expires_at : "?", c->since ? c->since : "?");
    table_words(&m->head, format, c);
    page_link(&m->tail, c);
}

/* game.expiring, json: expires_at the date carcd cancels it, and the table. */
static json_t *data_expiring(const cd_whp_ctx *c)
{
    return json_pack("{s:s, s:i, s:s, s:O, s:i, s:i, s:i, s:{s:o}}", "game", c->game_id, "seq", c->seq,
                     "expires_at", c->expires_at ? c->expires_at : "", "players", c->names, "seats", c->seats,
                     "taken", c->taken, "open", c->seats - c->taken, "links", "game", game_link(c, ""));
}

/* game.kept_open, json: game.expiring's fields, and who kept it open. */
static json_t *data_kept_open(const cd_whp_ctx *c)
{
    json_t *d = data_expiring(c);
    json_object_set_new(d, "kept_by", json_string(c->kept_by_admin ? "admin" : "creator"));
    return d;
}

char *cd_whp_render(unsigned ev, int format, const cd_whp_ctx *c)
{
    json_t *body;
    if (format == CD_WH_JSON) {
        json_t *data = ev == CD_WH_TURN_STARTED   ? data_turn(c)
                       : ev == CD_WH_MOVE_MADE    ? data_move(c)
                       : ev == CD_WH_TURN_REMINDER ? data_reminder(c)
                       : ev == CD_WH_MESSAGE_POSTED ? data_message(c)
                       : ev == CD_WH_PLAYER_JOINED  ? data_joined(c)
                       : ev == CD_WH_GAME_EXPIRING  ? data_expiring(c)
                       : ev == CD_WH_GAME_KEPT_OPEN ? data_kept_open(c)
                       : ev == CD_WH_PLAYER_LEFT    ? data_left(c)
                                                   : data_finished(c);
        body = json_pack("{s:s, s:s, s:o}", "type", cd_wh_event_name(ev), "timestamp", c->timestamp, "data", data);
    } else {
        chat m = {0};
        if (ev == CD_WH_TURN_STARTED)
            text_turn(&m, format, c);
        else if (ev == CD_WH_MOVE_MADE)
            text_move(&m, format, c);
        else if (ev == CD_WH_TURN_REMINDER)
            text_reminder(&m, format, c);
        else if (ev == CD_WH_MESSAGE_POSTED)
            text_message(&m, format, c);
        else if (ev == CD_WH_PLAYER_JOINED)
            text_joined(&m, format, c);
        else if (ev == CD_WH_PLAYER_LEFT)
            text_left(&m, format, c);
        else if (ev == CD_WH_GAME_EXPIRING || ev == CD_WH_GAME_KEPT_OPEN)
            text_expiry(&m, format, c, ev == CD_WH_GAME_KEPT_OPEN);
        else
            text_finished(&m, format, c);
        char *t = chat_text(&m, chat_cap(format));
        if (format == CD_WH_DISCORD)
            body = json_pack("{s:s, s:{s:[]}}", "content", t, "allowed_mentions", "parse");
        else
            body = json_pack("{s:s}", "text", t);
        free(t);
    }
    if (!body)
        abort();   /* a pack format mistake or out of memory: never a client's doing */
    char *text = cd_json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (!text)
        abort();
    return text;
}
