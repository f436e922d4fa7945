#!/usr/bin/env bash
# The first start on a machine without caches: a fresh clone of this repository, started with
# `bash scripts/start.sh` under an empty HOME (so Node.js, pnpm's store, the Go module and build
# caches and the Maven repository all start empty), timed, then a second start (the caches
# now full), then both stopped and the clone and its caches removed.
#
# Besides the wall time it reports the CPU time the first start consumed (user + system of
# every process it waited for: the installs and the builds, not the servers and services it
# leaves running) and that CPU time divided by the cores: no order of the steps can finish the
# same work sooner than that on this machine. The Go toolchain, Java and Maven are the
# machine's (Debian packages / /usr/local/go), as on any machine start.sh runs on.
#
#   bash scripts/bench/first-start.sh            # MARKETPLACE_PORT_OFFSET defaults to 900
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
offset=${MARKETPLACE_PORT_OFFSET:-900}
work=$(mktemp -d /tmp/first-start-XXXXXX)
home=$work/home
mkdir -p "$home"
cleanup() {
  (cd "$work/repo" 2>/dev/null && HOME=$home MARKETPLACE_PORT_OFFSET=$offset bash scripts/stop.sh >/dev/null 2>&1) || true
  chmod -R u+w "$work" 2>/dev/null || true # the Go module cache is read-only
  rm -rf "$work"
}
trap cleanup EXIT
git clone -q "$root" "$work/repo"
cd "$work/repo"
cores=$(nproc)

# One start, timed: wall seconds, then user and system CPU seconds of everything it waited for.
timed_start() { # label
  local label=$1 load_before
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  HOME=$home MARKETPLACE_PORT_OFFSET=$offset /usr/bin/time -f '%e %U %S' -o "$work/$label.time" \
    bash scripts/start.sh >"$work/$label.log" 2>&1 || { tail -30 "$work/$label.log"; exit 1; }
  read -r wall user system <"$work/$label.time"
  printf '%s start: %.0f s wall, %.0f s CPU (user %.0f + system %.0f), floor on %d cores %.0f s; load average %s before, %s after\n' \
    "$label" "$wall" "$(echo "$user + $system" | bc)" "$user" "$system" "$cores" \
    "$(echo "($user + $system) / $cores" | bc -l)" "$load_before" "$(cut -d' ' -f1 /proc/loadavg)"
  # start.sh's own step times (each line says how far into the start it was written).
  grep -E 'ready in|done in|services up in' "$work/$label.log" | sed 's/\x1b\[[0-9;]*m//g; s/^/    /'
}

echo "first start of $(git rev-parse --short HEAD), caches empty ($home), $cores cores"
timed_start first
HOME=$home MARKETPLACE_PORT_OFFSET=$offset bash scripts/stop.sh >/dev/null 2>&1
timed_start later
