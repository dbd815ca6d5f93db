#!/usr/bin/env bash
# Installs the release build (BIN) into DESTDIR + PREFIX; `make install` calls it.
#   bin/transit, bin/transit-sim                       RUNPATH $ORIGIN/../lib/transit
#   lib/transit/plugins/libTransit*.so                 RUNPATH $ORIGIN/..
#   lib/transit/lib*.so                                the Swift runtime they need, RUNPATH $ORIGIN
#   etc/transit/plugins.conf (/etc/transit when PREFIX is /usr), plugins.conf.d/
#   60-transit-pasori.rules, the udev rule for Sony's PaSoRi readers (RC-S380, RC-S330/360/370), where
#   udev reads it: /usr/lib/udev/rules.d when PREFIX is /usr, /etc/udev/rules.d otherwise (udev reads
#   no rules under /usr/local), replacing 60-transit-rcs380.rules, its former name, there; and
#   the group it names, transit, as the .deb creates it (not for a staged install: DESTDIR)
#   share/man (and share/man/LANG: the translated pages of docs/man/LANG), share/bash-completion,
#   share/zsh, share/fish, share/doc/transit
#   share/locale/LANG/LC_MESSAGES/transit.mo       the message catalogs of po/ (msgfmt --check)
#   share/locale/LANG/LC_MESSAGES/transit-FAMILY.mo  a family's words, po/plugins/FAMILY/ (docs/ABI.md)
#   share/doc/transit/examples (the sample card images, and myfamily.c with its card image myfamily.json,
#   the plugin example of ABI.md)
#   include/transit/transit_reader.h, share/pkgconfig/transit-plugin.pc (arch-independent)
# Every ELF file is stripped as debhelper's dh_strip does (symbols and debug info name the build
# folder and the toolchain). No installed file names the toolchain or the build folder. The list of installed files goes to
# lib/transit/install-manifest, which `make uninstall` follows.
set -euo pipefail
umask 022 # installed folders and files readable by every user, whatever the caller's umask
cd "$(dirname "$0")/.."
: "${BIN:?BIN: the release build folder (swift build -c release --show-bin-path)}"
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
SYSCONFDIR=$([ "$PREFIX" = /usr ] && echo /etc || echo "$PREFIX/etc")
# UDEVRULESDIR: only for an install into a test's throwaway prefix (the rule's folder outside it).
UDEVRULESDIR=${UDEVRULESDIR:-$([ "$PREFIX" = /usr ] && echo /usr/lib/udev/rules.d || echo /etc/udev/rules.d)}
command -v patchelf >/dev/null || { echo "install: patchelf is missing (scripts/setup.sh installs it)" >&2; exit 1; }

# Before anything is installed: every library the binaries and plugins load must be found (a
# build whose toolchain moved, or is not on the loader's path, would install a transit that fails
# with "libswiftCore.so: cannot open shared object file"), and the Swift runtime must be a folder
# holding libswiftCore.so, which is copied beside them.
missing=$(ldd "$BIN/transit" "$BIN/transit-sim" "$BIN"/libTransit*.so 2>/dev/null | awk '/=> not found/ { print $1 }' | sort -u | tr '\n' ' ')
if [ -n "$missing" ]; then
    echo "install: the build in $BIN needs ${missing}which the loader cannot find: nothing installed." >&2
    echo "install: build again with the Swift toolchain in place (make), or put its lib/swift/linux on LD_LIBRARY_PATH for make install." >&2
    exit 1
fi
runtime=$(ldd "$BIN/transit" | awk '$1 == "libswiftCore.so" && $3 ~ /^\// { print $3 }')
runtime=${runtime%/libswiftCore.so}
if [ -z "$runtime" ] || [ ! -f "$runtime/libswiftCore.so" ]; then
    echo "install: cannot find the Swift runtime (libswiftCore.so) of $BIN/transit: nothing installed." >&2
    exit 1
fi

manifest=()
put() { # put MODE SOURCE TARGET (TARGET without DESTDIR)
    install -D -m "$1" "$2" "$DESTDIR$3"
    manifest+=("$3")
}

# put_elf MODE SOURCE TARGET RUNPATH: stripped as dh_strip does, RUNPATH relative to the file,
# and a build ID of what is shipped (set-build-id.py: the same source gives the same file).
put_elf() {
    put "$1" "$2" "$3"
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$DESTDIR$3"
    patchelf --set-rpath "$4" "$DESTDIR$3"
    python3 packaging/set-build-id.py "$DESTDIR$3"
}

put_elf 0755 "$BIN/transit" "$PREFIX/bin/transit" '$ORIGIN/../lib/transit'
put_elf 0755 "$BIN/transit-sim" "$PREFIX/bin/transit-sim" '$ORIGIN/../lib/transit'
for lib in "$BIN"/libTransit*.so; do
    put_elf 0644 "$lib" "$PREFIX/lib/transit/plugins/$(basename "$lib")" '$ORIGIN/..'
done

# The Swift runtime (found above): every library the binaries and plugins load from it, and theirs.
for lib in $(ldd "$BIN/transit" "$BIN/transit-sim" "$BIN"/libTransit*.so | awk -v r="$runtime/" 'index($3, r) == 1 { print $3 }' | sort -u); do
    put_elf 0644 "$lib" "$PREFIX/lib/transit/$(basename "$lib")" '$ORIGIN'
done

