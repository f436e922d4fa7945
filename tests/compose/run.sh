#!/usr/bin/env bash
# The compose journey: the whole product as operators run it, from nothing.
#   bash tests/compose/run.sh
# 1. the Docker engine (started, and installed from Debian's packages, when missing) and
#    Docker Compose v2; 2. the images, built here from package registries (cached by their
#    inputs); 3. journey.test.mjs: docker compose up, the journey, a killed container,
#    down and up again, docker compose down -v. Fails loudly when any step cannot run.
# Ports: the published ones are 20000 + MARKETPLACE_PORT_OFFSET above the usual 8080, 9000 and
# 8025, so the journey runs beside infra/local's servers of the same offset.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib/common.sh
source "$HERE/../../scripts/lib/common.sh"
# shellcheck source=../../scripts/lib/docker.sh
source "$ROOT/scripts/lib/docker.sh"
cd "$ROOT"
ensure_node
ensure_docker
# An engine this script started is stopped again at the end (one already running is left).
trap stop_docker EXIT
ensure_compose

offset=$((${MARKETPLACE_PORT_OFFSET:-0} + 20000))
export JOURNEY_GATEWAY_PORT=$((8080 + offset)) JOURNEY_S3_PORT=$((9000 + offset)) JOURNEY_MAIL_API_PORT=$((8025 + offset))
# Its own project per port offset: two journeys of different offsets never touch each
# other's containers or volumes (each begins with `down -v` of its project).
export COMPOSE_PROJECT_NAME=marketplace-journey-${MARKETPLACE_PORT_OFFSET:-0}
export COMPOSE_FILE=docker-compose.yml:docker-compose.built-here.yml:tests/compose/ports.yml
# The stack's settings, as an operator's .env gives them (infra/compose/.env.example): fresh
# secrets each run, the public addresses the journey's published ports.
ADMIN_PASSWORD="Adm1n!$(openssl rand -hex 6)"
MINIO_ROOT_PASSWORD=$(openssl rand -hex 16)
export ADMIN_PASSWORD MINIO_ROOT_PASSWORD
export PUBLIC_S3_URL=http://localhost:$JOURNEY_S3_PORT
export APP_ORIGIN=http://localhost:$JOURNEY_GATEWAY_PORT APP_PUBLIC_URL=http://localhost:$JOURNEY_GATEWAY_PORT

started=$SECONDS
bash infra/images/build.sh all
export JOURNEY_IMAGES_SECONDS=$((SECONDS - started))
say "images ready in $JOURNEY_IMAGES_SECONDS s"
# Leftovers of an interrupted run would make this one not "from nothing".
docker compose down -v --remove-orphans >/dev/null 2>&1 || true
status=0
node --test --test-reporter=spec --test-concurrency=1 --test-timeout=1500000 tests/compose/journey.test.mjs |
  tee "$DATA/compose-journey.log" || status=1
# One row for scripts/test.sh's closing summary, from the runner's own counts.
if [[ -n ${TEST_SUMMARY_DIR:-} ]]; then
  count() { sed -n "s/^ℹ $1 \([0-9]*\)$/\1/p" "$DATA/compose-journey.log" | tail -1; }
  passed=$(count pass) failed=$(count fail) skipped=$(count skipped)
  # A run that failed before its tests (images, engine) counts as one failure.
  ((status == 0 || ${failed:-0} > 0)) || failed=1
  mkdir -p "$TEST_SUMMARY_DIR"
  printf '{"package":"compose journey","passed":%d,"failed":%d,"skipped":%d}\n' \
    "${passed:-0}" "${failed:-0}" "${skipped:-0}" >"$TEST_SUMMARY_DIR/compose-journey.json"
fi
exit $status
