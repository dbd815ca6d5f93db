#!/usr/bin/env bash
# Writes transit(1)'s SYNOPSIS and OPTIONS (docs/man/transit.1) from transit's command table, as
# `transit completions SHELL` writes packaging/completions: each section, from its .SH line to
# the next, is replaced by what `transit __man-section NAME` prints. The rest of the page is
# written by hand. ManAndCompletionTests fails until the page holds exactly these sections.
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
for section in SYNOPSIS OPTIONS; do
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
echo "wrote the SYNOPSIS and OPTIONS of $page; scripts/translate-man.sh carries a change into docs/man/ja" >&2
