/*
 * clock_tx.h — what the clock endpoints (pause, resume, vacation, resign) and the clock worker share: the
 * seat a request speaks for, and writing a clock back (cd_game_lock reads it with the game).
 */
#ifndef CD_CLOCK_TX_H
#define CD_CLOCK_TX_H

#include "clock.h"
#include "game/games.h"

/* The seat of game r->params[0] the bearer token holds, with this thread's database in *db. Replies (404 bad
 * id, 401/403 token, 503) and returns -1 when there is none. */
int cd_req_seat(cd_req *r, cd_db **db);

/* Writes the clock back with its derived deadline and due time. */
bool cd_clock_save(cd_db *db, const char *id, const cd_clock *c);



/* A change to the clock alone (pause, resume, vacation): fn changes c for `seat` at `now`; it returns
 * CD_NPROBLEMS when done, else the problem to answer (with a detail and, in *field, what was wrong). */
typedef cd_problem (*cd_clock_fn)(cd_clock *c, int seat, const carc_state *st, double now, void *arg,
                                  const char **field, char *detail, size_t detlen);
/* Runs fn in a transaction on the game of the request, for the seat its token holds, and answers
 * 200 {"clock": view} — or the problem: no clock 409, game over 409, seat left 409, fn's own. */
enum MHD_Result cd_clock_action(cd_req *r, cd_clock_fn fn, void *arg);
#endif
