/*
 * lobby_cancel.h — a game that waits for its seats cancelled before it started: by its creator
 * (POST /v1/games/{id}/cancel, handlers/lobby.c), by the admin (handlers/admin_cancel.c) or by the clock
 * worker once nobody joined it for CARCD_WAITING_TTL (lobby_expire.h). It has no state
 * and no log, so it is told to whoever could be waiting for it: the named and joined seats' players (their
 * streams, db/player_events.h: game_over, "cancelled"), the endpoints its seats added while it waited
 * (webhooks/outbox.h: game.finished, "cancelled") and the seats with an address (mail/waiting.h).
 */
#ifndef CD_GAME_LOBBY_CANCEL_H
#define CD_GAME_LOBBY_CANCEL_H

#include <stdbool.h>

#include "db/db.h"
#include "db/lobby.h"

/* In a transaction holding the game row's lock (cd_waiting_lock, status waiting): status cancelled, and told.
 * by and reason (NULL: none) say who cancelled it and why, for the mail and the webhooks' text. */
cd_tx_result cd_lobby_cancel(cd_db *db, const char *id, const cd_waiting_lock_row *w, cd_cancel_by by,
                             const char *reason);

/* Why a game cancelled before its start never started, from its cancelled_by (NULL: not recorded, before
 * sql/024): "was cancelled by its creator", "... by the server's admin", "...: nobody joined it in time", or
 * "was cancelled", after "the game" or "it". For refusals of what comes too late (a join, a start). */
const char *cd_lobby_cancelled_words(const char *cancelled_by);
/* Why a locked game that no longer waits refuses what the creator asks (a start, a cancel, an invitation mail):
 * "the game was cancelled ..." (cd_lobby_cancelled_words) or "the game has started", into out. */
void cd_lobby_not_waiting_words(const cd_waiting_lock_row *w, char *out, size_t n);

#endif
