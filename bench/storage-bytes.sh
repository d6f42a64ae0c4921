#!/usr/bin/env bash
# storage-bytes.sh — bytes per game in PostgreSQL (table, indexes and TOAST, after VACUUM FULL), for games in
# play and finished, base and every expansion, 2 and 6 seats: bench/storage-bytes.c against carcd, and, with
# BEFORE_CARCD, the same run against another carcd binary (e.g. one built from main) on a database of its own
# migrations, so that the two tables come from the same conditions.
#
#   bench/storage-bytes.sh                                  # this checkout's carcd (built in $BUILD_DIR)
#   BEFORE_CARCD=/path/to/old/carcd bench/storage-bytes.sh  # that one first, then this one
#
# Environment: BUILD_DIR (build), GAMES (10 per case), ACTIVE_SEQ (70), PORT (18190), PGTEMP_PORT (54392).
# carcd runs with its clock worker every 200 ms, which compacts finished games (sql/010_compact_log.sql) once
# their moves' idempotency window is over: a second here (CARCD_IDEMPOTENCY_TTL=1), a day by default.
# Figures, not a test.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
BUILD_DIR=${BUILD_DIR:-$root/build}
GAMES=${GAMES:-10}
ACTIVE_SEQ=${ACTIVE_SEQ:-70}
PORT=${PORT:-18190}
export PGTEMP_PORT=${PGTEMP_PORT:-54392}
export PGTEMP_DB=carcd_storage
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carcd-storage.XXXXXX")
ADMIN=storage-admin-$RANDOM$RANDOM

cmake --build "$BUILD_DIR" --target carcd storage-bytes >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log" >&2; exit 1; }

# shellcheck source=carcd-proc.sh
source "$root/bench/carcd-proc.sh"
trap carcd_and_pg_stop EXIT
pg_temp_start

# run NAME CARCD_BINARY: a fresh database migrated by that binary, the binary serving, the measurements
run() {
    local name=$1 bin=$2 db=carcd_storage_$1
    psql -qX "$CARCD_TEST_DATABASE_URL" -c "CREATE DATABASE $db" >/dev/null
    local url=${CARCD_TEST_DATABASE_URL/\/carcd_storage\?//$db?}
    CARCD_DATABASE_URL=$url "$bin" migrate >"$OUT/$name.migrate.log" 2>&1 || { cat "$OUT/$name.migrate.log" >&2; exit 1; }
    CARCD_DATABASE_URL=$url CARCD_LISTEN=127.0.0.1:$PORT CARCD_ADMIN_TOKEN=$ADMIN CARCD_CLOCK_INTERVAL_MS=200 \
        CARCD_IDEMPOTENCY_TTL=1 \
        "$bin" serve >"$OUT/$name.carcd.log" 2>&1 &
    carcd_pid=$!
    carcd_wait_ready "$PORT" 50 "$OUT/$name.carcd.log" || exit 1
    echo "== $name: $bin ($GAMES games per case)"
    "$BUILD_DIR/storage-bytes" --url "http://127.0.0.1:$PORT" --admin-token "$ADMIN" --database-url "$url" \
        --games "$GAMES" --active-seq "$ACTIVE_SEQ"
    carcd_stop
}

if [[ -n ${BEFORE_CARCD:-} ]]; then
    run before "$BEFORE_CARCD"
fi
run after "$BUILD_DIR/carcd"
echo "logs: $OUT"
