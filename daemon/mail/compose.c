/*
 * compose.c — the words and pictures of each mail (compose.h).
 */
#include "compose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/crypto.h"
#include "build.h"
#include "json.h"
#include "notation.h"
#include "mail.h"
#include "render/render.h"
#include "tag.h"

#define PNG_MAX_PX 1200
#define BOARD_TEXT_MAX_CELLS 40   /* wider or taller boards are listed, not drawn */

const char *cd_mail_kind_name(cd_mail_kind k)
{
    static const char *const names[] = {"invitation", "turn", "reminder", "finished", "refused", "status"};
    return k <= CD_MAIL_STATUS ? names[k] : "?";
}

void cd_mail_thread_id(const char *game_id, const cd_mail_seat *to, char *out, size_t n)
{
    snprintf(out, n, "carcd.%s.%d@%s", game_id, to->thread_seat, cd_mail_settings_get()->domain);
}

void cd_mail_msg_id(const char *game_id, int seat, const char *kind, int seq, char *out, size_t n)
{
    uint8_t rnd[6];
    char rhex[13];
    cd_random_bytes(rnd, sizeof rnd);
    cd_hex(rnd, sizeof rnd, rhex);
    snprintf(out, n, "carcd.%s.%d.%s.%d.%s@%s", game_id, seat, kind, seq, rhex, cd_mail_settings_get()->domain);
}

int cd_mail_msg_id_seq(const char *msg_id)
{
    /* carcd.<uuid>.<seat>.<kind>.<seq>.<random>@domain */
    if (strncmp(msg_id, "carcd.", 6) != 0)
        return -1;
    const char *p = msg_id + 6;
    for (int dots = 0; dots < 3; dots++) {
        p = strchr(p, '.');
        if (!p)
            return -1;
        p++;
    }
    char *end;
    long v = strtol(p, &end, 10);
    return end != p && *end == '.' && v >= 0 && v < 1000000 ? (int)v : -1;
}

/* The notations of seat's legal moves in the engine's order: what the API's legal-moves lists (as
 * game/notations.c writes them; this layer is below the game service and asks the engine itself). */
static json_t *legal_notations(const carc_state *st, int seat)
{
    carc_moves m = {0};
    carc_legal_moves(st, seat, &m);
    json_t *a = json_array();
    char text[CARC_NOTATION_MAX];
    for (size_t i = 0; i < m.n; i++)
        if (carc_move_notation(st, &m.v[i], text, sizeof text) > 0)
            json_array_append_new(a, json_string(text));
    carc_moves_free(&m);
    return a;
}

static const char *name_of(const cd_mail_about *a, int seat, char *buf, size_t n)
{
    const char *s = json_string_value(json_array_get(a->names, (size_t)seat));
    if (s)
        return s;
    snprintf(buf, n, "seat %d", seat);
    return buf;
}

/* The board as text: a grid of the placed tiles (tile id and rotation), north up, x to the east; a list when
 * the board is too large for a mail's width. */
static void board_text(cd_buf *b, const json_t *view)
{
    const json_t *pieces = json_object_get(view, "pieces");
    size_t n = json_array_size(pieces);
    if (n == 0) {
        cd_buf_str(b, "(no tile placed yet)\n");
        return;
    }
    long minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(pieces, i);
        long x = (long)json_integer_value(json_object_get(p, "x")), y = (long)json_integer_value(json_object_get(p, "y"));
        if (i == 0 || x < minx) minx = x;
        if (i == 0 || x > maxx) maxx = x;
        if (i == 0 || y < miny) miny = y;
        if (i == 0 || y > maxy) maxy = y;
    }
    if (maxx - minx >= BOARD_TEXT_MAX_CELLS || maxy - miny >= BOARD_TEXT_MAX_CELLS) {
        for (size_t i = 0; i < n; i++) {
            const json_t *p = json_array_get(pieces, i);
            cd_buf_printf(b, "%s at %lld,%lld r%lld\n", json_string_value(json_object_get(p, "tile")),
                          json_integer_value(json_object_get(p, "x")), json_integer_value(json_object_get(p, "y")),
                          json_integer_value(json_object_get(p, "rot")));
        }
        return;
    }
    /* y grows to the south in the engine's coordinates (0,-1 is north of the start) */
    cd_buf_printf(b, "      ");
    for (long x = minx; x <= maxx; x++)
        cd_buf_printf(b, "%-7ld", x);
    cd_buf_add(b, "\n", 1);
    for (long y = miny; y <= maxy; y++) {
        cd_buf_printf(b, "%5ld ", y);
        for (long x = minx; x <= maxx; x++) {
            const char *cell = ".";
            long rot = 0;
            for (size_t i = 0; i < n; i++) {
                const json_t *p = json_array_get(pieces, i);
                if (json_integer_value(json_object_get(p, "x")) == x && json_integer_value(json_object_get(p, "y")) == y) {
                    cell = json_string_value(json_object_get(p, "tile"));
                    rot = (long)json_integer_value(json_object_get(p, "rot"));
                }
            }
            char c[16];
            if (strcmp(cell, ".") == 0)
                snprintf(c, sizeof c, ".");
            else
                snprintf(c, sizeof c, "%.4s/%ld", cell, rot);
            cd_buf_printf(b, "%-7s", c);
        }
        cd_buf_add(b, "\n", 1);
    }
}

