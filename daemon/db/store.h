/*
 * store.h — every SQL statement carcd runs, one enum value each, and how their rows are found.
 * Each statement's SQL is in the query file of db/ whose functions run it and read its result (named below):
 * that file holds a `static const cd_stmt_info stmts[]` of its statements and exports it as one
 * cd_stmt_family (cd_stmts_<file>); store.c collects the families, and db.c prepares every statement on each
 * connection. Parameters are text; the SQL casts them. The query files hand typed rows to the layers above;
 * nothing outside db/ names a statement.
 */
#ifndef CD_STORE_H
#define CD_STORE_H

typedef enum {
    /* db.c */
    ST_PING,             /* () -> 1 */
    ST_TX_BEGIN,         /* BEGIN (cd_db_tx) */
    ST_TX_COMMIT,        /* COMMIT (cd_db_tx) */
    /* games_table.c: ST_GAME_INSERT, ST_SECRET_INSERT, ST_SEAT_INSERT, ST_SEATS_OF_GAME, ST_GAMES_LIST;
     * game_reads.c: the locks and reads (ST_GAME_LOCK .. ST_GAME_GET_PLAY, ST_TOKEN_LOOKUP);
     * moves.c: ST_MOVE_INSERT, ST_GAME_UPDATE(_CLOCK), ST_MOVES_AFTER, ST_NOTIFY_MOVE;
     * move_log.c: the log in either form, compaction, the idempotency sweep (ST_LOG_AFTER ..);
     * audit_log.c: ST_AUDIT_* */
    ST_GAME_INSERT,      /* (setup, snapshot, seed_sha256, pending_seat, status, clock|NULL, clock_deadline|NULL,
                             clock_due|NULL: epoch seconds) -> id */
    ST_SECRET_INSERT,    /* (game_id, seed) */
    ST_SEAT_INSERT,      /* (game_id, seat, name, token_hash, player key_hash|NULL) -> whether the key (if any)
                             named a player */
    ST_MOVE_INSERT,      /* (game_id, seq, seat, move, events, idempotency_key, response, origin: seat|clock,
                             request_sha256|NULL) */
    ST_GAME_LOCK,        /* (game_id) -> seq, status, snapshot, seed, clock   FOR UPDATE */
    ST_GAME_TAIL,        /* (game_id, cached_seq) -> snapshot_seq, the moves after it ([[seq, seat, move
                             text]...]; NULL: none, or the game is at cached_seq): behind a lock (sql/017) */
    ST_MOVE_LOCK,        /* (game_id, token_hash, cached_seq) -> the columns of ST_GAME_LOCK (NULL for another
                             game's token; the snapshot NULL when the game is at cached_seq), whether the token's
                             game is game_id, its seat; no row for an unknown token */
    ST_MOVE_AFTER_LOCK,  /* (game_id, token_hash, idempotency_key|NULL, cached_seq) -> enabled webhook
                             endpoints, the stored response for that seat's key (NULL: none), the SHA-256 of the
                             request it answered (NULL: none, or stored before the hash was), the seq of the key's
                             move (NULL: none), a bot on the seat, seats linked to a player, then ST_GAME_TAIL's
                             two */
    ST_MOVE_FAST_LOCK,   /* (game_id): the game row locked, nothing read: the first statement of a move sent in
                             one round trip (game_reads.h: cd_move_guard_deferred) */
    ST_MOVE_GUARD,       /* (game_id, token_hash, seq, seat, idempotency_key|NULL, check_linked) -> true, or the
                             error CD001 (sql/016) when the locked game is not as the state cache holds it */
    ST_GAME_GET,         /* (game_id) -> seq, status, setup, snapshot, seed_sha256, created_at, updated_at,
                                         finished_at, seed (only once finished), names (JSON array), clock,
                                         bots, snapshot_seq, the moves after it and their seed (sql/017) */
    ST_GAME_GET_ADMIN,   /* (game_id) -> the same, seed always */
    ST_GAME_GET_SEAT,    /* (token_hash, game_id, cached_seq) -> the columns of ST_GAME_GET (the snapshot NULL
                             and the moves after it NULL when the game is at cached_seq), then whether the token's game is game_id and its
                             seat; no row for an unknown token, NULL game columns for another game's token */
    ST_GAME_GET_PLAY,    /* (token_hash, game_id, cached_seq) -> the same with only seq, status, snapshot,
                             seed_sha256 and seed (legal-moves), the other game columns (names, clock too) NULL */
    ST_SEATS_OF_GAME,    /* (game_id) -> seat, name */
    ST_SEAT_HOLD,        /* (game_id, seat, bearer_hash) -> 1 when the seat is still the bearer's (its token, or
                            linked to its player key), the row locked FOR SHARE until the transaction ends */
    ST_TOKEN_LOOKUP,     /* (token_hash) -> game_id, seat */
    ST_GAME_UPDATE,      /* (game_id, seq, snapshot|NULL: the checkpoint stays, status, pending_seat, pending_kind) */
    ST_MOVES_AFTER,      /* (game_id, after_seq, limit) -> seq, seat, move, events, origin */
    ST_GAMES_LIST,       /* (status|NULL, after_id|NULL, limit) -> id, status, seq, created_at, updated_at,
                                         nplayers, pending_seat */
    ST_NOTIFY_MOVE,      /* (payload) */
    ST_AUDIT_INSERT,     /* (action, game_id|NULL, actor, actor_name|NULL, remote_addr|NULL, user_agent|NULL,
                             detail) -> id */
    ST_AUDIT_LIST,       /* (before_id|NULL, game_id|NULL, action|NULL, limit) -> id, at, action, game_id,
                             actor, actor_name, remote_addr, user_agent, detail   (newest first) */
    /* webhooks: webhook_outbox.c (ENDPOINTS_ACTIVE, OUTBOX_INSERT, NOTIFY), webhook_endpoints.c (ENDPOINT_INSERT,
     * GAME_FOR_HOOK, ENDPOINT_GET, ENDPOINTS_LIST, ENDPOINT_DELETE), webhook_deliveries.c (DELIVERIES, DELIVERY_GET,
     * REDELIVER), webhook_worker.c (CLAIM, NEXT_DUE, ATTEMPT_DONE, OUTBOX_DONE, DELIVERED, ENDPOINT_GONE) */
    ST_WH_ENDPOINTS_ACTIVE,  /* (game_id) -> id, seat, format, events   (not disabled) */
    ST_WH_ENDPOINT_INSERT,   /* (game_id, seat, url, format, events, secret) -> id, created_at */
    ST_WH_OUTBOX_INSERT,     /* (endpoint_id, msg_id, event, game_id, seq, body, delay_s) */
    ST_WH_NOTIFY,            /* (payload): wakes the delivery workers */
    ST_WH_GAME_FOR_HOOK,     /* (game_id) -> status   FOR NO KEY UPDATE of the game */
    ST_WH_ENDPOINTS_COUNT,   /* (game_id, seat|NULL) -> the seat's (the admin's) endpoints, after ST_WH_GAME_FOR_HOOK */
    ST_WH_ENDPOINT_GET,      /* (game_id, id) -> WH_ENDPOINT columns */
    ST_WH_ENDPOINTS_LIST,    /* (game_id, seat|NULL = all) -> WH_ENDPOINT columns */
    ST_WH_ENDPOINT_DELETE,   /* (game_id, id) */
    ST_WH_DELIVERIES,        /* (endpoint_id, before_id|NULL, limit) -> WH_DELIVERY columns, newest first */
    ST_WH_DELIVERY_GET,      /* (endpoint_id, id) -> WH_DELIVERY columns */
    ST_WH_REDELIVER,         /* (endpoint_id, id) -> id */
    ST_WH_CLAIM,             /* (limit, lease_s, worker) -> id, lease, msg_id, body, attempt, tries, url, secret,
                                                         endpoint_id, disabled, age_s (since written) */
    ST_WH_NEXT_DUE,          /* () -> seconds until the next pending row is due (NULL: none) */
    ST_WH_ATTEMPT_DONE,      /* (outbox_id, attempt, duration_ms, status, error) */
    ST_WH_OUTBOX_DONE,       /* (id, lease, state, delay_s, status, error, refund) -> id */
    ST_WH_DELIVERED,         /* (id, lease, attempt, status, duration_ms): a 2xx, outbox row and attempt at once */
    ST_WH_ENDPOINT_GONE,     /* (endpoint_id, reason): disable it, fail its pending rows */
    /* turn clocks, players: clocks.c (CLOCK_UPDATE, CLOCK_CLAIM, CLOCK_DUE_PEEK), players.c (the rest); ST_GAME_UPDATE_CLOCK is
     * moves.c's */
    ST_CLOCK_UPDATE,         /* (game_id, clock, clock_deadline|NULL, clock_due|NULL) */
    ST_GAME_UPDATE_CLOCK,    /* (game_id, seq, snapshot|NULL, status, pending_seat, pending_kind, clock|NULL,
                                 clock_deadline|NULL, clock_due|NULL) */
    ST_CLOCK_CLAIM,          /* (now) -> game_id of one game whose clock is due, locked (SKIP LOCKED) */
    ST_CLOCK_DUE_PEEK,       /* (now) -> game_id of the game ST_CLOCK_CLAIM would take, unlocked (for the log) */
    ST_CLOCK_DEFER,          /* (game_id, clock_due): a due clock that failed, looked at again later */
    ST_PLAYER_INSERT,        /* (name|NULL, key_hash) -> id */
    ST_PLAYER_BY_KEY,        /* (key_hash) -> id */
    ST_SEAT_LINK,            /* (game_id, seat, key_hash) -> player_id   (no row: no such player) */
    ST_ME_GAMES,             /* (player_id, status|NULL, limit) -> id, seat, status, seq, pending_seat,
                                 pending kind, clock_deadline (epoch), updated_at, clock */
    /* GET /metrics (gauges.c) */
    ST_GAUGES,               /* () -> active games, finished games, pending webhook messages, age of the oldest
                                 (s), overdue clocks, how overdue the most overdue is (s) */
    /* play by e-mail (db/mail_seats.c, db/mail_outbox.c, db/mail_in.c) */
    ST_MAIL_SEATS_ACTIVE,    /* (game_id) -> seat, email, tag   (not stopped) */
    ST_MAIL_SEAT_PUT,        /* (game_id, seat, email, tag) -> the row's tag: set (and restart) a seat's mail; a
                                seat that had a row keeps its tag */
    ST_MAIL_SEAT_DELETE,     /* (game_id, seat) */
    ST_MAIL_SEAT_GET,        /* (game_id, seat) -> email, stopped_at, stopped_reason */
    ST_MAIL_SEATS_ALL,       /* (game_id) -> seat, email, stopped_at, stopped_reason */
    ST_MAIL_SEAT_BY_TAG,     /* (tag) -> game_id, seat, email, stopped_at IS NOT NULL */
    ST_MAIL_SEAT_TAGS,       /* (game_id) -> seat, tag: the reply tags of a game's seats with an address */
    ST_MAIL_SEAT_STOP,       /* (game_id, seat, email, reason): stop that address's mail */
    ST_MAIL_TAG_GEN,         /* (game_id) -> the seats that left it while it waited (sql/029), 0 for none */
    ST_MAIL_OUTBOX_INSERT,   /* (game_id, seat, kind, seq, msg_id, rcpt, body) */
    ST_MAIL_NOTIFY,          /* (): wakes the senders */
    ST_MAIL_CLAIM,           /* (lease_s) -> id, lease, rcpt, body, tries, game_id, seat, stopped */
    ST_MAIL_DONE,            /* (id, lease, state, delay_s, error) -> id */
    ST_MAIL_BOUNCED,         /* (id, error) -> game_id, seat, rcpt: a sent mail bounced */
    ST_OPEN_SEAT_MAILS,      /* (game_id) -> rcpt, state, tries, last_error, sent_at: the newest per address */
    ST_MAIL_ANSWERS_RECENT,  /* (game_id, seat, rcpt) -> count: answers to replies sent there in the last hour */
    ST_MAIL_LOBBY_RECENT,    /* (game_id, rcpt) -> count: a waiting game's join and leave mails there, last hour */
    ST_MAIL_IN_INSERT,       /* (message_id, game_id, seat, outcome, detail) -> 1 when new (no row: handled before) */
    /* the log in either form, compaction and the idempotency sweep (db/move_log.c, sql/010_compact_log.sql) */
    ST_LOG_AFTER,            /* (game_id, after_seq, limit) -> seq, seat, move, events|NULL, clock?, NULL; or one
                                 row NULL, ..., log for a compacted game */
    ST_LOG_ALL,              /* (game_id) -> the same for seq > 0 */
    ST_GAME_REPLAY_READ,     /* (game_id) -> setup, seed */
    ST_COMPACT_CLAIM,        /* (skip: uuid[]) -> id of a finished game still in rows, locked (SKIP LOCKED) */
    ST_COMPACT_STORE,        /* (game_id, log) */
    ST_COMPACT_DELETE,       /* (game_id): its rows in moves */
    ST_IDEM_SWEEP,           /* (before: epoch s, limit): key, answer and hash of older moves forgotten */
    /* player keys acting for seats, invitations, the lobby, rematches (db/lobby.c) */
    ST_KEY_SEATS,            /* (key_hash, game_id, seat|NULL) -> token_hash|NULL, seat|NULL   (no row: no such
                                 key; one row of NULLs: the key holds no seat of the game) */
    ST_SEAT_TOKEN_RENEW,     /* (game_id, seat, key_hash, new token_hash) -> seat   (no row: not that key's) */
    ST_WAITING_INSERT,       /* (game_id, settings, nseats, public, creator_hash, rematch_of|NULL, now) */
    ST_INVITE_INSERT,        /* (game_id, place, code_hash|NULL, old_seat|NULL) */
    ST_WAITING_LOCK,         /* (game_id): the game row locked */
    ST_WAITING_READ,         /* (game_id) -> status, public, nseats, creator_hash, settings, rematch_of, seed,
                                 seats taken, cancelled_by, last_join_at, expiry_warned (after ST_WAITING_LOCK) */
    ST_INVITES,              /* (game_id) -> place, code_hash, old_seat, seat, email, email_displaced, by_code */
    ST_INVITE_TAKE,          /* (game_id, place, seat, by_code) */
    ST_INVITE_EMAIL,         /* (game_id, place, email) */
    ST_INVITE_DISPLACE,      /* (game_id, place) */
    ST_INVITE_REPLY_TAG,     /* (game_id, place, tag) */
    ST_INVITE_BY_TAG,        /* (tag) -> game_id, place */
    ST_WAITING_CREATOR,      /* (game_id) -> creator_hash|"" (no row: not created waiting) */
    ST_INVITE_STOP_LINK,     /* (token_hash, email_hash): an invitation mail's stop link */
    ST_INVITE_STOP,          /* (token_hash) -> 1 row when the link exists: its address opted out */
    ST_INVITE_OPTED_OUT,     /* (email_hash) -> 1 row when the address opted out */
    ST_WAITING_SEATS,        /* (game_id) -> seat, name, player_id */
    ST_GAME_START,           /* (game_id, status, setup, snapshot, pending_seat, clock, deadline, due) */
    ST_GAME_CANCEL,          /* (game_id, cancelled_by) */
    ST_LOBBY_LIST,           /* (expansions|NULL, nseats|NULL, clock|NULL, limit) -> id, nseats, taken, settings,
                                 created_at, names, last_join_at (epoch) */
    ST_WAITING_VIEW,         /* (game_id) -> status, nseats, public, settings, rematch_of, seed_sha256,
                                 created_at, updated_at, names, open places, last_join_at (epoch) */
    ST_WAITING_COUNT_ANEW,   /* (game_id, now: epoch s): its expiry counts from now */
    ST_WAITING_EXPIRED,      /* (before: epoch s, limit) -> game_id of warned waiting games not joined since */
    ST_WAITING_TO_WARN,      /* (before: epoch s, limit) -> game_id of waiting games to tell of their expiry */
    ST_WAITING_WARNED,       /* (game_id, before, late_before, late_to) -> last_join_at (epoch) when marked told */
    ST_WAITING_ENDED,        /* (game_id): its expiry stops counting */
    ST_REMATCH_OF,           /* (finished game_id) -> the waiting game offered as its rematch */
    ST_SEAT_INSERT_PLAYER,   /* (game_id, seat, name, token_hash, player_id|NULL): a rematch's seat */
    ST_SEAT_LEAVE,           /* (game_id, seat, removed): the seat leaves the waiting game, the later ones move down
                                one, its token is remembered (carcd_seat_gone, sql/032) */
    ST_TOKEN_WAS,            /* (token_hash, game_id) -> 'l' a seat left, 'r' removed, 'c' the creator's token */
    ST_SEAT_REMOVAL_ADD,     /* (game_id, player_id): the creator removed the player's seat (sql/030) */
    ST_KEY_REMOVED,          /* (game_id, key_hash) -> a row when the key's player was removed from the game */
    ST_INVITE_RENEW,         /* (game_id, place, code_hash): the place opens again to a new code, unmailed */
    /* players' event streams (db/player_events.c) and the admin's cancel (db/admin_cancel.c), sql/009 */
    ST_PLAYER_EVENTS_SEATS,  /* (game_id, seq, seat|-1 = every seat|-2 = the pending one, kind, status|NULL): an event for the players
                                 linked to the seat(s), numbered, with their NOTIFY */
    ST_PLAYER_EVENTS_OTHERS, /* (game_id, seq, seat, kind, NULL): an event for the players linked to the other seats */
    ST_PLAYER_EVENT_ONE,     /* (game_id, seq, player_id, kind, NULL, seat|NULL): one event for one player */
    ST_PLAYER_EVENTS_AFTER,  /* (player_id, after_n, limit) -> n, kind, game_id, seq, seat, status, at */
    ST_GAME_ADMIN_CANCEL,    /* (game_id, seq, move): status cancelled at seq + 1, the log entry, the NOTIFY */
    /* bots (db/bots.c) */
    ST_BOT_SEAT_SET,         /* (game_id, seat, bot json): carcd plays the seat from now on */
    ST_BOT_GAME_FLAGS,       /* (game_id, bot_after_leave): the bot worker looks at this game */
    ST_BOT_CLAIM,            /* (now, lease_s) -> game_id, pending_seat, the seat's bot|NULL: one game a bot moves
                                in now, leased (SKIP LOCKED) */
    ST_BOT_RELEASE,          /* (game_id): the lease ends (the move is in, or it was thought for a stale seq) */
    ST_BOT_AFTER_LEAVE,      /* (game_id) -> bot_after_leave */
    ST_BOT_SEAT_MASK,        /* (game_id) -> a bit per seat a bot plays */
    /* table talk (db/messages.c) */
    ST_MSG_SEAT_LOCK,        /* (game_id, seat, bearer_hash|NULL) -> 1   FOR UPDATE of the seat, when still the
                                bearer's */
    ST_MSG_INSERT,           /* (game_id, seat, text, origin, now, window_s, max) -> id, seq, created_at (NULL when
                                 the seat is at its limit), when the oldest message in the window leaves it (s), the
                                 author's name */
    ST_MSG_NOTIFY,           /* (payload "<game>:m<id>") */
    ST_MSG_AFTER,            /* (game_id, after_id, reader seat|NULL, with_hidden, limit) -> id, seat, name, seq,
                                 text, created_at, hidden, visible */
    ST_MSG_FOR_MAIL,         /* (game_id, seat, limit) -> the columns of ST_MSG_AFTER */
    ST_MSG_GAME_CHAT,        /* (game_id) -> public_chat */
    ST_MSG_PUBLIC_CHAT_SET,  /* (game_id) */
    ST_MSG_HIDE,             /* (game_id, id, now) -> seat, whether it was hidden already */
    ST_MUTE_PUT,             /* (game_id, seat, muted) */
    ST_MUTE_DELETE,          /* (game_id, seat, muted) */
    ST_MUTES_OF,             /* (game_id, seat) -> muted */
    /* deliveries_forget.c: the outboxes' ended rows, the replies handled and the players' events, after
     * CARCD_DELIVERY_TTL (sql/034, 035, 036) */
    ST_MAIL_FORGET,          /* (before: epoch s, limit): ended mails deleted, but what a running game needs */
    ST_WH_FORGET,            /* (before, limit): ended webhook messages deleted, their attempts with them */
    ST_WH_GONE_FORGET,       /* (before, limit): gone endpoints with no message left deleted */
    ST_MAIL_IN_FORGET,       /* (before, limit): replies handled that no move can come of again (sql/035) */
    ST_PLAYER_EVENTS_FORGET, /* (before, limit): players' events written before it (sql/036) */
    CD_NSTMTS
} cd_stmt;

