#!/usr/bin/env bash
# The server's layout: folders, files, largest files and imports between folders; fails when
# a domain folder uses axum or a transport folder, or when folders import each other around a
# circle.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -q -p bashni-server --test layout -- --nocapture --test-threads 1
