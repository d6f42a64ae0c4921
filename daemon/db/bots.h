/*
 * bots.h — the bot columns (sql/011_bots.sql, 014): a seat carcd plays (seats.bot, left_to_bot), the games the bot worker
 * looks at (games.bots, bot_after_leave), and its lease on the game it thinks for (games.bot_lease_until).
 */
#ifndef CD_BOTS_H
#define CD_BOTS_H

#include <stdbool.h>

#include "db.h"

/* ST_BOT_SEAT_SET: seat is played by the bot `bot_json` ({"bot": "mcts", "think_ms": 1000}) from now on;
 * left_to_bot: its player left it to the bot (bot_after_leave, sql/014), rather than it was made for one. */
cd_q cd_bot_seat_set(cd_db *db, const char *game_id, int seat, const char *bot_json, bool left_to_bot);
/* ST_BOT_GAME_FLAGS: the game has bots (the worker looks at it) and whether a bot takes a seat that leaves. */
cd_q cd_bot_game_flags(cd_db *db, const char *game_id, bool after_leave);

/* What ST_BOT_CLAIM leased. */
typedef struct {
    char game_id[37];
    int seat;              /* the seat the game waits for */
    char bot[256];         /* the seat's bot JSON; "" when the seat is a person's (the clock's "bot" timeout) */
} cd_bot_claim_row;
/* ST_BOT_CLAIM, in a transaction: one active game whose pending seat a bot plays now (a bot seat, or a
 * seat past its deadline under the clock's "bot" timeout) that no other worker holds, leased for lease_s
 * seconds from `now` (SKIP LOCKED: several carcd processes never lease the same game); *found false when
 * there is none. */
cd_q cd_bot_claim(cd_db *db, double now, double lease_s, bool *found, cd_bot_claim_row *out);
/* ST_BOT_RELEASE: the lease ends. */
cd_q cd_bot_release(cd_db *db, const char *game_id);
/* ST_BOT_AFTER_LEAVE: whether a bot takes the game's seats that leave. */
cd_q cd_bot_after_leave(cd_db *db, const char *game_id, bool *after_leave);
/* ST_BOT_SEAT_MASK: a bit per seat of the game that a bot plays (made for one, or left to one). */
cd_q cd_bot_seat_mask(cd_db *db, const char *game_id, unsigned *mask);

#endif
