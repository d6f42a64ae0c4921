#!/usr/bin/env bash
# run-http-bench.sh — carcd through HTTP against the same SQL through pgbench, in one run, on one database.
#
#   bench/run-http-bench.sh
#
# 1. builds carcd and carcd-load (Release) in build-bench/;
# 2. starts a throwaway PostgreSQL (scripts/pg-temp.sh), migrates it, starts carcd on 127.0.0.1:$PORT (or, with
#    TRANSPORT=unix, on a unix socket: the same transport pgbench has to PostgreSQL, and what a reverse proxy
#    on the same machine would use; over TCP loopback the kernel's TCP work for both ends is charged to the
#    two processes sharing the 2 cores with PostgreSQL);
# 3. carcd-load: $GAMES games, $WARMUP_MOVES moves of warm-up (games spread over all stages), then
#    $CLIENTS clients for $DURATION seconds; carcd is stopped afterwards (so its LISTENer costs pgbench
#    nothing);
# 4. bench/pgbench-setup.sql clones the games carcd-load left into $PGB_GAMES games, and pgbench plays
#    bench/move.pgbench with the same number of clients for the same duration; then carcd and carcd-load run
#    once more as in 3; that pair $ROUNDS times, so that carcd runs bracket every pgbench run (the machine's
#    speed drifts, by up to a quarter between adjacent runs here, and the database grows): carcd_moves_per_s
#    and pgbench_moves_per_s are the means of each side's runs, ratio_percent theirs; then, as much again, the
#    "move cycle": bench/legal-moves.pgbench (in the share of moves for which carcd-load GETs legal-moves:
#    its gets_per_move; the other moves were chosen from the last answer's legal_moves) followed by
#    move.pgbench on the same game, which is all the SQL carcd issues per move of carcd-load;
# 5. then both again at fixed paces, $PACED_PERCENTS per cent of what carcd managed (or $PACED_RATE moves/s) for
#    $PACED_SECONDS each, to show the latencies of a server that is not saturated: with 32 clients in a closed loop
#    on 2 cores every request queues behind the others, pgbench's included;
# 6. prints both moves/s, their ratio, the latency percentiles of both, and the CPU each side used per move
#    (carcd, PostgreSQL, the client) as `name: value` lines. The machine may be busy with other work (printed
#    as other_work_cores_*): cpu_ratio_* then tell what the ratio would be with the machine to itself. Each of
#    carcd's two runs has its own CPU figures too (*_before_pgbench, *_after_pgbench: they differ by up to a
#    third here, PostgreSQL's and carcd's alike), and every timed phase its autovacuum runs and the cores the
#    hypervisor stole (autovacuum_runs_during_*, steal_cores_during_*), to tell a phase that paid for another's
#    dead rows, or shared its cores, from one that did more work; and the WAL each side wrote a move
#    (carcd_wal_bytes_per_move, pgbench_wal_bytes_per_move). Two more figures take carcd's cost apart:
#    carcd_healthz_cpu_ms_per_request (HEALTHZ_REQUESTS, 40 000, GET /healthz from one parallel curl after the
#    first carcd run: HTTP alone, no database) and pgbench_thread_per_client_client_cpu_ms_per_move
#    (move.pgbench with -j CLIENTS, a thread blocking per connection as carcd's workers do, against the -j
#    cores event loops of pgbench_client_cpu_ms_per_move). carcd_cpu_floor_ms_per_move adds them up: the move
#    cycle's client CPU (the round trips alone) and the /healthz CPU for each of carcd-load's requests (HTTP
#    alone); carcd_cpu_over_floor_ms_per_move is what carcd spends beyond both. That floor overstates: pgbench's
#    client interprets its script between round trips. The floor measured (docs/PERFORMANCE.md §13, §19) is
#    bench/evloop-floor.c in carcd's design over TCP loopback (libmicrohttpd's pool of carcd's worker count,
#    each blocking on its own connection for one prepared statement of FLOOR_WORK rows counted, then a
#    FLOOR_BODY-byte answer), sent FLOOR_REQUESTS GETs from one parallel curl with CLIENTS connections, in the
#    same run on the same PostgreSQL:
#    server_floor_cpu_ms_per_move is its CPU a request times carcd-load's requests a move (1 + gets_per_move),
#    and carcd_cpu_over_server_floor its multiple: the machine's price of HTTP and a round trip taken out, the
#    figure that compares across machines and runs (README, issue 21).
# Everything it started is stopped on exit; the logs stay in $BENCH_OUT (printed at the end).
#
# Environment: CLIENTS (32), DURATION (25 s), CARCD_THREADS (unset: carcd's own default, 4, as users run it;
# CARCD_THREADS=32 gives a worker and its database connection per client, as pgbench has a connection per
# client, which on 2 cores made carcd dearer: 2026-12-04, 2.8-3.0 thread switches a move against 2.4, and
# 0.16-0.20 ms of CPU against 0.155-0.17), GAMES (128), WARMUP_MOVES (50 per game),
# PGB_GAMES (3000), ROUNDS (2: pgbench runs, each followed by a carcd run, so that every pgbench run sits
# between two carcd runs; ratio_percent_rounds has each one's ratio to its neighbours, ratio_percent_median their
# median), PACED_PERCENTS ("50 75"), PACED_RATE (one rate instead), PACED_SECONDS (15), PORT (18090), TRANSPORT (tcp; or unix), PGTEMP_PORT
# (54390), SEED (1), FLOOR_REQUESTS (40000), FLOOR_WORK (2000: PostgreSQL about as busy a request as under
# carcd's moves, 0.20 ms against their 0.22-0.29 here, §21; 2200 is already 0.39), FLOOR_BODY (1200), BUILD_DIR (build-bench), BENCH_OUT (a new temp dir), PERF=1 to
# perf-record carcd during the timed load (DWARF call graphs: add -g to CMAKE_C_FLAGS; perf.data in BENCH_OUT; costs carcd some speed),
# CMAKE_C_FLAGS (extra compiler flags for the build dir), SNAPSHOT_EVERY (16: carcd's CARCD_SNAPSHOT_EVERY, and
# move.pgbench's share of moves that write the snapshot, one in that many; 1 writes it at every move, as
# before sql/017).
#
# DURABILITY: both (the default) runs all of the above twice, each on a new PostgreSQL: "durable", as users
# run it (fsync, synchronous_commit and full_page_writes on: a COMMIT returns once its WAL is flushed), and
# "fast" (all three off, as the tests run it); every figure line is printed with its mode in front
# ("durable.ratio_percent: ..."), then a summary of both. DURABILITY=durable or fast runs one of them.
#
# Timing is not a test: nothing here is part of the test command. Everything shares the machine's cores.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

