/*
 * waiting.c — a waiting game's mail (waiting.h): plain text, no picture (there is no board yet).
 */
#include "waiting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "build.h"
#include "compose.h"
#include "db/lobby.h"
#include "db/mail_outbox.h"
#include "db/mail_recent.h"
#include "db/mail_seats.h"
#include "mail.h"
#include "outbox.h"
#include "seat_mail.h"
#include "tag.h"

cd_tx_result cd_mail_waiting_started(cd_db *db, const char *game_id, const carc_state *st, const json_t *names,
                                     const char *const addr[], int token_seat, const char *token,
                                     const char *deadline)
{
    for (int seat = 0; seat < st->nplayers; seat++) {
        bool found = false;
        cd_mail_seat held;
        if (cd_mail_seat_get(db, game_id, seat, &found, &held) != CD_MQ_OK)
            return CD_TX_ERROR;
        if (found && held.stopped_at[0])   /* unsubscribed (or refused for good) while the game waited */
            continue;
        const char *email = found ? held.email : addr[seat];
        if (email && cd_mail_seat_set(db, game_id, st, 0, names, seat, email, seat == token_seat ? token : NULL,
                                      deadline) != CD_TX_COMMIT)
            return CD_TX_ERROR;
    }
    return CD_TX_COMMIT;
}

void cd_mail_waiting_addresses(const json_t *settings, const cd_invite *inv, int ninv, int n, const char *addr[])
{
    for (int seat = 0; seat < n; seat++)
        addr[seat] = NULL;
    size_t k;
    json_t *e;
    json_array_foreach(json_object_get(settings, "emails"), k, e) {   /* the named seats' addresses */
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        if (seat >= 0 && seat < n)
            addr[seat] = json_string_value(json_object_get(e, "email"));
    }
    for (int i = 0; i < ninv; i++)   /* a place taken by the invitation carcd mailed */
        if (inv[i].seat >= 0 && inv[i].seat < n && inv[i].email[0])
            addr[inv[i].seat] = inv[i].email;
}

/* A seat with no row in a game that began to wait before the rows were written: the address its creation or
 * its join gave, which the start would mail (cd_mail_waiting_started's addr[]); "" when none. */
static bool address_before_rows(cd_db *db, const char *game_id, const char *settings_text, int seat,
                                char out[CD_EMAIL_MAX + 1])
{
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int ninv = 0;
    out[0] = '\0';
    if (cd_invites_get(db, game_id, inv, &ninv) != CD_Q_OK)
        return false;
    json_t *settings = json_loads(settings_text, 0, NULL);
    const char *addr[CD_LOBBY_MAX_SEATS];
    if (seat >= 0 && seat < CD_LOBBY_MAX_SEATS) {
        cd_mail_waiting_addresses(settings, inv, ninv, seat + 1, addr);
        if (addr[seat])
            snprintf(out, CD_EMAIL_MAX + 1, "%s", addr[seat]);
    }
    json_decref(settings);
    return true;
}

cd_tx_result cd_mail_seat_waiting_set(cd_db *db, const char *game_id, const char *settings, int seat,
                                      const char *email)
{
    if (email)
        return cd_mail_seat_hold(db, game_id, seat, email);
    bool found = false;
    cd_mail_seat held;
    if (cd_mail_seat_get(db, game_id, seat, &found, &held) != CD_MQ_OK)
        return CD_TX_ERROR;
    if (found && held.stopped_at[0])
        return CD_TX_COMMIT;
    if (!found) {   /* no row: the start would still mail what the creation or the join said, so stop that */
        if (!address_before_rows(db, game_id, settings, seat, held.email))
            return CD_TX_ERROR;
        if (!held.email[0])
            return CD_TX_COMMIT;
        if (cd_mail_seat_hold(db, game_id, seat, held.email) != CD_TX_COMMIT)
            return CD_TX_ERROR;
    }
    return cd_mail_seat_stop(db, game_id, seat, held.email, "stopped by the seat") == CD_MQ_OK ? CD_TX_COMMIT
                                                                                               : CD_TX_ERROR;
}

