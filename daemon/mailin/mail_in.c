/*
 * mail_in.c — acting on a reply mail (mail_in.h).
 */
#include "mail_in.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/crypto.h"
#include "base/log.h"
#include "base/metrics.h"
#include "base/timesrc.h"
#include "base/utf8.h"
#include "clock/clock_tx.h"
#include "db/db.h"
#include "db/lobby.h"
#include "db/mail_in.h"
#include "db/mail_outbox.h"
#include "db/mail_seats.h"
#include "game/bot_seats.h"
#include "game/forced_moves.h"
#include "game/clock.h"
#include "game/games.h"
#include "game/messages.h"
#include "game/move_commit.h"
#include "game/notations.h"
#include "join_by_mail.h"
#include "waiting_reply.h"
#include "json.h"
#include "mail/outbox.h"
#include "mail/reply.h"
#include "mail/tag.h"
#include "mail/waiting.h"
#include "notation.h"

#define MAIL_IN_MAX (64u << 20)

typedef struct {
    const cd_reply *r;
    const char *key;          /* the idempotency key: the Message-ID */
    /* out */
    char outcome[16];         /* moved, refused, ignored, duplicate, clock, said, joined, bounced, left */
    char detail[400];
} in_tx;

/* A move's number in the turn mail's list: "3", or "3." as the list writes it. */
static bool is_number(const char *s)
{
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == 0 || (*s == '.' && s[1] == 0);
}

/* "3. V 0,1 r0": a line of the turn mail's list copied whole, which the notation cannot read. */
static bool is_list_line(const char *s)
{
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == '.' && (s[1] == ' ' || s[1] == '\t');
}

/* pause, resume, vacation N: the clock changes as POST .../pause, .../resume, .../vacation change it
 * (clock/clock_tx.h), in this transaction. */
static cd_tx_result clock_command(cd_db *db, cd_game *g, int seat, const char *word, in_tx *t)
{
    double now = cd_wall_now();
    if (!g->clocked) {
        snprintf(t->detail, sizeof t->detail, "the game was created without a clock: \"%s\" changes nothing", word);
        return CD_TX_ROLLBACK;
    }
    if (g->st->left >> seat & 1) {
        snprintf(t->detail, sizeof t->detail, "this seat has left the game");
        return CD_TX_ROLLBACK;
    }
    unsigned absent = 0;
    if (strcmp(word, "pause") == 0) {
        if (!cd_seats_without_person(db, g->id, g->st, &absent))
            return CD_TX_ERROR;
        cd_clock_pause_vote(&g->clock, seat, absent, now);
    } else if (strcmp(word, "resume") == 0) {
        cd_clock_resume(&g->clock, now);
    } else {
        char *end;
        const char *n = t->r->command + strlen("vacation");
        long days = strtol(n, &end, 10);
        while (*end == ' ' || *end == '\t')
            end++;
        if (end == n || *end || days < 1 || days > 365) {
            snprintf(t->detail, sizeof t->detail, "\"vacation N\" takes N days, 1 to 365");
            return CD_TX_ROLLBACK;
        }
        if (cd_clock_vacation(&g->clock, seat, (int)days, now, t->detail, sizeof t->detail) != 0)
            return CD_TX_ROLLBACK;
    }
    snprintf(t->outcome, sizeof t->outcome, "clock");
    return cd_clock_save(db, g->id, &g->clock) ? CD_TX_COMMIT : CD_TX_ERROR;
}

/* "say <words>": a message to the table (game/messages.h) instead of a move, the rest of the first unquoted
 * line (so at most CD_REPLY_LINE_MAX bytes); the game is not touched. Refused like a move: an empty or
 * invalid text, or the seat's rate limit, answered by a refused mail. */
static cd_tx_result say(cd_db *db, cd_game *g, int seat, in_tx *t)
{
    const char *text = t->r->command + 3;
    while (*text == ' ' || *text == '\t')
        text++;
    char why[160];
    if (!cd_msg_text_ok(text, strlen(text), why, sizeof why)) {
        snprintf(t->detail, sizeof t->detail, "say: %s", why);
        return CD_TX_ROLLBACK;
    }
    cd_msg_post_result res;
    cd_msg_inserted ins;
    cd_tx_result out = cd_msg_post_tx(db, g->id, seat, text, "mail", cd_wall_now(), &res, &ins);
    if (out == CD_TX_ROLLBACK)
        snprintf(t->detail, sizeof t->detail, "say: %s",
                 res == CD_MSG_RATE_LIMITED ? "too many messages in a minute: try again later" : "no such seat");
    if (out == CD_TX_COMMIT)
        snprintf(t->outcome, sizeof t->outcome, "said");
    return out;
}

