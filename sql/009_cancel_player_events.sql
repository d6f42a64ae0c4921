-- 009_cancel_player_events.sql — games the admin cancels (POST /v1/admin/games/{id}/cancel), and one stream
-- of events per player across their games (GET /v1/me/events).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.

-- A cancelled game ended with no winner; 'waiting' (a game whose open seats are not all taken) is named here
-- too, so that this check, which replaces the one of 001 (and of any migration before it that named
-- 'waiting'), leaves every status the daemon writes allowed.
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('active', 'waiting', 'finished', 'cancelled'));

-- The admin's cancel is an entry of the game's log (seat NULL, move {"kind": "cancel"}), so long-polls and
-- streams wake with it and replay knows where the game stopped.
ALTER TABLE moves DROP CONSTRAINT IF EXISTS moves_origin_check;
ALTER TABLE moves ADD CONSTRAINT moves_origin_check CHECK (origin IN ('seat', 'clock', 'admin'));

-- A player's events, numbered per player (n = 1, 2, ...: the stream's cursor and SSE id): written in the
-- transaction of what caused them (a move, a creation, a cancel, an invitation), each with a NOTIFY
-- carcd_moves '<player id>:<n>' that wakes the player's waiting streams. One row (about 100 bytes) per turn
-- of a linked seat, a game's start and its end; deleted with the player or the game.
ALTER TABLE players ADD COLUMN events_n integer NOT NULL DEFAULT 0;
CREATE TABLE player_events (
    player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    n         integer NOT NULL,
    kind      text NOT NULL CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over')),
    game_id   uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       integer NOT NULL,                    -- the game's seq when it happened
    seat      integer,                             -- the player's seat in that game (NULL: none yet)
    status    text,                                -- game_over: 'finished' or 'cancelled'
    at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, n)
);
CREATE INDEX player_events_game ON player_events (game_id);
