#!/usr/bin/env bash
# Checks scripts/repeat.sh on a made-up benchmark whose three runs print known figures: the
# medians, the spreads, the figures that did not change and a failing run.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/bench.sh" <<'BENCH'
#!/usr/bin/env bash
n=$(( $(cat "$1/n" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$1/n"
p99=(0 38.88 29.44 27.71)
echo "games: 1000, plies 40"
echo "p99 ack: ${p99[$n]} ms, lost 0"
echo "largest WAL: $(( 70 + n )) MB"
BENCH
chmod +x "$work/bench.sh"
got="$(RUNS_DIR="$work/runs" scripts/repeat.sh "$work/bench.sh" "$work" 2>/dev/null)"
want="games: 1000, plies 40
p99 ack: 29.44 (27.71-38.88) ms, lost 0
largest WAL: 72 (71-73) MB"
if [ "$got" != "$want" ]; then
  printf 'repeat.sh printed:\n%s\nbut should have printed:\n%s\n' "$got" "$want" >&2
  exit 1
fi
if RUNS=2 scripts/repeat.sh false 2>/dev/null; then
  echo "repeat.sh did not fail when its command failed" >&2
  exit 1
fi
echo "repeat.sh: ok"
