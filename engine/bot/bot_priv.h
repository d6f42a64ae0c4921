/*
 * bot_priv.h — what the bot's files share (internal to libcarc's bot/): the heuristic margin, the greedy
 * choice, the tree search.
 */
#ifndef CARC_BOT_PRIV_H
#define CARC_BOT_PRIV_H

#include "bot/bot.h"
#include "expansions.h"

/* worth(seat) - the best worth among the other seats still in the game (eval.c). */
double carc_bot_margin(const carc_state *st, int seat);
/* The greedy value of mv for seat on a determinised state: the margin after it and the seat's best own
 * follow-up decisions of the turn. */
double carc_bot_greedy_value(const carc_state *st, int seat, const carc_move *mv);
/* Index in m of the greedy move on the determinised state det. */
int carc_bot_greedy(const carc_state *det, int seat, const carc_moves *m, carc_rng *r);
/* Index in m of the move the tree search picks, from the real state's view (it determinises itself). */
int carc_bot_mcts(const carc_state *st, int seat, const carc_moves *m, uint32_t playouts, carc_rng *r);

#endif
