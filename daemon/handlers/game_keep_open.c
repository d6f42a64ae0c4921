/*
 * game_keep_open.c — POST /v1/games/{id}/keep-open with the creator token (or the admin's): a waiting game
 * that nobody joined for a while is not cancelled at its expires_at; it counts anew from now, as after a join
 * (CARCD_WAITING_TTL, game/lobby_expire.h), and seats already mailed the old date are told the new one. The
 * answer is the game's lobby view, with the new expires_at.
 */
#include "handlers.h"
#include "handlers/lobby.h"

enum MHD_Result h_game_keep_open(cd_req *r)
{
    return cd_lobby_creator_action(r, CD_CREATOR_KEEP_OPEN);
}
