/*
 * messages_post.c — POST /v1/games/{id}/messages: a seat writes to the table. Body {"text": "..."} (what a
 * text may be: game/messages.h); the bearer is a seat token of the game. 201 with the message as readers get
 * it; 429 with Retry-After past the seat's rate limit. A message is never a move: the game's seq and ETag
 * stay as they are, and it may be written at any time, on the seat's turn or not, after the game ended too.
 */
#include <ctype.h>
#include <string.h>

#include "game/messages.h"
#include "handlers.h"
#include "base/timesrc.h"

enum MHD_Result h_messages_post(cd_req *r)
{
    if (!cd_uuid_valid(r->params[0]))   /* before its 37 bytes are copied below: a shorter id is no game */
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    static const char *const keys[] = {"text", NULL};
    if (!cd_req_only_keys(r, body, keys, "")) {
        json_decref(body);
        return MHD_YES;
    }
    json_t *text = json_object_get(body, "text");
    char why[160];
    if (!json_is_string(text)) {
        json_decref(body);
        return cd_reply_problem(r, CD_P_INVALID, "text", "text: expected a string of 1 to %d characters",
                                CD_MSG_MAX_CHARS);
    }
    /* jansson has already refused invalid UTF-8 and \u0000 (400 bad-json); the rest is ours */
    if (!cd_msg_text_ok(json_string_value(text), json_string_length(text), why, sizeof why)) {
        json_decref(body);
        return cd_reply_problem(r, CD_P_INVALID, "text", "%s", why);
    }
    json_t *msg = NULL;
    double retry_s = 0;
    bool down = false;
    char game_id[37], bearer_hash[CD_HEX256_LEN];
    for (int i = 0; i < 37; i++)
        game_id[i] = (char)tolower((unsigned char)r->params[0][i]);
    cd_req_bearer_hash(r, bearer_hash);
    cd_msg_post_result pr = CD_MSG_NO_SEAT;
    for (int tries = 0; tries < CD_SEAT_TRIES && pr == CD_MSG_NO_SEAT; tries++) {   /* request.h */
        cd_db *db;
        int seat = cd_req_seat(r, &db);
        if (seat < 0) {
            json_decref(body);
            return MHD_YES;
        }
        pr = cd_msg_post(db, game_id, seat, bearer_hash, json_string_value(text), "api", cd_wall_now(), &msg,
                         &retry_s, &down);
    }
    json_decref(body);
    switch (pr) {
    case CD_MSG_POSTED:
        return cd_reply_json(r, 201, msg, NULL);
    case CD_MSG_RATE_LIMITED:
        return cd_reply_too_many(r, CD_P_RATE_LIMITED, (int)(retry_s + 0.999),
                                 "a seat may post %d messages in %.0f seconds; try again in %.0f s", CD_MSG_RATE_MAX,
                                 CD_MSG_RATE_WINDOW_S, retry_s + 0.499);
    case CD_MSG_NO_SEAT:
        return cd_reply_seat_moved(r);
    default:
        return cd_reply_db_failure(r, down, "the message could not be stored");
    }
}
