#!/usr/bin/env bash
# Removes exactly what `make install` installed, from its manifest, then transit's own folders
# when they are left empty. An edited plugins.conf is removed too (it is in the manifest); drop-in files an
# administrator added stay.
set -euo pipefail
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
manifest="$DESTDIR$PREFIX/lib/transit/install-manifest"
[ -f "$manifest" ] || { echo "uninstall: no $manifest: nothing was installed there" >&2; exit 1; }
SYSCONFDIR=$([ "$PREFIX" = /usr ] && echo /etc || echo "$PREFIX/etc")
# The one file installed outside PREFIX and its etc: the udev rule, where udev reads it (install.sh);
# an install before it covered the RC-S330/360/370 too lists it under its former name.
UDEVRULES=$([ "$PREFIX" = /usr ] && echo /usr/lib/udev/rules.d || echo /etc/udev/rules.d)
UDEVRULE=$UDEVRULES/60-transit-pasori.rules FORMERRULE=$UDEVRULES/60-transit-rcs380.rules
mapfile -t files < "$manifest"
# Only files under PREFIX or its configuration folder: a manifest is a file anyone with write
# access to PREFIX could have edited, and names nothing else to delete.
for f in "${files[@]}"; do
    case "$f" in
        *..*) echo "uninstall: $f: not removed (a path with ..)" >&2 ;;
        "$PREFIX"/*|"$SYSCONFDIR"/*|"$UDEVRULE"|"$FORMERRULE") rm -f -- "$DESTDIR$f" ;;
        *) echo "uninstall: $f: not removed (not under $PREFIX or $SYSCONFDIR)" >&2 ;;
    esac
done
# transit's own folders, deepest first, when nothing else is in them; shared ones (bin, share/man,
# share/pkgconfig…) stay whatever they hold. A translated page's share/man/LANG/manN and
# share/man/LANG go too when left empty (install.sh may have made them for transit's pages alone).
for f in "${files[@]}"; do
    case "$f" in
        *..*) ;;
        "$PREFIX"/share/man/*/man*/*) rmdir -- "$DESTDIR${f%/*}" "$DESTDIR${f%/*/*}" 2>/dev/null || true ;;
    esac
done
for d in "$PREFIX/lib/transit/plugins" "$PREFIX/lib/transit" "$PREFIX/include/transit" "$PREFIX/share/doc/transit/examples" "$PREFIX/share/doc/transit" \
         "$SYSCONFDIR/transit/plugins.conf.d" "$SYSCONFDIR/transit"; do
    rmdir -- "$DESTDIR$d" 2>/dev/null || true
done
echo "removed transit from ${DESTDIR}${PREFIX}"
