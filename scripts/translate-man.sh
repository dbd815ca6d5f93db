#!/usr/bin/env bash
# The translated man pages, kept in step with the English ones of docs/man as Debian's translators
# keep theirs: po4a (po/man/po4a.cfg) extracts each English page into po/man/PAGE.pot, merges that
# into each language's po/man/PAGE.LANG.po (a changed English paragraph comes back untranslated or
# fuzzy) and writes docs/man/LANG/PAGE only when every entry is translated (docs/translating.md).
#   scripts/translate-man.sh           update po/man and docs/man/LANG here, then say what is
#                                      left to translate (exit 1 while anything is)
#   scripts/translate-man.sh --check   the same in a scratch folder, changing nothing here: fails
#                                      when an entry is untranslated or fuzzy, or when po/man or
#                                      docs/man/LANG is not what po4a writes from docs/man
# The translated pages are committed, as the English ones are: `make install` and `make deb` copy
# them and need no po4a. Needs po4a and gettext (scripts/test-setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=update
case "${1:-}" in
    '') ;;
    --check) mode=check ;;
    *) echo "usage: scripts/translate-man.sh [--check]" >&2; exit 2 ;;
esac
for tool in po4a msgattrib msgfmt; do
    command -v "$tool" >/dev/null || { echo "translate-man: $tool is missing (sudo apt install po4a gettext; scripts/test-setup.sh installs them)" >&2; exit 1; }
done
config=po/man/po4a.cfg
langs=$(sed -n 's/^\[po4a_langs\] *//p' "$config")
pages=$(sed -n 's/^\[type: man\] *docs\/man\/\([^ ]*\) .*/\1/p' "$config")

root=.
if [ "$mode" = check ]; then
    root=$(mktemp -d)
    trap 'rm -rf "$root"' EXIT
    mkdir -p "$root/docs/man" "$root/po"
    for page in $pages; do cp "docs/man/$page" "$root/docs/man/"; done
    cp -r po/man "$root/po/"
fi
# po4a is quiet on success; it says "Discard" for a page it does not write (below 100%).
( cd "$root" && po4a --quiet "$config" ) >&2

# Every entry of every PO translated and not fuzzy, and each PO well formed.
status=0
for lang in $langs; do
    for page in $pages; do
        po="po/man/$page.$lang.po"
        msgfmt --check -o /dev/null "$root/$po" || { echo "translate-man: $po: msgfmt --check fails" >&2; status=1; }
        for kind in untranslated fuzzy; do
            flag=--untranslated
            [ "$kind" = fuzzy ] && flag=--only-fuzzy
            # Each entry's msgid on one line (the header, msgid "", is not an entry).
            entries=$(msgattrib "$flag" --no-obsolete --no-wrap "$root/$po" | awk '
                /^msgid / { id = substr($0, 8); inid = 1; next }
                inid && /^"/ { id = id $0; next }
                inid { inid = 0; gsub(/^"|"$/, "", id); gsub(/""/, "", id); if (id != "") print id }')
            [ -z "$entries" ] && continue
            status=1
            echo "translate-man: $po: $(printf '%s\n' "$entries" | wc -l) $kind (docs/man/$page changed):" >&2
            printf '%s\n' "$entries" | cut -c1-160 | sed 's/^/    /' >&2
        done
        [ -f "$root/docs/man/$lang/$page" ] || { echo "translate-man: docs/man/$lang/$page: not written (po4a writes a page only when its PO is complete)" >&2; status=1; }
    done
done
if [ "$status" -ne 0 ]; then
    echo "translate-man: translate those entries in po/man/*.po (remove each #, fuzzy flag), then run scripts/translate-man.sh" >&2
    exit 1
fi
if [ "$mode" = check ]; then
    # What is committed is what po4a writes (po4a leaves a file alone when only its date would change).
    for file in po/man/*.pot po/man/*.po $(for lang in $langs; do for page in $pages; do echo "docs/man/$lang/$page"; done; done); do
        cmp -s "$file" "$root/$file" || { echo "translate-man: $file is not what po4a writes from docs/man: run scripts/translate-man.sh and commit the result" >&2; status=1; }
    done
    exit "$status"
fi
echo "translate-man: every entry translated; wrote$(for lang in $langs; do printf ' docs/man/%s' "$lang"; done)" >&2
