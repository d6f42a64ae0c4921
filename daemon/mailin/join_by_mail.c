/*
 * join_by_mail.c — taking an open place by a reply to its invitation (join_by_mail.h).
 */
#include "join_by_mail.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/crypto.h"
#include "base/ids.h"
#include "db/lobby.h"
#include "game/lobby_join.h"
#include "mail/mail.h"
#include "mail/outbox.h"
#include "mail/place_answer.h"
#include "mail/tag.h"

/* The name to play under: the words after "join", or the address's local part when there are none
 * (cd_name_ok judges either). */
static void name_of(const char *command, const char *from, char out[CD_REPLY_LINE_MAX])
{
    const char *s = command + strlen("join");
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s)
        snprintf(out, CD_REPLY_LINE_MAX, "%s", s);
    else
        snprintf(out, CD_REPLY_LINE_MAX, "%.*s", (int)strcspn(from, "@"), from);
}

/* The address the place's invitation went to ("" when none), read for the reply's sender check, and that
 * address once a join from the lobby took the place (sql/022; "" when none). */
static cd_q place_email(cd_db *db, const char *game_id, int place, char out[CD_EMAIL_MAX + 1],
                        char displaced[CD_EMAIL_MAX + 1])
{
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int n = 0;
    out[0] = displaced[0] = 0;
    cd_q q = cd_invites_get(db, game_id, inv, &n);
    for (int i = 0; q == CD_Q_OK && i < n; i++)
        if (inv[i].place == place) {
            memcpy(out, inv[i].email, CD_EMAIL_MAX + 1);
            memcpy(displaced, inv[i].displaced, CD_EMAIL_MAX + 1);
        }
    return q;
}

/* Whether `from` is the invitee whose place a join from the lobby took: then the answer goes to that address
 * (email), and says why the reply takes no seat (why). They were invited, so they are told once they write;
 * carcd mailed them nothing when it happened (the invitation promised not to). */
static bool displaced_sender(char email[CD_EMAIL_MAX + 1], const char displaced[CD_EMAIL_MAX + 1], const char *from,
                             char *why, size_t n)
{
    if (email[0] || !displaced[0] || strcasecmp(displaced, from) != 0)
        return false;
    memcpy(email, displaced, CD_EMAIL_MAX + 1);
    snprintf(why, n, "the game is open to the players in this server's lobby too, and one of them took the seat "
                     "your invitation kept for you (carcd gives them a mailed invitation's seat only when no other "
                     "seat is left). Your invitation no longer opens a seat; to play, ask the player who invited you "
                     "for another invitation");
    return true;
}

/* A person's words for why the join was refused. */
static void refusal_words(const cd_join *j, char *out, size_t n)
{
    switch (j->why) {
    case CD_JOIN_PLACE_TAKEN:
        snprintf(out, n, "the seat of this invitation is taken already (if you took it yourself through the "
                         "invitation's link, the game's mail comes to this address once it starts)");
        break;
    case CD_JOIN_NOT_WAITING:
        snprintf(out, n, "%s", j->detail);
        break;
    default:
        snprintf(out, n, "the seat cannot be taken: %s", j->detail);
    }
}

