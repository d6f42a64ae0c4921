-- 026_waiting_expiry_warned.sql — a waiting game's seats told that its expiry comes (daemon/game/lobby_expire.h).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- expiry_warned: its seats with an address were mailed that it will be cancelled (a day before, or half the TTL
-- when that is shorter: CARCD_WAITING_TTL, sql/024); a join, which counts the game anew, clears it.

ALTER TABLE game_waiting ADD COLUMN expiry_warned boolean NOT NULL DEFAULT false;
