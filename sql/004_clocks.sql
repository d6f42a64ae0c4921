-- 004_clocks.sql — turn clocks (daemon/clock.c), moves the clock makes, and player keys that link seats.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- The clock lives on the game row, so a move's transaction updates it in the same UPDATE that stores the
-- snapshot: no extra statement per move. clock_deadline and clock_due are derived from `clock` (by the
-- daemon, whose time source tests can replace) so that the clock worker and "my games" can use an index.

ALTER TABLE games ADD COLUMN clock jsonb;                -- settings and where the clock stands; NULL: none
ALTER TABLE games ADD COLUMN clock_deadline timestamptz; -- the waited-for seat's deadline (NULL: none, paused)
ALTER TABLE games ADD COLUMN clock_due timestamptz;      -- the clock worker's next action: reminder or timeout
CREATE INDEX games_clock_due ON games (clock_due) WHERE clock_due IS NOT NULL;

-- Who made a logged move: the seat through the API, or the clock for a seat that ran out of time.
ALTER TABLE moves ADD COLUMN origin text NOT NULL DEFAULT 'seat' CHECK (origin IN ('seat', 'clock'));

-- A person across games: the key (shown once, stored hashed) links seats for GET /v1/me/games.
CREATE TABLE players (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text,
    key_hash   text NOT NULL UNIQUE,                 -- SHA-256 hex of the key
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE seats ADD COLUMN player_id uuid REFERENCES players (id) ON DELETE SET NULL;
CREATE INDEX seats_player ON seats (player_id) WHERE player_id IS NOT NULL;
