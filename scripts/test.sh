#!/usr/bin/env bash
# Runs every test of the repository against real servers: lint, type checks, unit and
# integration tests per package, then the system tests across processes, then the
# compose/k8s checks. Starts infra/local if it is not running, and stops it again after.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/docker.sh"
source "$ROOT/scripts/lib/lane-broker.sh"
cd "$ROOT"
docker_client

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
cleanup() {
  stop_lane_broker
  [[ $started_infra == 1 ]] && bash "$INFRA" down || true
}
trap cleanup EXIT
load_infra_env

export TEST_SUMMARY_DIR="$DATA/test-summary"
rm -rf "$TEST_SUMMARY_DIR"
# Every package suite records the shape of each query its services send;
# scripts/check-query-shapes.mjs then fails on one no declared index serves.
export QUERY_SHAPES_DIR="$DATA/query-shapes"
rm -rf "$QUERY_SHAPES_DIR"
status=0
LOGS=$DATA/test-logs
rm -rf "$LOGS" && mkdir -p "$LOGS"

# The images the system tests' own servers run on (testcontainers: Kafka, FerretDB) and the
# compose journey starts: built from package registries while the suites below run, so a cold
# machine's builds (a Debian root file system, Kafka on a JRE: minutes) are not spent inside a
# test's start-up timeout. Cached by a hash of their inputs: seconds when nothing changed.
bash infra/images/build.sh servers >"$LOGS/images.log" 2>&1 &
images_build=$!
# The trace viewer the tracing system test starts (Jaeger from the Go module proxy: about 10
# minutes cold, inside that test's start-up timeout otherwise); cached, seconds after.
bash "$INFRA" install-tracing >"$LOGS/tracing-install.log" 2>&1 &
tracing_install=$!

# The local MongoDB-protocol server's write serializer (go test): compiling FerretDB's packages
# takes minutes on a cold machine and needs no server, so it runs beside everything else.
(cd infra/local/ferretdb-sqlite && GOFLAGS=-mod=mod go test ./...) >"$LOGS/go-test.log" 2>&1 &
go_test=$!

say "building every package (turbo)..."
pnpm turbo run build --output-logs=errors-only || status=1

# What needs no server (lint, type checks, the web app's and the contracts' suites) is CPU
# work; the integration suites mostly wait on the servers. They run side by side, each
# turbo run with --only (the builds above are done: two runs never build the same package).
NO_SERVER_SUITES=(--filter=@marketplace/web --filter=@marketplace/contracts --filter=@marketplace/read-models)
say "lint, type checks and the suites that need no server, in the background (log: $LOGS/no-server.log)..."
(
  code=0
  pnpm turbo run lint typecheck --only --concurrency=2 --continue --output-logs=errors-only || code=1
  pnpm turbo run test --only "${NO_SERVER_SUITES[@]}" --concurrency=1 --continue --output-logs=errors-only || code=1
  exit $code
) >"$LOGS/no-server.log" 2>&1 &
no_server=$!
# The integration suites in two lanes, each one package at a time. They mostly wait on the
# servers (the machine is about a quarter busy while they run: docs/benchmarks.md, "CI"), so
# two lanes halve the wait. The first starts now, beside the CPU-bound work above, on the
# shared broker; the second once that work is done, on a broker of its own
# (scripts/lib/lane-broker.sh: suites count the events of the topics they consume, and must
# not see the other lane's). A lane's packages never run beside each other: service-kit's and
# the gateway's suites both switch the kernel's port handover (net.ipv4.tcp_migrate_req), so
# they share the second lane.
SECOND_LANE=(--filter=@marketplace/gateway --filter=@marketplace/service-kit
  --filter=@marketplace/conversations --filter=@marketplace/reports --filter=@marketplace/request-lifecycle)
say "integration tests, in two lanes of one package at a time (the second's log: $LOGS/integration-second-lane.log)..."
pnpm turbo run test --only --filter='!@marketplace/system-tests' "${NO_SERVER_SUITES[@]/--filter=/--filter=!}" \
  "${SECOND_LANE[@]/--filter=/--filter=!}" --concurrency=1 --continue --output-logs=errors-only &
first_lane=$!
no_server_status=0
wait "$no_server" || no_server_status=1
say "lint, type checks and the suites that need no server: $([[ $no_server_status == 0 ]] && echo passed || echo FAILED)"
cat "$LOGS/no-server.log"
[[ $no_server_status == 0 ]] || status=1
second_lane() {
  pnpm turbo run test --only "${SECOND_LANE[@]}" --concurrency=1 --continue --output-logs=errors-only \
    >"$LOGS/integration-second-lane.log" 2>&1 || { cat "$LOGS/integration-second-lane.log"; status=1; }
}
say "the servers' container images, for the second lane's broker (log: $LOGS/images.log)..."
images_status=0
wait "$images_build" || images_status=$?
if [[ $images_status == 0 ]] && start_lane_broker; then
  KAFKA_BROKERS=$LANE_BROKERS second_lane
  stop_lane_broker
  wait "$first_lane" || status=1
else
  # No broker of its own: after the first lane, on the shared broker.
  say "no broker for the second lane: it runs after the first, on the shared broker"
  wait "$first_lane" || status=1
  second_lane
fi
say "integration tests: done"
say "every query the services sent is served by _id or a declared index..."
node scripts/check-query-shapes.mjs "$QUERY_SHAPES_DIR" || status=1
wait "$fuzzer_install" || status=1
ensure_schemathesis # installed by now: sets SCHEMATHESIS_BIN here
# The system tests start whole stacks as separate processes (tests/system/jest.config.js):
# the two heaviest, most timing-bound files run alone, then the others two at a time (most
# of their time is spent waiting: on token lifetimes, outages, the browser).
system_tests() {
  (cd tests/system && SYSTEM_TESTS=$1 TEST_SUMMARY_PART=$1 pnpm exec jest "${@:2}")
}
[[ $images_status == 0 ]] || { tail -30 "$LOGS/images.log"; say "building the servers' images FAILED"; status=1; }
wait "$tracing_install" || { tail -30 "$LOGS/tracing-install.log"; say "building the trace viewer FAILED"; status=1; }
say "the two heaviest system tests (bursts and broker outages), one at a time..."
system_tests exclusive || status=1
say "the other system tests (services as separate processes), two files at a time..."
system_tests shared || status=1
say "the local MongoDB-protocol server's write serializer (go test, run in the background)..."
wait "$go_test" || status=1
cat "$LOGS/go-test.log"
if [[ -f scripts/check-compose.sh ]]; then
  say "compose and Kubernetes files..."
  bash scripts/check-compose.sh || status=1
fi

# Last, on its own: the product as operators run it, in containers (docker compose up from
# nothing, the journey, a killed container, down -v); starts the Docker engine if needed.
say "the compose journey (tests/compose/run.sh: images built here, docker compose)..."
bash tests/compose/run.sh || status=1

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
