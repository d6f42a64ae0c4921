#!/usr/bin/env bash
# test.sh — builds carcd and runs every test. The README's test command; .ci/run calls it.
#
#   deps → throwaway PostgreSQL → throwaway mail servers (tests/support/mail-temp.sh) → axe-core (npm, pinned, under
#   build/: e2e_a11y's accessibility engine) → normal build (build/) + ctest
#   → sanitizer build (build-asan/, ASan+UBSan) + ctest
#   → Release build (build-release/: the Docker image's and the benches' flags, whose -O3 inlining finds
#     warnings, and so -Werror failures, that -O2 does not)
#   → fuzz build (build-fuzz/, clang + libFuzzer) + a short run of every tests/fuzz/fuzz_*.c
#   → a short bench/carc-sim run, if it is built
#   → the README's run command, scripts/run.sh, twice in a copy of the checkout, with the README's first example
#     played against it (tests/readme/run-command.sh: its own PostgreSQL in the copy's var/pg)
#   → the Docker image: docker/Dockerfile built with podman from Debian base images made here, migrated, served
#     and the README's first example played against it (tests/docker/image-test.sh)
#   → redocly lint and spectral lint of api-docs/openapi.json (npm, pinned versions, installed under build/)
#
# The throwaway PostgreSQL (scripts/pg-temp.sh) runs for the whole script; tests find it through
# CARCD_TEST_DATABASE_URL; the mail servers too, the e2e mail tests find them through CARCD_TEST_SMTP_URL,
# CARCD_TEST_IMAP_URL and CARCD_TEST_MAIL_DIR. Failing tests don't stop later sections; a failed build or set-up
# does. The last line is `N passed, N failed` (ctest results of both builds, plus each fuzz target, each bench
# run, the run command and each linter as one test; a failed build or set-up step counts as one failure), and the exit status is
# non-zero if anything failed.
#
# Environment: FUZZ_SECONDS (default 15) per fuzz target; JOBS (default 2); OPENAPI_LINT_DIR (default
# build/openapi-lint) where npm installs the linters; A11Y_DIR (default build/a11y) where it installs axe-core,
# whose axe.min.js e2e_a11y finds through CARCD_TEST_AXE_JS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
source scripts/pg-temp.sh
source tests/support/mail-temp.sh

JOBS=${JOBS:-2}
FUZZ_SECONDS=${FUZZ_SECONDS:-15}
# Any sanitizer report is fatal: the process aborts, so ctest / Check / libFuzzer see a failure.
ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
export ASAN_OPTIONS="$ASAN_OPTIONS:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"

passed=0
failed=0
timings=()
section_name=""
section_start=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/carcd-test.XXXXXX")

# ---- helpers -----------------------------------------------------------------------------------------------
section() {
    section_end
    section_name=$1
    section_start=$SECONDS
    printf '\n==== %s ====\n' "$1"
}

section_end() {
    if [[ -n $section_name ]]; then
        timings+=("$(printf '%-34s %5ds' "$section_name" $((SECONDS - section_start)))")
        section_name=""
    fi
}

finish() {
    local rc=$?
    set +e
    if [[ -n $section_name && $rc -ne 0 ]]; then
        echo "test.sh: '$section_name' failed (exit $rc)" >&2
        failed=$((failed + 1))
    fi
    section_end
    pg_temp_stop
    mail_temp_stop
    rm -rf "$tmp"
    ((failed == 0)) || rc=1
    printf '\n==== summary ====\n'
    printf '%s\n' "${timings[@]}"
    echo "$passed passed, $failed failed"
    exit "$rc"
}
trap finish EXIT

configure_build() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
    cmake --build "$dir" -j"$JOBS"
}

# Everything, as docker/Dockerfile builds it (and bench/*.sh their targets), with its log shown only on failure.
cmake_release_build() {
    local log=$tmp/release-build.log
    if cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF >"$log" 2>&1 &&
        cmake --build build-release -j"$JOBS" >>"$log" 2>&1; then
        return 0
    fi
    tail -n 40 "$log"
    return 1
}

# Runs ctest in build dir $1 and adds its results to the counts.
run_ctest() {
    local dir=$1 log=$tmp/ctest-$1.log rc=0 total nfail
    ctest --test-dir "$dir" --output-on-failure --timeout 600 -j"$JOBS" 2>&1 | tee "$log" || rc=$?
    # ctest ends with "100% tests passed, 0 tests failed out of 7", or "No tests were found!!!".
    local summary='s/.* tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p'
    if read -r nfail total < <(sed -nE "$summary" "$log"); then
        passed=$((passed + total - nfail))
        failed=$((failed + nfail))
    elif ((rc != 0)); then
        failed=$((failed + 1))
    fi
    ((rc == 0)) || echo "test.sh: ctest in $dir failed"
}

# Runs a command as one test named $1 and counts it.
run_one() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "test.sh: $name passed"
    else
        failed=$((failed + 1))
        echo "test.sh: $name FAILED"
    fi
}

# Runs fuzz target $1 for FUZZ_SECONDS from a copy of tests/fuzz/corpus/$1/ (if any), so runs never write into
# the repo, with tests/fuzz/$1.dict (if any). A crashing input is kept in build-fuzz/fuzz-artifacts/$1/.
fuzz_one() {
    local name=$1 corpus=$tmp/corpus/$1 artifacts=$root/build-fuzz/fuzz-artifacts/$1 log=$tmp/fuzz-$1.log rc=0
    local extra=()
    mkdir -p "$corpus" "$artifacts"
    if [[ -d tests/fuzz/corpus/$name ]]; then cp -R "tests/fuzz/corpus/$name/." "$corpus/"; fi
    if [[ -f tests/fuzz/$name.dict ]]; then extra+=("-dict=tests/fuzz/$name.dict"); fi
    echo "-- $name: $(find "$corpus" -type f | wc -l) seed inputs"
    build-fuzz/"$name" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "${extra[@]}" "$corpus" >"$log" 2>&1 || rc=$?
    if ((rc != 0)); then
        cat "$log"
    else
        grep -E '^(Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb))' "$log" ||
            tail -n 5 "$log"
    fi
    return "$rc"
}

