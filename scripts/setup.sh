#!/usr/bin/env bash
# Installs the Debian packages reading cards needs, and nothing else: pcscd (PC/SC readers), the
# libraries transit is built against (libpcsclite, libsqlite3 for the history archive, zlib for
# Metrodroid's zip exports, libusb-1.0 for Sony's RC-S380), pkg-config and make (the build),
# patchelf and python3 (make install), gettext (msgfmt: the message catalogs of po/). The tests' own tools come from scripts/test-setup.sh.
set -euo pipefail
packages=(libpcsclite-dev libsqlite3-dev zlib1g-dev libusb-1.0-0-dev pcscd pkg-config make patchelf python3 gettext)
"$(dirname "$0")/install-missing.sh" setup "${packages[@]}"
