#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the .deb with CPack, unpacks it into a temporary root with dpkg-deb -x and runs the
# installed binary from there: --version, info on a real sample, and a headless export that
# needs Graphviz's dot plugin to be found from the installed location.
# The real sample is optional: without it (and without ETSCOPE_REQUIRE_SAMPLES=1) the installed
# binary is tried on the bundled demo only, and the test says so.
# usage: test_deb.sh BUILD_DIR SAMPLES_DIR (ETSCOPE_SAMPLES_DIR in the environment overrides it)
set -euo pipefail
build=$1
samples=${ETSCOPE_SAMPLES_DIR:-$2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -B "$work/out" > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/etscope_*.deb)
echo "package: $(basename "$deb")"

fields=$(dpkg-deb -f "$deb" Package Version Architecture Depends)
echo "$fields"
grep -q '^Package: etscope$' <<< "$fields"
grep -q 'libgvc6' <<< "$fields"
grep -q 'libqt6widgets6' <<< "$fields" || { echo "Depends lacks the Qt libraries found by dpkg-shlibdeps"; exit 1; }

root="$work/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/etscope usr/share/applications/etscope.desktop usr/share/mime/packages/etscope.xml \
         usr/share/metainfo/io.etscope.ETScope.metainfo.xml usr/share/icons/hicolor/scalable/apps/etscope.svg \
         usr/share/man/man1/etscope.1.gz; do
    [ -e "$root/$f" ] || { echo "missing in the package: /$f"; exit 1; }
done
for f in demo.pte demo.etdp demo.debug.bin demo.reference.etdp demo.reference.debug.bin; do
    [ -s "$root/usr/share/etscope/demo/$f" ] || { echo "missing in the package: the bundled demo's $f"; exit 1; }
done

bin="$root/usr/bin/etscope"
version=$("$bin" --version)
echo "$version"
grep -q '^etscope [0-9]' <<< "$version"
# A headless export with delegates expanded needs Graphviz's plugins from the installed location.
env -u DISPLAY "$bin" export "$root/usr/share/etscope/demo/demo.pte" -o "$work/demo.svg" --expand all
grep -q 'XNN' "$work/demo.svg"
sample="$samples/djl-executorch-engine/stress_mlp.pte"
if [ -f "$sample" ]; then
    "$bin" info "$sample" --json > "$work/info.json"
    grep -q '"backend_id": "XnnpackBackend"' "$work/info.json"
    env -u DISPLAY "$bin" export "$sample" -o "$work/graph.svg" --expand all
    grep -q 'XNNFullyConnected' "$work/graph.svg"
elif [ "${ETSCOPE_REQUIRE_SAMPLES:-}" = 1 ]; then
    echo "the real-file part needs the sample set: $sample is missing (tools/fetch-samples)"
    exit 1
else
    echo "the real-file part skipped: $sample is missing (tools/fetch-samples fetches the sample set)"
fi
# The installed demo opens, and its ETDump pair gives a gap table.
# (into files: grep -q on a pipe closes it early, and pipefail would report etscope's SIGPIPE)
"$bin" info "$root/usr/share/etscope/demo/demo.pte" --json > "$work/demo.json"
grep -q '"backend_id": "AcmeNpuBackend"' "$work/demo.json"
"$bin" gap "$root/usr/share/etscope/demo/demo.pte" --etdump "$root/usr/share/etscope/demo/demo.etdp" \
    --reference "$root/usr/share/etscope/demo/demo.reference.etdp" --format csv > "$work/gap.csv"
grep -q 'AcmeNpuBackend' "$work/gap.csv"

if command -v desktop-file-validate > /dev/null; then desktop-file-validate "$root/usr/share/applications/etscope.desktop"; fi
if command -v appstreamcli > /dev/null; then appstreamcli validate --no-net --explain "$root/usr/share/metainfo/io.etscope.ETScope.metainfo.xml"; fi
if command -v xmllint > /dev/null; then xmllint --noout "$root/usr/share/mime/packages/etscope.xml"; fi
man -l "$root/usr/share/man/man1/etscope.1.gz" > /dev/null 2>&1 || zcat "$root/usr/share/man/man1/etscope.1.gz" | grep -q '^\.SH NAME'
echo "the package installs and runs"