/* Plays the command for seat in g (locked): CD_TX_COMMIT when it moved, CD_TX_ROLLBACK with t->detail when
 * refused, CD_TX_ERROR when a statement failed. */
static cd_tx_result play(cd_db *db, cd_game *g, int seat, in_tx *t)
{
    const cd_reply *r = t->r;
    char word[16];
    cd_reply_first_word(r->command, word, sizeof word);
    if (!r->command[0]) {
        snprintf(t->detail, sizeof t->detail, "the reply has no move on its first line");
        return CD_TX_ROLLBACK;
    }
    if (strcmp(word, "say") == 0)   /* before the game-over check: "gg" after the last move is fine */
        return say(db, g, seat, t);
    if (strcmp(word, "status") == 0) {   /* nothing changes: run_in answers with the game as it is */
        snprintf(t->outcome, sizeof t->outcome, "status");
        return CD_TX_COMMIT;
    }
    if (g->finished) {
        snprintf(t->detail, sizeof t->detail, "%s",
                 g->cancelled ? "the game was cancelled by the server's administrator" : "the game is over");
        return CD_TX_ROLLBACK;
    }
    if (strcmp(word, "resign") == 0) {
        if (strcasecmp(r->command, "resign") != 0) {   /* for good, so never read out of a longer line */
            snprintf(t->detail, sizeof t->detail,
                     "\"%.*s\": to resign, write \"resign\" alone on the first line (it cannot be undone)",
                     cd_reply_shown(r->command), r->command);
            return CD_TX_ROLLBACK;
        }
        char err[200];
        cd_tx_result out = cd_forced_moves_commit(db, g, seat, CD_FORCED_LEAVE, "seat", cd_wall_now(), NULL, err,
                                                  sizeof err);
        if (out == CD_TX_ROLLBACK)
            snprintf(t->detail, sizeof t->detail, "%s", err);
        return out;
    }
    if (strcmp(word, "pause") == 0 || strcmp(word, "resume") == 0 || strcmp(word, "vacation") == 0)
        return clock_command(db, g, seat, word, t);
    if (g->st->pending.seat != seat) {
        snprintf(t->detail, sizeof t->detail, "the game does not wait for you now (it waits for seat %d)",
                 g->st->pending.seat);
        return CD_TX_ROLLBACK;
    }
    carc_move m;
    char err[280];
    int rc;
    if (is_number(r->command)) {
        /* a number names a move of the list in the turn mail it answers: only at that mail's seq */
        if (r->in_reply_seq >= 0 && r->in_reply_seq != g->seq) {
            snprintf(t->detail, sizeof t->detail,
                     "your reply answers the mail of move %d, but the game is at move %d: choose again", r->in_reply_seq,
                     g->seq);
            return CD_TX_ROLLBACK;
        }
        json_t *legal = cd_legal_notations(g->st, seat);
        long k = strtol(r->command, NULL, 10);
        const char *nt = k >= 1 && (size_t)k <= json_array_size(legal) ? json_string_value(json_array_get(legal, (size_t)k - 1))
                                                                      : NULL;
        if (!nt) {
            snprintf(t->detail, sizeof t->detail, "there is no move %.*s: choose 1 to %zu",
                     (int)strcspn(r->command, "."), r->command,
                     json_array_size(legal));
            json_decref(legal);
            return CD_TX_ROLLBACK;
        }
        rc = carc_notation_parse(g->st, nt, strlen(nt), &m, err, sizeof err);
        json_decref(legal);
    } else if (is_list_line(r->command)) {
        snprintf(t->detail, sizeof t->detail,
                 "\"%.*s\": reply with the move's number alone (\"%.*s\") or its notation alone, not both",
                 cd_reply_shown(r->command), r->command, (int)strcspn(r->command, "."), r->command);
        return CD_TX_ROLLBACK;
    } else {
        rc = carc_notation_parse(g->st, r->command, strlen(r->command), &m, err, sizeof err);
    }
    json_t *stored = NULL;
    carc_events ev = {0};
    if (rc == CARC_OK && !(stored = carc_move_to_json_described(g->st, &m)))
        rc = CARC_E_INVALID;
    if (rc == CARC_OK)
        rc = carc_apply(g->st, seat, &m, &ev, err, sizeof err);
    if (rc != CARC_OK) {
        snprintf(t->detail, sizeof t->detail, "\"%.*s\": %s", cd_reply_shown(r->command), r->command, err);
        json_decref(stored);
        carc_events_free(&ev);
        return CD_TX_ROLLBACK;
    }
    /* the one path into the log (game/move_commit.h): the clock passes the turn on, the next mail is written */
    const cd_move_commit_args a = {.seat = seat, .move = stored, .ev = &ev, .origin = "seat", .now = cd_wall_now()};
    json_t *answer = NULL;
    cd_tx_result out = cd_move_commit(db, g, &a, &answer);
    json_decref(answer);
    json_decref(stored);
    carc_events_free(&ev);
    return out;
}

