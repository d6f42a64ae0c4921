-- 038_seats_ended.sql — a player's seats by when their games ended, for GET /v1/me/games.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- me_games (db/players.c) answers a player's games, those under way first, then the latest ended ones, `limit`
-- of them. It read every seat the player (or a bot's key) ever held and its game's row, then sorted them all:
-- 5 171 seats and 90-160 ms for a player with a few thousand games, growing with the player's history (a
-- helper's audit of every statement on a database of 100 000 games, 2026-12-07). A seat now carries when its
-- game ended, set by the trigger below as the game's status becomes finished or cancelled (a move, the clock,
-- a resignation, the admin's or the creator's cancel, a waiting game's expiry: whatever ends it, one statement
-- for all), so that the query reads the running seats (few) and only the latest `limit` ended ones: 4-5 ms for
-- the same player, the same rows. A seat whose game ended before it was linked to a player (or that an import
-- wrote as over) has none and is read with the running ones, so nothing is missed.
ALTER TABLE seats ADD COLUMN ended_at timestamptz;
UPDATE seats s SET ended_at = g.updated_at
  FROM games g
 WHERE g.id = s.game_id AND g.status IN ('finished', 'cancelled') AND s.player_id IS NOT NULL;
CREATE INDEX seats_player_ended ON seats (player_id, ended_at DESC) WHERE player_id IS NOT NULL;
DROP INDEX seats_player;   -- 004: a prefix of the index above

CREATE FUNCTION carcd_game_ended() RETURNS trigger
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    UPDATE seats SET ended_at = NEW.updated_at WHERE game_id = NEW.id AND player_id IS NOT NULL;
    RETURN NULL;
END
$$;
-- fires once a game, as it ends; every other update of a game row (a move) only tests the WHEN
CREATE TRIGGER games_ended AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (OLD.status IN ('waiting', 'active') AND NEW.status IN ('finished', 'cancelled'))
    EXECUTE FUNCTION carcd_game_ended();