static void scores(cd_buf *t, cd_buf *h, const cd_mail_about *a, const json_t *view)
{
    const json_t *players = json_object_get(view, "players");
    char nb[32];
    cd_buf_str(t, "Scores:");
    cd_buf_str(h, "<p>Scores:");
    for (size_t i = 0; i < json_array_size(players); i++) {
        long long sc = json_integer_value(json_object_get(json_array_get(players, i), "score"));
        const char *nm = name_of(a, (int)i, nb, sizeof nb);
        cd_buf_printf(t, " %s %lld%s", nm, sc, i + 1 < json_array_size(players) ? "," : "\n");
        cd_buf_str(h, " ");
        cd_buf_html(h, nm);
        cd_buf_printf(h, " %lld%s", sc, i + 1 < json_array_size(players) ? "," : "</p>\n");
    }
}

static const char *decision_words(const json_t *view)
{
    const char *kind = json_string_value(json_object_get(json_object_get(view, "pending"), "kind"));
    if (!kind)
        return "a decision";
    if (strcmp(kind, "place") == 0)
        return "place a tile";
    if (strcmp(kind, "figure") == 0)
        return "put a figure on the tile you placed, or pass";
    return kind;
}

char *cd_mail_compose(const cd_mail_about *a, char *msg_id, size_t msg_id_len)
{
    const cd_mail_settings *S = cd_mail_settings_get();
    const char *public_url = S->cfg ? S->cfg->public_url : "";
    cd_mail_msg_id(a->game_id, a->to->seat, cd_mail_kind_name(a->kind), a->seq, msg_id, msg_id_len);
    char thread[320], reply_to[300] = "", unsub[700] = "", nb[32], subject[300];
    cd_mail_thread_id(a->game_id, a->to, thread, sizeof thread);
    if (a->to->tag[0])
        cd_mail_reply_address(a->to->tag, reply_to, sizeof reply_to);
    if (a->to->tag[0] && public_url[0])
        cd_mail_unsub_url(public_url, a->game_id, a->to->tag, unsub, sizeof unsub);
    const char *me = name_of(a, a->to->seat, nb, sizeof nb);
    char short_id[9];
    snprintf(short_id, sizeof short_id, "%.8s", a->game_id);

    /* a seat a bot plays shows its hidden things to nobody, its player who left included (handlers/request.h) */
    json_t *view = carc_view_to_json(a->st, a->to->bot ? CARC_VIEW_PUBLIC : a->to->seat);
    bool over = a->st->status == CARC_FINISHED || a->cancelled;   /* a cancelled game's state is as it was then */
    bool my_turn = !over && a->st->pending.seat == a->to->seat && !a->to->bot;   /* a bot's moves are its own */
    cd_buf t = {0}, h = {0};
    cd_buf_str(&h, "<!DOCTYPE html><html><body>\n");
    json_t *legal = NULL;
    switch (a->kind) {
    case CD_MAIL_INVITATION:
        snprintf(subject, sizeof subject, "Carcassonne game %s: you play as %s", short_id, me);
        cd_buf_printf(&t, "Hello %s,\n\nyou have a seat (seat %d) in the Carcassonne game %s, with %d players.\n", me,
                      a->to->seat, a->game_id, a->st->nplayers);
        cd_buf_str(&h, "<p>Hello ");
        cd_buf_html(&h, me);
        cd_buf_printf(&h, ",</p><p>you have a seat (seat %d) in the Carcassonne game %s, with %d players.</p>\n",
                      a->to->seat, a->game_id, a->st->nplayers);
        if (a->token && public_url[0]) {
            /* the link on a line of its own, where a mail program that wraps or links text finds it whole: it is
             * the only copy of the seat's token a person gets, and the page's address for the whole game */
            cd_buf link = {0};
            cd_buf_printf(&link, "%s/games/%s#token=%s", public_url, a->game_id, a->token);
            cd_buf_printf(&t, "Your private play link, the key to your seat (keep it to yourself; bookmark it):\n%s\n",
                          link.p);
            cd_buf_str(&h, "<p>Your private play link, the key to your seat (keep it to yourself; bookmark it):<br>"
                           "<a href=\"");
            cd_buf_html(&h, link.p);
            cd_buf_str(&h, "\">");
            cd_buf_html(&h, link.p);
            cd_buf_str(&h, "</a></p>\n");
            free(link.p);
        }
        if (reply_to[0]) {
            static const char replies[] = "You will get a mail whenever it is your turn; answer it to play. A reply "
                                          "\"status\" to any mail of this game brings the game as it is.";
            cd_buf_printf(&t, "%s\n", replies);
            cd_buf_printf(&h, "<p>%s</p>\n", replies);   /* no markup in it: its quotes are text in HTML too */
        }
        break;
    case CD_MAIL_TURN:
    case CD_MAIL_REMINDER:
    case CD_MAIL_REFUSED:
    case CD_MAIL_STATUS:
        if (a->kind == CD_MAIL_REFUSED)
            snprintf(subject, sizeof subject, "Carcassonne game %s: your reply was not played", short_id);
        else if (a->kind == CD_MAIL_STATUS)
            snprintf(subject, sizeof subject, "Carcassonne game %s: the game at move %d", short_id, a->seq);
        else
            snprintf(subject, sizeof subject, "Carcassonne game %s: %syour turn, %s (move %d)", short_id,
                     a->kind == CD_MAIL_REMINDER ? "reminder: " : "", me, a->seq);
        if (a->kind == CD_MAIL_REFUSED && a->refusal) {
            cd_buf_printf(&t, "Your reply was not played: %s\n\n", a->refusal);
            cd_buf_str(&h, "<p><b>Your reply was not played:</b> ");
            cd_buf_html(&h, a->refusal);
            cd_buf_str(&h, "</p>\n");
        }
        if (a->last_move && a->last_move[0]) {
            cd_buf_printf(&t, "Since your last turn:\n%s\n", a->last_move);
            cd_buf_str(&h, "<p>Since your last turn:</p><pre>");
            cd_buf_html(&h, a->last_move);
            cd_buf_str(&h, "</pre>\n");
        }
        if (a->talk && a->talk[0]) {   /* the players' own words: plain text, escaped in the HTML part */
            cd_buf_str(&t, "At the table:\n");
            cd_buf_str(&t, a->talk);
            cd_buf_str(&t, "\n");
            cd_buf_str(&h, "<p>At the table:</p><pre>");
            cd_buf_html(&h, a->talk);
            cd_buf_str(&h, "</pre>\n");
        }
        if (over) {
            const char *end = a->cancelled ? "The game was cancelled by the server's administrator."
                                           : "The game is over.";
            cd_buf_printf(&t, "%s\n", end);
            cd_buf_printf(&h, "<p>%s</p>\n", end);   /* no markup in either */
            break;
        }
        if (my_turn) {
            cd_buf_printf(&t, "%s, it is your turn (seat %d, move %d): %s", me, a->to->seat, a->seq,
                          decision_words(view));
            cd_buf_printf(&h, "<p>It is your turn (seat %d, move %d): %s", a->to->seat, a->seq, decision_words(view));
            const char *tile = json_string_value(json_object_get(json_object_get(view, "pending"), "tile"));
            if (tile) {
                cd_buf_printf(&t, ", tile %s", tile);
                cd_buf_printf(&h, ", tile %s", tile);
            }
            cd_buf_str(&t, ".\n");
            cd_buf_str(&h, ".</p>\n");
        } else {   /* a status, or a reply out of turn: whom the game waits for */
            char wb[32];
            const char *who = name_of(a, a->st->pending.seat, wb, sizeof wb);
            cd_buf_printf(&t, "The game waits for %s (seat %d): %s.\n", who, a->st->pending.seat,
                          decision_words(view));
            cd_buf_str(&h, "<p>The game waits for ");
            cd_buf_html(&h, who);
            cd_buf_printf(&h, " (seat %d): %s.</p>\n", a->st->pending.seat, decision_words(view));
        }
        if (a->deadline && a->deadline[0]) {
            cd_buf_printf(&t, "Deadline: %s\n", a->deadline);
            cd_buf_printf(&h, "<p>Deadline: %s</p>\n", a->deadline);
        }
        break;
    case CD_MAIL_FINISHED:
        snprintf(subject, sizeof subject, "Carcassonne game %s: game %s", short_id, a->cancelled ? "cancelled" : "over");
        if (a->cancelled) {   /* the admin ended it: nobody won, the scores are those of that moment */
            cd_buf_str(&t, "The game was cancelled by the server's administrator");
            cd_buf_str(&h, "<p>The game was cancelled by the server's administrator");
            if (a->reason) {
                cd_buf_printf(&t, ": %s", a->reason);
                cd_buf_str(&h, ": ");
                cd_buf_html(&h, a->reason);
            }
            cd_buf_str(&t, ". Nobody won.\n");
            cd_buf_str(&h, ". Nobody won.</p>\n");
            break;
        }
        cd_buf_str(&t, "The game is over.\n");
        cd_buf_str(&h, "<p>The game is over.</p>\n");
        {
            unsigned won = carc_winners(a->st);
            cd_buf_str(&t, "Won by:");
            cd_buf_str(&h, "<p>Won by:");
            for (int s = 0; s < a->st->nplayers; s++)
                if (won >> s & 1) {
                    char b2[32];
                    cd_buf_printf(&t, " %s", name_of(a, s, b2, sizeof b2));
                    cd_buf_str(&h, " ");
                    cd_buf_html(&h, name_of(a, s, b2, sizeof b2));
                }
            cd_buf_str(&t, "\n");
            cd_buf_str(&h, "</p>\n");
        }
        break;
    }
    scores(&t, &h, a, view);
    cd_buf_str(&t, "\nThe board:\n");
    board_text(&t, view);
    cd_buf_str(&h, "<p><img src=\"cid:" CD_MAIL_PNG_CID "\" alt=\"the board\"></p>\n");
    if (my_turn && a->kind != CD_MAIL_INVITATION) {
        legal = legal_notations(a->st, a->to->seat);
        cd_buf_str(&t, "\nYour legal moves:\n");
        cd_buf_str(&h, "<p>Your legal moves:</p><ol>\n");
        for (size_t i = 0; i < json_array_size(legal); i++) {
            const char *nt = json_string_value(json_array_get(legal, i));
            cd_buf_printf(&t, "%4zu. %s\n", i + 1, nt);
            cd_buf_str(&h, "<li>");
            cd_buf_html(&h, nt);
            cd_buf_str(&h, "</li>\n");
        }
        cd_buf_str(&h, "</ol>\n");
        if (reply_to[0]) {
            cd_buf_str(&t, "\nTo play, reply with the number of a move (or its notation) on the first line; "
                            "\"resign\" alone on it resigns; \"say <words>\" writes to the table instead; "
                            "\"status\" brings the game as it is.\n");
            cd_buf_str(&h, "<p>To play, reply with the number of a move (or its notation) on the first line; "
                            "&quot;resign&quot; alone on it resigns; &quot;say &lt;words&gt;&quot; writes to the "
                            "table instead; &quot;status&quot; brings the game as it is.</p>\n");
        }
    }
    if (unsub[0]) {   /* below the signature line, which a reply's quote leaves out (mail/reply.h) */
        cd_buf_printf(&t, "\n-- \nTo stop this game's mails to you: %s\n", unsub);
        cd_buf_str(&h, "<p><small>To stop this game's mails to you: <a href=\"");
        cd_buf_html(&h, unsub);
        cd_buf_str(&h, "\">unsubscribe</a></small></p>\n");
    }
    cd_buf_str(&h, "</body></html>\n");
    size_t png_len = 0;
    unsigned char *png = cd_render_png(a->st->cat, view, PNG_MAX_PX, &png_len);
    cd_mail_parts parts = {
        .from = S->cfg ? S->cfg->mail_from : "carcd@localhost",
        .to = a->to->email,
        .reply_to = reply_to,
        .subject = subject,
        .msg_id = msg_id,
        .thread_id = thread,
        .in_reply_to = a->in_reply_to,
        .unsubscribe = unsub,
        .text = t.p,
        .html = png ? h.p : NULL,
        .png = png,
        .png_len = png_len,
    };
    char *msg = cd_mail_build(&parts);
    free(png);
    json_decref(legal);
    json_decref(view);
    free(t.p);
    free(h.p);
    return msg;
}
