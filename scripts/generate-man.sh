#!/usr/bin/env bash
# Writes transit(1)'s SYNOPSIS, COMMANDS, OPTIONS and EXIT STATUS (docs/man/transit.1) from
# transit's command and exit-status tables, as `transit completions SHELL` writes
# packaging/completions: each section, from its .SH line to the next, is replaced by what
# `transit __man-section NAME` prints; and docs/scripting-and-watch.md's exit-code table, between
# its markers, by `transit __man-section "EXIT STATUS" --markdown`. The
# rest is written by hand. ManAndCompletionTests fails until both hold exactly these.
#   scripts/generate-man.sh [TRANSIT]     (default: the debug build's transit; builds it first)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
    transit=$1
else
    swift build --product transit >&2
    transit="$(swift build --show-bin-path)/transit"
fi
page=docs/man/transit.1
for section in SYNOPSIS COMMANDS OPTIONS "EXIT STATUS"; do
    generated=$(mktemp)
    "$transit" __man-section "$section" > "$generated"
    grep -qx ".SH $section" "$page" || { echo "$page has no .SH $section" >&2; exit 1; }
    awk -v section=".SH $section" -v generated="$generated" '
        $0 == section { while ((getline line < generated) > 0) print line; skipping = 1; next }
        skipping && /^\.SH / { skipping = 0 }
        !skipping { print }
    ' "$page" > "$page.new"
    mv "$page.new" "$page"
    rm -f "$generated"
done
# The table: the lines between its two markers.
doc=docs/scripting-and-watch.md
begin="<!-- exit codes: written by scripts/generate-man.sh from transit's exit-status table -->"
end="<!-- end of the exit codes -->"
generated=$(mktemp)
"$transit" __man-section "EXIT STATUS" --markdown > "$generated"
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || { echo "$doc lacks the exit-code table's markers" >&2; exit 1; }
awk -v begin="$begin" -v end="$end" -v generated="$generated" '
    $0 == begin { print; while ((getline line < generated) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
' "$doc" > "$doc.new"
mv "$doc.new" "$doc"
rm -f "$generated"
echo "wrote the SYNOPSIS, COMMANDS, OPTIONS and EXIT STATUS of $page and the exit codes of $doc; scripts/translate-man.sh carries a change into docs/man/ja" >&2