DURABILITY=${DURABILITY:-both}
if [[ $DURABILITY == both ]]; then
    out_all=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/carcd-bench.XXXXXX")}
    for mode in durable fast; do
        mkdir -p "$out_all/$mode"
        DURABILITY=$mode BENCH_OUT=$out_all/$mode "${BASH_SOURCE[0]}" >"$out_all/$mode.figures"
        sed "s/^/$mode./" "$out_all/$mode.figures"
    done
    fig() { sed -n "s/^$2: //p" "$out_all/$1.figures"; }
    for mode in durable fast; do
        echo "summary.$mode: carcd $(fig $mode carcd_moves_per_s) / pgbench $(fig $mode pgbench_moves_per_s) moves/s" \
            "= $(fig $mode ratio_percent) % (rounds: $(fig $mode ratio_percent_rounds) %); carcd CPU $(fig $mode carcd_cpu_ms_per_move) ms/move" \
            "(round trips and HTTP alone: $(fig $mode carcd_cpu_floor_ms_per_move) ms; a C server's:" \
            "$(fig $mode server_floor_cpu_ms_per_move) ms, carcd $(fig $mode carcd_cpu_over_server_floor) times that);" \
            "POST p99 at 75 %: carcd $(fig $mode paced_75_carcd_post_p99_ms) ms, pgbench $(fig $mode paced_75_pgbench_p99_ms) ms"
    done
    exit 0
fi
case $DURABILITY in
durable) export PGTEMP_DURABLE=1 ;;
fast) export PGTEMP_DURABLE=0 ;;
*) echo "run-http-bench: DURABILITY must be both, durable or fast" >&2; exit 2 ;;
esac

CLIENTS=${CLIENTS:-32}
DURATION=${DURATION:-25}
GAMES=${GAMES:-128}
WARMUP_MOVES=${WARMUP_MOVES:-$((GAMES * 50))}
PGB_GAMES=${PGB_GAMES:-3000}
PACED_SECONDS=${PACED_SECONDS:-15}
PORT=${PORT:-18090}
TRANSPORT=${TRANSPORT:-tcp}
SEED=${SEED:-1}
ROUNDS=${ROUNDS:-2}
HEALTHZ_REQUESTS=${HEALTHZ_REQUESTS:-40000}
FLOOR_REQUESTS=${FLOOR_REQUESTS:-40000}
FLOOR_WORK=${FLOOR_WORK:-2000}
FLOOR_BODY=${FLOOR_BODY:-1200}
SNAPSHOT_EVERY=${SNAPSHOT_EVERY:-16}
BUILD_DIR=${BUILD_DIR:-$root/build-bench}
export PGTEMP_PORT=${PGTEMP_PORT:-54390}
export PGTEMP_DB=carcd_bench
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/carcd-bench.XXXXXX")}
mkdir -p "$BENCH_OUT"
ADMIN_TOKEN=bench-admin-$RANDOM$RANDOM

say() { echo "run-http-bench: $*" >&2; }
# pgbench with -D run=N, N counting this script's pgbench runs: move.pgbench makes its move rows' seqs from it,
# so that no run repeats another's (a repeated (game, seq) is a duplicate key, which aborts the run)
pgb_run_no=0
pgbench_run() {
    pgb_run_no=$((pgb_run_no + 1))
    pgbench -D run="$pgb_run_no" -D every="$SNAPSHOT_EVERY" "$@"
}

# ---- CPU accounting (clock ticks from /proc): who used how much CPU during a phase ---------------------------
# ticks_of, pg_ticks, pg_children, wait_backends_gone
# shellcheck source=cpu-ticks.sh
source "$root/bench/cpu-ticks.sh"
# shellcheck source=floor-run.sh
source "$root/bench/floor-run.sh"
# busy and total ticks of the machine
machine_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
# one line: carcd pg busy total
cpu_sample() { echo "$( [[ -n $carcd_pid ]] && ticks_of "$carcd_pid" || echo 0) $(pg_ticks) $(machine_ticks)"; }
# one line: autovacuum and autoanalyze runs so far over every table (a phase that inherits another's dead rows
# pays for their vacuum in its PostgreSQL CPU: autovacuum_runs_*), the machine's steal ticks (the hypervisor
# ran something else on our cores: steal_cores_*, a phase slowed by its neighbours rather than by its own work),
# and the WAL written so far, in bytes (*_wal_bytes_per_move: what a move costs the log and, durable, the disk)
phase_counters() {
    echo "$(psql -AtX "$URL" -c "SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_user_tables")" \
        "$(awk '/^cpu / { print $9 }' /proc/stat)" \
        "$(psql -AtX "$URL" -c "SELECT (pg_current_wal_lsn() - '0/0')::bigint")"
}
# a phase's edge: cpu_sample into $BENCH_OUT/NAME, phase_counters into NAME.av
mark() {
    cpu_sample >"$BENCH_OUT/$1"
    phase_counters >"$BENCH_OUT/$1.av"
}
# round k's file suffix: none for round 1, "-k" after
round_sfx() { (($1 == 1)) || echo "-$1"; }

# ---- build --------------------------------------------------------------------------------------------
say "building (Release) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF \
    ${CMAKE_C_FLAGS:+"-DCMAKE_C_FLAGS=$CMAKE_C_FLAGS"} >"$BENCH_OUT/cmake.log"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target carcd carcd-load evloop-floor >>"$BENCH_OUT/cmake.log" 2>&1 || {
    tail -n 30 "$BENCH_OUT/cmake.log" >&2
    exit 1
}