static cd_tx_result record(cd_db *db, in_tx *t, const char *game_id, int seat)
{
    bool fresh = false;
    cd_mq q = cd_mail_in_record(db, t->key, game_id, seat, t->outcome, t->detail, &fresh);
    if (q != CD_MQ_OK)
        return CD_TX_ERROR;
    if (!fresh) {   /* handled before (or by another process just now): nothing of this attempt stays */
        snprintf(t->outcome, sizeof t->outcome, "duplicate");
        return CD_TX_ROLLBACK;
    }
    return CD_TX_COMMIT;
}

/* A delivery status report that came back to a mail's return path (tag.h): a failed delivery fails the mail,
 * and stops its seat's mail at that address as an SMTP server's 5xx does (mail/send.c); any other report
 * (delayed, delivered) changes nothing. */
static cd_tx_result bounce(cd_db *db, in_tx *t)
{
    const cd_reply *r = t->r;
    long long id = r->bounce_id;
    if (strcmp(r->dsn_action, "failed") != 0) {
        snprintf(t->detail, sizeof t->detail, "a delivery report about mail %lld: %s", id,
                 r->dsn_action[0] ? r->dsn_action : "no delivery status in it");
        return record(db, t, NULL, -1);
    }
    char error[400];
    snprintf(error, sizeof error, "bounced: %s%s%s", r->dsn_status[0] ? r->dsn_status : "failed",
             r->dsn_diagnostic[0] ? "; " : "", r->dsn_diagnostic);
    cd_mail_bounced b;
    if (cd_mail_outbox_bounced(db, id, error, &b) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!b.found) {
        snprintf(t->detail, sizeof t->detail, "a bounce of mail %lld, which is gone", id);
        return record(db, t, NULL, -1);
    }
    if (b.seat >= 0) {
        char reason[500];
        snprintf(reason, sizeof reason, "the address bounced: %s", error + strlen("bounced: "));
        if (cd_mail_seat_stop(db, b.game_id, b.seat, b.rcpt, reason) != CD_MQ_OK)
            return CD_TX_ERROR;
    }
    snprintf(t->outcome, sizeof t->outcome, "bounced");
    snprintf(t->detail, sizeof t->detail, "mail %lld to %.120s: %.240s", id, b.rcpt, error);
    return record(db, t, b.game_id, b.seat);
}

/* A reply with a seat's tag from another address than the seat's: nothing is played (the tag alone is in every
 * mail the seat got, and mails get forwarded), but the seat's own address hears why, so that a player who
 * answered from a second address is not left waiting for a move that never happened. Sent to the seat's
 * address, never to the sender's: a forged From gets nothing, and an answer there would be backscatter. g: the
 * game under its lock, NULL while it waits for its seats. */
static cd_tx_result wrong_sender(cd_db *db, in_tx *t, const char *game_id, const cd_mail_seat *seat, const cd_game *g)
{
    const char *from = t->r->from;
    char reason[400];
    snprintf(reason, sizeof reason,
             "it came from %.*s; this seat's replies are read only from the address this mail came to, so reply from "
             "here (if someone else sent it, nothing was played for you)",
             (int)cd_utf8_cut(from, strlen(from), 200), from);
    snprintf(t->outcome, sizeof t->outcome, "refused");
    const char *quiet;
    if (cd_mail_answer_blocked(db, game_id, seat, &quiet) != CD_MQ_OK)
        return CD_TX_ERROR;
    size_t len = strlen(t->detail);
    snprintf(t->detail + len, sizeof t->detail - len, " (%s%s)", quiet ? "not answered: " : "answered to it",
             quiet ? quiet : "");
    cd_tx_result out = CD_TX_COMMIT;
    if (!quiet && g)
        out = cd_mail_enqueue_refused(db, game_id, g->st, g->cancelled, g->seq, seat, reason, NULL);
    else if (!quiet)
        out = cd_mail_enqueue_waiting_answer(db, game_id, seat, reason);
    return out == CD_TX_COMMIT ? record(db, t, game_id, seat->seat) : out;
}

