/*
 * lobby.h — the rows behind games that wait for their seats (sql/008_lobby.sql): a player key resolved to the
 * seats it holds in a game, a seat's token renewed, the waiting game's settings and its open places
 * (invitations, the lobby, rematches), the start that turns it into an active game, and the lobby's list.
 * handlers/lobby.c is the one user, apart from handlers/request.c (which seat a key acts for).
 */
#ifndef CD_DB_LOBBY_H
#define CD_DB_LOBBY_H

#include <stdbool.h>

#include "base/ids.h"   /* CD_NAME_BYTES */
#include "db.h"
#include "mail_seats.h"   /* CD_EMAIL_MAX */

struct pg_result;

#define CD_LOBBY_MAX_SEATS 6   /* CARC_MAX_PLAYERS: the most seats a game has */

/* ST_KEY_SEATS: the seats of game_id linked to the player of key_hash (seat >= 0: only that one). */
typedef struct {
    bool key_known;                 /* a player has this key */
    int n;                          /* seats of the game linked to it */
    int seat[CD_LOBBY_MAX_SEATS];
    char token_hash[CD_LOBBY_MAX_SEATS][65];
} cd_key_seats;
cd_q cd_key_seats_get(cd_db *db, const char *key_hash, const char *game_id, int seat, cd_key_seats *out);

/* ST_SEAT_TOKEN_RENEW: the seat's token hash replaced by new_hash when the seat is linked to key_hash;
 * *renewed tells whether it was. */
cd_q cd_seat_token_renew(cd_db *db, const char *game_id, int seat, const char *key_hash, const char *new_hash,
                         bool *renewed);

/* ST_WAITING_INSERT and ST_INVITE_INSERT: a new waiting game's settings (JSON text), created at now (carcd's
 * clock, from which its expiry counts: sql/024), and one of its places (email: the address carcd mailed its
 * invitation to; NULL: none, sql/019). */
cd_q cd_waiting_insert(cd_db *db, const char *game_id, const char *settings, int nseats, bool public_,
                       const char *creator_hash, const char *rematch_of, double now);
cd_q cd_invite_insert(cd_db *db, const char *game_id, int place, const char *code_hash, int old_seat,
                      const char *email);

/* Who cancelled a game while it waited for its seats (game/lobby_cancel.h), as its mail and webhooks say. */
typedef enum {
    CD_CANCEL_BY_CREATOR,   /* POST /v1/games/{id}/cancel with the creator token */
    CD_CANCEL_BY_ADMIN,     /* the server's admin (that route or POST /v1/admin/games/{id}/cancel) */
    CD_CANCEL_BY_EXPIRY,    /* carcd: nobody joined it for CARCD_WAITING_TTL (game/lobby_expire.h) */
} cd_cancel_by;

/* ST_WAITING_LOCK then ST_WAITING_READ, in a transaction and one round trip: the game row locked, then what a
 * join, a start or a cancel reads, as the last transaction that held the lock left it. */
typedef struct {
    bool found;                /* the game exists */
    const char *status;        /* waiting, active, finished, cancelled */
    bool waiting_row;          /* it was created waiting (it has settings) */
    bool public_;
    int nseats;                /* seats asked for */
    const char *creator_hash;  /* "" when none */
    const char *settings;      /* JSON text, "{}" when none */
    const char *rematch_of;    /* NULL when none */
    const char *seed;          /* hex */
    int taken;                 /* seats taken */
    const char *cancelled_by;  /* cancelled before its start: "creator", "admin", "expiry" (sql/024); NULL */
    double last_join_at;       /* epoch s: its creation or latest join while it waits (sql/024); -1: none */
    bool expiry_warned;        /* its seats were told that its expiry comes (sql/026) */
    struct pg_result *res;
} cd_waiting_lock_row;
cd_q cd_waiting_lock(cd_db *db, const char *game_id, cd_waiting_lock_row *out);
void cd_waiting_lock_row_free(cd_waiting_lock_row *w);

