/*
 * lobby_start.h — a game that waited for its seats, set up once they are known: the engine's set-up for the
 * seats taken, with the seed drawn (and its hash published) at creation, stored as a creation stores a game,
 * and told to whoever listens. Below the HTTP handlers and the mail-in, which both start games (a creator's
 * start, the join that takes the last seat, a rematch, a reply that joins by mail).
 *
 * A waiting game's seats are numbered in the order they are taken: the seats named at creation first (in their
 * order in players[]), then each join. The hidden draws stay on the server as for any game.
 */
#ifndef CD_GAME_LOBBY_START_H
#define CD_GAME_LOBBY_START_H

#include <jansson.h>
#include <stddef.h>

#include "carc.h"
#include "db/db.h"
#include "db/lobby.h"

/* The stored set-up of a game (games.setup): nplayers, expansions, options, the admin's script (NULL: none). */
json_t *cd_setup_json(const carc_setup *s, const json_t *script);

/* In a transaction holding the game row's lock (cd_waiting_lock, status waiting): sets the game up for the
 * seats taken (at least 2) and makes it active, as a creation does — the opening in the log, the clock
 * started, turn.started to the game's webhooks, the seats' mail (the named seats' addresses, and a joined
 * seat's whose invitation carcd mailed: sql/019; not an address unsubscribed while it waited: mail/waiting.h),
 * the event streams woken — then tells
 * cd_lobby_on_started. token_seat and token: a seat whose first mail carries its private link (a seat joined
 * by a reply mail, which learns its token no other way); -1 and NULL: none. CD_TX_ROLLBACK with `detail` when
 * there are too few seats or the engine refuses the set-up for that many. */
cd_tx_result cd_lobby_start(cd_db *db, const char *id, const cd_waiting_lock_row *w, int token_seat,
                            const char *token, char *detail, size_t detlen);

/* The hook a per-player event stream listens on, called inside the transaction that makes it so (so a listener
 * may read and write in it): a game started — created with every seat named (handlers/games_create.c), or a
 * waiting game whose seats were taken or whose creator started it (cd_lobby_start) — with its nseats seats,
 * whose linked players (seats.player_id) are the ones to tell. It logs it and writes the players' entries of
 * GET /v1/me/events (db/player_events.h: game_started and the first turn); CD_TX_ERROR when those could not be
 * sent. */
cd_tx_result cd_lobby_on_started(cd_db *db, const char *game_id, int nseats);

#endif
