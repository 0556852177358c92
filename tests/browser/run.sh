#!/usr/bin/env bash
# Runs the browser tests of the web page against a built `bashni` binary.
#   BASHNI_BIN  the server binary (default: ${CARGO_TARGET_DIR:-target}/debug/bashni)
#   CHROMIUM    the browser (default: /usr/bin/chromium)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in
  /*) ;;
  *) target="$root/$target" ;;
esac
export BASHNI_BIN="${BASHNI_BIN:-$target/debug/bashni}"
if [ ! -x "$BASHNI_BIN" ]; then
  echo "no server binary at $BASHNI_BIN; build it with: cargo build -p bashni" >&2
  exit 1
fi
if [ ! -d "$here/node_modules" ]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  files=("$here"/*.test.mjs)
fi
exec node --test --test-concurrency=1 "${files[@]}"
