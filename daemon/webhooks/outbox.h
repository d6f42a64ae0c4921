/*
 * outbox.h — the transactional outbox of webhooks: the messages an event causes, written as rows inside the
 * transaction that makes the event happen, so a message exists exactly when its move (or its game) was
 * committed, and is never lost once it was. deliver.c sends them.
 *
 * Both calls read the game's enabled endpoints (one indexed query, nothing else when there are none),
 * render each message once per format from the PUBLIC view and events (whpayload.h), insert one
 * webhook_outbox row per message and endpoint with a fresh webhook-id, due after the first delay of the
 * schedule, and NOTIFY carcd_webhooks so the delivery workers look at once. They return CD_TX_COMMIT when
 * everything (or nothing) was written, CD_TX_ERROR when a statement failed (the caller rolls back; under
 * cd_db_tx it may run again, and every run writes its rows afresh).
 */
#ifndef CD_OUTBOX_H
#define CD_OUTBOX_H

#include <jansson.h>

#include "db/db.h"
#include "db/lobby.h"
#include "carc.h"
#include "webhooks.h"

/* What the outbox reads of a game (the game service passes its cd_game's fields, so this layer needs none of
 * its types). */
typedef struct {
    const char *id;
    int seq;
    const carc_state *st;   /* the state after the move */
    const char *seed;       /* hex, known in a move's or the clock's transaction */
    const char *deadline;   /* the turn clock's deadline (ISO), "" for none */
} cd_outbox_game;

/* In a move's transaction, after the move is stored: move.made; then turn.started for the decision the game
 * now waits for, or game.finished (final scores, the seed revealed) when the move ended it.
 * g: the game as locked for the move (cd_game_lock: its seed is known), g->st the state AFTER the move;
 * g->deadline: the turn clock's deadline for turn.started ("" when the game has none);
 * seq: the move's seq; seat: who moved; events_admin: the move's events as stored (the admin rendering,
 * filtered to the public view here). */
cd_tx_result cd_outbox_enqueue_move(cd_db *db, const cd_outbox_game *g, int seq, int seat, const json_t *events_admin);

/* In the clock worker's transaction: turn.reminder for the seat the game waits for (g->st->pending.seat),
 * whose turn ends at `deadline` (ISO), time_left_s from now. */
cd_tx_result cd_outbox_enqueue_reminder(cd_db *db, const cd_outbox_game *g, const char *deadline, double time_left_s);

/* In the admin's cancel (handlers/admin_cancel.c): game.finished with "reason": "cancelled", no winner and
 * the seed kept secret (seed_hex: only its hash, published at creation, is said), for every endpoint that
 * takes game.finished; st the state where the game stopped, seq the cancel's entry. */
cd_tx_result cd_outbox_enqueue_cancel(cd_db *db, const char *game_id, int seq, const carc_state *st,
                                      const char *seed_hex);
/* A game cancelled while it waited for its seats (game/lobby_cancel.h; by: its creator, the admin or its
 * expiry; seed_hex its seed, of which only the hash is said): game.finished with "reason": "cancelled",
 * seq 0, no scores and no winner, for every endpoint of the game that takes game.finished (those its seats
 * added while it waited, and the admin's). */
cd_tx_result cd_outbox_enqueue_waiting_cancel(cd_db *db, const char *game_id, const char *seed_hex,
                                              cd_cancel_by by);

/* In a game's creation transaction, after the game and its seats are stored: creates the endpoints the
 * players asked for (hooks may be NULL; their ids are written into hooks->id), then enqueues turn.started
 * for the first decision. st is the new game's state; seed_hex its seed (revealed only if the game is
 * already over). */
cd_tx_result cd_outbox_game_created(cd_db *db, const char *game_id, const carc_state *st, const char *seed_hex,
                                    const char *deadline, cd_player_hooks *hooks);

/* A message a seat wrote (game/messages.h), as message.posted tells it. */
typedef struct {
    const char *game_id;
    long long id;
    int seq, seat;            /* the game's seq when written; the author */
    const char *name, *text, *at;
} cd_outbox_message;

/* In the message's transaction: message.posted for every endpoint that asked for it, but a seat's own
 * messages and those of a seat it muted (the admin's endpoints get them all). */
cd_tx_result cd_outbox_enqueue_message(cd_db *db, const cd_outbox_message *m);

/* In a join's transaction (game/lobby_join.h), when the game still waits for others: player.joined for every
 * endpoint that asked for it (the seats' registered while the game waits, and the admin's). seat: the seat
 * taken, whose name is read with the others'; taken: the seats taken now, of nseats. */
cd_tx_result cd_outbox_enqueue_joined(cd_db *db, const char *game_id, int seat, int taken, int nseats);

/* In a leave's transaction (game/lobby_leave.h), after the seat's rows went (its own endpoints with them):
 * player.left for every endpoint that asked for it. seat: the seat given up, name its name; removed: by the
 * game's creator; taken: the seats taken now, of nseats. */
cd_tx_result cd_outbox_enqueue_left(cd_db *db, const char *game_id, int seat, const char *name, bool removed,
                                    int taken, int nseats);

/* In the transaction of a waiting game's expiry (game/lobby_expire.h), for every endpoint of the game that asked
 * for ev: CD_WH_GAME_EXPIRING (the clock worker: since says how long nobody joined it, in words) or
 * CD_WH_GAME_KEPT_OPEN (its creator, or the admin: by_admin, kept it open after that; since NULL). expires_at
 * (ISO): when carcd cancels it unless someone joins; taken of nseats seats are taken. */
cd_tx_result cd_outbox_enqueue_expiry(cd_db *db, unsigned ev, const char *game_id, const char *expires_at,
                                      const char *since, bool by_admin, int taken, int nseats);

#endif