# ---- database and daemon, stopped on exit -----------------------------------------------------------
carcd_pid=""
perf_pid=""
stop_carcd() {
    if [[ -n $carcd_pid ]] && kill -0 "$carcd_pid" 2>/dev/null; then
        kill -TERM "$carcd_pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$carcd_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$carcd_pid" 2>/dev/null || true
        wait "$carcd_pid" 2>/dev/null || true
    fi
    carcd_pid=""
}
floor_pid=
cleanup() {
    [[ -n $floor_pid ]] && kill "$floor_pid" 2>/dev/null && wait "$floor_pid" 2>/dev/null
    if [[ -n $perf_pid ]] && kill -0 "$perf_pid" 2>/dev/null; then
        kill -INT "$perf_pid" 2>/dev/null || true
        wait "$perf_pid" 2>/dev/null || true
    fi
    stop_carcd
    pg_temp_stop
}
# shellcheck source=../scripts/pg-temp.sh
source "$root/scripts/pg-temp.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM

say "starting PostgreSQL"
pg_temp_start
URL=$CARCD_TEST_DATABASE_URL
# the rate limits stay out of the way of one address making every move (a limit refused is not a move: at
# 3 000 moves/s carcd-load met the default per-address limit, 2026-12-04, and the run ended in 429s)
export CARCD_DATABASE_URL=$URL CARCD_LISTEN=127.0.0.1:$PORT CARCD_ADMIN_TOKEN=$ADMIN_TOKEN CARCD_SNAPSHOT_EVERY=$SNAPSHOT_EVERY \
    CARCD_RATE_MOVES=1000000/60000000,1000000/60000000 CARCD_RATE_CREATE=1000000/60000000,1000000/60000000
# how carcd-load and curl reach carcd
load_via=()
curl_via=()
case $TRANSPORT in
tcp) ;;
unix)
    CARCD_LISTEN=unix:$BENCH_OUT/carcd.sock
    load_via=(--unix-socket "$BENCH_OUT/carcd.sock")
    curl_via=(--unix-socket "$BENCH_OUT/carcd.sock")
    ;;
*) say "TRANSPORT must be tcp or unix"; exit 2 ;;
esac

"$BUILD_DIR/carcd" migrate >"$BENCH_OUT/migrate.log" 2>&1 || { cat "$BENCH_OUT/migrate.log" >&2; exit 1; }
idle_children=$(pg_children)   # the server's own processes
start_carcd() {
    "$BUILD_DIR/carcd" serve >>"$BENCH_OUT/carcd.log" 2>&1 &
    carcd_pid=$!
    for _ in $(seq 100); do
        curl -fsS "${curl_via[@]}" "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
        kill -0 "$carcd_pid" 2>/dev/null || { say "carcd exited:"; tail -n 20 "$BENCH_OUT/carcd.log" >&2; exit 1; }
        sleep 0.1
    done
    curl -fsS "${curl_via[@]}" "http://127.0.0.1:$PORT/readyz" >/dev/null || { say "carcd is not ready"; exit 1; }
    # the worker threads carcd chose (CARCD_THREADS, or its default), from its "listening on ... with N threads"
    # (its log lines may reach the file up to CARCD_LOG_FLUSH_MS after /readyz answered)
    THREADS=
    for _ in $(seq 20); do
        THREADS=$(sed -n 's/.*"listening on .* with \([0-9]*\) threads".*/\1/p' "$BENCH_OUT/carcd.log" | tail -n 1)
        [[ -n $THREADS ]] && break
        sleep 0.1
    done
    THREADS=${THREADS:-unknown}   # daemon/main.c's line changed: say so rather than print nothing
}

# carcd-load with this run's settings and "$@" (--seconds, --seed, --rate); output in $BENCH_OUT/NAME.out, .err
run_load() {
    local name=$1
    shift
    "$BUILD_DIR/carcd-load" "${load_via[@]}" --url "http://127.0.0.1:$PORT" --admin-token "$ADMIN_TOKEN" \
        --clients "$CLIENTS" --games "$GAMES" --moves 1000000000 --warmup-moves "$WARMUP_MOVES" "$@" \
        >"$BENCH_OUT/$name.out" 2>"$BENCH_OUT/$name.err"
}
# in the background: a CPU sample into $BENCH_OUT/FILE ($2) once carcd-load NAME ($1) announces its timed phase
sample_at_timed_phase() {
    (
        while ! grep -q "timed phase" "$BENCH_OUT/$1.err" 2>/dev/null; do sleep 0.05; done
        mark "$2"
    ) &
    sampler_pid=$!
}

start_carcd

psql -qX "$URL" -c CHECKPOINT >/dev/null

# ---- carcd through HTTP -----------------------------------------------------------------------------------
say "carcd-load: $GAMES games, $WARMUP_MOVES warm-up moves, then $CLIENTS clients for $DURATION s (carcd: $THREADS threads)"
if [[ ${PERF:-0} == 1 ]]; then
    # start recording once the warm-up is over: carcd-load announces the timed phase on stderr
    (
        while ! grep -q "timed phase" "$BENCH_OUT/load.err" 2>/dev/null; do sleep 0.05; done
        exec perf record -F 249 --call-graph dwarf,16384 -p "$carcd_pid" -o "$BENCH_OUT/perf.data" -- sleep "$DURATION"
    ) >"$BENCH_OUT/perf.log" 2>&1 &
    perf_pid=$!
fi
sample_at_timed_phase load cpu.load0   # the timed phase starts after the warm-up
load_rc=0
run_load load --seconds "$DURATION" --seed "$SEED" || load_rc=$?
mark "cpu.load1"
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
if [[ -n $perf_pid ]]; then
    for _ in $(seq 100); do   # perf stops by itself at the end of its sleep; a failed load never started it
        kill -0 "$perf_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
    perf_pid=""
fi
cat "$BENCH_OUT/load.err" >&2
if ((load_rc != 0)); then
    say "carcd-load failed (exit $load_rc):"
    cat "$BENCH_OUT/load.out" >&2
    exit 1