cd_tx_result cd_mail_join(cd_db *db, const cd_reply *r, const char *game_id, int place, char *outcome,
                          size_t outlen, char *detail, size_t detlen)
{
    char email[CD_EMAIL_MAX + 1], displaced[CD_EMAIL_MAX + 1], tag[CD_MAIL_TAG_LEN + 1];
    char text[1400], subject[200], why[600] = "";
    if (place_email(db, game_id, place, email, displaced) != CD_Q_OK)
        return CD_TX_ERROR;
    bool was_displaced = displaced_sender(email, displaced, r->from, why, sizeof why);
    if (!email[0] || strcasecmp(email, r->from) != 0) {   /* nobody carcd did not invite gets a mail */
        snprintf(outcome, outlen, "ignored");
        snprintf(detail, detlen, "sent by %s, which is not the address the invitation was mailed to", r->from);
        return CD_TX_COMMIT;
    }
    cd_mail_place_tag(game_id, place, tag);
    char word[8], name[CD_REPLY_LINE_MAX] = "";
    cd_reply_first_word(r->command, word, sizeof word);
    /* (a displaced invitee is answered so whatever the reply says) */
    if (!why[0] && strcmp(word, "join") != 0) {   /* these two may be answered again, the join's refusals not */
        snprintf(why, sizeof why, "its first line is \"%.*s\", not \"join\"", cd_reply_shown(r->command),
                 r->command);
    } else if (!why[0]) {
        name_of(r->command, r->from, name);
        cd_name_ok(name, "the name after \"join\"", why, sizeof why);   /* why stays "" for a name */
    }
    bool may_retry = why[0] != 0 && !was_displaced;
    cd_join j = {.id = game_id, .name = name, .place = place, .from = r->from};
    char token[CD_TOKEN_LEN + 1], token_hash[CD_HEX256_LEN];
    if (!why[0]) {
        cd_token_new(token);
        cd_sha256_hex(token, token_hash);
        j.token = token;
        j.token_hash = token_hash;
        cd_tx_result out = cd_lobby_join(db, &j);
        if (out == CD_TX_ERROR || j.why == CD_JOIN_SETUP_REFUSED)   /* a bug: the mail is kept and tried again */
            return CD_TX_ERROR;
        if (j.why == CD_JOIN_NOT_INVITEE) {   /* a join from the lobby took the place since the read above? */
            if (place_email(db, game_id, place, email, displaced) != CD_Q_OK)
                return CD_TX_ERROR;
            displaced_sender(email, displaced, r->from, why, sizeof why);
        }
        if (j.why == CD_JOIN_NO_GAME || (j.why == CD_JOIN_NOT_INVITEE && !why[0])) {   /* gone, or not theirs */
            snprintf(outcome, outlen, "ignored");
            snprintf(detail, detlen, "%s", j.detail);
            return CD_TX_COMMIT;
        }
        if (out == CD_TX_ROLLBACK && !why[0])
            refusal_words(&j, why, sizeof why);
    }
    cd_mail_place_answer a = {.game_id = game_id, .email = email, .in_reply_to = r->message_id,
                              .subject = subject, .text = text};
    if (why[0]) {
        snprintf(outcome, outlen, "refused");
        bool may = false;
        if (cd_mail_may_answer(db, game_id, -1, email, &may) != CD_MQ_OK)
            return CD_TX_ERROR;
        snprintf(detail, detlen, "%s%s", why, may ? "" : " (not answered: " CD_MAIL_ANSWERS_LIMIT_WORDS ")");
        if (!may)
            return CD_TX_COMMIT;
        snprintf(subject, sizeof subject, "Your reply took no seat");
        snprintf(text, sizeof text,
                 "Hello,\n\nyour reply took no seat in the game of Carcassonne you were invited to: %s.\n%s", why,
                 may_retry ? "\nTo take the seat by mail, answer this mail (or the invitation) with the word join on "
                             "the first line, and the name you want to play under after it (join Bob).\n"
                           : "");
        a.reply_tag = may_retry ? tag : NULL;
        return cd_mail_enqueue_place_answer(db, &a);
    }
    snprintf(outcome, outlen, "joined");
    snprintf(detail, detlen, "seat %d as %s%s", j.seat, name, j.started ? ": the game started" : "");
    if (j.started)   /* the start mailed the seat its first mail, with its private link (game/lobby_start.h) */
        return CD_TX_COMMIT;
    const cd_config *cfg = cd_mail_settings_get()->cfg;
    snprintf(subject, sizeof subject, "You have joined the game as %s", name);
    int n = snprintf(text, sizeof text,
                     "Hello %s,\n\nyou have a seat (seat %d) in the game of Carcassonne you were invited to. The game "
                     "starts when its other seats are taken, or when the player who invited you starts it; carcd "
                     "mails you then, and whenever it is your turn: answer those mails to play. If you cannot play "
                     "after all, answer any of its mails before the start with the word leave.\n",
                     name, j.seat);
    if (cfg && cfg->public_url[0] && n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n,
                 "\nYour private play link, the key to your seat, to play on the game's page instead, or to give the "
                 "seat back there before the game starts if you cannot play after all (keep it to yourself; "
                 "bookmark it):\n%s/games/%s#token=%s\n",
                 cfg->public_url, game_id, token);
    return cd_mail_enqueue_place_answer(db, &a);
}
