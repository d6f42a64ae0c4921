-- 008_lobby.sql — games that wait for their seats: invitations, the lobby and rematches (handlers/lobby.h).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A game created with open seats is a games row with status 'waiting' (its set-up and snapshot are empty
-- objects, no clock, no pending seat) and a game_waiting row with the settings it will be set up with once
-- it starts. The seed is drawn and its hash published at creation, as for any game. A waiting game that its
-- creator cancels is 'cancelled' and never had a state.

ALTER TABLE games DROP CONSTRAINT IF EXISTS games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('waiting', 'active', 'finished', 'cancelled'));

CREATE TABLE game_waiting (
    game_id      uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    settings     jsonb NOT NULL,             -- expansions, options, clock as requested, emails of named seats
    nseats       integer NOT NULL,           -- the seats asked for, taken or open
    public       boolean NOT NULL DEFAULT false,   -- listed by GET /v1/lobby while it has open seats
    creator_hash text NOT NULL,              -- SHA-256 hex of the creator token (start, cancel)
    rematch_of   uuid UNIQUE REFERENCES games (id) ON DELETE SET NULL   -- the finished game it replays
);
CREATE INDEX game_waiting_public ON game_waiting (game_id) WHERE public;

-- A place of a waiting game that a join may take: by its invite code (code_hash, compared in constant time
-- by carcd), by the lobby (a public game, no code) or, for a rematch, by the seat of the finished game
-- (old_seat). `seat` is the seat number it became once taken (seats are numbered in the order they are
-- taken, named seats first); NULL while open.
CREATE TABLE seat_invites (
    game_id   uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    place     integer NOT NULL,              -- its index among the game's open places
    code_hash text,                          -- SHA-256 hex of the invite code; NULL for a rematch's place
    old_seat  integer,                       -- a rematch: the seat of the finished game this place is for
    seat      integer,
    PRIMARY KEY (game_id, place)
);
