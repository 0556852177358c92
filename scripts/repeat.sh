#!/usr/bin/env bash
# Runs a benchmark command several times (RUNS, default 3) and prints its output once, each
# number in it replaced by the median of the runs and, when the runs differ, their spread:
# "p99 ack: 29.44 (27.71-38.88) ms". A figure seen once is not taken for the rule.
#   scripts/repeat.sh target/release/examples/load --server target/release/bashni \
#       --games 1000 --plies 40 --think-ms 1000 --bind-seat
# Lines are matched between runs by their words (the text with its numbers taken out) and
# their order among lines with the same words; a line that not every run printed is shown
# as the first run printed it, marked "(in 2 of 3 runs)" (lines only later runs printed are
# left out). Each run's whole output is kept in
# RUNS_DIR (default: a new folder under /tmp), whose name is printed at the end.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: RUNS=3 scripts/repeat.sh COMMAND [ARGS...]" >&2
  exit 2
fi
runs="${RUNS:-3}"
case "$runs" in
  ''|*[!0-9]*|0) echo "RUNS must be a whole number above 0, not '$runs'" >&2; exit 2 ;;
esac
dir="${RUNS_DIR:-$(mktemp -d /tmp/repeat.XXXXXX)}"
mkdir -p "$dir"
for i in $(seq 1 "$runs"); do
  echo "run $i of $runs: $*" >&2
  if ! "$@" > "$dir/run-$i.txt" 2> "$dir/run-$i.err"; then
    echo "run $i failed (exit status $?); its output is in $dir/run-$i.txt and .err" >&2
    exit 1
  fi
done
awk -v runs="$runs" '
  # The line with each number replaced by "#": what the runs have in common.
  function words(line,   out) {
    out = line
    gsub(/[0-9]+(\.[0-9]+)?/, "#", out)
    return out
  }
  function median(list, n,   sorted, i, j, t) {
    for (i = 1; i <= n; i++) sorted[i] = list[i] + 0
    for (i = 2; i <= n; i++) {
      t = sorted[i]
      for (j = i - 1; j >= 1 && sorted[j] > t; j--) sorted[j + 1] = sorted[j]
      sorted[j + 1] = t
    }
    if (n % 2) return sorted[(n + 1) / 2]
    return (sorted[n / 2] + sorted[n / 2 + 1]) / 2
  }
  # A number as the runs wrote it: as many decimals as the first run gave.
  function shown(value, like,   dot) {
    dot = index(like, ".")
    if (dot == 0) return sprintf("%d", value + (value < 0 ? -0.5 : 0.5))
    return sprintf("%." (length(like) - dot) "f", value)
  }
  FNR == 1 { run++; delete seen }
  {
    key = words($0)
    seen[key]++
    slot = key SUBSEP seen[key]
    count[slot]++
    line = $0
    k = 0
    while (match(line, /[0-9]+(\.[0-9]+)?/)) {
      k++
      value[slot, k, run] = substr(line, RSTART, RLENGTH)
      line = substr(line, RSTART + RLENGTH)
    }
    if (run == 1) { order[++lines] = slot; text[slot] = $0 }
  }
  END {
    for (l = 1; l <= lines; l++) {
      slot = order[l]
      if (count[slot] < runs) { print text[slot] " (in " count[slot] " of " runs " runs)"; continue }
      out = ""
      line = text[slot]
      k = 0
      while (match(line, /[0-9]+(\.[0-9]+)?/)) {
        k++
        out = out substr(line, 1, RSTART - 1)
        first = substr(line, RSTART, RLENGTH)
        lo = hi = value[slot, k, 1] + 0
        for (r = 1; r <= runs; r++) {
          list[r] = value[slot, k, r]
          if (list[r] + 0 < lo) lo = list[r] + 0
          if (list[r] + 0 > hi) hi = list[r] + 0
        }
        out = out shown(median(list, runs), first)
        if (lo != hi) out = out " (" shown(lo, first) "-" shown(hi, first) ")"
        line = substr(line, RSTART + RLENGTH)
      }
      print out line
    }
  }
' "$dir"/run-*.txt
echo "the runs' whole output: $dir" >&2
