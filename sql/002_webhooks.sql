-- 002_webhooks.sql — webhook endpoints, the outbox of messages to deliver, and every delivery attempt.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A move's transaction (or a game's creation) writes one outbox row per message and endpoint, so a message
-- exists exactly when the move that caused it committed. The delivery worker of any carcd process claims
-- due rows with FOR UPDATE SKIP LOCKED and leases them by moving due_at past the send's timeout and
-- stamping a fresh `lease`; only the holder of that lease may record the outcome. A worker that dies
-- mid-send leaves its rows to come due again when the lease runs out (at least once, never lost).

CREATE TABLE webhook_endpoints (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    game_id         uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            integer,                 -- NULL: the whole game (admin); else that seat's notifications
    url             text NOT NULL,           -- http(s); checked against the address policy when created
    format          text NOT NULL CHECK (format IN ('json', 'discord', 'slack')),
    events          text[] NOT NULL,         -- event types it receives
    secret          text NOT NULL,           -- whsec_<base64>: the HMAC key; shown once, never answered again
    created_at      timestamptz NOT NULL DEFAULT now(),
    disabled_at     timestamptz,             -- the receiver answered 410 Gone: nothing more is sent
    disabled_reason text
);
CREATE INDEX webhook_endpoints_game ON webhook_endpoints (game_id);

-- One message for one endpoint; the API calls a row a "delivery".
CREATE TABLE webhook_outbox (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id  uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    msg_id       text NOT NULL UNIQUE,       -- the webhook-id header: the same on every attempt
    event        text NOT NULL,              -- turn.started, move.made, game.finished
    game_id      uuid NOT NULL,
    seq          integer NOT NULL,           -- the game's seq the message is about
    body         text NOT NULL,              -- the exact bytes sent and signed
    state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    tries        integer NOT NULL DEFAULT 0, -- attempts in the current round (a redeliver starts a new one)
    attempts     integer NOT NULL DEFAULT 0, -- attempts ever: the number of the last webhook_attempts row
    due_at       timestamptz NOT NULL DEFAULT now(),   -- pending: next attempt, or the end of the lease
    lease        uuid,                       -- the claim in progress; NULL when none
    created_at   timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    last_status  integer,
    last_error   text
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (due_at) WHERE state = 'pending';
CREATE INDEX webhook_outbox_endpoint ON webhook_outbox (endpoint_id, id);

-- Every attempt, written when it is claimed (finished_at NULL: under way, or its sender died) and
-- completed with its outcome.
CREATE TABLE webhook_attempts (
    outbox_id   bigint NOT NULL REFERENCES webhook_outbox (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    worker      text NOT NULL,               -- host:pid of the carcd that made it
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    duration_ms integer,
    status      integer,                     -- the receiver's HTTP status; NULL when it gave none
    error       text,
    PRIMARY KEY (outbox_id, attempt)
);
