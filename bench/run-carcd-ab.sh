#!/usr/bin/env bash
# run-carcd-ab.sh — carcd's CPU a move for two ways of running it, alternated in one run: the A/B behind
# docs/PERFORMANCE.md §16 (glibc's malloc against a preloaded jemalloc; a 32 KiB connection pool against an
# 8 KiB one). Adjacent runs of one build differ here by up to a fifth, so only sides measured in turn, in one
# run, compare; a single pair says little.
#
#   bench/run-carcd-ab.sh 'A command' 'B command'
#   bench/run-carcd-ab.sh build-bench/carcd 'env LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 build-bench/carcd'
#   bench/run-carcd-ab.sh /tmp/before/carcd /tmp/after/carcd
#
# Each command is a carcd to run (with `serve` appended; it must exec carcd, as env does, so that the process
# measured is carcd's). A_LOAD and B_LOAD name each side's carcd-load (both $BUILD_DIR/carcd-load unless set),
# for an A/B of the load client itself with the same carcd on both sides. Builds carcd and carcd-load (Release) in $BUILD_DIR, starts a throwaway PostgreSQL
# (scripts/pg-temp.sh; fast: fsync and synchronous_commit off, or DURABILITY=durable) and migrates it with
# $BUILD_DIR/carcd; then ROUNDS times: A, then B, each a new carcd under carcd-load (GAMES games, WARMUP_MOVES
# warm-up moves, then CLIENTS clients for SECONDS_EACH seconds). carcd's CPU ticks (user + system, /proc) over
# the timed phase are divided by its moves.
#
# Prints a line a run (`ab.run: side cpu_ms_per_move moves_per_s gets_per_move steal_ticks voluntary_switches
# involuntary_switches user_ms system_ms minor_faults load_cpu_ms`, the switches, the CPU's two parts and the
# page faults a move, all carcd's threads: cpu-ticks.sh's switches_of and ticks_faults_of; then carcd-load's
# own CPU a move), then
# `ab.A.cpu_ms_per_move_mean`, `ab.B.cpu_ms_per_move_mean`, `ab.B_over_A_percent` and `ab.B_lower_pairs`
# (of ROUNDS). steal_ticks: the hypervisor ran something else on our cores during the run (a run to distrust).
#
# Environment: ROUNDS (6), SECONDS_EACH (10), CLIENTS (32), GAMES (128), WARMUP_MOVES (3200), DURABILITY (fast),
# RATE (none: closed loop; else carcd-load's --rate, moves/s, for the timed phase of both sides), PORT (18096),
# PGTEMP_PORT (54396), BUILD_DIR (build-bench). Figures, not a test.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
(($# == 2)) || { echo "usage: bench/run-carcd-ab.sh 'A command' 'B command'" >&2; exit 2; }
A_CMD=$1
B_CMD=$2
A_LOAD=${A_LOAD:-}
B_LOAD=${B_LOAD:-}
ROUNDS=${ROUNDS:-6}
SECONDS_EACH=${SECONDS_EACH:-10}
CLIENTS=${CLIENTS:-32}
GAMES=${GAMES:-128}
WARMUP_MOVES=${WARMUP_MOVES:-3200}
PORT=${PORT:-18096}
BUILD_DIR=${BUILD_DIR:-$root/build-bench}
export PGTEMP_PORT=${PGTEMP_PORT:-54396} PGTEMP_DB=carcd_ab
case ${DURABILITY:-fast} in
fast) export PGTEMP_DURABLE=0 ;;
durable) export PGTEMP_DURABLE=1 ;;
*) echo "run-carcd-ab: DURABILITY must be fast or durable" >&2; exit 2 ;;
esac
out=$(mktemp -d "${TMPDIR:-/tmp}/carcd-ab.XXXXXX")
say() { echo "run-carcd-ab: $*" >&2; }

# shellcheck source=cpu-ticks.sh
source "$root/bench/cpu-ticks.sh"
# shellcheck source=carcd-proc.sh
source "$root/bench/carcd-proc.sh"
trap carcd_and_pg_stop EXIT
trap 'exit 130' INT TERM

say "building (Release) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF >"$out/cmake.log"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target carcd carcd-load >>"$out/cmake.log" 2>&1 ||
    { tail -n 30 "$out/cmake.log" >&2; exit 1; }
pg_temp_start >/dev/null
admin=ab-admin-$RANDOM$RANDOM
# the rate limits out of the way of one address making every move (as run-http-bench.sh)
export CARCD_DATABASE_URL=$CARCD_TEST_DATABASE_URL CARCD_LISTEN=127.0.0.1:$PORT CARCD_ADMIN_TOKEN=$admin \
    CARCD_RATE_MOVES=1000000/60000000,1000000/60000000 CARCD_RATE_CREATE=1000000/60000000,1000000/60000000
