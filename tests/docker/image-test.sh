#!/usr/bin/env bash
# image-test.sh — docker/Dockerfile built and run as docker/README.md says, with the README's first example
# played against the container. test.sh runs this.
#
#   tests/docker/image-test.sh        (CARCD_TEST_DATABASE_URL set: scripts/pg-temp.sh's, test.sh's)
#
# The image is built by podman (Debian's, which builds Dockerfiles and needs no daemon: nothing is left running,
# and no docker service is installed on a developer's machine by the test command), in a storage of its own
# under a temp dir:
#   1. debian:bookworm and debian:bookworm-slim, the Dockerfile's two bases, are made here with debootstrap
#      (minbase) from Debian's mirror, since the registry they come from is not one the test machines reach;
#   2. `podman build -f docker/Dockerfile` of this checkout (its .dockerignore leaves the build dirs out): the
#      builder stage (deps.sh --build, the Release build, the runtime packages found with ldd) and the runtime
#      stage, which must find every library (the Dockerfile fails the build otherwise);
#   3. the image: `--help` lists the settings; `migrate` applies the migrations to the throwaway PostgreSQL
#      (its unix socket mounted into the container); `serve` (the image's default command) runs as an
#      unprivileged user, answers /readyz, and the README's first example (tests/readme/example.sh) is
#      played against it; a stop (SIGTERM) ends it with status 0.
# Runs as root, or through `sudo -n` (podman rootful: the host's network, no user namespaces to set up).
#
# Environment: IMAGE_TEST_PORT (18084: the container's carcd, on the host's network), DEBIAN_MIRROR
# (http://deb.debian.org/debian), SECURITY_MIRROR (http://deb.debian.org/debian-security), IMAGE_TEST_KEEP=1 keeps the temp dir (its path is printed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PORT=${IMAGE_TEST_PORT:-18084}
S=http://127.0.0.1:$PORT
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
IMAGE=localhost/carcd:image-test
NAME=carcd-image-test-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/carcd-image.XXXXXX")

say() { echo "image-test: $*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}

as_root=()
if ((EUID != 0)); then
    sudo -n true 2>/dev/null || fail "needs root, or sudo without a password (podman rootful, debootstrap)"
    as_root=(sudo -n)
fi
# runc rather than crun: crun refuses a host whose cgroups are in hybrid mode (v1 and v2), as this project's
# test machines are. Limits below the host's, since raising one needs CAP_SYS_RESOURCE, which a test machine
# may not give (podman's defaults are higher than most hosts').
podman=("${as_root[@]}" podman --root "$work/storage" --runroot "$work/run" --runtime runc)
limits=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)

cleanup() {
    "${podman[@]}" rm -f -t 5 "$NAME" >/dev/null 2>&1 || true
    if [[ ${IMAGE_TEST_KEEP:-0} == 1 ]]; then
        say "kept: $work"
        return
    fi
    # this storage's containers and images (not `podman system reset`, which would also remove the host's own
    # podman networks), then any mount still under the folder, then the folder
    "${podman[@]}" rm -af -t 5 >/dev/null 2>&1 || true
    "${podman[@]}" rmi -af >/dev/null 2>&1 || true
    awk -v w="$work" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r |
        while read -r m; do "${as_root[@]}" umount "$m" || true; done
    "${as_root[@]}" rm -rf "$work"
}
trap cleanup EXIT

[[ -n ${CARCD_TEST_DATABASE_URL:-} ]] || fail "CARCD_TEST_DATABASE_URL is not set (scripts/pg-temp.sh starts one)"
for tool in podman runc debootstrap curl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/deps.sh installs it)"
done

# ---- 1. the base images ---------------------------------------------------------------------------------
say "debian:bookworm from $MIRROR (debootstrap, minbase)"
"${as_root[@]}" debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
"${as_root[@]}" rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
# the suites Docker Hub's debian:bookworm reads, in its deb822 file: bookworm's updates and security fixes too
"${as_root[@]}" rm -f "$work/rootfs/etc/apt/sources.list"
"${as_root[@]}" tee "$work/rootfs/etc/apt/sources.list.d/debian.sources" >/dev/null <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${SECURITY_MIRROR:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
"${as_root[@]}" tar -C "$work/rootfs" -c . | "${podman[@]}" import - docker.io/library/debian:bookworm >/dev/null
"${podman[@]}" tag docker.io/library/debian:bookworm docker.io/library/debian:bookworm-slim
"${as_root[@]}" rm -rf "$work/rootfs"

# ---- 2. the image ---------------------------------------------------------------------------------------
say "podman build -f docker/Dockerfile (the builder's apt-get and Release build: minutes)"
"${podman[@]}" build --network host "${limits[@]}" -f "$root/docker/Dockerfile" -t "$IMAGE" "$root" \
    >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; fail "the image did not build"; }

