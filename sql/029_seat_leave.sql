-- 029_seat_leave.sql — a seat taken by a join leaves a game that still waits (POST /v1/games/{id}/leave).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- Seats are numbered in the order they are taken (008), and the engine plays seats 0..n-1, so the seats taken
-- after the one that leaves move down by one, and everything kept by seat number moves with them: their address
-- and reply tag, their mail, their webhook endpoints, their messages and mutes, the place each one took. The
-- leaving seat's own rows go, and its place opens again (its mailed address back, if a lobby join had moved it
-- aside, 022). The players' event streams are their history and keep the seat numbers they were told.
--
-- game_waiting.leaves counts the seats that left: a seat's reply tag is an HMAC over the game, the seat and this
-- count (daemon/mail/tag.c), so that a tag that a leaving or a renumbered seat already holds in its mail is never
-- handed to the next person to take that seat number.

ALTER TABLE game_waiting ADD COLUMN leaves integer NOT NULL DEFAULT 0;

-- the author of a message moves with the seat's number
ALTER TABLE game_messages DROP CONSTRAINT game_messages_game_id_seat_fkey;
ALTER TABLE game_messages ADD CONSTRAINT game_messages_game_id_seat_fkey
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE ON UPDATE CASCADE;

-- player_left: a seat of a waiting game the player is in was given up (the players of the seats that stay)
ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check;
ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check
    CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over', 'player_joined', 'game_expiring',
                    'game_kept_open', 'player_left'));

-- Seat k of waiting game g leaves, under the game row's lock (daemon/game/lobby_leave.c). A unique key is checked
-- row by row, so the seats after k step out of the way (+1000000) before they step down into place.
CREATE FUNCTION carcd_seat_leave(g uuid, k integer) RETURNS void
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    DELETE FROM message_mutes WHERE game_id = g AND (seat = k OR muted = k);
    DELETE FROM webhook_endpoints WHERE game_id = g AND seat = k;
    DELETE FROM mail_outbox WHERE game_id = g AND seat = k;
    DELETE FROM mail_seats WHERE game_id = g AND seat = k;
    DELETE FROM seats WHERE game_id = g AND seat = k;
    UPDATE seat_invites SET seat = NULL, email = COALESCE(email, email_displaced), email_displaced = NULL
     WHERE game_id = g AND seat = k;

    UPDATE seats SET seat = seat + 1000000 WHERE game_id = g AND seat > k;
    UPDATE seats SET seat = seat - 1000001 WHERE game_id = g AND seat >= 1000000;
    UPDATE mail_seats SET seat = seat + 1000000 WHERE game_id = g AND seat > k;
    UPDATE mail_seats SET seat = seat - 1000001 WHERE game_id = g AND seat >= 1000000;
    UPDATE message_mutes SET seat = CASE WHEN seat > k THEN seat + 1000000 ELSE seat END,
                             muted = CASE WHEN muted > k THEN muted + 1000000 ELSE muted END
     WHERE game_id = g AND (seat > k OR muted > k);
    UPDATE message_mutes SET seat = CASE WHEN seat >= 1000000 THEN seat - 1000001 ELSE seat END,
                             muted = CASE WHEN muted >= 1000000 THEN muted - 1000001 ELSE muted END
     WHERE game_id = g AND (seat >= 1000000 OR muted >= 1000000);
    UPDATE webhook_endpoints SET seat = seat - 1 WHERE game_id = g AND seat > k;
    UPDATE mail_outbox SET seat = seat - 1 WHERE game_id = g AND seat > k;
    UPDATE seat_invites SET seat = seat - 1 WHERE game_id = g AND seat > k;

    UPDATE game_waiting SET leaves = leaves + 1 WHERE game_id = g;
    UPDATE games SET updated_at = now() WHERE id = g;
END
$$;
