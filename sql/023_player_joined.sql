-- 023_player_joined.sql — a player_events kind for a join into a waiting game (GET /v1/me/events).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- player_joined: a join took a seat of a game that still waits for others; the players linked to its other
-- seats get it (seat: their own seat, as in every kind), so that a bot or a client that waits for its game to
-- fill hears of each seat taken, not only of the start (game_started). The webhook event player.joined says
-- the same to the seats' endpoints (daemon/game/lobby_join.c).

ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check;
ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check
    CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over', 'player_joined'));
