#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Opens every program under ../shared/samples (or the files given) in the app offscreen with
# --timings --quit-after-paint, RUNS times each, and prints the median of every phase per file.
# Usage: bench/sample_timings.sh [ETSCOPE] [RUNS] [FILE…]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
etscope="${1:-$here/build/release/app/etscope}"
runs="${2:-5}"
shift $(( $# >= 2 ? 2 : $# )) || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    mapfile -t files < <(find "$here/../shared/samples" -name '*.pte' -o -name '*.bpte' | sort)
fi
# A 1920×1200 screen: the main window opens at its 1400×900 (on the offscreen default of 800×600
# it would take nine tenths of that, and paint faster than any real window).
export QT_QPA_PLATFORM="offscreen:configfile=$here/bench/offscreen-screen.json"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
printf "%-48s %8s %8s %8s %8s %8s %8s %8s %8s\n" file startup open graph layout scene first-paint stall rss_MiB
for file in "${files[@]}"; do
    log=$(mktemp)
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "etscope timing: rss %M kB" timeout 120 "$etscope" --timings --quit-after-paint "$file" \
            2>>"$log" >/dev/null || echo "etscope timing: failed 1 ms" >>"$log"
    done
    median() { grep "etscope timing: $1 " "$log" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
    rss=$(median rss)
    printf "%-48s %8s %8s %8s %8s %8s %8s %8s %8s\n" "$(basename "$(dirname "$file")")/$(basename "$file" | cut -c1-30)" \
        "$(median startup)" "$(median open)" "$(median graph)" "$(median layout)" "$(median scene)" \
        "$(median first-paint)" "$(median longest-stall)" "$( [ "$rss" = - ] && echo - || echo $((rss / 1024)))"
    grep -q "failed" "$log" && echo "  ^ some runs failed or timed out"
    rm -f "$log"
done
