#!/usr/bin/env bash
# Compiles the message catalogs of po/LINGUAS (po/LANG.po, checked by msgfmt --check) into
# DEST/LANG/LC_MESSAGES/transit.mo, and each family's (po/plugins/FAMILY/LANG.po, the words its
# plugin marks) into DEST/LANG/LC_MESSAGES/transit-FAMILY.mo (docs/translating.md, docs/ABI.md).
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
# compile PO DOMAIN LANG: PO into DEST/LANG/LC_MESSAGES/DOMAIN.mo.
compile() {
    mkdir -p "$dest/$3/LC_MESSAGES"
    tmp=$(mktemp "$dest/$3/LC_MESSAGES/.$2.mo.XXXXXX")
    msgfmt --check -o "$tmp" "$1"
    chmod 0644 "$tmp"
    mv -f "$tmp" "$dest/$3/LC_MESSAGES/$2.mo"
}
while read -r lang; do
    case "$lang" in ''|\#*) continue ;; esac
    compile "po/$lang.po" transit "$lang"
    for po in po/plugins/*/"$lang.po"; do
        [ -e "$po" ] || continue
        family=$(basename "$(dirname "$po")")
        compile "$po" "transit-$family" "$lang"
    done
done < po/LINGUAS
