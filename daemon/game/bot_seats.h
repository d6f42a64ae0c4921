/*
 * bot_seats.h — seats carcd plays: the players[i] form {"bot": "greedy"} or {"bot": "mcts", "think_ms":
 * 1000} (think_ms optional, mcts only), as stored in seats.bot, and a bot taking a seat whose player left
 * (games.bot_after_leave). The moves themselves are clock/bot_worker.c's.
 */
#ifndef CD_BOT_SEATS_H
#define CD_BOT_SEATS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot/bot.h"
#include "db/db.h"

typedef struct {
    carc_bot_kind kind;   /* CARC_BOT_GREEDY or CARC_BOT_MCTS */
    int think_ms;         /* mcts: the budget (CARC_BOT_THINK_DEFAULT_MS when not given); greedy: 0 */
} cd_bot_spec;

/* A players[i] object that has "bot": its spec, or false with the offending field (`where` + member, e.g.
 * "players[1].think_ms") and a detail. */
bool cd_bot_spec_parse(const json_t *player, const char *where, cd_bot_spec *out, char *field, size_t fieldlen,
                       char *detail, size_t detlen);
/* The stored JSON text (seats.bot) back into a spec; false when it is not one. */
bool cd_bot_spec_parse_text(const char *text, cd_bot_spec *out);
/* The stored form: {"bot": "mcts", "think_ms": 1000} (no think_ms for greedy). New reference. */
json_t *cd_bot_spec_json(const cd_bot_spec *s);
/* The seat's name when the request gives none: "greedy bot", "mcts bot". */
const char *cd_bot_default_name(carc_bot_kind kind);

/* A new game's bot seats (seats 0..n-1 where is_bot[i]) into seats.bot, and the flag the bot worker finds the
 * game by (games.bots: a bot seat, bot_after_leave, or the clock's "bot" timeout: bot_timeout). A waiting
 * game's bot seats are among its named seats, numbered before any joined seat, so a start that compacts the
 * open places keeps their numbers; the worker looks only at active games. False when a statement failed. */
bool cd_bot_seats_store(cd_db *db, const char *game_id, int n, const bool *is_bot, const cd_bot_spec *bots,
                        bool bot_after_leave, bool bot_timeout);

/* Inside a transaction that holds the game's row: when the game has bot_after_leave, the seat becomes a
 * greedy bot seat and *taken is true (the caller then does not make the seat leave); otherwise nothing. */
bool cd_bot_take_seat(cd_db *db, const char *game_id, int seat, bool *taken);
/* The seats of the game (its state st) no person plays now: a bit for each that left and each a bot plays, the
 * seats that have no say in a pause (game/clock.h). False when the database failed. */
bool cd_seats_without_person(cd_db *db, const char *game_id, const carc_state *st, unsigned *absent);

#endif
