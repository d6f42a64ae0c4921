-- 001_init.sql — games, their secrets, seats and the move log.
-- Applied by `carcd migrate` inside one transaction under an advisory lock; never edit an applied
-- migration: add a new numbered file instead.

CREATE TABLE games (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    seq          integer NOT NULL DEFAULT 0,           -- moves applied; the ETag of every view
    setup        jsonb NOT NULL,                       -- nplayers, expansions, options, script: replays
    snapshot     jsonb NOT NULL,                       -- the engine state after `seq`, without the seed
    seed_sha256  text NOT NULL,                        -- published at creation
    pending_seat integer,                              -- whose decision the game waits for (NULL: over)
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX games_status_created ON games (status, created_at, id);
CREATE INDEX games_created ON games (created_at, id);

-- The seed lives apart so that view code never reads it by accident; it is revealed when the game ends.
CREATE TABLE game_secrets (
    game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seed    text NOT NULL                               -- 64 hex digits
);

CREATE TABLE seats (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL,
    name       text NOT NULL,
    token_hash text NOT NULL UNIQUE,                    -- SHA-256 hex of the bearer token, never the token
    PRIMARY KEY (game_id, seat)
);

-- The move log: seq 0 holds the opening events, every later row one applied move.
CREATE TABLE moves (
    game_id         uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq             integer NOT NULL,
    seat            integer,                            -- NULL for seq 0
    move            jsonb,                              -- as posted (NULL for seq 0)
    events          jsonb NOT NULL,                     -- everything, admin view; filtered per reader
    idempotency_key text,
    response        jsonb,                              -- the 200 answer, replayed for a repeated key
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
CREATE UNIQUE INDEX moves_idempotency ON moves (game_id, seat, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
