#!/usr/bin/env bash
# A longer seeded fuzz run of every plugin: scripts/fuzz.sh [ITERATIONS] [SEED]
# (the suite runs 10,000 mutated reads per captured card; this runs as many as you like).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
FUZZ_ITERATIONS="${1:-1000000}" FUZZ_SEED="${2:-$RANDOM$RANDOM}" \
    swift test --skip-build --disable-swift-testing --filter FuzzTests
