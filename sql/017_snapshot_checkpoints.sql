-- 017_snapshot_checkpoints.sql — a game row's snapshot is a checkpoint, written every CARCD_SNAPSHOT_EVERY
-- moves (and when the game ends), not after every move.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- Until now every move rewrote games.snapshot, ~3 KB of jsonb that PostgreSQL parses, compresses into TOAST
-- and writes to the WAL, and that carcd printed: a third more moves a second on the same 2 cores without it
-- (fast mode, carcd-load, 2026-12-04). The moves are the record (010); a reader that does not hold the state
-- (daemon/game/state_cache.h) decodes the checkpoint and applies the moves after it (game/games.c).
--
-- snapshot_seq: the seq the snapshot is the state after; the moves with seq > snapshot_seq follow it.
-- pending_kind: what the pending seat decides (the snapshot's pending.kind), written by every move, for the
-- games lists (`GET /v1/me/games`), which read no snapshot; NULL in rows no move has written since this
-- migration, whose snapshot is still current.

ALTER TABLE games ADD COLUMN snapshot_seq integer NOT NULL DEFAULT 0, ADD COLUMN pending_kind text;
-- every snapshot stored so far is the state after the row's seq (a cancel, sql/009, changes no state)
UPDATE games SET snapshot_seq = seq WHERE seq <> 0;
