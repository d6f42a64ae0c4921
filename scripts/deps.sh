#!/usr/bin/env bash
# deps.sh — installs the Debian packages of scripts/packages.txt that are missing.
#
# A machine that has them all is left alone (no apt at all). Otherwise: apt-get update once, then one
# apt-get install of the missing ones, as root or through sudo.
set -euo pipefail

# deps.sh --build: only what a build needs, the packages above the `@tests` line of packages.txt.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list="$here/packages.txt"

if [[ ${1:-} == --build ]]; then
    mapfile -t wanted < <(sed -e '/^@tests/,$d' -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
else
    mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^@/d' "$list" | grep -v '^$')
fi

missing=()
for pkg in "${wanted[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [[ $status == installed ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
    echo "deps: all ${#wanted[@]} packages present"
    exit 0
fi

echo "deps: installing ${missing[*]}"
if ((EUID == 0)); then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "deps: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
    exit 1
fi
"${as_root[@]}" apt-get update
# Postfix asks how to configure the system's own mail on install: not at all (the tests run their own
# instance from a temp dir, tests/support/mail-temp.sh), so nothing listens on port 25 afterwards
if [[ " ${missing[*]} " == *" postfix "* ]]; then
    echo "postfix postfix/main_mailer_type select No configuration" | "${as_root[@]}" debconf-set-selections
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
