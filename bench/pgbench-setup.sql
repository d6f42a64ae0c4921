-- pgbench-setup.sql — the games bench/move.pgbench plays on: copies of real games that carcd-load left in
-- the database, so snapshots, setups and move rows have the sizes carcd really reads and writes.
--
--   psql "$URL" -v ngames=3000 -f bench/pgbench-setup.sql      (after carcd-load has played there)
--
-- Takes every active game that has at least one move and clones it round-robin into `ngames` new games
-- (games, game_secrets, two seats). Clone k has the id lpad(k, 32, '0') and its pending seat the token hash
-- k (text), so that a pgbench script can name both from k alone without reading them first (move.pgbench).
-- bench_pick row k (1..ngames) names clone k, that hash, and that game's latest move row as text (the move
-- and its request's hash: what a pgbench client inserts; since sql/010_compact_log.sql a move row keeps
-- neither its events nor its answer). Running it again replaces the previous clones.

\set ON_ERROR_STOP on
BEGIN;

CREATE TABLE IF NOT EXISTS bench_pick_ids (game_id uuid);
DELETE FROM games WHERE id IN (SELECT game_id FROM bench_pick_ids);
DROP TABLE IF EXISTS bench_pick;
DROP TABLE IF EXISTS bench_pick_ids;

CREATE TABLE bench_pick (
    k          integer PRIMARY KEY,
    game_id    uuid NOT NULL,
    src        uuid NOT NULL,
    seat       integer NOT NULL,
    token_hash text NOT NULL,
    move       text NOT NULL,
    request_sha256 text NOT NULL
);

WITH src AS (
    SELECT g.id, g.pending_seat, m.move, m.request_sha256,
           row_number() OVER (ORDER BY g.id) - 1 AS i, count(*) OVER () AS n
    FROM games g
    JOIN LATERAL (SELECT move::text, COALESCE(request_sha256, encode(sha256(convert_to(move::text, 'UTF8')), 'hex'))
                         AS request_sha256 FROM moves
                  WHERE game_id = g.id AND seq > 0 AND move IS NOT NULL
                  ORDER BY seq DESC LIMIT 1) m ON true
    WHERE g.status = 'active'
)
INSERT INTO bench_pick (k, game_id, src, seat, token_hash, move, request_sha256)
SELECT k, lpad(k::text, 32, '0')::uuid, src.id, src.pending_seat, k::text,
       src.move, src.request_sha256
FROM generate_series(1, :ngames) AS k
JOIN src ON src.i = (k - 1) % src.n;

-- no clone (carcd-load left no active game with a move): every pgbench client would abort on its first
-- transaction ("expected one row, got 0"); say why here instead
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM bench_pick) THEN
        RAISE EXCEPTION 'pgbench-setup: no active game with a move to clone';
    END IF;
END $$;

-- only the ids, so that a later run can remove these clones even after bench_pick was dropped by hand
CREATE TABLE bench_pick_ids AS SELECT game_id FROM bench_pick;

-- every clone is at seq 1000000, where move.pgbench's updates leave it: the seq that move.pgbench and
-- legal-moves.pgbench name as the one "carcd holds in its state cache" when they simulate a cache hit; its
-- snapshot is that seq's (sql/017: no moves after it to read on a simulated miss)
INSERT INTO games (id, status, seq, snapshot_seq, setup, snapshot, seed_sha256, pending_seat)
SELECT p.game_id, 'active', 1000000, 1000000, g.setup, g.snapshot, g.seed_sha256, g.pending_seat
FROM bench_pick p JOIN games g ON g.id = p.src;

INSERT INTO game_secrets (game_id, seed)
SELECT p.game_id, s.seed FROM bench_pick p JOIN game_secrets s ON s.game_id = p.src;

INSERT INTO seats (game_id, seat, name, token_hash)
SELECT p.game_id, p.seat, 'Bench' || p.seat, p.token_hash FROM bench_pick p
UNION ALL
SELECT p.game_id, 1 - p.seat, 'Bench' || (1 - p.seat),
       encode(sha256(convert_to('bench-other-' || p.k, 'UTF8')), 'hex')
FROM bench_pick p;

COMMIT;
ANALYZE;

SELECT count(*) AS bench_games,
       count(DISTINCT src) AS distinct_sources,
       round(avg(octet_length(g.snapshot::text))) AS avg_snapshot_bytes,
       round(avg(octet_length(p.move))) AS avg_move_row_json_bytes
FROM bench_pick p JOIN games g ON g.id = p.game_id;
