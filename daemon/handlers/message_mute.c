/*
 * message_mute.c — PUT and DELETE /v1/games/{id}/mutes/{seat}: the bearer's seat mutes (unmutes) another
 * seat of the game for itself. A muted seat's messages are left out of the muting seat's reads, events
 * streams, turn mails and message.posted webhooks; nobody else is affected and the muted seat is not told.
 * 204; muting twice or unmuting a seat not muted is no error. The seat a seat may not mute is itself (400).
 *
 * Seat numbers move under a client that read them: before the start, a seat given up moves the later ones down
 * by one. The body may say whom the client means by the name it showed ({"name": "Ann"}); a seat whose player is
 * no longer called that is left alone (409 seat-changed), where without it whoever moved into the number would be
 * muted. (A name is what every seat has: a place only a seat taken by a join.)
 */
#include <stdio.h>
#include <string.h>

#include "handlers.h"
#include "db/games_table.h"
#include "db/messages.h"

typedef struct {
    const char *game_id, *bearer_hash, *other;   /* other: the muted seat as the path says it */
    const char *name;                             /* the body's "name" of the other seat; NULL: none */
    int seat;
    bool on;
    bool moved;       /* out: the seat is no longer the bearer's (request.h's cd_seat_tx) */
    cd_refusal no;    /* out */
} mute_tx;

/* The bearer's seat held (an earlier seat leaving the waiting game would move it), the other seat checked
 * against the seats as they are now (and against the name the client showed), then the mute written. */
static cd_tx_result run_mute(cd_db *db, void *arg)
{
    mute_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_tx_result held = cd_seat_tx_hold(db, t->game_id, t->seat, t->bearer_hash, &t->moved);
    if (held != CD_TX_COMMIT)
        return held;
    cd_seat_names names;
    if (cd_seat_names_read(db, t->game_id, &names) != CD_Q_OK)
        return CD_TX_ERROR;
    long other;
    char why[CD_NAME_BYTES + 120];
    cd_tx_result refused = CD_TX_COMMIT;
    if (!cd_parse_long(t->other, 0, names.n - 1, &other)) {   /* digits only: not "+0" */
        snprintf(why, sizeof why, "seat: expected a seat of the game, 0 to %d", names.n - 1);
        refused = cd_refuse(&t->no, CD_P_INVALID, "seat", why);
    } else if (other == t->seat) {
        refused = cd_refuse(&t->no, CD_P_INVALID, "seat", "seat: a seat cannot mute itself");
    } else if (t->name && strcmp(t->name, names.name[other]) != 0) {
        snprintf(why, sizeof why, "name: seat %ld is now %s's, not the player the request named", other,
                 names.name[other]);
        refused = cd_refuse(&t->no, CD_P_SEAT_CHANGED, "name", why);
    }
    cd_seat_names_free(&names);
    if (refused != CD_TX_COMMIT)
        return refused;
    cd_q q = t->on ? cd_mute_put(db, t->game_id, t->seat, (int)other)
                   : cd_mute_delete(db, t->game_id, t->seat, (int)other);
    return q == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
}

/* The body's optional "name" (a JSON object with only it, or no body): *body keeps the string's owner. False
 * after a 400 naming it. */
static bool body_name(cd_req *r, json_t **body, const char **name)
{
    *name = NULL;
    *body = cd_req_json_body_optional(r);
    if (!*body)
        return false;
    static const char *const keys[] = {"name", NULL};
    if (!cd_req_only_keys(r, *body, keys, ""))
        return false;
    json_t *n = json_object_get(*body, "name");
    if (n && !json_is_null(n)) {
        if (!json_is_string(n)) {
            cd_reply_problem(r, CD_P_INVALID, "name", "name: expected the seat's name as a string");
            return false;
        }
        *name = json_string_value(n);
    }
    return true;
}

static enum MHD_Result mute(cd_req *r, bool on)
{
    json_t *body;
    mute_tx t = {.game_id = r->params[0], .other = r->params[1], .on = on};
    if (!body_name(r, &body, &t.name)) {
        json_decref(body);
        return MHD_YES;
    }
    char bearer_hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, bearer_hash);
    t.bearer_hash = bearer_hash;
    cd_db *db;
    cd_tx_result tr;
    bool down = false;
    enum MHD_Result ret;
    if (!cd_seat_tx(r, &db, &t.seat, &t.moved, run_mute, &t, &tr, &down))
        ret = MHD_YES;
    else if (tr == CD_TX_COMMIT)
        ret = cd_reply_empty(r, 204, NULL);
    else
        ret = cd_reply_refusal_or_failure(r, &t.no, down, "the mute could not be stored");
    json_decref(body);
    return ret;
}

enum MHD_Result h_mute_put(cd_req *r)
{
    return mute(r, true);
}

enum MHD_Result h_mute_delete(cd_req *r)
{
    return mute(r, false);
}
