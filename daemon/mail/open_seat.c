/*
 * open_seat.c — an open place's invitation by mail (open_seat.h).
 */
#include "open_seat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/crypto.h"
#include "build.h"
#include "compose.h"
#include "db/invite_optouts.h"
#include "db/lobby.h"
#include "db/mail_seats.h"   /* CD_EMAIL_MAX */
#include "db/mail_outbox.h"
#include "mail.h"
#include "tag.h"

#define OPEN_SEAT_KIND "open-seat"

/* The expansions' names as the rule books print them; an id not listed is shown as it is. */
static const char *expansion_name(const char *id)
{
    static const char *const names[][2] = {{"hills_sheep", "Hills & Sheep"}, {"crop_circles", "Crop Circles"},
                                           {"fruit_trees", "Fruit Trees"},   {"halflings", "Halb so wild II"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i][0], id) == 0)
            return names[i][1];
    return id;
}

void cd_mail_settings_words(const json_t *settings, int nseats, char *out, size_t n)
{
    cd_buf b = {0};
    cd_buf_printf(&b, "%d players, ", nseats);
    const json_t *exp = json_object_get(settings, "expansions");
    if (json_array_size(exp) == 0)
        cd_buf_str(&b, "the base game");
    for (size_t i = 0; i < json_array_size(exp); i++) {
        const char *id = json_string_value(json_array_get(exp, i));
        cd_buf_str(&b, i ? ", " : "");
        cd_buf_str(&b, expansion_name(id ? id : "?"));
    }
    double s = json_number_value(json_object_get(json_object_get(settings, "clock"), "per_move_s"));
    if (s <= 0)
        cd_buf_str(&b, ", no clock");
    else if ((long long)s % 86400 != 0)
        cd_buf_printf(&b, ", %lld h a move", ((long long)s + 1800) / 3600);
    else if ((long long)s == 86400)
        cd_buf_str(&b, ", a day a move");
    else
        cd_buf_printf(&b, ", %lld days a move", (long long)s / 86400);
    snprintf(out, n, "%s", b.p ? b.p : "");
    free(b.p);
}

char *cd_mail_compose_open_seat(const cd_mail_open_seat *a, char *msg_id, size_t msg_id_len)
{
    const cd_mail_settings *S = cd_mail_settings_get();
    cd_mail_msg_id(a->game_id, -1, OPEN_SEAT_KIND, 0, msg_id, msg_id_len);
    const char *who = a->inviter && a->inviter[0] ? a->inviter : "A player";
    char words[200], subject[300];
    cd_mail_settings_words(a->settings, a->nseats, words, sizeof words);
    snprintf(subject, sizeof subject, "%s invites you to a game of Carcassonne", who);

    cd_buf t = {0}, h = {0};
    cd_buf_printf(&t, "Hello,\n\n%s invites you to a game of Carcassonne: %s.\n", who, words);
    cd_buf_str(&h, "<!DOCTYPE html><html><body>\n<p>Hello,</p><p>");
    cd_buf_html(&h, who);
    cd_buf_str(&h, " invites you to a game of Carcassonne: ");
    cd_buf_html(&h, words);
    cd_buf_str(&h, ".</p>\n");
    if (json_array_size(a->names) > 0) {   /* the seats taken so far, bots among them */
        cd_buf_str(&t, "At the table so far:");
        cd_buf_str(&h, "<p>At the table so far:");
        for (size_t i = 0; i < json_array_size(a->names); i++) {
            const char *nm = json_string_value(json_array_get(a->names, i));
            cd_buf_printf(&t, "%s %s", i ? "," : "", nm ? nm : "?");
            cd_buf_str(&h, i ? ", " : " ");
            cd_buf_html(&h, nm ? nm : "?");
        }
        cd_buf_str(&t, ".\n");
        cd_buf_str(&h, ".</p>\n");
    }
    /* the link alone on its line, where a mail program that wraps or links text finds it whole */
    cd_buf_printf(&t, "\nTo take your seat, open this link and type the name you want to play under:\n%s\n\n",
                  a->page_url);
    cd_buf_str(&h, "<p>To take your seat, open this link and type the name you want to play under:<br><a href=\"");
    cd_buf_html(&h, a->page_url);
    cd_buf_str(&h, "\">");
    cd_buf_html(&h, a->page_url);
    cd_buf_str(&h, "</a></p>\n");
    if (a->reply_to && a->reply_to[0]) {   /* the same seat for a person who only uses mail */
        static const char by_mail[] =
            "Or take it by mail alone: answer this mail with the word join on the first line, and the name you want "
            "to play under after it (join Bob). carcd then mails you your turns, and you answer them to play.";
        cd_buf_printf(&t, "%s\n\n", by_mail);
        cd_buf_printf(&h, "<p>%s</p>\n", by_mail);   /* no markup in it */
    }
    static const char once[] =
        "The link opens one seat, once: keep it to yourself. Once you have joined, carcd mails you at this address "
        "when it is your turn (answer those mails to play, or play on the game's page), and each of those mails "
        "has a link that stops them.";
    static const char ignore[] =
        "If you do not want to play, ignore this mail: carcd does not write to this address again unless you join.";
    cd_buf_printf(&t, "%s\n\n%s\n", once, ignore);
    cd_buf_printf(&h, "<p>%s</p>\n<p>%s</p>\n", once, ignore);   /* no markup in either */
    if (a->stop_url) {
        static const char stop[] = "To get no invitation from this server at this address ever again:";
        cd_buf_printf(&t, "\n%s\n%s\n", stop, a->stop_url);
        cd_buf_printf(&h, "<p>%s<br><a href=\"", stop);
        cd_buf_html(&h, a->stop_url);
        cd_buf_str(&h, "\">");
        cd_buf_html(&h, a->stop_url);
        cd_buf_str(&h, "</a></p>\n");
    }
    cd_buf_str(&h, "</body></html>\n");

    cd_mail_parts parts = {
        .from = S->cfg ? S->cfg->mail_from : "carcd@localhost",
        .to = a->email,
        .reply_to = a->reply_to,
        .subject = subject,
        .msg_id = msg_id,
        .unsubscribe = a->stop_url,
        .text = t.p,
        .html = h.p,
    };
    char *msg = cd_mail_build(&parts);
    free(t.p);
    free(h.p);
    return msg;
}

