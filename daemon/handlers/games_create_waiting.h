/*
 * games_create_waiting.h — POST /v1/games for a game with open seats (games_create_waiting.c), called by
 * games_create.c once it has parsed the request.
 */
#ifndef CD_HANDLERS_GAMES_CREATE_WAITING_H
#define CD_HANDLERS_GAMES_CREATE_WAITING_H

#include "games_create_request.h"

/* A game with open seats (t->nopen > 0): stored waiting with its places, the invitations carcd mails written
 * with it, and the 201 answer with the invite codes and the creator token (lobby.h). tokens: the named
 * seats' tokens, their hashes in t. */
enum MHD_Result cd_create_waiting(cd_req *r, const create_tx *t, const carc_setup *s, json_t *body,
                                  const char *seed_hex, const char *seed_sha, char tokens[][CD_TOKEN_LEN + 1]);

#endif
