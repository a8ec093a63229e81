#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/fetch-samples against a local mirror served over file:// (no network): a good file is
# fetched and verified, a wrong checksum, a truncated download and a file the mirror lacks are
# each refused with their reason and leave nothing behind, a correct file is kept, a damaged one
# is replaced, and --check finds a missing, a wrong and an unlisted file.
# usage: test_fetch_samples.sh SOURCE_DIR
set -euo pipefail
tool="$1/tools/fetch-samples"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$work/out"; exit 1; }

mirror="$work/mirror"
mkdir -p "$mirror/a" "$mirror/b"
printf 'good bytes\n' > "$mirror/a/good.pte"
printf 'the mirror holds other bytes' > "$mirror/a/wrong.pte"  # 28 bytes, the right size
printf 'trunc' > "$mirror/b/truncated.pte"          # the manifest says 16 bytes
printf 'generated etdump\n' > "$mirror/b/gen.etdp"
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
cat > "$work/manifest.json" <<JSON
{ "samples": [
  { "path": "a/good.pte", "repo": "o/r", "repo_path": "x/good.pte", "commit": "c0", "size": 11, "sha256": "$(sha $'good bytes\n')" },
  { "path": "a/wrong.pte", "repo": "o/r", "repo_path": "x/wrong.pte", "commit": "c0", "size": 28, "sha256": "$(sha 'something else entirely, 29b')" },
  { "path": "b/truncated.pte", "repo": "o/r", "repo_path": "x/t.pte", "commit": "c0", "size": 16, "sha256": "$(sha 'truncated bytes!')" },
  { "path": "b/absent.pte", "repo": "o/r", "repo_path": "x/a.pte", "commit": "c0", "size": 3, "sha256": "$(sha 'abc')" },
  { "path": "b/gen.etdp", "generated": "by a test", "size": 17, "sha256": "$(sha $'generated etdump\n')" }
] }
JSON
dest="$work/samples"

# 1. The first run: one good file and the generated one from the mirror, three refused.
status=0
"$tool" --manifest "$work/manifest.json" --dest "$dest" --from "file://$mirror" > "$work/out" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "exit status $status with files missing, expected 1"
grep -q '^fetched: a/good.pte$' "$work/out" || fail "good.pte not fetched"
grep -q '^fetched: b/gen.etdp$' "$work/out" || fail "gen.etdp not fetched from the mirror"
grep -q '^not fetched: a/wrong.pte .*sha256 .*the manifest says' "$work/out" || fail "wrong checksum not reported"
grep -q '^not fetched: b/truncated.pte .*5 bytes, the manifest says 16' "$work/out" || fail "truncation not reported"
grep -q '^not fetched: b/absent.pte from file://' "$work/out" || fail "a file the mirror lacks not reported"
grep -q '2 of 5 present and verified (2 fetched now), 3 missing' "$work/out" || fail "summary"
cmp -s "$dest/a/good.pte" "$mirror/a/good.pte" || fail "good.pte differs from the mirror"
for f in a/wrong.pte b/truncated.pte b/absent.pte; do [ ! -e "$dest/$f" ] || fail "$f was written although refused"; done
leftovers=$(find "$dest" -name '.fetch-samples.*' | wc -l)
[ "$leftovers" -eq 0 ] || fail "$leftovers temporary files left behind"

# 2. Without --from, a generated file has no public source: reported, never guessed.
rm "$dest/b/gen.etdp"
status=0
"$tool" --manifest "$work/manifest.json" --dest "$dest" > "$work/out" 2>&1 || status=$?
grep -q '^not fetched: b/gen.etdp has no public source' "$work/out" || fail "generated file without a mirror"

# 3. The mirror repaired: everything fetched; the correct file already there is kept untouched.
printf 'something else entirely, 29b' > "$mirror/a/wrong.pte"
printf 'truncated bytes!' > "$mirror/b/truncated.pte"
printf 'abc' > "$mirror/b/absent.pte"
touch -d '2001-01-01' "$dest/a/good.pte"
"$tool" --manifest "$work/manifest.json" --dest "$dest" --from "file://$mirror" > "$work/out" 2>&1 || fail "exit status $? with the mirror complete"
grep -q '5 of 5 present and verified (4 fetched now), 0 missing' "$work/out" || fail "summary after the repair"
[ "$(stat -c %Y "$dest/a/good.pte")" = "$(date -d '2001-01-01' +%s)" ] || fail "a correct file was rewritten"

# 4. A damaged file in place is replaced by a verified copy.
printf 'damaged!!!\n' > "$dest/a/good.pte"
"$tool" --manifest "$work/manifest.json" --dest "$dest" --from "file://$mirror" > "$work/out" 2>&1 || fail "repairing a damaged file"
grep -q '^fetched: a/good.pte$' "$work/out" || fail "damaged good.pte not refetched"
cmp -s "$dest/a/good.pte" "$mirror/a/good.pte" || fail "good.pte not repaired"

# 5. --check: complete, then a missing, a wrong and an unlisted file, each named.
"$tool" --manifest "$work/manifest.json" --dest "$dest" --check > "$work/out" 2>&1 || fail "--check on a complete set"
rm "$dest/b/absent.pte"
printf 'x' >> "$dest/a/wrong.pte"
printf 'stray' > "$dest/a/stray.pte"
status=0
"$tool" --manifest "$work/manifest.json" --dest "$dest" --check > "$work/out" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "--check exit status $status on an incomplete set"
grep -q '^missing: b/absent.pte$' "$work/out" || fail "--check: missing file"
grep -q '^wrong: a/wrong.pte (size 29' "$work/out" || fail "--check: wrong file"
grep -q '^not listed: a/stray.pte' "$work/out" || fail "--check: unlisted file"
grep -q 'fetch-samples: .* 3 of 5 present and verified (0 fetched now), 2 missing, 1 not listed' "$work/out" || fail "--check summary"

# 6. Usage errors exit 2.
status=0
"$tool" --bogus > "$work/out" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "unknown argument: exit status $status"
status=0
"$tool" --manifest "$work/nonexistent.json" --dest "$dest" --check > "$work/out" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "unreadable manifest: exit status $status"
echo "fetch-samples: every case holds"
