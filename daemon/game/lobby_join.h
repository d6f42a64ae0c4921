/*
 * lobby_join.h — a seat of a waiting game taken: by an invite code (the join URL, the page), from the public
 * lobby with a player key, or by a reply to an invitation carcd mailed (mailin/join_by_mail.c). Below the HTTP
 * handlers and the mail-in, which both join; each says a refusal in its own words (a problem, a mail).
 *
 * Joins of one game are serialised by the lock on its row, taken first; what they read after it (the seats,
 * the places) is what the previous holder committed. Of two joins racing for the last seat one takes it and
 * starts the game (lobby_start.h), the other finds it started and is refused, nothing changed.
 *
 * A place whose invitation carcd mailed (sql/019) gives the seat joined with its code, or by a reply to it,
 * that address: from the join on it hears who joins next and of a cancel (mail/waiting.h), and the game's mail
 * from its start. A join from the lobby takes such a place only when no other is open, and never its address.
 */
#ifndef CD_GAME_LOBBY_JOIN_H
#define CD_GAME_LOBBY_JOIN_H

#include <stdbool.h>

#include "db/db.h"
#include "db/lobby.h"

/* Why a join was refused; each caller words it (handlers/join.c: a problem type and field). */
typedef enum {
    CD_JOIN_OK,
    CD_JOIN_NO_GAME,          /* no game with that id */
    CD_JOIN_NOT_WAITING,      /* it started, finished or was cancelled: detail says which */
    CD_JOIN_UNKNOWN_KEY,      /* the player key names no player */
    CD_JOIN_ALREADY_SEATED,   /* the player key holds a seat of the game already */
    CD_JOIN_BAD_CODE,         /* not an invite code of this game */
    CD_JOIN_PLACE_TAKEN,      /* the code's (or the mailed invitation's) place was taken */
    CD_JOIN_NOT_INVITEE,      /* a reply from another address than the one the invitation was mailed to */
    CD_JOIN_NOT_PUBLIC,       /* no code, and the game is not in the lobby */
    CD_JOIN_NEEDS_KEY,        /* no code, and no player key for a lobby join */
    CD_JOIN_REMOVED,          /* no code, and the game's creator removed the key's player from it (sql/030) */
    CD_JOIN_FULL,             /* no open place left */
    CD_JOIN_SETUP_REFUSED,    /* the last seat taken, the engine refused the stored set-up: a bug */
} cd_join_refusal;

typedef struct {
    const char *id, *name;
    const char *code_hash;    /* the invite code hashed; NULL: none */
    int place;                /* >= 0: the place whose mailed invitation `from` answered; -1: by code or lobby */
    const char *from;         /* with place: the reply's sender, which must be the address the place was mailed */
    const char *key_hash;     /* the player key hashed; NULL: none */
    const char *token_hash;   /* the new seat's token hashed */
    const char *token;        /* with place: the token itself, for the seat's first mail's private link */
    /* out */
    cd_join_refusal why;
    char detail[200];         /* with a refusal: what was wrong, for a person */
    int seat;
    bool started;             /* the join took the last open seat: the game started */
    char email[CD_EMAIL_MAX + 1];   /* the address the place's invitation went to: the seat's from the start */
} cd_join;

/* In a transaction: takes a seat as j asks. CD_TX_COMMIT with j's out fields; CD_TX_ROLLBACK with why and
 * detail; CD_TX_ERROR when a statement failed. */
cd_tx_result cd_lobby_join(cd_db *db, cd_join *j);

/* In the transaction of a join that leaves the game waiting (seat taken, `taken` of `total` seats now): what
 * every join of a waiting game does besides taking its seat, a rematch's acceptance too. Its expiry counts
 * from now, and the others hear who came: player_joined in their players' events, game.player_joined to the
 * game's endpoints, a mail to the seats with an address. */
cd_tx_result cd_lobby_joined(cd_db *db, const char *id, int seat, int taken, int total);

/* The place whose invite code hashes to code_hash, comparing it with every place's in constant time; -1: none. */
int cd_lobby_place_of_code(const cd_invite *inv, int n, const char *code_hash);

#endif
