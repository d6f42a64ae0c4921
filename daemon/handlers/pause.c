/*
 * pause.c — POST /v1/games/{id}/pause: this seat asks to stop the game's clock; it stops once every seat
 * still in the game has asked (one request each). Asking again, or when already paused, changes nothing.
 */
#include "clock_change.h"
#include "handlers.h"

static cd_problem vote(cd_clock *c, int seat, const carc_state *st, double now, void *arg, const char **field,
                       char *detail, size_t detlen)
{
    (void)arg, (void)field, (void)detail, (void)detlen;
    cd_clock_pause_vote(c, seat, st->left, now);
    return CD_NPROBLEMS;
}

enum MHD_Result h_game_pause(cd_req *r)
{
    return cd_clock_action(r, vote, NULL);
}
