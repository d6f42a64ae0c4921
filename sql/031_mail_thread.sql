-- 031_mail_thread.sql — a seat's mail stays in one thread when the seat moves down. Applied by `carcd migrate`
-- like 001; never edit an applied migration: add a new numbered file instead.
--
-- Every mail of a seat names a thread root made of the game and the seat's number (daemon/mail/compose.h), so
-- that a mail program shows one thread per game. A seat of a waiting game moves down when an earlier one leaves
-- (029), and its later mail named the new number: a second thread, in the middle of its conversation. A moved
-- seat's row now keeps the number its thread started under. NULL: its own number, as for every seat that never
-- moved (and every row before 031, whose mail named that number too).

ALTER TABLE mail_seats ADD COLUMN thread_seat integer;

-- carcd_seat_leave (029) as it was, but for the mail rows that move down: each keeps its first number as its
-- thread's.
CREATE OR REPLACE FUNCTION carcd_seat_leave(g uuid, k integer) RETURNS void
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
    UPDATE mail_seats SET seat = seat + 1000000, thread_seat = COALESCE(thread_seat, seat)
     WHERE game_id = g AND seat > k;
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