# The OpenAPI linters from npm, at pinned versions, in their own folder (npm install --prefix, no
# package.json written anywhere). Installed once; installed again when a pinned version changes.
REDOCLY_VERSION=2.77.0
SPECTRAL_VERSION=6.16.3
OPENAPI_LINT_DIR=${OPENAPI_LINT_DIR:-$root/build/openapi-lint}
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

installed_version() {
    node -p "require(process.argv[1]).version" "$OPENAPI_LINT_DIR/node_modules/$1/package.json" 2>/dev/null
}

openapi_linters() {
    if [[ $(installed_version @redocly/cli) == "$REDOCLY_VERSION" &&
        $(installed_version @stoplight/spectral-cli) == "$SPECTRAL_VERSION" ]]; then
        echo "redocly $REDOCLY_VERSION and spectral $SPECTRAL_VERSION are in $OPENAPI_LINT_DIR"
        return 0
    fi
    mkdir -p "$OPENAPI_LINT_DIR"
    npm install --prefix "$OPENAPI_LINT_DIR" --no-save --no-audit --no-fund --no-update-notifier \
        --loglevel=error "@redocly/cli@$REDOCLY_VERSION" "@stoplight/spectral-cli@$SPECTRAL_VERSION"
}

# axe-core for e2e_a11y, the same way: one pinned version in its own folder.
AXE_VERSION=4.10.3
A11Y_DIR=${A11Y_DIR:-$root/build/a11y}

axe_core() {
    if [[ $(node -p "require(process.argv[1]).version" "$A11Y_DIR/node_modules/axe-core/package.json" 2>/dev/null) \
        != "$AXE_VERSION" ]]; then
        mkdir -p "$A11Y_DIR"
        npm install --prefix "$A11Y_DIR" --no-save --no-audit --no-fund --no-update-notifier --loglevel=error \
            "axe-core@$AXE_VERSION"
    fi
    echo "axe-core $AXE_VERSION is in $A11Y_DIR"
}

# ---- the run -----------------------------------------------------------------------------------------------
section "dependencies"
scripts/deps.sh

section "throwaway PostgreSQL"
pg_temp_start
echo "CARCD_TEST_DATABASE_URL=$CARCD_TEST_DATABASE_URL"

section "throwaway mail servers (Postfix, Dovecot)"
mail_temp_start
echo "CARCD_TEST_SMTP_URL=$CARCD_TEST_SMTP_URL CARCD_TEST_IMAP_URL=$CARCD_TEST_IMAP_URL"

section "axe-core (npm, for e2e_a11y)"
if axe_core; then
    export CARCD_TEST_AXE_JS="$A11Y_DIR/node_modules/axe-core/axe.min.js"
else
    echo "test.sh: axe-core could not be installed (npm): e2e_a11y fails in both builds"
fi

section "build (build/)"
configure_build build -DCARC_SANITIZE=OFF -DCARC_FUZZ=OFF
section "ctest (build/)"
run_ctest build

section "sanitizer build (build-asan/)"
configure_build build-asan -DCARC_SANITIZE=ON -DCARC_FUZZ=OFF
section "ctest (build-asan/, ASan+UBSan)"
run_ctest build-asan

section "Release build (build-release/)"
# Built, not tested again: docker/Dockerfile and bench/*.sh build this way, and only a build would fail here.
run_one "Release build" cmake_release_build

section "fuzz build (build-fuzz/, clang)"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_FUZZ=ON
cmake --build build-fuzz -j"$JOBS" --target fuzzers
section "fuzz (${FUZZ_SECONDS}s per target)"
shopt -s nullglob
fuzz_src=(tests/fuzz/fuzz_*.c)
shopt -u nullglob
((${#fuzz_src[@]} > 0)) || echo "no fuzz targets yet (tests/fuzz/fuzz_*.c)"
for src in "${fuzz_src[@]}"; do
    run_one "$(basename "$src" .c)" fuzz_one "$(basename "$src" .c)"
done

section "bench smoke run"
if [[ -f bench/carc-sim.c && -x build/carc-sim ]]; then
    run_one "carc-sim" build/carc-sim --games 200 --seed 1
    run_one "carc-sim (ASan+UBSan)" build-asan/carc-sim --games 20 --seed 1
else
    echo "no carc-sim yet (bench/carc-sim.c)"
fi

section "the README's run command (scripts/run.sh)"
run_one "run.sh and the README's example" tests/readme/run-command.sh

section "the Docker image (docker/Dockerfile, built and run with podman)"
run_one "the Docker image and the README's example" tests/docker/image-test.sh

section "OpenAPI lint (redocly, spectral)"
# 0 errors from either ruleset (recommended, spectral:oas); their warnings are explained in api-docs/README.md
if openapi_linters; then
    run_one "redocly lint" "$OPENAPI_LINT_DIR/node_modules/.bin/redocly" lint --format=stylish --config api-docs/redocly.yaml \
        api-docs/openapi.json
    run_one "spectral lint" "$OPENAPI_LINT_DIR/node_modules/.bin/spectral" lint --ruleset api-docs/.spectral.yaml \
        --fail-severity error api-docs/openapi.json
else
    echo "test.sh: the OpenAPI linters could not be installed (npm)"
    failed=$((failed + 2))
fi
section_end
