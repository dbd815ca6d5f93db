#!/usr/bin/env bash
# Installs the Debian packages transit needs: libpcsclite (build), pcscd and the vsmartcard vpcd
# driver (end-to-end tests and the simulator), a C compiler (the ABI test builds a C plugin),
# libsqlite3 (build: the history archive), zlib (build: Metrodroid's zip exports), lintian and
# systemd (the package tests: lintian, systemd-analyze security), strace (threads a read starts), time
# (what a hostile file costs), libusb-1.0 (build: the Sony RC-S380 over USB) and umockdev with its
# GObject bindings for Python (the emulated RC-S380 of the end-to-end tests), chromium,
# poppler-utils and a font (report --format html printed to PDF and read back), libofx-dev (the
# report tests build a libofx reader of the OFX file: Debian ships no ofxdump), and python3-pip for
# ofxtools (PyPI), the independent OFX parser of the report tests.
set -euo pipefail
packages=(libpcsclite-dev libsqlite3-dev zlib1g-dev pcscd vsmartcard-vpcd gcc python3 python3-pyscard patchelf pkg-config make
          lintian systemd strace time libusb-1.0-0-dev umockdev gir1.2-umockdev-1.0 python3-gi chromium poppler-utils fonts-dejavu-core
          libofx-dev python3-pip)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# ofxtools is on PyPI only: installed for Debian's python3 (the tests run /usr/bin/python3).
if ! /usr/bin/python3 -c 'import ofxtools' 2>/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd /usr/bin/python3 -m pip install --quiet --break-system-packages ofxtools
fi
