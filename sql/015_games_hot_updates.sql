-- 015_games_hot_updates.sql — a move's UPDATE of its game row touches no indexed column, so PostgreSQL can make
-- it a HOT update (the new row version on the same page, no index entry written).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- Every move sets games.updated_at, and 011's games_bots_active had it as its key: any indexed column changing
-- makes an update non-HOT, so each move wrote a new entry into every index of games (the primary key,
-- games_status_created, games_created). Under bench/run-http-bench.sh's load none of the games updates was
-- HOT before and 85 % are after. The bot worker's claim (daemon/db/bots.c) still reads only the active games
-- with bots through this index and sorts those few by updated_at itself. (A clocked game's move also sets
-- clock_due, which games_clock_due indexes: those stay non-HOT, as they must for the clock worker's scan.)

DROP INDEX games_bots_active;
CREATE INDEX games_bots_active ON games (id) WHERE bots AND status = 'active';
