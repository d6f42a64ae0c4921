#!/usr/bin/env bash
# floor-run.sh — one timed run of bench/evloop-floor.c (docs/PERFORMANCE.md §13, §19, §21), sourced by
# run-evloop-floor.sh and run-http-bench.sh, which each used to write it out: the server started on a
# PostgreSQL, WARMUP then REQUESTS `GET /q` from one `curl --parallel` (keep-alive connections, CLIENTS at a
# time, as carcd-load's), and the CPU of the server and of the whole PostgreSQL cluster over the timed requests.
# Needs cpu-ticks.sh (ticks_faults_of, pg_ticks) sourced first.
#
#   floor_run BIN DB_URL PORT MODE THREADS BODY WORK WARMUP REQUESTS CLIENTS DIR
#
# Sets floor_user_ticks, floor_system_ticks, floor_pg_ticks and floor_seconds (the timed requests'); the
# server's own lines stay in DIR/floor-MODE.out (requests_per_result_read, for the event loop). floor_pid is
# the server while it runs, for the caller's clean-up. Returns 1, saying why on stderr, when the server failed
# or did not answer every request.

# a curl config (-K) of N ($1) GETs of URL ($2), their bodies dropped (run-http-bench.sh's /healthz run too)
curl_config() {
    awk -v n="$1" -v u="$2" 'BEGIN { for (i = 0; i < n; i++) printf "url = \"%s\"\noutput = \"/dev/null\"\n", u }'
}

floor_run() {
    local bin=$1 db=$2 port=$3 mode=$4 threads=$5 body=$6 work=$7 warmup=$8 requests=$9 clients=${10} dir=${11}
    local url="http://127.0.0.1:$port/q" u0 s0 u1 s1 pg0 pg1 t0 t1 served
    curl_config "$warmup" "$url" >"$dir/floor-warmup.curl"
    curl_config "$requests" "$url" >"$dir/floor-timed.curl"
    "$bin" --db "$db" --port "$port" --mode "$mode" --threads "$threads" --body "$body" --work "$work" \
        >"$dir/floor-$mode.out" 2>"$dir/floor-$mode.err" &
    floor_pid=$!
    for _ in $(seq 100); do grep -q ready "$dir/floor-$mode.out" 2>/dev/null && break; sleep 0.05; done
    curl -sS --parallel --parallel-max "$clients" -K "$dir/floor-warmup.curl" 2>>"$dir/floor-$mode.err"
    read -r u0 s0 _ < <(ticks_faults_of "$floor_pid")
    pg0=$(pg_ticks)
    t0=$(date +%s.%N)
    curl -sS --parallel --parallel-max "$clients" -K "$dir/floor-timed.curl" 2>>"$dir/floor-$mode.err"
    t1=$(date +%s.%N)
    read -r u1 s1 _ < <(ticks_faults_of "$floor_pid")
    pg1=$(pg_ticks)
    kill -INT "$floor_pid"
    wait "$floor_pid" || { echo "evloop-floor ($mode) failed: $(cat "$dir/floor-$mode.err")" >&2; floor_pid=; return 1; }
    floor_pid=
    served=$(sed -n 's/^requests: //p' "$dir/floor-$mode.out")
    if [[ $served != $((warmup + requests)) ]]; then
        echo "evloop-floor ($mode) answered $served of $((warmup + requests)) requests" >&2
        return 1
    fi
    floor_user_ticks=$((u1 - u0)) floor_system_ticks=$((s1 - s0)) floor_pg_ticks=$((pg1 - pg0))
    floor_seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}
