/*
 * e2e.h — helpers shared by the end-to-end tests: the real `carcd` binary run as a child process on a free
 * 127.0.0.1 port against a fresh database of the throwaway PostgreSQL (CARCD_TEST_DATABASE_URL), HTTP calls
 * through libcurl, and game helpers (create a game, play a move picked from legal-moves).
 *
 * Threads: e2e_daemon_* and e2e_pg_* are for the test's main thread (they may ck_assert). An e2e_client
 * belongs to one thread; e2e_req and the e2e_play_* helpers never ck_assert, so client threads may call
 * them. Every answer is checked against api-docs/openapi.json (see openapi.h) when the document exists;
 * mismatches are counted, and e2e_daemon_down fails the test when any was seen.
 *
 * Ownership: an e2e_resp owns its body, headers and parsed JSON; e2e_resp_free releases them.
 */
#ifndef E2E_H
#define E2E_H

#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- the daemon ------------------------------------------------------------------------------------------ */
typedef struct {
    pid_t pid;                 /* 0 when not running */
    int port;
    char base[64];             /* http://127.0.0.1:<port> */
    char admin[80];            /* the admin token it was started with */
    char dbname[64];
    char dburl[1200];          /* libpq key/value connection string of the fresh database */
    char dir[256];             /* its scratch dir: logs */
    char log_path[300];        /* stderr of every `carcd serve` of this daemon, appended */
    const char *extra_env[12]; /* "NAME=value" added to the child's environment (NULL-terminated) */
} e2e_daemon;

/* Creates a fresh database, runs `carcd migrate`, starts `carcd serve` and waits for /readyz.
 * `extra_env` (may be NULL) is a NULL-terminated list of "NAME=value" for the child. Exits the test process
 * with code 77 (skip) when CARCD_TEST_DATABASE_URL is not set. */
e2e_daemon *e2e_daemon_up(const char *const *extra_env);
/* The same, but the fresh database is first loaded from sql_path (plain SQL, as pg_dump --inserts writes it): an
 * older carcd's database, which `carcd migrate` then brings up to date. */
e2e_daemon *e2e_daemon_up_from(const char *sql_path, const char *const *extra_env);
/* Runs `carcd migrate` on the daemon's database again (asserts it exits 0). */
void e2e_daemon_migrate(e2e_daemon *d);
/* Stops the daemon (SIGTERM, then SIGKILL after 10 s), drops its database and fails the test when any answer
 * failed schema validation. Returns the daemon's wait status. */
int e2e_daemon_down(e2e_daemon *d);
/* Starts `carcd serve` again on the same database (a new port when the old one is taken); waits for /readyz. */
void e2e_daemon_start(e2e_daemon *d);
/* SIGTERM and wait: the wait status. */
int e2e_daemon_stop(e2e_daemon *d);
/* SIGKILL and reap. */
void e2e_daemon_kill9(e2e_daemon *d);
/* Whether the child is still running (reaps it when it is not; *status gets its wait status). */
bool e2e_daemon_alive(e2e_daemon *d, int *status);
/* The whole stderr log so far (malloc'd, NUL-terminated); of a running carcd, once a request made by the call
 * (GET /e2e-log-mark/...) is in it, and with it the lines of the requests answered before. */
char *e2e_daemon_log(const e2e_daemon *d);
/* `carcd <command>` (mail-in) with the len bytes at `in` on its standard input and its standard error appended
 * to d->dir/<command>.log; its environment is this process's with `env` ("NAME=value", NULL-terminated; NULL:
 * none) set over it. Its exit status (-1: it did not exit). */
int e2e_carcd_stdin(const e2e_daemon *d, const char *command, const char *const *env, const char *in, size_t len);

/* Fails the test when any answer so far did not match api-docs/openapi.json (e2e_daemon_down does this too;
 * tests that share a daemon started by a fixture call it themselves). */
void e2e_check_answers(void);

/* ---- the throwaway PostgreSQL cluster (test 5) ----------------------------------------------------------- */
/* Learns the cluster's data directory, bindir, socket dir, port and settings from the server itself. */
void e2e_pg_discover(void);
void e2e_pg_stop(void);    /* pg_ctl -m fast -w stop */
void e2e_pg_stop_mode(const char *mode);   /* pg_ctl -m MODE -w stop: "fast", "immediate" (a crash: no goodbye) */
void e2e_pg_start(void);   /* pg_ctl -w start with the same settings; restarted at exit too if still down */
/* A hot standby of the cluster (pg_basebackup -R, started on the cluster's port + 1000, its socket in the same
 * directory), and the libpq connection string of database `dbname` on it into url; stop removes it. */
