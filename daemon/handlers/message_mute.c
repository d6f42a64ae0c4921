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

static enum MHD_Result mute(cd_req *r, bool on)
{
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
        return cd_reply_problem(r, CD_P_INVALID, "seat", "seat: expected a seat of the game, 0 to %d", nseats - 1);
    if (other == seat)
        return cd_reply_problem(r, CD_P_INVALID, "seat", "seat: a seat cannot mute itself");
    q = on ? cd_mute_put(db, r->game_id, seat, (int)other) : cd_mute_delete(db, r->game_id, seat, (int)other);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the mute could not be stored");
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
