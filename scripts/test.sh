#!/usr/bin/env bash
# Runs every test: unit, ABI (a C plugin built from the header), plugin and end-to-end tests
# (pcscd + vpcd + transit-sim; started here when not running, stopped afterwards).
# Installs what is missing first (scripts/test-setup.sh: what reading cards needs, the tests' tools,
# their Python environment in .build/venv), so it works on a fresh machine; .ci/run calls it.
# The tests run the built `transit`, `transit-sim` and plugin libraries, so build everything first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/test-setup.sh
swift build
# The build tree's message catalogs (.build/<triple>/share/locale), which its transit finds.
scripts/build-locales.sh
# The install tests stage `make install` and `make deb` from the release build (the suite cannot
# start a build of its own package), with the flags of what ships (scripts/reproducible-flags.sh).
mapfile -t reproducible < <(scripts/reproducible-flags.sh)
swift build -c release "${reproducible[@]}"
swift test --disable-swift-testing
