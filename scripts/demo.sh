#!/usr/bin/env bash
# Fresh machine to first read: installs what is missing, builds, and scans the bundled sample
# card image through the real plugin pipeline (plugins.conf order, dlopen'ed plugins).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build
# --no-save: the sample card is not kept in your history archive (transit history)
.build/debug/transit scan --config plugins.conf --no-save --card samples/suica.json
