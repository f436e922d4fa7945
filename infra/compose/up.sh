#!/usr/bin/env bash
# The whole product in containers on a machine that reaches package registries but no image
# registry: builds every image here (infra/images/build.sh, cached by its inputs), then
#   docker compose -f docker-compose.yml -f docker-compose.built-here.yml up -d --wait
# Needs the Docker engine (Debian's docker.io; started, and installed, when missing) and a
# .env in the repository root with ADMIN_PASSWORD and MINIO_ROOT_PASSWORD
# (infra/compose/.env.example). Extra arguments go to `docker compose up`.
# Stop it with: docker compose -f docker-compose.yml -f docker-compose.built-here.yml down
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib/common.sh
source "$HERE/../../scripts/lib/common.sh"
# shellcheck source=../../scripts/lib/docker.sh
source "$ROOT/scripts/lib/docker.sh"
cd "$ROOT"
[[ -f .env || -n ${ADMIN_PASSWORD:-} ]] ||
  die "no .env: copy infra/compose/.env.example to .env and set ADMIN_PASSWORD and MINIO_ROOT_PASSWORD"
ensure_docker
ensure_compose
bash infra/images/build.sh all
docker compose -f docker-compose.yml -f docker-compose.built-here.yml up -d --wait "$@"
say "the marketplace runs: http://localhost:8080 (e-mails: http://localhost:8025)"
