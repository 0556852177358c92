#!/usr/bin/env bash
# What the test command needs besides Rust: Chromium (and a font) for the browser tests, Node
# with npm, the browser tests' packages (playwright-core) in tests/browser/node_modules, and
# PostgreSQL (initdb, pg_ctl) for the tests that start a throw-away database server, and
# HAProxy for the load run of several servers behind a balancer.
#
# Run as root on a Debian machine, it installs what is missing with apt-get. Otherwise it stops
# at once with one line that says what to install. With everything in place it does nothing.
#   CHROMIUM                 the browser (default: /usr/bin/chromium)
#   BASHNI_PG_BIN            the folder of PostgreSQL's initdb (default: /usr/lib/postgresql/*/bin)
#   BASHNI_SETUP_NO_INSTALL  set to 1 to never install, as for a user who is not root
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

chromium="${CHROMIUM:-/usr/bin/chromium}"
name="${BASHNI_SETUP_NAME:-scripts/setup.sh}"

has_chromium() { [ -x "$chromium" ]; }
has_node() { command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; }
has_postgres() {
  if [ -n "${BASHNI_PG_BIN:-}" ]; then [ -x "$BASHNI_PG_BIN/initdb" ]; return; fi
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}
has_haproxy() { command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; }

can_install() {
  [ "${BASHNI_SETUP_NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" = 0 ] \
    && command -v apt-get >/dev/null 2>&1
}

missing() {
  local what=()
  has_chromium || what+=(Chromium)
  has_node || what+=("Node and npm")
  has_postgres || what+=(PostgreSQL)
  has_haproxy || what+=(HAProxy)
  echo "${what[*]}"
}

packages=()
has_chromium || packages+=(chromium fonts-dejavu-core)
has_node || packages+=(nodejs npm)
has_postgres || packages+=(postgresql)
has_haproxy || packages+=(haproxy)

if [ "${#packages[@]}" -gt 0 ]; then
  if can_install; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${packages[@]}"
  fi
  what="$(missing)"
  if [ -n "$what" ]; then
    hint="run 'sudo apt-get install ${packages[*]}'"
    has_chromium || hint="$hint or set CHROMIUM=/path/to/chromium"
    echo "$name: missing: $what: $hint" >&2
    exit 1
  fi
fi

# The browser tests' packages, again when package-lock.json changed since they were installed.
browser=tests/browser
if [ ! -f "$browser/node_modules/.package-lock.json" ] \
  || [ "$browser/package-lock.json" -nt "$browser/node_modules/.package-lock.json" ]; then
  (cd "$browser" && npm ci --no-audit --no-fund)
fi
