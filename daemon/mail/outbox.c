/*
 * outbox.c — mails written in the event's transaction (outbox.h): composed at once (compose.h), so the row
 * holds the exact bytes sent, from the state of that moment and the seat's view of it.
 */
#include "outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "compose.h"
#include "db/mail_outbox.h"
#include "db/mail_recent.h"
#include "db/mail_seats.h"
#include "db/messages.h"
#include "mail.h"

#define RECENT_MAX 24

bool cd_mail_outbox_add_parts(cd_db *db, const char *game_id, int seat, const char *kind, int seq,
                              const cd_mail_parts *p)
{
    char *body = cd_mail_build(p);
    if (!body)
        return false;
    bool ok = cd_mail_outbox_add(db, game_id, seat, kind, seq, p->msg_id, p->to, body);
    free(body);
    return ok;
}

static bool add(cd_db *db, const cd_mail_about *a)
{
    char msg_id[300];
    char *body = cd_mail_compose(a, msg_id, sizeof msg_id);
    if (!body)
        return false;
    bool ok = cd_mail_outbox_add(db, a->game_id, a->to->seat, cd_mail_kind_name(a->kind), a->seq, msg_id,
                                 a->to->email, body);
    free(body);
    return ok;
}

/* "Ann (seat 0): E 0,-1 r2" for every move after the seat's own last one, as far back as RECENT_MAX. */
static char *since_last_turn(cd_db *db, const char *game_id, int seq, int seat, const json_t *names)
{
    cd_mail_recent_move mv[RECENT_MAX];
    int n = 0;
    if (cd_mail_recent_moves(db, game_id, seq - RECENT_MAX, mv, RECENT_MAX, &n) != CD_MQ_OK)
        return NULL;
    int from = 0;
    for (int i = 0; i < n; i++)
        if (mv[i].seat == seat)
            from = i + 1;
    cd_buf b = {0};
    for (int i = from; i < n; i++) {
        if (mv[i].seat < 0) {   /* the opening is nobody's move; the admin's cancel ends the list's game */
            if (strcmp(mv[i].origin, "admin") == 0)
                cd_buf_printf(&b, "  %d. the server's administrator cancelled the game\n", mv[i].seq);
            continue;
        }
        const char *nm = json_string_value(json_array_get(names, (size_t)mv[i].seat));
        cd_buf_printf(&b, "  %d. %s (seat %d): %s%s\n", mv[i].seq, nm ? nm : "?", mv[i].seat,
                      mv[i].notation[0] ? mv[i].notation : "(a move)",
                      strcmp(mv[i].origin, "clock") == 0 ? " (by the clock)"
                      : strcmp(mv[i].origin, "bot") == 0 ? " (by a bot)"
                                                          : "");
    }
    return b.p;
}

#define TALK_MAX 20   /* the messages a turn mail repeats, the newest */

/* "  Ann wrote: nice city!" for the others' messages since the seat's previous turn mail (db/messages.h),
 * a message's further lines indented below it. NULL when there are none; *failed on a database failure. */
static char *table_talk(cd_db *db, const char *game_id, int seat, bool *failed)
{
    cd_msg_rows rows;
    if (cd_msgs_for_mail(db, game_id, seat, TALK_MAX, &rows) != CD_Q_OK) {
        *failed = true;
        return NULL;
    }
    cd_buf b = {0};
    for (int i = 0; i < rows.n; i++) {
        cd_buf_str(&b, "  ");
        cd_buf_str(&b, rows.v[i].name);
        cd_buf_str(&b, " wrote: ");
        for (const char *p = rows.v[i].text; *p; p++) {
            if (*p == '\n')
                cd_buf_str(&b, "\n      ");
            else
                cd_buf_add(&b, p, 1);
        }
        cd_buf_str(&b, "\n");
    }
    cd_msg_rows_free(&rows);
    return b.p;
}

