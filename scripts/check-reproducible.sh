#!/usr/bin/env bash
# Builds this checkout (with any uncommitted changes) in two temporary folders of different
# names, packages each with the same SOURCE_DATE_EPOCH and maintainer, and compares the two
# .deb files byte for byte; on a difference, names the files that differ. Also checks that no
# packaged file holds either build folder's path. 6 min 44 s on a shared 2-core machine (two
# release builds; longer while others build): outside the test suite. docs/install.md gives
# the same figure.
#   scripts/check-reproducible.sh [KEEP_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
# The working tree as it is, untracked files included (a throwaway index; the real one is untouched).
index=$(mktemp)
GIT_INDEX_FILE=$index git read-tree HEAD
GIT_INDEX_FILE=$index git add -A
tree=$(GIT_INDEX_FILE=$index git write-tree)
rm -f "$index"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export DEBFULLNAME=${DEBFULLNAME:-transit developers} DEBEMAIL=${DEBEMAIL:-transit@example.org}
work=${1:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${1:-}" ] || trap 'rm -rf "$work"' EXIT
debs=()
for dir in "$work/a" "$work/build-two-longer-name"; do
    rm -rf "$dir" && mkdir -p "$dir"
    git archive "$tree" | tar -x -C "$dir"
    start=$(date +%s)
    if ! (cd "$dir" && mapfile -t flags < <(scripts/reproducible-flags.sh) && swift build -c release "${flags[@]}" >"$work/build.log" 2>&1 && make -s deb-files BIN="$dir/.build/release" OUT="$dir/out" >>"$work/build.log" 2>&1); then
        tail -20 "$work/build.log" >&2
        echo "reproducible: the build in $dir failed" >&2
        exit 1
    fi
    echo "built in $dir: $(( $(date +%s) - start )) s"
    deb=$(ls "$dir"/out/*.deb)
    debs+=("$deb")
    if dpkg-deb --fsys-tarfile "$deb" | tar -xO | grep -a -q -F "$dir"; then
        echo "reproducible: a packaged file holds the build folder $dir" >&2
        exit 1
    fi
done
if cmp -s "${debs[0]}" "${debs[1]}"; then
    echo "reproducible: the two packages are identical ($(sha256sum < "${debs[0]}" | cut -c1-16)…, $(stat -c %s "${debs[0]}") bytes)"
    exit 0
fi
echo "reproducible: the two packages differ:" >&2
for i in 0 1; do rm -rf "$work/x$i" && dpkg-deb -R "${debs[$i]}" "$work/x$i"; done
diff -rq "$work/x0" "$work/x1" >&2 || true
exit 1
