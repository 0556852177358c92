#!/usr/bin/env bash
# The whole test suite: unit, integration and doc tests of every crate, one quick pass of
# each benchmark (which checks the benchmarks' node counts), a short load run against the
# server with a kill and restart in the middle, a cluster run (three servers on PostgreSQL
# behind HAProxy, one killed), and the browser tests of the web app
# (Chromium driven by playwright-core; see tests/browser/run.sh), after the unit tests of the
# page's modules (node --test tests/web).
# First scripts/setup.sh makes sure Chromium, Node and the browser tests' packages are there
# (installing them as root on Debian), or stops before any build with what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
BASHNI_SETUP_NAME=scripts/test.sh scripts/setup.sh
target="${CARGO_TARGET_DIR:-target}"
cargo test --workspace --all-targets --locked
cargo test --workspace --doc --locked
cargo build -p bashni -p bashni-server --examples --bins --locked
# Load smoke run: 20 games over WebSocket, the server killed (SIGKILL) and restarted after
# 2.5 s; fails if an acknowledged move is lost or a game's PDN differs from what clients saw.
"$target/debug/examples/load" --server "$target/debug/bashni" --games 20 --plies 40 \
    --think-ms 100 --kill-after-ms 2500 --bind-seat
# Cluster smoke run: three servers on a throw-away PostgreSQL behind HAProxy, one killed
# (SIGKILL, for good) after 3 s; fails if an acknowledged move is lost, a PDN differs from
# what clients saw, or a game was told of two moves at one ply.
scripts/cluster-load.sh --server "$target/debug/bashni" --games 30 --plies 30 --think-ms 100 \
    --bind-seat --kill-instance-after-ms 3000
# Lobby smoke run: 100 lobby sockets, 10 of them posting and cancelling seeks, 20 changes a
# second for 3 s; fails if a socket misses a change.
"$target/debug/examples/lobby_load" --server "$target/debug/bashni" --sockets 100 --posters 10 \
    --rate 20 --duration-ms 3000 --settle-ms 1000
scripts/repeat-test.sh
node --test tests/web/
tests/browser/run.sh