"$BUILD_DIR/carcd" migrate >"$out/migrate.log" 2>&1 || { cat "$out/migrate.log" >&2; exit 1; }
hz=$(getconf CLK_TCK)

# one run of side $1 (A or B) with command $2 and carcd-load $3: prints its ab.run line, appends its CPU a move
# to $out/$1
one_run() {
    local side=$1 cmd=$2 load=${3:-$BUILD_DIR/carcd-load} t0 t1 moves steal0
    steal0=$(awk '/^cpu / { print $9 }' /proc/stat)
    # shellcheck disable=SC2086 # the command is words on purpose: "env LD_PRELOAD=... carcd"
    $cmd serve >>"$out/carcd-$side.log" 2>&1 &
    carcd_pid=$!
    carcd_wait_ready "$PORT" 100 "$out/carcd-$side.log"
    rm -f "$out/load.err"
    # carcd's ticks once carcd-load announces its timed phase (after the warm-up)
    (
        while ! grep -q "timed phase" "$out/load.err" 2>/dev/null; do sleep 0.05; done
        ticks_of "$carcd_pid" >"$out/t0"
        switches_of "$carcd_pid" >"$out/s0"
        ticks_faults_of "$carcd_pid" >"$out/f0"
    ) &
    local sampler=$!
    "$load" --url "http://127.0.0.1:$PORT" --admin-token "$admin" --clients "$CLIENTS" \
        --games "$GAMES" --moves 1000000000 --warmup-moves "$WARMUP_MOVES" --seconds "$SECONDS_EACH" \
        --seed "$RANDOM" ${RATE:+--rate "$RATE"} >"$out/load.out" 2>"$out/load.err" || { cat "$out/load.err" >&2; exit 1; }
    t1=$(ticks_of "$carcd_pid")
    local s1
    s1=$(switches_of "$carcd_pid")
    local f1
    f1=$(ticks_faults_of "$carcd_pid")
    wait "$sampler" || true
    t0=$(cat "$out/t0")
    carcd_stop
    moves=$(sed -n 's/^moves: //p' "$out/load.out")
    local cpu
    cpu=$(awk -v a="$t0" -v b="$t1" -v m="$moves" -v hz="$hz" 'BEGIN { printf "%.4f", (b - a) * 1000 / hz / m }')
    echo "$cpu" >>"$out/$side"
    local v0 n0 v1 n1 switches
    read -r v0 n0 <"$out/s0"
    read -r v1 n1 <<<"$s1"
    switches=$(awk -v v="$((v1 - v0))" -v n="$((n1 - n0))" -v m="$moves" 'BEGIN { printf "%.2f %.2f", v / m, n / m }')
    local u0 k0 m0 u1 k1 m1 split
    read -r u0 k0 m0 <"$out/f0"
    read -r u1 k1 m1 <<<"$f1"
    split=$(awk -v u="$((u1 - u0))" -v k="$((k1 - k0))" -v f="$((m1 - m0))" -v m="$moves" -v hz="$hz" \
        'BEGIN { printf "%.4f %.4f %.2f", u * 1000 / hz / m, k * 1000 / hz / m, f / m }')
    echo "ab.run: $side $cpu $(sed -n 's/^moves_per_s: //p' "$out/load.out") $(sed -n 's/^gets_per_move: //p' "$out/load.out")" \
        "$(($(awk '/^cpu / { print $9 }' /proc/stat) - steal0)) $switches $split" \
        "$(sed -n 's/^load_cpu_ms_per_move: //p' "$out/load.out")"
}

say "A: $A_CMD"
say "B: $B_CMD"
[[ -z $A_LOAD && -z $B_LOAD ]] || say "carcd-load: A ${A_LOAD:-$BUILD_DIR/carcd-load}, B ${B_LOAD:-$BUILD_DIR/carcd-load}"
for ((i = 1; i <= ROUNDS; i++)); do
    one_run A "$A_CMD" "$A_LOAD"
    one_run B "$B_CMD" "$B_LOAD"
done
paste "$out/A" "$out/B" | awk '
    { a += $1; b += $2; n++; if ($2 < $1) lower++ }
    END {
        printf "ab.A.cpu_ms_per_move_mean: %.4f\nab.B.cpu_ms_per_move_mean: %.4f\n", a / n, b / n
        printf "ab.B_over_A_percent: %.1f\nab.B_lower_pairs: %d of %d\n", 100 * b / a, lower, n
    }'
rm -rf "$out"
