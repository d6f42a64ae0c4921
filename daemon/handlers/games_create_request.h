/*
 * games_create_request.h — POST /v1/games's request as games_create.c parses it, which games_create_waiting.c
 * reads too when the game has open seats (handlers/ only). A type and what it stores of itself, no code of
 * either file: the one that parses calls the other, never the reverse.
 */
#ifndef CD_HANDLERS_GAMES_CREATE_REQUEST_H
#define CD_HANDLERS_GAMES_CREATE_REQUEST_H

#include <jansson.h>
#include <stdbool.h>

#include "base/crypto.h"
#include "carc.h"
#include "db/db.h"
#include "game/bot_seats.h"
#include "game/clock.h"
#include "handlers/webhooks.h"
#include "http/http.h"

typedef struct {
    const carc_state *st;
    json_t *setup, *snapshot, *events;
    const char *seed_hex, *seed_sha;
    int nplayers;
    const char *names[CARC_MAX_PLAYERS];
    char token_hash[CARC_MAX_PLAYERS][CD_HEX256_LEN];
    char key_hash[CARC_MAX_PLAYERS][CD_HEX256_LEN];   /* players[].player_key hashed; "" when none */
    bool clocked;
    cd_clock clock;   /* "clock": started once the game is */
    char deadline_iso[32];
    int bad_key;      /* out: the seat whose player_key names nobody, -1 */
    char id[37];   /* out */
    cd_req *req;   /* an admin's creation is written to the audit log in the same transaction */
    bool seeded;
    cd_player_hooks hooks;   /* players[].webhook (webhooks.h) */
    const char *emails[CARC_MAX_PLAYERS];   /* players[].email; NULL when none (mail/seat_mail.h) */
    char (*tokens)[CD_TOKEN_LEN + 1];       /* the seats' tokens, for the invitations' private links */
    bool is_bot[CARC_MAX_PLAYERS];          /* players[i] = {"bot": ...}: carcd plays the seat */
    cd_bot_spec bots[CARC_MAX_PLAYERS];
    bool bot_after_leave;                   /* "bot_after_leave": a bot takes a seat that leaves */
    int nopen;        /* players[] entries {"invite": true}: open seats, the game waits for them (lobby.h) */
    const char *invite_emails[CARC_MAX_PLAYERS];   /* by place: {"invite": true, "email": ...}; NULL: none */
    int invite_at[CARC_MAX_PLAYERS];               /* by place: its index in players[] (a refusal's field) */
    int nmailed;      /* places whose invitation carcd mails (mail/open_seat.h) */
    bool public_;     /* "public": listed by GET /v1/lobby while it has open seats */
    bool public_chat;                       /* "public_chat": spectators read the messages (game/messages.h) */
} create_tx;

/* The request's bot seats and the bot worker's flags, in the creation's transaction (game/bot_seats.h). */
static inline bool cd_create_store_bots(cd_db *db, const create_tx *t, const char *id)
{
    return cd_bot_seats_store(db, id, t->nplayers, t->is_bot, t->bots, t->bot_after_leave,
                              t->clocked && t->clock.timeout == CD_TIMEOUT_BOT);
}

#endif
