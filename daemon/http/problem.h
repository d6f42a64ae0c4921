/*
 * problem.h — the registry of every error carcd answers, as RFC 9457 application/problem+json.
 * One row per error: a stable type (the URI path "/problems/<slug>"), its HTTP status and title; the page
 * that type resolves to (GET /problems/<slug>) is its row in problem_pages.c. Handlers
 * name a row and add the detail and, where one is to blame, the offending field.
 */
#ifndef CD_PROBLEM_H
#define CD_PROBLEM_H

typedef enum {
    CD_P_BAD_JSON,          /* 400 malformed JSON */
    CD_P_INVALID,           /* 400 well-formed but a field is wrong: type, range, unknown field */
    CD_P_UNAUTHENTICATED,   /* 401 no token, or a token nobody has */
    CD_P_FORBIDDEN,         /* 403 a valid token that may not do this (other game, not admin) */
    CD_P_NOT_YOUR_TURN,     /* 403 the game waits for another seat */
    CD_P_NOT_FOUND,         /* 404 no such game */
    CD_P_NO_ROUTE,          /* 404 no such path */
    CD_P_METHOD,            /* 405 path exists, method does not */
    CD_P_STALE_SEQ,         /* 409 expected_seq is not the game's seq */
    CD_P_PRECONDITION,      /* 428 no expected_seq and no If-Match */
    CD_P_TOO_LARGE,         /* 413 body over the limit */
    CD_P_URI_TOO_LONG,      /* 414 the URI is over CD_URI_MAX */
    CD_P_HEADERS_TOO_LARGE, /* 431 the header fields are over CD_HEADERS_MAX */
    CD_P_UNSUPPORTED_TYPE,  /* 415 body is not application/json */
    CD_P_ILLEGAL_MOVE,      /* 422 against the rules now */
    CD_P_GAME_OVER,         /* 409 the game is finished */
    CD_P_WEBHOOK_DISABLED,  /* 409 the webhook endpoint was disabled (its receiver answered 410) */
    CD_P_TOO_MANY_WEBHOOKS, /* 409 the game has as many webhook endpoints as it may */
    CD_P_NO_CLOCK,          /* 409 the game has no turn clock to pause, resume or take vacation from */
    CD_P_SEAT_LEFT,         /* 409 the seat left the game (resigned or forfeited) */
    CD_P_NO_VACATION,       /* 422 more vacation days than the seat's allowance has left */
    CD_P_IDEMPOTENCY_REUSED, /* 422 an Idempotency-Key this seat used with another request */
    CD_P_NOT_STARTED,       /* 409 the game waits for its seats (or was cancelled before it started) */
    CD_P_NO_OPEN_SEAT,      /* 409 a join found no open seat: taken by another join, started, cancelled */
    CD_P_ALREADY_SEATED,    /* 409 the player (or seat) already has a seat in that game */
    CD_P_SEAT_AMBIGUOUS,    /* 409 the player key holds several seats of the game and the request named none */
    CD_P_NOT_WAITING,       /* 409 start or cancel of a game that no longer waits for its seats */
    CD_P_TOO_FEW_SEATS,     /* 409 a start with fewer than 2 seats taken */
    CD_P_NAMED_SEAT,        /* 409 a leave by a seat named at the waiting game's creation */
    CD_P_SEAT_MOVED,        /* 409 the bearer's seat number kept changing under a write (seats left meanwhile) */
    CD_P_SEAT_CHANGED,      /* 409 a removal named with "place" a player the seat no longer is (seats renumbered) */
    CD_P_NOT_FINISHED,      /* 409 a rematch of a game that is not over */
    CD_P_REMATCH_OFFERED,   /* 409 the game already has a rematch on offer */
    CD_P_RATE_LIMITED,      /* 429 the client address or key used up its rate limit (Retry-After says when) */
    CD_P_GAME_CANCELLED,    /* 409 the admin cancelled the game */
    CD_P_CHAT_CLOSED,       /* 403 the game's messages are for its seats (it was not created with public_chat) */
    CD_P_SEAT_REMOVED,      /* 403 the token's seat was removed by the game's creator before the start (sql/032) */
    CD_P_SEAT_GIVEN_UP,     /* 403 the token's seat was given up by its player before the start (sql/032) */
    CD_P_UNAVAILABLE,       /* 503 the database cannot be reached */
    CD_P_INTERNAL,          /* 500 a bug; details go to the log, never to the client */
    CD_NPROBLEMS
} cd_problem;

typedef struct {
    const char *slug;   /* "/problems/<slug>" */
    int status;
    const char *title;
} cd_problem_info;

extern const cd_problem_info cd_problems[CD_NPROBLEMS];

#endif
