#!/usr/bin/env bash
# run-waiters-rss.sh — bench/waiters-rss against a carcd of its own, in the conditions the README's figures
# were measured in: a throwaway PostgreSQL (scripts/pg-temp.sh), carcd on 127.0.0.1:$PORT with
# CARCD_PER_IP_CONNECTIONS=0 and CARCD_MAX_CONNECTIONS above the count, default threads; then waiters-rss
# for long-polls, then for event streams, each against a freshly started carcd (so "idle" is the same).
#
#   bench/run-waiters-rss.sh [BUILD_DIR]
#
# Environment: WAITERS (10000), KINDS ("long-poll sse"), PORT (18417), PGTEMP_PORT (54417), SETTLE (5 s).
# Prints waiters-rss's `name: value` lines per kind. Needs an open-files hard limit above WAITERS
# (ulimit -Hn): both programs raise their soft limit to it. Timing figures (setup_s, wake_s) depend on how
# busy the machine is; the memory figures hardly do.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$root/build}
WAITERS=${WAITERS:-10000}
KINDS=${KINDS:-"long-poll sse"}
PORT=${PORT:-18417}
SETTLE=${SETTLE:-5}
export PGTEMP_PORT=${PGTEMP_PORT:-54417}
export PGTEMP_DB=carcd_waiters

# shellcheck source=../scripts/pg-temp.sh
source "$root/scripts/pg-temp.sh"
pg_temp_start >/dev/null
CARCD_PID=
cleanup() {
    [[ -n $CARCD_PID ]] && kill "$CARCD_PID" 2>/dev/null && wait "$CARCD_PID" 2>/dev/null
    pg_temp_stop
}
trap cleanup EXIT
CARCD_DATABASE_URL=$CARCD_TEST_DATABASE_URL "$BUILD/carcd" migrate >/dev/null

for kind in $KINDS; do
    log=$(mktemp "${TMPDIR:-/tmp}/carcd-waiters.XXXXXX.log")
    CARCD_DATABASE_URL=$CARCD_TEST_DATABASE_URL CARCD_LISTEN=127.0.0.1:$PORT CARCD_PER_IP_CONNECTIONS=0 \
        CARCD_MAX_CONNECTIONS=$((WAITERS + 100)) "$BUILD/carcd" >"$log" 2>&1 &
    CARCD_PID=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
        sleep 0.1
    done
    flag=()
    [[ $kind == sse ]] && flag=(--sse)
    "$BUILD/waiters-rss" --port "$PORT" --pid "$CARCD_PID" --waiters "$WAITERS" --settle "$SETTLE" "${flag[@]}"
    kill "$CARCD_PID"
    wait "$CARCD_PID" || true
    CARCD_PID=
    echo "carcd_log: $log"
done
