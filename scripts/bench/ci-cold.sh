#!/usr/bin/env bash
# CI on a cold machine: a fresh clone of this repository, run as CI runs it (`CI=true bash
# .ci/run`) under an empty HOME and with a Docker engine whose image store is empty, so that
# Node.js, pnpm's store, the Go module and build caches, the Maven repository, pip's cache,
# every server binary, tool and container image start from nothing. Run under
# scripts/bench/ci-cpu-profile.mjs, so it prints each phase's wall time and the CPU the whole
# machine spent on it, and the floor those CPU-seconds set on this machine's cores.
#
# What stays: the machine's Debian packages (docker.io, Go, Java, Maven, Chromium), as on any
# machine CI has run on once, and its configuration (environment, ~/.npmrc, Go's env file). The engine of this machine must not be running (the run starts
# its own on the empty store, and stops it at the end).
#
#   bash scripts/bench/ci-cold.sh [out-dir]      # log, profile.json; default /tmp/ci-cold-out
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-/tmp/ci-cold-out}
if timeout 10 docker info >/dev/null 2>&1; then
  echo "a Docker engine is running: stop it first (this run needs an engine on an empty image store)" >&2
  exit 2
fi
mkdir -p "$out"
work=$(mktemp -d /tmp/ci-cold-XXXXXX)
cleanup() {
  chmod -R u+w "$work" 2>/dev/null || true # the Go module cache is read-only
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/home" "$work/docker"
git clone -q "$root" "$work/repo"
cd "$work/repo"
echo "CI of $(git rev-parse --short HEAD) on a cold machine: HOME=$work/home, images in $work/docker; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# The profiler needs any Node.js; the run itself fetches its own Node.js 24 into the empty
# cache, so the cache's Node.js and pnpm are taken off PATH. The rest of the environment
# stays (the machine's CA bundle settings, pip's options), and so do the few files of
# configuration, not cache, the home holds: npm's, git's and Go's settings.
node=$(command -v node || echo /usr/bin/node)
clean_path=$(tr ':' '\n' <<<"$PATH" | grep -v '/\.cache/marketplace/' | paste -sd:)
for file in .npmrc .gitconfig .config/go/env; do
  if [[ -f $HOME/$file ]]; then
    mkdir -p "$(dirname "$work/home/$file")"
    cp "$HOME/$file" "$work/home/$file"
  fi
done
status=0
HOME="$work/home" PATH=$clean_path CI=true MARKETPLACE_DOCKER_DATA_ROOT="$work/docker" \
  "$node" scripts/bench/ci-cpu-profile.mjs --log "$out/ci.log" --json "$out/profile.json" || status=$?
echo "status $status; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
