/*
 * resume.c — POST /v1/games/{id}/resume: any seat restarts a paused clock; open pause requests are
 * withdrawn too (a seat that wants to go on says so this way).
 */
#include "clock_change.h"
#include "handlers.h"

static cd_problem resume(cd_clock *c, int seat, unsigned absent, double now, void *arg, const char **field,
                         char *detail, size_t detlen)
{
    (void)seat, (void)absent, (void)arg, (void)field, (void)detail, (void)detlen;
    cd_clock_resume(c, now);
    return CD_NPROBLEMS;
}

enum MHD_Result h_game_resume(cd_req *r)
{
    return cd_clock_action(r, resume, NULL);
}
