#!/usr/bin/env bash
# Stops what scripts/start.sh started: the services (by their pid files), then infra/local.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

shopt -s nullglob
for pidfile in "$DATA"/pids/svc-*.pid; do
  name=$(basename "$pidfile" .pid) pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
    say "${name#svc-} stopped"
  fi
  rm -f "$pidfile"
done
bash "$INFRA" down