/* ST_INVITES: every place of the game, open or taken, by place. */
typedef struct {
    int place;
    bool has_code;
    char code_hash[65];
    int old_seat;   /* -1: not a rematch's place */
    int seat;       /* -1: open */
    char email[CD_EMAIL_MAX + 1];   /* the address carcd mailed the invitation to; "": none (sql/019) */
    char displaced[CD_EMAIL_MAX + 1];   /* that address, once a join from the lobby took the place (sql/022) */
    int by_code;    /* a taken place: 1 taken with its code (or a reply to its mail, or a rematch's acceptance),
                       0 from the lobby, -1 not known (taken before sql/030) */
} cd_invite;
cd_q cd_invites_get(cd_db *db, const char *game_id, cd_invite out[CD_LOBBY_MAX_SEATS], int *n);
/* ST_INVITE_TAKE: place became seat, taken with its code (by_code: the code, a reply to its mailed invitation,
 * a rematch's acceptance) or from the lobby. */
cd_q cd_invite_take(cd_db *db, const char *game_id, int place, int seat, bool by_code);
/* ST_INVITE_EMAIL: the address carcd mailed the place's invitation to (the last one, when mailed again). */
cd_q cd_invite_email_set(cd_db *db, const char *game_id, int place, const char *email);
/* ST_INVITE_DISPLACE: a join from the lobby took the place: its invitation's address moves to email_displaced
 * (sql/022), which only answers that address's replies. */
cd_q cd_invite_displace(cd_db *db, const char *game_id, int place);
/* ST_INVITE_REPLY_TAG: the tag of the reply address of the place's mailed invitation (sql/021). */
cd_q cd_invite_reply_tag_set(cd_db *db, const char *game_id, int place, const char *tag);
/* ST_WAITING_CREATOR: the creator token's hash of a game created waiting ("" when it has none, a rematch
 * offered by nobody); *found false for a game created with every seat named, or none. No lock: for reads. */
cd_q cd_waiting_creator(cd_db *db, const char *game_id, bool *found, char creator_hash[65]);
/* ST_INVITE_BY_TAG: the place a reply tag belongs to; *found false when none. */
cd_q cd_invite_by_tag(cd_db *db, const char *tag, bool *found, char game_id[37], int *place);

/* ST_WAITING_SEATS: the seats taken so far, by seat. */
typedef struct {
    int seat;
    char name[CD_NAME_BYTES + 1];
    char player_id[37];   /* "" when the seat is linked to no player */
    char bot[256];        /* the seat's bot JSON (seats.bot); "" for a person */
    bool left_to_bot;     /* its player left it to the bot (sql/014) */
} cd_waiting_seat;
cd_q cd_waiting_seats(cd_db *db, const char *game_id, cd_waiting_seat out[CD_LOBBY_MAX_SEATS], int *n);

/* ST_GAME_START: the waiting game becomes active (or finished, if its set-up ended it). */
typedef struct {
    const char *setup, *snapshot;   /* JSON text */
    bool finished;
    int pending_seat;
    const char *clock;              /* NULL: none */
    double deadline, due;           /* epoch seconds; < 0: none */
} cd_game_start_row;
cd_q cd_game_start_store(cd_db *db, const char *game_id, const cd_game_start_row *g);
/* ST_GAME_CANCEL: a waiting game cancelled, by `by` (its cancelled_by, sql/024). */
cd_q cd_game_cancel_store(cd_db *db, const char *game_id, cd_cancel_by by);
/* The name cancelled_by stores for by: "creator", "admin", "expiry". */
const char *cd_cancel_by_name(cd_cancel_by by);

/* ST_LOBBY_LIST: public waiting games with open places, oldest first. expansions: a JSON array the game's
 * must contain ("[]": the base game only), NULL: any; nseats <= 0: any; clock: "true"/"false"/NULL. */
typedef struct {
    const char *id;
    int nseats, taken;
    const char *settings;   /* JSON text */
    const char *created_at;
    const char *names;      /* JSON array of the seats taken */
    double last_join_at;    /* epoch s, carcd's clock: its creation or latest join (sql/024); -1: none */
} cd_lobby_row;
typedef struct {
    int n;
    cd_lobby_row *v;
    struct pg_result *res;
} cd_lobby_rows;
cd_q cd_lobby_list(cd_db *db, const char *expansions, int nseats, const char *clock, long limit, cd_lobby_rows *out);
void cd_lobby_rows_free(cd_lobby_rows *rows);

/* ST_WAITING_VIEW: a waiting (or cancelled) game as anyone may see it. */
typedef struct {
    bool found;
    const char *status;
    int nseats, open;
    bool public_;
    const char *settings, *rematch_of, *seed_sha256, *created_at, *updated_at, *names;
    double last_join_at;    /* epoch s: its creation or latest join while it waits (sql/024); -1: not waiting */
    const char *cancelled_by;   /* as cd_waiting_lock_row's */
    struct pg_result *res;
} cd_waiting_view_row;
cd_q cd_waiting_view(cd_db *db, const char *game_id, cd_waiting_view_row *out);
void cd_waiting_view_row_free(cd_waiting_view_row *w);