/* One seat's mail of `kind` about the waiting game: subject, and the text after "Hello NAME,\n\n". */
static bool add(cd_db *db, const char *game_id, const cd_mail_seat *to, const json_t *names, const char *kind,
                const char *subject, const char *words)
{
    const cd_mail_settings *S = cd_mail_settings_get();
    const char *public_url = S->cfg ? S->cfg->public_url : "";
    char msg_id[300], thread[320], unsub[700] = "", reply_to[300];
    cd_mail_msg_id(game_id, to->seat, kind, 0, msg_id, sizeof msg_id);
    cd_mail_thread_id(game_id, to, thread, sizeof thread);
    /* a reply can say "leave" while the game waits (mailin/waiting_reply.h); a cancelled game takes none */
    bool waits = strcmp(kind, "cancelled") != 0;
    if (waits)
        cd_mail_reply_address(to->tag, reply_to, sizeof reply_to);
    if (public_url[0])
        cd_mail_unsub_url(public_url, game_id, to->tag, unsub, sizeof unsub);
    const char *me = json_string_value(json_array_get(names, (size_t)to->seat));
    cd_buf t = {0};
    cd_buf_printf(&t, "Hello %s,\n\n%s", me ? me : "", words);
    if (waits && strcmp(kind, "refused") != 0)   /* the refusal's words say it already */
        cd_buf_str(&t, "\nIf you joined this game and no longer want to play it, reply with the word leave: your seat "
                       "is given back before the start.\n");
    if (public_url[0])   /* the page anyone may open: the seat's own link is the creator's to hand out */
        cd_buf_printf(&t, "\nThe game's page:\n%s/games/%s\n", public_url, game_id);
    const cd_mail_parts parts = {
        .from = S->cfg ? S->cfg->mail_from : "carcd@localhost",
        .to = to->email,
        .reply_to = waits ? reply_to : NULL,
        .subject = subject,
        .msg_id = msg_id,
        .thread_id = thread,
        .unsubscribe = unsub,
        .text = t.p,
    };
    bool ok = cd_mail_outbox_add_parts(db, game_id, to->seat, kind, 0, &parts);
    free(t.p);
    return ok;
}

/* "Ann, Bob and Carl" into b. */
static void names_words(cd_buf *b, const json_t *names)
{
    size_t n = json_array_size(names);
    for (size_t i = 0; i < n; i++) {
        const char *nm = json_string_value(json_array_get(names, i));
        cd_buf_str(b, i == 0 ? "" : i + 1 == n ? " and " : ", ");
        cd_buf_str(b, nm ? nm : "?");
    }
}

/* The mail of `kind` to every seat whose mail runs but `skip_seat`'s; words and subject are the same for each.
 * Of who joined or left, an address that had CD_MAIL_LOBBY_NOTICES_PER_HOUR in the last hour gets none; the last
 * one it gets says so. */
