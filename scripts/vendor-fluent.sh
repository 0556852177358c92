#!/usr/bin/env bash
# Makes crates/server/web/fluent-bundle.js: the Fluent runtime the page formats its texts with
# (@fluent/bundle, Apache-2.0, by the Project Fluent authors), its ES modules bundled into one
# file and minified (the page needs its code, not its comments). Run it to move to another version; the file is
# committed, so building the server needs no npm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version="${1:-0.19.1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund \
  "@fluent/bundle@$version" esbuild@0.24.2 >/dev/null 2>&1)
out=crates/server/web/fluent-bundle.js
{
  echo "// @fluent/bundle $version (https://projectfluent.org), Apache License 2.0."
  echo "// Made by scripts/vendor-fluent.sh from the package's ES modules; not edited by hand."
  (cd "$work" && node_modules/.bin/esbuild node_modules/@fluent/bundle/esm/index.js \
    --bundle --minify --format=esm --target=es2020 --legal-comments=inline --log-level=warning)
} > "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
