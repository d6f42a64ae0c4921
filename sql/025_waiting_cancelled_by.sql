-- 025_waiting_cancelled_by.sql — who cancelled a game before it started (daemon/game/lobby_cancel.h).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- cancelled_by says who cancelled a game before it started, so that its view, a late join and its page can say
-- why it never started: its creator, the admin, or its expiry (sql/024; NULL: not cancelled so, or before
-- this file).

ALTER TABLE game_waiting ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('creator', 'admin', 'expiry'));
