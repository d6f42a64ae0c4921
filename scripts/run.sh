#!/usr/bin/env bash
# run.sh — builds carcd and runs it. The README's run command.
#
#   deps → build (build/) → start
#
# Until the daemon lands (issue 3), "start" plays one verbose random game with the engine's demo,
# build/carc-sim. Issue 3 replaces only step_start: a private PostgreSQL cluster in var/pg, migrations, then
# carcd in the foreground.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

JOBS=${JOBS:-2}

step_deps() {
    echo "==== dependencies ===="
    scripts/deps.sh
}

step_build() {
    echo "==== build (build/) ===="
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF
    cmake --build build -j"$JOBS"
}

step_start() {
    echo "==== engine demo: one random game ===="
    if [[ ! -f bench/carc-sim.c || ! -x build/carc-sim ]]; then
        echo "nothing to run yet: bench/carc-sim.c is not written, and the daemon arrives with issue 3"
        return 0
    fi
    exec build/carc-sim --games 1 --seed 1 --verbose
}

step_deps
step_build
step_start