void e2e_pg_standby_start(const char *dbname, char *url, size_t cap);
void e2e_pg_standby_stop(void);

/* ---- HTTP ------------------------------------------------------------------------------------------------ */
typedef struct e2e_client e2e_client;

struct e2e_resp {
    long status;           /* 0: no HTTP answer (transport error: see curl_error) */
    char *body;            /* NUL-terminated, never NULL after e2e_req */
    size_t len;
    char *headers;         /* the last header block, raw */
    json_t *json;          /* the body parsed, or NULL */
    char content_type[128];
    double seconds;        /* total time of the exchange */
    char curl_error[256];
};

e2e_client *e2e_client_new(const e2e_daemon *d);
void e2e_client_free(e2e_client *c);
/* Points the client at a restarted daemon (a new port). */
void e2e_client_retarget(e2e_client *c, const e2e_daemon *d);
/* Connects from local address `addr` (e.g. "127.0.0.2": the whole of 127.0.0.0/8 is loopback), so a test has
 * clients at several addresses; NULL or "" for the system's choice. */
void e2e_client_source(e2e_client *c, const char *addr);
/* Sets the per-request timeout (default 20 s). */
void e2e_client_timeout(e2e_client *c, long ms);

typedef struct e2e_resp e2e_resp;
/* Called after every request of this client with its method, path, start and end time (e2e_now) and answer. */
typedef void (*e2e_observer)(void *arg, const char *method, const char *path, double t0, double t1,
                             const e2e_resp *r);
void e2e_client_observe(e2e_client *c, e2e_observer fn, void *arg);

/* One request. `token` (NULL: none) goes into Authorization: Bearer; `body` (NULL: none) is sent as
 * application/json unless `headers` names a Content-Type; `headers` is a NULL-terminated list of full header
 * lines ("If-Match: 3"), may be NULL. Returns r->status. */
long e2e_req(e2e_client *c, const char *method, const char *path, const char *token, const char *body,
             const char *const *headers, e2e_resp *r);
long e2e_reqn(e2e_client *c, const char *method, const char *path, const char *token, const char *body,
              size_t body_len, const char *const *headers, e2e_resp *r);
void e2e_resp_free(e2e_resp *r);

/* One request in a thread of its own, with a client of its own: a long poll held while the test acts, or
 * several requests waiting together for a lock. Set d, method, path (token, body may be NULL), start, join;
 * then r holds the answer (the caller frees it with e2e_resp_free). */
typedef struct {
    const e2e_daemon *d;
    const char *method, *path, *token, *body;
    e2e_resp r;
    pthread_t thread;
} e2e_async;
void e2e_async_start(e2e_async *a);
long e2e_async_join(e2e_async *a);   /* r.status */
/* A header's value (case-insensitive name) copied into buf, or NULL. */
const char *e2e_header(const e2e_resp *r, const char *name, char *buf, size_t n);

/* A GET that must answer `want`: the parsed body (owned by the caller). Asserts (main thread only). */
json_t *e2e_get_ok(e2e_client *c, const char *path, const char *token, long want);
/* GET path (no token, 200) every 50 ms until its "status" is `want`, for `seconds` (times E2E_SLACK) at most:
 * the last view, whose status the caller asserts. For what carcd's workers do in their own time. */
json_t *e2e_wait_status(e2e_client *c, const char *path, const char *want, double seconds);

/* ---- JSON ------------------------------------------------------------------------------------------------ */
/* Follows a dotted path ("players.0.score", "pending.seat"); NULL when absent. Borrowed. */
json_t *e2e_jget(const json_t *j, const char *path);
long long e2e_jint(const json_t *j, const char *path);   /* -1 when absent or not an integer */
const char *e2e_jstr(const json_t *j, const char *path); /* "" when absent */
/* Asserts that r is an RFC 9457 problem of `status`: content type application/problem+json, a body with
 * type/title/status(= the HTTP status)/detail, and `field` equal to want_field (NULL: any or none). */
void e2e_assert_problem(const e2e_resp *r, long status, const char *want_field, const char *what);
/* Whether r is a problem whose type ends in "/problems/<slug>" (e.g. "stale-seq"). */
bool e2e_problem_is(const e2e_resp *r, const char *slug);

/* ---- randomness (our own, fixed seeds: test runs are repeatable) ---------------------------------------- */
typedef struct { uint64_t s; } e2e_rng;
uint64_t e2e_rng_next(e2e_rng *r);
uint32_t e2e_rng_below(e2e_rng *r, uint32_t n);   /* uniform in [0, n), n > 0 */

/* ---- games ----------------------------------------------------------------------------------------------- */
typedef struct {
    char id[40];
    int nplayers;
    char token[6][80];
    char seed_sha256[80];
} e2e_game;

