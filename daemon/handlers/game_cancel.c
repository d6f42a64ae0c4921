/*
 * game_cancel.c — POST /v1/games/{id}/cancel with the creator token (or the admin's): a waiting game is
 * cancelled (status cancelled) and never starts; its seats' tokens read its lobby view and nothing else.
 */
#include "handlers.h"
#include "handlers/lobby.h"

enum MHD_Result h_game_cancel(cd_req *r)
{
    return cd_lobby_creator_action(r, CD_CREATOR_CANCEL);
}