fi
field() { sed -n "s/^$1: //p" "$BENCH_OUT/${2:-load}.out"; }
# HTTP alone: GET /healthz (no database, no JSON body) HEALTHZ_REQUESTS times from one curl, CLIENTS connections
# kept alive, in parallel: carcd's CPU per request is what the HTTP part of every request costs it (libmicrohttpd,
# the loopback socket, routing, the log line)
say "GET /healthz: $HEALTHZ_REQUESTS requests, $CLIENTS at a time"
curl_config "$HEALTHZ_REQUESTS" "http://127.0.0.1:$PORT/healthz" >"$BENCH_OUT/healthz.curl"
hz0=$(ticks_of "$carcd_pid")
curl -sS "${curl_via[@]}" --parallel --parallel-max "$CLIENTS" -K "$BENCH_OUT/healthz.curl" >/dev/null 2>"$BENCH_OUT/healthz.err" || {
    say "the /healthz requests failed:"
    cat "$BENCH_OUT/healthz.err" >&2
    exit 1
}
hz1=$(ticks_of "$carcd_pid")
# the paced runs: a label (per cent of carcd's moves/s, or "rate") and a rate each
paced_labels=()
paced_rates=()
if [[ -n ${PACED_RATE:-} ]]; then
    paced_labels=(rate)
    paced_rates=("$PACED_RATE")
else
    for pct in ${PACED_PERCENTS:-50 75}; do
        r=$(($(field moves_per_s) * pct / 100))
        paced_labels+=("$pct")
        paced_rates+=($((r > 0 ? r : 1)))
    done
fi
for i in "${!paced_labels[@]}"; do
    label=${paced_labels[$i]} rate=${paced_rates[$i]}
    say "carcd-load, paced ($label): $CLIENTS clients at $rate moves/s for $PACED_SECONDS s (new games, warmed up the same way)"
    run_load "paced-$label" --seconds "$PACED_SECONDS" --rate "$rate" --seed "$((SEED + 1 + i))" || {
        say "paced carcd-load failed:"
        cat "$BENCH_OUT/paced-$label.err" "$BENCH_OUT/paced-$label.out" >&2
        exit 1
    }
