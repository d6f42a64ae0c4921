/*
 * waiting.h — the mail of a game that waits for its seats (handlers/lobby.h): the seats that have an address
 * before the start hear who joined, and that the game was cancelled if it never starts. Their first game
 * mail is otherwise the start's (game/lobby_start.c: the invitation with the seat's link, and the first turn).
 *
 * A seat has an address before the start when its creation named one (players[].email) or when it was taken
 * with an invitation carcd mailed (by its link or a reply: game/lobby_join.h), or when the seat gives one itself
 * while it waits (PUT .../email). Such a seat's mail_seats row is written then (seat_mail.h's
 * cd_mail_seat_hold), without a mail, so that the one-click unsubscribe of these mails works on it; an
 * address unsubscribed while the game waits gets nothing at the start either (cd_mail_waiting_started).
 *
 * These mails are threaded under the seat's game thread, as all its later mail is (compose.h). Their Reply-To is
 * the seat's reply address: before the start a reply can say "leave" (mailin/waiting_reply.h), and anything else
 * is answered with what it can do. Written in the event's transaction and sent at least once
 * by mail/send.c, as every mail (outbox.h).
 */
#ifndef CD_MAIL_WAITING_H
#define CD_MAIL_WAITING_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "db/db.h"
#include "db/lobby.h"
#include "db/mail_seats.h"

/* In the start's transaction, for each of st's seats: its address gets its first game mail (seat_mail.h's
 * cd_mail_seat_set; token with it for seat token_seat, -1: none). The address is the seat's row's when it has
 * one (given at creation or by a join, or by the seat itself while the game waited: PUT .../email), and none
 * when that row was stopped (an unsubscribe, a refusal); else addr[seat] (NULL: none), what the creation and
 * the joins said, for a game that began to wait before the rows were written. */
cd_tx_result cd_mail_waiting_started(cd_db *db, const char *game_id, const carc_state *st, const json_t *names,
                                     const char *const addr[], int token_seat, const char *token,
                                     const char *deadline);

/* The addresses the creation (settings' "emails") and the joins by a mailed invitation (inv, ninv) gave seats
 * 0..n-1 (n ≤ CD_LOBBY_MAX_SEATS), NULL where none: cd_mail_waiting_started's addr[]. They point into settings
 * and inv. */
void cd_mail_waiting_addresses(const json_t *settings, const cd_invite *inv, int ninv, int n, const char *addr[]);
/* In a transaction, PUT /v1/games/{id}/email while the game waits (settings: its game_waiting settings' text):
 * the seat's address becomes email (its row; no mail until the start but who joins), or with NULL its mail
 * stops (the row kept, stopped_reason "stopped by the seat", so that the start mails it nothing; a seat
 * with no row, of a game that began to wait before the rows were written, gets one, stopped, for the address
 * its creation or join gave). */
cd_tx_result cd_mail_seat_waiting_set(cd_db *db, const char *game_id, const char *settings, int seat,
                                      const char *email);
/* A join took seat, leaving the game waiting: `taken` of its `nseats` seats are taken now. Every other seat
 * with an address (whose mail runs) gets kind "joined". */
cd_tx_result cd_mail_enqueue_joined(cd_db *db, const char *game_id, int seat, int taken, int nseats);
/* A seat called `name` was given up (game/lobby_leave.h), or removed by the game's creator (`removed`), after
 * its rows went: `taken` of the game's `nseats` seats are taken now. Every seat with an address (whose mail
 * runs) gets kind "left". */
cd_tx_result cd_mail_enqueue_left(cd_db *db, const char *game_id, const char *name, int taken, int nseats,
                                  bool removed);
/* The seat `was` (its mail row as it was, read before the leave; its mail running), called `name`, is gone: the
 * creator removed it (kind "removed") or its reply "leave" gave it up (kind "gone"). Its address gets a last
 * mail that says so, in the seat's thread. The row is gone and its number may be another seat's now, so the mail
 * is a person's with no seat (outbox seat -1) and has no unsubscribe link or reply address: it is the last carcd
 * sends there for this game. */
cd_tx_result cd_mail_enqueue_gone(cd_db *db, const char *game_id, const cd_mail_seat *was, const char *name,
                                  bool removed);
/* A reply from seat `to` (its mail row, mail running) to a mail of the waiting game that was not played, and why
 * (words, no final stop): kind "refused", which says what a reply can do before the start. */
cd_tx_result cd_mail_enqueue_waiting_answer(cd_db *db, const char *game_id, const cd_mail_seat *to, const char *why);

/* Nobody joined the waiting game for `since` (words: "13 days"), and carcd cancels it at `when` (words: the
 * date, UTC) unless someone joins (game/lobby_expire.h): every seat with an address (whose mail runs) gets kind
 * "expiring", which says who is at the table, that its creator can keep it open and, with 2 seats or more
 * taken, start it. */
cd_tx_result cd_mail_enqueue_waiting_expiring(cd_db *db, const char *game_id, int taken, int nseats,
                                              const char *since, const char *when);
/* Its creator (by_admin: the server's admin) keeps the waiting game open after its seats were told it expires
 * (kind "expiring"): carcd now
 * cancels it at `when` (words: the date, UTC) unless someone joins. Every seat with an address (whose mail
 * runs) gets kind "kept_open", which takes the earlier date back. */
cd_tx_result cd_mail_enqueue_waiting_kept_open(cd_db *db, const char *game_id, int taken, int nseats,
                                               const char *when, bool by_admin);
/* The waiting game was cancelled (by its creator, the server's admin or its expiry; with reason or NULL)
 * with `taken` of its `nseats` seats taken: every seat with an address (whose mail runs) gets kind
 * "cancelled". */
cd_tx_result cd_mail_enqueue_waiting_cancelled(cd_db *db, const char *game_id, int taken, int nseats,
                                               cd_cancel_by by, const char *reason);

#endif
