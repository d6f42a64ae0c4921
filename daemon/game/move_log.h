/*
 * move_log.h — a game's log as moves and events, whichever form it is stored in (db/move_log.h): the rows of a
 * game in play, or the compact text of a compacted one (game/compact.h). What a game keeps is its set-up and
 * its moves; everything else a reader asks for (events, the moves described, a past state) is derived by
 * replaying them from the seed through the engine, which gives the same thing every time.
 *
 * The compact text: one line per move after the opening, in seq order, "<seat>[c|b] <notation>\n" ("c": the
 * turn clock made it, "b": a bot did; the notation "!leave" — no notation starts with "!" — the seat left).
 * A notation is engine/notation.h's canonical one, which carc_notation_parse reads back to the identical move.
 *
 * Cost of the events of entries after `after` (cd_log_page_read): when every one of them is in the event
 * cache (event_cache.h: the moves this process made or derived lately), one statement and a parse of each
 * entry's events; otherwise one statement more for the set-up and seed and one for the whole log, and a
 * replay from the start to the page's last seq — the engine applying every move again (a notation is
 * resolved against the legal moves of its decision) — and the page's events rendered: 3 to 7 ms for a
 * finished game of 90 to 220 moves on the shared 2-core development machine (bench/storage-bytes.sh's
 * events_ms; 0.6 to 1.2 ms when the events were stored), after which, for a game in play, the entries are in
 * the cache. So a catch-up of N events costs a replay of the game only when this process holds them not:
 * after a restart, or for moves another carcd process made (its first waiter replays, the others hit).
 */
#ifndef CD_MOVE_LOG_H
#define CD_MOVE_LOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "carc.h"
#include "log_move.h"
#include "notation.h"
#include "db/db.h"
#include "db/move_log.h"
#include "games.h"

typedef struct {
    int n;
    cd_log_move *v;
} cd_log_moves;

/* The moves of a stored log (rows with seq > 0, or the compact text), in order. False with `why` for a
 * compact text that is not one. */
bool cd_log_moves_of(const cd_stored_log *l, cd_log_moves *out, char *why, size_t whylen);
void cd_log_moves_free(cd_log_moves *m);

/* The state before any move (seq 0) from a stored set-up and seed; ev (may be NULL) gets the opening events. */
bool cd_log_begin(const json_t *setup, const char *seed_hex, carc_state *st, carc_events *ev, char *why,
                  size_t whylen);
/* One entry of the log as the events endpoint shows it, before it is filtered for a viewer. */
typedef struct {
    int seq;
    bool has_seat;      /* the opening has none */
    int seat;
    bool clock;         /* the turn clock made it */
    bool bot;           /* a bot made it */
    bool cancel;        /* the admin's cancel (cd_log_move_is_cancel): no seat, no events */
    json_t *move;       /* owned: the move as logged (self-described); NULL for the opening */
    json_t *events;     /* owned: its events, admin view */
} cd_log_entry;

typedef struct {
    int n;
    cd_log_entry *v;
} cd_log_page;

/* Up to `limit` entries after seq `after` (-1: from the opening), in order, in either form (see the cost
 * above). CD_LOAD_CORRUPT when the log does not replay (logged). */
cd_load_result cd_log_page_read(cd_db *db, const char *id, int after, int limit, cd_log_page *out);
void cd_log_page_free(cd_log_page *p);

/* A move's answer (cd_move_commit's): {"seq", "events" as `seat` sees them, and "legal_moves" (with
 * legal_moves) when the seat decides again}, from st, the state after the move, and ev, its events. */
json_t *cd_move_answer(const carc_state *st, int seq, const carc_events *ev, int seat, bool legal_moves);
/* The same answer's compact text (malloc memory): the bytes cd_reply_json writes for cd_move_answer, with the
 * legal moves written without their tree (cd_legal_moves_json_text), as the seat's POST answers it.
 * events_admin is carc_events_to_json(st, ev, CARC_VIEW_ADMIN) and events_admin_text its compact text, which
 * the move renders anyway (the event cache's): when seat sees every event whole (always in the base game),
 * they are its events' text too, and no tree is built or written for the seat. */
char *cd_move_answer_text(const carc_state *st, int seq, const carc_events *ev, const json_t *events_admin,
                          const char *events_admin_text, int seat, bool legal_moves);
/* The answer seat's move at `seq` got, derived by replaying the log to it: what a repeated Idempotency-Key
 * answers (since 010_compact_log the answers are not stored). Costs a replay of `seq` moves; only retries
 * pay it. CD_LOAD_CORRUPT when the log does not replay to such a move. */
cd_load_result cd_log_answer(cd_db *db, const char *id, int seq, int seat, json_t **answer);

#endif
