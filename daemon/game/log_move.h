/*
 * log_move.h — one entry of a game's log, in either stored form (db/move_log.h: a row's JSON, or a compacted
 * game's line of notation, game/move_log.h), and the engine applying it to the state before it: what replay
 * (replay.h, move_log.h) and the load of a game from its snapshot checkpoint (games.c, sql/017) share. Only
 * the engine is below it, so games.c, which move_log.h and views.h stand on, uses it without a circle.
 */
#ifndef CD_LOG_MOVE_H
#define CD_LOG_MOVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "carc.h"
#include "notation.h"

#define CD_LEAVE_NOTATION "!leave"
#define CD_TO_BOT_NOTATION "!leave_to_bot"   /* {"kind": "leave_to_bot"}: a bot plays the seat on */

/* One move of a stored log, either form (the strings are the stored log's). */
typedef struct {
    int seq, seat;
    bool has_seat;        /* false only for the admin's cancel (handlers/admin_cancel.c), a row with no seat */
    bool clock;           /* the turn clock made it */
    bool bot;             /* a bot made it (clock/bot_worker.h) */
    const char *json;     /* rows: the move's JSON text (NULL only for a row without a move) */
    const char *text;     /* compact: the line's notation, text_len bytes (not NUL-terminated) */
    size_t text_len;
} cd_log_move;

/* The admin's cancel (handlers/admin_cancel.c: a row with no seat, move {"kind": "cancel", "reason"}), the
 * last entry of a cancelled game's log. It changes no state and has no events; it has no compact line, as a
 * cancelled game is not compacted (only finished ones are: game/compact.h). */
bool cd_log_move_is_cancel(const cd_log_move *m);

/* Whether a logged move's JSON is the admin's cancel ({"kind": "cancel", ...}). */
bool cd_log_json_is_cancel(const json_t *j);

/* Applies one logged move to st, the state before it: ev (may be NULL) gets its events, *described (may be
 * NULL) the move as the log names it (carc_move_to_json_described against the state before; {"kind":
 * "leave"} for a leave, {"kind": "leave_to_bot"} for a leave to a bot, the move as stored for the admin's cancel, which leaves st as it is), notation (may be
 * NULL) its compact line's notation (none for a cancel: CARC_E_INVALID). 0, or the engine's error with
 * `why` (st unchanged). */
int cd_log_move_apply(carc_state *st, const cd_log_move *m, carc_events *ev, json_t **described,
                      char notation[CARC_NOTATION_MAX], char *why, size_t whylen);

#endif
