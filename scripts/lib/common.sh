# Shared by scripts/*.sh: where we are, how to talk, and the tools every command needs.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DATA=${MARKETPLACE_DATA:-$ROOT/.data}
INFRA="$ROOT/infra/local/infra.sh"

say() { printf '\033[1;34m[marketplace]\033[0m %s\n' "$*"; }
die() { printf '\033[31m[marketplace] %s\033[0m\n' "$*" >&2; exit 1; }

# pnpm at the version package.json pins. Installed with npm: corepack's signature check
# fails against our registry mirror (docs/local-infrastructure.md), npm's integrity check does not.
ensure_pnpm() {
  local want
  want=$(node -p "require('$ROOT/package.json').packageManager.split('@')[1]")
  if [[ $(pnpm --version 2>/dev/null || true) != "$want" ]]; then
    say "installing pnpm $want..."
    npm install -g --silent "pnpm@$want" >/dev/null || die "could not install pnpm $want"
  fi
}

install_dependencies() {
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

load_infra_env() {
  [[ -f $DATA/infra.env ]] || die "no $DATA/infra.env: run 'bash infra/local/infra.sh up' first"
  set -a
  # shellcheck disable=SC1091
  source "$DATA/infra.env"
  set +a
}

infra_running() { bash "$INFRA" status | grep -q 'stopped' && return 1 || return 0; }
