#!/usr/bin/env bash
# run.sh — builds carcd and runs it. The README's run command.
#
#   deps → build (build/) → database → start
#
# "database" is a private PostgreSQL cluster in var/pg of this checkout: its own port (CARCD_PG_PORT, default
# 54320), its unix socket in var/pg and no TCP at all, the server's log in var/pg/log/. As root the cluster
# belongs to the `postgres` user (PostgreSQL refuses to run as root). It is started when it is not running and
# left running when carcd stops, so a second run reuses it and the games in it. To stop it:
#   pg_ctl -D var/pg/data stop     (as root: runuser -u postgres -- /usr/lib/postgresql/*/bin/pg_ctl ...)
# Then the database `carcd` is created if missing, `carcd migrate` brings its schema up to date, and carcd
# serves on 127.0.0.1:8080 (CARCD_LISTEN, as for carcd itself) in the foreground (Ctrl-C stops it). The admin
# token is made on the first run and kept in var/admin-token (mode 0600); the curl line printed before carcd
# starts creates a game with it. It builds carcd and carcctl only: the tests are test.sh's to build.
# tests/readme/run-command.sh runs this script in a copy of the checkout, twice, for test.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

JOBS=${JOBS:-2}
PG_PORT=${CARCD_PG_PORT:-54320}
LISTEN=${CARCD_LISTEN:-127.0.0.1:8080}
pg_root=$root/var/pg
pg_data=$pg_root/data
pg_bin=""
db_url=""
admin_token=""

step_deps() {
    echo "==== dependencies ===="
    scripts/deps.sh
}

step_build() {
    echo "==== build (build/) ===="
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF
    cmake --build build -j"$JOBS" --target carcd carcctl
}

# Runs a PostgreSQL server program as the cluster's owner: `postgres` when we are root, else ourselves.
as_pg_owner() {
    if ((EUID == 0)); then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# As root, the postgres user must be able to walk down to var/pg: the folders above it that withhold search
# permission from others (a checkout under /root, say) get o+x, and nothing more, and we say so.
let_postgres_in() {
    local d=$pg_root
    while [[ $d != / ]]; do
        d=$(dirname "$d")
        if ! runuser -u postgres -- test -x "$d"; then
            echo "run.sh: chmod o+x $d, so that the postgres user can reach var/pg"
            chmod o+x "$d"
        fi
    done
}

step_database() {
    echo "==== database (var/pg) ===="
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [[ -z $pg_bin || ! -x $pg_bin/initdb ]]; then
        echo "run.sh: no PostgreSQL under /usr/lib/postgresql/*/bin (scripts/deps.sh installs it)" >&2
        exit 1
    fi
    local major
    major=$(basename "$(dirname "$pg_bin")")
    if ((${#pg_root} + ${#PG_PORT} + 12 > 107)); then
        echo "run.sh: $pg_root is too long a path for a unix socket (107 bytes at most); move the checkout" >&2
        exit 1
    fi
    mkdir -p "$pg_root"
    if ((EUID == 0)); then
        if ! id postgres >/dev/null 2>&1; then
            echo "run.sh: no 'postgres' user (is the postgresql package installed?)" >&2
            exit 1
        fi
        chown postgres:postgres "$pg_root"
        let_postgres_in
    fi
    chmod 700 "$pg_root"   # the socket is in here and local connections are trusted: keep everyone else out
    as_pg_owner mkdir -p "$pg_root/log"

    if [[ ! -f $pg_data/PG_VERSION ]]; then
        echo "run.sh: creating a PostgreSQL $major cluster in var/pg/data"
        if ! as_pg_owner "$pg_bin/initdb" -D "$pg_data" -U postgres -A trust -E UTF8 --no-locale \
                >"$pg_root/log/initdb.log" 2>&1; then
            cat "$pg_root/log/initdb.log" >&2
            exit 1
        fi
    elif [[ $(cat "$pg_data/PG_VERSION") != "$major" ]]; then
        echo "run.sh: var/pg/data is a PostgreSQL $(cat "$pg_data/PG_VERSION") cluster but the server here is" \
            "$major: pg_upgrade it, or move var/pg away to start afresh" >&2
        exit 1
    fi

    if as_pg_owner "$pg_bin/pg_ctl" -D "$pg_data" status >/dev/null 2>&1; then
        echo "run.sh: the cluster is running: reusing it"
    else
        echo "run.sh: starting the cluster on port $PG_PORT (log: var/pg/log/postgresql.log)"
        if ! as_pg_owner "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_root/log/postgresql.log" -w -t 60 \
                -o "-c listen_addresses='' -k '$pg_root' -p $PG_PORT" start >/dev/null; then
            tail -n 20 "$pg_root/log/postgresql.log" >&2
            exit 1
        fi
    fi
    # the port it really uses: a cluster started earlier with another CARCD_PG_PORT keeps its own
    local port
    port=$(sed -n 4p "$pg_data/postmaster.pid")
    local psql=("$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$pg_root" -p "$port" -U postgres -d postgres)
    if [[ $("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = 'carcd'") != 1 ]]; then
        echo "run.sh: creating the database carcd"
        "${psql[@]}" -c "CREATE DATABASE carcd"
    fi
    db_url="host='$pg_root' port=$port dbname=carcd user=postgres"
}

step_token() {
    local f=$root/var/admin-token
    if [[ ! -s $f ]]; then
        (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$f")
        echo "run.sh: made an admin token, kept in var/admin-token"
    fi
    chmod 600 "$f"
    admin_token=$(cat "$f")
}

step_start() {
    echo "==== carcd ===="
    export CARCD_DATABASE_URL=$db_url
    export CARCD_LISTEN=$LISTEN
    export CARCD_ADMIN_TOKEN=$admin_token
    build/carcd migrate
    echo
    # curl's way to the address carcd listens on: a unix socket (unix:PATH) or HOST:PORT
    local base=http://$LISTEN via=""
    if [[ $LISTEN == unix:* ]]; then
        base=http://localhost
        via=" --unix-socket ${LISTEN#unix:}"
    fi
    echo "carcd serves on $LISTEN (Ctrl-C stops it; the database keeps running). Create a game:"
    echo
    echo "  curl -sS$via -X POST $base/v1/games -H 'Authorization: Bearer $admin_token'" \
        "-H 'Content-Type: application/json' -d '{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}'"
    echo
    exec build/carcd serve
}

step_deps
step_build
step_database
step_token
step_start
