-- 014_bots_left.sql — which bot seats a bot took over from a player who left (bot_after_leave: a resignation
-- or a forfeit), as against the seats made for a bot at creation. A rematch (handlers/rematch.c) makes the
-- latter bots again and offers the former back to their player, whose old token or key accepts it.
-- Seats taken over before this migration read as made for a bot (nothing older tells them apart).
ALTER TABLE seats ADD COLUMN left_to_bot boolean NOT NULL DEFAULT false;
