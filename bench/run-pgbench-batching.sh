#!/usr/bin/env bash
# run-pgbench-batching.sh — what a move's SQL costs its client and PostgreSQL when the client gathers several
# moves into one round trip: the price list for an event-loop carcd, measured before anyone writes one.
#
#   bench/run-pgbench-batching.sh
#
# carcd's worker threads each block on their own database connection for every request: one move, one round
# trip, one sleep and one wake-up of the thread and of its PostgreSQL backend (issue 21: carcd's CPU per move is
# mostly those system calls and thread switches, not its own code). An event loop could instead send the moves
# of every request that arrived meanwhile in one pipeline, one transaction each, and wake once for all of
# their results. This script measures what that would save, on PostgreSQL's side and on the client's, with
# pgbench and nothing else:
#
# 1. builds carcd and carcd-load (Release) in build-bench/, starts a throwaway PostgreSQL (scripts/pg-temp.sh),
#    lets carcd-load play $GAMES games for a few seconds and clones them into $PGB_GAMES games
#    (bench/pgbench-setup.sql), as bench/run-http-bench.sh does;
# 2. runs bench/move.pgbench (every move in one round trip, as carcd sends a move whose game it holds) for
#    $DURATION seconds with $CLIENTS connections (the issue's pgbench figure), then with $CONNS connections
#    (carcd's default worker threads, 4: one connection each) and $BATCHES moves in each round trip: the same
#    transaction, BEGIN to COMMIT, on as many random games, in one pipeline with one sync at its end (a batch
#    of 1 is move.pgbench itself);
# 3. prints, for each run, `name: value` lines: moves/s, the pgbench client's CPU per move (user and system
#    time of the pgbench process: what carcd pays for the same round trips, as a floor) and PostgreSQL's.
#
# A batch's transactions are independent: in a real event loop one that fails would need a sync of its own,
# so that it does not abort the others; here none fails. In the durable mode a backend commits a batch's
# transactions one after another, each waiting for its own WAL flush, which the figures include.
#
# Environment: CLIENTS (32), CONNS (4), BATCHES ("1 2 4 8"), DURATION (15 s), GAMES (128), PGB_GAMES (3000),
# DURABILITY (both, durable or fast: as bench/run-http-bench.sh), PORT (18091), PGTEMP_PORT (54394),
# BUILD_DIR (build-bench), BENCH_OUT (a new temp dir), SNAPSHOT_EVERY (16: as bench/run-http-bench.sh).
#
# Timing is not a test: nothing here is part of the test command. Everything shares the machine's cores.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

DURABILITY=${DURABILITY:-both}
if [[ $DURABILITY == both ]]; then
    out_all=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/carcd-batching.XXXXXX")}
    for mode in durable fast; do
        mkdir -p "$out_all/$mode"
        DURABILITY=$mode BENCH_OUT=$out_all/$mode "${BASH_SOURCE[0]}" | sed "s/^/$mode./"
    done
    exit 0
fi
case $DURABILITY in
durable) export PGTEMP_DURABLE=1 ;;
fast) export PGTEMP_DURABLE=0 ;;
*) echo "run-pgbench-batching: DURABILITY must be both, durable or fast" >&2; exit 2 ;;
esac

CLIENTS=${CLIENTS:-32}
CONNS=${CONNS:-4}
BATCHES=${BATCHES:-1 2 4 8}
DURATION=${DURATION:-15}
GAMES=${GAMES:-128}
PGB_GAMES=${PGB_GAMES:-3000}
SNAPSHOT_EVERY=${SNAPSHOT_EVERY:-16}
PORT=${PORT:-18091}
BUILD_DIR=${BUILD_DIR:-$root/build-bench}
export PGTEMP_PORT=${PGTEMP_PORT:-54394}
export PGTEMP_DB=carcd_batching
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/carcd-batching.XXXXXX")}
mkdir -p "$BENCH_OUT"
ADMIN_TOKEN=bench-admin-$RANDOM$RANDOM

say() { echo "run-pgbench-batching: $*" >&2; }

# ---- CPU accounting: ticks_of, pg_ticks, pg_children, wait_backends_gone ---------------------------------
# shellcheck source=cpu-ticks.sh
source "$root/bench/cpu-ticks.sh"

# ---- build, database, games --------------------------------------------------------------------------
say "building (Release) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF >"$BENCH_OUT/cmake.log"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target carcd carcd-load >>"$BENCH_OUT/cmake.log" 2>&1 || {
    tail -n 30 "$BENCH_OUT/cmake.log" >&2
    exit 1
}
# shellcheck source=carcd-proc.sh
source "$root/bench/carcd-proc.sh"
trap carcd_and_pg_stop EXIT
trap 'exit 130' INT TERM
say "starting PostgreSQL ($DURABILITY)"
pg_temp_start
URL=$CARCD_TEST_DATABASE_URL
# the rate limits stay out of the way of one address making every move (a limit refused is not a move: at
# 3 000 moves/s carcd-load met the default per-address limit, 2026-12-04, and the run ended in 429s)
export CARCD_DATABASE_URL=$URL CARCD_LISTEN=127.0.0.1:$PORT CARCD_ADMIN_TOKEN=$ADMIN_TOKEN CARCD_SNAPSHOT_EVERY=$SNAPSHOT_EVERY \
    CARCD_RATE_MOVES=1000000/60000000,1000000/60000000 CARCD_RATE_CREATE=1000000/60000000,1000000/60000000
