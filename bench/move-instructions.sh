#!/usr/bin/env bash
# move-instructions.sh — the instructions carcd's HTTP workers execute per move, counted by callgrind: a figure
# that repeats to about 1 % from run to run (2026-12-04, one tree: 347.6 k, 348.4 k and 348.5 k; what varies
# is carcd-load's legal-moves GETs a move, 0.63-0.67), where CPU time on this shared 2-core VM moves by a tenth
# between adjacent runs. It counts user space only (carcd and its libraries,
# not the kernel's system calls and thread switches, about half of carcd's CPU per move: docs/PERFORMANCE.md), so
# it is the figure for changes to carcd's own work, and run-http-bench.sh the one for the whole.
#
#   bench/move-instructions.sh
#
# 1. builds carcd and carcd-load (Release, with -g for function names) in $BUILD_DIR;
# 2. starts a throwaway PostgreSQL (fsync off) and carcd under `valgrind --tool=callgrind --separate-threads=yes`;
# 3. carcd-load plays a warm-up (GAMES games, WARMUP_MOVES moves, seed 1), then callgrind's counters are zeroed
#    and it plays MOVES moves from CLIENTS clients (seed 2), as in run-http-bench.sh: a legal-moves GET when the
#    turn passes, the move POSTs otherwise straight from the last answer's legal_moves;
# 4. callgrind dumps; only the threads that ran on_request count (MHD's workers: the clock, mail, webhook and
#    log threads run on timers, whose share would grow with valgrind's slowness).
#
# Prints `name: value` lines: moves, gets_per_move (legal-moves GETs per move), worker_instructions_per_move,
# the same split by the object the instructions ran in (instructions_per_move.carcd, .libc, .libjansson, ...),
# and the TOP functions by their own instructions per move (top.N: count name [object]).
# libmicrohttpd zeroing its 32 KiB connection pool and the state cache's copies are `rep stos`/`rep movs`,
# which callgrind counts a byte at a time: in cycles they cost far less than their count here (docs/PERFORMANCE.md §1).
#
# Environment: MOVES (2000), CLIENTS (8), GAMES (32), WARMUP_MOVES (400), TOP (25), PORT (18290),
# PGTEMP_PORT (54395), BUILD_DIR (build-callgrind), KEEP=1 keeps the callgrind files (their folder is printed).
# Needs valgrind (Debian's package valgrind). Figures, not a test.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
MOVES=${MOVES:-2000}
CLIENTS=${CLIENTS:-8}
GAMES=${GAMES:-32}
WARMUP_MOVES=${WARMUP_MOVES:-400}
TOP=${TOP:-25}
PORT=${PORT:-18290}
BUILD_DIR=${BUILD_DIR:-$root/build-callgrind}
export PGTEMP_PORT=${PGTEMP_PORT:-54395}
export PGTEMP_DB=carcd_instructions
export PGTEMP_DURABLE=0
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carcd-instructions.XXXXXX")
ADMIN=instr-admin-$RANDOM$RANDOM
say() { echo "move-instructions: $*" >&2; }

for tool in valgrind callgrind_control callgrind_annotate; do
    command -v "$tool" >/dev/null || { say "$tool is missing (apt-get install valgrind)"; exit 2; }
done

say "building (Release, -g) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF -DCMAKE_C_FLAGS=-g \
    >"$OUT/cmake.log"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target carcd carcd-load >>"$OUT/cmake.log" 2>&1 || {
    tail -n 30 "$OUT/cmake.log" >&2
    exit 1
}

# shellcheck source=carcd-proc.sh
source "$root/bench/carcd-proc.sh"
cleanup() {
    carcd_and_pg_stop
    [[ ${KEEP:-0} == 1 ]] && say "callgrind files in $OUT" || rm -rf "$OUT"
}
trap cleanup EXIT
pg_temp_start
# the rate limits stay out of the way of one address making every move (a limit refused is not a move)
export CARCD_DATABASE_URL=$CARCD_TEST_DATABASE_URL CARCD_LISTEN=127.0.0.1:$PORT CARCD_ADMIN_TOKEN=$ADMIN \
    CARCD_RATE_MOVES=1000000/60000000,1000000/60000000 CARCD_RATE_CREATE=1000000/60000000,1000000/60000000
