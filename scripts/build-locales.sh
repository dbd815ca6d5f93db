#!/usr/bin/env bash
# Compiles the message catalogs of po/LINGUAS (po/LANG.po, checked by msgfmt --check) into
# DEST/LANG/LC_MESSAGES/transit.mo (docs/translating.md).
#   scripts/build-locales.sh             the build tree's: .build/<triple>/share/locale, which a
#                                        transit in .build/<triple>/debug or release finds (bin/../share/locale)
#   scripts/build-locales.sh DEST        another folder (packaging/install.sh: PREFIX/share/locale)
# Needs msgfmt (gettext; scripts/setup.sh installs it). Each file is written whole, then renamed.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v msgfmt >/dev/null || { echo "build-locales: msgfmt is missing (sudo apt install gettext)" >&2; exit 1; }
if [ $# -ge 1 ]; then
    dest=$1
else
    bin=$(swift build --show-bin-path)
    dest=$(dirname "$bin")/share/locale
fi
while read -r lang; do
    case "$lang" in ''|\#*) continue ;; esac
    mkdir -p "$dest/$lang/LC_MESSAGES"
    tmp=$(mktemp "$dest/$lang/LC_MESSAGES/.transit.mo.XXXXXX")
    msgfmt --check -o "$tmp" "po/$lang.po"
    chmod 0644 "$tmp"
    mv -f "$tmp" "$dest/$lang/LC_MESSAGES/transit.mo"
done < po/LINGUAS
