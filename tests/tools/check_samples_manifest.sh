#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The manifest (tests/samples.json) and the sample folder agree: `tools/fetch-samples --check`.
# Without the folder the check is skipped (exit 77), unless ETSCOPE_REQUIRE_SAMPLES=1.
# usage: check_samples_manifest.sh SOURCE_DIR SAMPLES_DIR (ETSCOPE_SAMPLES_DIR overrides it)
set -euo pipefail
samples=${ETSCOPE_SAMPLES_DIR:-$2}
if [ ! -d "$samples" ] && [ "${ETSCOPE_REQUIRE_SAMPLES:-}" != 1 ]; then
    echo "skipped: $samples is not a directory (tools/fetch-samples fetches the sample set)"
    exit 77
fi
exec "$1/tools/fetch-samples" --check --dest "$samples"