static cd_tx_result to_seats(cd_db *db, const char *game_id, int skip_seat, const json_t *names, const char *kind,
                             const char *subject, const char *words)
{
    cd_mail_seat seats[CARC_MAX_PLAYERS];
    int n = 0;
    if (cd_mail_seats_active(db, game_id, seats, CARC_MAX_PLAYERS, &n) != CD_MQ_OK)
        return CD_TX_ERROR;
    bool ok = true, any = false;
    bool counted = strcmp(kind, "joined") == 0 || strcmp(kind, "left") == 0;   /* ST_MAIL_LOBBY_RECENT's kinds */
    for (int i = 0; i < n && ok; i++) {
        if (seats[i].seat == skip_seat)
            continue;
        int sent = 0;
        if (counted && cd_mail_lobby_recent(db, game_id, seats[i].email, &sent) != CD_Q_OK)
            return CD_TX_ERROR;
        if (sent >= CD_MAIL_LOBBY_NOTICES_PER_HOUR)
            continue;
        if (sent == CD_MAIL_LOBBY_NOTICES_PER_HOUR - 1) {
            cd_buf last = {0};
            cd_buf_printf(&last, "%s\nThis is the %dth mail in an hour about who joins and leaves this game: carcd "
                                 "sends you no more of them this hour. The game's page shows its seats, and carcd "
                                 "mails you when the game starts.\n", words, CD_MAIL_LOBBY_NOTICES_PER_HOUR);
            ok = add(db, game_id, &seats[i], names, kind, subject, last.p);
            free(last.p);
        } else {
            ok = add(db, game_id, &seats[i], names, kind, subject, words);
        }
        any = true;
    }
    if (ok && any)
        ok = cd_mail_outbox_notify(db);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

/* to_seats, then the names and the words freed: each mail below reads the names, writes its subject and words
 * from them, and ends here. */
static cd_tx_result to_seats_free(cd_db *db, const char *game_id, int skip_seat, json_t *names, const char *kind,
                                  const char *subject, cd_buf *words)
{
    cd_tx_result out = to_seats(db, game_id, skip_seat, names, kind, subject, words->p);
    free(words->p);
    json_decref(names);
    return out;
}

cd_tx_result cd_mail_enqueue_joined(cd_db *db, const char *game_id, int seat, int taken, int nseats)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);   /* the joiner's seat among them: same transaction */
    const char *who = json_string_value(json_array_get(names, (size_t)seat));
    int open = nseats - taken;
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: %s joined, %d seat%s open", game_id,
             who ? who : "a player", open, open == 1 ? "" : "s");
    cd_buf w = {0};
    cd_buf_printf(&w, "%s joined the Carcassonne game %s: %d of %d seats taken, %d open.\nAt the table so far: ",
                  who ? who : "A player", game_id, taken, nseats, open);
    names_words(&w, names);
    cd_buf_str(&w, ".\n\nThe game starts when its last seat is taken, or when the player who created it starts it "
                   "with the seats taken by then; carcd mails you then, and whenever it is your turn.\n");
    return to_seats_free(db, game_id, seat, names, "joined", subject, &w);
}

cd_tx_result cd_mail_enqueue_left(cd_db *db, const char *game_id, const char *name, int taken, int nseats,
                                  bool removed)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);   /* the seats that stay */
    int open = nseats - taken;
    const char *what = removed ? "was removed by its creator from" : "left";
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: %s %s, %d seat%s open", game_id, name,
             removed ? "was removed" : "left", open, open == 1 ? "" : "s");
    cd_buf w = {0};
    cd_buf_printf(&w, "%s %s the Carcassonne game %s before it started: %d of %d seats taken, %d open.\n"
                      "At the table now: ",
                  name, what, game_id, taken, nseats, open);
    names_words(&w, names);
    cd_buf_str(&w, ".\n\nThe seat is open again. The game starts when its last seat is taken, or when the player who "
                   "created it starts it with the seats taken by then; carcd mails you then, and whenever it is "
                   "your turn.\n");
    return to_seats_free(db, game_id, -1, names, "left", subject, &w);
}

