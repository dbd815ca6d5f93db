#!/usr/bin/env bash
# Removes exactly what `make install` installed, from its manifest, then transit's own folders
# when they are left empty. An edited plugins.conf is removed too (it is in the manifest); drop-in files an
# administrator added stay.
set -euo pipefail
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
manifest="$DESTDIR$PREFIX/lib/transit/install-manifest"
[ -f "$manifest" ] || { echo "uninstall: no $manifest: nothing was installed there" >&2; exit 1; }
mapfile -t files < "$manifest"
for f in "${files[@]}"; do rm -f -- "$DESTDIR$f"; done
# transit's own folders, deepest first, when nothing else is in them; shared ones (bin, share/man,
# lib/pkgconfig…) stay whatever they hold.
SYSCONFDIR=$([ "$PREFIX" = /usr ] && echo /etc || echo "$PREFIX/etc")
for d in "$PREFIX/lib/transit/plugins" "$PREFIX/lib/transit" "$PREFIX/include/transit" "$PREFIX/share/doc/transit" \
         "$SYSCONFDIR/transit/plugins.conf.d" "$SYSCONFDIR/transit"; do
    rmdir -- "$DESTDIR$d" 2>/dev/null || true
done
echo "removed transit from ${DESTDIR}${PREFIX}"
