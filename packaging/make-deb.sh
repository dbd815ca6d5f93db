#!/usr/bin/env bash
# Builds build/transit_VERSION_ARCH.deb from the release build (BIN) with dpkg-deb, no network:
# the files of `make install` with PREFIX=/usr, /etc/transit as conffiles, the Swift runtime in
# /usr/lib/transit, and transit-watch.service (disabled: nothing enables it). Depends are the
# Debian packages that own the libraries the binaries load from outside the package, plus pcscd.
set -euo pipefail
umask 022 # installed folders and files readable by every user, whatever the caller's umask
cd "$(dirname "$0")/.."
: "${BIN:?BIN: the release build folder}"
version=$(sed -n 's/.*static let number = "\([0-9.]*\)".*/\1/p' Sources/TransitModel/Version.swift)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
BIN="$BIN" PREFIX=/usr DESTDIR="$stage" packaging/install.sh >/dev/null
rm -f "$stage/usr/lib/transit/install-manifest" # dpkg keeps its own list
install -D -m 0644 packaging/transit-watch.service "$stage/lib/systemd/system/transit-watch.service"
find "$stage/usr/share/man" -type f -exec gzip -9n {} +

# Debian packages of the libraries loaded from outside the package.
deps=$(find "$stage/usr/bin" "$stage/usr/lib/transit" -type f \( -name '*.so' -o -perm -u+x \) -exec ldd {} + 2>/dev/null \
       | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | xargs -r readlink -f | grep -v "^$stage/" | sort -u \
       | while read -r lib; do dpkg -S "$lib" 2>/dev/null || dpkg -S "/lib/${lib#/usr/lib/}" 2>/dev/null || true; done \
       | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
[ -n "$deps" ] || { echo "deb: cannot tell the dependencies" >&2; exit 1; }

mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: transit
Version: $version
Architecture: $arch
Maintainer: transit developers <transit@localhost>
Depends: pcscd, $deps
Section: utils
Priority: optional
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Description: read the balance and history of contactless transit cards
 transit reads Suica, ICOCA, PASMO and the other Japan IC cards, Rakuten Edy, WAON, nanaco,
 Octopus, EZ-Link (CEPAS), T-Money and the KS X 6924 cards, Snapper and China T-Union through
 any PC/SC reader, and prints a readable summary or JSON. Every card family is a plugin loaded
 in the order /etc/transit/plugins.conf sets. transit-watch.service (disabled) reads every tap
 into the journal.
CONTROL
find "$stage/etc" -type f | sed "s|^$stage||" > "$stage/DEBIAN/conffiles"
out="${OUT:-build}/transit_${version}_${arch}.deb"
mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group --build "$stage" "$out" >/dev/null
echo "$out"
