-- 027_game_expiring.sql — a player_events kind for a waiting game whose expiry comes (GET /v1/me/events).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- game_expiring: nobody has joined a waiting game for so long that carcd cancels it soon (CARCD_WAITING_TTL,
-- sql/024); the players linked to its seats get it when its seats are told (sql/026), so that a bot or a
-- client that waits for its game to fill can still bring someone or have it kept open. The webhook event
-- game.expiring says the same to the game's endpoints (daemon/game/lobby_expire.c).

ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check;
ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check
    CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over', 'player_joined', 'game_expiring'));
