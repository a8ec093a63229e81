#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs bench/bench_clicks.cpp (the app's window offscreen, real clicks on a group's ⊕, a
# delegate's ⊕, a search hit and a delegate's double-click) RUNS times per file and prints the
# median of each click phase and of its longest stall, in ms ("-": the file has no such click).
# Run under `chrt -f 1` on a quiet machine. Usage:
#   bench/click_timings.sh [BUILD_DIR] [RUNS] FILE…     (default build/release, 5 runs)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build/release}"
runs="${2:-5}"
shift $(( $# >= 2 ? 2 : $# )) || true
driver="${CLICKS_DRIVER:-$build/bench/etscope_bench_clicks}" # CLICKS_DRIVER: another build of it (before/after)
# A 1920×1200 screen: the main window opens at its 1400×900 (on the offscreen default of 800×600
# it would take nine tenths of that, and paint faster than any real window).
export QT_QPA_PLATFORM="offscreen:configfile=$here/bench/offscreen-screen.json"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
phases=(group-open delegate-expand search-jump delegate-tab)
printf "%-40s" file
for phase in "${phases[@]}"; do printf " %16s %8s" "$phase" stall; done
printf "\n"
for file in "$@"; do
    log=$(mktemp)
    for _ in $(seq "$runs"); do
        timeout 900 "$driver" --etscope "$build/app/etscope" "$file" 2>>"$log" >/dev/null \
            || echo "etscope timing: failed 1 ms" >>"$log"
    done
    median() { grep "etscope timing: $1 " "$log" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
    printf "%-40s" "$(basename "$file" | cut -c1-40)"
    for phase in "${phases[@]}"; do printf " %16s %8s" "$(median "$phase")" "$(median "$phase-stall")"; done
    printf "\n"
    grep -q "failed" "$log" && echo "  ^ some runs failed or timed out"
    rm -f "$log"
done
