/*
 * lobby.h — what the endpoints of games that wait for their seats share (games_create.c, join.c,
 * game_start.c, game_cancel.c, game_keep_open.c, lobby_list.c, rematch.c, game_get.c, invite_mail.c): storing a
 * waiting game, its public view, the creator's start, cancel and keep-open, the URLs of its invitations, and where
 * a player being invited is told to whoever listens (cd_lobby_on_invited). The join and the start that sets the
 * game up once its seats are known are below, in game/lobby_join.h and game/lobby_start.h: a reply mail joins
 * too.
 */
#ifndef CD_HANDLERS_LOBBY_H
#define CD_HANDLERS_LOBBY_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "db/db.h"
#include "db/lobby.h"
#include "game/lobby_join.h"
#include "game/lobby_start.h"
#include "http/http.h"
#include "request.h"   /* cd_refusal */

/* A waiting game to store (cd_lobby_store_waiting). */
typedef struct {
    int nseats;                       /* seats asked for, named and open */
    int nnamed;                       /* seats named now: they become seats 0..nnamed-1 */
    const char *names[CD_LOBBY_MAX_SEATS];
    const char *key_hash[CD_LOBBY_MAX_SEATS];   /* a named seat's player key hashed; NULL: none */
    const char *token_hash[CD_LOBBY_MAX_SEATS]; /* a named seat's token hashed */
    int nopen;                        /* places to join: nseats - nnamed */
    const char *code_hash[CD_LOBBY_MAX_SEATS];  /* by place: the invite code hashed; NULL: none (rematch) */
    int old_seat[CD_LOBBY_MAX_SEATS];           /* by place: the finished game's seat (rematch); -1: none */
    const char *email[CD_LOBBY_MAX_SEATS];      /* by place: the address its invitation is mailed to; NULL: none */
    const json_t *settings;           /* expansions, options, clock (as requested), emails of named seats */
    bool public_;
    const char *creator_hash;
    const char *rematch_of;           /* NULL: none */
    const char *seed_hex, *seed_sha;
    int bad_key;                      /* out: the named seat whose player key names nobody, -1 */
    char id[37];                      /* out */
} cd_waiting_new;
/* In a transaction: the games row (status waiting), its secret, the named seats, the settings and the
 * places. CD_TX_ROLLBACK with bad_key set for a player key nobody has. */
cd_tx_result cd_lobby_store_waiting(cd_db *db, cd_waiting_new *w);

/* The hook a rematch's offer calls, inside the transaction that makes it so: a player invited to a game (the
 * finished game's other seats: player_id, and old_seat, its seat there). It logs it and writes the player's
 * entry of GET /v1/me/events (db/player_events.h: invitation); CD_TX_ERROR when it could not be sent. A game
 * starting is told by game/lobby_start.h's cd_lobby_on_started. */
cd_tx_result cd_lobby_on_invited(cd_db *db, const char *game_id, const char *player_id, int old_seat);

/* GET /v1/games/{id} of a game that has not started (waiting or cancelled): its public view — status, seats
 * taken (names), open places and which seat each taken one became, settings, whether it is in the lobby. No
 * seed, no state: there is none yet. own (taken; NULL: none): a seat's own members, added to it ("you",
 * "mail": handlers/game_get.c). */
enum MHD_Result cd_lobby_reply_view(cd_req *r, cd_db *db, const char *id, json_t *own);

/* What this server lacks to mail an invitation (its link must work where the mail is read): "mail server,
 * CARCD_SMTP_URL" or "CARCD_PUBLIC_URL for links"; NULL when it can. */
const char *cd_lobby_mail_missing(const cd_req *r);

/* "expires_at" of a waiting game whose creation or latest join was at last_join_at (epoch s; -1: it no longer
 * waits): when the clock worker cancels it unless someone joins (game/lobby_expire.h), as an ISO string; null
 * when it does not wait or this server lets games wait for ever (CARCD_WAITING_TTL=0). */
json_t *cd_lobby_expires_at(const cd_req *r, double last_join_at);

/* The join URL of a waiting game's invite code ("" base: a path). */
void cd_lobby_join_url(const char *public_url, const char *id, const char *code, char *out, size_t n);

/* The game page's URL that lets a person join by the code: the code in the fragment (#invite=), which no request
 * line carries, so it stays out of access logs and Referer headers; the page posts it in a join's body. */
void cd_lobby_invite_page_url(const char *public_url, const char *id, const char *code, char *out, size_t n);

/* Whether the request acts as the creator of the game whose creator token hashes to creator_hash (a
 * cd_waiting_lock_row's, or cd_waiting_creator's): the admin token, or the creator token the creation (or the
 * rematch offer) answered, compared in constant time. */
bool cd_lobby_is_creator(const cd_req *r, const char *creator_hash);

/* True, with the refusal set (404 no such game: !found; 401 or 403 without the creator's or admin's token),
 * when the request may not act as the game's creator. */
bool cd_lobby_refuse_unless_creator(cd_refusal *no, const cd_req *r, bool found, const char *creator_hash);

/* What the creator of a waiting game asks for. */
typedef enum {
    CD_CREATOR_START,       /* cd_lobby_start with the seats taken so far */
    CD_CREATOR_CANCEL,      /* cd_lobby_cancel */
    CD_CREATOR_KEEP_OPEN,   /* cd_lobby_keep_open: its expiry counts anew from now (game/lobby_expire.h) */
} cd_creator_action;

/* POST /v1/games/{id}/start, /cancel and /keep-open share it: the creator's action on the waiting game, in one
 * transaction under the game row's lock; the answer is the game's view after it. */
enum MHD_Result cd_lobby_creator_action(cd_req *r, cd_creator_action what);

/* A new secret for a waiting game: "iv_..." invite codes, "ct_..." creator tokens (cd_token_new's shape). */
void cd_lobby_secret(const char *prefix, char out[47]);

#endif
