#!/usr/bin/env bash
# run-evloop-floor.sh — the CPU a request costs a server that only answers HTTP after one round trip to
# PostgreSQL, with blocking workers (carcd's design) and with an event loop per worker that pipelines the
# requests' statements on its connection (bench/evloop-floor.c; docs/PERFORMANCE.md §12 and §13).
#
#   bench/run-evloop-floor.sh
#
# 1. builds evloop-floor (Release) in $BUILD_DIR, starts a throwaway PostgreSQL (scripts/pg-temp.sh, fsync off
#    unless DURABLE=1: the statement writes nothing, so only the round trip counts);
# 2. for ROUNDS rounds, starts evloop-floor in each mode in turn (blocking, then evloop) and sends it REQUESTS
#    GET /q from one `curl --parallel --parallel-max $CLIENTS` (keep-alive connections, as carcd-load's), after
#    WARMUP requests;
# 3. prints `name: value` lines for each run: requests/s, the server's CPU a request (user and system time of
#    its process, /proc), and for evloop the requests one read of the database socket completed; then each
#    mode's median CPU a request and their ratio. curl runs on the same two cores as the server and PostgreSQL.
#
# Environment: ROUNDS (3), REQUESTS (40000), WARMUP (4000), CLIENTS (32), THREADS (4: carcd's default workers),
# BODY (1200 bytes), WORK (1000 rows counted: about 0.1 ms of PostgreSQL a statement here, so that workers wait
# for their results as for a move), PORT (18292), PGTEMP_PORT (54396), BUILD_DIR (build-bench), DURABLE (0),
# MODES ("blocking evloop"), WORKS (a list of WORK values, each run in turn within a round: how the server's CPU
# a request follows PostgreSQL's load on the same two cores; its lines then end in .work_N, and PostgreSQL's
# CPU a request is printed too).
# Timing is not a test: nothing here is part of the test command.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
ROUNDS=${ROUNDS:-3}
REQUESTS=${REQUESTS:-40000}
WARMUP=${WARMUP:-4000}
CLIENTS=${CLIENTS:-32}
THREADS=${THREADS:-4}
BODY=${BODY:-1200}
WORK=${WORK:-1000}
PORT=${PORT:-18292}
BUILD_DIR=${BUILD_DIR:-$root/build-bench}
export PGTEMP_PORT=${PGTEMP_PORT:-54396}
export PGTEMP_DB=carcd_evloop
export PGTEMP_DURABLE=${DURABLE:-0}
MODES=${MODES:-blocking evloop}
WORKS=${WORKS:-$WORK}
read -r -a works <<<"$WORKS"

say() { echo "run-evloop-floor: $*" >&2; }

say "building (Release) in $BUILD_DIR"
cmake -S "$root" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target evloop-floor >/dev/null

# shellcheck source=scripts/pg-temp.sh
source "$root/scripts/pg-temp.sh"
# shellcheck source=cpu-ticks.sh
source "$root/bench/cpu-ticks.sh"
# shellcheck source=floor-run.sh
source "$root/bench/floor-run.sh"
pg_temp_start >/dev/null
work=$(mktemp -d /tmp/carcd-evloop.XXXXXX)
floor_pid=
cleanup() {
    [[ -n $floor_pid ]] && kill "$floor_pid" 2>/dev/null && wait "$floor_pid" 2>/dev/null
    pg_temp_stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

hz=$(getconf CLK_TCK)
per_request() { awk -v t="$1" -v hz="$hz" -v n="$REQUESTS" 'BEGIN { printf "%.4f", 1000 * t / hz / n }'; }

declare -A cpu_runs
for ((round = 1; round <= ROUNDS; round++)); do
    for w in "${works[@]}"; do
        key=""   # one WORK: the lines as they always were
        ((${#works[@]} > 1)) && key=".work_$w"
        for mode in $MODES; do
            floor_run "$BUILD_DIR/evloop-floor" "$CARCD_TEST_DATABASE_URL" "$PORT" "$mode" "$THREADS" "$BODY" "$w" \
                "$WARMUP" "$REQUESTS" "$CLIENTS" "$work" || exit 1
            cpu=$(per_request $((floor_user_ticks + floor_system_ticks)))
            r="round_$round.$mode$key"
            echo "$r.requests_per_s: $(awk -v n="$REQUESTS" -v s="$floor_seconds" 'BEGIN { printf "%.0f", n / s }')"
            echo "$r.cpu_ms_per_request: $cpu"
            echo "$r.user_ms_per_request: $(per_request "$floor_user_ticks")"
            if ((${#works[@]} > 1)); then
                echo "$r.postgres_cpu_ms_per_request: $(per_request "$floor_pg_ticks")"
            fi
            if [[ $mode == evloop ]]; then
                echo "$r.requests_per_result_read: $(sed -n 's/^requests_per_result_read: //p' "$work/floor-$mode.out")"
            fi
            cpu_runs[$mode$key]+="$cpu "
        done
    done
done

median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for w in "${works[@]}"; do
    key=""
    ((${#works[@]} > 1)) && key=".work_$w"
    for mode in $MODES; do echo "$mode$key.cpu_ms_per_request_median: $(median "${cpu_runs[$mode$key]}")"; done
    if [[ " $MODES " == *" blocking "* && " $MODES " == *" evloop "* ]]; then
        b=$(median "${cpu_runs[blocking$key]}")
        e=$(median "${cpu_runs[evloop$key]}")
        echo "evloop_saves_ms_per_request$key: $(awk -v b="$b" -v e="$e" 'BEGIN { printf "%.4f", b - e }')"
        echo "evloop_cpu_percent_of_blocking$key: $(awk -v b="$b" -v e="$e" 'BEGIN { printf "%.1f", 100 * e / b }')"
    fi
done
