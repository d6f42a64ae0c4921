/*
 * problem_pages.c — the texts of the problem type pages (problem_pages.h), one row per problem of problem.c.
 * A new problem needs its row here: tests/http/test_public_docs.c fails while any type carcd can emit has
 * no page.
 */
#include <string.h>

#include "problem_pages.h"

const cd_problem_page cd_problem_pages[CD_NPROBLEMS] = {
    [CD_P_BAD_JSON] = {
        "The request body is not valid JSON: it does not parse, is not UTF-8, or is not a JSON object where "
        "the endpoint takes one.",
        "Send a JSON object encoded as UTF-8 with Content-Type: application/json. The detail names where "
        "parsing stopped.",
    },
    [CD_P_INVALID] = {
        "The JSON is well formed but a field is wrong: missing, of the wrong type, out of range, or not one "
        "the endpoint knows. A query argument or header can be invalid the same way.",
        "Read the problem's field and detail: they name the offending input. Correct that field and send the "
        "request again; api-docs/openapi.json lists every field each endpoint takes.",
    },
    [CD_P_UNAUTHENTICATED] = {
        "The endpoint needs a bearer token and the request had none, or had one that belongs to nobody.",
        "Send Authorization: Bearer <token> with the seat token you were given when the game was created (or "
        "when you joined), or the admin token for admin endpoints.",
    },
    [CD_P_FORBIDDEN] = {
        "The token is valid but may not do this: it is a seat of another game, a seat token on an admin "
        "endpoint, or a seat acting for another seat.",
        "Use the token of the seat or game you mean, or the admin token where the endpoint is for admins.",
    },
    [CD_P_NOT_YOUR_TURN] = {
        "The game waits for another seat: only the seat named in the game's pending decision may move now.",
        "Wait for your turn: poll GET /v1/games/{id} with If-None-Match, long-poll or stream GET "
        "/v1/games/{id}/events, or register a webhook, then fetch the legal moves again.",
    },
    [CD_P_CHAT_CLOSED] = {
        "The game's messages are for its seats: the request read them without a seat token, and the game was "
        "not created with \"public_chat\": true. Spectators see the board, not the table talk.",
        "Read them with a seat token of the game (or the admin token), or create games whose table talk "
        "anyone may read with \"public_chat\": true.",
    },
    [CD_P_SEAT_REMOVED] = {
        "While the game waited for its players, the player who created it removed the seat this token held "
        "(POST /v1/games/{id}/seats/{seat}/remove). The seat is gone, and its token opens nothing of this game "
        "any more; its place is open again.",
        "If this was a mistake, ask the game's creator for a new invitation: a new link takes a seat again. "
        "The game's page without a token shows it as anyone sees it.",
    },
    [CD_P_SEAT_GIVEN_UP] = {
        "The seat this token held was given up before the game started: its player left the game (POST "
        "/v1/games/{id}/leave, or a reply \"leave\" to its mail). The seat is gone, and its token opens "
        "nothing of this game any more.",
        "To play after all, take an open place again (the invitation's link, or the lobby if the game is "
        "listed) while the game still waits for its players.",
    },
    [CD_P_NOT_FOUND] = {
        "There is nothing with that id or link: no game, or no webhook, delivery, message or seat of it, or no "
        "seat's mail or invitation with that link's tag. The detail says which.",
        "Check the id in the path: ids are given by POST /v1/games and never reused. A link from a mail may "
        "have been cut in two by the mail program: copy it whole.",
    },
    [CD_P_NO_ROUTE] = {
        "No endpoint has this path.",
        "Check the path against api-docs/openapi.json (also served at /v1/openapi.json): paths are case "
        "sensitive and take no trailing slash.",
    },
    [CD_P_METHOD] = {
        "The path exists but does not take this HTTP method.",
        "Use one of the methods in the answer's Allow header.",
    },
    [CD_P_STALE_SEQ] = {
        "The game has moved on: expected_seq (or If-Match) is not the game's current seq, so the move was "
        "made against a position that is no longer the game's.",
        "Fetch the game or its legal moves again, decide on the new position, and send the move with the "
        "new seq. Nothing was changed.",
    },
    [CD_P_PRECONDITION] = {
        "A move must say which position it was made against, and this one did not.",
        "Send expected_seq in the body (the seq of the legal moves you chose from), or an If-Match header "
        "with the game's ETag.",
    },
    [CD_P_TOO_LARGE] = {
        "The request body is over the server's size limit.",
        "Send a smaller body: no valid request comes near the limit.",
    },
    [CD_P_URI_TOO_LONG] = {
        "The request's URI (path and query) is longer than 2 048 bytes; no endpoint takes one that long.",
        "Check the path and query: ids are 36 characters and no argument needs more than a few.",
    },
    [CD_P_HEADERS_TOO_LARGE] = {
        "The request's header fields are larger than 4 096 bytes in all.",
        "Send fewer or shorter headers: carcd reads only the standard framing headers and Authorization, "
        "Accept, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, X-Carcd-Actor and User-Agent.",
    },
    [CD_P_UNSUPPORTED_TYPE] = {
        "The request body is not declared as JSON.",
        "Send the body with Content-Type: application/json.",
    },
    [CD_P_ILLEGAL_MOVE] = {
        "The move is well formed but against the rules now: the tile does not fit there, the part is taken or "
        "not on the piece just placed, or the decision pending is of another kind.",
        "Choose a move from GET /v1/games/{id}/legal-moves: every move listed there is accepted as it is. The "
        "detail says why this one was refused; the game is unchanged.",
    },
    [CD_P_GAME_OVER] = {
        "The game is finished: it takes no more moves or changes.",
        "Read the final scores in GET /v1/games/{id}; start a new game with POST /v1/games.",
    },
    [CD_P_WEBHOOK_DISABLED] = {
        "The webhook endpoint is disabled: its receiver answered 410 Gone, so carcd stopped delivering to it.",
        "Register the endpoint again (POST /v1/games/{id}/webhooks) once the receiver accepts deliveries.",
    },
    [CD_P_TOO_MANY_WEBHOOKS] = {
        "You already have as many webhook endpoints in this game as you may: a seat has four, the admin sixteen.",
        "Delete an endpoint you no longer need (DELETE /v1/games/{id}/webhooks/{wid}) and register again.",
    },
    [CD_P_NO_CLOCK] = {
        "The game has no turn clock, so there is nothing to pause, resume or take vacation from.",
        "Create the game with a clock (the clock member of POST /v1/games) to play with time limits.",
    },
    [CD_P_SEAT_LEFT] = {
        "The seat has left the game (it resigned or forfeited on time) and makes no more moves; or a bot plays "
        "it (its player left it to the bot in a game with bot_after_leave, or it was made for a bot), and its "
        "token and player key still read the seat's view but no longer move, pause, resign or talk for it.",
        "Nothing to do for that seat; the others play on. Follow the game with GET /v1/games/{id}.",
    },
    [CD_P_NO_VACATION] = {
        "The seat asked for more vacation days than its allowance has left.",
        "Ask for fewer days: the game view's clock shows each seat's days left.",
    },
    [CD_P_IDEMPOTENCY_REUSED] = {
        "This seat already used the Idempotency-Key with another request (another move, or another expected "
        "seq): the key's stored answer is not this request's, and the request was not applied.",
        "Send a new move with a new key. A key is for retrying one request, byte for byte the same in meaning; "
        "retrying with the same key and the same request gets its first answer again.",
    },
    [CD_P_NOT_STARTED] = {
        "The game was created with open seats and waits for players to take them (status waiting), or its "
        "creator cancelled it before it started (status cancelled). A game that has not started has no board, "
        "no clock, no legal moves and takes no moves.",
        "Wait for the open seats to be taken (GET /v1/games/{id} shows how many are open; long-poll GET "
        "/v1/games/{id}/events, whose first entry comes when the game starts), or, as its creator, start it "
        "with the seats taken so far: POST /v1/games/{id}/start with the creator token.",
    },
    [CD_P_NO_OPEN_SEAT] = {
        "The join found no open seat for it: another join took the last one first, the invite code was "
        "used already, or the game has started or was cancelled.",
        "Look for another game (GET /v1/lobby) or ask the game's creator for another invitation. A join that "
        "lost a race changed nothing.",
    },
    [CD_P_ALREADY_SEATED] = {
        "The player key (or, for a rematch, the seat) already holds a seat in this game; a player takes one "
        "seat per game.",
        "Play the seat you have: your player key acts for it (Authorization: Bearer pk_...), and POST "
        "/v1/games/{id}/seats/{seat}/token gives a new seat token if the old one is lost.",
    },
    [CD_P_SEAT_AMBIGUOUS] = {
        "The player key holds more than one seat of this game (seats linked to it with POST "
        "/v1/games/{id}/link), so it does not say which one the request acts for.",
        "Add ?seat=N to the request's URL naming the seat you act for, or use that seat's own token.",
    },
    [CD_P_NOT_WAITING] = {
        "Only a game that waits for its seats can be started, cancelled or kept open by its creator, or left by "
        "a seat, and this one no longer does: it has started (every seat was taken, or it was started before) "
        "or was cancelled.",
        "Read the game (GET /v1/games/{id}): its status says what it is now. Nothing was changed.",
    },
    [CD_P_TOO_FEW_SEATS] = {
        "A game starts with at least 2 seats taken; this one has fewer.",
        "Wait for another player to join, or cancel the game (POST /v1/games/{id}/cancel).",
    },
    [CD_P_NAMED_SEAT] = {
        "A seat can leave a game that waits for its seats only if it was taken by a join (an invitation, the "
        "lobby, a rematch). This seat was named by the game's creator when the game was created.",
        "Ask the game's creator: they can cancel the game (POST /v1/games/{id}/cancel) and create it again "
        "without you. Nothing was changed.",
    },
    [CD_P_SEAT_MOVED] = {
        "While a game waits for its players, a seat's number moves down by one when a seat taken before it is "
        "given up. Your request was written by your seat's number, and that number changed under it several "
        "times in a row.",
        "Send the request again: it looks your seat up anew. Nothing was written.",
    },
    [CD_P_SEAT_CHANGED] = {
        "While a game waits for its players, a seat's number moves down by one when a seat taken before it is "
        "given up or removed. The request named a seat and, with \"place\", the invitation whose player it "
        "meant; that seat is now another player's (or nobody's).",
        "Read the game again (GET /v1/games/{id}: places[i].seat is the seat that took place i) and send the "
        "request for the seat it names now. Nothing was changed.",
    },
    [CD_P_NOT_FINISHED] = {
        "A rematch is offered for a game that is over, and this one is not.",
        "Finish the game first; then POST /v1/games/{id}/rematch offers its seats a new game.",
    },
    [CD_P_REMATCH_OFFERED] = {
        "Another seat of this game has already offered a rematch; a game has at most one.",
        "Accept it: POST /v1/games/{id}/rematch/accept with your seat's token or player key answers the new "
        "game's id and your seat's token there.",
    },
    [CD_P_RATE_LIMITED] = {
        "The request's client address, or its key (seat token or player key), made more requests of this kind "
        "(creating games, moves, joins, creations that mail invitations) than this server allows for now: each "
        "has a bucket of requests that refills at a steady rate (CARCD_RATE_CREATE, CARCD_RATE_MOVES, "
        "CARCD_RATE_JOINS, CARCD_RATE_INVITE_MAILS). Or a seat posted more than a few messages a minute to its "
        "game (POST /v1/games/{id}/messages): then Retry-After says in how many seconds the oldest of them leaves "
        "the window.",
        "Wait the Retry-After header's seconds, then send the request again; nothing was done. A bot that plays "
        "fast should pace its requests below the server's rate.",
    },
    [CD_P_GAME_CANCELLED] = {
        "The server's admin cancelled the game: it ended with no winner and takes no more moves or changes.",
        "Nothing to do in this game; its view and log stay readable. Start a new game with POST /v1/games.",
    },
    [CD_P_UNAVAILABLE] = {
        "carcd cannot serve the request now: its database is unreachable, restarting, read-only or out of "
        "disk, or carcd is shutting down.",
        "Try again later (after the Retry-After header's seconds when there is one). A move that got this "
        "answer may or may not have been stored: send it again with the same Idempotency-Key, or fetch the "
        "game to see.",
    },
    [CD_P_INTERNAL] = {
        "Something went wrong inside carcd: a bug, not something the request did. The details are in the "
        "server's log, never in the answer.",
        "Try again; if it keeps happening, tell the operator the time, the method and the path of the "
        "request.",
    },
};

int cd_problem_by_slug(const char *slug)
{
    for (int p = 0; slug && p < CD_NPROBLEMS; p++)
        if (cd_problems[p].slug && strcmp(cd_problems[p].slug, slug) == 0)
            return p;
    return -1;
}
