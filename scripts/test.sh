#!/usr/bin/env bash
# Runs every test of the repository against real servers: lint, type checks, unit and
# integration tests per package, then the system tests across processes, then the
# compose/k8s checks. Starts infra/local if it is not running, and stops it again after.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$ROOT"

install_dependencies
ensure_chromium
export CHROMIUM_PATH=$CHROMIUM
# Schemathesis installs (PyPI, on a cold machine) while the lint and unit tests run; the
# system tests wait for it.
ensure_schemathesis &
fuzzer_install=$!
started_infra=0
if ! infra_running; then
  say "starting the local servers (infra/local)..."
  bash "$INFRA" up
  started_infra=1
fi
cleanup() { [[ $started_infra == 1 ]] && bash "$INFRA" down || true; }
trap cleanup EXIT
load_infra_env

export TEST_SUMMARY_DIR="$DATA/test-summary"
rm -rf "$TEST_SUMMARY_DIR"
# Every package suite records the shape of each query its services send (issue 19 §2);
# scripts/check-query-shapes.mjs then fails on one no declared index serves.
export QUERY_SHAPES_DIR="$DATA/query-shapes"
rm -rf "$QUERY_SHAPES_DIR"
status=0
say "lint and type checks..."
pnpm turbo run lint typecheck --concurrency=2 --continue --output-logs=errors-only || status=1
# One package at a time: the integration suites share one broker and two cores, and a
# starved consumer group join is the usual cause of a slow, flaky run.
say "unit and integration tests..."
pnpm turbo run test --filter='!@marketplace/system-tests' --concurrency=1 --continue --output-logs=errors-only || status=1
say "every query the services sent is served by _id or a declared index..."
node scripts/check-query-shapes.mjs "$QUERY_SHAPES_DIR" || status=1
wait "$fuzzer_install" || status=1
ensure_schemathesis # installed by now: sets SCHEMATHESIS_BIN here
say "system tests (services as separate processes; stops and restarts Kafka)..."
pnpm turbo run test --filter=@marketplace/system-tests --output-logs=full || status=1
say "the local mail sink (node --test)..."
node --test "infra/local/node/*.test.js" || status=1
say "the local MongoDB-protocol server's write serializer (go test)..."
(cd infra/local/ferretdb-sqlite && GOFLAGS=-mod=mod go test ./...) || status=1
if [[ -f scripts/check-compose.sh ]]; then
  say "compose and Kubernetes files..."
  bash scripts/check-compose.sh || status=1
fi

node -e '
  const fs = require("fs"), dir = process.argv[1]
  const rows = fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"))) : []
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0)
  for (const r of rows.sort((a, b) => a.package.localeCompare(b.package)))
    console.log(`  ${r.package.padEnd(32)} ${String(r.passed).padStart(4)} passed  ${r.failed} failed  ${r.skipped} skipped`)
  console.log(`Tests: ${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`)
  if (rows.length === 0 || sum("failed") > 0) process.exit(1)
' "$TEST_SUMMARY_DIR" || status=1
exit $status
