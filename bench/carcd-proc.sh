#!/usr/bin/env bash
# carcd-proc.sh — the carcd a benchmark script measures, sourced (storage-bytes.sh, move-instructions.sh,
# run-pgbench-batching.sh): waiting until it is ready, and stopping it with the throwaway PostgreSQL under it
# (scripts/pg-temp.sh, sourced here too). The script keeps the process id in carcd_pid.

# shellcheck source=../scripts/pg-temp.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/pg-temp.sh"
carcd_pid=""

# until carcd on 127.0.0.1:PORT ($1) answers /readyz, at most TRIES ($2) tries 0.2 s apart; 1 (its log's tail
# on stderr, LOG $3) when it exited meanwhile or never answered
carcd_wait_ready() {
    local port=$1 tries=$2 log=$3
    for _ in $(seq "$tries"); do
        curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return 0
        if ! kill -0 "$carcd_pid" 2>/dev/null; then
            echo "carcd exited:" >&2
            tail -n 20 "$log" >&2
            return 1
        fi
        sleep 0.2
    done
    echo "carcd is not ready after $tries tries" >&2
    return 1
}

# SIGTERM (carcd finishes what is in flight) and its exit; nothing when none runs
carcd_stop() {
    if [[ -n ${carcd_pid:-} ]]; then
        kill -TERM "$carcd_pid" 2>/dev/null || true
        wait "$carcd_pid" 2>/dev/null || true
    fi
    carcd_pid=""
}

# carcd, then the PostgreSQL pg_temp_start started: a script's exit trap
carcd_and_pg_stop() {
    carcd_stop
    pg_temp_stop
}