put 0644 plugins.conf "$SYSCONFDIR/transit/plugins.conf"
put 0644 packaging/udev/60-transit-pasori.rules "$UDEVRULESDIR/60-transit-pasori.rules"
# The rule's former name (until it covered the RC-S330/360/370 too), which an earlier make install
# put in the same folder: an upgrade leaves the one rule, not both.
if [ -e "$DESTDIR$UDEVRULESDIR/60-transit-rcs380.rules" ]; then
    rm -f -- "$DESTDIR$UDEVRULESDIR/60-transit-rcs380.rules"
    echo "removed $DESTDIR$UDEVRULESDIR/60-transit-rcs380.rules: 60-transit-pasori.rules replaces it"
fi
install -d -m 0755 "$DESTDIR$SYSCONFDIR/transit/plugins.conf.d"
put 0644 packaging/plugins.conf.d.README "$SYSCONFDIR/transit/plugins.conf.d/README"

for page in docs/man/*.1 docs/man/*.5; do
    [ -f "$page" ] || continue
    put 0644 "$page" "$PREFIX/share/man/man${page##*.}/$(basename "$page")"
done
# The translated pages (docs/man/LANG/, from po/man by scripts/translate-man.sh), where man-db
# looks for LANG's: share/man/LANG/manN (Debian Policy 12.1; UTF-8).
for page in docs/man/*/*.1 docs/man/*/*.5; do
    [ -f "$page" ] || continue
    lang=$(basename "$(dirname "$page")")
    put 0644 "$page" "$PREFIX/share/man/$lang/man${page##*.}/$(basename "$page")"
done
[ -f packaging/completions/transit.bash ] && put 0644 packaging/completions/transit.bash "$PREFIX/share/bash-completion/completions/transit"
[ -f packaging/completions/_transit ] && put 0644 packaging/completions/_transit "$PREFIX/share/zsh/site-functions/_transit"
[ -f packaging/completions/transit.fish ] && put 0644 packaging/completions/transit.fish "$PREFIX/share/fish/vendor_completions.d/transit.fish"
for doc in README.md LICENSE docs/*.md; do put 0644 "$doc" "$PREFIX/share/doc/transit/$(basename "$doc")"; done
for sample in samples/*.json docs/examples/*.c docs/examples/*.json; do put 0644 "$sample" "$PREFIX/share/doc/transit/examples/$(basename "$sample")"; done

# The message catalogs (po/LINGUAS), compiled and checked here: share/locale/LANG/LC_MESSAGES/transit.mo
# and each family's transit-FAMILY.mo.
command -v msgfmt >/dev/null || { echo "install: msgfmt is missing (gettext; scripts/setup.sh installs it)" >&2; exit 1; }
locales=$(mktemp -d)
scripts/build-locales.sh "$locales"
for mo in "$locales"/*/LC_MESSAGES/*.mo; do
    [ -f "$mo" ] || continue
    put 0644 "$mo" "$PREFIX/share/locale/${mo#"$locales"/}"
done
rm -rf "$locales"

put 0644 Sources/ReaderABI/include/transit_reader.h "$PREFIX/include/transit/transit_reader.h"
pc=$(mktemp)
version=$(sed -n 's/.*static let number = "\([0-9.]*\)".*/\1/p' Sources/Host/TransitModel/Version.swift)
# sysconfdir relative to prefix (as pkg-config --define-variable=prefix= moves it) except /etc for /usr.
pcsysconfdir=$([ "$PREFIX" = /usr ] && echo /etc || echo '${prefix}/etc')
sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@SYSCONFDIR@|$pcsysconfdir|g" -e "s|@VERSION@|$version|g" packaging/transit-plugin.pc.in > "$pc"
put 0644 "$pc" "$PREFIX/share/pkgconfig/transit-plugin.pc"
rm -f "$pc"

manifest+=("$PREFIX/lib/transit/install-manifest")
list=$(mktemp)
printf '%s\n' "${manifest[@]}" > "$list"
install -D -m 0644 "$list" "$DESTDIR$PREFIX/lib/transit/install-manifest"
rm -f "$list"
echo "installed transit into ${DESTDIR}${PREFIX} (configuration in ${DESTDIR}${SYSCONFDIR}/transit)"
# Whether the rule went where udev reads it, on this machine (not staged, not an UDEVRULESDIR of
# a test's own).
system_rule=no
if [ -z "$DESTDIR" ] && [ "${UDEVRULESDIR#/etc/udev}" != "$UDEVRULESDIR" -o "${UDEVRULESDIR#/usr/lib/udev}" != "$UDEVRULESDIR" ]; then
    system_rule=yes
fi
# The group the udev rule names (GROUP="transit"), created as the .deb's postinst does: the
# system user transit with its group, from the .deb's sysusers.d file (systemd-sysusers), else
# useradd. Only for a real install by root of the rule where udev reads it; a staged one (DESTDIR)
# leaves it to its package.
if [ "$system_rule" = yes ] && [ "$(id -u)" -eq 0 ] && ! getent group transit >/dev/null; then
    if command -v systemd-sysusers >/dev/null; then
        systemd-sysusers - < packaging/debian/transit.sysusers
    elif ! getent passwd transit >/dev/null; then
        useradd --system --user-group --home-dir /var/lib/transit --no-create-home \
            --shell /usr/sbin/nologin --comment "transit card reader" transit
    else
        groupadd --system transit
    fi
    echo "created group transit (transit's udev rule names it: sudo usermod -aG transit USER gives a user the reader)"
elif [ "$system_rule" = yes ] && ! getent group transit >/dev/null; then
    echo "group transit, which transit's udev rule names, does not exist: run make install as root, or sudo groupadd --system transit" >&2
fi
if [ "$system_rule" = yes ] && [ -d /run/udev ] && command -v udevadm >/dev/null; then
    # A Sony reader already plugged in gets the rule's access now (udev reads new rules by itself).
    udevadm trigger --subsystem-match=usb --attr-match=idVendor=054c >/dev/null 2>&1 || true
fi
