#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another, starting from the
# committed seeds and the local corpus, and reports the CPU seconds each used and whether it
# found anything. Exits non-zero if any target crashed; the input is in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh            # 60 s per target
#   scripts/fuzz.sh 15         # the short CI run
#   TARGETS="pdn protocol" scripts/fuzz.sh 600
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); it works on stable Rust with
# `--sanitizer none`, which this script uses. See fuzz/README.md.
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: scripts/fuzz.sh [SECONDS]   (a whole number of seconds per target)" >&2
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "scripts/fuzz.sh: cargo-fuzz is missing; install it with: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"
targets="${TARGETS:-position_text move_text pdn protocol server_messages random_play}"
flags=(--sanitizer none --debug-assertions)

echo "building the fuzz targets"
cargo fuzz build "${flags[@]}" >/dev/null

# CPU seconds (user + system) used so far by this script's finished children, into $cpu_now.
# `times` runs in this shell (not in a subshell, which would not see the children).
times_file="$(mktemp)"
trap 'rm -f "$times_file"' EXIT
children_cpu() {
    times >"$times_file"
    cpu_now="$(awk 'NR == 2 {
        total = 0
        for (i = 1; i <= 2; i++) {
            split($i, part, "m"); sub("s", "", part[2]); total += part[1] * 60 + part[2]
        }
        printf "%.1f", total
    }' "$times_file")"
}

failed=()
summary=()
for target in $targets; do
    mkdir -p "corpus/$target" "artifacts/$target"
    log="$(mktemp)"
    children_cpu
    before="$cpu_now"
    status=0
    # The corpus directory comes first, so new inputs go there; the seeds are read only.
    cargo fuzz run "${flags[@]}" "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
    children_cpu
    cpu="$(awk -v a="$before" -v b="$cpu_now" 'BEGIN { printf "%.1f", b - a }')"
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")"
    if [ "$status" -eq 0 ]; then
        found="nothing"
    else
        found="CRASH (exit $status), see fuzz/artifacts/$target/"
        failed+=("$target")
        grep -E 'panicked at|ERROR: libFuzzer|SUMMARY' "$log" | head -5 >&2 || true
    fi
    summary+=("$(printf '%-16s %8s s CPU %10s runs   %s' "$target" "$cpu" "$runs" "$found")")
    rm -f "$log"
done

echo
echo "target           CPU time       executions   found"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi
