-- 024_waiting_expiry.sql — a game that waits for its seats expires when nobody joins it for a while
-- (CARCD_WAITING_TTL, the clock worker: daemon/game/lobby_expire.c).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- last_join_at is carcd's clock (CARCD_TIME_FILE in tests) at the creation or the game's latest join; the game
-- is cancelled once it is older than the TTL. NULL once the game started or was cancelled, so that the
-- partial index holds only the games that still wait. The games waiting when this migration runs count from
-- their creation (the database's clock, as games.created_at was written).

ALTER TABLE game_waiting ADD COLUMN last_join_at timestamptz;
UPDATE game_waiting w SET last_join_at = g.created_at FROM games g WHERE g.id = w.game_id AND g.status = 'waiting';
CREATE INDEX game_waiting_last_join ON game_waiting (last_join_at) WHERE last_join_at IS NOT NULL;
