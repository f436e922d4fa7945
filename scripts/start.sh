#!/usr/bin/env bash
# Brings up the whole product on this machine, from nothing: dependencies, the local
# servers (MongoDB protocol, Kafka, S3, SMTP), a build of every package, the services and
# the gateway. Prints where to open it. Stop it all with scripts/stop.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$ROOT"

# MARKETPLACE_PORT_OFFSET moves the services' and the gateway's ports as infra.sh moves the
# servers' (with its own MARKETPLACE_DATA): a second whole stack beside the first.
PORT_OFFSET=${MARKETPLACE_PORT_OFFSET:-0}
[[ $PORT_OFFSET =~ ^[0-9]+$ ]] || die "MARKETPLACE_PORT_OFFSET must be a number (got '$PORT_OFFSET')"
GATEWAY_PORT=${GATEWAY_PORT:-$((8080 + PORT_OFFSET))}
# /metrics is served on a port of its own (METRICS_PORT), never on the port the browser or the
# gateway talks to: a service's metrics port is its port + 1000 (auth 5001, jobs' second
# instance 5013), the gateway's GATEWAY_PORT + 1000 (9080). Prometheus scrapes those.
METRICS_OFFSET=1000
# name:port, in start order; the gateway comes last and learns every URL.
SERVICES=(auth:4001 people:4002 jobs:4003 favorites:4004 reports:4005 notifications:4006 media:4007
  conversations:4008 analytics:4009)
# REPLICAS=2 runs two instances of every service (docs/operations.md): instance n of a service
# listens on its port + 10*(n-1) (jobs: 4003, 4013) and is named <service>-<n> (INSTANCE_ID,
# which names its per-instance consumer groups); the gateway spreads requests over them.
REPLICAS=${REPLICAS:-1}
[[ $REPLICAS =~ ^[1-9]$ ]] || die "REPLICAS must be a number from 1 to 9 (got '$REPLICAS')"

STARTED_AT=$SECONDS
# The servers' binaries (FerretDB, MinIO and Mailpit compiled from the Go module proxy, Kafka's
# jars from Maven Central) build in the background while the Node install and build run: on
# a machine without the cache each half takes minutes, and much of it waits on the network.
# Node.js comes first (both halves run on it and would otherwise both download it). The
# background job writes to its own log; it is waited for, and its failure stops this script
# with the log's end. Should this script stop first (a failed install), the builds run on to
# their end and land in the cache, which the next start uses.
ensure_node
mkdir -p "$DATA/logs"
SERVERS_LOG=$DATA/logs/install-servers.log
say "provisioning the servers in the background (log .data/logs/install-servers.log)..."
# Its progress lines ([infra] ...) show here as they come; the rest (Go's downloads) only in the log.
(
  set -o pipefail
  bash "$INFRA" install-servers 2>&1 | tee "$SERVERS_LOG" | { grep --line-buffered -F '[infra]' || true; }
) &
SERVERS_JOB=$!

timed "installing dependencies" install_dependencies
say "building every package (turbo)..."
timed "building every package" pnpm turbo run build --output-logs=errors-only

if kill -0 "$SERVERS_JOB" 2>/dev/null; then
  say "waiting for the servers' builds (details: tail -f .data/logs/install-servers.log)..."
fi
if ! wait "$SERVERS_JOB"; then
  tail -20 "$SERVERS_LOG" >&2
  die "provisioning the servers failed (log: .data/logs/install-servers.log)"
fi
timed "starting the servers" bash "$INFRA" up
load_infra_env

# The access-token key pair of this installation (Ed25519), made once and kept in .data.
KEYS=$DATA/keys
if [[ ! -f $KEYS/jwt-private.pem ]]; then
  say "creating the access-token signing key (.data/keys)..."
  mkdir -p "$KEYS" && chmod 700 "$KEYS"
  node -e '
    const { generateKeyPairSync } = require("crypto"), fs = require("fs"), dir = process.argv[1]
    const { publicKey, privateKey } = generateKeyPairSync("ed25519")
    fs.writeFileSync(`${dir}/jwt-public.pem`, publicKey.export({ type: "spki", format: "pem" }))
    fs.writeFileSync(`${dir}/jwt-private.pem`, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 })
  ' "$KEYS"
fi
# Every service verifies with the public key; only auth gets the private one.
JWT_PUBLIC_KEY=$(base64 -w0 <"$KEYS/jwt-public.pem")
export JWT_PUBLIC_KEY
JWT_PRIVATE_KEY=$(base64 -w0 <"$KEYS/jwt-private.pem")
# The auth service's HMAC secret (XSRF tokens, stored codes), made once like the keys.
if [[ ! -f $KEYS/session-secret ]]; then
  (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("hex"))' >"$KEYS/session-secret")