static cd_tx_result run_in(cd_db *db, void *arg)
{
    in_tx *t = arg;
    const cd_reply *r = t->r;
    t->detail[0] = 0;
    snprintf(t->outcome, sizeof t->outcome, "ignored");
    if (r->has_bounce_tag)
        return bounce(db, t);
    if (!r->has_tag) {
        snprintf(t->detail, sizeof t->detail, "no reply address of ours among its recipients");
        return record(db, t, NULL, -1);
    }
    if (r->automatic[0]) {   /* a program's (reply.h): nothing played, nothing answered */
        snprintf(t->detail, sizeof t->detail, "an automatic mail (%s): not read as a reply", r->automatic);
        return record(db, t, NULL, -1);
    }
    char game_id[37];
    cd_mail_seat seat;
    bool found = false;
    if (cd_mail_seat_by_tag(db, r->tag, &found, game_id, &seat) != CD_MQ_OK)
        return CD_TX_ERROR;
    if (!found) {   /* not a seat's: an open place's invitation (join_by_mail.h)? */
        bool is_place = false;
        int place = -1;
        if (cd_invite_by_tag(db, r->tag, &is_place, game_id, &place) != CD_Q_OK)
            return CD_TX_ERROR;
        if (is_place && cd_mail_place_tag_ok(game_id, place, r->tag)) {
            cd_tx_result out = cd_mail_join(db, r, game_id, place, t->outcome, sizeof t->outcome, t->detail,
                                            sizeof t->detail);
            return out == CD_TX_COMMIT ? record(db, t, game_id, -1) : out;
        }
    }
    if (!found) {   /* a tag is its stored value (mail/tag.h): a seat renumbered by a leave keeps its own */
        snprintf(t->detail, sizeof t->detail, "the tag of %s belongs to no seat", r->to);
        return record(db, t, NULL, -1);
    }
    bool other_sender = strcasecmp(r->from, seat.email) != 0;
    if (other_sender)
        snprintf(t->detail, sizeof t->detail, "sent by %.200s, which is not the seat's address", r->from);
    cd_game g;
    cd_load_result lr = cd_game_lock(db, game_id, &g);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        if (lr != CD_LOAD_NOT_FOUND && lr != CD_LOAD_WAITING)
            return CD_TX_ERROR;
        if (lr == CD_LOAD_NOT_FOUND) {
            snprintf(t->detail, sizeof t->detail, "the game is gone");
            return record(db, t, NULL, -1);
        }
        if (other_sender)
            return wrong_sender(db, t, game_id, &seat, NULL);
        /* a seat of a game that waits for its seats: "leave", or an answer (waiting_reply.h) */
        cd_tx_result out = cd_mail_in_waiting(db, r, game_id, &seat, t->outcome, sizeof t->outcome, t->detail,
                                              sizeof t->detail);
        return out == CD_TX_COMMIT ? record(db, t, game_id, seat.seat) : out;
    }
    if (other_sender) {
        cd_tx_result out = wrong_sender(db, t, game_id, &seat, &g);
        cd_game_free(&g);
        return out;
    }
    int seq_before = g.seq;
    cd_tx_result out = play(db, &g, seat.seat, t);
    if (out == CD_TX_COMMIT && strcmp(t->outcome, "clock") == 0) {
        snprintf(t->detail, sizeof t->detail, "\"%.*s\": the clock changed", cd_reply_shown(r->command), r->command);
    } else if (out == CD_TX_COMMIT && strcmp(t->outcome, "said") == 0) {
        snprintf(t->detail, sizeof t->detail, "a message to the table at move %d", seq_before);
    } else if (out == CD_TX_COMMIT && strcmp(t->outcome, "status") == 0) {
        char deadline[32] = "";
        if (g.clocked && !g.finished && cd_clock_deadline(&g.clock) >= 0)
            cd_iso_time(cd_clock_deadline(&g.clock), deadline);
        const char *why;
        if (cd_mail_answer_blocked(db, game_id, &seat, &why) != CD_MQ_OK ||
            (!why && cd_mail_enqueue_status(db, game_id, g.st, g.cancelled, g.seq, &seat, deadline, r->message_id) !=
                        CD_TX_COMMIT))
            out = CD_TX_ERROR;
        snprintf(t->detail, sizeof t->detail, "the game at move %d%s%s", seq_before,
                 why ? ": not answered, " : ", answered", why ? why : "");
    } else if (out == CD_TX_COMMIT) {
        snprintf(t->outcome, sizeof t->outcome, "moved");
        snprintf(t->detail, sizeof t->detail, "\"%.*s\" at move %d", cd_reply_shown(r->command), r->command,
                 seq_before);
    } else if (out == CD_TX_ROLLBACK) {
        /* refused: the game as it was (play() may have changed g.st only when it also failed) and an answer */
        snprintf(t->outcome, sizeof t->outcome, "refused");
        cd_game_free(&g);
        if (cd_game_lock(db, game_id, &g) != CD_LOAD_OK) {
            cd_game_free(&g);
            return CD_TX_ERROR;
        }
        const char *why;
        if (cd_mail_answer_blocked(db, game_id, &seat, &why) != CD_MQ_OK ||
            (!why &&
             cd_mail_enqueue_refused(db, game_id, g.st, g.cancelled, g.seq, &seat, t->detail, r->message_id) !=
                 CD_TX_COMMIT)) {
            cd_game_free(&g);
            return CD_TX_ERROR;
        }
        if (why) {
            size_t len = strlen(t->detail);
            snprintf(t->detail + len, sizeof t->detail - len, " (not answered: %s)", why);
        }
        out = CD_TX_COMMIT;
    }
    cd_game_free(&g);
    if (out != CD_TX_COMMIT)
        return out;
    return record(db, t, game_id, seat.seat);
}

