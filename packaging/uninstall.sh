#!/usr/bin/env bash
# Removes exactly what `make install` installed, from its manifest, then the folders it made that
# are left empty. An edited plugins.conf is removed too (it is in the manifest); drop-in files an
# administrator added stay.
set -euo pipefail
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
manifest="$DESTDIR$PREFIX/lib/transit/install-manifest"
[ -f "$manifest" ] || { echo "uninstall: no $manifest: nothing was installed there" >&2; exit 1; }
mapfile -t files < "$manifest"
for f in "${files[@]}"; do rm -f -- "$DESTDIR$f"; done
# Folders that held what was installed, deepest first, when nothing else is in them.
for f in "${files[@]}"; do dirname -- "$f"; done | sort -u | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2- |
    while read -r d; do
        while [ "$d" != "$PREFIX" ] && [ "$d" != / ] && rmdir -- "$DESTDIR$d" 2>/dev/null; do d=$(dirname -- "$d"); done
    done
echo "removed transit from ${DESTDIR}${PREFIX}"
