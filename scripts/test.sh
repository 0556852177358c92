#!/usr/bin/env bash
# The whole test suite: unit, integration and doc tests of every crate, plus one quick pass
# of each benchmark (which checks the benchmarks' node counts).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --all-targets --locked
cargo test --workspace --doc --locked