cd_tx_result cd_mail_enqueue_move(cd_db *db, const char *game_id, int seq, const carc_state *st, const char *deadline)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    if (cd_mail_seats_active(db, game_id, seats, CARC_MAX_PLAYERS, &n) != CD_MQ_OK)
        return CD_TX_ERROR;
    if (n == 0)
        return CD_TX_COMMIT;
    bool over = st->status == CARC_FINISHED;
    json_t *names = NULL;
    bool ok = true, any = false;
    for (int i = 0; i < n && ok; i++) {
        /* a seat its player left to a bot gets no turn mail (the bot plays), but hears how the game ended */
        if (!over && (seats[i].seat != st->pending.seat || seats[i].bot))
            continue;
        if (!names)
            names = cd_mail_seat_names(db, game_id);
        char *recent = over ? NULL : since_last_turn(db, game_id, seq, seats[i].seat, names);
        bool failed = false;
        char *talk = over ? NULL : table_talk(db, game_id, seats[i].seat, &failed);
        cd_mail_about a = {.kind = over ? CD_MAIL_FINISHED : CD_MAIL_TURN, .game_id = game_id, .to = &seats[i],
                           .st = st, .seq = seq, .names = names, .deadline = deadline, .last_move = recent,
                           .talk = talk};
        ok = !failed && add(db, &a);
        any = true;
        free(recent);
        free(talk);
    }
    json_decref(names);
    if (ok && any)
        ok = cd_mail_outbox_notify(db);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_cancel(cd_db *db, const char *game_id, int seq, const carc_state *st, const char *reason)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    if (cd_mail_seats_active(db, game_id, seats, CARC_MAX_PLAYERS, &n) != CD_MQ_OK)
        return CD_TX_ERROR;
    if (n == 0)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {   /* every seat with mail, a seat left to a bot too, as a game over */
        cd_mail_about a = {.kind = CD_MAIL_FINISHED, .game_id = game_id, .to = &seats[i], .st = st, .seq = seq,
                           .names = names, .cancelled = true, .reason = reason};
        ok = add(db, &a);
    }
    json_decref(names);
    return ok && cd_mail_outbox_notify(db) ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_reminder(cd_db *db, const char *game_id, int seq, const carc_state *st,
                                      const char *deadline)
{
    if (!cd_mail_settings_get()->enabled || st->status == CARC_FINISHED)
        return CD_TX_COMMIT;
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    if (cd_mail_seats_active(db, game_id, seats, CARC_MAX_PLAYERS, &n) != CD_MQ_OK)
        return CD_TX_ERROR;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        if (seats[i].seat != st->pending.seat || seats[i].bot)
            continue;
        json_t *names = cd_mail_seat_names(db, game_id);
        cd_mail_about a = {.kind = CD_MAIL_REMINDER, .game_id = game_id, .to = &seats[i], .st = st, .seq = seq,
                           .names = names, .deadline = deadline};
        ok = add(db, &a) && cd_mail_outbox_notify(db);
        json_decref(names);
    }
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_invitation(cd_db *db, const char *game_id, const carc_state *st, int seq,
                                        const json_t *names, const cd_mail_seat *to, const char *token,
                                        const char *deadline)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *loaded = names ? NULL : cd_mail_seat_names(db, game_id);
    cd_mail_about a = {.kind = CD_MAIL_INVITATION, .game_id = game_id, .to = to, .st = st, .seq = seq,
                       .names = names ? names : loaded, .deadline = deadline, .token = token};
    bool ok = add(db, &a);
    if (ok && st->status != CARC_FINISHED && st->pending.seat == to->seat) {
        a.kind = CD_MAIL_TURN;
        a.token = NULL;
        ok = add(db, &a);
    }
    json_decref(loaded);
    return ok && cd_mail_outbox_notify(db) ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_refused(cd_db *db, const char *game_id, const carc_state *st, bool cancelled, int seq,
                                     const cd_mail_seat *to, const char *reason, const char *in_reply_to)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    cd_mail_about a = {.kind = CD_MAIL_REFUSED, .game_id = game_id, .to = to, .st = st, .seq = seq,
                       .names = names, .refusal = reason, .cancelled = cancelled, .in_reply_to = in_reply_to};
    bool ok = add(db, &a) && cd_mail_outbox_notify(db);
    json_decref(names);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_status(cd_db *db, const char *game_id, const carc_state *st, bool cancelled, int seq,
                                    const cd_mail_seat *to, const char *deadline, const char *in_reply_to)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    char *recent = since_last_turn(db, game_id, seq, to->seat, names);
    cd_mail_about a = {.kind = CD_MAIL_STATUS, .game_id = game_id, .to = to, .st = st, .seq = seq, .names = names,
                       .deadline = deadline, .last_move = recent, .cancelled = cancelled,
                       .in_reply_to = in_reply_to};
    bool ok = add(db, &a) && cd_mail_outbox_notify(db);
    free(recent);
    json_decref(names);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_mq cd_mail_may_answer(cd_db *db, const char *game_id, int seat, const char *rcpt, bool *may)
{
    int n = 0;
    cd_q q = cd_mail_answers_recent(db, game_id, seat, rcpt, &n);
    *may = q == CD_Q_OK && n < CD_MAIL_ANSWERS_PER_HOUR;
    return cd_mq_of(q);
}

cd_mq cd_mail_answer_blocked(cd_db *db, const char *game_id, const cd_mail_seat *seat, const char **why)
{
    *why = NULL;
    if (seat->stopped) {
        *why = "the seat's mail is stopped";
        return CD_MQ_OK;
    }
    bool may = false;
    cd_mq q = cd_mail_may_answer(db, game_id, seat->seat, seat->email, &may);
    if (q == CD_MQ_OK && !may)
        *why = CD_MAIL_ANSWERS_LIMIT_WORDS;
    return q;
}
