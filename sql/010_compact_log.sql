-- 010_compact_log.sql — a game keeps its set-up and its moves, compactly; events are derived by replay.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A move row stops keeping its events (about 232 bytes a move): they are what the engine says when the move
-- is replayed from the seed and the log, so carcd derives them when they are read (game/move_log.c). Rows
-- written before this migration keep theirs and are read as they are.
ALTER TABLE moves ALTER COLUMN events DROP NOT NULL;   -- NULL: derived by replay

-- Nor its answer (`response`, ~370 bytes, more with legal_moves): a repeated Idempotency-Key's answer is derived
-- from the log too. The key (and its request's hash) serves for CARCD_IDEMPOTENCY_TTL (default 24 h); then
-- the clock worker forgets key, hash and any answer stored before 010 (a retry is then a new request).
CREATE INDEX moves_key_age ON moves (created_at) WHERE idempotency_key IS NOT NULL OR response IS NOT NULL;

-- A finished game is compacted into its games row: `log` holds every move after the opening, one line each,
-- "<seat>[c] <notation>" ("c": the clock made it; the notation "!leave": the seat left), and its rows in
-- moves are deleted in the same transaction (clock worker: game/compact.c). NULL: the log is in moves.
ALTER TABLE games ADD COLUMN log text;
CREATE INDEX games_to_compact ON games (finished_at) WHERE status = 'finished' AND log IS NULL;