/* ST_WAITING_COUNT_ANEW: the waiting game's expiry counts from now (carcd's clock, sql/024), and its seats
 * are told again when it comes (sql/026): a join took a seat, or its creator keeps it open. *stored (NULL: not
 * wanted): now as the row keeps it (to the millisecond), from which its view's expires_at is reckoned; -1 when
 * the game no longer counts. */
cd_q cd_waiting_count_anew(cd_db *db, const char *game_id, double now, double *stored);
/* ST_WAITING_EXPIRED: the waiting games whose creation or latest join came before `before` (epoch s) and whose
 * seats were told so (expiry_warned), oldest first, at most max: ids[0..*n). Not locked: each is checked again
 * under its lock (cd_waiting_lock's last_join_at and expiry_warned). */
cd_q cd_waiting_expired(cd_db *db, double before, int max, char (*ids)[37], int *n);
/* ST_WAITING_TO_WARN: as cd_waiting_expired, for the games whose seats were not yet told that it comes
 * (expiry_warned, sql/024). */
cd_q cd_waiting_to_warn(cd_db *db, double before, int max, char (*ids)[37], int *n);
/* ST_WAITING_WARNED, under the game row's lock: marks the game told, when it still waits unjoined since before
 * and was not told yet. A game counted from before late_before (its warning comes late: carcd was stopped, or
 * the warning kept failing) is counted anew from late_to, so that its seats get their notice. *counted_from:
 * what it is counted from now (epoch s), or -1 when it was not marked (a join or another carcd came first). */
cd_q cd_waiting_warned(cd_db *db, const char *game_id, double before, double late_before, double late_to,
                       double *counted_from);
/* ST_WAITING_ENDED: the game no longer waits; its expiry stops counting (a start or cancel does this in its
 * own statement; this is for a row that a path of an older carcd left counting). */
cd_q cd_waiting_ended(cd_db *db, const char *game_id);

/* ST_REMATCH_OF: the game offered as the rematch of old_id; *found false when none. */
cd_q cd_rematch_of(cd_db *db, const char *old_id, bool *found, char id[37]);

/* ST_SEAT_INSERT_PLAYER: a seat linked to a player by id ("" or NULL: none), as a rematch copies it. */
cd_q cd_seat_insert_player(cd_db *db, const char *game_id, int seat, const char *name, const char *token_hash,
                           const char *player_id);

/* ST_SEAT_LEAVE, under the waiting game's lock (cd_waiting_lock): seat leaves (removed: its creator removed it);
 * the seats after it, and all that is kept by their numbers, move down one; its place opens again
 * (carcd_seat_leave, sql/029); its token's hash is remembered with how it went (carcd_seat_gone, sql/032). */
cd_q cd_seat_leave(cd_db *db, const char *game_id, int seat, bool removed);
/* What a token that holds no seat of a game was to it: nothing, a seat given up before the start (its player
 * left, or the creator removed it), or the game's creator token, which manages a waiting game but plays no seat. */
typedef enum { CD_TOKEN_UNKNOWN, CD_TOKEN_SEAT_LEFT, CD_TOKEN_SEAT_REMOVED, CD_TOKEN_CREATOR } cd_token_was;
/* ST_TOKEN_WAS: what token_hash was to game_id (sql/032's seats_gone, sql/008's creator_hash). */
cd_q cd_token_was_of(cd_db *db, const char *token_hash, const char *game_id, cd_token_was *was);

/* ST_SEAT_REMOVAL_ADD: the game's creator removed the seat of player_id (sql/030); cd_key_removed then says so
 * of the player's key, which the lobby refuses a seat of this game again. */
cd_q cd_seat_removal_add(cd_db *db, const char *game_id, const char *player_id);
cd_q cd_key_removed(cd_db *db, const char *game_id, const char *key_hash, bool *removed);
/* ST_INVITE_RENEW: the place opens again to a new code (hashed), with no mailed address or reply tag: the code,
 * address and tag it had went to the person just removed from it. */
cd_q cd_invite_renew(cd_db *db, const char *game_id, int place, const char *code_hash);

#endif
