#!/usr/bin/env bash
# Installs what the tests need besides what reading cards needs (scripts/setup.sh, run first):
#   vsmartcard-vpcd             the virtual reader of the simulator and the end-to-end tests
#   gcc                         the ABI tests build plugins in plain C
#   python3-pyscard             the benchmark's independent PC/SC client
#   umockdev, gir1.2-umockdev-1.0, python3-gi   the emulated RC-S380
#   lintian, systemd            the package tests (lintian, systemd-analyze security)
#   strace, time                threads a read starts; what a hostile file costs
#   chromium, poppler-utils, fonts-dejavu-core  report --format html printed to PDF and read back
#   hledger                     the ledger export checked by hledger itself
#   libofx-dev                  the report tests build a libofx reader of the OFX file (Debian ships no ofxdump)
#   zsh, fish, man-db, groff-base   the completion and man page checks
#   python3-venv                the tests' Python environment (below)
#   locales                     /usr/share/i18n, from which the Japanese tests compile ja_JP.UTF-8 into a private LOCPATH
#   po4a                        the Japanese man pages' check (scripts/translate-man.sh --check): make install
#                               copies the committed pages and needs no po4a
# Python tools from PyPI (ofxtools, the independent OFX parser of the report tests) go into a
# virtual environment, $TRANSIT_TEST_VENV (default .build/venv), never into the system Python;
# the tests run Python from it when it is there (BuildProducts.python).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
packages=(vsmartcard-vpcd gcc python3-pyscard umockdev gir1.2-umockdev-1.0 python3-gi lintian systemd strace time
          chromium poppler-utils fonts-dejavu-core hledger libofx-dev zsh fish man-db groff-base python3-venv locales po4a)
scripts/install-missing.sh test-setup "${packages[@]}"
# The venv sees Debian's Python packages (pyscard, gi) and adds PyPI's; made as the caller, no sudo.
venv=${TRANSIT_TEST_VENV:-.build/venv}
python=${PYTHON:-/usr/bin/python3}
if ! "$venv/bin/python3" -c 'import ofxtools' 2>/dev/null; then
    "$python" -m venv --system-site-packages "$venv"
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check ofxtools
fi
