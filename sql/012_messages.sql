-- 012_messages.sql — table talk: what the seats of a game write to each other (POST /v1/games/{id}/messages),
-- whom each seat has muted for itself, and whether spectators may read along. Applied by `carcd migrate`
-- like 001; never edit an applied migration.
--
-- A message is text, never a move: it is not in the move log, does not change games.seq (the ETag of every
-- view) and is not replayed. It records the game's seq when it was written, so a reader can place it beside
-- the moves. The admin can hide one (hidden_at; the action is in admin_audit): it is then left out of every
-- seat's and the public's reading, kept for the admin.

-- Spectators (no token) read the game's messages only when it was created with "public_chat": true.
ALTER TABLE games ADD COLUMN public_chat boolean NOT NULL DEFAULT false;

CREATE TABLE game_messages (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,   -- the cursor of ?after= and of the streams
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL,                  -- the author
    seq        integer NOT NULL,                  -- games.seq when it was written
    text       text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 1000),
    origin     text NOT NULL DEFAULT 'api' CHECK (origin IN ('api', 'mail')),
    created_at timestamptz NOT NULL,              -- carcd's clock (CARCD_TIME_FILE in tests), not now()
    hidden_at  timestamptz,                       -- the admin hid it
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);
CREATE INDEX game_messages_game ON game_messages (game_id, id);
-- the rate limit counts a seat's recent messages
CREATE INDEX game_messages_seat_time ON game_messages (game_id, seat, created_at);

-- seat no longer reads muted's messages (its reads, streams and mails); nobody else is affected.
CREATE TABLE message_mutes (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL,
    muted      integer NOT NULL CHECK (muted <> seat),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, muted)
);
