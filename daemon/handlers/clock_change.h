/*
 * clock_change.h — what the clock endpoints (pause.c, resume.c, vacation.c) share: a change to the turn clock
 * alone, in a transaction on the game of the request, for the seat its token holds.
 */
#ifndef CD_CLOCK_CHANGE_H
#define CD_CLOCK_CHANGE_H

#include "game/clock.h"
#include "handlers.h"

/* A change to the clock alone (pause, resume, vacation): fn changes c for `seat` at `now`; `absent` has a bit
 * per seat no person plays (it left, or a bot plays it); it returns CD_NPROBLEMS when done, else the problem to
 * answer (with a detail and, in *field, what was wrong). */
typedef cd_problem (*cd_clock_fn)(cd_clock *c, int seat, unsigned absent, double now, void *arg,
                                  const char **field, char *detail, size_t detlen);
/* Runs fn in a transaction on the game of the request, for the seat its token holds, and answers
 * 200 {"clock": view} — or the problem: no clock 409, game over 409, seat left 409, fn's own. */
enum MHD_Result cd_clock_action(cd_req *r, cd_clock_fn fn, void *arg);

#endif
