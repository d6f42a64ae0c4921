/*
 * move_write.h — storing an applied move inside the caller's transaction: the move row, the game row (seq,
 * snapshot, status, pending seat), the NOTIFY that wakes long-polls and streams, and the webhook outbox rows.
 * Every path that adds a move to a game's log goes through it: a seat's POST (handlers/moves_post.c) and the
 * moves the turn clock makes.
 */
#ifndef CD_MOVE_WRITE_H
#define CD_MOVE_WRITE_H

#include <jansson.h>

#include "db/db.h"
#include "games.h"

/* Inside cd_db_tx, with g's row locked (cd_game_lock, or ST_MOVE_LOCK: its seed is known) and the move applied
 * to g->st:
 *   g->seq        the NEW seq (the locked seq + 1): the move's row and the game's seq;
 *   g->st         the state after the move: its snapshot (without the seed), status and pending seat are
 *                 stored;
 *   g->hooks_known, g->hooks   when known and 0, the outbox is skipped without a query; otherwise the game's
 *                 enabled endpoints are read and move.made + turn.started / game.finished are enqueued;
 *   g->clocked, g->clock   a game with a turn clock: the clock as the caller advanced it
 *                 (cd_clock_after_move), stored with its deadline and due time;
 *   g->deadline   the turn clock's deadline for turn.started ("" for none).
 * seat: who moved; move: the move as logged (NULL: none); events_admin: its events, admin view (stored, and
 * filtered to the public view for webhooks); idem: the seat's Idempotency-Key (NULL: none); request_sha256: the
 * hash of the canonical request the key came with (stored with the key: the same key with another request is
 * refused, moves_post.c); answer: the 200 answer replayed for that key (NULL: none); origin: "seat" (the seat chose it) or "clock" (clock_moves.h).
 *
 * The writes are deferred (cd_db_defer): they go out with the caller's next statement or with the COMMIT, in
 * one round trip, and a failure among them fails that statement or the commit. So CD_TX_COMMIT here means
 * "queued"; the move is stored when cd_db_tx returns CD_TX_COMMIT, and only then may the caller answer, count
 * it or cache g->st (cd_cache_put(g->id, g->seq, g->st)). CD_TX_ERROR: something could not be sent or a query
 * failed; return it from fn (the transaction is rolled back, and retried on 40001/40P01). */
cd_tx_result cd_move_write(cd_db *db, const cd_game *g, int seat, const json_t *move, const json_t *events_admin,
                           const char *idem, const char *request_sha256, const json_t *answer, const char *origin);

#endif