done
curl -fsS "${curl_via[@]}" "http://127.0.0.1:$PORT/metrics" >"$BENCH_OUT/metrics.txt" 2>/dev/null || true
stop_carcd
# carcd's state cache hit rate, per mille: the share of moves and reads whose statement left the snapshot in
# the database (pgbench does the same in that share: move.pgbench)
hitpm=$(awk '/^carcd_state_cache_reads_total\{result="hit"\}/ { h = $2 } /^carcd_state_cache_reads_total\{result="miss"\}/ { m = $2 }
             END { print (h + m > 0 ? int(1000 * h / (h + m) + 0.5) : 0) }' "$BENCH_OUT/metrics.txt")
# the share of carcd's moves sent in one round trip, per mille (moves_post.c: the game's state held at the
# expected seq); move.pgbench sends that share of its moves so too
onetrippm=$(awk '/^carcd_moves_one_round_trip_total\{outcome="committed"\}/ { o = $2 } /^carcd_moves_applied_total / { a = $2 }
                 END { print (a > 0 ? int(1000 * o / a + 0.5) : 0) }' "$BENCH_OUT/metrics.txt")

# ---- the same SQL through pgbench -------------------------------------------------------------------------
say "pgbench-setup: $PGB_GAMES games cloned from the ones carcd-load played"
psql -qX "$URL" -v ngames="$PGB_GAMES" -f bench/pgbench-setup.sql >"$BENCH_OUT/pgbench-setup.out" 2>&1 || {
    cat "$BENCH_OUT/pgbench-setup.out" >&2
    exit 1
}
psql -qX "$URL" -c CHECKPOINT >/dev/null
# ROUNDS times: pgbench, then carcd again. Each pgbench run is bracketed by two carcd runs, so that a database
# grown by the runs before, or the machine's speed drifting (it does, by a quarter between adjacent runs here),
# does not favour either side; round 1's files have no suffix, round k's end in "-k"
TIMEFORMAT='%U %S'
for ((round = 1; round <= ROUNDS; round++)); do
    sfx=$(round_sfx "$round")
    say "pgbench (round $round of $ROUNDS): $CLIENTS clients for $DURATION s"
    wait_backends_gone "$idle_children"   # carcd's, so that their CPU does not count for pgbench
    mark "cpu.pgb0$sfx"
    # per-transaction latencies logged in round 1 only (the percentiles are of one run, as carcd-load's)
    log_args=()
    ((round == 1)) && log_args=(-l --log-prefix="$BENCH_OUT/pgblog")
    { time pgbench_run -n -M prepared -c "$CLIENTS" -j "$(nproc)" -T "$DURATION" -D ngames="$PGB_GAMES" -D loaded=0 \
        -D hitpm="$hitpm" -D onetrippm="$onetrippm" "${log_args[@]}" -f bench/move.pgbench "$URL" >"$BENCH_OUT/pgbench$sfx.out" 2>&1 || {
        cat "$BENCH_OUT/pgbench$sfx.out" >&2
        exit 1
    }; } 2>"$BENCH_OUT/pgbench$sfx.time"
    wait_backends_gone "$idle_children"
    mark "cpu.pgb1$sfx"
    say "carcd-load again, after pgbench (round $round of $ROUNDS): $CLIENTS clients for $DURATION s"
    start_carcd
    sample_at_timed_phase "load-after$sfx" "cpu.after0$sfx"
    run_load "load-after$sfx" --seconds "$DURATION" --seed "$((SEED + 100 * round))" || {
        say "carcd-load (after) failed:"
        cat "$BENCH_OUT/load-after$sfx.err" "$BENCH_OUT/load-after$sfx.out" >&2
        exit 1
    }
    mark "cpu.after1$sfx"
    wait "$sampler_pid" 2>/dev/null || true
    ((round == ROUNDS)) || stop_carcd
done
wait "$sampler_pid" 2>/dev/null || true
stop_carcd
wait_backends_gone "$idle_children"
# per mille of moves that GET legal-moves first
getpm=$(awk -v g="$(field gets_per_move)" 'BEGIN { v = int(1000 * g + 0.5); print (v > 1000 ? 1000 : v) }')
say "pgbench, move cycle (legal-moves SQL for $getpm per mille of moves + move SQL): $CLIENTS clients for $DURATION s"
{   # legal-moves.pgbench with its SELECT done in getpm per mille of the cycles, then move.pgbench on that k
    grep -v -e '^--' -e '^SELECT' -e '^$' bench/legal-moves.pgbench
    echo '\set getr random(1, 1000)'
    echo '\if :getr <= :getpm'
    grep '^SELECT' bench/legal-moves.pgbench
    echo '\endif'
    grep -v '^\\set k ' bench/move.pgbench
} >"$BENCH_OUT/cycle.pgbench"
mark "cpu.cyc0"
{ time pgbench_run -n -M prepared -c "$CLIENTS" -j "$(nproc)" -T "$DURATION" -D ngames="$PGB_GAMES" -D loaded=0 -D hitpm="$hitpm" -D onetrippm="$onetrippm" -D getpm="$getpm" \
    -f "$BENCH_OUT/cycle.pgbench" "$URL" >"$BENCH_OUT/pgbench-cycle.out" 2>&1 || {
    cat "$BENCH_OUT/pgbench-cycle.out" >&2
    exit 1
}; } 2>"$BENCH_OUT/pgbench-cycle.time"
wait_backends_gone "$idle_children"
mark "cpu.cyc1"
# move.pgbench again with a thread per client (-j CLIENTS: each blocks in poll for its one connection, as a
# carcd worker does for its database round trips), against the event loops of the runs above (-j cores): what
# blocking costs a client by itself
say "pgbench, a thread per client: $CLIENTS clients for $DURATION s"
{ time pgbench_run -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$DURATION" -D ngames="$PGB_GAMES" -D loaded=0 \
    -D hitpm="$hitpm" -D onetrippm="$onetrippm" -f bench/move.pgbench "$URL" >"$BENCH_OUT/pgbench-threads.out" 2>&1 || {
    cat "$BENCH_OUT/pgbench-threads.out" >&2
    exit 1
}; } 2>"$BENCH_OUT/pgbench-threads.time"
wait_backends_gone "$idle_children"
# the floor measured: a C server doing only what carcd cannot avoid for a request (HTTP, one round trip, an
# answer), in carcd's design and with carcd's worker count, on this PostgreSQL, after the same warm-up share
say "evloop-floor (blocking, $THREADS workers): $FLOOR_REQUESTS GETs, $CLIENTS at a time, $FLOOR_WORK rows a statement"
floor_threads=$THREADS
[[ $floor_threads =~ ^[0-9]+$ ]] || floor_threads=4
floor_run "$BUILD_DIR/evloop-floor" "$URL" "$PORT" blocking "$floor_threads" "$FLOOR_BODY" "$FLOOR_WORK" \
    $((FLOOR_REQUESTS / 10)) "$FLOOR_REQUESTS" "$CLIENTS" "$BENCH_OUT" || exit 1
wait_backends_gone "$idle_children"
for i in "${!paced_labels[@]}"; do
    label=${paced_labels[$i]} rate=${paced_rates[$i]}
    say "pgbench, paced ($label): $CLIENTS clients at $rate moves/s for $PACED_SECONDS s"
    pgbench_run -n -M prepared -c "$CLIENTS" -j "$(nproc)" -T "$PACED_SECONDS" -R "$rate" -D ngames="$PGB_GAMES" \
        -D loaded=0 -D hitpm="$hitpm" -D onetrippm="$onetrippm" -l --log-prefix="$BENCH_OUT/pgbpaced-$label" -f bench/move.pgbench "$URL" \
        >"$BENCH_OUT/pgbench-paced-$label.out" 2>&1 || {
        cat "$BENCH_OUT/pgbench-paced-$label.out" >&2
        exit 1
    }
done
# latency percentiles (ms) from pgbench's per-transaction logs: the 3rd column is the latency in microseconds,
# counted from the scheduled start under -R; minus the 7th, the schedule lag, it is the service time that
# carcd-load measures too
pgb_percentiles() {
    cat "$BENCH_OUT/$1".* | awk '{ print $3 - (NF >= 7 ? $7 : 0) }' | sort -n | awk '{ v[NR] = $1 }
        END { n = NR; split("50 99", ps, " "); for (i = 1; i <= 2; i++) { r = int(ps[i] / 100 * n + 0.999999);
              if (r < 1) r = 1; printf "%.2f ", v[r] / 1000 } printf "%.2f\n", v[n] / 1000 }'
}
read -r pgb_p50 pgb_p99 pgb_max < <(pgb_percentiles pgblog)

# ---- figures ----------------------------------------------------------------------------------------------
# the runs of each side, in order: carcd's ROUNDS + 1 (load, load-after, load-after-2, ...), pgbench's ROUNDS
carcd_runs=(load)
pgb_runs=()
for ((round = 1; round <= ROUNDS; round++)); do
    sfx=$(round_sfx "$round")
    carcd_runs+=("load-after$sfx")
    pgb_runs+=("$sfx")
done
tps_of() { sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$BENCH_OUT/pgbench$1.out" | tail -n 1; }
mean() { awk 'BEGIN { for (i = 1; i < ARGC; i++) t += ARGV[i]; printf "%.0f", (ARGC > 1 ? t / (ARGC - 1) : 0) }' "$@"; }
carcd_mps_list=()
for r in "${carcd_runs[@]}"; do carcd_mps_list+=("$(field moves_per_s "$r")"); done
pgb_tps_list=()
for r in "${pgb_runs[@]}"; do pgb_tps_list+=("$(printf '%.0f' "$(tps_of "$r")")"); done
carcd_mps_first=${carcd_mps_list[0]}
carcd_mps_after=$(mean "${carcd_mps_list[@]:1}")
carcd_mps=$(mean "${carcd_mps_list[@]}")
pgb_tps=$(mean "${pgb_tps_list[@]}")
# each round's ratio: pgbench's run against the mean of the carcd runs on either side of it
round_ratios=()
for ((i = 0; i < ROUNDS; i++)); do
    round_ratios+=("$(awk -v a="${carcd_mps_list[$i]}" -v b="${carcd_mps_list[$((i + 1))]}" -v p="${pgb_tps_list[$i]}" \
        'BEGIN { printf "%.1f", (p > 0 ? 100 * (a + b) / 2 / p : 0) }')")
done
ratio_median=$(printf '%s\n' "${round_ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
cyc_tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$BENCH_OUT/pgbench-cycle.out" | tail -n 1)
cyc_moves=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$BENCH_OUT/pgbench-cycle.out")
pgb_lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$BENCH_OUT/pgbench.out")
snap_bytes=$(psql -AtX "$URL" -c "SELECT round(avg(octet_length(snapshot::text))) FROM games WHERE status = 'active' AND id NOT IN (SELECT game_id FROM bench_pick)")
pgb_snap_bytes=$(psql -AtX "$URL" -c "SELECT round(avg(octet_length(g.snapshot::text))) FROM bench_pick p JOIN games g ON g.id = p.game_id")
[[ -n $carcd_mps && -n $pgb_tps ]] || { say "could not read the figures (see $BENCH_OUT)"; exit 1; }
pgb_moves=0
for r in "${pgb_runs[@]}"; do
    pgb_moves=$((pgb_moves + $(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$BENCH_OUT/pgbench$r.out")))
done
hz=$(getconf CLK_TCK)
# ms of CPU per move: carcd, PostgreSQL; and the share of the machine's busy time that was neither ours
read -r c0 p0 b0 t0 <"$BENCH_OUT/cpu.load0"
read -r c1 p1 b1 t1 <"$BENCH_OUT/cpu.load1"
read -r _ q0 d0 u0 <"$BENCH_OUT/cpu.pgb0"
read -r _ q1 d1 u1 <"$BENCH_OUT/cpu.pgb1"
read -r pu ps <"$BENCH_OUT/pgbench.time"
# PostgreSQL's ticks and the client's CPU seconds over every pgbench run (q0..q1, d0..d1 and u0..u1 stay
# round 1's, for the other-work share of that run)
pgb_pg_ticks=0
pgb_client_s=0
for r in "${pgb_runs[@]}"; do
    read -r _ a0 _ _ <"$BENCH_OUT/cpu.pgb0$r"
    read -r _ a1 _ _ <"$BENCH_OUT/cpu.pgb1$r"
    read -r ru rs <"$BENCH_OUT/pgbench$r.time"
    pgb_pg_ticks=$((pgb_pg_ticks + a1 - a0))
    pgb_client_s=$(awk -v t="$pgb_client_s" -v u="$ru" -v s="$rs" 'BEGIN { print t + u + s }')
done
read -r cu cs <"$BENCH_OUT/pgbench-cycle.time"
read -r _ y0 _ _ <"$BENCH_OUT/cpu.cyc0"
read -r _ y1 _ _ <"$BENCH_OUT/cpu.cyc1"
load_moves=$(field moves)
# the runs after pgbench, together: carcd's ticks e0..e1, PostgreSQL's f0..f1, their moves, carcd-load's CPU
e0=0 e1=0 f0=0 f1=0 after_moves=0 after_load_cpu_ms=0
for r in "${carcd_runs[@]:1}"; do
    sfx=${r#load-after}
    # (names of their own: b0 and b1 are the first run's machine ticks, which load_other below reads)
    read -r ca0 pa0 _ _ <"$BENCH_OUT/cpu.after0$sfx"
    read -r ca1 pa1 _ _ <"$BENCH_OUT/cpu.after1$sfx"
    e1=$((e1 + ca1 - ca0)) f1=$((f1 + pa1 - pa0))
    n=$(field moves "$r")
    after_moves=$((after_moves + n))
    after_load_cpu_ms=$(awk -v t="$after_load_cpu_ms" -v c="$(field load_cpu_ms_per_move "$r")" -v n="$n" 'BEGIN { print t + c * n }')
done
# carcd's side per move over all of its timed runs (they bracket pgbench's)
load_cpu=$(awk -v a="$(field load_cpu_ms_per_move)" -v n="$load_moves" -v b="$after_load_cpu_ms" \
    -v m="$after_moves" 'BEGIN { printf "%.3f", (n + m > 0 ? (a * n + b) / (n + m) : 0) }')
# ms a move from TICKS ($1) over MOVES ($2), to DECIMALS ($3, 2) places
per_move() { awk -v t="$1" -v n="$2" -v hz="$hz" -v d="${3:-2}" 'BEGIN { printf "%." d "f", (n > 0 ? 1000 * t / hz / n : 0) }'; }
carcd_cpu_exact=$(per_move $((c1 - c0 + e1 - e0)) $((load_moves + after_moves)) 4)
carcd_cpu=$(printf '%.2f' "$carcd_cpu_exact")
carcd_pg_cpu=$(per_move $((p1 - p0 + f1 - f0)) $((load_moves + after_moves)))
pgb_pg_cpu=$(per_move "$pgb_pg_ticks" "$pgb_moves")
cyc_pg_cpu=$(per_move $((y1 - y0)) "$cyc_moves")
pgb_client_cpu=$(awk -v t="$pgb_client_s" -v n="$pgb_moves" 'BEGIN { printf "%.3f", 1000 * t / n }')
cyc_client_cpu_exact=$(awk -v u="$cu" -v s="$cs" -v n="$cyc_moves" 'BEGIN { printf "%.4f", (n > 0 ? 1000 * (u + s) / n : 0) }')
cyc_client_cpu=$(printf '%.2f' "$cyc_client_cpu_exact")
# what the ratios would be if each side had the whole machine: CPU per move of pgbench's side over carcd's
# (carcd + its PostgreSQL + carcd-load); on a busy machine steadier than the measured ratio
cpu_ratio() { awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" 'BEGIN { printf "%.1f", 100 * (a + b) / (c + d + e) }'; }
# CPU that went neither to carcd, PostgreSQL nor the client, in cores (other work on the machine)
load_other=$(awk -v b=$((b1 - b0)) -v c=$((c1 - c0)) -v p=$((p1 - p0)) -v t=$((t1 - t0)) -v n="$load_moves" \
    -v lc="$load_cpu" -v hz="$hz" -v cores="$(nproc)" \
    'BEGIN { o = b - c - p - lc * n / 1000 * hz; printf "%.2f", (t > 0 ? cores * o / t : 0) }')
pgb_other=$(awk -v b=$((d1 - d0)) -v p=$((q1 - q0)) -v t=$((u1 - u0)) -v u="$pu" -v s="$ps" -v hz="$hz" \
    -v cores="$(nproc)" 'BEGIN { o = b - p - (u + s) * hz; printf "%.2f", (t > 0 ? cores * o / t : 0) }')
ratio=$(awk -v a="$carcd_mps" -v b="$pgb_tps" 'BEGIN { printf "%.1f", 100 * a / b }')

echo "durability: $DURABILITY (PostgreSQL fsync $(psql -AtX "$URL" -c 'SHOW fsync'), synchronous_commit $(psql -AtX "$URL" -c 'SHOW synchronous_commit'))"
echo "cores: $(nproc) (carcd, PostgreSQL and the load generator share them)"
echo "clients: $CLIENTS"
echo "carcd_threads: $THREADS"
echo "transport: $TRANSPORT"
echo "duration_s: $DURATION"
echo "carcd_moves: $(field moves)"
echo "carcd_moves_per_s: $carcd_mps"
echo "carcd_moves_per_s_before_pgbench: $carcd_mps_first"
echo "carcd_moves_per_s_after_pgbench: $carcd_mps_after"
echo "pgbench_moves_per_s: $(printf '%.0f' "$pgb_tps")"
echo "ratio_percent: $ratio"
echo "rounds: $ROUNDS"
echo "carcd_moves_per_s_runs: ${carcd_mps_list[*]}"
echo "pgbench_moves_per_s_runs: ${pgb_tps_list[*]}"
echo "ratio_percent_rounds: ${round_ratios[*]}"
echo "ratio_percent_median: $ratio_median"
echo "carcd_gets_per_move: $(field gets_per_move)"
echo "carcd_state_cache_hit_per_mille: $hitpm"
echo "carcd_one_round_trip_per_mille: $onetrippm"
# what carcd's notify thread received (0 while nothing waits: it LISTENs only for long-polls and streams, db/notify.h)
echo "carcd_notifications_received: $(awk '/^carcd_notify_notifications_total / { print $2 }' "$BENCH_OUT/metrics.txt")"
echo "pgbench_cycle_moves_per_s: $(printf '%.0f' "$cyc_tps")"
echo "ratio_vs_cycle_percent: $(awk -v a="$carcd_mps" -v b="$cyc_tps" 'BEGIN { printf "%.1f", 100 * a / b }')"
echo "cpu_ratio_percent: $(cpu_ratio "$pgb_pg_cpu" "$pgb_client_cpu" "$carcd_cpu" "$carcd_pg_cpu" "$load_cpu")"
echo "cpu_ratio_vs_cycle_percent: $(cpu_ratio "$cyc_pg_cpu" "$cyc_client_cpu" "$carcd_cpu" "$carcd_pg_cpu" "$load_cpu")"
echo "carcd_post_p50_ms: $(field post_p50_ms)"
echo "carcd_post_p90_ms: $(field post_p90_ms)"
echo "carcd_post_p99_ms: $(field post_p99_ms)"
echo "carcd_post_max_ms: $(field post_max_ms)"
echo "carcd_get_p50_ms: $(field get_p50_ms)"
echo "carcd_get_p99_ms: $(field get_p99_ms)"
echo "pgbench_latency_avg_ms: $pgb_lat"
echo "pgbench_p50_ms: $pgb_p50"
echo "pgbench_p99_ms: $pgb_p99"
echo "pgbench_max_ms: $pgb_max"
for i in "${!paced_labels[@]}"; do
    label=${paced_labels[$i]}
    read -r pgbp_p50 pgbp_p99 pgbp_max < <(pgb_percentiles "pgbpaced-$label")
    echo "paced_${label}_rate: ${paced_rates[$i]}"
    echo "paced_${label}_carcd_moves_per_s: $(field moves_per_s "paced-$label")"
    echo "paced_${label}_carcd_post_p50_ms: $(field post_p50_ms "paced-$label")"
    echo "paced_${label}_carcd_post_p99_ms: $(field post_p99_ms "paced-$label")"
    echo "paced_${label}_carcd_post_max_ms: $(field post_max_ms "paced-$label")"
    echo "paced_${label}_carcd_get_p99_ms: $(field get_p99_ms "paced-$label")"
    echo "paced_${label}_carcd_errors: $(field errors "paced-$label")"
    echo "paced_${label}_pgbench_p50_ms: $pgbp_p50"
    echo "paced_${label}_pgbench_p99_ms: $pgbp_p99"
    echo "paced_${label}_pgbench_max_ms: $pgbp_max"
done
errors=0
for r in "${carcd_runs[@]}"; do errors=$((errors + $(field errors "$r"))); done
echo "errors: $errors"
echo "carcd_cpu_ms_per_move: $carcd_cpu"
echo "carcd_postgres_cpu_ms_per_move: $carcd_pg_cpu"
echo "carcd_load_cpu_ms_per_move: $load_cpu"
echo "pgbench_postgres_cpu_ms_per_move: $pgb_pg_cpu"
echo "pgbench_client_cpu_ms_per_move: $pgb_client_cpu"
echo "pgbench_cycle_postgres_cpu_ms_per_move: $cyc_pg_cpu"
echo "pgbench_cycle_client_cpu_ms_per_move: $cyc_client_cpu"
thr_moves=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$BENCH_OUT/pgbench-threads.out")
read -r tu ts <"$BENCH_OUT/pgbench-threads.time"
echo "pgbench_thread_per_client_moves_per_s: $(printf '%.0f' "$(tps_of -threads)")"
echo "pgbench_thread_per_client_client_cpu_ms_per_move: $(awk -v u="$tu" -v s="$ts" -v n="$thr_moves" 'BEGIN { printf "%.3f", (n > 0 ? 1000 * (u + s) / n : 0) }')"
healthz_cpu=$(awk -v t=$((hz1 - hz0)) -v n="$HEALTHZ_REQUESTS" -v hz="$hz" 'BEGIN { printf "%.4f", 1000 * t / hz / n }')
echo "carcd_healthz_cpu_ms_per_request: $(printf '%.3f' "$healthz_cpu")"
# the floor under carcd's CPU a move: the same round trips as a C client makes them (pgbench's client on the
# move cycle, legal-moves reads in carcd-load's share included) plus HTTP alone for each of carcd-load's
# requests (a /healthz, no database: the move's POST and its legal-moves GETs); what carcd spends over it is
# its own work, JSON, the engine and the handlers' glue (README, issue 21). An upper estimate: pgbench's client
# also interprets its script between round trips; bench/run-evloop-floor.sh measures a C server's round trip
# (docs/PERFORMANCE.md §13)
floor=$(awk -v c="$cyc_client_cpu_exact" -v h="$healthz_cpu" -v g="$(field gets_per_move)" \
    'BEGIN { printf "%.3f", c + h * (1 + g) }')
echo "carcd_cpu_floor_ms_per_move: $floor"
echo "carcd_cpu_over_floor_ms_per_move: $(awk -v c="$carcd_cpu_exact" -v f="$floor" 'BEGIN { printf "%.3f", c - f }')"
# the floor measured: evloop-floor's CPU a request, for each of carcd-load's requests a move
floor_req=$(awk -v t=$((floor_user_ticks + floor_system_ticks)) -v n="$FLOOR_REQUESTS" -v hz="$hz" \
    'BEGIN { printf "%.4f", 1000 * t / hz / n }')
server_floor=$(awk -v r="$floor_req" -v g="$(field gets_per_move)" 'BEGIN { printf "%.4f", r * (1 + g) }')
echo "server_floor_requests_per_s: $(awk -v n="$FLOOR_REQUESTS" -v s="$floor_seconds" 'BEGIN { printf "%.0f", n / s }')"
echo "server_floor_cpu_ms_per_request: $floor_req"
echo "server_floor_postgres_cpu_ms_per_request: $(per_move "$floor_pg_ticks" "$FLOOR_REQUESTS" 3)"
echo "server_floor_cpu_ms_per_move: $(printf '%.3f' "$server_floor")"
echo "carcd_cpu_over_server_floor: $(awk -v c="$carcd_cpu_exact" -v f="$server_floor" 'BEGIN { printf "%.2f", (f > 0 ? c / f : 0) }')"
echo "carcd_cpu_ms_per_move_before_pgbench: $(per_move $((c1 - c0)) "$load_moves")"
echo "carcd_cpu_ms_per_move_after_pgbench: $(per_move $((e1 - e0)) "$after_moves")"
echo "carcd_postgres_cpu_ms_per_move_before_pgbench: $(per_move $((p1 - p0)) "$load_moves")"
echo "carcd_postgres_cpu_ms_per_move_after_pgbench: $(per_move $((f1 - f0)) "$after_moves")"
# per phase (from, to): autovacuum runs, and the cores the hypervisor took (steal ticks over the phase's time)
av() { read -r a0 _ <"$BENCH_OUT/$1.av"; read -r a1 _ <"$BENCH_OUT/$2.av"; echo $((a1 - a0)); }
steal() {
    read -r _ s0 _ <"$BENCH_OUT/$1.av"; read -r _ s1 _ <"$BENCH_OUT/$2.av"
    read -r _ _ _ w0 <"$BENCH_OUT/$1"; read -r _ _ _ w1 <"$BENCH_OUT/$2"
    awk -v s=$((s1 - s0)) -v t=$((w1 - w0)) -v cores="$(nproc)" 'BEGIN { printf "%.2f", (t > 0 ? cores * s / t : 0) }'
}
phases=("carcd cpu.load0 cpu.load1")
for r in "${pgb_runs[@]}"; do
    phases+=("pgbench${r//-/_} cpu.pgb0$r cpu.pgb1$r" "carcd_after${r//-/_} cpu.after0$r cpu.after1$r")
done
phases+=("pgbench_cycle cpu.cyc0 cpu.cyc1")
for ph in "${phases[@]}"; do
    read -r name from to <<<"$ph"
    echo "autovacuum_runs_during_$name: $(av "$from" "$to")"
    echo "steal_cores_during_$name: $(steal "$from" "$to")"
done
# WAL bytes from phase FROM to TO
wal() { read -r _ _ w0 <"$BENCH_OUT/$1.av"; read -r _ _ w1 <"$BENCH_OUT/$2.av"; echo $((w1 - w0)); }
carcd_wal=$(wal cpu.load0 cpu.load1)
for r in "${carcd_runs[@]:1}"; do
    carcd_wal=$((carcd_wal + $(wal "cpu.after0${r#load-after}" "cpu.after1${r#load-after}")))
done
pgb_wal=0
for r in "${pgb_runs[@]}"; do
    pgb_wal=$((pgb_wal + $(wal "cpu.pgb0$r" "cpu.pgb1$r")))
done
echo "carcd_wal_bytes_per_move: $((carcd_wal / (load_moves + after_moves)))"
echo "pgbench_wal_bytes_per_move: $((pgb_wal / pgb_moves))"
echo "other_work_cores_during_carcd: $load_other"
echo "other_work_cores_during_pgbench: $pgb_other"
echo "carcd_games_avg_snapshot_bytes: $snap_bytes"
echo "pgbench_games_avg_snapshot_bytes: $pgb_snap_bytes"
echo "logs: $BENCH_OUT"
