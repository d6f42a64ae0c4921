-- 011_bots.sql — seats carcd plays itself (engine/bot/, daemon/clock/bot_worker.c).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A bot seat keeps its kind and think time on the seat. The bot worker of every carcd looks only at games
-- flagged `bots` (a bot seat, a clock whose timeout is "bot", or bot_after_leave) while they are active, and
-- leases the game it thinks for (bot_lease_until), so one process thinks for each move; the move itself is
-- committed under the game's row lock with the seq it was thought at, like any move.

ALTER TABLE seats ADD COLUMN bot jsonb;                  -- {"bot": "mcts", "think_ms": 1000}; NULL: a person
ALTER TABLE games ADD COLUMN bots boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN bot_after_leave boolean NOT NULL DEFAULT false;  -- a bot takes a seat that leaves
ALTER TABLE games ADD COLUMN bot_lease_until timestamptz;  -- a bot worker thinks on this game's move until then
CREATE INDEX games_bots_active ON games (updated_at) WHERE bots AND status = 'active';

-- Who made a logged move: the seat, the clock for a seat out of time, or a bot.
ALTER TABLE moves DROP CONSTRAINT moves_origin_check;
ALTER TABLE moves ADD CONSTRAINT moves_origin_check CHECK (origin IN ('seat', 'clock', 'bot'));
