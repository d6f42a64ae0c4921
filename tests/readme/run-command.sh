#!/usr/bin/env bash
# run-command.sh — the README's run command, `bash scripts/run.sh`, as a newcomer uses it: test.sh runs this.
#
#   tests/readme/run-command.sh
#
# Nothing else checks that the first of the README's two set-up commands still works, so this does what the
# README says a newcomer does, in a copy of this checkout (the files git tracks or would track, as they are in
# the working tree), so that a var/pg of the developer's own, with their games, is never touched:
#   1. `bash scripts/run.sh` builds, creates and starts the private PostgreSQL in var/pg, makes the admin
#      token and serves; the curl line it prints is run as printed and must create a game;
#   2. the README's first example ("With carcd running ... in a second shell") is run as it stands, only its
#      S= address changed to this run's, and what each step answers is checked (example.sh);
#   3. carcd stops on SIGTERM, and a second `bash scripts/run.sh` reuses the cluster, the admin token and the
#      games: the example's game is still there at its seq.
# It ends by stopping carcd and the copy's cluster and removing the copy.
#
# Environment: RUNCMD_PORT (18081: carcd's port; run.sh's own default, 8080, is left to a carcd a developer
# may be running), RUNCMD_PG_PORT (54329), JOBS (2), RUNCMD_KEEP=1 keeps the copy (its path is printed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PORT=${RUNCMD_PORT:-18081}
PG_PORT=${RUNCMD_PG_PORT:-54329}
S=http://127.0.0.1:$PORT
# short: run.sh puts PostgreSQL's unix socket under the copy's var/pg (107 bytes at most)
work=$(mktemp -d "${TMPDIR:-/tmp}/carcd-run.XXXXXX")
copy=$work/carcd
serve_pid=""
serve_rc=0

say() { echo "run-command: $*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}

pg_ctl_copy() {
    local pg_bin
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -n $pg_bin && -f $copy/var/pg/data/postmaster.pid ]] || return 0
    if ((EUID == 0)); then
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$copy/var/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    else
        "$pg_bin/pg_ctl" -D "$copy/var/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
}

stop_serve() {
    if [[ -n $serve_pid ]] && kill -0 "$serve_pid" 2>/dev/null; then
        kill -TERM "$serve_pid" 2>/dev/null || true
        for _ in $(seq 100); do
            kill -0 "$serve_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$serve_pid" 2>/dev/null || true
    fi
    serve_rc=0
    [[ -z $serve_pid ]] || wait "$serve_pid" 2>/dev/null || serve_rc=$?
    serve_pid=""
}

cleanup() {
    stop_serve
    pg_ctl_copy
    if [[ ${RUNCMD_KEEP:-0} == 1 ]]; then
        say "the copy is kept in $copy"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

# ---- the copy -----------------------------------------------------------------------------------------------
mkdir -p "$copy"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked and untracked-but-not-ignored files as they are now (build dirs and var/ are ignored); a tracked
    # file deleted in the working tree is left out
    (cd "$root" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -xf - -C "$copy"
else
    (cd "$root" && tar --exclude='./build*' --exclude=./var -cf - .) | tar -xf - -C "$copy"
fi

# ---- 1. the first run -----------------------------------------------------------------------------------------
# run.sh in the background, its output in FILE ($1); serve_pid is run.sh's, which execs carcd
start_run() {
    (cd "$copy" && exec env CARCD_LISTEN="127.0.0.1:$PORT" CARCD_PG_PORT="$PG_PORT" JOBS="${JOBS:-2}" \
        bash scripts/run.sh) >"$1" 2>&1 &
    serve_pid=$!
    # deps, the build and initdb come first: minutes on a fresh machine
    for _ in $(seq 1200); do
        curl -fsS "$S/readyz" >/dev/null 2>&1 && return 0
        kill -0 "$serve_pid" 2>/dev/null || { tail -n 40 "$1" >&2; fail "run.sh exited before carcd was ready"; }
        sleep 0.5
    done
    tail -n 40 "$1" >&2
    fail "carcd was not ready after 600 s"
}

say "bash scripts/run.sh in $copy (carcd on $S, PostgreSQL on port $PG_PORT)"
start_run "$work/run1.log"
grep -q "creating a PostgreSQL .* cluster in var/pg/data" "$work/run1.log" || fail "the first run made no cluster"
grep -q "made an admin token" "$work/run1.log" || fail "the first run made no admin token"
[[ $(stat -c %a "$copy/var/admin-token") == 600 ]] || fail "var/admin-token is not mode 0600"

# the curl line run.sh printed, run as printed
create_line=$(grep -m 1 '^  curl -sS -X POST ' "$work/run1.log") || fail "run.sh printed no curl line"
[[ $create_line == *"$S/v1/games"* ]] || fail "the curl line does not go to $S: $create_line"
created=$(bash -c "$create_line") || fail "the printed curl line failed: $create_line"
grep -q '"id":"' <<<"$created" || fail "the printed curl line created no game: $created"
[[ $(grep -o '"token":"' <<<"$created" | wc -l) == 2 ]] || fail "the created game has not two seat tokens: $created"

# ---- 2. the README's first example ---------------------------------------------------------------------------
game=$("$root/tests/readme/example.sh" "$S" "$work/example" "$copy/README.md") || fail "the README's example"

# ---- 3. stop, and the second run reuses everything ------------------------------------------------------------
token=$(cat "$copy/var/admin-token")
stop_serve
((serve_rc == 0)) || fail "carcd exited with status $serve_rc on SIGTERM"
if curl -fsS "$S/readyz" >/dev/null 2>&1; then fail "carcd still answers after SIGTERM"; fi
say "bash scripts/run.sh again"
start_run "$work/run2.log"
grep -q "the cluster is running: reusing it" "$work/run2.log" || fail "the second run did not reuse the cluster"
! grep -q "made an admin token" "$work/run2.log" || fail "the second run made a new admin token"
[[ $(cat "$copy/var/admin-token") == "$token" ]] || fail "the admin token changed"
view=$(curl -fsS "$S/v1/games/$game" -H "Authorization: Bearer $token") || fail "the game is gone after the second run"
grep -q '"seq":2' <<<"$view" || fail "the game is not at seq 2 after the second run: $view"
say "passed: run.sh built, served, kept its games and token across a restart; the README's example played"