cd_tx_result cd_mail_enqueue_gone(cd_db *db, const char *game_id, const cd_mail_seat *was, const char *name,
                                  bool removed)
{
    const cd_mail_settings *S = cd_mail_settings_get();
    if (!S->enabled)
        return CD_TX_COMMIT;
    const char *public_url = S->cfg ? S->cfg->public_url : "";
    const char *kind = removed ? "removed" : "gone";
    char msg_id[300], thread[320], subject[300];
    cd_mail_msg_id(game_id, was->seat, kind, 0, msg_id, sizeof msg_id);
    cd_mail_thread_id(game_id, was, thread, sizeof thread);
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: you %s before it started", game_id,
             removed ? "were removed" : "left");
    cd_buf t = {0};
    if (removed)
        cd_buf_printf(&t, "Hello %s,\n\nthe player who created the Carcassonne game %s removed you from it before it "
                          "started. Your seat is open for someone else, and its private link no longer works.\n\n"
                          "carcd will not mail you about this game again. If this was a mistake, ask the person who "
                          "invited you for a new invitation.\n",
                      name, game_id);
    else
        cd_buf_printf(&t, "Hello %s,\n\nyou left the Carcassonne game %s before it started, as your reply asked. Your "
                          "seat is open for someone else, and its private link no longer works.\n\ncarcd will not "
                          "mail you about this game again.\n",
                      name, game_id);
    if (public_url[0])
        cd_buf_printf(&t, "\nThe game's page:\n%s/games/%s\n", public_url, game_id);
    const cd_mail_parts parts = {
        .from = S->cfg ? S->cfg->mail_from : "carcd@localhost",
        .to = was->email,
        .subject = subject,
        .msg_id = msg_id,
        .thread_id = thread,
        .unsubscribe = "",
        .text = t.p,
    };
    bool ok = cd_mail_outbox_add_parts(db, game_id, -1, kind, 0, &parts) && cd_mail_outbox_notify(db);
    free(t.p);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_waiting_answer(cd_db *db, const char *game_id, const cd_mail_seat *to, const char *why)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: your reply was not played", game_id);
    cd_buf w = {0};
    cd_buf_printf(&w, "your reply was not played: %s.\n\nThe game has not started: it waits for its seats. Before "
                      "it starts, a reply can only say leave, to give back a seat you took by joining. carcd mails "
                      "you when it starts, and whenever it is your turn; then you play by replying.\n",
                  why);
    bool ok = add(db, game_id, to, names, "refused", subject, w.p) && cd_mail_outbox_notify(db);
    free(w.p);
    json_decref(names);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_enqueue_waiting_expiring(cd_db *db, const char *game_id, int taken, int nseats,
                                              const char *since, const char *when)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: cancelled on %s unless someone joins", game_id, when);
    cd_buf w = {0};
    cd_buf_printf(&w, "nobody has joined the Carcassonne game %s for %s. It has %d of its %d seats taken (", game_id,
                  since, taken, nseats);
    names_words(&w, names);
    cd_buf_printf(&w, "), and carcd cancels it on %s unless someone joins before: each join gives it as long "
                      "again.",
                  when);
    cd_buf_str(&w, " The player who created it can keep it open for as long again, on the game's page where they "
                   "created it");
    if (taken >= CARC_MIN_PLAYERS)
        cd_buf_str(&w, ", or start it now with the seats taken so far");
    cd_buf_str(&w, ".\n");
    return to_seats_free(db, game_id, -1, names, "expiring", subject, &w);
}

cd_tx_result cd_mail_enqueue_waiting_kept_open(cd_db *db, const char *game_id, int taken, int nseats,
                                               const char *when, bool by_admin)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: kept open until %s", game_id, when);
    cd_buf w = {0};
    cd_buf_printf(&w, "the Carcassonne game %s is kept open by %s: carcd does not cancel it on the date of its last "
                      "mail. It has %d of its %d seats taken (",
                  game_id, by_admin ? "the server's administrator" : "the player who created it", taken, nseats);
    names_words(&w, names);
    cd_buf_printf(&w, "), and it waits for the others until %s; each join gives it as long again.\n", when);
    return to_seats_free(db, game_id, -1, names, "kept_open", subject, &w);
}

cd_tx_result cd_mail_enqueue_waiting_cancelled(cd_db *db, const char *game_id, int taken, int nseats,
                                               cd_cancel_by by, const char *reason)
{
    if (!cd_mail_settings_get()->enabled)
        return CD_TX_COMMIT;
    json_t *names = cd_mail_seat_names(db, game_id);
    char subject[300];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: cancelled before it started", game_id);
    cd_buf w = {0};
    cd_buf_printf(&w, "the Carcassonne game %s was cancelled by %s before it started, with %d of its %d seats "
                      "taken (",
                  game_id,
                  by == CD_CANCEL_BY_ADMIN    ? "the server's administrator"
                  : by == CD_CANCEL_BY_EXPIRY ? "carcd"
                                              : "the player who created it",
                  taken, nseats);
    names_words(&w, names);
    cd_buf_str(&w, ")");
    if (reason)
        cd_buf_printf(&w, ": %s", reason);
    cd_buf_str(&w, ". It will not be played, and carcd sends no more mail about it.\n");
    return to_seats_free(db, game_id, -1, names, "cancelled", subject, &w);
}
