#!/usr/bin/env bash
# The hostile-USB fuzz at length (issue 36): mutated Port-100 answers from a device posing as an
# RC-S380, through the real driver in process (Tests/Host/TransitUSBTests/USBFuzzTests.swift).
# Every open, sense and read must end with a result or a documented error, by its deadline.
#   scripts/fuzz_usb.sh [RUNS] [SEED]      (default 10000 runs, seed 1)
# Needs a built test bundle: swift build --build-tests.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10000}"
seed="${2:-1}"
FUZZ_USB_RUNS="$runs" FUZZ_USB_SEED="$seed" \
    swift test --skip-build --filter 'TransitUSBTests.USBFuzzTests' 2>&1 | grep -E "USB fuzz:|error|passed|failed" 
