#!/usr/bin/env bash
# The flags of a release build that ships (make, scripts/test.sh, scripts/check-reproducible.sh,
# the benchmark), one a line, for this checkout:
#   swift build -c release $(scripts/reproducible-flags.sh)
# Shipped code names no build folder (docs/install.md, reproducible builds): paths in debug info
# and #file are written relative to the package (-file-prefix-map; clang's for the C targets).
# Without incremental LLVM codegen no `.swift_modhash` section is written: its hash of each
# module's IR differs from one build folder to another (scripts/check-reproducible.sh).
# They are passed here, not in Package.swift: SwiftPM refuses a target with `unsafeFlags` in a
# package another depends on by version (`.package(url:from:)`), as a plugin's package depends on
# PluginKit (docs/plugins.md).
set -euo pipefail
# SwiftPM names the package by its real path (getcwd), so the map does too.
root=$(cd "$(dirname "$0")/.." && pwd -P)
printf '%s\n' -Xswiftc -file-prefix-map -Xswiftc "$root=." \
    -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen \
    -Xcc "-ffile-prefix-map=$root=."
