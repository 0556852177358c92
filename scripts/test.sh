#!/usr/bin/env bash
# The whole test suite: unit, integration and doc tests of every crate, one quick pass of
# each benchmark (which checks the benchmarks' node counts), and the browser tests of the
# web app (Chromium driven by playwright-core; see tests/browser/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --all-targets --locked
cargo test --workspace --doc --locked
cargo build -p bashni --locked
tests/browser/run.sh
