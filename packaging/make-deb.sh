#!/usr/bin/env bash
# Builds build/transit_VERSION-REVISION_ARCH.deb from the release build (BIN) with dpkg-deb, no
# network: the files of `make install` with PREFIX=/usr, /etc/transit as conffiles, the Swift
# runtime in /usr/lib/transit, transit-watch.service (disabled), the transit system user
# (sysusers.d), maintainer scripts as debhelper writes them, and a polkit rule for pcscd builds
# that use polkit. Depends are the Debian packages that own the libraries the binaries load from
# outside the package; pcscd is recommended.
#
# Reproducible: every file's time is SOURCE_DATE_EPOCH (default: the last commit's), the same
# commit built in two folders gives the same bytes (scripts/check-reproducible.sh checks it).
# The Maintainer field is DEBFULLNAME <DEBEMAIL>, else git's user.name <user.email>.
set -euo pipefail
umask 022 # installed folders and files readable by every user, whatever the caller's umask
cd "$(dirname "$0")/.."
: "${BIN:?BIN: the release build folder}"
export LC_ALL=C.UTF-8 TZ=UTC
upstream=$(sed -n 's/.*static let number = "\([0-9.]*\)".*/\1/p' Sources/Host/TransitModel/Version.swift)
version="$upstream-${DEB_REVISION:-1}"
arch=$(dpkg --print-architecture)

name=${DEBFULLNAME:-$(git config user.name 2>/dev/null || true)}
email=${DEBEMAIL:-$(git config user.email 2>/dev/null || true)}
if [ -z "$name" ] || [ -z "$email" ]; then
    echo "deb: who maintains this package? Set DEBFULLNAME and DEBEMAIL (or git's user.name and user.email)" >&2
    exit 2
fi
maintainer="$name <$email>"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || true)
    [ -n "$SOURCE_DATE_EPOCH" ] || { echo "deb: set SOURCE_DATE_EPOCH (no git history to take it from)" >&2; exit 2; }
fi
export SOURCE_DATE_EPOCH

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
BIN="$BIN" PREFIX=/usr DESTDIR="$stage" packaging/install.sh >/dev/null
rm -f "$stage/usr/lib/transit/install-manifest" # dpkg keeps its own list
install -D -m 0644 packaging/transit-watch.service "$stage/lib/systemd/system/transit-watch.service"
install -D -m 0644 packaging/debian/transit.sysusers "$stage/usr/lib/sysusers.d/transit.conf"
install -D -m 0644 packaging/debian/transit.rules "$stage/usr/share/polkit-1/rules.d/transit.rules"
install -D -m 0644 packaging/debian/copyright "$stage/usr/share/doc/transit/copyright"
install -D -m 0644 packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/transit"
doc="$stage/usr/share/doc/transit"
rm -f "$doc/LICENSE" # in copyright
{
    cat packaging/debian/changelog
    printf '\n -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > "$doc/changelog.Debian"
gzip -9n "$doc/changelog.Debian"
find "$stage/usr/share/man" -type f -exec gzip -9n {} +

# Debian packages of the libraries loaded from outside the package.
deps=$(find "$stage/usr/bin" "$stage/usr/lib/transit" -type f \( -name '*.so' -o -perm -u+x \) -exec ldd {} + 2>/dev/null \
       | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | xargs -r readlink -f | grep -v "^$stage/" | sort -u \
       | while read -r lib; do dpkg -S "$lib" 2>/dev/null || dpkg -S "/lib/${lib#/usr/lib/}" 2>/dev/null || true; done \
       | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
[ -n "$deps" ] || { echo "deb: cannot tell the dependencies" >&2; exit 1; }

mkdir -p "$stage/DEBIAN"
for script in postinst prerm postrm; do install -m 0755 "packaging/debian/$script" "$stage/DEBIAN/$script"; done
find "$stage/etc" -type f | sed "s|^$stage||" | sort > "$stage/DEBIAN/conffiles"
# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, whatever the filesystem.
size=$(find "$stage" -path "$stage/DEBIAN" -prune -o \( -type f -o -type l \) -printf '%s\n' | awk '{ k += int(($1 + 1023) / 1024) } END { print k }')
cat > "$stage/DEBIAN/control" <<CONTROL
Package: transit
Version: $version
Architecture: $arch
Maintainer: $maintainer
Depends: $deps
Recommends: pcscd
Suggests: fonts-noto-cjk
Section: utils
Priority: optional
Installed-Size: $size
Description: read the balance and history of contactless transit cards
 transit reads Suica, ICOCA, PASMO and the other Japan IC cards, Rakuten
 Edy, WAON, nanaco, Octopus, EZ-Link (CEPAS), T-Money and the KS X 6924
 cards, Snapper and China T-Union through any PC/SC reader, and prints a
 readable summary or JSON. Every card family is a plugin, loaded in the
 order /etc/transit/plugins.conf sets. Card dumps (transit decode) need no
 reader; reading a card needs pcscd.
 .
 transit-watch.service (disabled) reads every tap as the system user
 transit into the card history in /var/lib/transit. Purging the package
 removes that folder and the history in it.
CONTROL
find "$stage" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
out="${OUT:-build}/transit_${version}_${arch}.deb"
mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >/dev/null
echo "$out"
