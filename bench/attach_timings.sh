#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# UI-thread stalls while attaching a large Inspector table (issue 27 #13): writes a table of ROWS
# rows (as pandas' df.to_csv() writes the Inspector's numeric-gap frame: handles 1…40 in turn,
# two-element tensors, a one-element gap list; about 127 bytes a row), opens PROGRAM with it in
# the app offscreen (`etscope --timings --quit-after-paint PROGRAM TABLE`) RUNS times and prints
# the median of each phase. longest-stall is the longest the event loop did not turn from
# start until the table's heat map is shown.
# Usage: bench/attach_timings.sh [ETSCOPE] [RUNS] [ROWS] [PROGRAM]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
etscope="${1:-$here/build/release/app/etscope}"
runs="${2:-3}"
rows="${3:-1000000}"
program="${4:-${ETSCOPE_SAMPLES_DIR:-$here/../shared/samples}/djl-executorch-engine/stress_mlp.pte}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table="$work/gap.csv"
awk -v rows="$rows" 'BEGIN {
    print ",aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,runtime_debug_handle,runtime_intermediate_output,gap"
    for (i = 0; i < rows; ++i) {
        h = i % 40 + 1
        printf "%d,\"(%d,)\",[\x27aten_linear_default\x27],\"tensor([1.0000, 2.0000])\",[\x27DELEGATE_CALL\x27],\"(%d,)\",\"tensor([1.0000, 2.5000])\",[%.6g]\n", i, h, h, (i % 997) / 99700.0
    }
}' >"$table"
# A 1920×1200 screen: the main window opens at its 1400×900 (on the offscreen default of 800×600
# it would take nine tenths of that, and paint faster than any real window).
export QT_QPA_PLATFORM="offscreen:configfile=$here/bench/offscreen-screen.json"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$work}"
log="$work/log"
for _ in $(seq "$runs"); do
    timeout 900 "$etscope" --timings --quit-after-paint "$program" "$table" 2>>"$log" >/dev/null \
        || echo "etscope timing: failed 1 ms" >>"$log"
done
median() { grep "etscope timing: $1 " "$log" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
printf "%s rows, %s bytes, %s runs\n" "$rows" "$(stat -c %s "$table")" "$runs"
for phase in first-paint heat-table attach attach-stall longest-stall; do
    printf "%-14s %10s ms\n" "$phase" "$(median "$phase")"
done
grep -q "failed" "$log" && echo "some runs failed or timed out"
exit 0
