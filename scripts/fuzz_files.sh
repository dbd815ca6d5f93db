#!/usr/bin/env bash
# A longer seeded structure-aware fuzz run of the dump formats (XML, zip, FareBot, Metrodroid):
#   scripts/fuzz_files.sh [ITERATIONS] [SEED]
# (the suite runs 2,000; FileFuzzTests.testStructureAwareMutationsOfEveryDumpFormat prints the
# outcomes and the slowest file; a trap ends the run with the file's seed and index in its output).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
FUZZ_FILE_ITERATIONS="${1:-50000}" FUZZ_FILE_SEED="${2:-$RANDOM$RANDOM}" \
    swift test --skip-build --disable-swift-testing --filter FileFuzzTests.testStructureAwareMutationsOfEveryDumpFormat