/* One statement: its id, its prepared statement name (bench/ and the tests use these), its SQL. */
typedef struct {
    cd_stmt id;
    const char *name;
    const char *sql;
    int nparams;
} cd_stmt_info;

/* The statements of one query file. */
typedef struct {
    const cd_stmt_info *rows;
    int n;
} cd_stmt_family;

/* The families, one per query file (defined there); store.c lists them all. */
extern const cd_stmt_family cd_stmts_db, cd_stmts_games_table, cd_stmts_game_reads, cd_stmts_moves,
    cd_stmts_audit_log, cd_stmts_webhook_outbox, cd_stmts_webhook_endpoints, cd_stmts_webhook_deliveries,
    cd_stmts_webhook_worker, cd_stmts_clocks, cd_stmts_players, cd_stmts_gauges, cd_stmts_mail_seats,
    cd_stmts_mail_outbox, cd_stmts_mail_in, cd_stmts_move_log, cd_stmts_lobby, cd_stmts_bots, cd_stmts_messages,
    cd_stmts_player_events, cd_stmts_admin_cancel, cd_stmts_invite_optouts, cd_stmts_deliveries_forget;
extern const cd_stmt_family *const cd_stmt_families[];
extern const int cd_nstmt_families;

/* The row of statement `id` (any thread), or NULL when no family has one (db.c refuses to connect then). */
const cd_stmt_info *cd_stmt_row(int id);
extern const int cd_nstmts;   /* CD_NSTMTS */

/* timestamps leave the database as ISO 8601 UTC text */
#define CD_SQL_ISO(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

#endif
