/*
 * games.h — a game as the daemon holds it (cd_game: the row and its decoded state), loaded for viewing, for a
 * seat's token or locked for a change, and its snapshot as stored. Views are views.h, the catalog catalog.h,
 * who is asking and the answers for failures handlers/request.h.
 */
#ifndef CD_GAMES_H
#define CD_GAMES_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "clock.h"
#include "base/crypto.h"
#include "base/int_text.h"
#include "db/db.h"
#include "db/game_reads.h"
#include "state_cache.h"
#include "json.h"

/* A game row with its decoded state. */
typedef struct {
    char id[37];
    int seq;
    bool finished;        /* over: finished or cancelled */
    bool cancelled;       /* the admin cancelled it: no winner (handlers/admin_cancel.c) */
    json_t *setup;        /* owned */
    json_t *snapshot;     /* owned: the stored snapshot (no seed), the state after snapshot_seq; an empty
                             object when st came from the state cache (only admin loads promise the stored
                             snapshot) */
    int snapshot_seq;     /* the checkpoint's seq (sql/017): st is the snapshot with the moves after it applied */
    char seed_sha256[CD_HEX256_LEN];
    char seed[CD_HEX256_LEN];   /* "" unless the query may read it (admin, locked for a move, finished) */
    char created_at[40], updated_at[40], finished_at[40];
    carc_state *st;       /* owned, decoded from snapshot + seed (seed zero when unknown), and the moves after
                             the snapshot applied */
    json_t *names;        /* owned: ["Ann","Bob"] by seat */
    json_t *bots;         /* owned: [null, {"bot": "greedy"}] by seat in a game with bots (views); NULL: none read */
    bool clocked;         /* the game has a turn clock (when the query read it: views, moves) */
    cd_clock clock;
    bool hooks_known;     /* hooks holds the number of the game's enabled webhook endpoints (a move's
                             ST_MOVE_AFTER_LOCK tells); when false, cd_move_commit looks them up */
    int hooks;
    bool linked_known;    /* linked holds the number of its seats linked to a player (ST_MOVE_AFTER_LOCK); when
                             false, cd_move_commit writes the player events without knowing (none: a no-op) */
    int linked;
    char deadline[32];    /* the turn clock's deadline after a move (ISO), for its webhooks; "" for none */
} cd_game;

void cd_game_free(cd_game *g);

/* CD_LOAD_WAITING: the game exists but has no state: it waits for its seats or was cancelled so (lobby).
 * CD_LOAD_SEAT_GONE: a feed's seat token no longer opens a seat of the game (handlers/feed.h). */
typedef enum {
    CD_LOAD_OK, CD_LOAD_NOT_FOUND, CD_LOAD_DB_ERROR, CD_LOAD_UNAVAILABLE, CD_LOAD_CORRUPT, CD_LOAD_WAITING,
    CD_LOAD_SEAT_GONE
} cd_load_result;

/* A decoded state copied from the state cache before a read, and its seq (-1, st NULL: none held). The read
 * names that seq (the database leaves the snapshot out when the game is still at it) and keeps the copy only
 * then (state_cache.h). */
typedef struct {
    carc_state *st;
    int seq;
    char seq_text[CD_INT_TEXT];   /* the seq as the statement's parameter */
    cd_cache_aux aux;    /* what the cache knows of the game besides (state_cache.h) */
} cd_held;
cd_held cd_held_take(const char *id);
/* Fills g (a game `id`) from held alone, read nowhere: for a seat's move sent in one round trip, whose guard
 * (db/game_reads.h: cd_move_guard_deferred) has the database check under the lock what this assumes: the game
 * at held's seq, active, unclocked, with no webhook endpoint (g->hooks 0) and, when held knows it, no seat
 * linked to a player. held's state becomes g's. The caller checks held->aux.known first. */
void cd_game_from_held(cd_game *g, const char *id, cd_held *held);
/* Loads a game for viewing (ST_GAME_GET, or ST_GAME_GET_ADMIN with `admin`), its seats' names included, in
 * one statement. */
cd_load_result cd_game_load(cd_db *db, const char *id, bool admin, cd_game *g);
/* Loads and locks a game inside a transaction (ST_GAME_LOCK): the state to apply a move to. */
cd_load_result cd_game_lock(cd_db *db, const char *id, cd_game *g);
/* Fills g (a game `id`) from a locked read (cd_game_read_lock, cd_move_lock) that named held's seq;
 * CD_LOAD_NOT_FOUND when it found no game. row stays the caller's; held's state is g's or freed. */
cd_load_result cd_game_lock_row(cd_game *g, const char *id, const cd_game_read *row, cd_held *held);

/* The snapshot to store: the engine's, minus the seed (it lives in game_secrets). */
json_t *cd_snapshot_for_store(const carc_state *st);
/* Its compact text, written without the tree (carc_state_to_json_text): what a move stores. malloc memory. */
char *cd_snapshot_text_for_store(const carc_state *st);

/* For a seat token (its hash): who the token is, and game `id` loaded for that seat when the token is one of
 * its seats, in one statement (cd_game_read_seat: with `names` false only seq, status, snapshot and seed,
 * what legal-moves needs). The read's cd_q; when CD_Q_OK, *token tells who the token is and, for a seat of
 * this game, *lr how the load went (g filled when CD_LOAD_OK, else holding nothing to free); a person's seat
 * token is then remembered by the state cache as that seat's (cd_cache_seat_token). */
cd_q cd_game_load_seat(cd_db *db, const char *token_hash, const char *id, bool names, cd_token_seat *token,
                       cd_load_result *lr, cd_game *g);

#endif
