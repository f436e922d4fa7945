#!/usr/bin/env bash
# Static validation of the container and cluster files, for machines without a Docker engine
# (ours) as well as with one: docker-compose.yml, services/*/Dockerfile, .dockerignore and
# infra/k8s. Runs nothing in a container. Exits non-zero on any problem and says what it
# checked. Usage, from anywhere:  bash scripts/check-compose.sh
#
#   1. `docker compose config -q` when the compose plugin is installed, or else the same
#      docker compose release built from the Go module proxy by infra/compose/tools/build.sh
#      if it is in the cache (skipped otherwise).
#   2. BuildKit's own Dockerfile front end and lint rules (`docker build --check` without an
#      engine) on services/*/Dockerfile, if build.sh's dockerfile-lint is in the cache.
#   3. infra/compose/check_ops.py: docker-compose.yml against the compose-spec JSON schema
#      (vendored from the npm package dclint, infra/compose/README.md), then cross-checks of
#      compose, Dockerfiles, .dockerignore and the Kubernetes manifests (names, ports, paths,
#      ConfigMap/Secret keys, probes, resources) and the project's conventions.
#   4. `kubectl kustomize infra/k8s` (offline render) when kubectl or kustomize is installed.
#   5. The rendered manifests against Kubernetes' own OpenAPI-derived schemas when the
#      Python package kubernetes-validate is importable (installed, or in the tools cache).
# CHECK_COMPOSE_BUILD_TOOLS=1 first fills the tools cache for steps 1, 2 and 5: it runs
# infra/compose/tools/build.sh (a few minutes, once) and pip-installs kubernetes-validate.
# docs/compose-and-kubernetes.md says what each step proves and what none of them can.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

say() { printf '[check-compose] %s\n' "$*"; }
failed=()
skipped=()

# ---- Python with PyYAML and jsonschema (this machine's image has both) ----
command -v python3 >/dev/null || { say "FAIL python3 is required"; exit 1; }
if ! python3 -c 'import yaml, jsonschema' 2>/dev/null; then
  deps="${XDG_CACHE_HOME:-$HOME/.cache}/marketplace/check-compose-python"
  if ! PYTHONPATH="$deps" python3 -c 'import yaml, jsonschema' 2>/dev/null; then
    say "installing PyYAML and jsonschema into $deps (PyPI)..."
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target "$deps" \
      'PyYAML==6.0.3' 'jsonschema==4.26.0' || { say "FAIL could not install PyYAML and jsonschema"; exit 1; }
  fi
  export PYTHONPATH="$deps${PYTHONPATH:+:$PYTHONPATH}"
fi

TOOLS=${MARKETPLACE_CACHE:-$HOME/.cache/marketplace}/ops-tools
if [[ ${CHECK_COMPOSE_BUILD_TOOLS:-} == 1 ]]; then
  bash infra/compose/tools/build.sh || failed+=("infra/compose/tools/build.sh")
  say "installing kubernetes-validate into $TOOLS/python (PyPI)..."
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade --target "$TOOLS/python" \
    'kubernetes-validate==1.37.0' || failed+=("pip install kubernetes-validate")
fi
if [[ -d $TOOLS/python ]]; then export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$TOOLS/python"; fi

# ---- 1. docker compose itself ----
compose=()
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif [[ -x $TOOLS/docker-compose ]]; then
  compose=("$TOOLS/docker-compose")
fi
if ((${#compose[@]})); then
  say "${compose[*]} config -q ($("${compose[@]}" version --short 2>/dev/null || echo '?'))"
  if "${compose[@]}" -f docker-compose.yml config -q; then
    say "  ok  docker compose accepts docker-compose.yml"
  else
    failed+=("docker compose config")
  fi
else
  skipped+=("docker compose config (no compose plugin; infra/compose/tools/build.sh builds one)")
  say "docker compose is not available: skipping 'docker compose config'"
fi

# ---- 2. BuildKit's Dockerfile front end ----
if [[ -x $TOOLS/dockerfile-lint ]]; then
  say "BuildKit Dockerfile front end and lint rules ($TOOLS/dockerfile-lint)"
  "$TOOLS/dockerfile-lint" services/*/Dockerfile || failed+=("dockerfile-lint")
else
  skipped+=("BuildKit Dockerfile lint (infra/compose/tools/build.sh builds it)")
  say "dockerfile-lint is not built: skipping BuildKit's Dockerfile checks"
fi

# ---- 3. schema and cross-checks ----
say "schema and cross-checks (infra/compose/check_ops.py)"
python3 infra/compose/check_ops.py "$ROOT" || failed+=("schema and cross-checks")

# ---- 4. kustomize render (offline) ----
rendered=$(mktemp "${TMPDIR:-/tmp}/marketplace-k8s.XXXXXX.yaml")
trap 'rm -f "$rendered"' EXIT
render=""
if command -v kubectl >/dev/null; then
  render="kubectl kustomize infra/k8s"
elif command -v kustomize >/dev/null; then
  render="kustomize build infra/k8s"
fi
if [[ -n $render ]]; then
  say "$render"
  if $render >"$rendered"; then
    say "  ok  kustomize renders $(grep -c '^kind:' "$rendered") objects"
  else
    failed+=("$render")
    : >"$rendered"
  fi
else
  skipped+=("kustomize render (neither kubectl nor kustomize installed)")
  say "neither kubectl nor kustomize is installed: skipping the render"
fi

# ---- 5. Kubernetes schemas ----
K8S_VERSION=${K8S_VERSION:-1.33.0}
if python3 -c 'import kubernetes_validate' 2>/dev/null; then
  targets=()
  if [[ -s $rendered ]]; then targets+=("$rendered"); else
    while IFS= read -r file; do targets+=("$file"); done < <(grep -lE '^kind:' infra/k8s/*.yaml | grep -v kustomization.yaml)
  fi
  targets+=(infra/k8s/secrets.example.yaml)
  say "kubernetes-validate --strict against Kubernetes $K8S_VERSION"
  if python3 -m kubernetes_validate --strict --quiet -k "$K8S_VERSION" "${targets[@]}"; then
    say "  ok  every object matches the Kubernetes $K8S_VERSION schemas (strict: no unknown fields)"
  else
    failed+=("kubernetes-validate")
  fi
else
  skipped+=("Kubernetes schemas (CHECK_COMPOSE_BUILD_TOOLS=1 installs kubernetes-validate)")
  say "kubernetes-validate is not installed: skipping the Kubernetes schema check"
fi

for item in "${skipped[@]}"; do say "skipped: $item"; done
if ((${#failed[@]})); then
  for item in "${failed[@]}"; do say "FAILED: $item"; done
  exit 1
fi
say "all checks passed"
