/*
 * webhooks.h — webhook endpoints: the process's webhook settings, what an endpoint is (URL, format, event
 * types), its secret and the Standard Webhooks signature, and the endpoints players ask for when a game is
 * created (`players[].webhook`).
 *
 * The whole feature, by file:
 *   netguard.c           which addresses deliveries may reach (checked after DNS resolution)
 *   webhooks.c           this header: settings, endpoint specs, secrets, signatures
 *   whpayload.c          the bodies: json (structured), discord and slack (ready-to-post text)
 *   outbox.c             the rows written inside a move's (or a game's creation's) transaction
 *   deliver.c            the delivery worker: claims due rows with a lease, sends them with libcurl multi
 *   handlers/webhooks.c, handlers/webhook_deliveries.c   the endpoints of the API (handlers/webhooks.h: the
 *                        caller check and endpoint loading they share)
 *
 * Events. `turn.started` whenever the game starts waiting for a decision (every move that does not end the
 * game starts one, and game creation starts the first), `move.made` after every move, `game.finished`
 * once, `turn.reminder` when a seat has used its clock's remind_at share (once per turn). An endpoint made with the admin token receives them for the whole game; one made with a seat token
 * (or in players[].webhook) is that seat's: it receives turn.started and turn.reminder only when that seat must act, and
 * move.made and game.finished (public facts every player is concerned by) if it asked for them.
 * `message.posted` when a seat writes to the table (POST .../messages): a seat's endpoint gets it if it asked
 * for it, never for its own seat's messages nor for a seat it muted; the admin's gets every message. It is
 * not among a player's default events (a chat channel that gets the table talk asks for it). While a game waits
 * for its seats, `player.joined` when a join leaves seats open, and `game.expiring` when nobody has joined it
 * for so long that carcd will cancel it soon (CARCD_WAITING_TTL), then `game.kept_open` if its creator keeps it
 * open after all: every endpoint of the game that asked.
 * Payloads carry public information only (CARC_VIEW_PUBLIC), the seed only once the game is over.
 */
#ifndef CD_WEBHOOKS_H
#define CD_WEBHOOKS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "carc.h"
#include "base/config.h"
#include "netguard.h"

typedef enum {
    CD_WH_TURN_STARTED = 1,
    CD_WH_MOVE_MADE = 2,
    CD_WH_GAME_FINISHED = 4,
    CD_WH_TURN_REMINDER = 8,   /* the seat has used remind_at of its time (clock.h); games with a clock only */
    CD_WH_MESSAGE_POSTED = 16, /* a seat wrote to the table (game/messages.h) */
    CD_WH_PLAYER_JOINED = 32,  /* a join took a seat of a game that still waits for others (game/lobby_join.h) */
    CD_WH_GAME_EXPIRING = 64,  /* a waiting game that nobody joins will be cancelled soon (game/lobby_expire.h) */
    CD_WH_GAME_KEPT_OPEN = 128, /* after game.expiring, its creator kept it open: the date moved (lobby_expire.h) */
    CD_WH_PLAYER_LEFT = 256,   /* a seat that a join took was given up before the start (game/lobby_leave.h) */
} cd_wh_event;
#define CD_WH_ALL_EVENTS 511u
/* players[].webhook without "events": what a player's chat needs to know */
#define CD_WH_PLAYER_EVENTS                                                                                      \
    (CD_WH_TURN_STARTED | CD_WH_GAME_FINISHED | CD_WH_TURN_REMINDER | CD_WH_PLAYER_JOINED | CD_WH_GAME_EXPIRING | \
     CD_WH_GAME_KEPT_OPEN | CD_WH_PLAYER_LEFT)
#define CD_WH_NEVENTS 9

/* "turn.started", ... for one bit; NULL for anything else. */
const char *cd_wh_event_name(unsigned ev);
/* The bit of a name, or 0. */
unsigned cd_wh_event_parse(const char *name);

typedef enum { CD_WH_JSON, CD_WH_DISCORD, CD_WH_SLACK, CD_WH_NFORMATS } cd_wh_format;
const char *cd_wh_format_name(int f);
int cd_wh_format_parse(const char *name);   /* -1 when unknown */

/* ---- settings ------------------------------------------------------------------------------------------ */
#define CD_WH_MAX_BACKOFF 32

typedef struct {
    cd_netguard guard;                     /* CARCD_WEBHOOK_ALLOW */
    double backoff[CD_WH_MAX_BACKOFF];     /* seconds before attempt 1, 2, ... (attempt 1: after the event) */
    int nbackoff;                          /* attempts in a round; the last failure gives up */
    char public_url[512];                  /* link base, no trailing '/'; "" = relative links */
    int timeout_s, connect_s, concurrency;
} cd_wh_settings;

