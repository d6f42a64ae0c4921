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

/* Text from a player (a name) made inert for the format: Discord Markdown escaped with backslashes,
 * Slack's three control characters as entities. */
static void sb_user_text(cd_buf *b, int format, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (format == CD_WH_DISCORD && strchr("\\*_~`|>#[]()<@:", c)) {
            char esc[2] = {'\\', c};
            cd_buf_add(b, esc, 2);
        } else if (format == CD_WH_SLACK && (c == '&' || c == '<' || c == '>')) {
            const char *ent = c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;";
            cd_buf_add(b, ent, strlen(ent));
        } else {
            cd_buf_add(b, &c, 1);
        }
    }
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
    const char *mark = format == CD_WH_DISCORD ? "**" : "*";
    cd_buf_add(b, mark, strlen(mark));
    sb_user_text(b, format, name);
    cd_buf_add(b, mark, strlen(mark));
}

static void short_game(cd_buf *b, int format, const cd_whp_ctx *c)
{
    sb_printf(b, format == CD_WH_JSON ? "%.8s" : "`%.8s`", c->game_id);
}

static void what_to_do(cd_buf *b, const json_t *pending)
{
    const char *kind = jstr(pending, "kind");
    if (strcmp(kind, "place") == 0)
        sb_printf(b, "place tile %s", jstr(pending, "tile"));
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

static void text_turn(cd_buf *b, int format, const cd_whp_ctx *c)
{
    const json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    bold_name(b, format, player_name(c, seat));
    sb_printf(b, ", it's your turn in game ");
    short_game(b, format, c);
    sb_printf(b, ": ");
    what_to_do(b, pending);
    sb_printf(b, ".");
    if (c->deadline)
        sb_printf(b, " Deadline: %.40s.", c->deadline);
    if (c->base_url[0])
        sb_printf(b, " Legal moves: %.500s/v1/games/%s/legal-moves", c->base_url, c->game_id);
}

static void text_reminder(cd_buf *b, int format, const cd_whp_ctx *c)
{
    const json_t *pending = json_object_get(c->view, "pending");
    int seat = (int)json_integer_value(json_object_get(pending, "seat"));
    long left = c->time_left_s > 0 ? (long)c->time_left_s : 0;
    bold_name(b, format, player_name(c, seat));
    sb_printf(b, ", game ");
    short_game(b, format, c);
    sb_printf(b, " is waiting for you: %ldh %02ldm left (until %.40s).", left / 3600, left / 60 % 60,
              c->deadline ? c->deadline : "");
    if (c->base_url[0])
        sb_printf(b, " Legal moves: %.500s/v1/games/%s/legal-moves", c->base_url, c->game_id);
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

/* One clause per event a reader cares about; *n counts the clauses so far. */
static void text_event(cd_buf *b, int format, const cd_whp_ctx *c, const json_t *e, int *n)
{
    const char *type = jstr(e, "type");
    const char *sep = *n ? "; " : "";
    int seat = (int)json_integer_value(json_object_get(e, "seat"));
    if (strcmp(type, "piece_placed") == 0) {
        sb_printf(b, "%s", sep);
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " placed tile %.20s at (%lld, %lld)", jstr(e, "tile"),
                  (long long)json_integer_value(json_object_get(e, "x")),
                  (long long)json_integer_value(json_object_get(e, "y")));
    } else if (strcmp(type, "figure_placed") == 0) {
        sb_printf(b, "%s", sep);
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " put a %.20s on it", jstr(e, "figure"));
    } else if (strcmp(type, "passed") == 0 && !json_is_true(json_object_get(e, "forced"))) {
        sb_printf(b, "%s", sep);
        sb_user_text(b, format, player_name(c, seat));
        sb_printf(b, " placed no follower");
    } else if (strcmp(type, "score") == 0) {
        sb_printf(b, "%s", sep);
        names_of_seats(b, format, c, json_object_get(e, "seats"));
        sb_printf(b, " scored %lld for a %.20s %.20s", (long long)json_integer_value(json_object_get(e, "points")),
                  jstr(e, "reason"), jstr(e, "feature"));
    } else {
        return;
    }
    (*n)++;
}