/* POST /v1/games with n players ("P0".."P5") and `expansions` (a JSON array text; NULL = none); asserts 201
 * and the answer's shape. */
void e2e_game_create(e2e_client *c, int nplayers, const char *expansions, e2e_game *g);
/* The same from any thread: the HTTP status (201 on success). `extra` (may be NULL) is JSON object text whose
 * members are added to the request body; `admin` sends the admin token. */
long e2e_game_create_raw(e2e_client *c, const e2e_daemon *d, int nplayers, const char *expansions,
                         const char *extra, bool admin, e2e_game *g);

/* A person joins waiting game id by an invite code, without a token (POST .../join {"name", "invite"}): asserts
 * 201; the seat it took, its token into token. */
int e2e_join_by_code(e2e_client *c, const char *id, const char *name, const char *code, char token[80]);
/* The invite codes of a creation's answer (invites[i].invite, i < n) into codes[i]. */
void e2e_invite_codes(const json_t *created, int n, char codes[][80]);

/* The admin view (asserts 200). */
json_t *e2e_admin_view(e2e_client *c, const e2e_daemon *d, const char *id);
/* POST verify: asserts 200 and ok=true, returns the game's seq. */
int e2e_verify_ok(e2e_client *c, const e2e_daemon *d, const char *id);

/* One random move, picked uniformly from legal-moves. */
typedef struct {
    long status;        /* of the POST; 0 transport error; E2E_FINISHED; or -(status) of a failed GET */
    int seat;
    int expected_seq;
    json_t *move;       /* owned: what was posted */
    e2e_resp post;      /* the answer */
    int nlegal;         /* moves offered */
} e2e_play;
#define E2E_FINISHED 1000

/* Reads the public view for the pending seat, that seat's legal moves, picks one with rng and posts it
 * (with Idempotency-Key `idem` unless NULL). Never asserts. Free with e2e_play_free. */
long e2e_play_random(e2e_client *c, const e2e_game *g, e2e_rng *rng, const char *idem, e2e_play *p);
void e2e_play_free(e2e_play *p);
/* Plays game g to its end with e2e_play_random (asserting each move's 200): how many moves it made. */
int e2e_play_to_end(e2e_client *c, const e2e_game *g, e2e_rng *rng);

/* The game's log as `token` (NULL: public) may see it, read page by page from GET /events?after=-1: a new
 * array of entries {"seq","seat","events"} in order, or NULL when a page is not a 200 (*status tells). Never
 * asserts. */
json_t *e2e_events_log(e2e_client *c, const char *id, const char *token, long *status);
/* Asserts that a log holds every seq from 0 to last exactly once, in order. */
void e2e_assert_log_complete(const json_t *log, int last, const char *what);

/* ---- misc ------------------------------------------------------------------------------------------------ */
/* A new player (POST /v1/players {"name"}): its key into key (n bytes). */
void e2e_player_key(e2e_client *c, const char *name, char *key, size_t n);
/* Every entry of a player's stream: GET /v1/me/events with the key, paged with after=n until a page is empty. */
json_t *e2e_me_events_all(e2e_client *c, const char *key);

double e2e_now(void);   /* monotonic seconds */
int e2e_count(const char *hay, const char *needle);   /* occurrences of needle in hay (they may overlap) */
/* The one value (a number) that `sql` answers on the daemon's database, through a connection of its own. */
long e2e_db_long(const e2e_daemon *d, const char *sql);
/* e2e_db_long(d, sql) every 50 ms until it is `want`, for `seconds` (times E2E_SLACK) at most: the last value,
 * which the caller asserts. For rows carcd's workers change in their own time. */
long e2e_db_long_until(const e2e_daemon *d, const char *sql, long want, double seconds);
/* The same for a text value ("" for NULL), cut to n - 1 bytes. */
void e2e_db_text(const e2e_daemon *d, const char *sql, char *out, size_t n);
void e2e_sha256_hex(const uint8_t *data, size_t n, char out[65]);
/* Runs a Check suite: fork mode, the exit status for main(). */
int e2e_run(Suite *s);
/* A test case with a generous timeout (multiplied by E2E_SLACK, and by CK_TIMEOUT_MULTIPLIER as usual). */
TCase *e2e_tcase(const char *name, double seconds);
/* What a bound on time is multiplied by in a sanitized build: ASan + UBSan make carcd and the tests several times
 * slower. A bound that tells two behaviours apart (an answer that waited on a 5 s receiver from one that did not)
 * must keep doing so once multiplied. */
#ifdef E2E_SANITIZE
#define E2E_SLACK 3.0
#else
#define E2E_SLACK 1.0
#endif

#endif
