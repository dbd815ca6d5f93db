#!/usr/bin/env bash
# Runs every test: unit, ABI (a C plugin built from the header), plugin and end-to-end tests
# (pcscd + vpcd + transit-sim; started here when not running, stopped afterwards).
# The tests run the built `transit`, `transit-sim` and plugin libraries, so build everything first.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test
