-- 018_games_toast_target.sql — a game row's snapshot lives out of the row (TOAST), so that a move's update of
-- the row logs the row's few small columns, not the snapshot again.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A snapshot is ~2.6 KB of jsonb text that compresses to well under the 2 KB at which PostgreSQL moves a
-- value out of its row, so it stayed in the row, and every update of the row wrote the whole row to the WAL:
-- since 017 most moves leave the snapshot alone, yet each still logged it. With a row target of 128 bytes the
-- compressed snapshot (and the set-up) go to the TOAST table when written, and an update that keeps them logs
-- only their pointers: 2 585 -> 1 433 bytes of WAL a move under carcd-load (fast, 32 clients, 2026-12-04).
-- A read that wants the snapshot (a state-cache miss, a view that is not a seat's) fetches it from the TOAST
-- table; a row written before this keeps its snapshot in the row until its next checkpoint.

ALTER TABLE games SET (toast_tuple_target = 128);
