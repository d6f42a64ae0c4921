-- 013_admin_origin.sql — the origins of a move row, every one the daemon writes: 011_bots.sql re-made the
-- check with 'bot' but without 009_cancel_player_events.sql's 'admin' (the admin's cancel, its log's last row).
ALTER TABLE moves DROP CONSTRAINT IF EXISTS moves_origin_check;
ALTER TABLE moves ADD CONSTRAINT moves_origin_check CHECK (origin IN ('seat', 'clock', 'bot', 'admin'));
