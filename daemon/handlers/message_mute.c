/*
 * message_mute.c — PUT and DELETE /v1/games/{id}/mutes/{seat}: the bearer's seat mutes (unmutes) another
 * seat of the game for itself. A muted seat's messages are left out of the muting seat's reads, events
 * streams, turn mails and message.posted webhooks; nobody else is affected and the muted seat is not told.
 * 204; muting twice or unmuting a seat not muted is no error. The seat a seat may not mute is itself (400).
 */
#include <stdio.h>

#include "handlers.h"
#include "db/games_table.h"
#include "db/messages.h"

typedef struct {
    const char *game_id, *bearer_hash, *other;   /* other: the muted seat as the path says it */
    int seat;
    bool on;
    bool moved;       /* out: the seat is no longer the bearer's (request.h's cd_seat_tx) */
    cd_refusal no;    /* out */
} mute_tx;

/* The bearer's seat held (an earlier seat leaving the waiting game would move it), the other seat checked
 * against the seats as they are now, then the mute written. */
static cd_tx_result run_mute(cd_db *db, void *arg)
{
    mute_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_tx_result held = cd_seat_tx_hold(db, t->game_id, t->seat, t->bearer_hash, &t->moved);
    if (held != CD_TX_COMMIT)
        return held;
    int nseats = 0;
    if (cd_seats_count(db, t->game_id, &nseats) != CD_Q_OK)
        return CD_TX_ERROR;
    long other;
    if (!cd_parse_long(t->other, 0, nseats - 1, &other)) {   /* digits only: not "+0" */
        char why[80];
        snprintf(why, sizeof why, "seat: expected a seat of the game, 0 to %d", nseats - 1);
        return cd_refuse(&t->no, CD_P_INVALID, "seat", why);
    }
    if (other == t->seat)
        return cd_refuse(&t->no, CD_P_INVALID, "seat", "seat: a seat cannot mute itself");
    cd_q q = t->on ? cd_mute_put(db, t->game_id, t->seat, (int)other)
                   : cd_mute_delete(db, t->game_id, t->seat, (int)other);
    return q == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
}

static enum MHD_Result mute(cd_req *r, bool on)
{
    char bearer_hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, bearer_hash);
    mute_tx t = {.game_id = r->params[0], .bearer_hash = bearer_hash, .other = r->params[1], .on = on};
    cd_db *db;
    cd_tx_result tr;
    bool down = false;
    if (!cd_seat_tx(r, &db, &t.seat, &t.moved, run_mute, &t, &tr, &down))
        return MHD_YES;
    if (tr == CD_TX_COMMIT)
        return cd_reply_empty(r, 204, NULL);
    return cd_reply_refusal_or_failure(r, &t.no, down, "the mute could not be stored");
}

enum MHD_Result h_mute_put(cd_req *r)
{
    return mute(r, true);
}

enum MHD_Result h_mute_delete(cd_req *r)
{
    return mute(r, false);
}