# ---- 3. the image run -------------------------------------------------------------------------------------
run=("${podman[@]}" run "${limits[@]}" --network host)
pkgs=$("${run[@]}" --rm --entrypoint cat "$IMAGE" /opt/carcd/runtime-packages.txt) || fail "no runtime-packages.txt"
say "the runtime stage's packages (derived with ldd): $(tr '\n' ' ' <<<"$pkgs")"
help=$("${run[@]}" --rm "$IMAGE" --help 2>&1) || fail "--help failed: $help"
grep -q CARCD_DATABASE_URL <<<"$help" || fail "--help lists no CARCD_DATABASE_URL: $help"

# the throwaway PostgreSQL listens on a unix socket only: its directory, mounted at the same path
sock=$(sed -n 's/.*[?&]host=\([^&]*\).*/\1/p' <<<"$CARCD_TEST_DATABASE_URL")
[[ -d $sock ]] || fail "no socket directory in CARCD_TEST_DATABASE_URL ($CARCD_TEST_DATABASE_URL)"
db=(-v "$sock:$sock" -e "CARCD_DATABASE_URL=$CARCD_TEST_DATABASE_URL")
"${run[@]}" --rm "${db[@]}" "$IMAGE" migrate >"$work/migrate.log" 2>&1 ||
    { cat "$work/migrate.log" >&2; fail "migrate in the image failed"; }

say "serve (the image's default command) on $S"
admin=image-admin-$RANDOM$RANDOM
"${run[@]}" -d --name "$NAME" "${db[@]}" -e "CARCD_LISTEN=127.0.0.1:$PORT" -e "CARCD_ADMIN_TOKEN=$admin" "$IMAGE" \
    >/dev/null || fail "the container did not start"
for _ in $(seq 150); do
    curl -fsS "$S/readyz" >/dev/null 2>&1 && break
    [[ $("${podman[@]}" inspect -f '{{.State.Running}}' "$NAME") == true ]] ||
        { "${podman[@]}" logs "$NAME" >&2; fail "carcd in the container exited before it was ready"; }
    sleep 0.2
done
curl -fsS "$S/readyz" >/dev/null || { "${podman[@]}" logs "$NAME" >&2; fail "carcd in the container is not ready"; }
uid=$("${podman[@]}" top "$NAME" huser | sed -n 2p | tr -d ' ')
[[ -n $uid && $uid != root && $uid != 0 ]] || fail "carcd runs as '$uid' in the container, not as an unprivileged user"

game=$("$root/tests/readme/example.sh" "$S" "$work/example" "$root/README.md") || fail "the README's example"
view=$(curl -fsS "$S/v1/games/$game" -H "Authorization: Bearer $admin") || fail "the admin cannot read the game"
grep -q '"seq":2' <<<"$view" || fail "the example's game is not at seq 2: $view"
# the PNG board: cairo in the runtime stage, with a font (fontconfig's dependency: not a library, so not in ldd's list)
curl -fsS -o "$work/board.png" "$S/v1/games/$game/board.png" || fail "board.png did not load"
[[ $(head -c 8 "$work/board.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "board.png is not a PNG"
"${podman[@]}" exec "$NAME" sh -c 'ls /usr/share/fonts/truetype/*/*.ttf' >/dev/null 2>&1 ||
    fail "the image has no TrueType font for the board's text"

"${podman[@]}" stop -t 10 "$NAME" >/dev/null
status=$("${podman[@]}" inspect -f '{{.State.ExitCode}}' "$NAME")
[[ $status == 0 ]] || { "${podman[@]}" logs "$NAME" | tail -n 20 >&2; fail "carcd ended with status $status on stop"; }
say "passed: the image built from bookworm, migrated, served the README's example as uid $uid, and stopped cleanly"