"$BUILD_DIR/carcd" migrate >"$BENCH_OUT/migrate.log" 2>&1 || { cat "$BENCH_OUT/migrate.log" >&2; exit 1; }
"$BUILD_DIR/carcd" serve >"$BENCH_OUT/carcd.log" 2>&1 &
carcd_pid=$!
carcd_wait_ready "$PORT" 50 "$BENCH_OUT/carcd.log" || exit 1
say "carcd-load: $GAMES games for the clones to copy"
"$BUILD_DIR/carcd-load" --url "http://127.0.0.1:$PORT" --admin-token "$ADMIN_TOKEN" --clients 8 --games "$GAMES" \
    --moves 1000000000 --warmup-moves $((GAMES * 50)) --seconds 1 --seed 1 >"$BENCH_OUT/load.out" 2>"$BENCH_OUT/load.err" || {
    cat "$BENCH_OUT/load.err" >&2
    exit 1
}
carcd_stop
psql -qX "$URL" -v ngames="$PGB_GAMES" -f bench/pgbench-setup.sql >"$BENCH_OUT/pgbench-setup.out" 2>&1 || {
    cat "$BENCH_OUT/pgbench-setup.out" >&2
    exit 1
}
idle_children=$(pg_children)

# ---- the batched scripts, made from move.pgbench so that they stay its SQL -----------------------------
# move.pgbench's lines up to `\set one` (the game, the key, the client's first read) stay; the one-round-trip
# branch's transaction (between its first \startpipeline and \endpipeline) is repeated N times with a game, a
# key and a seq of its own (:k1, :idem1, :nseq1 ...), all in one pipeline.
batched_script() {
    local n=$1 out=$BENCH_OUT/move-x$1.pgbench
    awk -v n="$n" '
        /^\\set one / { head_done = 1 }
        !head_done && !/^\\set nseq / { print; next }
        /^\\startpipeline/ && !in_tx && !tx_done { in_tx = 1; next }
        /^\\endpipeline/ && in_tx { in_tx = 0; tx_done = 1; next }
        in_tx { tx[++ntx] = $0 }
        END {
            for (i = 1; i <= n; i++) {
                printf "\\set k%d random(1, :ngames)\n\\set idem%d random(1, 999999999999999999)\n", i, i
                printf "\\set nseq%d 1000000 + :run * 40000000 + :client_id * 1000000 + :ctr * %d + %d\n", i, n, i - 1
            }
            print "\\startpipeline"
            for (i = 1; i <= n; i++)
                for (j = 1; j <= ntx; j++) {
                    line = tx[j]
                    gsub(/:k::text/, ":k" i "::text", line)
                    gsub(/= :k;/, "= :k" i ";", line)
                    gsub(/:idem/, ":idem" i, line)
                    gsub(/:nseq/, ":nseq" i, line)
                    print line
                }
            print "\\endpipeline"
        }' bench/move.pgbench >"$out"
    if ! grep -q '^BEGIN;' "$out" || (($(grep -c '^COMMIT;' "$out") != n)); then
        say "could not make $out from bench/move.pgbench (its one-round-trip branch changed?)"
        exit 1
    fi
    echo "$out"
}

# ---- the runs ------------------------------------------------------------------------------------------
run_no=0
TIMEFORMAT='%U %S'
run_pgbench() {   # NAME CONNECTIONS MOVES_PER_TRANSACTION SCRIPT [-D ...]
    local name=$1 conns=$2 per=$3 script=$4
    shift 4
    run_no=$((run_no + 1))
    wait_backends_gone "$idle_children"
    say "$name: $conns connections, $per moves a round trip, $DURATION s"
    local p0 p1 tx u s
    p0=$(pg_ticks)
    { time pgbench -n -M prepared -c "$conns" -j "$(nproc)" -T "$DURATION" -D run="$run_no" -D every="$SNAPSHOT_EVERY" -D ngames="$PGB_GAMES" \
        -D loaded=0 -D hitpm=1000 -D onetrippm=1000 "$@" -f "$script" "$URL" >"$BENCH_OUT/$name.out" 2>&1 || {
        cat "$BENCH_OUT/$name.out" >&2
        exit 1
    }; } 2>"$BENCH_OUT/$name.time"
    wait_backends_gone "$idle_children"
    p1=$(pg_ticks)
    tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$BENCH_OUT/$name.out")
    read -r u s <"$BENCH_OUT/$name.time"
    awk -v n="$name" -v m="$((tx * per))" -v d="$DURATION" -v u="$u" -v s="$s" -v pg="$((p1 - p0))" \
        -v hz="$(getconf CLK_TCK)" 'BEGIN {
            printf "%s_moves_per_s: %.0f\n", n, m / d
            printf "%s_client_cpu_ms_per_move: %.4f\n", n, (u + s) * 1000 / m
            printf "%s_postgres_cpu_ms_per_move: %.3f\n", n, pg * 1000 / hz / m
        }'
}
echo "clients: $CLIENTS"
echo "conns: $CONNS"
run_pgbench "clients_${CLIENTS}_batch_1" "$CLIENTS" 1 bench/move.pgbench
for b in $BATCHES; do
    if ((b == 1)); then
        run_pgbench "conns_${CONNS}_batch_1" "$CONNS" 1 bench/move.pgbench
    else
        run_pgbench "conns_${CONNS}_batch_$b" "$CONNS" "$b" "$(batched_script "$b")"
    fi
done
say "logs in $BENCH_OUT"
