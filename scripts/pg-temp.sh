#!/usr/bin/env bash
# pg-temp.sh — a throwaway PostgreSQL cluster for tests: a fresh temp dir, unix socket only (no TCP), its
# own port, fsync off (PGTEMP_DURABLE=1: on). As root the cluster belongs to the `postgres` user (PostgreSQL refuses to run as root).
#
# As a command:
#   scripts/pg-temp.sh start   starts one; prints `CARCD_TEST_DATABASE_URL=<url>` and `PGTEMP_DIR=<dir>`
#   scripts/pg-temp.sh stop DIR   stops it and deletes DIR
# Sourced (as scripts/test.sh does):
#   pg_temp_start   starts one; sets PGTEMP_DIR and exports CARCD_TEST_DATABASE_URL
#   pg_temp_stop    stops it and deletes PGTEMP_DIR (safe to call twice, or when none was started)
#
# Environment: PGTEMP_PORT (default 54329; only names the socket, as nothing listens on TCP),
# PGTEMP_DB (default carcd_test).

pg_temp_bindir() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [[ -z $d || ! -x $d/initdb ]]; then
        echo "pg-temp: no initdb under /usr/lib/postgresql/*/bin (run scripts/deps.sh)" >&2
        return 1
    fi
    echo "$d"
}

# Runs a PostgreSQL program as the cluster's owner: `postgres` when we are root, else ourselves.
pg_temp_as_owner() {
    if ((EUID == 0)); then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_temp_start() {
    local bin port db dir opts
    bin=$(pg_temp_bindir) || return 1
    port=${PGTEMP_PORT:-54329}
    db=${PGTEMP_DB:-carcd_test}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/carcd-pg.XXXXXX") || return 1
    mkdir -p "$dir/sock"
    if ((EUID == 0)); then
        if ! id postgres >/dev/null 2>&1; then
            echo "pg-temp: no 'postgres' user (is the postgresql package installed?)" >&2
            rm -rf "$dir"
            return 1
        fi
        chown -R postgres:postgres "$dir"
        chmod 755 "$dir"   # mktemp's 700 would keep the postgres user out when TMPDIR is root's
    fi
    PGTEMP_DIR=$dir
    PGTEMP_BIN=$bin

    if ! pg_temp_as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync \
            >"$dir/initdb.log" 2>&1; then
        echo "pg-temp: initdb failed:" >&2
        cat "$dir/initdb.log" >&2
        pg_temp_stop
        return 1
    fi
    opts="-c listen_addresses='' -k $dir/sock -p $port"
    # tests need no durability; PGTEMP_DURABLE=1 keeps PostgreSQL's defaults (fsync, synchronous_commit and
    # full_page_writes on), as a server users run has them (bench/run-http-bench.sh measures both)
    [[ ${PGTEMP_DURABLE:-0} == 1 ]] || opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    if ! pg_temp_as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$opts" start >/dev/null; then
        echo "pg-temp: the server did not start:" >&2
        cat "$dir/server.log" >&2
        pg_temp_stop
        return 1
    fi
    if ! pg_temp_as_owner "$bin/createdb" -h "$dir/sock" -p "$port" -U postgres "$db"; then
        echo "pg-temp: createdb $db failed" >&2
        pg_temp_stop
        return 1
    fi
    export CARCD_TEST_DATABASE_URL="postgresql:///$db?host=$dir/sock&port=$port&user=postgres"
}

pg_temp_stop() {
    local dir=${1:-${PGTEMP_DIR:-}}
    [[ -n $dir && -d $dir ]] || return 0
    local bin=${PGTEMP_BIN:-}
    [[ -n $bin ]] || bin=$(pg_temp_bindir) || true
    if [[ -n $bin && -f $dir/data/postmaster.pid ]]; then
        pg_temp_as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    [[ $dir != "${PGTEMP_DIR:-}" ]] || unset PGTEMP_DIR
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    set -euo pipefail
    case ${1:-} in
        start)
            pg_temp_start
            echo "CARCD_TEST_DATABASE_URL=$CARCD_TEST_DATABASE_URL"
            echo "PGTEMP_DIR=$PGTEMP_DIR"
            ;;
        stop)
            [[ -n ${2:-} ]] || { echo "usage: $0 stop DIR" >&2; exit 2; }
            [[ $(basename "$2") == carcd-pg.* ]] || { echo "pg-temp: $2 is not a pg-temp dir" >&2; exit 2; }
            pg_temp_stop "$2"
            ;;
        *)
            echo "usage: $0 start | $0 stop DIR" >&2
            exit 2
            ;;
    esac
fi
