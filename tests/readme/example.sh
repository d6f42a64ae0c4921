#!/usr/bin/env bash
# example.sh — the README's first example ("With carcd running ... in a second shell"), run as it stands against
# a carcd at URL, only its S= address changed, and what each step answers checked. The README's run command
# (run-command.sh) and the Docker image (tests/docker/image-test.sh) are both checked with it.
#
#   tests/readme/example.sh URL DIR README
#
# Runs the example in DIR (its files, game.json and board.svg, are written there; its output is DIR/out) and
# prints the id of the game it played, which is then at seq 2.
set -euo pipefail

S=$1
dir=$2
readme=$3
fail() {
    echo "readme-example: FAILED: $*" >&2
    exit 1
}

# the block after "With carcd running", up to its closing fence
example=$(awk '/^With carcd running/ { on = 1 } on && /^```sh$/ { inb = 1; next } inb && /^```$/ { exit } inb { print }' \
    "$readme")
[[ -n $example ]] || fail "README.md has no example after \"With carcd running\""
grep -q '^S=http://127.0.0.1:8080$' <<<"$example" || fail "the README's example does not set S=http://127.0.0.1:8080"
mkdir -p "$dir"
out=$dir/out
(cd "$dir" && sed "s|^S=http://127.0.0.1:8080\$|S=$S|" <<<"$example" | bash -e) >"$out" 2>&1 ||
    { cat "$out" >&2; fail "the README's example failed"; }
game=$(grep -o '"id":"[^"]*"' "$dir/game.json" | cut -d'"' -f4)
[[ -n $game ]] || fail "the example's game.json has no id"
# Ann's legal moves: the seq, then placements; after her placement the figure step's
grep -qx '0' "$out" || fail "no legal moves at seq 0 in the example's output"
grep -qx '1' "$out" || fail "no legal moves at seq 1 in the example's output"
grep -qx 'pass' "$out" || fail "the figure step lists no pass"
grep -q '"seq":1' "$out" || fail "Ann's placement was not applied as seq 1"
grep -q '/problems/' "$out" && grep -q '"legal"' "$out" || fail "\"meeple castle\" was not refused with the legal moves"
grep -q '"seq":2' "$out" || fail "Ann's pass was not applied as seq 2"
grep -q '"notation"' "$out" || fail "the events name no move by its notation"
grep -q '<svg' "$dir/board.svg" || fail "board.svg is not an SVG"
grep -qx "$S/games/$game" "$out" || fail "the example printed no page URL"
page=$(curl -fsS "$S/games/$game") || fail "the game's page does not load"
grep -qi '<html' <<<"$page" || fail "the game's page is not HTML"
echo "$game"
