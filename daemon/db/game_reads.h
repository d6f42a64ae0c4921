/*
 * game_reads.h — the reads of one game row that game/games.c decodes into a cd_game: for viewing
 * (ST_GAME_GET, _ADMIN), for a seat token (ST_GAME_GET_SEAT, _PLAY: who the token is, joined to its game),
 * locked for a change (ST_GAME_LOCK), locked for a seat's move (ST_MOVE_LOCK pipelined with
 * ST_MOVE_AFTER_LOCK), and a token alone (ST_TOKEN_LOOKUP). The column lists live in game_reads.c with the
 * statements; only that file knows their order.
 */
#ifndef CD_GAME_READS_H
#define CD_GAME_READS_H

#include <stdbool.h>

#include "db.h"

struct pg_result;

/* A game's columns as read. Text is "" for SQL NULL (and for columns a statement leaves out), except where
 * NULL is said to mean something. The strings live until cd_game_read_free. */
typedef struct {
    bool found;             /* a row with the game's columns (its seq not NULL) */
    int seq;
    bool finished;          /* over: finished, or cancelled by the admin once started */
    bool unstarted;         /* status waiting, or cancelled before it started: no state yet (sql/008_lobby.sql) */
    bool cancelled;         /* the admin cancelled it once started (its log's last entry; sql/009) */
    const char *setup;      /* JSON text (views and admin reads; "" for lock reads and ST_GAME_GET_PLAY) */
    const char *snapshot;   /* JSON text; "" when left out at the seq of the state the reader holds */
    const char *seed_sha256, *created_at, *updated_at, *finished_at;
    const char *seed;       /* hex; "" unless the statement may read it */
    const char *names;      /* the seats' names, a JSON array; NULL when the statement leaves them out */
    const char *clock;      /* the turn clock's JSON; NULL for a game without one (or left out) */
    const char *bots;       /* the seats' bots, a JSON array (null for a person); NULL: a game without bots */
    int snapshot_seq;       /* the seq the snapshot is the state after (sql/017) */
    const char *tail;       /* the moves after it, [[seq, seat, move text], ...]; NULL: none, or left
                               out with the snapshot */
    const char *tail_seed;  /* hex, the seed their draws need; "" without a tail */
    struct pg_result *tail_res;   /* the lock reads': the statement that read the tail (game_reads.c) */
    struct pg_result *res;
} cd_game_read;
void cd_game_read_free(cd_game_read *g);

/* Who a seat token is. */
typedef struct {
    bool found;             /* a seat has this token */
    bool same_game;         /* that seat's game is the one asked about */
    int seat;
    bool bot;               /* a bot plays that seat (seats.bot): the token only reads */
    bool left_to_bot;       /* its player left it to that bot (seats.left_to_bot; ST_TOKEN_LOOKUP only) */
} cd_token_seat;

/* ST_GAME_GET (admin: ST_GAME_GET_ADMIN, the seed always). */
cd_q cd_game_read_get(cd_db *db, const char *id, bool admin, cd_game_read *out);
/* ST_GAME_LOCK, in a transaction: seq, status, snapshot, seed, clock, the row locked; pipelined behind it
 * ST_GAME_TAIL: the snapshot's seq and the moves after it. */
cd_q cd_game_read_lock(cd_db *db, const char *id, cd_game_read *out);
/* ST_GAME_GET_SEAT (names false: ST_GAME_GET_PLAY: seq, status, snapshot, seed_sha256, seed only): the seat of
 * token_hash, and game id when it is that seat's game; the snapshot is left out at cached_seq. */
cd_q cd_game_read_seat(cd_db *db, const char *token_hash, const char *id, const char *cached_seq, bool names,
                       cd_token_seat *token, cd_game_read *out);
/* ST_TOKEN_LOOKUP: the seat of token_hash; token->same_game tells whether it is a seat of game id. */
cd_q cd_token_lookup(cd_db *db, const char *token_hash, const char *id, cd_token_seat *token);

/* What a seat's move reads in its first round trip. */
typedef struct {
    cd_token_seat token;
    cd_game_read game;            /* the lock columns, the row locked (not found for another game's token) */
    int hooks;                    /* the game's enabled webhook endpoints */
    int linked;                   /* its seats linked to a player (player_events) */
    const char *stored_answer;    /* the answer stored for this seat's Idempotency-Key; NULL: none */
    const char *stored_request_sha256;   /* the hash of the request that answer was for; NULL: none, or
                                          * stored before 005_idempotency_request.sql */
    bool bot_seat;                /* a bot plays the token's seat (seats.bot, read under the lock): the token
                                   * moves no more */
    bool token_gone;              /* no seat has the token any more (read under the lock): it was renewed (or
                                   * its seat given up) while the move waited for the lock */
    int key_seq;                  /* the seq of the move this seat's Idempotency-Key made; -1: none. Since
                                     010_compact_log the answer is not stored (stored_answer NULL) but derived */
    struct pg_result *after;
} cd_move_lock_read;
/* ST_MOVE_LOCK + ST_MOVE_AFTER_LOCK pipelined, in a transaction: the token's seat and its game locked (the
 * snapshot left out at cached_seq), then, read under the lock, the webhook count and the key's answer
 * (idem NULL: none). CD_Q_FAILED when either failed (the transaction runner tells why). */
cd_q cd_move_lock(cd_db *db, const char *id, const char *token_hash, const char *cached_seq, const char *idem,
                  cd_move_lock_read *out);
void cd_move_lock_read_free(cd_move_lock_read *m);
/* Instead of cd_move_lock, for a move computed from the state cache without reading (handlers/moves_post.c):
 * queues ST_MOVE_FAST_LOCK and ST_MOVE_GUARD, which travel with the move's writes and COMMIT in one round trip.
 * The guard holds when, under the lock, the game is at seq, active and unclocked, the token is seat's (no bot
 * on it), the game has no enabled webhook endpoint, no seat linked to a player (only checked with no_linked:
 * the move wrote player events otherwise) and the key (idem, NULL: none) is unused by the seat; else the
 * transaction fails with CD_SQLSTATE_GUARD (db.h) and its writes are skipped. false: nothing could be sent. */
bool cd_move_guard_deferred(cd_db *db, const char *id, const char *token_hash, int seq, int seat, const char *idem,
                            bool no_linked);

#endif