static void text_move(cd_buf *b, int format, const cd_whp_ctx *c)
{
    sb_printf(b, "Game ");
    short_game(b, format, c);
    sb_printf(b, ", move %d: ", c->seq);
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e) text_event(b, format, c, e, &n);
    if (n == 0) {
        sb_user_text(b, format, player_name(c, c->seat));
        sb_printf(b, " moved");
    }
    sb_printf(b, ".");
}

static void text_finished(cd_buf *b, int format, const cd_whp_ctx *c)
{
    sb_printf(b, "Game ");
    short_game(b, format, c);
    sb_printf(b, " is over: ");
    json_t *players = json_object_get(c->view, "players");
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) {
        sb_printf(b, "%s", i ? ", " : "");
        sb_user_text(b, format, player_name(c, (int)i));
        sb_printf(b, " %lld", (long long)json_integer_value(json_object_get(p, "score")));
    }
    json_t *w = winners(c);
    sb_printf(b, ". %s ", json_array_size(w) > 1 ? "Winners:" : "Winner:");
    json_array_foreach(w, i, p) {
        if (i)
            sb_printf(b, i + 1 == json_array_size(w) ? " and " : ", ");
        bold_name(b, format, player_name(c, (int)json_integer_value(p)));
    }
    json_decref(w);
    sb_printf(b, ". Seed: %.64s", c->seed ? c->seed : "");
    if (c->base_url[0])
        sb_printf(b, " %.500s/v1/games/%s", c->base_url, c->game_id);
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
    cd_buf summary = {0};
    text_move(&summary, CD_WH_JSON, c);
    json_t *pending = json_object_get(c->view, "pending");
    json_t *next = strcmp(jstr(pending, "kind"), "none") == 0 || !pending ? json_null() : json_incref(pending);
    json_t *d = json_pack("{s:s, s:i, s:i, s:s, s:s, s:O?, s:o, s:o, s:{s:o, s:o}}", "game", c->game_id, "seq",
                          c->seq, "seat", c->seat, "player", player_name(c, c->seat), "summary", summary.p,
                          "events", c->events, "scores", scores(c), "next", next, "links", "game", game_link(c, ""),
                          "events", game_link(c, "/events"));
    free(summary.p);
    return d;
}

static json_t *data_finished(const cd_whp_ctx *c)
{
    return json_pack("{s:s, s:i, s:o, s:o, s:s, s:s, s:{s:o}}", "game", c->game_id, "seq", c->seq, "scores",
                     scores(c), "winners", winners(c), "seed", c->seed ? c->seed : "", "seed_sha256",
                     c->seed_sha256 ? c->seed_sha256 : "", "links", "game", game_link(c, ""));
}

char *cd_whp_render(unsigned ev, int format, const cd_whp_ctx *c)
{
    json_t *body;
    if (format == CD_WH_JSON) {
        json_t *data = ev == CD_WH_TURN_STARTED   ? data_turn(c)
                       : ev == CD_WH_MOVE_MADE    ? data_move(c)
                       : ev == CD_WH_TURN_REMINDER ? data_reminder(c)
                                                   : data_finished(c);
        body = json_pack("{s:s, s:s, s:o}", "type", cd_wh_event_name(ev), "timestamp", c->timestamp, "data", data);
    } else {
        cd_buf t = {0};
        if (ev == CD_WH_TURN_STARTED)
            text_turn(&t, format, c);
        else if (ev == CD_WH_MOVE_MADE)
            text_move(&t, format, c);
        else if (ev == CD_WH_TURN_REMINDER)
            text_reminder(&t, format, c);
        else
            text_finished(&t, format, c);
        if (format == CD_WH_DISCORD)
            body = json_pack("{s:s, s:{s:[]}}", "content", t.p, "allowed_mentions", "parse");
        else
            body = json_pack("{s:s}", "text", t.p);
        free(t.p);
    }
    if (!body)
        abort();   /* a pack format mistake or out of memory: never a client's doing */
    char *text = cd_json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (!text)
        abort();
    return text;
}
