#!/usr/bin/env bash
# Installs the Debian packages reading cards needs, and nothing else: pcscd (PC/SC readers), the
# libraries transit is built against (libpcsclite, libsqlite3 for the history archive, zlib for
# Metrodroid's zip exports, libusb-1.0 for Sony's RC-S380), pkg-config and make (the build),
# patchelf and python3 (make install). The tests' own tools come from scripts/test-setup.sh.
set -euo pipefail
packages=(libpcsclite-dev libsqlite3-dev zlib1g-dev libusb-1.0-0-dev pcscd pkg-config make patchelf python3)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
