/*
 * game_start.c — POST /v1/games/{id}/start with the creator token (or the admin's): a waiting game starts
 * with the seats taken so far (at least 2); its open invitations lapse. The answer is the started game's
 * public view. lobby.h has the start itself.
 */
#include "handlers.h"
#include "handlers/lobby.h"

enum MHD_Result h_game_start(cd_req *r)
{
    return cd_lobby_creator_action(r, CD_CREATOR_START);
}
