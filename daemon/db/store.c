/*
 * store.c — the statement table: all the SQL carcd runs, prepared once per connection by db.c.
 * One row per query, so a reader finds every statement the daemon can issue in this file.
 */
#include "store.h"

/* timestamps leave the database as ISO 8601 UTC text */
#define ISO(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
#define GAME_COLUMNS_WITH(snapshot)                                                                          \
    "g.seq, g.status, g.setup, " snapshot ", g.seed_sha256, " ISO("g.created_at") ", " ISO("g.updated_at")   \
    ", " ISO("g.finished_at")
#define GAME_COLUMNS GAME_COLUMNS_WITH("g.snapshot")

/* the seats' names in seat order, as a JSON array (one index scan of seats' primary key) */
#define SEAT_NAMES "COALESCE((SELECT json_agg(n.name ORDER BY n.seat) FROM seats n WHERE n.game_id = g.id), '[]')"
/* The reads of a request with a seat token: who the token is (whether its game is $2, its seat) and the game
 * joined to it, in one statement. No row: the token belongs to no seat; the game's columns are NULL when the
 * token is another game's. $3 is the seq of the state this process holds for the game (state_cache.h; -1:
 * none): at that seq the snapshot stays in the database (NULL), which spares the server detoasting and
 * printing ~3 KB of jsonb that carcd would not read (a third of the statement's cost, measured with pgbench). */
#define SNAPSHOT_UNLESS_CACHED "CASE WHEN g.seq = $3::integer THEN NULL ELSE g.snapshot END"
#define BY_TOKEN                                                                                             \
    ", t.game_id = $2::uuid, t.seat FROM seats t LEFT JOIN (games g JOIN game_secrets s ON s.game_id = g.id) " \
    "ON g.id = t.game_id AND g.id = $2::uuid WHERE t.token_hash = $1"

/* what a move reads from the game row it locks (game_lock, move_lock; games.c: cd_game_lock_row); move_lock
 * leaves out the snapshot of a state carcd holds, as the seat reads do */
#define LOCK_COLUMNS_WITH(snapshot) "g.seq, g.status, " snapshot ", s.seed, g.clock"
#define LOCK_COLUMNS LOCK_COLUMNS_WITH("g.snapshot")
#define LOCK_FROM "FROM games g JOIN game_secrets s ON s.game_id = g.id"

#define WH_ENDPOINT_COLUMNS                                                                                  \
    "id, seat, url, format, array_to_string(events, ','), " ISO("created_at") ", " ISO("disabled_at")          \
    ", disabled_reason"
/* a delivery: its state ("sending" while a worker holds its lease), and every attempt as a JSON array */
#define WH_DELIVERY_COLUMNS                                                                                  \
    "o.id, o.msg_id, o.event, o.seq, "                                                                       \
    "CASE WHEN o.state = 'pending' AND o.lease IS NOT NULL AND o.due_at > now() THEN 'sending' ELSE o.state END, " \
    ISO("o.created_at") ", CASE WHEN o.state = 'pending' THEN " ISO("o.due_at") " END, " ISO("o.delivered_at")     \
    ", o.last_status, o.last_error, "                                                                        \
    "COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'worker', a.worker, 'started_at', "   \
    ISO("a.started_at") ", 'finished_at', " ISO("a.finished_at") ", 'duration_ms', a.duration_ms, 'status', "   \
    "a.status, 'error', a.error) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.outbox_id = o.id), '[]')"

/* an older message of row o's endpoint is being sent, or due: o waits its turn */
#define WH_OLDER_BUSY                                                                                        \
    "SELECT 1 FROM webhook_outbox p WHERE p.endpoint_id = o.endpoint_id AND p.state = 'pending' "            \
    "AND p.id < o.id AND (p.lease IS NOT NULL OR p.due_at <= now())"

