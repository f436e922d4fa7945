#!/usr/bin/env bash
# Real MongoDB-protocol, Kafka, S3 and SMTP servers without Docker (../shared/LOCAL-INFRA.md).
#   infra.sh install            provision binaries into the cache (idempotent, prints progress)
#   infra.sh install-servers    the servers' binaries only (CI runs it beside `pnpm install`)
#   infra.sh binary-path NAME   where the minio, ferretdb or mailpit binary is (infra/images uses it)
#   infra.sh up                 install if needed, start everything, wait until really ready
#   infra.sh down               stop what `up` started (pid files only)
#   infra.sh status             what runs
#   infra.sh stop|start NAME    one server: mongo, kafka, s3, mail (the outage tests use it),
#                               tracing (the trace viewer)
# With TRACING=1, `up` also builds and starts the trace viewer: Jaeger v2 (OTLP in, query API
# out) by default, or with TRACING_VIEWER=zipkin Zipkin (its spans API in, query API and web
# UI out); without TRACING nothing of tracing is built or started.
# Writes the servers' addresses to .data/infra.env for the test harness and the services.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE=${MARKETPLACE_CACHE:-$HOME/.cache/marketplace}
DATA=${MARKETPLACE_DATA:-$ROOT/.data}
PIDS=$DATA/pids
LOGS=$DATA/logs
BIN=$CACHE/bin
KAFKA_LIBS=$CACHE/kafka-$KAFKA_VERSION-libs
# The wrapper's own sources and our patch of FerretDB are part of the cache key: a change to
# either rebuilds the binary.
FERRETDB_PATCH=id-lookups-use-the-id-index-v3
FERRETDB_WRAPPER_REV=$( (cat "$HERE"/ferretdb-sqlite/*.go "$HERE"/ferretdb-sqlite/go.mod; echo "$FERRETDB_PATCH") | sha1sum | cut -c1-10)
FERRETDB_BIN=$BIN/ferretdb-sqlite-$FERRETDB_VERSION-$FERRETDB_WRAPPER_REV
MINIO_BIN=$BIN/minio-$MINIO_VERSION
MAILPIT_BIN=$BIN/mailpit-$MAILPIT_VERSION
JAEGER_REV=$(cat "$HERE"/jaeger/go.mod "$HERE"/jaeger/go.sum | sha1sum | cut -c1-10)
JAEGER_BIN=$BIN/jaeger-$JAEGER_VERSION-$JAEGER_REV
ZIPKIN_JAR=$BIN/zipkin-server-$ZIPKIN_VERSION-exec.jar
NODE_TOOLS=$HERE/node

# MARKETPLACE_PORT_OFFSET moves every port (with its own MARKETPLACE_DATA), so a second set
# of servers can run beside the first: a clean-clone CI run while development goes on.
OFFSET=${MARKETPLACE_PORT_OFFSET:-0}
MONGO_PORT=$((27017 + OFFSET)) KAFKA_PORT=$((9092 + OFFSET)) KAFKA_CONTROLLER_PORT=$((9093 + OFFSET))
S3_PORT=$((9000 + OFFSET)) S3_CONSOLE_PORT=$((9001 + OFFSET))
SMTP_PORT=$((1025 + OFFSET)) MAIL_API_PORT=$((8025 + OFFSET))
JAEGER_OTLP_HTTP_PORT=$((4318 + OFFSET)) JAEGER_UI_PORT=$((16686 + OFFSET))
JAEGER_QUERY_GRPC_PORT=$((16685 + OFFSET)) JAEGER_HEALTH_PORT=$((13133 + OFFSET))
ZIPKIN_PORT=$((9411 + OFFSET))
S3_USER=marketplace S3_PASSWORD=marketplace-local-secret

# The node helpers (readiness probes) run on the project's Node.js 24, fetched
# into the cache on a machine with an older one (scripts/lib/common.sh).
# shellcheck source=../../scripts/lib/common.sh
PATH=$(source "$ROOT/scripts/lib/common.sh" && ensure_node >&2 && echo "$PATH")
say() { printf '\033[1m[infra]\033[0m %s\n' "$*"; }
die() { printf '\033[31m[infra] %s\033[0m\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------- install
install_ferretdb() {
  [[ -x $FERRETDB_BIN ]] && { say "FerretDB $FERRETDB_VERSION (SQLite) cached"; return; }
  say "building FerretDB $FERRETDB_VERSION with SQLite through our wrapper module (about 2 min on 2 cores)..."
  mkdir -p "$BIN"
  local build; build=$(mktemp -d)
  cp "$HERE"/ferretdb-sqlite/*.go "$HERE"/ferretdb-sqlite/go.mod "$HERE"/ferretdb-sqlite/go.sum "$build/"
  patch_ferretdb "$build"
  (cd "$build" && GOFLAGS=-mod=mod go build -trimpath -o "$FERRETDB_BIN.tmp" .) || die "FerretDB build failed"
  rm -rf "$build"
  mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
}

# FerretDB v1's SQLite backend indexes _id as `_jsonb->"_id"` but looks documents up by
# `_jsonb->'$._id'`: the same value, a different expression, so SQLite never uses the index
# and every lookup, update and delete by _id scans the whole table (docs/local-infrastructure.md).
# Our build queries with the index's own expression. The module's source is copied from the
# Go module cache, changed in that one line, and wired in with a `replace` in a build copy
# of our wrapper module; the committed go.mod stays as it is.
patch_ferretdb() { # build-dir
  local build=$1 src
  src=$(cd "$build" && GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d $src ]] || die "FerretDB $FERRETDB_VERSION source not found in the Go module cache"
  cp -r "$src" "$build/ferretdb-src" && chmod -R u+w "$build/ferretdb-src"
  local file=$build/ferretdb-src/internal/backends/sqlite/metadata/metadata.go
  sed -i "s|IDColumn = DefaultColumn + \"->'\\\$._id'\"|IDColumn = DefaultColumn + \"->\\\\\"_id\\\\\"\"|" "$file"
  grep -q 'IDColumn = DefaultColumn + "->\\"_id\\""' "$file" || die "FerretDB patch did not apply (IDColumn in $file)"
  # Second change: the `_id` pushdown only happens when `_id` is the filter's only key, so
  # `{_id, outbox: [...]}` (the outbox relay's clear), `{_id, userId}` (a BOLA-checked update)
  # or any compare-and-set by `_id` scans the table. An `_id` equality narrows the query
  # whatever else the filter says (its keys are ANDed, and FerretDB applies the whole filter
  # to what the query returns), so it is pushed down whenever the filter has one. A query
  # without a filter (estimatedDocumentCount, count/find/distinct without a query, an
  # aggregation that does not start with $match) reaches this with no filter document at
  # all: that is not an `_id` filter, and asking a missing document for a key panics and
  # drops the connection, so the check comes first. The stock condition, `Len() == 1`,
  # answers 0 for a missing document; `Has` does not check. (In Query and Explain both.)
  file=$build/ferretdb-src/internal/backends/sqlite/collection.go
  sed -i 's|if params.Filter.Len() == 1 {|if params.Filter != nil \&\& params.Filter.Has("_id") {|' "$file"
  [[ $(grep -c 'if params.Filter != nil && params.Filter.Has("_id") {' "$file") == 2 ]] ||
    die "FerretDB patch did not apply (_id pushdown in Query and Explain of $file)"
  (cd "$build" && go mod edit -replace "github.com/FerretDB/FerretDB=./ferretdb-src")
}

install_minio() {
  [[ -x $MINIO_BIN ]] && { say "MinIO $MINIO_VERSION cached"; return; }
  say "building MinIO $MINIO_VERSION from the Go module proxy (about 3 min on 2 cores)..."
  local tmp; tmp=$(mktemp -d)
  GOBIN=$tmp go install "github.com/minio/minio@$MINIO_VERSION" || die "MinIO build failed"
  mkdir -p "$BIN" && mv "$tmp/minio" "$MINIO_BIN" && rm -rf "$tmp"
}

# Mailpit, the SMTP sink with a web UI and a REST API that compose runs too: built from its Go
# module (its web UI is part of the module), so tests read mail the same way everywhere.
install_mailpit() {
  [[ -x $MAILPIT_BIN ]] && { say "Mailpit $MAILPIT_VERSION cached"; return; }
  say "building Mailpit $MAILPIT_VERSION from the Go module proxy (about 2 min on 2 cores)..."
  local tmp; tmp=$(mktemp -d)
  (cd "$tmp" && CGO_ENABLED=0 GOBIN=$tmp go install -trimpath "github.com/axllent/mailpit@$MAILPIT_VERSION") || die "Mailpit build failed"
  mkdir -p "$BIN" && mv "$tmp/mailpit" "$MAILPIT_BIN" && rm -rf "$tmp"
}

# Jaeger v2 from the Go module proxy, through our module (jaeger/go.mod says why). Its web UI
# is not part of the Go module (Jaeger's release images add it), so this build serves the
# query API and a placeholder page; docs/operations.md ("Tracing") says how traces are viewed.
install_jaeger() {
  [[ -x $JAEGER_BIN ]] && { say "Jaeger $JAEGER_VERSION cached"; return; }
  say "building Jaeger $JAEGER_VERSION (v2) from the Go module proxy (about 10 min on 2 cores)..."
  mkdir -p "$BIN"
  local build; build=$(mktemp -d)
  cp "$HERE"/jaeger/go.mod "$HERE"/jaeger/go.sum "$build/"
  (cd "$build" && CGO_ENABLED=0 go build -trimpath -o "$JAEGER_BIN.tmp" github.com/jaegertracing/jaeger/cmd/jaeger) ||
    die "Jaeger build failed"
  rm -rf "$build"
  mv "$JAEGER_BIN.tmp" "$JAEGER_BIN"
}

install_kafka() {
  [[ -f $KAFKA_LIBS/.complete ]] && { say "Kafka $KAFKA_VERSION jars cached"; return; }
  say "fetching Kafka $KAFKA_VERSION jars from Maven Central..."
  rm -rf "$KAFKA_LIBS"
  mvn -q -B -f "$HERE/kafka/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS" || die "Kafka jars could not be fetched"
  touch "$KAFKA_LIBS/.complete"
}

install_node_tools() {
  [[ -d $NODE_TOOLS/node_modules/kafkajs ]] && return
  say "installing the node helpers (pnpm install)..."
  # shellcheck source=../../scripts/lib/common.sh
  PATH=$(source "$ROOT/scripts/lib/common.sh" && ensure_pnpm >&2 && echo "$PATH")
  (cd "$ROOT" && pnpm install --frozen-lockfile --filter @marketplace/local-infra >/dev/null)
}

# The four downloads-then-builds run at once: a cold machine spends much of each waiting on
# the Go module proxy or Maven Central, and one's download overlaps another's compile (the
# Go module cache is safe for concurrent use; it locks). About 7 min one after another cold.
install_servers() {
  command -v go >/dev/null || die "Go is required (go.dev toolchain); see README"
  command -v java >/dev/null || die "Java 17 is required for Kafka"
  command -v mvn >/dev/null || die "Maven is required to fetch the Kafka jars"
  local pids=() names=(FerretDB MinIO Kafka Mailpit) pid failed=0 started=$SECONDS i running ticks=0
  timed_install install_ferretdb FerretDB & pids+=($!)
  timed_install install_minio MinIO & pids+=($!)
  timed_install install_kafka Kafka & pids+=($!)
  timed_install install_mailpit Mailpit & pids+=($!)
  # A line a minute while a build runs: a cold build takes minutes and is otherwise silent.
  for ((;;)); do
    running=()
    for i in "${!pids[@]}"; do kill -0 "${pids[$i]}" 2>/dev/null && running+=("${names[$i]}"); done
    ((${#running[@]} > 0)) || break
    ((ticks > 0 && ticks % 60 == 0)) && say "still building: ${running[*]} ($((SECONDS - started)) s so far)"
    sleep 1
    ticks=$((ticks + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || die "provisioning failed (see the messages above)"
  say "servers' binaries ready in $((SECONDS - started)) s"
}

# One install step, then how long it took when it did anything (a cached one says so itself).
timed_install() { # function name
  local started=$SECONDS
  "$1"
  ((SECONDS - started < 2)) || say "$2 ready in $((SECONDS - started)) s"
}

cmd_install() {
  install_servers
  install_node_tools
  say "install done ($CACHE)"
}

# Zipkin's server from Maven Central: Jaeger's web UI is not in its Go module, and Zipkin's
# executable jar carries its UI (Lens), so this is the local viewer a person can look at.
install_zipkin() {
  [[ -f $ZIPKIN_JAR ]] && { say "Zipkin $ZIPKIN_VERSION cached"; return; }
  command -v java >/dev/null || die "Java 17 is required for Zipkin"
  say "fetching Zipkin $ZIPKIN_VERSION from Maven Central (135 MB)..."
  mkdir -p "$BIN"
  curl -fsSL --retry 3 -o "$ZIPKIN_JAR.tmp" \
    "https://repo.maven.apache.org/maven2/io/zipkin/zipkin-server/$ZIPKIN_VERSION/zipkin-server-$ZIPKIN_VERSION-exec.jar" ||
    die "Zipkin could not be fetched"
  echo "$ZIPKIN_SHA1  $ZIPKIN_JAR.tmp" | sha1sum -c --quiet - || { rm -f "$ZIPKIN_JAR.tmp"; die "Zipkin's jar does not match its SHA-1"; }
  mv "$ZIPKIN_JAR.tmp" "$ZIPKIN_JAR"
}

# Which viewer TRACING=1 starts: the one already running (recorded at its start), else
# TRACING_VIEWER, else Jaeger.
tracing_viewer() {
  if is_running tracing && [[ -f $DATA/tracing-viewer ]]; then cat "$DATA/tracing-viewer"; return; fi
  case ${TRACING_VIEWER:-jaeger} in
    jaeger | zipkin) echo "${TRACING_VIEWER:-jaeger}" ;;
    *) die "TRACING_VIEWER must be jaeger or zipkin, not ${TRACING_VIEWER}" ;;
  esac
}

install_tracing() { if [[ $(tracing_viewer) == zipkin ]]; then install_zipkin; else install_jaeger; fi; }

# ---------------------------------------------------------------------------- run
pid_of() { [[ -f $PIDS/$1.pid ]] && cat "$PIDS/$1.pid"; }
is_running() { local pid; pid=$(pid_of "$1") && [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; }

wait_port() { # name port seconds
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return 0
    is_running "$1" || { tail -20 "$LOGS/$1.log" >&2; die "$1 exited while starting (log: $LOGS/$1.log)"; }
    sleep 0.25
  done
  die "$1 did not open port $2 within $3 s (log: $LOGS/$1.log)"
}

launch() { # name command...
  local name=$1; shift
  if is_running "$name"; then say "$name already running (pid $(pid_of "$name"))"; return 1; fi
  mkdir -p "$PIDS" "$LOGS"
  setsid "$@" >>"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! >"$PIDS/$name.pid"
  say "$name starting (pid $!, log .data/logs/$name.log)"
}

start_mongo() {
  launch mongo "$FERRETDB_BIN" --listen-addr "127.0.0.1:$MONGO_PORT" --data-dir "$DATA/ferretdb" || return 0
  wait_port mongo $MONGO_PORT 30
  node "$NODE_TOOLS/wait-ready.js" mongo "mongodb://127.0.0.1:$MONGO_PORT/admin?directConnection=true" 30 || die "FerretDB not answering"
  # The port answering is not enough: a FerretDB left over from an earlier run (still draining
  # its connections) answers it while ours exits on "address already in use".
  is_running mongo || die "FerretDB exited at start; is port $MONGO_PORT held by another process? (see .data/logs/mongo.log)"
  say "mongo ready on 127.0.0.1:$MONGO_PORT (FerretDB $FERRETDB_VERSION, SQLite)"
}

start_kafka() {
  local props=$DATA/kafka-server.properties
  mkdir -p "$DATA/kafka" "$LOGS"
  # PLAINTEXT: the suites share this broker and make hundreds of consumer groups under test
  # prefixes, which per-service ACLs would refuse. A broker as production runs it (SCRAM,
  # ACLs) is a container of its own (tests/system/src/server-containers.ts, compose).
  sed -e "s#__DATA__#$DATA#" -e "s#__PORT__#$KAFKA_PORT#g" -e "s#__CONTROLLER_PORT__#$KAFKA_CONTROLLER_PORT#g" \
    "$HERE/kafka/server.properties" >"$props"
  if [[ ! -f $DATA/kafka/meta.properties ]]; then
    java -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool format -t "$(cat "$HERE/kafka/cluster-id")" -c "$props" --ignore-formatted \
      >>"$LOGS/kafka.log" 2>&1 || die "Kafka storage format failed"
  fi
  launch kafka java -Xms256m -Xmx768m -XX:+UseG1GC -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$HERE/kafka/log4j.properties" -cp "$KAFKA_LIBS/*" kafka.Kafka "$props" || return 0
  wait_port kafka $KAFKA_PORT 60
  node "$NODE_TOOLS/wait-ready.js" kafka "127.0.0.1:$KAFKA_PORT" 60 || die "Kafka not answering"
  say "kafka ready on 127.0.0.1:$KAFKA_PORT (Apache Kafka $KAFKA_VERSION, KRaft)"
}

start_s3() {
  MINIO_ROOT_USER=$S3_USER MINIO_ROOT_PASSWORD=$S3_PASSWORD MINIO_BROWSER=off MINIO_UPDATE=off \
    launch s3 "$MINIO_BIN" server "$DATA/minio" --address "127.0.0.1:$S3_PORT" --console-address "127.0.0.1:$S3_CONSOLE_PORT" --quiet || return 0
  wait_port s3 $S3_PORT 30
  local i
  for ((i = 0; i < 120; i++)); do
    curl -fs "http://127.0.0.1:$S3_PORT/minio/health/ready" >/dev/null && { say "s3 ready on 127.0.0.1:$S3_PORT (MinIO)"; return; }
    sleep 0.25
  done
  die "MinIO not ready"
}

start_mail() {
  # Every address accepted, any login or none (the services send as compose's do); up to
  # 5000 messages kept in a database in the temp directory (the test suites send thousands).
  launch mail "$MAILPIT_BIN" --smtp "127.0.0.1:$SMTP_PORT" --listen "127.0.0.1:$MAIL_API_PORT" \
    --smtp-auth-accept-any --smtp-auth-allow-insecure --max 5000 --disable-version-check --quiet || return 0
  wait_port mail $MAIL_API_PORT 20
  say "mail ready: SMTP 127.0.0.1:$SMTP_PORT, Mailpit http://127.0.0.1:$MAIL_API_PORT"
}

start_tracing() {
  local viewer; viewer=$(tracing_viewer)
  if [[ $viewer == zipkin ]]; then
    # Loopback only, spans kept in memory; a small heap (it holds a development session's traces).
    launch tracing java -Xms64m -Xmx384m -jar "$ZIPKIN_JAR" \
      --armeria.ports[0].port="$ZIPKIN_PORT" --armeria.ports[0].ip=127.0.0.1 \
      --armeria.ports[0].protocols[0]=http || return 0
    echo zipkin >"$DATA/tracing-viewer"
    wait_port tracing "$ZIPKIN_PORT" 180
    say "tracing ready: Zipkin http://127.0.0.1:$ZIPKIN_PORT/zipkin/ (spans in at /api/v2/spans)"
    return
  fi
  echo jaeger >"$DATA/tracing-viewer"
  JAEGER_OTLP_HTTP_PORT=$JAEGER_OTLP_HTTP_PORT JAEGER_UI_PORT=$JAEGER_UI_PORT \
    JAEGER_QUERY_GRPC_PORT=$JAEGER_QUERY_GRPC_PORT JAEGER_HEALTH_PORT=$JAEGER_HEALTH_PORT \
    launch tracing "$JAEGER_BIN" --config "$HERE/jaeger/config.yaml" || return 0
  wait_port tracing $JAEGER_UI_PORT 60
  wait_port tracing $JAEGER_OTLP_HTTP_PORT 30
  say "tracing ready: OTLP http://127.0.0.1:$JAEGER_OTLP_HTTP_PORT, Jaeger http://127.0.0.1:$JAEGER_UI_PORT"
}

tracing_asked() { [[ ${TRACING:-} == 1 || ${TRACING:-} == true ]]; }

write_env() {
  cat >"$DATA/infra.env" <<ENV
# Written by infra/local/infra.sh up: where the local servers listen.
MONGO_URL_BASE=mongodb://127.0.0.1:$MONGO_PORT
MONGO_URL_OPTIONS='directConnection=true&retryWrites=false'
KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT
S3_ENDPOINT=http://127.0.0.1:$S3_PORT
S3_PUBLIC_URL=http://127.0.0.1:$S3_PORT
S3_ACCESS_KEY=$S3_USER
S3_SECRET_KEY=$S3_PASSWORD
S3_REGION=us-east-1
SMTP_HOST=127.0.0.1
SMTP_PORT=$SMTP_PORT
MAIL_API_URL=http://127.0.0.1:$MAIL_API_PORT
INFRA_SCRIPT=$HERE/infra.sh
ENV
  # Where the trace viewer listens, when it runs; services trace only when started with
  # TRACING=1 and this endpoint (scripts/start.sh passes both on).
  if (tracing_asked || is_running tracing) && [[ $(tracing_viewer) == zipkin ]]; then
    # The standard OpenTelemetry settings for the Zipkin exporter (service-kit reads them).
    cat >>"$DATA/infra.env" <<ENV
OTEL_TRACES_EXPORTER=zipkin
OTEL_EXPORTER_ZIPKIN_ENDPOINT=http://127.0.0.1:$ZIPKIN_PORT/api/v2/spans
ZIPKIN_URL=http://127.0.0.1:$ZIPKIN_PORT
ENV
  elif tracing_asked || is_running tracing; then
    cat >>"$DATA/infra.env" <<ENV
OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$JAEGER_OTLP_HTTP_PORT
JAEGER_URL=http://127.0.0.1:$JAEGER_UI_PORT
ENV
  fi
}

stop_one() {
  local name=$1 pid
  pid=$(pid_of "$name") || { say "$name not started by us"; return 0; }
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    local i
    for ((i = 0; i < 60; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && { kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; }
    say "$name stopped"
  fi
  rm -f "$PIDS/$name.pid"
}

start_one() {
  case $1 in
    mongo) start_mongo ;; kafka) start_kafka ;; s3) start_s3 ;; mail) start_mail ;;
    tracing) install_tracing && start_tracing && write_env ;;
    *) die "unknown server $1 (mongo, kafka, s3, mail, tracing)" ;;
  esac
}

# One data directory, one set of ports: `up` with another offset over running servers would
# rewrite infra.env with ports nothing listens on (and a second set needs its own data).
check_offset() {
  local recorded=$DATA/port-offset name
  if [[ -f $recorded && $(cat "$recorded") != "$OFFSET" ]]; then
    for name in mongo kafka s3 mail; do
      is_running "$name" && die "the servers of $DATA run with MARKETPLACE_PORT_OFFSET=$(cat "$recorded"), not $OFFSET: use that offset, or another MARKETPLACE_DATA"
    done
  fi
  mkdir -p "$DATA"
  echo "$OFFSET" >"$recorded"
}

cmd_up() {
  check_offset
  cmd_install
  mkdir -p "$DATA" "$PIDS" "$LOGS"
  start_mongo
  start_s3
  start_mail
  start_kafka
  if tracing_asked; then
    install_tracing
    start_tracing
  fi
  write_env
  say "all servers ready; addresses in .data/infra.env"
}

cmd_down() {
  [[ -f $PIDS/tracing.pid ]] && stop_one tracing
  for name in kafka mail s3 mongo; do stop_one "$name"; done
}

cmd_status() {
  for name in mongo kafka s3 mail; do
    if is_running "$name"; then echo "$name: running (pid $(pid_of "$name"))"; else echo "$name: stopped"; fi
  done
  # Optional (TRACING=1): "off" rather than "stopped", which scripts read as the servers down.
  if is_running tracing; then echo "tracing: running (pid $(pid_of tracing))"; else echo "tracing: off"; fi
}

case ${1:-} in
  install) cmd_install ;;
  install-servers) install_servers ;;
  install-tracing) install_tracing ;;
  # Where the viewer of this offset listens (the tracing system test reads it).
  tracing-env) printf 'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:%s\nJAEGER_URL=http://127.0.0.1:%s\n' "$JAEGER_OTLP_HTTP_PORT" "$JAEGER_UI_PORT" ;;
  # Where a server's binary is (built or not): infra/images puts the same binaries in images.
  binary-path) case ${2:-} in minio) echo "$MINIO_BIN" ;; ferretdb) echo "$FERRETDB_BIN" ;; mailpit) echo "$MAILPIT_BIN" ;; jaeger) echo "$JAEGER_BIN" ;; *) die "binary-path minio|ferretdb|mailpit|jaeger" ;; esac ;;
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  stop) stop_one "${2:?name}" ;;
  start) check_offset && start_one "${2:?name}" ;;
  *) echo "usage: $0 install|install-servers|install-tracing|tracing-env|up|down|status|stop NAME|start NAME" >&2; exit 2 ;;
esac
