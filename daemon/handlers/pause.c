/*
 * pause.c — POST /v1/games/{id}/pause: this seat asks to stop the game's clock; it stops once every seat a
 * person still plays has asked (one request each; a bot cannot ask, and a seat that left has no say). Asking
 * again, or when already paused, changes nothing.
 */
#include "clock_change.h"
#include "handlers.h"

static cd_problem vote(cd_clock *c, int seat, unsigned absent, double now, void *arg, const char **field,
                       char *detail, size_t detlen)
{
    (void)arg, (void)field, (void)detail, (void)detlen;
    cd_clock_pause_vote(c, seat, absent, now);
    return CD_NPROBLEMS;
}

enum MHD_Result h_game_pause(cd_req *r)
{
    return cd_clock_action(r, vote, NULL);
}
