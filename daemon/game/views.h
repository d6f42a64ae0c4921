/*
 * views.h — what a game looks like to whoever asks: the engine's view of the state with the daemon's own
 * fields (id, seq, names, clock, times, the seed and winners once over), and a seat's legal moves.
 */
#ifndef CD_VIEWS_H
#define CD_VIEWS_H

#include <jansson.h>

#include "games.h"

/* What GET legal-moves answers for `seat` in st at `seq`: {"seq","seat","moves"}, each move postable as is. A
 * move's answer carries the same object when its mover owes the next decision too. */
json_t *cd_legal_moves_json(const carc_state *st, int seq, int seat);
/* The same answer's compact text, written without the tree (carc_moves_to_json_text): the bytes cd_reply_json
 * writes for cd_legal_moves_json, for the GET, which answers it as it is. malloc memory. */
char *cd_legal_moves_json_text(const carc_state *st, int seq, int seat);

/* The view of g for viewer: the engine's view plus id, seq, status, names, created/updated/finished, and
 * the seed once the game is over (with the winners). */
json_t *cd_game_view(const cd_game *g, int viewer);
/* The view of g for the token of a seat a bot plays (made for it, or left to it by its player): the public's,
 * and which seat it is (you.seat), nothing of what the seat holds: its hidden things are the bot's. */
json_t *cd_game_view_bot_seat(const cd_game *g, int seat);

#endif