/* The address as its opt-out is kept: SHA-256 hex of it folded to lower case (as mail systems treat it). */
static void email_hash(const char *email, char out[CD_HEX256_LEN])
{
    char low[CD_EMAIL_MAX + 1];
    size_t i = 0;
    for (; email[i] && i < CD_EMAIL_MAX; i++)
        low[i] = (char)tolower((unsigned char)email[i]);
    low[i] = 0;
    cd_sha256_hex(low, out);
}

cd_tx_result cd_mail_enqueue_open_seat(cd_db *db, const cd_mail_open_seat *a)
{
    /* a stop link of its own for each mail: a random token kept hashed, as invite codes are */
    char token[CD_TOKEN_LEN + 1], token_hash[CD_HEX256_LEN], addr_hash[CD_HEX256_LEN], stop[700];
    cd_token_new(token);
    memcpy(token, "st_", 3);
    cd_sha256_hex(token, token_hash);
    email_hash(a->email, addr_hash);
    const cd_mail_settings *S = cd_mail_settings_get();
    snprintf(stop, sizeof stop, "%s/v1/mail/invitations/stop/%s", S->cfg ? S->cfg->public_url : "", token);
    cd_mail_open_seat m = *a;
    m.stop_url = stop;
    char tag[CD_MAIL_TAG_LEN + 1], reply_to[400];
    cd_mail_place_tag(a->game_id, a->place, tag);
    cd_mail_reply_address(tag, reply_to, sizeof reply_to);   /* "" without CARCD_MAIL_REPLY_TO */
    m.reply_to = reply_to;
    if (reply_to[0] && cd_invite_reply_tag_set(db, a->game_id, a->place, tag) != CD_Q_OK)
        return CD_TX_ERROR;
    char msg_id[300];
    char *body = cd_mail_compose_open_seat(&m, msg_id, sizeof msg_id);
    if (!body)
        return CD_TX_ERROR;
    bool ok = cd_invite_stop_link_add(db, token_hash, addr_hash) == CD_Q_OK &&
              cd_mail_outbox_add(db, a->game_id, -1, OPEN_SEAT_KIND, 0, msg_id, a->email, body) &&
              cd_mail_outbox_notify(db);
    free(body);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_q cd_mail_invite_opted_out(cd_db *db, const char *email, bool *out)
{
    char h[CD_HEX256_LEN];
    email_hash(email, h);
    return cd_invite_opted_out(db, h, out);
}

cd_q cd_mail_invite_stop(cd_db *db, const char *token, bool *found)
{
    char h[CD_HEX256_LEN];
    cd_sha256_hex(token, h);
    return cd_invite_stop(db, h, found);
}