const cd_stmt_info cd_stmts[CD_NSTMTS] = {
    [ST_PING] = {"ping", "SELECT 1", 0},
    /* prepared like the rest: cd_db_tx sends them in its pipeline (db.c) */
    [ST_TX_BEGIN] = {"tx_begin", "BEGIN", 0},
    [ST_TX_COMMIT] = {"tx_commit", "COMMIT", 0},
    [ST_GAME_INSERT] = {"game_insert",
                        "INSERT INTO games (setup, snapshot, seed_sha256, pending_seat, status, clock, clock_deadline, "
                        "clock_due) VALUES ($1::jsonb, $2::jsonb, $3, $4::integer, $5, $6::jsonb, "
                        "to_timestamp($7::float8), to_timestamp($8::float8)) RETURNING id",
                        8},
    [ST_SECRET_INSERT] = {"secret_insert", "INSERT INTO game_secrets (game_id, seed) VALUES ($1::uuid, $2)", 2},
    [ST_SEAT_INSERT] = {"seat_insert",
                        "INSERT INTO seats (game_id, seat, name, token_hash, player_id) VALUES ($1::uuid, $2::integer, "
                        "$3, $4, (SELECT id FROM players WHERE key_hash = $5)) "
                        "RETURNING $5::text IS NULL OR player_id IS NOT NULL",
                        5},
    [ST_MOVE_INSERT] = {"move_insert",
                        "INSERT INTO moves (game_id, seq, seat, move, events, idempotency_key, response, origin, "
                        "request_sha256) VALUES ($1::uuid, $2::integer, $3::integer, $4::jsonb, $5::jsonb, $6, "
                        "$7::jsonb, $8, $9)",
                        9},
    [ST_GAME_LOCK] = {"game_lock", "SELECT " LOCK_COLUMNS " " LOCK_FROM " WHERE g.id = $1::uuid FOR UPDATE OF g", 1},
    /* a move's first statement: the token's seat, and its game locked, unless the token is another game's (no
     * row: no such token); the lock columns first, as in game_lock (the snapshot NULL when the game is at $3,
     * the seq of the state carcd holds), then the token's two */
    [ST_MOVE_LOCK] = {"move_lock",
                      "SELECT l.*, t.game_id = $1::uuid, t.seat FROM seats t LEFT JOIN LATERAL (SELECT "
                      LOCK_COLUMNS_WITH(SNAPSHOT_UNLESS_CACHED) " " LOCK_FROM " WHERE g.id = t.game_id "
                      "AND g.id = $1::uuid FOR UPDATE OF g) l ON true WHERE t.token_hash = $2",
                      3},
    /* the move's second, pipelined behind the lock and so reading what the lock's previous holder committed:
     * the game's enabled webhook endpoints (none: the move skips the outbox) and the answer already stored for
     * this seat's idempotency key (NULL key: none) with the hash of the request it answered (NULL: stored
     * before 005_idempotency_request.sql) */
    [ST_MOVE_AFTER_LOCK] = {"move_after_lock",
                            "SELECT (SELECT count(*) FROM webhook_endpoints e WHERE e.game_id = $1::uuid "
                            "AND e.disabled_at IS NULL), m.response, m.request_sha256 FROM (SELECT 1) one "
                            "LEFT JOIN (moves m JOIN seats t ON t.game_id = m.game_id AND t.seat = m.seat) "
                            "ON t.token_hash = $2 AND m.game_id = $1::uuid AND m.idempotency_key = $3",
                            3},
    /* the seed leaves game_secrets only once the game is over: it is revealed then */
    [ST_GAME_GET] = {"game_get",
                     "SELECT " GAME_COLUMNS ", CASE WHEN g.status = 'finished' THEN s.seed END, " SEAT_NAMES ", g.clock "
                     "FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                     1},
    [ST_GAME_GET_ADMIN] = {"game_get_admin",
                           "SELECT " GAME_COLUMNS ", s.seed, " SEAT_NAMES ", g.clock "
                           "FROM games g JOIN game_secrets s ON s.game_id = g.id WHERE g.id = $1::uuid",
                           1},
    [ST_GAME_GET_SEAT] = {"game_get_seat",
                          "SELECT " GAME_COLUMNS_WITH(SNAPSHOT_UNLESS_CACHED) ", CASE WHEN g.status = 'finished' "
                          "THEN s.seed END, " SEAT_NAMES ", g.clock" BY_TOKEN,
                          3},
    /* what legal-moves reads: the columns of game_get it uses (no set-up, times or names), the others NULL */
    [ST_GAME_GET_PLAY] = {"game_get_play",
                          "SELECT g.seq, g.status, NULL, " SNAPSHOT_UNLESS_CACHED ", g.seed_sha256, NULL, NULL, NULL, "
                          "CASE WHEN g.status = 'finished' THEN s.seed END, NULL, NULL" BY_TOKEN,
                          3},
    [ST_SEATS_OF_GAME] = {"seats_of_game", "SELECT seat, name FROM seats WHERE game_id = $1::uuid ORDER BY seat",
                          1},
    [ST_TOKEN_LOOKUP] = {"token_lookup", "SELECT game_id, seat FROM seats WHERE token_hash = $1", 1},
    [ST_GAME_UPDATE] = {"game_update",
                        "UPDATE games SET seq = $2::integer, snapshot = $3::jsonb, status = $4, "
                        "pending_seat = $5::integer, updated_at = now(), "
                        "finished_at = CASE WHEN $4 = 'finished' THEN now() END WHERE id = $1::uuid",
                        5},
    [ST_MOVES_AFTER] = {"moves_after",
                        "SELECT seq, seat, move, events, origin FROM moves WHERE game_id = $1::uuid "
                        "AND seq > $2::integer ORDER BY seq LIMIT $3::integer",
                        3},
    [ST_MOVES_ALL] = {"moves_all",
                      "SELECT seq, seat, move FROM moves WHERE game_id = $1::uuid AND seq > 0 ORDER BY seq", 1},
    /* the cursor is the last id of the previous page; rows are ordered by (created_at, id) */
    [ST_GAMES_LIST] = {"games_list",
                       "SELECT id, status, seq, " ISO("created_at") ", " ISO("updated_at") ", "
                       "(setup->>'nplayers')::integer, pending_seat FROM games "
                       "WHERE ($1::text IS NULL OR status = $1) AND ($2::uuid IS NULL OR "
                       "(created_at, id) > ((SELECT created_at FROM games WHERE id = $2::uuid), $2::uuid)) "
                       "ORDER BY created_at, id LIMIT $3::integer",
                       3},
    [ST_NOTIFY_MOVE] = {"notify_move", "SELECT pg_notify('carcd_moves', $1)", 1},
    [ST_AUDIT_INSERT] = {"audit_insert",
                         "INSERT INTO admin_audit (action, game_id, actor, actor_name, remote_addr, user_agent, "
                         "detail) VALUES ($1, $2::uuid, $3, $4, $5, $6, $7::jsonb) RETURNING id",
                         7},
    /* the cursor is the last id of the previous page: newest first */
    [ST_AUDIT_LIST] = {"audit_list",
                       "SELECT id, " ISO("at") ", action, game_id, actor, actor_name, remote_addr, user_agent, "
                       "detail FROM admin_audit WHERE ($1::bigint IS NULL OR id < $1::bigint) "
                       "AND ($2::uuid IS NULL OR game_id = $2::uuid) AND ($3::text IS NULL OR action = $3) "
                       "ORDER BY id DESC LIMIT $4::integer",
                       4},
    /* ---- webhooks ---- */
    [ST_WH_ENDPOINTS_ACTIVE] = {"wh_endpoints_active",
                                "SELECT id, seat, format, array_to_string(events, ',') FROM webhook_endpoints "
                                "WHERE game_id = $1::uuid AND disabled_at IS NULL ORDER BY created_at, id",
                                1},
    [ST_WH_ENDPOINT_INSERT] = {"wh_endpoint_insert",
                               "INSERT INTO webhook_endpoints (game_id, seat, url, format, events, secret) "
                               "VALUES ($1::uuid, $2::integer, $3, $4, $5::text[], $6) RETURNING id, " ISO("created_at"),
                               6},
    [ST_WH_OUTBOX_INSERT] = {"wh_outbox_insert",
                             "INSERT INTO webhook_outbox (endpoint_id, msg_id, event, game_id, seq, body, due_at) "
                             "VALUES ($1::uuid, $2, $3, $4::uuid, $5::integer, $6, "
                             "now() + $7::double precision * interval '1 second')",
                             7},
    [ST_WH_NOTIFY] = {"wh_notify", "SELECT pg_notify('carcd_webhooks', $1)", 1},
    [ST_WH_GAME_FOR_HOOK] = {"wh_game_for_hook",
                             "SELECT g.status, (SELECT count(*) FROM webhook_endpoints e WHERE e.game_id = g.id) "
                             "FROM games g WHERE g.id = $1::uuid FOR NO KEY UPDATE OF g",
                             1},
    [ST_WH_ENDPOINT_GET] = {"wh_endpoint_get",
                            "SELECT " WH_ENDPOINT_COLUMNS " FROM webhook_endpoints "
                            "WHERE game_id = $1::uuid AND id = $2::uuid",
                            2},
    [ST_WH_ENDPOINTS_LIST] = {"wh_endpoints_list",
                              "SELECT " WH_ENDPOINT_COLUMNS " FROM webhook_endpoints WHERE game_id = $1::uuid "
                              "AND ($2::integer IS NULL OR seat = $2::integer) ORDER BY created_at, id",
                              2},
    [ST_WH_ENDPOINT_DELETE] = {"wh_endpoint_delete",
                               "DELETE FROM webhook_endpoints WHERE game_id = $1::uuid AND id = $2::uuid", 2},
    [ST_WH_DELIVERIES] = {"wh_deliveries",
                          "SELECT " WH_DELIVERY_COLUMNS " FROM webhook_outbox o WHERE o.endpoint_id = $1::uuid "
                          "AND ($2::bigint IS NULL OR o.id < $2::bigint) ORDER BY o.id DESC LIMIT $3::integer",
                          3},
    [ST_WH_DELIVERY_GET] = {"wh_delivery_get",
                            "SELECT " WH_DELIVERY_COLUMNS " FROM webhook_outbox o "
                            "WHERE o.endpoint_id = $1::uuid AND o.id = $2::bigint",
                            2},
    /* a new round: the schedule starts again, the message keeps its webhook-id and body */
    [ST_WH_REDELIVER] = {"wh_redeliver",
                         "UPDATE webhook_outbox SET state = 'pending', tries = 0, due_at = now(), lease = NULL, "
                         "delivered_at = NULL WHERE endpoint_id = $1::uuid AND id = $2::bigint RETURNING id",
                         2},
    /* Takes up to $1 due rows no other worker holds (SKIP LOCKED), leases them for $2 seconds (due_at moves
     * past the lease, `lease` gets a fresh id that the outcome must present) and records the attempt. A row
     * waits while an older row of its endpoint is being sent or is due itself, so one endpoint gets its
     * messages one at a time and in order (unless an older one is waiting for a retry). */
    [ST_WH_CLAIM] = {"wh_claim",
                     "WITH due AS (SELECT o.id FROM webhook_outbox o WHERE o.state = 'pending' AND o.due_at <= now() "
                     "AND NOT EXISTS (" WH_OLDER_BUSY ") "
                     "ORDER BY o.due_at, o.id LIMIT $1::integer FOR UPDATE OF o SKIP LOCKED), "
                     "claimed AS (UPDATE webhook_outbox o SET due_at = now() + $2::integer * interval '1 second', "
                     "lease = gen_random_uuid(), attempts = o.attempts + 1, tries = o.tries + 1 FROM due "
                     "WHERE o.id = due.id RETURNING o.id, o.lease, o.msg_id, o.body, o.attempts, o.tries, "
                     "o.endpoint_id, o.created_at), "
                     "logged AS (INSERT INTO webhook_attempts (outbox_id, attempt, worker) "
                     "SELECT id, attempts, $3 FROM claimed) "
                     "SELECT c.id, c.lease, c.msg_id, c.body, c.attempts, c.tries, e.url, e.secret, e.id, "
                     "e.disabled_at IS NOT NULL, EXTRACT(EPOCH FROM now() - c.created_at)::float8 "
                     "FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id",
                     3},
    [ST_WH_NEXT_DUE] = {"wh_next_due",
                        "SELECT EXTRACT(EPOCH FROM min(o.due_at) - now())::float8 FROM webhook_outbox o "
                        "WHERE o.state = 'pending' AND NOT EXISTS (" WH_OLDER_BUSY ")",
                        0},
    [ST_WH_ATTEMPT_DONE] = {"wh_attempt_done",
                            "UPDATE webhook_attempts SET finished_at = now(), duration_ms = $3::integer, "
                            "status = $4::integer, error = $5 WHERE outbox_id = $1::bigint AND attempt = $2::integer",
                            5},
    /* only the lease holder's outcome counts: a worker whose lease ran out (and was taken over) changes
     * nothing but its own attempt row */
    [ST_WH_OUTBOX_DONE] = {"wh_outbox_done",
                           "UPDATE webhook_outbox SET state = $3, due_at = CASE WHEN $3 = 'pending' THEN "
                           "now() + $4::double precision * interval '1 second' ELSE due_at END, lease = NULL, "
                           "tries = tries - $7::integer, last_status = $5::integer, last_error = $6, "
                           "delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END "
                           "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id",
                           7},
    /* a 2xx, recorded in one autocommitted statement right after the answer (deliver.c): the outbox row and the
     * attempt's, so that a carcd killed after the receiver answered has as little time as can be to resend it */
    [ST_WH_DELIVERED] = {"wh_delivered",
                         "WITH o AS (UPDATE webhook_outbox SET state = 'delivered', lease = NULL, "
                         "last_status = $4::integer, last_error = NULL, delivered_at = now() "
                         "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id) "
                         "UPDATE webhook_attempts SET finished_at = now(), duration_ms = $5::integer, "
                         "status = $4::integer, error = NULL WHERE outbox_id = $1::bigint AND attempt = $3::integer",
                         5},
    [ST_WH_ENDPOINT_GONE] = {"wh_endpoint_gone",
                             "WITH e AS (UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $2 "
                             "WHERE id = $1::uuid AND disabled_at IS NULL RETURNING id) "
                             "UPDATE webhook_outbox o SET state = 'failed', lease = NULL, "
                             "last_error = 'not sent: the endpoint was disabled' "
                             "FROM e WHERE o.endpoint_id = e.id AND o.state = 'pending'",
                             2},
    /* ---- turn clocks and players ---- */
    [ST_CLOCK_UPDATE] = {"clock_update",
                         "UPDATE games SET clock = $2::jsonb, clock_deadline = to_timestamp($3::float8), "
                         "clock_due = to_timestamp($4::float8) WHERE id = $1::uuid",
                         4},
    [ST_GAME_UPDATE_CLOCK] = {"game_update_clock",
                              "UPDATE games SET seq = $2::integer, snapshot = $3::jsonb, status = $4, "
                              "pending_seat = $5::integer, updated_at = now(), "
                              "finished_at = CASE WHEN $4 = 'finished' THEN now() END, clock = $6::jsonb, "
                              "clock_deadline = to_timestamp($7::float8), clock_due = to_timestamp($8::float8) "
                              "WHERE id = $1::uuid",
                              8},
    /* one due game per transaction: the worker holds its row until the timeout or reminder is stored */
    [ST_CLOCK_CLAIM] = {"clock_claim",
                        "SELECT id FROM games WHERE clock_due <= to_timestamp($1::float8) AND status = 'active' "
                        "ORDER BY clock_due LIMIT 1 FOR UPDATE SKIP LOCKED",
                        1},
    /* the same without the lock: names the due game in the log when the claim itself failed (read-only) */
    [ST_CLOCK_DUE_PEEK] = {"clock_due_peek",
                           "SELECT id FROM games WHERE clock_due <= to_timestamp($1::float8) AND status = 'active' "
                           "ORDER BY clock_due LIMIT 1",
                           1},
    [ST_PLAYER_INSERT] = {"player_insert",
                          "INSERT INTO players (name, key_hash) VALUES ($1, $2) RETURNING id", 2},
    [ST_PLAYER_BY_KEY] = {"player_by_key", "SELECT id FROM players WHERE key_hash = $1", 1},
    [ST_SEAT_LINK] = {"seat_link",
                      "UPDATE seats SET player_id = p.id FROM players p WHERE p.key_hash = $3 "
                      "AND seats.game_id = $1::uuid AND seats.seat = $2::integer RETURNING p.id",
                      3},
    [ST_ME_GAMES] = {"me_games",
                     "SELECT g.id, s.seat, g.status, g.seq, g.pending_seat, g.snapshot->'pending'->>'kind', "
                     "EXTRACT(EPOCH FROM g.clock_deadline)::float8, " ISO("g.updated_at") ", g.clock "
                     "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1::uuid "
                     "AND ($2::text IS NULL OR g.status = $2) "
                     "ORDER BY (g.status = 'active' AND g.pending_seat = s.seat) DESC, "
                     "g.clock_deadline ASC NULLS LAST, g.updated_at DESC LIMIT $3::integer",
                     3},
    /* the time of the clocks is PostgreSQL's: the worker's time source can be a test's file (timesrc.h), so
     * how overdue a clock is reads the worker's lag only with the real clock */
    [ST_GAUGES] = {"gauges",
                   "SELECT (SELECT count(*) FROM games WHERE status = 'active'), "
                   "(SELECT count(*) FROM games WHERE status = 'finished'), "
                   "o.n, COALESCE(EXTRACT(EPOCH FROM now() - o.oldest)::float8, 0), c.n, "
                   "COALESCE(EXTRACT(EPOCH FROM now() - c.oldest)::float8, 0) "
                   "FROM (SELECT count(*) AS n, min(created_at) AS oldest FROM webhook_outbox "
                   "WHERE state = 'pending') o, "
                   "(SELECT count(*) AS n, min(clock_due) AS oldest FROM games WHERE status = 'active' "
                   "AND clock_due <= now()) c",
                   0},
    [ST_MAIL_SEATS_ACTIVE] = {"mail_seats_active",
                              "SELECT seat, email, tag FROM mail_seats WHERE game_id = $1::uuid AND stopped_at IS NULL "
                              "ORDER BY seat",
                              1},
    [ST_MAIL_SEAT_PUT] = {"mail_seat_put",
                          "INSERT INTO mail_seats (game_id, seat, email, tag) VALUES ($1::uuid, $2::integer, $3, $4) "
                          "ON CONFLICT (game_id, seat) DO UPDATE SET email = EXCLUDED.email, tag = EXCLUDED.tag, "
                          "stopped_at = NULL, stopped_reason = NULL",
                          4},
    [ST_MAIL_SEAT_DELETE] = {"mail_seat_delete",
                             "DELETE FROM mail_seats WHERE game_id = $1::uuid AND seat = $2::integer", 2},
    [ST_MAIL_SEAT_GET] = {"mail_seat_get",
                          "SELECT email, " ISO("stopped_at") ", stopped_reason FROM mail_seats "
                          "WHERE game_id = $1::uuid AND seat = $2::integer",
                          2},
    [ST_MAIL_SEATS_ALL] = {"mail_seats_all",
                           "SELECT seat, email, " ISO("stopped_at") ", stopped_reason FROM mail_seats "
                           "WHERE game_id = $1::uuid ORDER BY seat",
                           1},
    [ST_MAIL_SEAT_BY_TAG] = {"mail_seat_by_tag",
                             "SELECT game_id, seat, email, stopped_at IS NOT NULL FROM mail_seats WHERE tag = $1", 1},
    [ST_MAIL_SEAT_STOP] = {"mail_seat_stop",
                           "UPDATE mail_seats SET stopped_at = now(), stopped_reason = $4 WHERE game_id = $1::uuid "
                           "AND seat = $2::integer AND lower(email) = lower($3) AND stopped_at IS NULL",
                           4},
    [ST_MAIL_OUTBOX_INSERT] = {"mail_outbox_insert",
                               "INSERT INTO mail_outbox (game_id, seat, kind, seq, msg_id, rcpt, body) "
                               "VALUES ($1::uuid, $2::integer, $3, $4::integer, $5, $6, $7)",
                               7},
    [ST_MAIL_NOTIFY] = {"mail_notify", "SELECT pg_notify('carcd_mail', '')", 0},
    /* the oldest due mail, leased for $1 seconds; the seat's stop is read so a stopped address gets nothing */
    [ST_MAIL_CLAIM] = {"mail_claim",
                       "UPDATE mail_outbox o SET lease = gen_random_uuid(), tries = o.tries + 1, "
                       "due_at = now() + make_interval(secs => $1::float8) "
                       "FROM (SELECT id FROM mail_outbox WHERE state = 'pending' AND due_at <= now() "
                       "ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) d WHERE o.id = d.id "
                       "RETURNING o.id, o.lease, o.rcpt, o.body, o.tries, o.game_id, o.seat, "
                       "EXISTS (SELECT 1 FROM mail_seats m WHERE m.game_id = o.game_id AND m.seat = o.seat "
                       "AND lower(m.email) = lower(o.rcpt) AND m.stopped_at IS NOT NULL)",
                       1},
    [ST_MAIL_DONE] = {"mail_done",
                      "UPDATE mail_outbox SET state = $3, lease = NULL, last_error = $5, "
                      "sent_at = CASE WHEN $3 = 'sent' THEN now() END, "
                      "due_at = now() + make_interval(secs => GREATEST($4::float8, 0)) "
                      "WHERE id = $1::bigint AND lease = $2::uuid RETURNING id",
                      5},
    [ST_MAIL_IN_INSERT] = {"mail_in_insert",
                           "INSERT INTO mail_in (message_id, game_id, seat, outcome, detail) "
                           "VALUES ($1, $2::uuid, $3::integer, $4, $5) ON CONFLICT (message_id) DO NOTHING RETURNING 1",
                           5},
};
const int cd_nstmts = CD_NSTMTS;
