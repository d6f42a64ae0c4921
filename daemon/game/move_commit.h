/*
 * move_commit.h — the one path by which a move enters a game's log, inside the caller's transaction: a seat's
 * POST (handlers/moves_post.c), a resignation and the turn clock's timeouts (forced_moves.h) all apply their
 * move to the locked game's state and then call cd_move_commit, which passes the turn on the clock, renders
 * the events for the log and for the mover, and stores the move row, the game row (seq, status, pending seat,
 * clock, and every few moves the snapshot), the NOTIFY that wakes long-polls and streams, and the webhook
 * outbox rows.
 */
#ifndef CD_MOVE_COMMIT_H
#define CD_MOVE_COMMIT_H

#include <jansson.h>

#include "db/db.h"
#include "games.h"

/* A move applied to g->st, and how it came. */
typedef struct {
    int seat;                 /* who moved */
    const json_t *move;       /* the move as logged ({"kind":"leave"} for a seat leaving) */
    const carc_events *ev;    /* the move's events */
    const char *origin;       /* "seat" (the seat chose it, or resigned) or "clock" (a timeout) */
    double now;               /* wall-clock time: the turn clock charges the mover up to it */
    const char *idem;         /* the seat's Idempotency-Key (NULL: none); a replay's answer is derived from the log */
    const char *request_sha256;   /* with idem: the hash of the canonical request it came with, stored with the
                                   * key: the same key with another request is refused (moves_post.c) */
    bool legal_moves;         /* when the mover decides again, the answer carries its legal moves */
    char **answer_text;       /* non-NULL: the answer goes here as its text (cd_move_answer_text: the legal
                               * moves written without a tree), and *answer is NULL */
} cd_move_commit_args;

/* Inside cd_db_tx, with g's row locked (cd_game_lock, or ST_MOVE_LOCK: its seed is known) and the move applied
 * to g->st:
 *   g->seq        becomes the move's seq (the locked seq + 1): the move's row and the game's seq;
 *   g->st         the state after the move: its status, pending seat and pending kind are stored, and its
 *                 snapshot (without the seed) when g->seq is a checkpoint (cd_snapshot_checkpoint);
 *   g->clocked, g->clock   a game with a turn clock: the clock passes the turn on (cd_clock_after_move at
 *                 a->now) and is stored with its deadline and due time; g->deadline gets that deadline for
 *                 turn.started ("" for none);
 *   g->hooks_known, g->hooks   when known and 0, the outbox is skipped without a query; otherwise the game's
 *                 enabled endpoints are read and move.made + turn.started / game.finished are enqueued.
 * *answer gets the answer to the mover, {"seq", "events" as the mover sees them[, "legal_moves"]}, a new
 * reference, whatever the result (cd_move_answer); it is not stored: a repeated Idempotency-Key gets it
 * derived again by replay (move_log.h: cd_log_answer).
 *
 * The writes are deferred (cd_db_defer): they go out with the caller's next statement or with the COMMIT, in
 * one round trip, and a failure among them fails that statement or the commit. So CD_TX_COMMIT here means
 * "queued"; the move is stored when cd_db_tx returns CD_TX_COMMIT, and only then may the caller answer, count
 * it or cache g->st (cd_cache_put(g->id, g->seq, g->st)). CD_TX_ERROR: something could not be sent or a query
 * failed; return it from fn (the transaction is rolled back, and retried on 40001/40P01). */
cd_tx_result cd_move_commit(cd_db *db, cd_game *g, const cd_move_commit_args *a, json_t **answer);

/* How often a move stores the game's snapshot (CARCD_SNAPSHOT_EVERY, default 16): set once, before the first
 * move. A snapshot is about 3 KB of jsonb that PostgreSQL parses, TOASTs and logs and carcd prints; the moves
 * are the record, so the game row keeps a checkpoint and a reader that does not hold the state applies the
 * moves after it (games.c). Every `every`th seq, and the move that ends the game, write one. */
void cd_snapshot_every(int every);
/* Whether the move to `seq` writes the snapshot (`over`: the game ended with it). */
bool cd_snapshot_checkpoint(int seq, bool over);

#endif
