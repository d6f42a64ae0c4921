/*
 * problem.c — the problem registry: for every cd_problem its stable type, HTTP status and title.
 *
 * The slug is part of the API (clients match on "/problems/<slug>"); never rename one. The designated
 * initialisers and the check in tests/http keep this table complete when problem.h grows.
 */
#include "problem.h"

const cd_problem_info cd_problems[CD_NPROBLEMS] = {
    [CD_P_BAD_JSON] = {"bad-json", 400, "The request body is not valid JSON"},
    [CD_P_INVALID] = {"invalid", 400, "A field of the request is invalid"},
    [CD_P_UNAUTHENTICATED] = {"unauthenticated", 401, "A valid bearer token is needed"},
    [CD_P_FORBIDDEN] = {"forbidden", 403, "This token may not do that"},
    [CD_P_NOT_YOUR_TURN] = {"not-your-turn", 403, "The game waits for another seat"},
    [CD_P_NOT_FOUND] = {"not-found", 404, "Not found"},
    [CD_P_NO_ROUTE] = {"no-route", 404, "No such path"},
    [CD_P_METHOD] = {"method-not-allowed", 405, "The path does not take this method"},
    [CD_P_STALE_SEQ] = {"stale-seq", 409, "The game has moved on since expected_seq"},
    [CD_P_PRECONDITION] = {"precondition-required", 428, "expected_seq or If-Match is needed"},
    [CD_P_TOO_LARGE] = {"too-large", 413, "The request body is over the limit"},
    [CD_P_URI_TOO_LONG] = {"uri-too-long", 414, "The URI is over the limit"},
    [CD_P_HEADERS_TOO_LARGE] = {"headers-too-large", 431, "The request's header fields are over the limit"},
    [CD_P_UNSUPPORTED_TYPE] = {"unsupported-media-type", 415, "The request body must be application/json"},
    [CD_P_ILLEGAL_MOVE] = {"illegal-move", 422, "The move is against the rules now"},
    [CD_P_GAME_OVER] = {"game-over", 409, "The game is finished"},
    [CD_P_WEBHOOK_DISABLED] = {"webhook-disabled", 409, "The webhook endpoint is disabled"},
    [CD_P_TOO_MANY_WEBHOOKS] = {"too-many-webhooks", 409, "As many webhook endpoints in the game as one may have"},
    [CD_P_NO_CLOCK] = {"no-clock", 409, "The game has no turn clock"},
    [CD_P_SEAT_LEFT] = {"seat-left", 409, "The seat has left the game"},
    [CD_P_NO_VACATION] = {"vacation-allowance", 422, "Not that many vacation days left"},
    [CD_P_IDEMPOTENCY_REUSED] = {"idempotency-key-reused", 422, "The Idempotency-Key was used with another request"},
    [CD_P_NOT_STARTED] = {"not-started", 409, "The game has not started"},
    [CD_P_NO_OPEN_SEAT] = {"no-open-seat", 409, "The game has no open seat for this join"},
    [CD_P_ALREADY_SEATED] = {"already-seated", 409, "The player already has a seat in this game"},
    [CD_P_SEAT_AMBIGUOUS] = {"seat-ambiguous", 409, "The player key holds several seats of this game"},
    [CD_P_NOT_WAITING] = {"not-waiting", 409, "The game no longer waits for its seats"},
    [CD_P_TOO_FEW_SEATS] = {"too-few-seats", 409, "Too few seats are taken to start the game"},
    [CD_P_NAMED_SEAT] = {"named-seat", 409, "A seat named at the game's creation cannot leave before it starts"},
    [CD_P_SEAT_MOVED] = {"seat-moved", 409, "The seat's number changed while the request ran"},
    [CD_P_SEAT_CHANGED] = {"seat-changed", 409, "The seat is no longer the player the request named"},
    [CD_P_NOT_FINISHED] = {"not-finished", 409, "The game is not over"},
    [CD_P_REMATCH_OFFERED] = {"rematch-offered", 409, "A rematch of this game is already on offer"},
    [CD_P_RATE_LIMITED] = {"rate-limited", 429, "Too many requests: wait and try again"},
    [CD_P_GAME_CANCELLED] = {"game-cancelled", 409, "The game was cancelled"},
    [CD_P_CHAT_CLOSED] = {"chat-closed", 403, "The game's messages are for its seats"},
    [CD_P_SEAT_REMOVED] = {"seat-removed", 403, "The game's creator removed this seat before the game started"},
    [CD_P_SEAT_GIVEN_UP] = {"seat-given-up", 403, "This seat was given up before the game started"},
    [CD_P_UNAVAILABLE] = {"unavailable", 503, "The service is unavailable, try again later"},
    [CD_P_INTERNAL] = {"internal", 500, "Internal error"},
};
