#!/usr/bin/env bash
# Static checks of the container and cluster files for a machine without a Docker engine
# (ours): docker-compose.yml, Dockerfile, .dockerignore and infra/k8s. Runs in seconds,
# prints what it checks and exits non-zero on a problem. Usage, from anywhere:
#   bash scripts/check-compose.sh
# 1. The checks' own tests: each breaks one thing in a copy of the files and expects the
#    check meant for it to fail (infra/compose/test_check_ops.py).
# 2. infra/compose/check_ops.py: compose against the Compose Specification schema, the
#    references compose and Kubernetes make (kustomize renders infra/k8s/base and each overlay
#    when kubectl or kustomize is installed, else infra/compose/checks/kustomize.py), each
#    image's build inputs and Node version, and infra/k8s beyond one machine: every workload's
#    autoscaler, disruption budget, resources, probes and spread, and the engines' topics,
#    Kafka users and MongoDB users against the code.
# docs/compose-and-kubernetes.md says what each check catches, and what only a machine with
# Docker (or a cluster) can verify.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PYTHONDONTWRITEBYTECODE=1

say() { printf '[check-compose] %s\n' "$*"; }

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

status=0
say "the checks' own tests (each breaks one thing and expects its check to fail)"
python3 -m unittest discover --start-directory infra/compose --pattern 'test_*.py' 2>&1 || status=1
say "infra/k8s NetworkPolicies: every egress names its peers (infra/k8s/test_network_policies.py)"
python3 -m unittest discover --start-directory infra/k8s --pattern 'test_*.py' 2>&1 || status=1
say "compose, Dockerfile, .dockerignore and infra/k8s (infra/compose/check_ops.py)"
python3 infra/compose/check_ops.py "$ROOT" || status=1
if ((status)); then say "FAILED"; else say "all checks passed"; fi
exit "$status"
