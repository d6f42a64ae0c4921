-- 032_seats_gone.sql — the tokens of seats given up before the start, so that the link a person still holds
-- says what became of its seat. Applied by `carcd migrate` like 001; never edit an applied migration: add a new
-- numbered file instead.
--
-- A seat of a waiting game that leaves (POST .../leave, a reply "leave") or that its creator removes (POST
-- .../seats/{seat}/remove) goes with its row (carcd_seat_leave, 029), and its token then belonged to nobody: the
-- removed person's open page said only that its token was wrong. The token's hash is kept here with what
-- happened, and a request with it is answered 403 seat-removed or seat-given-up (daemon/handlers/request.h).
-- Only a hash: the token itself was never stored.

CREATE TABLE seats_gone (
    token_hash text PRIMARY KEY,                          -- SHA-256 hex of the seat's token, as seats.token_hash
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    removed    boolean NOT NULL,                          -- its creator removed it; false: its player gave it up
    gone_at    timestamptz NOT NULL DEFAULT now()
);

-- Seat k of waiting game g goes (removed: by its creator), under the game row's lock: its token is remembered,
-- the mail rows about to move down keep their first number as their thread's (031), then carcd_seat_leave (029).
CREATE FUNCTION carcd_seat_gone(g uuid, k integer, removed boolean) RETURNS void
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    INSERT INTO seats_gone (token_hash, game_id, removed)
    SELECT token_hash, game_id, removed FROM seats WHERE game_id = g AND seat = k
    ON CONFLICT DO NOTHING;
    UPDATE mail_seats SET thread_seat = COALESCE(thread_seat, seat) WHERE game_id = g AND seat > k;
    PERFORM carcd_seat_leave(g, k);
END
$$;