/* Parses cfg's webhook settings into the process's (main calls it once, before any thread starts; a
 * process that never calls it has the defaults). 0, or -1 with err for a bad setting. */
int cd_webhooks_configure(const cd_config *cfg, char *err, size_t errlen);
/* The process's settings (read-only). */
const cd_wh_settings *cd_webhooks_settings(void);
/* "0,5,300" into out: the number of delays (1..max), or -1 with err. */
int cd_wh_backoff_parse(const char *s, double *out, int max, char *err, size_t errlen);

/* ---- endpoints ----------------------------------------------------------------------------------------- */
typedef struct {
    char url[CD_WEBHOOK_URL_MAX + 1];
    int format;        /* cd_wh_format */
    unsigned events;   /* cd_wh_event bits, never 0 */
} cd_wh_spec;

/* What was wrong with a spec the client sent: the field, named as `where` + key (e.g.
 * "players[1].webhook.url"; "" when the body as a whole is not an object), and the message naming it. This
 * layer does not answer HTTP: the handler turns it into the 400 problem (`field` member omitted when ""). */
typedef struct {
    char field[160];
    char detail[600];
} cd_wh_error;

/* Parses {"url", "format", "events"?} into out ("format" defaults to json, "events" to default_events),
 * checking the URL against the address policy (resolving its host: this blocks). false with *err on any
 * error. */
bool cd_wh_spec_parse(const json_t *j, const char *where, unsigned default_events, cd_wh_spec *out,
                      cd_wh_error *err);

/* The room cd_wh_events_pg needs for every event at once ("{turn.started,...,player.left}" is 123 bytes with its
 * NUL), with space for a few more events. */
#define CD_WH_EVENTS_PG_LEN 192
/* The event names of a bit set, as a JSON array / as a PostgreSQL text[] literal ("{a,b}"). */
json_t *cd_wh_events_json(unsigned events);
void cd_wh_events_pg(unsigned events, char *out, size_t len);
/* The bits of a PostgreSQL text[] in text form ("{turn.started,move.made}", braces optional). */
unsigned cd_wh_events_from_pg(const char *text);

/* ---- secrets and signatures (Standard Webhooks) ----------------------------------------------------------- */
#define CD_WH_SECRET_BYTES 32
#define CD_WH_SECRET_LEN (6 + 44)    /* "whsec_" + base64 of 32 bytes */
#define CD_WH_SIG_LEN (3 + 44)       /* "v1," + base64 of an HMAC-SHA256 */
#define CD_WH_MSGID_LEN (4 + 26)     /* "msg_" + 26 lower-case base32 characters (128 random bits) */

/* A new secret: "whsec_" and the base64 of 32 random bytes. */
void cd_wh_secret_new(char out[CD_WH_SECRET_LEN + 1]);
/* A new message id (the webhook-id header). */
void cd_wh_msg_id_new(char out[CD_WH_MSGID_LEN + 1]);
/* webhook-signature for id, timestamp and body: "v1," + base64(HMAC-SHA256(key, "<id>.<ts>.<body>")), the
 * key being the secret's base64 after "whsec_", decoded. 0, or -1 when the secret is malformed. */
int cd_wh_sign(const char *secret, const char *msg_id, long long timestamp, const char *body, size_t len,
               char out[CD_WH_SIG_LEN + 1]);

/* ---- players[].webhook at game creation ------------------------------------------------------------------ */
typedef struct {
    int nplayers;
    bool has[CARC_MAX_PLAYERS];
    cd_wh_spec spec[CARC_MAX_PLAYERS];
    char secret[CARC_MAX_PLAYERS][CD_WH_SECRET_LEN + 1];   /* made when parsed, shown in the answer */
    char id[CARC_MAX_PLAYERS][37];                          /* set inside the transaction (outbox.c) */
} cd_player_hooks;

/* Parses the "webhook" member of every player of a game-creation body into h (players without one have
 * none). false with *err (cd_wh_spec_parse's) on any error. */
bool cd_player_hooks_parse(const json_t *players, cd_player_hooks *h, cd_wh_error *err);
/* Adds "webhook": {"id", "secret", "url", "format", "events"} to answer.players[i] for every player that
 * asked for one: the only time the secret is shown. */
void cd_player_hooks_answer(const cd_player_hooks *h, json_t *answer);

/* ---- limits ----------------------------------------------------------------------------------------------- */
/* endpoints of one seat of a game (handlers/webhooks.c refuses a fifth): a limit per seat, so that no seat
 * takes the room of the others' notifications; and the admin's endpoints of a game (the seventeenth refused) */
#define CD_WH_MAX_PER_SEAT 4
#define CD_WH_MAX_ADMIN 16

#endif
