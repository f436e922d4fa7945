#!/usr/bin/env bash
# Before and after in one invocation: the conversations live benchmark four times, in the
# order before, after, after, before, so that the shared machine's load drifting over the
# minutes weighs on both alike. "Before" runs the built services of another checkout (e.g. a
# worktree of main: `git worktree add --detach /tmp/before main`, then `pnpm install` and
# `pnpm turbo run build --filter=@marketplace/conversations... --filter=@marketplace/notifications...
# --filter=@marketplace/gateway...` in it) against this checkout's servers; "after" runs this
# checkout's. Each run prints its own table; the load average is printed before and after.
#
#   bash scripts/bench/conversations-live-compare.sh <before-checkout> [--rate 50 --duration 60 ...]
set -euo pipefail
before="${1:?usage: conversations-live-compare.sh <before-checkout> [benchmark options]}"
shift
cd "$(dirname "$0")/../.."
for which in before after after before; do
  echo "=== ${which} starts $(date -u +%T) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ "$which" = before ]; then
    node scripts/bench/conversations-live.mjs --services-from "$before" "$@"
  else
    node scripts/bench/conversations-live.mjs "$@"
  fi
  echo "=== ${which} ends $(date -u +%T) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"
done
