#!/usr/bin/env bash
# A longer seeded fuzz run of every plugin: scripts/fuzz.sh [ITERATIONS] [SEED]
# (the suite runs 10,000 mutated reads per captured card and 150 per sample of the newer families,
# 3,000 in all; this runs as many as you like: ITERATIONS per capture, ITERATIONS / 100 per sample).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
iterations="${1:-1000000}"
FUZZ_ITERATIONS="$iterations" FUZZ_FAMILY_READS="$(( iterations / 100 > 1 ? iterations / 100 : 1 ))" FUZZ_SEED="${2:-$RANDOM$RANDOM}" \
    swift test --skip-build --disable-swift-testing --filter FuzzTests
