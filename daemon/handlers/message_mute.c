/*
 * message_mute.c — PUT and DELETE /v1/games/{id}/mutes/{seat}: the bearer's seat mutes (unmutes) another
 * seat of the game for itself. A muted seat's messages are left out of the muting seat's reads, events
 * streams, turn mails and message.posted webhooks; nobody else is affected and the muted seat is not told.
 * 204; muting twice or unmuting a seat not muted is no error. The seat a seat may not mute is itself (400).
 */
#include <stdlib.h>

#include "handlers.h"
#include "db/games_table.h"
#include "db/messages.h"

typedef struct {
    const char *game_id, *bearer_hash;
    int seat, other;
    bool on;
    bool moved;   /* out: the seat is no longer the bearer's (request.h's CD_SEAT_TRIES) */
} mute_tx;

/* The bearer's seat held (an earlier seat leaving the waiting game would move it), then the mute written. */
static cd_tx_result run_mute(cd_db *db, void *arg)
{
    mute_tx *t = arg;
    bool held = false;
    if (cd_seat_hold(db, t->game_id, t->seat, t->bearer_hash, &held) != CD_Q_OK)
        return CD_TX_ERROR;
    t->moved = !held;
    if (t->moved)
        return CD_TX_ROLLBACK;
    cd_q q = t->on ? cd_mute_put(db, t->game_id, t->seat, t->other) : cd_mute_delete(db, t->game_id, t->seat, t->other);
    return q == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
}

static enum MHD_Result mute(cd_req *r, bool on)
{
    char bearer_hash[CD_HEX256_LEN];
    cd_req_bearer_hash(r, bearer_hash);
    mute_tx t = {.bearer_hash = bearer_hash, .on = on, .moved = true};
    for (int tries = 0; tries < CD_SEAT_TRIES && t.moved; tries++) {
        cd_db *db;
        int seat = cd_req_seat(r, &db);
        if (seat < 0)
            return MHD_YES;
        const char *s = r->params[1];
        char *end;
        long other = strtol(s, &end, 10);
        int nseats = 0;
        cd_q q = cd_seats_count(db, r->game_id, &nseats);
        if (q != CD_Q_OK)
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game's seats could not be read");
        if (!*s || *end || other < 0 || other >= nseats)
            return cd_reply_problem(r, CD_P_INVALID, "seat", "seat: expected a seat of the game, 0 to %d",
                                    nseats - 1);
        if (other == seat)
            return cd_reply_problem(r, CD_P_INVALID, "seat", "seat: a seat cannot mute itself");
        t.game_id = r->game_id;
        t.seat = seat;
        t.other = (int)other;
        bool down = false;
        cd_tx_result tr = cd_db_tx(db, run_mute, &t, &down);
        if (tr == CD_TX_ERROR)
            return cd_reply_db_failure(r, down, "the mute could not be stored");
    }
    if (t.moved)
        return cd_reply_problem(r, CD_P_SEAT_MOVED, NULL, "the seat's number kept changing: send it again");
    return cd_reply_empty(r, 204, NULL);
}

enum MHD_Result h_mute_put(cd_req *r)
{
    return mute(r, true);
}

enum MHD_Result h_mute_delete(cd_req *r)
{
    return mute(r, false);
}
