/*
 * email.c — PUT and GET /v1/games/{id}/email with a seat token: the seat's mail address. PUT {"email":
 * "ann@example.org"} sets it (the invitation and, when the game waits for the seat, its turn mail go out;
 * mail stopped by a refusal runs again), {"email": null} stops the seat's mail. Both answer the seat's mail
 * state: {"email", "stopped_at", "stopped_reason"} (stopped_*: set when the mail server refused the address
 * for good, or the seat unsubscribed). Only the seat itself sees its address; the admin sees all in its view.
 * While the game waits for its seats the address is kept for its start, and hears who joins meanwhile
 * (mail/waiting.h); null then stops it ("stopped by the seat") so that the start mails it nothing.
 */
#include <stdio.h>
#include <string.h>

#include "clock/clock_tx.h"
#include "db/lobby.h"
#include "db/mail_seats.h"
#include "handlers.h"
#include "request.h"
#include "mail/mail.h"
#include "mail/seat_mail.h"
#include "mail/waiting.h"

typedef struct {
    const char *id;
    int seat;
    const char *email;     /* NULL: stop */
    const char *token;
    const char *bearer_hash;   /* the token or player key hashed, whose seat `seat` must still be */
    bool moved;            /* out: it is not (an earlier seat left the waiting game: request.h's CD_SEAT_TRIES) */
    bool finished;         /* out */
    bool not_found;
    bool not_started;      /* out: cancelled before its start */
    bool found;            /* out: the seat's mail row after the write, read under the seat's hold */
    cd_mail_seat row;
} email_tx;

/* A game that has not started: the address kept while it waits; a game cancelled before its start refused. */
static cd_tx_result put_waiting(cd_db *db, email_tx *t)
{
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    t->not_started = !w.found || strcmp(w.status, "waiting") != 0;
    cd_tx_result out =
        t->not_started ? CD_TX_ROLLBACK : cd_mail_seat_waiting_set(db, t->id, w.settings, t->seat, t->email);
    cd_waiting_lock_row_free(&w);
    return out;
}

static cd_tx_result run_put(cd_db *db, void *arg)
{
    email_tx *t = arg;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out;
    t->not_found = lr == CD_LOAD_NOT_FOUND;
    t->moved = false;
    cd_tx_result held = lr == CD_LOAD_WAITING || lr == CD_LOAD_OK
                            ? cd_seat_tx_hold(db, t->id, t->seat, t->bearer_hash, &t->moved)
                            : CD_TX_COMMIT;
    if (held != CD_TX_COMMIT)
        out = held;
    else if (lr == CD_LOAD_WAITING)   /* kept for the start, told who joins meanwhile (mail/waiting.h) */
        out = put_waiting(db, t);
    else if (lr != CD_LOAD_OK)
        out = t->not_found ? CD_TX_ROLLBACK : CD_TX_ERROR;
    else
        out = cd_mail_seat_set(db, t->id, g.st, g.seq, NULL, t->seat, t->email, t->token, g.deadline);
    cd_game_free(&g);
    if (out == CD_TX_COMMIT && cd_mail_seat_get(db, t->id, t->seat, &t->found, &t->row) != CD_MQ_OK)
        out = CD_TX_ERROR;   /* the answer, read while the seat is still held as the bearer's */
    return out;
}

/* The answer's members for a mail row (found: there is one). */
static json_t *mail_json(bool found, const cd_mail_seat *m, bool *stopped)
{
    *stopped = found && m->stopped;
    return json_pack("{s:o, s:o, s:o}", "email", found ? json_string(m->email) : json_null(), "stopped_at",
                     *stopped ? json_string(m->stopped_at) : json_null(), "stopped_reason",
                     *stopped ? json_string(m->stopped_reason) : json_null());
}

typedef struct {
    const char *id;
    int seat;
    const char *bearer_hash;
    bool moved;            /* out: the number is no longer the bearer's seat (a leave moved it) */
    bool found;            /* out */
    cd_mail_seat row;
} mail_read_tx;

/* The row read while the seat is held as the bearer's: a leave that commits between the seat's lookup and the
 * read would otherwise show the address of whoever moved into that number. */
static cd_tx_result run_read(cd_db *db, void *arg)
{
    mail_read_tx *t = arg;
    cd_tx_result held = cd_seat_tx_hold(db, t->id, t->seat, t->bearer_hash, &t->moved);
    if (held != CD_TX_COMMIT)
        return held;
    return cd_mail_seat_get(db, t->id, t->seat, &t->found, &t->row) == CD_MQ_OK ? CD_TX_COMMIT : CD_TX_ERROR;
}

int cd_seat_mail_view(cd_req *r, cd_db *db, const char *game_id, int seat, json_t **mail, bool *stopped)
{
    char hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, hash);
    mail_read_tx t = {.id = game_id, .seat = seat, .bearer_hash = hash};
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_read, &t, &down);
    if (tr == CD_TX_ROLLBACK && t.moved)
        return -1;
    if (tr != CD_TX_COMMIT) {
        cd_reply_db_failure(r, down, "the seat's mail could not be read");
        return 0;
    }
    *mail = mail_json(t.found, &t.row, stopped);
    return 1;
}

enum MHD_Result h_email_put(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    static const char *const keys[] = {"email", NULL};
    enum MHD_Result ret = MHD_YES;
    if (!cd_req_only_keys(r, body, keys, ""))
        goto out;
    json_t *e = json_object_get(body, "email");
    if (!e || !(json_is_null(e) || (json_is_string(e) && cd_mail_address_ok(json_string_value(e))))) {
        ret = cd_reply_problem(r, CD_P_INVALID, "email",
                               "email: expected a mail address like ann@example.org, or null");
        goto out;
    }
    if (json_is_string(e) && !cd_mail_settings_get()->enabled) {   /* rather than a seat waiting for mail */
        ret = cd_reply_problem(r, CD_P_INVALID, "email",
                               "email: this server sends no mail (it has no mail server, CARCD_SMTP_URL)");
        goto out;
    }
    char bearer_hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, bearer_hash);
    /* the token goes into the mails' private links; a player key never does */
    email_tx t = {.id = r->params[0], .email = json_string_value(e), .token = cd_bearer_is_key(r) ? NULL : r->bearer,
                  .bearer_hash = bearer_hash};
    cd_db *db;
    bool down = false;
    cd_tx_result tr;
    if (!cd_seat_tx(r, &db, &t.seat, &t.moved, run_put, &t, &tr, &down))
        goto out;
    bool stopped;
    if (tr == CD_TX_COMMIT)
        ret = cd_reply_json(r, 200, mail_json(t.found, &t.row, &stopped), NULL);
    else if (t.not_found || t.not_started)
        ret = cd_reply_load_error(r, t.not_started ? CD_LOAD_WAITING : CD_LOAD_NOT_FOUND);
    else
        ret = cd_reply_db_failure(r, down, "the seat's mail address could not be stored");
out:
    json_decref(body);
    return ret;
}

enum MHD_Result h_email_get(cd_req *r)
{
    char hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, hash);
    mail_read_tx t = {.id = r->params[0], .bearer_hash = hash};
    cd_db *db;
    cd_tx_result tr;
    bool down = false, stopped;
    if (!cd_seat_tx(r, &db, &t.seat, &t.moved, run_read, &t, &tr, &down))
        return MHD_YES;
    if (tr != CD_TX_COMMIT)
        return cd_reply_db_failure(r, down, "the seat's mail could not be read");
    return cd_reply_json(r, 200, mail_json(t.found, &t.row, &stopped), NULL);
}