fi
SESSION_SECRET=$(cat "$KEYS/session-secret")
# The demo administrator (docs/identity.md); override both to use your own.
ADMIN_EMAIL=${ADMIN_EMAIL:-admin@marketplace.local}
ADMIN_PASSWORD=${ADMIN_PASSWORD:-Admin1234!}

mkdir -p "$DATA/pids" "$DATA/logs"
# Services start side by side: each is launched, then all are waited for (one after another
# took a few seconds each, mostly waiting on Kafka's group joins).
launch_service() { # name port dir [ENV=VALUE...]   (name: also the pid file's and the log's)
  local name=$1 port=$2 dir=$3; shift 3
  local pidfile=$DATA/pids/svc-$name.pid
  if [[ -f $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    say "$name already running (pid $(cat "$pidfile"))"
    return
  fi
  # The redirections cover the whole background list, so no shell keeps this script's
  # stdout open (a caller piping start.sh would otherwise wait for the services to end).
  (cd "$ROOT/$dir" && exec env SERVICE_NAME="${name%-[0-9]}" HOST=127.0.0.1 PORT="$port" "$@" \
    setsid node dist/server.js) >>"$DATA/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$DATA/pids/svc-$name.pid"
}
await_service() { # name port [path: /healthz]
  local name=$1 port=$2 path=${3:-/healthz} pidfile=$DATA/pids/svc-$1.pid i
  for ((i = 0; i < 240; i++)); do
    curl -fs "http://127.0.0.1:$port$path" >/dev/null && { say "$name up on :$port (log .data/logs/$name.log)"; return; }
    kill -0 "$(cat "$pidfile")" 2>/dev/null || { tail -20 "$DATA/logs/$name.log" >&2; die "$name exited while starting"; }
    sleep 0.25
  done
  die "$name did not answer /healthz on :$port"
}

SERVICES_STARTED_AT=$SECONDS
launched=()
upstreams=()
for entry in "${SERVICES[@]}"; do
  name=${entry%%:*} port=$((${entry##*:} + PORT_OFFSET))
  only_here=() # settings only this service may see
  if [[ $name == auth ]]; then
    only_here=(JWT_PRIVATE_KEY="$JWT_PRIVATE_KEY" SESSION_SECRET="$SESSION_SECRET"
      ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD"
      SMTP_HOST="$SMTP_HOST" SMTP_PORT="$SMTP_PORT" APP_PUBLIC_URL="http://127.0.0.1:$GATEWAY_PORT")
  fi
  if [[ $name == notifications ]]; then
    only_here=(SMTP_HOST="$SMTP_HOST" SMTP_PORT="$SMTP_PORT" APP_PUBLIC_URL="http://127.0.0.1:$GATEWAY_PORT"
      SUPPORT_INBOX="${SUPPORT_INBOX:-support@marketplace.local}")
  fi
  if [[ $name == media ]]; then
    only_here=(S3_ENDPOINT="$S3_ENDPOINT" S3_PUBLIC_URL="$S3_PUBLIC_URL" S3_REGION="$S3_REGION"
      S3_ACCESS_KEY="$S3_ACCESS_KEY" S3_SECRET_KEY="$S3_SECRET_KEY"
      APP_ORIGINS="http://127.0.0.1:$GATEWAY_PORT,http://localhost:$GATEWAY_PORT")
  fi
  if [[ $name == jobs || $name == people ]]; then
    # The feeds' snapshots (docs/scale.md): a new instance loads its feed from the last one
    # and follows on from the topic positions it covers, instead of scanning the database.
    only_here=(SNAPSHOT_S3_ENDPOINT="$S3_ENDPOINT" SNAPSHOT_S3_REGION="$S3_REGION"
      SNAPSHOT_S3_ACCESS_KEY="$S3_ACCESS_KEY" SNAPSHOT_S3_SECRET_KEY="$S3_SECRET_KEY")
    # The V8 heap and glibc's malloc as the Kubernetes base sets them (infra/k8s/base/<name>.yaml):
    # the young generation capped at 8 MB a semi-space, large buffers given back when freed,
    # two malloc arenas; what keeps the feed's memory down under requests (docs/scale.md).
    heap=512
    [[ $name == people ]] && heap=320
    only_here+=(NODE_OPTIONS="--max-old-space-size=$heap --max-semi-space-size=8"
      MALLOC_MMAP_THRESHOLD_=131072 MALLOC_ARENA_MAX=2)
  fi
  urls=()
  for ((n = 1; n <= REPLICAS; n++)); do
    # One instance keeps the names it always had (svc-jobs.pid, jobs.log); with more, each
    # is <service>-<n>, its INSTANCE_ID too.
    instance=$name
    ((REPLICAS > 1)) && instance=$name-$n
    instance_port=$((port + 10 * (n - 1)))
    launch_service "$instance" "$instance_port" "services/$name" INSTANCE_ID="$name-$n" \
      METRICS_PORT=$((instance_port + METRICS_OFFSET)) \
      MONGO_URL="$MONGO_URL_BASE/$name?$MONGO_URL_OPTIONS" KAFKA_BROKERS="$KAFKA_BROKERS" \
      "${only_here[@]}"
    launched+=("$instance:$instance_port")
    urls+=("http://127.0.0.1:$instance_port")
  done
  upstreams+=("$(echo "$name" | tr '[:lower:]' '[:upper:]')_URL=$(IFS=,; echo "${urls[*]}")")
done
say "waiting for the services to answer..."
for entry in "${launched[@]}"; do await_service "${entry%%:*}" "${entry##*:}"; done
# With REPLICAS=2 the gateway runs twice too, both on GATEWAY_PORT (REUSE_PORT: the kernel
# spreads connections over them), so one killed or restarted leaves the other serving
# (docs/reliability.md, "A marketplace day under faults"). Gateway n's /metrics is on
# GATEWAY_PORT + 1000 + 10*(n-1); each is awaited there, since the shared port answers for
# whichever is up.
if ((REPLICAS > 1)); then
  enable_reuseport_handover
  for ((n = 1; n <= 2; n++)); do
    metrics_port=$((GATEWAY_PORT + METRICS_OFFSET + 10 * (n - 1)))
    launch_service "gateway-$n" "$GATEWAY_PORT" services/gateway "${upstreams[@]}" \
      REUSE_PORT=true METRICS_PORT=$metrics_port \
      PUBLIC_BUCKET_URL="$S3_PUBLIC_URL/marketplace-media" S3_ENDPOINT="$S3_ENDPOINT" \
      KAFKA_BROKERS="$KAFKA_BROKERS"
    await_service "gateway-$n" "$metrics_port" /metrics
  done
else
  launch_service gateway "$GATEWAY_PORT" services/gateway "${upstreams[@]}" \
    METRICS_PORT=$((GATEWAY_PORT + METRICS_OFFSET)) \
    PUBLIC_BUCKET_URL="$S3_PUBLIC_URL/marketplace-media" S3_ENDPOINT="$S3_ENDPOINT" \
    KAFKA_BROKERS="$KAFKA_BROKERS"
  await_service gateway "$GATEWAY_PORT"
fi
say "services up in $((SECONDS - SERVICES_STARTED_AT)) s"

# Demo data through the product's own API, idempotent (docs/demo-data.md). SKIP_SEED=1 skips.
if [[ ${SKIP_SEED:-0} != 1 ]]; then
  say "seeding the demo marketplace (30 people, 20 workers, 210 posts; runs again harmlessly)..."
  seed_started=$SECONDS
  node scripts/seed/seed-demo.mjs --base "http://127.0.0.1:$GATEWAY_PORT" --auth "http://127.0.0.1:$((4001 + PORT_OFFSET))" --mail "$MAIL_API_URL"
  say "seeding: done in $((SECONDS - seed_started)) s"
fi
say "ready in $((SECONDS - STARTED_AT)) s"

cat <<DONE

  The marketplace is running:  http://127.0.0.1:$GATEWAY_PORT
  API health:                  http://127.0.0.1:$GATEWAY_PORT/readyz
  API reference (OpenAPI):     http://127.0.0.1:$GATEWAY_PORT/api/docs
  Metrics (Prometheus):        http://127.0.0.1:$((GATEWAY_PORT + METRICS_OFFSET))/metrics (each service: its port + $METRICS_OFFSET)
  Mail sent by the product:    $MAIL_API_URL/api/v1/messages (codes, notifications, support)
  Demo administrator:          $ADMIN_EMAIL / $ADMIN_PASSWORD
  Demo people:                 ava.turner@demo.marketplace.local (and 29 more) / Demo1234!
  Instances of each service:   $REPLICAS (REPLICAS=2 for two of everything)
  Logs:                        .data/logs/   Stop everything: bash scripts/stop.sh

DONE
# Where the traces are, when the services send them (TRACING=1 and a viewer in infra.env).
if [[ ${TRACING:-} == 1 || ${TRACING:-} == true ]]; then
  if [[ -n ${ZIPKIN_URL:-} ]]; then
    echo "  Traces (Zipkin):             $ZIPKIN_URL/zipkin/"
  elif [[ -n ${JAEGER_URL:-} ]]; then
    echo "  Traces (Jaeger query API):   $JAEGER_URL/api/traces?service=gateway"
  fi
  echo
fi
