-- 033_gone_endpoints.sql — a seat given up before the start tells its own webhook endpoints that it went.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A seat's webhook endpoints went with it (carcd_seat_leave, 029), and a bot that follows its seat by webhook
-- alone never heard that the seat was gone. Its endpoints that take player.left now hear that last event
-- (daemon/game/lobby_leave.c fans it out in the same transaction) and then nothing: they are kept, without a
-- seat, as gone (gone_at), out of every list, count and fan-out but that one (db/webhook_outbox.c), so that the
-- sender still delivers what was written for them. The seat's other endpoints go as before.
ALTER TABLE webhook_endpoints ADD COLUMN gone_at timestamptz;

-- carcd_seat_gone (032) as it was, and first the seat's endpoints that take player.left kept as gone: before
-- carcd_seat_leave deletes the seat's endpoints.
CREATE OR REPLACE FUNCTION carcd_seat_gone(g uuid, k integer, removed boolean) RETURNS void
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    INSERT INTO seats_gone (token_hash, game_id, removed)
    SELECT token_hash, game_id, removed FROM seats WHERE game_id = g AND seat = k
    ON CONFLICT DO NOTHING;
    UPDATE webhook_endpoints SET seat = NULL, gone_at = now()
     WHERE game_id = g AND seat = k AND disabled_at IS NULL AND 'player.left' = ANY (events);
    UPDATE mail_seats SET thread_seat = COALESCE(thread_seat, seat) WHERE game_id = g AND seat > k;
    PERFORM carcd_seat_leave(g, k);
END
$$;
