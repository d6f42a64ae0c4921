-- 028_game_kept_open.sql — a player_events kind for a waiting game kept open by its creator (GET /v1/me/events).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- game_kept_open: after its seats' players were told the game expires (game_expiring, sql/027), its creator kept
-- it open (POST /v1/games/{id}/keep-open): the date they were told no longer holds. The webhook event
-- game.kept_open and mail kind kept_open say the same (daemon/game/lobby_expire.c).

ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check;
ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check
    CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over', 'player_joined', 'game_expiring',
                    'game_kept_open'));