int cd_mail_in_handle(const cd_config *cfg, const char *data, size_t len, char *what, size_t n)
{
    cd_reply r;
    if (cd_reply_parse(data, len, &r) != 0) {
        snprintf(what, n, "not a mail that can be read: ignored");
        return 0;
    }
    char key[300];
    if (r.message_id[0]) {
        snprintf(key, sizeof key, "%s", r.message_id);
    } else {   /* no Message-ID: the bytes are the key */
        char *copy = malloc(len + 1);
        if (!copy)
            abort();
        memcpy(copy, data, len);
        copy[len] = 0;
        char hex[CD_HEX256_LEN];
        cd_sha256_hex(copy, hex);
        free(copy);
        snprintf(key, sizeof key, "sha256:%s", hex);
    }
    char err[256];
    cd_db *db = cd_db_thread(cfg, err, sizeof err);
    if (!db) {
        snprintf(what, n, "the database cannot be reached: %s", err);
        return CD_MAIL_IN_TEMPFAIL;
    }
    in_tx t = {.r = &r, .key = key};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_in, &t, &down);
    if (tr == CD_TX_COMMIT) {
        if (strcmp(t.outcome, "moved") == 0)
            cd_metrics_move_applied();
        snprintf(what, n, "mail <%s> from %s: %s%s%s", key, r.from, t.outcome, t.detail[0] ? ": " : "", t.detail);
        return 0;
    }
    if (tr == CD_TX_ROLLBACK && strcmp(t.outcome, "duplicate") == 0) {
        snprintf(what, n, "mail <%s> was handled before: nothing done", key);
        return 0;
    }
    snprintf(what, n, "mail <%s>: %s", key, down ? "the database cannot be reached" : "the transaction failed");
    return CD_MAIL_IN_TEMPFAIL;
}

int cd_mail_in_main(const cd_config *cfg)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            if (cap >= MAIL_IN_MAX) {
                cd_log("warn", "mail-in: the mail is larger than %u bytes: ignored", MAIL_IN_MAX);
                free(buf);
                return 0;
            }
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
    }
    char what[800];
    int rc = cd_mail_in_handle(cfg, buf, len, what, sizeof what);
    cd_log(rc == 0 ? "info" : "warn", "mail-in: %s", what);
    free(buf);
    cd_db_thread_close();
    return rc;
}
