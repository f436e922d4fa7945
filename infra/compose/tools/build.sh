#!/usr/bin/env bash
# Builds, from the Go module proxy, the two tools scripts/check-compose.sh uses when they are
# there: the real docker compose CLI (v2.40.3, run standalone for `config`) and BuildKit's
# Dockerfile front end as a linter (dockerfile-lint/). No Docker engine needed. First run
# downloads and compiles for a few minutes; the binaries are cached:
#   ${MARKETPLACE_CACHE:-~/.cache/marketplace}/ops-tools/{docker-compose,dockerfile-lint}
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${MARKETPLACE_CACHE:-$HOME/.cache/marketplace}/ops-tools
COMPOSE_VERSION=v2.40.3 # keep equal to go.mod
command -v go >/dev/null || { echo "build.sh: Go is required" >&2; exit 1; }
mkdir -p "$OUT"
cd "$HERE"
echo "[ops-tools] building docker compose $COMPOSE_VERSION and dockerfile-lint into $OUT ..."
go build -trimpath -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" \
  -o "$OUT/docker-compose.tmp" github.com/docker/compose/v2/cmd
go build -trimpath -ldflags "-s -w" -o "$OUT/dockerfile-lint.tmp" ./dockerfile-lint
mv "$OUT/docker-compose.tmp" "$OUT/docker-compose"
mv "$OUT/dockerfile-lint.tmp" "$OUT/dockerfile-lint"
"$OUT/docker-compose" version
echo "[ops-tools] done"
