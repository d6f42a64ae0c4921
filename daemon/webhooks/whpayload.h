/*
 * whpayload.h — the bodies of webhook messages, rendered once per event and format when the event happens
 * (outbox.c) and stored, so every attempt sends, and signs, the same bytes.
 *
 *   json     {"type": "turn.started", "timestamp": "...", "data": {...}}: structured fields a bot acts on
 *   discord  {"content": "...", "allowed_mentions": {"parse": []}}: Markdown, mentions switched off
 *   slack    {"text": "..."}: Slack's escaping of &, < and >
 * The texts name the player who must act (turn.started), who moved and what happened (move.made), or the
 * final scores (game.finished, also when the admin cancelled the game: "reason" says which), or what a seat
 * wrote (message.posted: its whole text, escaped like a name and cut to fit with "…", each of its lines a line
 * of the chat message), or who took a seat of a game that still waits for others (player.joined) or gave one
 * up (player.left), or when a game that nobody joins will be cancelled (game.expiring), or that its creator
 * keeps it open after all (game.kept_open); player names are escaped for the format, so a name cannot ping a
 * channel or inject markup. A chat text fits its platform (Discord 2 000 characters, Slack 4 000): names are
 * cut to 24 characters at a character boundary, a move's lines are dropped from the end with a "…" line, and the
 * last line links the game page and the board picture (never a JSON route, which a browser is refused).
 * The seed is in the json format only.
 *
 * Everything comes from the context, which the caller fills from the PUBLIC view and the public events
 * (CARC_VIEW_PUBLIC), and the seed only for game.finished: nothing here can see hidden information.
 */
#ifndef CD_WHPAYLOAD_H
#define CD_WHPAYLOAD_H

#include <jansson.h>
#include <stdbool.h>

#include "db/lobby.h"

typedef struct {
    const char *game_id;
    int seq;                  /* the game's seq after the event */
    const json_t *names;      /* ["Ann", "Bob"] by seat */
    const json_t *view;       /* the public view after the event: "pending", "players" (scores), "status" */
    const json_t *events;     /* move.made: the move's public events */
    int seat;                 /* move.made: the seat that moved */
    const char *seed;         /* game.finished: the revealed seed (hex) */
    const char *seed_sha256;  /* game.finished: the commitment published at creation */
    const char *timestamp;    /* when it happened, ISO 8601 UTC */
    const char *base_url;     /* link base without a trailing '/'; "" for relative links */
    const char *deadline;     /* turn.started, turn.reminder: the turn clock's deadline (ISO); NULL: no clock */
    double time_left_s;       /* turn.reminder: seconds left until the deadline */
    bool cancelled;           /* game.finished: the admin cancelled the game ("reason": "cancelled", no winner,
                                 the seed not revealed) */
    bool never_started;       /* cancelled: while it waited for its seats (no view, no scores) */
    cd_cancel_by cancelled_by;   /* never_started: by whom (a game under way only the admin cancels) */
    long long message_id;     /* message.posted: the message (seat: its author) */
    const char *text;         /* message.posted: what it says, as written */
    int seats, taken;         /* player.joined, player.left, game.expiring, game.kept_open: the game's seats, and
                                 how many are taken now (player.joined's seat: the joiner; player.left's: the
                                 seat given up, whose number the next seat now has) */
    const char *left_name;    /* player.left: the name of the seat given up (no longer among names) */
    bool removed;             /* player.left: the game's creator removed the seat; false: its player left */
    const char *expires_at;   /* game.expiring, game.kept_open: when carcd cancels the game unless someone joins
                                 (ISO) */
    const char *since;        /* game.expiring: how long nobody has joined it, in words ("13 days") */
    bool kept_by_admin;       /* game.kept_open: the server's admin kept it open, not its creator */
} cd_whp_ctx;

/* The body for event `ev` (one cd_wh_event bit) in `format` (cd_wh_format): compact JSON, malloc'd. */
char *cd_whp_render(unsigned ev, int format, const cd_whp_ctx *c);

#endif