"$BUILD_DIR/carcd" migrate >"$OUT/migrate.log" 2>&1 || { cat "$OUT/migrate.log" >&2; exit 1; }

say "carcd under callgrind"
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$OUT/cg" \
    "$BUILD_DIR/carcd" serve >"$OUT/carcd.log" 2>&1 &
carcd_pid=$!
carcd_wait_ready "$PORT" 600 "$OUT/carcd.log" || exit 1   # valgrind takes seconds to start carcd

load() {
    "$BUILD_DIR/carcd-load" --url "http://127.0.0.1:$PORT" --admin-token "$ADMIN" --clients "$CLIENTS" \
        --games "$GAMES" "$@"
}
say "warm-up: $GAMES games, $WARMUP_MOVES moves"
load --moves "$WARMUP_MOVES" --warmup-moves 0 --seed 1 >"$OUT/warmup.out" 2>"$OUT/warmup.err" ||
    { tail -n 5 "$OUT/warmup.err" >&2; exit 1; }
callgrind_control -z "$carcd_pid" >/dev/null
say "counted: $MOVES moves from $CLIENTS clients"
load --moves "$MOVES" --warmup-moves 0 --seed 2 >"$OUT/load.out" 2>"$OUT/load.err" ||
    { tail -n 5 "$OUT/load.err" >&2; exit 1; }
callgrind_control -d "$carcd_pid" >/dev/null

fig() { sed -n "s/^$1: //p" "$OUT/load.out"; }
moves=$(fig moves)
errors=$(fig errors)
[[ $errors == 0 ]] || { say "carcd-load counted $errors errors"; tail -n 5 "$OUT/load.err" >&2; exit 1; }
echo "moves: $moves"
echo "gets_per_move: $(fig gets_per_move)"

# the dump after -d is cg.1-NN, a file per thread; a worker's file names on_request
workers=()
for f in "$OUT"/cg.1-*; do
    grep -q 'on_request' "$f" && workers+=("$f")
done
((${#workers[@]} > 0)) || { say "no worker thread in the dump"; exit 1; }
# every worker's functions by their own instructions: "count<TAB>file:function [object]" (callgrind_annotate's
# lines; a function inlined from a header has no [object] and counts as carcd's). clone and start_thread are
# left out: with the counters zeroed mid-run callgrind_annotate lists them with the thread's whole count,
# which is no work of their own.
for f in "${workers[@]}"; do
    callgrind_annotate --auto=no --threshold=100 --inclusive=no "$f" 2>/dev/null |
        sed -n '/file:function/,$p' |
        awk '/^ *[0-9,]+ +\(/ && !/(clone\.S:clone|pthread_create\.c:start_thread) / {
                 n = $1; gsub(",", "", n); sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, ""); print n "\t" $0 }'
done >"$OUT/self.tsv"
awk -F'\t' -v m="$moves" '
    { fn = $2; obj = "carcd"
      if (match(fn, /\[[^]]*\]$/)) { o = substr(fn, RSTART + 1, RLENGTH - 2); n = split(o, parts, "/"); obj = parts[n] }
      sub(/\.so.*/, "", obj); sub(/^lib(c|pthread)$/, "libc", obj)
      by[obj] += $1; tot += $1 }
    END { printf "worker_instructions_per_move: %d\n", tot / m
          for (o in by) printf "instructions_per_move.%s: %d\n", o, by[o] / m }' "$OUT/self.tsv" | sort -t: -k1,1
awk -F'\t' '{ s[$2] += $1 } END { for (f in s) print s[f] "\t" f }' "$OUT/self.tsv" | sort -rn | head -n "$TOP" |
    awk -F'\t' -v m="$moves" '{ printf "top.%d: %d %s\n", NR, $1 / m, $2 }'
